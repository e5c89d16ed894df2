#include "runtime/events/owner_source.hpp"

#include "core/time.hpp"

namespace jobsched {

void OwnerSource::poll(double now, std::vector<std::unique_ptr<Event>>& into)
{
  for (const OwnerChange& c : owners_.take_due(now + kTimeEpsilon)) {
    auto event = std::make_unique<Event>();
    event->kind = Event::Kind::owner;
    event->host = c.host;
    event->owner_busy = c.busy;
    event->source = this;
    into.push_back(std::move(event));
  }
}

} // namespace jobsched
