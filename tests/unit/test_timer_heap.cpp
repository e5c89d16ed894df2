/* TimerHeap (the runtime's timers) against a brute-force reference: a map from owner to its live timer, whose next
 * timer is found by scanning it all. Random new timers, re-timings earlier and later, erasures (of owners with and
 * without a timer) and pops, ends drawn from a few values so that ties are frequent: after every step the heap's top,
 * its size and each owner's membership equal the reference's, and a final drain pops in the reference's order. */
#include "runtime/execution/timer_heap.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <vector>

using namespace jobsched;

namespace {

struct Owner {
  std::int64_t id = 0;
  std::size_t timer_slot = kNoTimerSlot;
};

using Heap = TimerHeap<Owner, std::int64_t>;

/* The reference's next timer: the smallest (end, id) by a full scan; owners.size() when there is none. */
std::size_t reference_next(const std::vector<Owner>& owners, const std::map<std::size_t, double>& live)
{
  std::size_t best = owners.size();
  for (const auto& [o, end] : live)
    if (best == owners.size() || end < live.at(best) || (end == live.at(best) && owners[o].id < owners[best].id))
      best = o;
  return best;
}

void check_same(const Heap& heap, const std::vector<Owner>& owners, const std::map<std::size_t, double>& live)
{
  ASSERT_EQ(heap.size(), live.size());
  for (std::size_t o = 0; o < owners.size(); o++)
    ASSERT_EQ(Heap::contains(owners[o]), live.count(o) != 0) << "owner " << o;
  if (live.empty()) {
    ASSERT_TRUE(heap.empty());
    return;
  }
  const std::size_t next = reference_next(owners, live);
  ASSERT_EQ(heap.top().owner, &owners[next]);
  ASSERT_EQ(heap.top().id, owners[next].id);
  ASSERT_EQ(heap.top().end, live.at(next));
}

void run_random(unsigned seed, std::size_t owner_count, int steps, int distinct_ends)
{
  std::mt19937_64 rng(seed);
  std::vector<Owner> owners(owner_count);
  // Ids unrelated to the owners' places (processes of the runtime have negative ids).
  std::vector<std::int64_t> ids(owner_count);
  std::iota(ids.begin(), ids.end(), -static_cast<std::int64_t>(owner_count / 3));
  std::shuffle(ids.begin(), ids.end(), rng);
  for (std::size_t o = 0; o < owner_count; o++)
    owners[o].id = ids[o];
  Heap heap;
  std::map<std::size_t, double> live;
  std::uniform_int_distribution<std::size_t> pick(0, owner_count - 1);
  std::uniform_int_distribution<int> end_of(0, distinct_ends - 1);
  std::uniform_int_distribution<int> action(0, 9);
  for (int step = 0; step < steps; step++) {
    const int a = action(rng);
    const std::size_t o = pick(rng);
    if (a < 5) { // a timer set: new, or moved earlier, later or to the same end
      const double end = 0.5 * end_of(rng);
      heap.set(owners[o], owners[o].id, end);
      live[o] = end;
    } else if (a < 8) { // a stop, with or without a timer
      heap.erase(owners[o]);
      live.erase(o);
    } else if (!live.empty()) { // the earliest timer is due
      const std::size_t next = reference_next(owners, live);
      ASSERT_EQ(heap.top().owner, &owners[next]);
      heap.pop();
      live.erase(next);
    }
    check_same(heap, owners, live);
    if (::testing::Test::HasFatalFailure()) {
      ADD_FAILURE() << "seed " << seed << ", step " << step;
      return;
    }
  }
  while (!live.empty()) {
    const std::size_t next = reference_next(owners, live);
    ASSERT_EQ(heap.top().owner, &owners[next]);
    ASSERT_EQ(heap.top().end, live.at(next));
    heap.pop();
    live.erase(next);
  }
  ASSERT_TRUE(heap.empty());
  for (const Owner& owner : owners)
    ASSERT_FALSE(Heap::contains(owner));
}

} // namespace

TEST(TimerHeap, PopsInTheOrderOfAFullScanWithFrequentTies)
{
  for (unsigned seed = 1; seed <= 20; seed++)
    run_random(seed, 60, 4000, 8);
}

TEST(TimerHeap, PopsInTheOrderOfAFullScanWithDistinctEnds)
{
  for (unsigned seed = 101; seed <= 103; seed++)
    run_random(seed, 500, 10000, 1 << 20);
}

TEST(TimerHeap, EqualEndsComeOutByIdWhateverTheOrderOfTiming)
{
  // Five owners ending together, timed in an order unrelated to their ids, one re-timed to the same end and one
  // moved away and back: they come out by id (-2, 3, 4, 7, 9).
  std::vector<Owner> owners(5);
  const std::int64_t ids[] = {7, -2, 9, 3, 4};
  for (std::size_t o = 0; o < 5; o++)
    owners[o].id = ids[o];
  Heap heap;
  for (std::size_t o : {2, 0, 4, 1, 3})
    heap.set(owners[o], owners[o].id, 10.0);
  heap.set(owners[1], owners[1].id, 10.0);
  heap.set(owners[4], owners[4].id, 30.0);
  heap.set(owners[4], owners[4].id, 10.0);
  std::vector<std::int64_t> order;
  while (!heap.empty()) {
    EXPECT_EQ(heap.top().end, 10.0);
    order.push_back(heap.top().id);
    heap.pop();
  }
  EXPECT_EQ(order, (std::vector<std::int64_t>{-2, 3, 4, 7, 9}));
}
