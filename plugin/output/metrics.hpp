/* Per-job and whole-run metrics, in one place so that jobs.csv, summary.json and tests agree on definitions (the
 * README's "Outputs" defines every column and key for users).
 *
 *   waiting time     = first start - submission
 *   turnaround       = finish - submission
 *   execution time   = finish - first start (suspensions included)
 *   dedicated time   = how long the job's computing would have taken alone on its requested processors, at its own
 *                      speedup: each running segment's length x S(n) / S(size) / the policy's slowdown factor
 *                      (JobAccount). Suspensions, context switches and image transfers are left out; the paging and
 *                      communication of the processors it computed on, their speed and the network contention it met
 *                      stay in. A space-sharing job computes in one segment on its requested processors: its
 *                      dedicated time is its execution time.
 *   slowdown         = turnaround / dedicated time (jobs.csv's "stretch"): time suspended counts as waiting
 *   bounded slowdown = max(1, turnaround / max(dedicated time, tau)), tau = 10 s (Feitelson et al. 1997)
 *   page-fault cost  = sum over its running segments of the fraction of its work done x run time x the paging stretch
 *                      of that placement
 *   communication    = dedicated time - the same sum at run time x (1 + paging stretch): what the rest of its dedicated
 *                      time cost beyond computing and paging (0 without communication; a segment cut short by a host
 *                      failure counts as computing and paging only)
 *   utilization      = processor time held by running jobs / (processors x makespan), whatever they did with it, in
 *                      every family: the sum over the trace's running segments of processors x length (a segment on
 *                      fractional shares its area, busy_area(); a processor under several processes of a job at once,
 *                      BusyUnion, once). Switching and transferring segments are not in it
 *   work             = the processor-seconds of computing a job did, at the reference speed, as its model defines its
 *                      work (job_work()): its whole work W = run time x S(size) (a rigid job of a log, linear: run
 *                      time x size; a moldable or malleable job the same W on whatever processors it got, its speedup
 *                      S saying how long it took there), or its phases' span x parallelism (Cao et al.'s jobs), times
 *                      the fraction of it done. Held processors left idle, paging, communication, context switches and
 *                      work done again after a requeue are not work
 *   work utilization = the jobs' work / (processors x makespan), in every family from each job's record, each
 *                      processor counted at its speed over the reference speed (what it can do of that work a second:
 *                      a heterogeneous network of workstations measured at its slowest has more than its processors):
 *                      whatever the policy, the same jobs finished do the same work, so runs differ in it only by
 *                      makespan
 *   makespan         = last finish - first submission
 * With a warm-up time (closed populations), the per-job means leave out jobs submitted before it; makespan and
 * the utilizations cover the whole run. */
#pragma once

#include "model/job.hpp"
#include "model/job_state.hpp"

#include <map>
#include <utility>
#include <string>
#include <vector>

namespace jobsched {

/* The bounded slowdown's threshold tau, seconds: the default of the scenario's metrics.bounded_slowdown_tau (Feitelson
 * et al.'s 10 s). */
constexpr double kBoundedSlowdownTau = 10.0;

double bounded_slowdown(double turnaround, double dedicated_time, double tau = kBoundedSlowdownTau);

struct RunMetrics {
  long jobs_finished = 0; // completed, walltime reached, killed or failed
  long jobs_completed = 0;
  long jobs_walltime_reached = 0;
  long jobs_killed = 0;
  long jobs_failed = 0;
  long jobs_unfinished = 0;
  double first_submission = 0;
  double last_finish = 0;
  double makespan = 0;
  double utilization = 0;
  double work = 0;             // processor-seconds, see job_work(): every job, finished or not
  double work_utilization = 0; // work / (processors x makespan)
  double mean_wait = 0;
  double median_wait = 0;
  double max_wait = 0;
  double mean_turnaround = 0;
  double mean_slowdown = 0;
  double mean_bounded_slowdown = 0;
  double mean_nodes_used = 0;         // hosts of the last placement
  double mean_communication_cost = 0; // seconds, see communication_seconds()
  double mean_page_fault_cost = 0;    // seconds: run time x paging stretch
  long jobs_measured = 0;             // jobs in the per-job means (all finished ones, less the warm-up)
  // What the site's scheduler did, from the log (jobs with a recorded start): its mean wait, and how many jobs this
  // simulation started later than the site did.
  long jobs_with_recorded_start = 0;
  double site_mean_wait = 0;
  long jobs_started_late = 0;
  JobCounters totals; // preemptions, resizes, migrations, bytes and times, summed over all jobs
  // Whether the arrivals outran the machine (see saturation_test()): the time-averaged number of jobs in the system
  // over the middle and the last third of the submissions, and the verdict (1 saturated, 0 not).
  double jobs_in_system_middle_third = 0;
  double jobs_in_system_last_third = 0;
  int saturated = 0;
  double backlog_stop_time = -1; // when the run stopped on simulation.max_backlog (then saturated), -1 if it did not
  double no_progress_stop_time = -1; // when the run stopped because no job ended while jobs were evicted again and
                                     // again, or nothing computed, for 30 simulated days (then saturated), or -1
  double stall_stop_time = -1;   // when the run stopped because no dispatch reached computing (then saturated), or -1
  /* Jain's fairness index of the measured jobs' slowdowns, (sum s)^2 / (n sum s^2): 1 when every job is slowed alike,
   * tending to 1/n as one job's slowdown dominates (1 with no job); and the largest slowdown. */
  double fairness = 1;
  double max_slowdown = 0;
  long owner_returns = 0;                       // workstation owners who came back (owners:), over the run
};

/* A run is saturated when the number of jobs in the system still grows at the end of the arrivals: its time average
 * over the last third of the submission period [first, last submission] exceeds the middle third's by more than half
 * (a stable queue gives equal averages up to noise; a queue growing linearly from empty gives 5/6 against 3/6 of its
 * final length, a ratio of 5/3) and by more than `kSaturationMargin` jobs (so that lightly loaded systems, whose ratios
 * are noise, never count: under Setia's workload at utilization 0.7 a stable system's thirds hold 6 to 18 jobs and
 * differ by up to 11 over 10,000 jobs, where a saturated one gains hundreds). Its response time then measures the
 * length of the run, not the policy.
 * What it detects is a backlog still growing at the end of the arrivals: made for arrivals of a steady rate (the
 * generated workloads), where a queue that grows anywhere grows there. A log's arrivals come in bursts and seasons, and
 * the test reads them as they come (measured on KTH SP2):
 * - a burst at the end is flagged when the policy falls behind it: fcfs on the first 2,000 jobs, 871, 394 and 735
 *   submissions in the thirds, 24.1, 25.7 and 68.5 jobs in the system (EASY on the same: 8.1, 8.8, 15.3, not
 *   flagged). Rightly: fcfs on the whole log runs those jobs alike (no later job passes them) and its queue goes on
 *   growing for five months after them (averages over 22-day stretches: 38, 116, 286, 645, 577, 635, 865 jobs);
 * - an overload that built up in the first two thirds and drained in the last is not flagged, however long it lasted:
 *   fcfs on the whole log (332.5, 731.5 and 119.9 jobs in the thirds, a mean wait of 389,861 s against EASY's 6,805)
 *   and EASY with the smp allocator's cost-aware rule at communication Level 2 (119.0, 324.6, 338.1 jobs; a queue
 *   growing for 200 days to 541 jobs, drained only when the arrivals slowed; a mean wait of 254,055 s). Their
 *   response times too depend on where the log ends. On a log, compare jobs_in_system_middle_third with a policy
 *   known to keep up (EASY: 17 on KTH) and look at the queue over time (jobsched plot's utilization figure). */
constexpr double kSaturationRatio = 1.5;
constexpr double kSaturationMargin = 20;
bool saturation_test(double middle_third, double last_third);

/* `v` to nine decimals. A time derived from SimGrid's clock carries in its last bits only the clock's rounding, which
 * differs between timers and ptasks: a figure made of it that falls halfway between two sixth decimals (a slowdown of
 * 9051 / 128 = 70.7109375) would be printed one way or the other. */
double nine_decimals(double v);

/* A job's row of jobs.csv (when its dedicated time is not its execution time, its ratios are those of its times to
 * nine decimals). A job that has not ended (NOT_FINISHED: the run stopped on simulation.max_backlog) is
 * measured as if it ended when the run stopped (`stop_time`, or its submission if later: the run never reached it),
 * with what it computed until then; a job that never started is taken to start when it ended. */
struct JobMetrics {
  double start = 0;      // first start (its end if it never started)
  double end = 0;        // finish (see above for a job that did not end)
  double waiting = 0;    // start - submission
  double execution = 0;  // end - start
  double turnaround = 0; // end - submission
  double dedicated = 0;  // JobAccount::dedicated_time
  /* turnaround / dedicated; when it computed for no time: 1 if it ended (a job without work), -1 if it did not. */
  double slowdown = 0;
  double bounded_slowdown = 1;
  double communication = 0; // see communication_seconds()
  double page_faults = 0;   // JobAccount::page_fault_time
};
/* `tau`: the bounded slowdown's threshold. */
JobMetrics job_metrics(const JobState& s, double stop_time, double tau = kBoundedSlowdownTau);

/* The work a job did, in processor-seconds at the reference speed: its whole work (WorkloadJob::work(), or its
 * profile's total_work() when it has one) if it completed, else the fraction of it its account says it did (its run
 * time stretched by paging, less the paging, over its run time: JobAccount; 0 for a job that never computed). `job`
 * is the record's own (state.job == &job). */
double job_work(const JobState& state, const WorkloadJob& job);

/* Time a job lost to communication: its dedicated time beyond its run time stretched by paging, over the work it did
 * (with the formula model exactly run time x base x nodes x level; with traffic, what the network cost it, contention
 * included); below a microsecond, 0. */
double communication_seconds(const JobState& s);

/* The whole-run metrics as running sums: the jobs' records handed over one by one in workload order (a run drops each
 * finished record once its row is written), the same sums in the same order as compute_metrics(). What needs every
 * job's value is kept as one vector each: the measured jobs' waiting times (the median), and every job's submission
 * and end (the jobs in the system over the thirds of the submission period, which are known only once the last
 * submission is: a closed population's submissions are made as jobs leave). 24 bytes a job. */
class MetricsAccumulator {
 public:
  /* `tau`: the bounded slowdown's threshold. */
  explicit MetricsAccumulator(double warmup = 0, double tau = kBoundedSlowdownTau) : warmup_(warmup), tau_(tau) {}
  /* `job`: the record's workload job (s.job == &job), whose hidden run time and speedup size its work. */
  void add(const JobState& s, const WorkloadJob& job);
  /* `busy_area`, `machine_processors`, `reference_processors`: as for compute_metrics(). */
  RunMetrics finish(double busy_area, int machine_processors, double reference_processors);

 private:
  double warmup_;
  double tau_;
  RunMetrics m_;
  std::vector<double> waits_;
  double slowdown_squares_ = 0;
  bool first_ = true;
  std::vector<std::pair<double, double>> presence_; // per job: submission, end (infinity when it did not end)
};

/* `states` in workload order, the i-th the record of `jobs[i]`; `busy_area`: processor-seconds of the trace's running
 * segments (see busy_area()); `reference_processors`: the machine's processors each counted at its speed over the
 * reference speed (`machine_processors` on a machine of the reference speed). */
RunMetrics compute_metrics(const std::deque<JobState>& states, const JobList& jobs, double busy_area,
                           int machine_processors, double reference_processors, double warmup = 0,
                           double tau = kBoundedSlowdownTau);
/* Processor-seconds a segment adds to the utilization: when running, its area on shares, else its processors x its
 * length; else 0. */
double busy_area(const TraceSegment& segment);
/* busy_area() with its processors' count from `count()`, asked only for a running segment without an area (trace.csv's
 * writer keeps a job's count while its set is unchanged). */
template <class ProcessorCount>
double busy_area(const TraceSegment& segment, ProcessorCount count)
{
  if (segment.status != JobStatus::running) return 0.0;
  if (segment.area >= 0) return segment.area; // (its processors not counted: held_processor_seconds() ignores them)
  return held_processor_seconds(segment.area, count(), segment.start, segment.end);
}

const char* batsim_final_state(JobFate fate);

} // namespace jobsched
