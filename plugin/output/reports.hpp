/* The text of the output files: jobs.csv (Batsim's columns first, so evalys and other Batsim tools read it, then
 * ours), trace.csv (execution segments), segments.csv (time-sharing runs: running segments in Batsim's columns),
 * summary.json (deterministic results) and performance.json (the simulator's own wall time and memory), the last two
 * written with nlohmann-json (core/json.hpp). */
#pragma once

#include "model/policy_report.hpp"
#include "output/metrics.hpp"
#include "output/run_folder.hpp"
#include "workload/workload.hpp"

#include <chrono>
#include <cstdio>
#include <map>
#include <ostream>
#include <string>

namespace jobsched {

struct RunDescription {
  std::string scenario;
  std::string policy;
  std::string allocation;
  std::string workload;
  std::string platform;
  int processors = 0;
  int hosts = 0;
  std::uint64_t seed = 0;
  double warmup = 0; // closed populations: jobs submitted before are left out of the per-job means
};

/* `states` and `jobs` in the same (workload) order; `stop_time`: when the run stopped (see job_metrics()). */
void write_jobs_csv(std::ostream& out, const std::deque<JobState>& states, const JobList& jobs,
                    const std::string& workload_name, double stop_time, const PolicyReport& extra = {});
/* segments.csv, for evalys and other Batsim tools: jobs.csv's Batsim columns, one row per running segment, the row's
 * submission being when the job became ready for that segment (its submission, then the end of its previous running
 * segment); success, final_state and stretch are the job's (jobs.csv's). Segments close while the run goes, before
 * their job's end is known: they wait in a temporary file, read back once at the end of the run to be written with
 * their job's final figures. */
class SegmentsWriter {
 public:
  SegmentsWriter(); // InputError when no temporary file can be made
  ~SegmentsWriter();
  SegmentsWriter(const SegmentsWriter&) = delete;
  SegmentsWriter& operator=(const SegmentsWriter&) = delete;
  void add(const TraceSegment& segment); // keeps running segments, ignores the others
  /* `states` and `jobs` in the same (workload) order, every job of the segments among them; `stop_time` as for
   * write_jobs_csv(). */
  void write(std::ostream& out, const std::deque<JobState>& states, const JobList& jobs,
             const std::string& workload_name, double stop_time);

 private:
  struct Spooled {
    JobId job;
    double start;
    double end;
    std::uint32_t processors_length; // the processors' interval notation follows
  };
  std::FILE* spool_;
  std::string text_;
};
/* trace.csv, one row per execution segment: job, start, end, processors (Batsim's interval notation), state. */
class TraceWriter {
 public:
  explicit TraceWriter(std::ostream& out); // writes the header
  void write(const TraceSegment& segment);

 private:
  std::ostream& out_;
  std::string row_;
};
std::string summary_json(const RunDescription& run, const Workload& workload, const RunMetrics& m);
/* With the policy's own keys after the common ones (model/policy_report.hpp). */
std::string summary_json(const RunDescription& run, const Workload& workload, const RunMetrics& m,
                         const PolicyReport& extra);

struct PerformanceFigures {
  double wall_seconds = 0;       // whole run: reading inputs, simulating, writing outputs
  double simulation_seconds = 0; // the simulation alone
  double peak_memory_mb = 0;
  long instants = 0;
  long decisions = 0;
  long jobs = 0;
  long segments = 0;     // rows of trace.csv
  std::string execution; // how jobs executed: timer (fast path) or ptask
};
std::string performance_json(const PerformanceFigures& p);
/* The last step of every kind of run: the peak memory and the wall time since `wall_start` go into `p`, which is
 * written as performance.json, and the folder is committed. */
void write_performance_and_commit(RunFolder& folder, PerformanceFigures& p,
                                  std::chrono::steady_clock::time_point wall_start);

/* Peak resident memory of this process, in MiB. */
double peak_memory_mb();

} // namespace jobsched
