#include "output/metrics.hpp"

#include <algorithm>
#include <cmath>

namespace jobsched {

double bounded_slowdown(double turnaround, double dedicated_time, double tau)
{
  return std::max(1.0, turnaround / std::max(dedicated_time, tau));
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

double nine_decimals(double v)
{
  return std::round(v * 1e9) / 1e9;
}

double communication_seconds(const JobState& o)
{
  double lost = o.account.dedicated_time - o.account.paged_run_time;
  return lost < 1e-6 ? 0.0 : lost;
}

double job_work(const JobState& o, const WorkloadJob& job)
{
  const double whole = job.profile.empty() ? job.work() : job.profile.total_work();
  if (o.fate == JobFate::completed) return whole;
  if (!(job.run_time > 0)) return 0.0;
  const double fraction = (o.account.paged_run_time - o.account.page_fault_time) / job.run_time;
  return whole * std::clamp(fraction, 0.0, 1.0);
}

JobMetrics job_metrics(const JobState& o, double stop_time, double tau)
{
  JobMetrics m;
  const double submit = o.job->submit_time;
  const bool ended = o.fate != JobFate::running;
  m.end = ended ? o.finish_time : std::max(stop_time, submit);
  m.start = o.start_time >= 0 ? o.start_time : m.end;
  m.waiting = m.start - submit;
  m.execution = m.end - m.start;
  m.turnaround = m.end - submit;
  m.dedicated = o.account.dedicated_time;
  // A job that computed from its start to its end on its requested processors (every space-sharing job) has Batsim's
  // stretch, turnaround / execution time, as it always had. Otherwise its dedicated time is a sum of segments: the
  // ratios are those of its times to nine decimals (see nine_decimals()).
  const bool segmented = m.dedicated != m.execution;
  const double turnaround = segmented ? nine_decimals(m.turnaround) : m.turnaround;
  const double dedicated = segmented ? nine_decimals(m.dedicated) : m.dedicated;
  m.slowdown = dedicated > 0 ? turnaround / dedicated : ended ? 1.0 : -1.0;
  m.bounded_slowdown = bounded_slowdown(turnaround, dedicated, tau);
  m.communication = communication_seconds(o);
  m.page_faults = o.account.page_fault_time;
  return m;
}

double busy_area(const TraceSegment& segment)
{
  return busy_area(segment, [&segment] { return segment.processors.count(); });
}

bool saturation_test(double middle_third, double last_third)
{
  return last_third > kSaturationRatio * middle_third && last_third - middle_third > kSaturationMargin;
}

void MetricsAccumulator::add(const JobState& o, const WorkloadJob& job)
{
  RunMetrics& m = m_;
  m.work += job_work(o, job);
  if (first_ || o.job->submit_time < m.first_submission) m.first_submission = o.job->submit_time;
  first_ = false;
  presence_.emplace_back(o.job->submit_time, o.fate == JobFate::running ? INFINITY : o.finish_time);
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
    return;
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
    return;
  m.last_finish = std::max(m.last_finish, o.finish_time);
  if (o.job->recorded_start >= 0) {
    m.jobs_with_recorded_start++;
    m.site_mean_wait += o.job->recorded_start - o.job->submit_time;
    if (o.start_time > o.job->recorded_start + 1e-6) m.jobs_started_late++;
  }
  if (o.job->submit_time < warmup_) return;
  const JobMetrics j = job_metrics(o, o.finish_time, tau_);
  waits_.push_back(j.waiting);
  m.mean_turnaround += j.turnaround;
  m.mean_slowdown += j.slowdown;
  slowdown_squares_ += j.slowdown * j.slowdown;
  m.max_slowdown = std::max(m.max_slowdown, j.slowdown);
  m.mean_bounded_slowdown += j.bounded_slowdown;
  m.mean_nodes_used += o.cost.nodes_used;
  m.mean_communication_cost += j.communication;
  m.mean_page_fault_cost += j.page_faults;
}

RunMetrics MetricsAccumulator::finish(double area, int machine_processors, double reference_processors)
{
  RunMetrics m = m_;
  std::vector<double>& waits = waits_;
  m.jobs_measured = static_cast<long>(waits.size());
  if (m.jobs_with_recorded_start > 0) m.site_mean_wait /= static_cast<double>(m.jobs_with_recorded_start);
  auto n = static_cast<double>(waits.size());
  if (n > 0) {
    double sum = 0;
    for (double w : waits)
      sum += w;
    m.mean_wait = sum / n;
    m.mean_turnaround /= n;
    if (slowdown_squares_ > 0) m.fairness = m.mean_slowdown * m.mean_slowdown / (n * slowdown_squares_);
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
  for (const auto& [from, to] : presence_)
    last_submission = std::max(last_submission, from);
  const double third = (last_submission - m.first_submission) / 3;
  if (third > 0) {
    const double middle_start = m.first_submission + third;
    const double last_start = m.first_submission + 2 * third;
    for (const auto& [from, to] : presence_) {
      m.jobs_in_system_middle_third += std::max(0.0, std::min(to, last_start) - std::max(from, middle_start));
      m.jobs_in_system_last_third += std::max(0.0, std::min(to, last_submission) - std::max(from, last_start));
    }
    m.jobs_in_system_middle_third /= third;
    m.jobs_in_system_last_third /= third;
    m.saturated = saturation_test(m.jobs_in_system_middle_third, m.jobs_in_system_last_third) ? 1 : 0;
  }
  m.makespan = std::max(0.0, m.last_finish - m.first_submission);
  if (m.makespan > 0 && machine_processors > 0) m.utilization = area / (m.makespan * machine_processors);
  if (m.makespan > 0 && reference_processors > 0) m.work_utilization = m.work / (m.makespan * reference_processors);
  return m;
}

RunMetrics compute_metrics(const std::deque<JobState>& states, const JobList& jobs, double area, int machine_processors,
                           double reference_processors, double warmup, double tau)
{
  MetricsAccumulator sums(warmup, tau);
  for (size_t i = 0; i < states.size(); i++)
    sums.add(states[i], jobs.at(i));
  return sums.finish(area, machine_processors, reference_processors);
}

} // namespace jobsched
