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
/* jobs.csv row by row, in workload order, as jobs leave (a run writes a job's row once every job before it has left,
 * and drops its record). `spool`: the policy's own columns (PolicyReport::job_columns) are known only at the end of the
 * run: the rows wait in a temporary file, and finish() writes the header with those columns and every row with its
 * values. Without `spool` the rows go straight to `out`, after the header, and the policy has no columns of its own
 * (space-sharing policies). */
class JobsCsvWriter {
 public:
  JobsCsvWriter(std::ostream& out, const std::string& workload_name, bool spool); // InputError: no temporary file
  ~JobsCsvWriter();
  JobsCsvWriter(const JobsCsvWriter&) = delete;
  JobsCsvWriter& operator=(const JobsCsvWriter&) = delete;
  /* `stop_time` as for write_jobs_csv() (only an unfinished job's row depends on it). */
  void write(const JobState& state, const WorkloadJob& job, double stop_time);
  void finish(const PolicyReport& extra);

 private:
  std::ostream& out_;
  std::string name_field_;
  std::FILE* spool_ = nullptr;
  std::string row_;
};
/* What segments.csv needs of a job once it has left (its record is dropped then): how it ended, and its slowdown. */
struct JobOutcome {
  JobFate fate = JobFate::running;
  double slowdown = 0;
};
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
  /* `outcomes` in the order of `jobs` (JobOutcome of each, its slowdown from job_metrics() with the run's stop time). */
  void write(std::ostream& out, const std::vector<JobOutcome>& outcomes, const JobList& jobs,
             const std::string& workload_name);

 private:
  struct Spooled {
    JobId job;
    double start;
    double end;
    std::uint32_t processors_length; // the processors' interval notation follows
    std::uint32_t aggregated;        // 1: a SpooledRepeats record follows (before the processors)
  };
  struct SpooledRepeats { // an aggregated row's TraceSegment::repeats and period
    std::int64_t repeats;
    double period;
  };
  std::FILE* spool_;
  std::string text_;
};
/* trace.csv, one row per execution segment: job, start, end, processors (Batsim's interval notation), state. With
 * `cycles` (a policy that may declare repeating schedules) two more columns, period and repeats: empty on an ordinary
 * row; an aggregated row (TraceSegment::repeats) stands for `repeats` segments, the i-th spanning [start + i x period,
 * end + i x period). */
class TraceWriter {
 public:
  explicit TraceWriter(std::ostream& out, bool cycles = false); // writes the header
  void write(const TraceSegment& segment);

 private:
  std::ostream& out_;
  std::string row_;
  bool cycles_ = false;
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
  long segments = 0;     // segments recorded (trace.csv's rows when written; counted without it too)
  std::string execution; // how jobs executed: timer (fast path) or ptask

  long virtual_instants = 0; // of `instants`, reached without SimGrid (SchedulerActor::set_virtual_wakeups)
  long cycles = 0;           // whole cycles advanced without deciding (SchedulerActor::set_cycles)
  long cycle_instants = 0;   // the decision instants those cycles stood for, not in `instants`
};
std::string performance_json(const PerformanceFigures& p);
/* The last step of every kind of run: the peak memory and the wall time since `wall_start` go into `p`, which is
 * written as performance.json, and the folder is committed. */
void write_performance_and_commit(RunFolder& folder, PerformanceFigures& p,
                                  std::chrono::steady_clock::time_point wall_start);

/* Peak resident memory of this process, in MiB. */
double peak_memory_mb();

} // namespace jobsched
