/* The fork-join paging study's fault schedule and its completion time (model/fork_join.hpp), by hand. The simulation
 * itself is checked against the same computation in tests/cli/fork_join.sh. */
#include "model/fork_join.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace jobsched {
namespace {

ForkJoinSpec small_spec()
{
  ForkJoinSpec s;
  s.threads = 2;
  s.granularity = 1.0; // 4 phases of 1 s
  s.computation = 4.0;
  s.fault_rate = 1.0;
  s.fault_service = 0.5;
  return s;
}

TEST(ForkJoin, CompletionTimeIsTheSumOfEachPhasesSlowestThread)
{
  ForkJoinSpec s = small_spec();
  // Thread 0 faults twice in phase 0 and once in phase 2; thread 1 once in phase 0 and once in phase 3.
  std::vector<std::vector<double>> faults{{0.2, 0.7, 2.5}, {0.1, 3.9}};
  // Phases: 0: max(1 + 2 x 0.5, 1 + 0.5) = 2; 1: 1; 2: 1.5; 3: 1.5.  Total 6.
  EXPECT_DOUBLE_EQ(fork_join_completion_time(s, faults, {1.0, 1.0}), 6.0);
  // A thread twice as slow (2 s a phase) dominates every phase: 2 + 2 + 2 + 2, but phase 0 (2 + 0.5 = 2.5 for
  // thread 1 against 1 + 1 = 2 for thread 0) and phase 3 (2 + 0.5).
  EXPECT_DOUBLE_EQ(fork_join_completion_time(s, faults, {1.0, 2.0}), 2.5 + 2 + 2 + 2.5);
  s.barrier_cost = 0.25; // each of the 4 barriers
  EXPECT_DOUBLE_EQ(fork_join_completion_time(s, faults, {1.0, 1.0}), 7.0);
  // A fault exactly at the end of the computation belongs to the last phase.
  EXPECT_EQ(phase_of(s, 4.0), 3);
  EXPECT_EQ(phase_of(s, 0.0), 0);
}

TEST(ForkJoin, FaultsPerThreadAreEqualAndCorrelationBoundsTheirSpread)
{
  ForkJoinSpec s;
  s.threads = 16;
  s.granularity = 50e-6;
  s.computation = 2.0;
  s.fault_rate = 100;
  for (FaultOffsets reading : {FaultOffsets::plus_minus, FaultOffsets::window})
    for (double c : {1.0, 0.99, 0.9, 0.5}) {
      s.correlation = c;
      s.offsets = reading;
      auto faults = fault_schedule(s, 5);
      ASSERT_EQ(faults.size(), 16U);
      for (const auto& thread : faults) {
        ASSERT_EQ(thread.size(), 200U); // rate x computation, one per round
        EXPECT_TRUE(std::is_sorted(thread.begin(), thread.end()));
        EXPECT_GE(thread.front(), 0.0);
        EXPECT_LE(thread.back(), 2.0);
      }
      // Round k's faults: within 2W of each other (plus-minus W) or W (a window of W), W = (1 - c) / rate. With
      // c <= 0.9 the windows of successive rounds overlap and sorting mixes rounds: check the first round only then.
      const double w = (1 - c) / s.fault_rate;
      const double spread_allowed = (reading == FaultOffsets::plus_minus ? 2 * w : w) + 1e-12;
      const size_t rounds = c > 0.95 ? 200 : 1;
      for (size_t k = 0; k < rounds; k++) {
        double lo = 1e300;
        double hi = -1e300;
        for (const auto& thread : faults) {
          lo = std::min(lo, thread[k]);
          hi = std::max(hi, thread[k]);
        }
        EXPECT_LE(hi - lo, spread_allowed) << "c " << c << " round " << k;
        if (c == 1.0) {
          EXPECT_EQ(hi, lo);
        }
      }
    }
}

TEST(ForkJoin, PerfectCorrelationSlowsByRateTimesService)
{
  // All threads fault together: each round costs one service time whatever the thread count.
  ForkJoinSpec s;
  s.granularity = 50e-6;
  s.computation = 1.0;
  s.fault_rate = 100;
  s.fault_service = 1e-3;
  s.correlation = 1;
  for (int threads : {8, 64, 128}) {
    s.threads = threads;
    auto faults = fault_schedule(s, 1);
    double t = fork_join_completion_time(s, faults, std::vector<double>(static_cast<size_t>(threads), 50e-6));
    EXPECT_NEAR(t, 1.1, 1e-9) << threads << " threads";
  }
}

} // namespace
} // namespace jobsched
