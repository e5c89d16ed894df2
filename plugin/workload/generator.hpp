/* The built-in synthetic workload: enough for the quickstart and for tests, with no external data.
 *
 * Poisson arrivals; sizes serial with probability `serial_fraction`, else a power of two up to `max_size` (chosen
 * uniformly among the exponents) with probability `power_of_two_fraction`, else uniform in 2..max_size; run times
 * log-uniform in [min_run_time, max_run_time]; estimates = run time x a factor uniform in [1, max_estimate_factor].
 * These are the qualitative features of real logs (Lublin & Feitelson 2003), not a calibrated model. Each quantity
 * draws from its own named stream, so changing one distribution leaves the others' numbers unchanged.
 *
 * Options for the workload of Setia's adaptive-partitioning paper (section 4.1):
 *   - run_time_distribution = two_class: run times exponential with mean `short_mean` or `long_mean`, the long class
 *     with probability `long_fraction` (a two-stage hyperexponential; Setia: 300 s, 3600 s, 0.25).
 *   - memory_distribution: each job's code and data fill min_j processors' memories (`node_memory_mb` each), min_j
 *     drawn from Setia's distribution A (uniform 1..P), B (1..P/2 with probability 0.75, else P/2+1..P) or C (uniform
 *     1..P/2), P being the machine size (128 in the paper); the job's memory per processor of its requested size is
 *     then min_j x node_memory_mb / size (stream "memory requirements"). */
#pragma once

#include "core/random.hpp"
#include "workload/workload.hpp"

#include <cstdint>

namespace jobsched {

enum class RunTimeDistribution { log_uniform, two_class };

/* Setia's memory requirement distributions (section 4.1); none: jobs have no memory figure. */
enum class MemoryDistribution { none, setia_a, setia_b, setia_c };

/* One min_j (processors' worth of memory) from `distribution` on a machine of `machine_size` processors; draws two
 * numbers of `stream` whatever the distribution. */
int draw_memory_processors(MemoryDistribution distribution, int machine_size, RandomStream& stream);

struct GeneratorSpec {
  long jobs = 200;
  std::uint64_t seed = 1;
  double mean_interarrival = 60; // seconds
  int max_size = 0;              // 0: the machine size
  double serial_fraction = 0.25;
  double power_of_two_fraction = 0.75;
  RunTimeDistribution run_time_distribution = RunTimeDistribution::log_uniform;
  double min_run_time = 10;   // seconds, log_uniform
  double max_run_time = 7200; // seconds, log_uniform
  double short_mean = 400;    // seconds, two_class: mean of the short class
  double long_mean = 4000;    // seconds, two_class: mean of the long class
  double long_fraction = 0.5; // two_class: probability that a job is long
  double max_estimate_factor = 3;
  double time_resolution = 1; // submit, run and estimate times are multiples of this (0: continuous)
  MemoryDistribution memory_distribution = MemoryDistribution::none;
  double node_memory_mb = 1; // memory_distribution: the memory of one processor (MB)
};

std::vector<JobRecord> generate_jobs(const GeneratorSpec& spec, int machine_size);

} // namespace jobsched
