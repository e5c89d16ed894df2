/* The synthetic workload of gang scheduling on networks of workstations (workload/gang_now_workload.hpp). */
#include "workload/gang_now_workload.hpp"

#include "core/random.hpp"

#include <numeric>

namespace jobsched {

std::vector<GangJob> generate_gang_jobs(const GangWorkloadSpec& spec, const std::vector<std::string>& archs,
                                        const std::vector<double>& arch_weights, std::uint64_t seed)
{
  RandomStream arrivals(seed, "gang-arrivals");
  RandomStream vps(seed, "gang-vps");
  RandomStream work(seed, "gang-work");
  RandomStream arch(seed, "gang-arch");
  const double total = std::accumulate(arch_weights.begin(), arch_weights.end(), 0.0);
  std::vector<GangJob> jobs;
  double t = 0;
  for (long i = 0; i < spec.jobs; i++) {
    GangJob j;
    j.id = i;
    if (i > 0) t += arrivals.exponential(spec.mean_interarrival);
    j.submit = t;
    j.vps = vps.uniform_int(spec.min_vps, spec.max_vps);
    j.work = spec.min_work == spec.max_work ? spec.min_work : work.log_uniform(spec.min_work, spec.max_work);
    j.image_bytes = spec.image_mb * 1e6;
    double u = arch.uniform() * total;
    size_t a = 0;
    while (a + 1 < archs.size() && u >= arch_weights[a]) {
      u -= arch_weights[a];
      a++;
    }
    j.arch = archs[a];
    jobs.push_back(j);
  }
  return jobs;
}

} // namespace jobsched
