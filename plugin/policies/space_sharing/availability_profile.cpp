#include "policies/space_sharing/availability_profile.hpp"

#include "core/errors.hpp"

#include <iterator>
#include <limits>

namespace jobsched {

AvailabilityProfile::AvailabilityProfile(double origin, int capacity)
{
  steps_[origin] = capacity;
}

int AvailabilityProfile::free_at(double t) const
{
  auto it = steps_.upper_bound(t);
  if (it == steps_.begin()) throw PolicyError("availability profile asked about an instant before its origin");
  return std::prev(it)->second;
}

void AvailabilityProfile::split_at(double t)
{
  if (steps_.count(t) == 0) steps_[t] = free_at(t);
}

void AvailabilityProfile::add(double start, double end, int delta)
{
  if (!(end > start)) return;
  start = std::max(start, steps_.begin()->first);
  split_at(start);
  split_at(end);
  for (auto it = steps_.find(start); it != steps_.end() && it->first < end; ++it)
    it->second += delta;
}

double AvailabilityProfile::earliest_fit(double from, double duration, int processors) const
{
  double candidate = from;
  auto it = std::prev(steps_.upper_bound(from)); // the step that contains `from`
  while (true) {
    // Check every step overlapping [candidate, candidate + duration).
    auto probe = it;
    bool fits = true;
    for (; probe != steps_.end() && probe->first < candidate + duration; ++probe) {
      if (probe->second < processors) {
        fits = false;
        break;
      }
    }
    if (fits) return candidate;
    // Restart just after the step that was too full.
    it = std::next(probe);
    if (it == steps_.end())
      return std::numeric_limits<double>::infinity(); // the last step never has room: more than the capacity
    candidate = it->first;
  }
}

} // namespace jobsched
