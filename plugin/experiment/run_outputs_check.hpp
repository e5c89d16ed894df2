/* The rules check-policy applies to one run's outputs (summary.json, jobs.csv, trace.csv), apart from the runtime's
 * own checks: they read only the files, as a user would. */
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace jobsched {

/* What check-policy knows of a case when it reads the run's outputs. */
struct CheckedRun {
  long records = 0;                        // records the workload generator makes
  int cores = 1;                           // processors per host: processor p is on host p / cores
  std::vector<double> speed;               // per host, its speed over the reference speed
  bool work_is_size_times_run_time = true; // else the run time alone (Downey's phased jobs: parallelism >= 1)
  bool shares = false; // fractional shares (Plan::share): two jobs may compute on the ends of their processor sets
};

/* The first rule the outputs in `out` (summary.json, jobs.csv, trace.csv) break, as one line naming the file and the
 * line, or "" when they keep them all: every record simulated, rejected or skipped; the run not stopped as saturated;
 * one jobs.csv row per job, each COMPLETED_SUCCESSFULLY; no processor computing (running or switching) for two jobs
 * at once; each job's running processor-seconds x speed, a processor counted once while several of the job's
 * processes share it, at least its work. Times are read as the files round them (6 decimals). */
std::string check_run_outputs(const std::filesystem::path& out, const CheckedRun& run);

} // namespace jobsched
