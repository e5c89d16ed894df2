#include "runtime/events/submitter.hpp"

#include "core/time.hpp"

XBT_LOG_NEW_DEFAULT_CATEGORY(jobsched_submitter, "jobsched: workload submission");

namespace jobsched {

bool Submitter::pending_at(double t) const
{
  if (in_flight_ > 0) return true;
  if (population_ > 0) return !started_;
  return next_ < jobs_.size() && jobs_[next_].submit_time <= t + kTimeEpsilon;
}

void Submitter::operator()()
{
  if (population_ > 0) {
    auto event = std::make_unique<Event>();
    for (; next_ < jobs_.size() && static_cast<long>(next_) < population_; next_++) {
      jobs_[next_].submit_time = 0;
      event->jobs.push_back(&jobs_[next_]);
    }
    started_ = true;
    send(std::move(event));
    return;
  }
  while (next_ < jobs_.size()) {
    const double t = jobs_[next_].submit_time;
    sg4::this_actor::sleep_until(t);
    auto event = std::make_unique<Event>();
    while (next_ < jobs_.size() && jobs_[next_].submit_time <= t + kTimeEpsilon)
      event->jobs.push_back(&jobs_[next_++]);
    XBT_DEBUG("submitting %zu jobs", event->jobs.size());
    send(std::move(event));
  }
}

void Submitter::job_ended(double now)
{
  if (population_ == 0 || next_ >= jobs_.size()) return;
  auto event = std::make_unique<Event>();
  jobs_[next_].submit_time = now;
  event->jobs.push_back(&jobs_[next_++]);
  send(std::move(event));
}

} // namespace jobsched
