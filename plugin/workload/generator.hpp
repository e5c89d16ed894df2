/* The built-in synthetic workload: enough for the quickstart and for tests, with no external data.
 *
 * Poisson arrivals; sizes serial with probability `serial_fraction`, else a power of two up to `max_size` (chosen
 * uniformly among the exponents) with probability `power_of_two_fraction`, else uniform in 2..max_size; run times
 * log-uniform in [min_run_time, max_run_time]; estimates = run time x a factor uniform in [1, max_estimate_factor].
 * These are the qualitative features of real logs (Lublin & Feitelson 2003), not a calibrated model. Each quantity
 * draws from its own named stream, so changing one distribution leaves the others' numbers unchanged. */
#pragma once

#include "workload/workload.hpp"

#include <cstdint>

namespace jobsched {

struct GeneratorSpec {
  long jobs = 200;
  std::uint64_t seed = 1;
  double mean_interarrival = 60; // seconds
  int max_size = 0;              // 0: the machine size
  double serial_fraction = 0.25;
  double power_of_two_fraction = 0.75;
  double min_run_time = 10;   // seconds
  double max_run_time = 7200; // seconds
  double max_estimate_factor = 3;
  double time_resolution = 1; // submit, run and estimate times are multiples of this (0: continuous)
};

std::vector<JobRecord> generate_jobs(const GeneratorSpec& spec, int machine_size);

} // namespace jobsched
