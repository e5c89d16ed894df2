#include "runtime/events/host_monitor.hpp"

#include <algorithm>

XBT_LOG_NEW_DEFAULT_CATEGORY(jobsched_monitor, "jobsched: host availability changes");

namespace jobsched {

HostMonitor::HostMonitor(const std::vector<sg4::Host*>& compute_hosts, sg4::Mailbox* mailbox) : EventSource(mailbox)
{
  for (size_t i = 0; i < compute_hosts.size(); i++)
    index_[compute_hosts[i]] = static_cast<int>(i);
  auto cb = [this](const sg4::Host& h) { noticed(h); };
  sg4::Host::on_state_change_cb(cb);
  sg4::Host::on_speed_change_cb(cb);
}

void HostMonitor::noticed(const sg4::Host& host)
{
  auto it = index_.find(&host);
  if (it == index_.end()) return;
  queue_.push_back(it->second);
  if (actor_) actor_->resume();
}

void HostMonitor::operator()()
{
  actor_ = sg4::Actor::self();
  while (true) {
    if (queue_.empty()) {
      sg4::this_actor::suspend();
      continue;
    }
    // Changes noticed at one instant go in host order: SimGrid fires the profile events of one date in an order that
    // depends on where they sit in memory (a run that allocates differently heard two hosts the other way round).
    std::stable_sort(queue_.begin(), queue_.end());
    auto event = std::make_unique<Event>();
    event->kind = Event::Kind::host_change;
    event->host = queue_.front();
    queue_.pop_front();
    XBT_DEBUG("host %d changed", event->host);
    send(std::move(event));
  }
}

} // namespace jobsched
