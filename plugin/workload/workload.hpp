/* A workload: the jobs to simulate, and what was left out of the source and why. */
#pragma once

#include "model/job.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace jobsched {

/* How a job whose run time exceeds its estimate is treated (SWF logs have such jobs: 475 in KTH SP2). */
enum class Overrun {
  extend, // the estimate is raised to the run time: the job runs to completion and policies plan with the truth
  kill    // the job is killed when its execution time reaches the estimate (final state COMPLETED_WALLTIME_REACHED)
};

struct WorkloadFilter {
  long max_jobs = 0;            // keep the first N valid jobs (0: all)
  double start_time = -1;       // keep jobs submitted at or after (negative: no bound)
  double end_time = -1;         // keep jobs submitted before (negative: no bound)
  int max_size = 0;             // skip jobs asking for more processors (0: no cap)
  bool reject_invalid = false;  // records with no run time or no size: error instead of skip
  bool reject_oversize = false; // jobs larger than the machine: error instead of skip
  Overrun overrun = Overrun::extend;
  double load_factor = 1; // arrival rate multiplier: inter-arrival times are divided by it (a load sweep on a log)
  /* Input shaking: each submission moves by a uniform amount in [-shake, +shake] seconds (never before the first
   * submission), drawn from the stream "shake" of `shake_seed`. One trace replayed as it is gives one schedule, and
   * a small change in the input can move a metric by more than the difference under study; replications with
   * different seeds average that sensitivity out (the idea of Tsafrir, Ouaknine and Feitelson's "input shaking").
   * 0: the trace as it is. */
  double shake = 0;
  std::uint64_t shake_seed = 1;
};

struct Workload {
  std::string name;
  JobList jobs;
  int source_max_procs = 0;            // MaxProcs (or MaxNodes) from an SWF header, 0 if absent
  long source_records = 0;             // job records read
  std::map<std::string, long> skipped; // reason -> count
  long overrun_jobs = 0;               // jobs whose run time exceeded their estimate
  /* Offered load: the jobs' work (size x run time) over the machine's capacity during the submissions (processors x
   * (last - first submission)); 0 with fewer than two submission times. */
  double offered_load = 0;
};

/* Reasons in Workload::skipped that are rejections (the simulator cannot run such a record) rather than the
 * scenario's filters: no_run_time, no_size, larger_than_machine. */
bool is_rejection_reason(const std::string& reason);

/* A job record before filtering (SWF or generated). */
struct JobRecord {
  WorkloadJob job;
  std::string origin; // "file:line" for error messages
};

/* The processors a policy gives a job at least beyond its size, from its memory (APMC, APVM, memory-constrained's
 * `min_nodes: memory`): a job that needs more than the machine's processors is larger than the machine, as one that
 * asks for more (workload.oversize_jobs: skipped and counted as larger_than_machine, or an error naming its line). */
struct MemoryNeed {
  std::function<double(const Job&)> least_processors; // null: none (the job's size is all it needs)
  std::string reason;                                 // the keys that make it so, for the error
};

/* `largest_job` for a policy that takes jobs of any size (gang-now: more processes than processors share them). */
constexpr int kAnyJobSize = 2147483647;

/* Apply validity checks, the filter and the overrun rule; `machine_size` is the number of processors.
 * Throws InputError naming the record's origin when the filter says to reject. `largest_job` (0: machine_size), when
 * smaller, is the most processors the policy can give one job, for the reason `largest_job_reason` (a key and its
 * value): larger jobs are treated as larger than the machine. */
Workload build_workload(std::string name, const std::vector<JobRecord>& records, const WorkloadFilter& filter,
                        int machine_size, int source_max_procs, int largest_job = 0,
                        const std::string& largest_job_reason = "", const MemoryNeed& memory_need = {});

/* build_workload() record by record, for a source that makes its records one at a time (the generator): the records
 * are never all held at once. add() reads a record's origin at once, and keeps its address for the error about a job
 * number that appears twice, made only when job numbers stop increasing (then the records' origins must outlive the
 * builder, as a vector of records' do). */
class WorkloadBuilder {
 public:
  /* As build_workload(); `expected_jobs`: how many records are to come, if known (room is made for them). */
  WorkloadBuilder(std::string name, const WorkloadFilter& filter, int machine_size, int source_max_procs,
                  int largest_job = 0, std::string largest_job_reason = "", size_t expected_jobs = 0);
  void add(const JobRecord& rec);
  void set_memory_need(MemoryNeed need) { memory_need_ = std::move(need); }
  void set_source_records(long records) { w_.source_records = records; }
  Workload finish();

 private:
  Workload w_;
  WorkloadFilter filter_;
  int machine_size_;
  int largest_job_;
  std::string largest_job_reason_;
  MemoryNeed memory_need_;
  std::vector<const std::string*> origins_; // of the jobs kept, while their numbers increase
  bool increasing_ = true;
  std::unordered_map<JobId, const std::string*> origin_of_; // job number -> where it was read, once they do not
};

} // namespace jobsched
