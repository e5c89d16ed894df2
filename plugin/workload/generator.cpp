#include "workload/generator.hpp"

#include "core/errors.hpp"
#include "core/random.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace jobsched {

namespace memory_constrained {

double MinsDistribution::mean() const
{
  return (low + 1) / 2.0 + p_high / 2.0;
}

std::optional<MinsDistribution> mins_distribution(int nodes, int jobs, int load_percent, RangeRounding rounding)
{
  if (nodes < 1) throw InputError("nodes: N = " + std::to_string(nodes) + " must be at least 1");
  if (jobs < 1) throw InputError("jobs: J = " + std::to_string(jobs) + " must be at least 1");
  if (load_percent < 1) throw InputError("load: " + std::to_string(load_percent) + "% must be at least 1%");
  // u = 2LN/J - 1 = (2 load N - 100 J) / (100 J), exactly.
  const long long numerator = 2LL * load_percent * nodes - 100LL * jobs;
  const long long denominator = 100LL * jobs;
  if (numerator < denominator) return std::nullopt; // u < 1: no integer range 1 .. u
  const long long rest = numerator % denominator;
  // Left out when the unrounded range can exceed N (ceil(u) > N), whatever the rounding, so that every rounding keeps
  // the same points: the paper's range would exceed N, and capping M_j at N would change the load.
  if (numerator / denominator + (rest > 0 ? 1 : 0) > nodes) return std::nullopt;
  MinsDistribution d;
  d.low = static_cast<int>(numerator / denominator);
  if (rest > 0) {
    const long long g = std::gcd(rest, denominator);
    switch (rounding) {
    case RangeRounding::mix:
      d.p_high_numerator = rest / g;
      d.p_high_denominator = denominator / g;
      break;
    case RangeRounding::floor:
      break;
    case RangeRounding::nearest:
      if (2 * rest >= denominator) d.low++; // halves round up
      break;
    }
  }
  d.p_high = static_cast<double>(d.p_high_numerator) / static_cast<double>(d.p_high_denominator);
  return d;
}

std::vector<int> draw_mins(const MinsDistribution& distribution, int jobs, RandomStream& stream)
{
  std::vector<int> mins(static_cast<size_t>(jobs));
  for (int& m : mins) {
    double choose = stream.uniform();
    double pick = stream.uniform();
    int upper = distribution.low;
    if (choose * static_cast<double>(distribution.p_high_denominator) <
        static_cast<double>(distribution.p_high_numerator))
      upper++;
    m = 1 + static_cast<int>(pick * upper);
  }
  return mins;
}

} // namespace memory_constrained

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
  std::vector<JobRecord> out;
  out.reserve(static_cast<size_t>(std::max(0L, spec.jobs)));
  generate_jobs(spec, machine_size, [&out](JobRecord&& rec) { out.push_back(std::move(rec)); });
  return out;
}

void generate_jobs(const GeneratorSpec& spec, int machine_size, const std::function<void(JobRecord&&)>& emit)
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
  if (spec.memory_distribution != MemoryDistribution::none && spec.min_nodes.enabled)
    throw InputError("workload.generator: memory_distribution and min_nodes both give jobs their memory: set one");
  if (spec.memory_distribution != MemoryDistribution::none && !(spec.node_memory_mb > 0))
    throw InputError("workload.generator.node_memory_mb: must be positive");
  std::optional<memory_constrained::MinsDistribution> mins;
  if (spec.min_nodes.enabled) {
    const MinNodesSpec& m = spec.min_nodes;
    if (m.jobs < 1 || m.load_percent < 1 || !(m.node_memory_mb > 0))
      throw InputError("workload.generator.min_nodes: need jobs >= 1, load_percent >= 1 and node_memory_mb > 0");
    mins = memory_constrained::mins_distribution(machine_size, m.jobs, m.load_percent, m.rounding);
    if (!mins) {
      const double upper = 2.0 * m.load_percent * machine_size / (100.0 * m.jobs) - 1;
      throw InputError("workload.generator.min_nodes: M_j ~ Uniform(1 .. 2LN/J - 1 = " + std::to_string(upper) +
                       ") at N = " + std::to_string(machine_size) + ", J = " + std::to_string(m.jobs) + ", load " +
                       std::to_string(m.load_percent) + "% " +
                       (upper < 1 ? "is empty" : "can exceed N (the paper's range is left out, not capped)"));
    }
  }
  RandomStream arrivals(spec.seed, "arrivals");
  RandomStream sizes(spec.seed, "sizes");
  RandomStream work(spec.seed, "work");
  RandomStream classes(spec.seed, "run time classes");
  RandomStream memories(spec.seed, "memory requirements");
  RandomStream min_nodes(spec.seed, "min_nodes");
  RandomStream estimates(spec.seed, "estimates");
  int max_exponent = static_cast<int>(std::floor(std::log2(max_size)));

  double t = 0;
  for (long i = 0; i < spec.jobs; i++) {
    JobRecord rec;
    rec.origin = "generator job " + std::to_string(i + 1);
    WorkloadJob& job = rec.job;
    job.id = i + 1;
    if (i > 0) t += arrivals.exponential(spec.mean_interarrival);
    job.submit_time = quantize(t, spec.time_resolution, 0);
    if (mins) {
      // Size 1: the work at one node is the run time. The memory says M_j (see the header).
      const int m = memory_constrained::draw_mins(*mins, 1, min_nodes).front();
      job.size = 1;
      job.memory_kb = m * spec.min_nodes.node_memory_mb * 1024.0;
    } else {
      double u = sizes.uniform();
      if (u < spec.serial_fraction || max_size == 1)
        job.size = 1;
      else if (sizes.uniform() < spec.power_of_two_fraction && max_exponent >= 1)
        job.size = 1 << sizes.uniform_int(1, max_exponent);
      else
        job.size = sizes.uniform_int(std::min(2, max_size), max_size);
    }
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
    emit(std::move(rec));
  }
}

std::vector<JobRecord> generate_vp_jobs(const GeneratorSpec& spec, std::vector<std::string> archs,
                                        std::vector<double> arch_weights)
{
  const VpGeneratorSpec& vp = spec.vp;
  if (!vp.archs.empty()) { // only the architectures listed
    std::vector<std::string> kept;
    std::vector<double> weights;
    for (const std::string& a : vp.archs) {
      auto it = std::find(archs.begin(), archs.end(), a);
      if (it == archs.end()) throw InputError("workload.generator.archs: no compute host has architecture '" + a + "'");
      kept.push_back(a);
      weights.push_back(arch_weights[static_cast<size_t>(it - archs.begin())]);
    }
    archs = std::move(kept);
    arch_weights = std::move(weights);
  }
  RandomStream arrivals(spec.seed, "gang-arrivals");
  RandomStream vps(spec.seed, "gang-vps");
  RandomStream work(spec.seed, "gang-work");
  RandomStream arch(spec.seed, "gang-arch");
  const double total = std::accumulate(arch_weights.begin(), arch_weights.end(), 0.0);
  std::vector<JobRecord> out;
  double t = 0;
  for (long i = 0; i < spec.jobs; i++) {
    JobRecord r;
    WorkloadJob& j = r.job;
    j.id = i;
    if (i > 0) t += arrivals.exponential(spec.mean_interarrival);
    j.submit_time = t;
    j.size = vps.uniform_int(vp.min_vps, vp.max_vps);
    j.run_time = vp.min_work == vp.max_work ? vp.min_work : work.log_uniform(vp.min_work, vp.max_work);
    j.estimate = j.run_time;
    j.memory_kb = vp.image_mb * 1e6 / 1024.0;
    double u = arch.uniform() * total;
    size_t a = 0;
    while (a + 1 < archs.size() && u >= arch_weights[a]) {
      u -= arch_weights[a];
      a++;
    }
    j.arch = archs[a];
    r.origin = "workload.generator job " + std::to_string(i);
    out.push_back(std::move(r));
  }
  return out;
}

} // namespace jobsched
