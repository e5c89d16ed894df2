/* Free processors over future time, as a step function: the planning tool of conservative backfilling.
 *
 * The steps are a sorted array of (start, free processors): an earliest fit walks it from the first step it may use,
 * which on a contiguous array costs a few nanoseconds a step. Steps before the present are dropped, and a step that
 * no longer differs from the one before is merged into it, so the array holds only the breakpoints that matter. */
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

namespace jobsched {

class AvailabilityProfile {
 public:
  /* `capacity` processors free from `origin` on. */
  AvailabilityProfile(double origin, int capacity);
  /* Forgets everything: `capacity` processors free from `origin` on. */
  void reset(double origin, int capacity);
  /* Drops the steps before `now` (which becomes the origin): a profile kept from one scheduling event to the next. */
  void advance_to(double now);
  void reserve(double start, double end, int processors) { add(start, end, -processors); }
  void release(double start, double end, int processors) { add(start, end, processors); }
  /* Free processors at instant t (t >= origin). */
  int free_at(double t) const;
  /* The most processors free at any instant of [start, end) (start >= origin); -1 when the interval is empty. */
  int max_free(double start, double end) const;
  /* The earliest instant >= from at which `processors` stay free for `duration` seconds: `from` or the start of a
   * step; infinity when no step ever has room (more processors than the capacity). With `known_fit`, an instant where
   * the job is known to fit, the search stops there: the answer is then at most `known_fit`. */
  double earliest_fit(double from, double duration, int processors,
                      double known_fit = std::numeric_limits<double>::infinity()) const;
  /* Number of steps (breakpoints), for tests. */
  std::size_t steps() const { return steps_.size(); }

 private:
  struct Step {
    double start; // until the next step's start
    int free;
  };
  void add(double start, double end, int delta);
  std::size_t split_at(double t); // index of the step starting at t, created when missing
  void merge_if_redundant(std::size_t i);
  std::size_t step_containing(double t) const;
  std::vector<Step> steps_;
};

} // namespace jobsched
