/* Per-job and whole-run metrics, in one place so that jobs.csv, summary.json and tests agree on definitions.
 *
 *   waiting time     = start - submission
 *   turnaround       = finish - submission
 *   execution time   = finish - start
 *   slowdown         = turnaround / execution time (Batsim's "stretch")
 *   bounded slowdown = max(1, turnaround / max(execution time, tau)), tau = 10 s (Feitelson et al. 1997)
 *   utilization      = sum over the trace's running segments of processors x length / (processors x makespan)
 *   makespan         = last finish - first submission
 * With a warm-up time (closed populations), the per-job means leave out jobs submitted before it; makespan and
 * utilization cover the whole run. */
#pragma once

#include "model/job.hpp"
#include "model/job_state.hpp"

#include <string>
#include <vector>

namespace jobsched {

constexpr double kBoundedSlowdownTau = 10.0;

double bounded_slowdown(double turnaround, double execution_time, double tau = kBoundedSlowdownTau);

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
  double stall_stop_time = -1;   // when the run stopped because no dispatch reached computing (then saturated), or -1
};

/* A run is saturated when the number of jobs in the system still grows at the end of the arrivals: its time average
 * over the last third of the submission period [first, last submission] exceeds the middle third's by more than half
 * (a stable queue gives equal averages up to noise; a queue growing linearly from empty gives 5/6 against 3/6 of its
 * final length, a ratio of 5/3) and by more than `kSaturationMargin` jobs (so that lightly loaded systems, whose ratios
 * are noise, never count: under Setia's workload at utilization 0.7 a stable system's thirds hold 6 to 18 jobs and
 * differ by up to 11 over 10,000 jobs, where a saturated one gains hundreds). Its response time then measures the
 * length of the run, not the policy. */
constexpr double kSaturationRatio = 1.5;
constexpr double kSaturationMargin = 20;
bool saturation_test(double middle_third, double last_third);

/* Time a finished job lost to communication: its execution time beyond its run time stretched by paging (with the
 * formula model exactly run time x base x nodes x level; with traffic, what the network cost it, contention
 * included). */
double communication_seconds(const JobState& s, const WorkloadJob& job);

/* `states` and `jobs` in the same (workload) order; `busy_area`: processor-seconds of the trace's running segments
 * (see busy_area()). */
RunMetrics compute_metrics(const std::deque<JobState>& states, const JobList& jobs, double busy_area,
                           int machine_processors, double warmup = 0);
/* Processor-seconds a segment adds to the utilization: its processors x its length when running, else 0. */
double busy_area(const TraceSegment& segment);

const char* batsim_final_state(JobFate fate);

} // namespace jobsched
