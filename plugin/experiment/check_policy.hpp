/* jobsched check-policy NAME: a registered policy run through the runtime's invariants on generated workloads. */
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

class CommandLine;
/* jobsched check-policy NAME [--seed S] [--keep DIR] [--plugin PATH]...: its exit status is 0 every case passed, 1 a
 * violation (printed with the folder of its reproducing scenario), 2 bad input. */
void add_check_policy_command(CommandLine& cli);

} // namespace jobsched
