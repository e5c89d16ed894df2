/* Free processors over future time, as a step function: the planning tool of conservative backfilling. */
#pragma once

#include <map>

namespace jobsched {

class AvailabilityProfile {
 public:
  /* `capacity` processors free from `origin` on. */
  AvailabilityProfile(double origin, int capacity);
  void reserve(double start, double end, int processors) { add(start, end, -processors); }
  void release(double start, double end, int processors) { add(start, end, processors); }
  /* Free processors at instant t (t >= origin). */
  int free_at(double t) const;
  /* The earliest instant >= from at which `processors` stay free for `duration` seconds. */
  double earliest_fit(double from, double duration, int processors) const;

 private:
  void add(double start, double end, int delta);
  void split_at(double t);
  std::map<double, int> steps_; // free processors from each key until the next one
};

} // namespace jobsched
