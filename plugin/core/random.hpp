/* Named, seeded random streams that give the same numbers on every machine.
 *
 * Each purpose (arrivals, sizes, work...) draws from its own stream derived from (seed, name), so changing how many
 * numbers one purpose consumes never shifts another: the common-random-numbers discipline of simulation studies. The
 * distributions are written out here because the standard library's are implementation-defined. */
#pragma once

#include <cstdint>
#include <random>
#include <string>

namespace jobsched {

class RandomStream {
 public:
  RandomStream(std::uint64_t seed, const std::string& name);
  double uniform(); // [0, 1)
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  int uniform_int(int lo, int hi); // inclusive bounds
  double exponential(double mean);
  double log_uniform(double lo, double hi);

 private:
  std::mt19937_64 engine_;
};

} // namespace jobsched
