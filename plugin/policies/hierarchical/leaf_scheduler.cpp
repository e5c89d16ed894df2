/* Cao et al., sections 3.1-3.3 and 4.3(4): the scheduler of a level-2 node (see leaf_scheduler.hpp). */
#include "policies/hierarchical/leaf_scheduler.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace jobsched::hierarchical {

namespace {
constexpr double kTimeTolerance = 1e-12; // a release within this of a boundary is at the boundary
}

void LeafScheduler::add_job(long id, double release, MalleableJob job)
{
  pending_.push_back({id, release, std::move(job)});
}

void LeafScheduler::begin_quantum(double t)
{
  while (!pending_.empty() && pending_.front().release <= t + kTimeTolerance) {
    PendingJob& p = pending_.front();
    ActiveJob a{std::move(p.job), {}, kInitialDesire, 0, 0, {}, false, kInitialDesire};
    a.record.id = p.id;
    a.record.release = p.release;
    a.record.work = a.job.work();
    a.record.span = a.job.span();
    a.record.average_parallelism = a.job.average_parallelism();
    a.record.phases = static_cast<long>(a.job.shapes().size());
    active_.push_back(std::move(a));
    pending_.pop_front();
  }
  for (ActiveJob& a : active_) {
    if (!a.ran) continue;
    switch (settings_.job_scheduler) {
    case JobScheduler::a_control:
      a.desire = a_control_desire(a.desire, a.last, settings_.convergence_rate);
      break;
    case JobScheduler::a_greedy:
      a.desire = a_greedy_desire(a.desire, a.last, settings_.a_greedy);
      break;
    case JobScheduler::equi:
      break;
    }
  }
}

double LeafScheduler::desire() const
{
  if (settings_.job_scheduler == JobScheduler::equi)
    return active_.empty() ? 0 : std::numeric_limits<double>::infinity();
  double sum = 0;
  for (const ActiveJob& a : active_)
    sum += a.desire;
  return sum;
}

LeafAllotment LeafScheduler::allot(double processors)
{
  LeafAllotment out;
  std::vector<double> desires;
  desires.reserve(active_.size());
  for (const ActiveJob& a : active_)
    desires.push_back(a.desire);
  const std::vector<double> shares =
      divide_processors(settings_.allocator, settings_.job_scheduler, std::vector<bool>(active_.size(), true), desires,
                        processors, settings_.whole_processors);
  for (size_t i = 0; i < active_.size(); i++) {
    ActiveJob& a = active_[i];
    const double moved = std::fabs(shares[i] - a.allotment);
    const double stall = moved * settings_.quantum * settings_.cost_factor;
    a.stall += stall;
    out.delay += stall;
    a.allotment = shares[i];
    out.allotted += shares[i];
    if (settings_.job_scheduler != JobScheduler::equi && a.allotment < a.desire * (1 - 1e-12))
      out.some_job_deprived = true;
  }
  return out;
}

std::vector<JobRecord> LeafScheduler::run_quantum(double t)
{
  std::vector<JobRecord> done;
  const double L = settings_.quantum;
  for (ActiveJob& a : active_) {
    const double stalled = std::min(a.stall, L);
    a.stall -= stalled;
    a.record.stall_time += stalled;
    if (a.allotment > 0 && a.record.start < 0) a.record.start = t;
    const QuantumProgress p = a.job.run(a.allotment, L - stalled);
    a.last = {p.work, p.span, a.allotment, L};
    a.ran = true;
    // Lemma 1's measures (analysis.hpp): the time the job executes while satisfied, the processor time it holds
    // while it executes (a job that ends inside the quantum counts the part it ran).
    if (settings_.job_scheduler != JobScheduler::equi && a.allotment >= a.desire * (1 - 1e-12))
      a.record.satisfied_time += p.elapsed;
    a.record.total_allotment += a.allotment * (stalled + p.elapsed);
    if (p.span > 0) {
      const double A = p.work / p.span;
      a.record.transition_factor =
          std::max(a.record.transition_factor, std::max(A / a.previous_parallelism, a.previous_parallelism / A));
      a.previous_parallelism = A;
    }
    if (p.finished) {
      a.record.finish = t + stalled + p.elapsed;
      done.push_back(a.record);
    }
  }
  active_.erase(std::remove_if(active_.begin(), active_.end(), [](const ActiveJob& a) { return a.job.finished(); }),
                active_.end());
  return done;
}

} // namespace jobsched::hierarchical
