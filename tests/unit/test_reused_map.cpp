/* ReusedMap (policy/reused_map.hpp): a plan's map built in the nodes of the last one handed back holds exactly what a
 * new map built by operator[] holds, whichever order the ids are put in, and the nodes of the jobs that left serve
 * those that came. */
#include "policy/reused_map.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <vector>

namespace jobsched {
namespace {

/* Random plans of up to 40 jobs among ids 1..60, each value a vector of the plan's number and the id, built three ways
 * and handed back: in a ReusedMap in increasing id order, in another in a shuffled order (a few plans switch from
 * increasing to shuffled midway), and in a new std::map by operator[] (the second computation). */
TEST(ReusedMap, BuildsTheMapANewOneWouldHold)
{
  std::mt19937_64 random(11);
  ReusedMap<std::vector<int>> ordered;
  ReusedMap<std::vector<int>> shuffled;
  size_t nodes_seen = 0;
  for (int plan = 0; plan < 2000; plan++) {
    std::set<JobId> chosen;
    const size_t count = random() % 41;
    while (chosen.size() < count)
      chosen.insert(static_cast<JobId>(1 + random() % 60));
    std::vector<JobId> ids(chosen.begin(), chosen.end());
    const auto value = [plan](JobId id) { return std::vector<int>(static_cast<size_t>(id % 5), plan); };
    std::map<JobId, std::vector<int>> expected;
    for (JobId id : ids)
      expected[id] = value(id);

    std::map<JobId, std::vector<int>> a;
    auto in_order = ordered.build(a);
    for (JobId id : ids)
      in_order.put(id) = value(id);
    in_order.finish();
    ASSERT_EQ(a, expected) << "plan " << plan;

    std::vector<JobId> mixed = ids;
    const size_t sorted_prefix = plan % 3 == 0 ? mixed.size() / 2 : 0; // increasing, then shuffled
    std::shuffle(mixed.begin() + static_cast<long>(sorted_prefix), mixed.end(), random);
    std::map<JobId, std::vector<int>> b;
    auto any_order = shuffled.build(b);
    for (JobId id : mixed)
      any_order.put(id) = value(id);
    any_order.finish();
    ASSERT_EQ(b, expected) << "plan " << plan;

    ordered.keep(a);
    shuffled.keep(b);
    ASSERT_TRUE(a.empty());
    ASSERT_TRUE(b.empty());
    // A node is allocated only when none is spare, so all of them are in the map then, under distinct ids of 1..60:
    // however many plans, no more than 60 nodes ever (the plan's own, kept, and the spare ones).
    ASSERT_LE(ordered.spare_count() + ids.size(), 60U) << "plan " << plan;
    ASSERT_LE(shuffled.spare_count() + ids.size(), 60U) << "plan " << plan;
    nodes_seen = std::max(nodes_seen, ordered.spare_count() + ids.size());
  }
  EXPECT_GE(nodes_seen, 40U); // the spare nodes did serve: a plan of 40 jobs came after smaller ones
}

/* The nodes move, they are not copied: a value put and handed back is found again, with its storage, in the next
 * build (the same vector's buffer for the same job, kept in place); a job that left gives its node to one that came. */
TEST(ReusedMap, NodesAndValuesAreReused)
{
  ReusedMap<std::vector<int>> maps;
  std::map<JobId, std::vector<int>> first;
  auto build = maps.build(first);
  build.put(1) = {1, 1, 1};
  build.put(2) = {2, 2};
  build.finish();
  const int* storage_of_1 = first.at(1).data();
  const int* storage_of_2 = first.at(2).data();
  maps.keep(first);

  std::map<JobId, std::vector<int>> second;
  auto next = maps.build(second);
  std::vector<int>& one = next.put(1);
  EXPECT_EQ(one, (std::vector<int>{1, 1, 1})); // as the last plan left it
  EXPECT_EQ(one.data(), storage_of_1);
  std::vector<int>& three = next.put(3); // job 2 was passed over: its node serves job 3
  EXPECT_EQ(three, (std::vector<int>{2, 2}));
  EXPECT_EQ(three.data(), storage_of_2);
  three = {3};
  next.finish();
  EXPECT_EQ(second, (std::map<JobId, std::vector<int>>{{1, {1, 1, 1}}, {3, {3}}}));
  EXPECT_EQ(maps.spare_count(), 0U);

  // A plan handed back while one is kept (a plan built without the kept map): its nodes become spare.
  std::map<JobId, std::vector<int>> other{{7, {7}}, {8, {8}}};
  maps.keep(second);
  maps.keep(other);
  EXPECT_TRUE(other.empty());
  EXPECT_EQ(maps.spare_count(), 2U);
  std::map<JobId, std::vector<int>> third;
  auto last = maps.build(third);
  last.finish(); // nothing put: every node of the kept map becomes spare too
  EXPECT_TRUE(third.empty());
  EXPECT_EQ(maps.spare_count(), 4U);
}

} // namespace
} // namespace jobsched
