/* Host availability changes (failures, owners reclaiming their workstation, speed changes from SimGrid profiles) as an
 * event source. SimGrid reports them in its kernel, where nothing may block; the callback queues the change and wakes
 * this daemon actor, which sends it to the scheduler. */
#pragma once

#include "runtime/core/event_source.hpp"

#include <deque>
#include <map>

namespace jobsched {

class HostMonitor : public EventSource {
 public:
  HostMonitor(const std::vector<sg4::Host*>& compute_hosts, sg4::Mailbox* mailbox);
  void operator()();
  /* Changes noticed but not yet received by the scheduler. */
  bool pending_at(double) const override { return in_flight_ > 0 || !queue_.empty(); }
  /* Future changes (profiles) do not keep the run alive. */
  bool exhausted() const override { return true; }

 private:
  void noticed(const sg4::Host& host);
  std::map<const sg4::Host*, int> index_;
  std::deque<int> queue_;
  sg4::ActorPtr actor_;
};

} // namespace jobsched
