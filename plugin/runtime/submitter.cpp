#include "runtime/submitter.hpp"

#include "policy/cluster_state.hpp"

XBT_LOG_NEW_DEFAULT_CATEGORY(jobsched_submitter, "jobsched: workload submission");

namespace jobsched {

bool Submitter::pending_at(double t) const
{
  return in_flight_ || (next_ < jobs_.size() && jobs_[next_].submit_time <= t + kTimeEpsilon);
}

void Submitter::operator()()
{
  while (next_ < jobs_.size()) {
    const double t = jobs_[next_].submit_time;
    sg4::this_actor::sleep_until(t);
    auto* msg = new SchedulerMessage;
    while (next_ < jobs_.size() && jobs_[next_].submit_time <= t + kTimeEpsilon)
      msg->jobs.push_back(&jobs_[next_++]);
    XBT_DEBUG("submitting %zu jobs", msg->jobs.size());
    in_flight_ = true;
    mailbox_->put(msg, 0);
  }
}

} // namespace jobsched
