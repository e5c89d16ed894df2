#include "output/metrics.hpp"

#include <algorithm>
#include <cmath>

namespace jobsched {

double bounded_slowdown(double turnaround, double execution_time, double tau)
{
  return std::max(1.0, turnaround / std::max(execution_time, tau));
}

const char* batsim_final_state(JobFate fate)
{
  switch (fate) {
  case JobFate::completed:
    return "COMPLETED_SUCCESSFULLY";
  case JobFate::walltime_reached:
    return "COMPLETED_WALLTIME_REACHED";
  case JobFate::killed:
    return "COMPLETED_KILLED";
  case JobFate::failed:
    return "COMPLETED_FAILED";
  case JobFate::running:
    return "NOT_FINISHED";
  }
  return "?";
}

double communication_seconds(const JobState& o, const WorkloadJob& job)
{
  double lost = (o.finish_time - o.start_time) - job.run_time * (1.0 + o.cost.page_faults);
  return lost < 1e-6 ? 0.0 : lost; // a job killed at its wall time did not run its whole run time
}

double busy_area(const TraceSegment& segment)
{
  return segment.status == JobStatus::running ? segment.processors.count() * (segment.end - segment.start) : 0.0;
}

bool saturation_test(double middle_third, double last_third)
{
  return last_third > kSaturationRatio * middle_third && last_third - middle_third > kSaturationMargin;
}

RunMetrics compute_metrics(const std::deque<JobState>& states, const JobList& jobs, double area, int machine_processors,
                           double warmup)
{
  RunMetrics m;
  std::vector<double> waits;
  bool first = true;
  for (size_t i = 0; i < states.size(); i++) {
    const JobState& o = states[i];
    const WorkloadJob& job = jobs[i];
    if (first || o.job->submit_time < m.first_submission) m.first_submission = o.job->submit_time;
    first = false;
    m.totals.preemptions += o.counters.preemptions;
    m.totals.resizes += o.counters.resizes;
    m.totals.migrations += o.counters.migrations;
    m.totals.bytes_moved += o.counters.bytes_moved;
    m.totals.switching_time += o.counters.switching_time;
    m.totals.transfer_time += o.counters.transfer_time;
    m.totals.requeues += o.counters.requeues;
    m.totals.work_lost += o.counters.work_lost;
    switch (o.fate) {
    case JobFate::running:
      m.jobs_unfinished++;
      continue;
    case JobFate::completed:
      m.jobs_completed++;
      break;
    case JobFate::walltime_reached:
      m.jobs_walltime_reached++;
      break;
    case JobFate::killed:
      m.jobs_killed++;
      break;
    case JobFate::failed:
      m.jobs_failed++;
      break;
    }
    m.jobs_finished++;
    if (o.start_time < 0) // killed before it ever started
      continue;
    m.last_finish = std::max(m.last_finish, o.finish_time);
    if (o.job->recorded_start >= 0) {
      m.jobs_with_recorded_start++;
      m.site_mean_wait += o.job->recorded_start - o.job->submit_time;
      if (o.start_time > o.job->recorded_start + 1e-6) m.jobs_started_late++;
    }
    if (o.job->submit_time < warmup) continue;
    double wait = o.start_time - o.job->submit_time;
    double turnaround = o.finish_time - o.job->submit_time;
    double exec = o.finish_time - o.start_time;
    waits.push_back(wait);
    m.mean_turnaround += turnaround;
    m.mean_slowdown += exec > 0 ? turnaround / exec : 1.0;
    m.mean_bounded_slowdown += bounded_slowdown(turnaround, exec);
    m.mean_nodes_used += o.cost.nodes_used;
    m.mean_communication_cost += communication_seconds(o, job);
    m.mean_page_fault_cost += job.run_time * o.cost.page_faults;
  }
  m.jobs_measured = static_cast<long>(waits.size());
  if (m.jobs_with_recorded_start > 0) m.site_mean_wait /= static_cast<double>(m.jobs_with_recorded_start);
  auto n = static_cast<double>(waits.size());
  if (n > 0) {
    double sum = 0;
    for (double w : waits)
      sum += w;
    m.mean_wait = sum / n;
    m.mean_turnaround /= n;
    m.mean_slowdown /= n;
    m.mean_bounded_slowdown /= n;
    m.mean_nodes_used /= n;
    m.mean_communication_cost /= n;
    m.mean_page_fault_cost /= n;
    std::sort(waits.begin(), waits.end());
    size_t k = waits.size();
    m.median_wait = k % 2 == 1 ? waits[k / 2] : (waits[k / 2 - 1] + waits[k / 2]) / 2;
    m.max_wait = waits.back();
  }
  // Jobs in the system, averaged over the middle and last thirds of the submissions: each job adds the part of a third
  // it spent between its submission and its finish (an unfinished job: to the end).
  double last_submission = m.first_submission;
  for (const JobState& o : states)
    last_submission = std::max(last_submission, o.job->submit_time);
  const double third = (last_submission - m.first_submission) / 3;
  if (third > 0) {
    const double middle_start = m.first_submission + third;
    const double last_start = m.first_submission + 2 * third;
    for (const JobState& o : states) {
      const double from = o.job->submit_time;
      const double to = o.fate == JobFate::running ? INFINITY : o.finish_time;
      m.jobs_in_system_middle_third += std::max(0.0, std::min(to, last_start) - std::max(from, middle_start));
      m.jobs_in_system_last_third += std::max(0.0, std::min(to, last_submission) - std::max(from, last_start));
    }
    m.jobs_in_system_middle_third /= third;
    m.jobs_in_system_last_third /= third;
    m.saturated = saturation_test(m.jobs_in_system_middle_third, m.jobs_in_system_last_third) ? 1 : 0;
  }
  m.makespan = std::max(0.0, m.last_finish - m.first_submission);
  if (m.makespan > 0 && machine_processors > 0) m.utilization = area / (m.makespan * machine_processors);
  return m;
}

} // namespace jobsched
