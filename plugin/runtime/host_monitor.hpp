/* Delivers host availability changes (failures, owners reclaiming their workstation, speed changes from SimGrid
 * profiles) to the scheduler. SimGrid reports them in its kernel, where nothing may block; the callback queues the
 * change and wakes this daemon actor, which forwards it as a message. */
#pragma once

#include "runtime/submitter.hpp"

#include <deque>
#include <map>

namespace jobsched {

class HostMonitor {
 public:
  HostMonitor(const std::vector<sg4::Host*>& compute_hosts, sg4::Mailbox* mailbox);
  HostMonitor(const HostMonitor&) = delete; // SimGrid's callbacks hold `this`
  HostMonitor& operator=(const HostMonitor&) = delete;
  void operator()();
  /* Changes noticed but not yet handed to the scheduler. */
  bool pending() const { return undelivered_ > 0; }
  void delivered() { undelivered_--; }

 private:
  void noticed(const sg4::Host& host);
  std::map<const sg4::Host*, int> index_;
  sg4::Mailbox* mailbox_;
  std::deque<int> queue_;
  int undelivered_ = 0;
  sg4::ActorPtr actor_;
};

} // namespace jobsched
