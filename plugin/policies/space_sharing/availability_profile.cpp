#include "policies/space_sharing/availability_profile.hpp"

#include "core/errors.hpp"

#include <algorithm>

namespace jobsched {

AvailabilityProfile::AvailabilityProfile(double origin, int capacity)
{
  reset(origin, capacity);
}

void AvailabilityProfile::reset(double origin, int capacity)
{
  steps_.assign(1, Step{origin, capacity});
}

std::size_t AvailabilityProfile::step_containing(double t) const
{
  auto it = std::upper_bound(steps_.begin(), steps_.end(), t, [](double v, const Step& s) { return v < s.start; });
  if (it == steps_.begin()) throw PolicyError("availability profile asked about an instant before its origin");
  return static_cast<std::size_t>(it - steps_.begin()) - 1;
}

void AvailabilityProfile::advance_to(double now)
{
  if (!(now > steps_.front().start)) return;
  const std::size_t current = step_containing(now);
  steps_.erase(steps_.begin(), steps_.begin() + static_cast<long>(current));
  steps_.front().start = now;
}

int AvailabilityProfile::free_at(double t) const
{
  return steps_[step_containing(t)].free;
}

int AvailabilityProfile::max_free(double start, double end) const
{
  if (!(end > start)) return -1;
  int most = -1;
  for (std::size_t i = step_containing(start); i < steps_.size() && steps_[i].start < end; i++)
    most = std::max(most, steps_[i].free);
  return most;
}

std::size_t AvailabilityProfile::split_at(double t)
{
  const std::size_t i = step_containing(t);
  if (steps_[i].start == t) return i;
  steps_.insert(steps_.begin() + static_cast<long>(i) + 1, Step{t, steps_[i].free});
  return i + 1;
}

void AvailabilityProfile::merge_if_redundant(std::size_t i)
{
  if (i > 0 && i < steps_.size() && steps_[i].free == steps_[i - 1].free)
    steps_.erase(steps_.begin() + static_cast<long>(i));
}

void AvailabilityProfile::add(double start, double end, int delta)
{
  start = std::max(start, steps_.front().start);
  if (!(end > start)) return;
  const std::size_t first = split_at(start);
  std::size_t last = split_at(end); // the step starting at end: not changed
  for (std::size_t i = first; i < last; i++)
    steps_[i].free += delta;
  // Steps that no longer differ from the one before are merged into it (the later one first: indexes stay valid).
  merge_if_redundant(last);
  merge_if_redundant(first);
}

double AvailabilityProfile::earliest_fit(double from, double duration, int processors, double known_fit) const
{
  double candidate = from;
  std::size_t i = step_containing(from);
  const std::size_t n = steps_.size();
  while (candidate < known_fit) {
    // Check every step overlapping [candidate, candidate + duration).
    std::size_t probe = i;
    while (probe < n && steps_[probe].start < candidate + duration && steps_[probe].free >= processors)
      probe++;
    if (probe == n || !(steps_[probe].start < candidate + duration)) return candidate;
    // Restart at the first step after the one that was too full that has room.
    i = probe + 1;
    while (i < n && steps_[i].free < processors)
      i++;
    if (i == n) return std::numeric_limits<double>::infinity(); // no step ever has room: more than the capacity
    candidate = steps_[i].start;
  }
  return known_fit;
}

} // namespace jobsched
