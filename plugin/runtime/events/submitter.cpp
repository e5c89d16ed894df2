#include "runtime/events/submitter.hpp"

#include "core/time.hpp"

XBT_LOG_NEW_DEFAULT_CATEGORY(jobsched_submitter, "jobsched: workload submission");

namespace jobsched {

double Submitter::next_time() const
{
  if (next_ >= jobs_.size()) return std::numeric_limits<double>::infinity();
  if (population_ > 0)
    return !started_ ? 0.0 : replacements_ > 0 ? replace_at_ : std::numeric_limits<double>::infinity();
  return jobs_[next_].submit_time;
}

void Submitter::poll(double now, std::vector<std::unique_ptr<Event>>& into)
{
  auto event = std::make_unique<Event>();
  if (population_ > 0) {
    long count = started_ ? replacements_ : population_;
    for (; next_ < jobs_.size() && count > 0; next_++, count--) {
      jobs_[next_].submit_time = now; // released now
      event->jobs.push_back(&jobs_[next_]);
    }
    started_ = true;
    replacements_ = 0;
  } else {
    while (next_ < jobs_.size() && jobs_[next_].submit_time <= now + kTimeEpsilon)
      event->jobs.push_back(&jobs_[next_++]);
  }
  if (event->jobs.empty()) return;
  XBT_DEBUG("submitting %zu jobs", event->jobs.size());
  event->source = this;
  into.push_back(std::move(event));
}

void Submitter::job_ended(double now)
{
  if (population_ == 0 || next_ >= jobs_.size()) return;
  replacements_++;
  replace_at_ = now;
}

} // namespace jobsched
