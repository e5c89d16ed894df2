#include "runtime/events/process_source.hpp"

#include "core/time.hpp"

#include <cmath>
#include <limits>

namespace jobsched {

ProcessEventSource::ProcessEventSource(const JobList& jobs, const JobTable& table, double new_per_hour,
                                       double exit_per_hour, std::uint64_t seed)
    : EventSource(nullptr), table_(table), new_per_hour_(new_per_hour), exit_per_hour_(exit_per_hour)
{
  if (!(new_per_hour > 0) && !(exit_per_hour > 0)) return;
  for (const WorkloadJob& j : jobs) {
    Dynamics d{RandomStream(seed, "gang-dynamics-" + std::to_string(j.id)), 0, 0};
    d.next_new = next(d, j.submit_time, new_per_hour_);
    d.next_exit = next(d, j.submit_time, exit_per_hour_);
    if (std::isfinite(d.next_new)) due_.emplace(d.next_new, j.id, true);
    if (std::isfinite(d.next_exit)) due_.emplace(d.next_exit, j.id, false);
    jobs_.emplace(j.id, std::move(d));
  }
}

double ProcessEventSource::next(Dynamics& d, double from, double per_hour)
{
  return per_hour > 0 ? from + d.random.exponential(3600.0 / per_hour) : std::numeric_limits<double>::infinity();
}

double ProcessEventSource::next_time() const
{
  return due_.empty() ? std::numeric_limits<double>::infinity() : std::get<0>(*due_.begin());
}

void ProcessEventSource::poll(double now, std::vector<std::unique_ptr<Event>>& into)
{
  while (!due_.empty() && std::get<0>(*due_.begin()) <= now + kTimeEpsilon) {
    const auto [t, id, added] = *due_.begin();
    due_.erase(due_.begin());
    Dynamics& d = jobs_.at(id);
    if (table_.ended(id)) continue;
    double& clock = added ? d.next_new : d.next_exit;
    clock = next(d, clock, added ? new_per_hour_ : exit_per_hour_);
    due_.emplace(clock, id, added);
    auto event = std::make_unique<Event>();
    event->kind = Event::Kind::process;
    event->job = id;
    event->process_added = added;
    event->draw = added ? 0.0 : d.random.uniform();
    event->source = this;
    into.push_back(std::move(event));
  }
}

void ProcessEventSource::job_ended(double)
{
  for (auto it = due_.begin(); it != due_.end();)
    it = table_.ended(std::get<1>(*it)) ? due_.erase(it) : std::next(it);
}

} // namespace jobsched
