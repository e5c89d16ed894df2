#include "model/fork_join.hpp"

#include "core/random.hpp"

#include <algorithm>
#include <cmath>

namespace jobsched {

const char* to_string(FaultOffsets offsets)
{
  return offsets == FaultOffsets::plus_minus ? "plus-minus" : "window";
}

long phase_count(const ForkJoinSpec& spec)
{
  return std::max(1L, std::lround(spec.computation / spec.granularity));
}

long phase_of(const ForkJoinSpec& spec, double t)
{
  // Phase p covers computation instants [p g, (p + 1) g); a fault exactly at the end of the program is in the last.
  return std::clamp(static_cast<long>(std::floor(t / spec.granularity)), 0L, phase_count(spec) - 1);
}

std::vector<std::vector<double>> fault_schedule(const ForkJoinSpec& spec, std::uint64_t seed)
{
  const double total = static_cast<double>(phase_count(spec)) * spec.granularity;
  const long rounds = static_cast<long>(std::floor(spec.fault_rate * total + 1e-9));
  const double width = (1 - spec.correlation) / spec.fault_rate;
  RandomStream round_stream(seed, "fork-join rounds");
  RandomStream stream(seed, "fork-join faults");
  std::vector<std::vector<double>> faults(static_cast<size_t>(spec.threads));
  // Round by round, thread by thread, in a fixed order: a seed always gives the same schedule.
  for (long k = 0; k < rounds; k++) {
    const double common = (static_cast<double>(k) + round_stream.uniform()) / spec.fault_rate;
    for (auto& thread : faults) {
      double offset = 0;
      if (width > 0)
        offset = spec.offsets == FaultOffsets::plus_minus ? stream.uniform(-width, width) : stream.uniform(0, width);
      thread.push_back(std::clamp(common + offset, 0.0, total));
    }
  }
  for (auto& thread : faults)
    std::sort(thread.begin(), thread.end());
  return faults;
}

double fork_join_completion_time(const ForkJoinSpec& spec, const std::vector<std::vector<double>>& faults,
                                 const std::vector<double>& phase_length)
{
  const long phases = phase_count(spec);
  const double longest = *std::max_element(phase_length.begin(), phase_length.end()); // a phase without faults
  std::vector<double> slowest(static_cast<size_t>(phases), longest);
  for (size_t i = 0; i < faults.size(); i++) {
    const auto& thread = faults[i];
    for (size_t k = 0; k < thread.size();) { // the faults of one phase, together
      const long p = phase_of(spec, thread[k]);
      long taken = 0;
      for (; k < thread.size() && phase_of(spec, thread[k]) == p; k++)
        taken++;
      double& time = slowest[static_cast<size_t>(p)];
      time = std::max(time, phase_length[i] + static_cast<double>(taken) * spec.fault_service);
    }
  }
  double total = 0;
  for (double t : slowest)
    total += t + spec.barrier_cost;
  return total;
}

} // namespace jobsched
