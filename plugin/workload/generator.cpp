#include "workload/generator.hpp"

#include "core/errors.hpp"
#include "core/random.hpp"

#include <algorithm>
#include <cmath>

namespace jobsched {

namespace {
double quantize(double t, double resolution, double minimum)
{
  if (resolution <= 0) return std::max(t, minimum);
  return std::max(std::round(t / resolution) * resolution, minimum);
}
} // namespace

int draw_memory_processors(MemoryDistribution distribution, int machine_size, RandomStream& stream)
{
  const double choose = stream.uniform();
  const double pick = stream.uniform();
  const int half = std::max(1, machine_size / 2);
  auto uniform_in = [pick](int lo, int hi) { return std::min(hi, lo + static_cast<int>(pick * (hi - lo + 1))); };
  switch (distribution) {
  case MemoryDistribution::setia_a:
    return uniform_in(1, machine_size);
  case MemoryDistribution::setia_b:
    return choose < 0.75 || half == machine_size ? uniform_in(1, half) : uniform_in(half + 1, machine_size);
  case MemoryDistribution::setia_c:
    return uniform_in(1, half);
  case MemoryDistribution::none:
    break;
  }
  return 0;
}

std::vector<JobRecord> generate_jobs(const GeneratorSpec& spec, int machine_size)
{
  int max_size = spec.max_size > 0 ? std::min(spec.max_size, machine_size) : machine_size;
  if (spec.min_run_time <= 0 || spec.max_run_time < spec.min_run_time)
    throw InputError("workload.generator: need 0 < min_run_time <= max_run_time");
  if (spec.mean_interarrival <= 0 || spec.max_estimate_factor < 1)
    throw InputError("workload.generator: need mean_interarrival > 0 and max_estimate_factor >= 1");
  if (spec.run_time_distribution == RunTimeDistribution::two_class &&
      !(spec.short_mean > 0 && spec.long_mean > 0 && spec.long_fraction >= 0 && spec.long_fraction <= 1))
    throw InputError("workload.generator: two-class run times need short_mean > 0, long_mean > 0 and "
                     "0 <= long_fraction <= 1");
  if (spec.memory_distribution != MemoryDistribution::none && !(spec.node_memory_mb > 0))
    throw InputError("workload.generator.node_memory_mb: must be positive");
  RandomStream arrivals(spec.seed, "arrivals");
  RandomStream sizes(spec.seed, "sizes");
  RandomStream work(spec.seed, "work");
  RandomStream classes(spec.seed, "run time classes");
  RandomStream memories(spec.seed, "memory requirements");
  RandomStream estimates(spec.seed, "estimates");
  int max_exponent = static_cast<int>(std::floor(std::log2(max_size)));

  std::vector<JobRecord> out;
  double t = 0;
  for (long i = 0; i < spec.jobs; i++) {
    JobRecord rec;
    rec.origin = "generator job " + std::to_string(i + 1);
    WorkloadJob& job = rec.job;
    job.id = i + 1;
    if (i > 0) t += arrivals.exponential(spec.mean_interarrival);
    job.submit_time = quantize(t, spec.time_resolution, 0);
    double u = sizes.uniform();
    if (u < spec.serial_fraction || max_size == 1)
      job.size = 1;
    else if (sizes.uniform() < spec.power_of_two_fraction && max_exponent >= 1)
      job.size = 1 << sizes.uniform_int(1, max_exponent);
    else
      job.size = sizes.uniform_int(std::min(2, max_size), max_size);
    double resolution_floor = spec.time_resolution > 0 ? spec.time_resolution : 0;
    double drawn = 0;
    if (spec.run_time_distribution == RunTimeDistribution::two_class) {
      const bool long_job = classes.uniform() < spec.long_fraction;
      drawn = work.exponential(long_job ? spec.long_mean : spec.short_mean);
    } else {
      drawn = work.log_uniform(spec.min_run_time, spec.max_run_time);
    }
    job.run_time = quantize(drawn, spec.time_resolution, std::max(resolution_floor, 1e-3));
    if (spec.memory_distribution != MemoryDistribution::none) // min_j processors' memories over its processes
      job.memory_kb = draw_memory_processors(spec.memory_distribution, machine_size, memories) * spec.node_memory_mb *
                      1024.0 / job.size;
    job.estimate = std::max(job.run_time, quantize(job.run_time * estimates.uniform(1, spec.max_estimate_factor),
                                                   spec.time_resolution, job.run_time));
    out.push_back(std::move(rec));
  }
  return out;
}

} // namespace jobsched
