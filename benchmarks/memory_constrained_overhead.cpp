/* Speed of the memory-constrained quantum schedulers of McCann & Zahorjan 1994, "Scheduling memory constrained jobs
 * on distributed memory parallel computers", on the Monte Carlo point of section 5.1 at Table 3's defaults (Figure 9:
 * N = 128, J = 8, load factor 100%, k = 1): the same 10,000 draws of M_j scheduled by each of the six policies,
 * trials per second for each, the best of five interleaved rounds (no validation in the timed loop; the mean
 * normalized overhead is printed as a check).
 *
 * Usage: memory_constrained_overhead [TRIALS [SEED]] (defaults 10000 and 1). */
#include "experiment/overhead_experiment.hpp"
#include "policies/memory_constrained/policies.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace jobsched;
using namespace jobsched::memory_constrained;

int main(int argc, char** argv)
{
  long trials = argc > 1 ? std::atol(argv[1]) : 10000;
  unsigned long long seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
  if (trials < 1) {
    std::fprintf(stderr, "memory_constrained_overhead: TRIALS must be a positive whole number\n");
    return 2;
  }
  const OverheadPoint point{128, 8, 100, 1};
  auto distribution = mins_distribution(point.nodes, point.jobs, point.load_percent, RangeRounding::mix);
  RandomStream stream = point_stream(seed, point);
  std::vector<std::vector<int>> draws;
  for (long t = 0; t < trials; t++)
    draws.push_back(draw_mins(*distribution, point.jobs, stream));

  std::printf("memory-constrained schedulers, Figure 9 defaults (N = %d, J = %d, load %d%%, k = %d, M_j uniform on "
              "1..%d): %ld trials, seed %llu\n",
              point.nodes, point.jobs, point.load_percent, point.k, distribution->largest(), trials, seed);
  std::printf("%-16s %12s %14s %12s\n", "policy", "trials/s", "us/trial", "mean overhead");
  PlanOptions options;
  options.k = point.k;
  // Five rounds, each timing every policy once over the same draws, the policies interleaved so that a busy spell on
  // the shared machine hits them alike; each policy keeps its fastest round, the least disturbed one.
  const auto& policies = memory_constrained_policies();
  std::vector<double> best(policies.size(), 0.0);
  std::vector<double> mean(policies.size(), 0.0);
  for (int round = 0; round < 5; round++)
    for (size_t p = 0; p < policies.size(); p++) {
      double sum = 0;
      auto begin = std::chrono::steady_clock::now();
      for (const auto& mins : draws)
        sum += policies[p].plan(point.nodes, mins, options).normalized_overhead();
      double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
      best[p] = round == 0 ? seconds : std::min(best[p], seconds);
      mean[p] = sum / static_cast<double>(trials);
    }
  double equi_rate = 0;
  double opt_rate = 0;
  for (size_t p = 0; p < policies.size(); p++) {
    double rate = static_cast<double>(trials) / best[p];
    if (policies[p].name == "equi-epoch") equi_rate = rate;
    if (policies[p].name == "opt-epoch") opt_rate = rate;
    std::printf("%-16s %12.0f %14.2f %12.4f\n", policies[p].name.c_str(), rate, 1e6 / rate, mean[p]);
  }
  std::printf("opt-epoch(1) costs %.1f times equi-epoch per trial\n", equi_rate / opt_rate);
  return 0;
}
