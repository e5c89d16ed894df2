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

/* Builds' order bookkeeping. Put in increasing id order a build notes no id: the ids put are the keys behind its walk.
 * From the first put out of that order each put is a look-up and the ids put are noted (those behind the walk then, and
 * each one after), for finish() to take out the others. Each case starts from the map of ids 1..`count` handed back,
 * every value a vector {id} whose buffer identifies the node that job had: found in place, a job's value is its own. */
class ReusedMapOrder : public ::testing::Test {
 protected:
  using Map = std::map<JobId, std::vector<int>>;
  void SetUp() override { hand_back(6); }
  void hand_back(int count)
  {
    Map first;
    auto build = maps.build(first);
    for (JobId id = 1; id <= count; id++)
      build.put(id) = {static_cast<int>(id)};
    build.finish();
    storage.clear();
    for (const auto& [id, value] : first)
      storage[id] = value.data();
    maps.keep(first);
  }
  /* The value put for `id` is the one job `id` had in the map handed back, in its own node. */
  void expect_own(const std::vector<int>& value, JobId id)
  {
    EXPECT_EQ(value, std::vector<int>{static_cast<int>(id)}) << "job " << id;
    EXPECT_EQ(value.data(), storage.at(id)) << "job " << id;
  }
  ReusedMap<std::vector<int>> maps;
  std::map<JobId, const int*> storage; // by job of the map handed back: its value's buffer
};

TEST_F(ReusedMapOrder, InOrderJobsOfTheLastPlanKeepTheirNodesAndThoseLeftOutLeave)
{
  Map plan;
  auto build = maps.build(plan);
  expect_own(build.put(2), 2);
  expect_own(build.put(3), 3);
  EXPECT_EQ(maps.spare_count(), 1U);      // job 1, passed over
  std::vector<int>& seven = build.put(7); // 4, 5 and 6 passed over; 7 takes the last of them
  EXPECT_EQ(seven, std::vector<int>{6});
  seven = {7};
  EXPECT_EQ(maps.spare_count(), 3U);
  build.finish();
  EXPECT_EQ(plan, (Map{{2, {2}}, {3, {3}}, {7, {7}}}));
  EXPECT_EQ(maps.spare_count(), 3U);

  // The map handed back is the next build's: in order again, ending before the map does (job 7 leaves at finish()).
  maps.keep(plan);
  Map next;
  auto again = maps.build(next);
  EXPECT_EQ(again.put(3), std::vector<int>{3});
  again.finish();
  EXPECT_EQ(next, (Map{{3, {3}}}));
  EXPECT_EQ(maps.spare_count(), 5U);
}

TEST_F(ReusedMapOrder, OutOfOrderFromTheSecondPutJobsAreLookedUpAndTheOthersLeave)
{
  Map plan;
  auto build = maps.build(plan);
  expect_own(build.put(3), 3); // in order so far: 1 and 2 passed over
  EXPECT_EQ(maps.spare_count(), 2U);
  build.put(1) = {1}; // the order breaks: a spare node
  EXPECT_EQ(maps.spare_count(), 1U);
  expect_own(build.put(5), 5); // looked up: its own node, and 4 is not passed over
  EXPECT_EQ(maps.spare_count(), 1U);
  build.finish(); // 4 and 6 were not put
  EXPECT_EQ(plan, (Map{{1, {1}}, {3, {3}}, {5, {5}}}));
  EXPECT_EQ(maps.spare_count(), 3U);
}

TEST_F(ReusedMapOrder, JobsPutBeforeTheBreakStayAndThoseAfterItAreNoted)
{
  Map plan;
  auto build = maps.build(plan);
  expect_own(build.put(2), 2);
  expect_own(build.put(5), 5); // 1, 3 and 4 passed over
  build.put(4) = {4};          // the order breaks: 2 and 5 behind the walk are the ids put so far
  expect_own(build.put(6), 6); // above the last put, but after the break: looked up, and noted
  build.finish();              // every id in the map was put: none leaves
  EXPECT_EQ(plan, (Map{{2, {2}}, {4, {4}}, {5, {5}}, {6, {6}}}));
  EXPECT_EQ(maps.spare_count(), 2U);
}

TEST_F(ReusedMapOrder, AfterABreakTheIdsNotPutLeaveThoseOfAnEarlierBuildForgotten)
{
  Map plan;
  auto build = maps.build(plan);
  expect_own(build.put(6), 6);
  build.put(2) = {2}; // the order breaks: 6 noted, 2 in a spare node
  build.finish();
  EXPECT_EQ(plan, (Map{{2, {2}}, {6, {6}}}));

  // In order: job 2 in place, 4 new, 6 leaves.
  maps.keep(plan);
  Map second;
  auto in_order = maps.build(second);
  EXPECT_EQ(in_order.put(2), std::vector<int>{2});
  in_order.put(4) = {4};
  in_order.finish();
  EXPECT_EQ(second, (Map{{2, {2}}, {4, {4}}}));

  // Job 6 was noted in the first build, not put in this one: it must leave (as must 4, not put either).
  maps.keep(second);
  Map third;
  auto broken = maps.build(third);
  broken.put(6) = {6}; // 2 and 4 passed over
  broken.put(3) = {3};
  broken.finish();
  EXPECT_EQ(third, (Map{{3, {3}}, {6, {6}}}));

  // Out of order at once, over a map holding ids that were put in an earlier build but not in this one.
  maps.keep(third);
  Map fourth;
  auto lookups = maps.build(fourth);
  lookups.put(3) = {3};
  lookups.put(1) = {1}; // the order breaks: 3 noted; 6 is not put, so it leaves though an earlier build put it
  lookups.finish();
  EXPECT_EQ(fourth, (Map{{1, {1}}, {3, {3}}}));
}

} // namespace
} // namespace jobsched
