/* BusyUnion (the busy processor-seconds of runs whose processes double up) against the sum it replaces: every
 * processor's intervals kept to the end, sorted, and summed processor by processor. Intervals are made as a run makes
 * them: segments open on a processor at some time and close later, each closing handing over [its start, now]; the
 * union is settled now and then up to the earliest start of the segments still open. The two sums must have the same
 * bits, with start times on whole and half seconds (terms that are floats) and arbitrary ones (terms that are not),
 * overlapping segments (a processor busy once), and bounds that settle nothing or everything. */
#include "output/busy_union.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <utility>
#include <vector>

using namespace jobsched;

namespace {

double reference_area(double area, std::vector<std::vector<std::pair<double, double>>> busy)
{
  for (auto& intervals : busy) {
    std::sort(intervals.begin(), intervals.end());
    double covered_to = -std::numeric_limits<double>::infinity();
    for (const auto& [start, end] : intervals) {
      area += std::max(0.0, end - std::max(start, covered_to));
      covered_to = std::max(covered_to, end);
    }
  }
  return area;
}

std::uint64_t bits_of(double x)
{
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

struct Open {
  int processor;
  double since;
};

/* One run of `closings` segment ends on `processors` processors; `half_seconds`: times on whole and half seconds.
 * `settle_every`: settle after that many closings (0: never). Returns {union's area, reference's area}. */
std::pair<double, double> run(unsigned seed, int processors, int closings, bool half_seconds, int settle_every)
{
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<int> processor_of(0, processors - 1);
  std::uniform_real_distribution<double> step(0.0, 90.0);
  BusyUnion busy(static_cast<std::size_t>(processors));
  std::vector<std::vector<std::pair<double, double>>> all(static_cast<std::size_t>(processors));
  std::vector<Open> open;
  double now = 1e6 / 3; // not a float: most differences of arbitrary times are not either
  if (half_seconds) now = 600022;
  const double initial_area = half_seconds ? 1234.5 : 0.1;
  for (int i = 0; i < closings; i++) {
    const double dt = step(random);
    now += half_seconds ? std::round(dt * 2) / 2 : dt;
    // Open a few segments (two on one processor at times), close one at random.
    const int opened = static_cast<int>(random() % 3);
    for (int k = 0; k < opened; k++)
      open.push_back({processor_of(random), now - (random() % 4 == 0 ? 0.0 : (half_seconds ? 0.5 : 0.25))});
    if (open.empty()) continue;
    const std::size_t closing = random() % open.size();
    const Open o = open[closing];
    open.erase(open.begin() + static_cast<std::ptrdiff_t>(closing));
    // Some segments close at once again (a zero-length one is never handed over, but equal starts and ends are).
    const double end = random() % 5 == 0 ? std::max(o.since, now - 1) : now;
    if (end <= o.since) continue;
    busy.add(o.processor, o.since, end);
    all[static_cast<std::size_t>(o.processor)].emplace_back(o.since, end);
    if (settle_every > 0 && i % settle_every == 0) {
      double bound = now - 1; // the ends above go back one second at most
      for (const Open& still : open)
        bound = std::min(bound, still.since);
      busy.settle(bound);
    }
  }
  for (const Open& o : open) { // the run's end closes what is open
    if (now + 1 <= o.since) continue;
    busy.add(o.processor, o.since, now + 1);
    all[static_cast<std::size_t>(o.processor)].emplace_back(o.since, now + 1);
  }
  return {busy.finish(initial_area), reference_area(initial_area, all)};
}

} // namespace

TEST(BusyUnion, SameBitsAsTheSortedSumOfAllIntervals)
{
  int compared = 0;
  for (unsigned seed = 1; seed <= 40; seed++)
    for (bool half_seconds : {true, false})
      for (int settle_every : {0, 1, 7, 100}) {
        const int processors = 1 + static_cast<int>(seed % 9);
        const auto [area, reference] = run(seed, processors, 3000, half_seconds, settle_every);
        ASSERT_EQ(bits_of(area), bits_of(reference))
            << "seed " << seed << " half_seconds " << half_seconds << " settle_every " << settle_every << ": " << area
            << " vs " << reference;
        compared++;
      }
  EXPECT_EQ(compared, 320);
}

TEST(BusyUnion, SettlesWhatStartsBeforeTheBound)
{
  BusyUnion busy(2);
  busy.add(0, 10, 20);
  busy.add(0, 15, 30); // overlaps: adds 10
  busy.add(1, 5, 8);
  busy.add(1, 40, 50);
  EXPECT_EQ(busy.pending(), 4U);
  busy.settle(15); // [10, 20] and [5, 8]: the others start at 15 or later
  EXPECT_EQ(busy.pending(), 2U);
  busy.add(0, 18, 25); // covered by [10, 30]: adds nothing
  busy.settle(-std::numeric_limits<double>::infinity());
  EXPECT_EQ(busy.pending(), 3U);
  // Processor 0: 10 + 10 + 0; processor 1: 3 + 10. Whole numbers: the sum is exact.
  EXPECT_EQ(busy.finish(100), 133.0);
  EXPECT_EQ(busy.pending(), 0U);
}
