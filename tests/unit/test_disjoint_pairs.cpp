/* DisjointPairs (policies/time_sharing/disjoint_pairs.hpp) used as adaptive partitioning uses it, against sets held
 * here as std::bitset and compared member by member. Passes: a random subset of the slots in random order, each
 * asking whether its set meets the group placed so far (a set that does not joins the group: it goes back), then
 * those that met one given a new set among the elements the group leaves free, joining the group and told changed
 * apart from it, as AP's moved jobs. Every answer must be the brute-force one, and the pairs remembered must spare
 * most of the tests. Every 100 passes all the sets are new and forgotten (reset()). 40 sets (a row of the table is one
 * word) and 150 (three words). */
#include "policies/time_sharing/disjoint_pairs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bitset>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace jobsched {
namespace {

using Members = std::bitset<512>;

TEST(DisjointPairs, AnswersAreTheBruteForceOnesAndSpareMostTests)
{
  for (size_t slots : {size_t{40}, size_t{150}}) {
    const std::string label = std::to_string(slots) + " sets";
    std::mt19937_64 random(slots);
    auto random_members = [&](const Members& allowed, size_t most) {
      Members m;
      for (size_t e = 0; e < allowed.size() && m.count() < most; e++)
        if (allowed.test(e) && random() % 8 == 0) m.set(e);
      return m;
    };
    std::vector<Members> sets(slots);
    Members all;
    all.set();
    for (Members& s : sets)
      s = random_members(all, 24);
    DisjointPairs pairs;
    pairs.reset(slots);
    size_t asked = 0, tests = 0, group_sizes = 0, met = 0;
    for (int pass = 0; pass < 3000; pass++) {
      if (pass % 100 == 99) { // every set new, none known disjoint (AP's plan() after an arrival or a departure)
        for (Members& s : sets)
          s = random_members(all, 24);
        pairs.reset(slots);
      }
      std::vector<size_t> order(slots);
      std::iota(order.begin(), order.end(), size_t{0});
      std::shuffle(order.begin(), order.end(), random);
      order.resize(1 + random() % slots);
      pairs.clear_group();
      std::vector<size_t> group;
      std::vector<size_t> moved;
      for (size_t i : order) {
        bool brute = false;
        for (size_t j : group)
          brute = brute || (sets[i] & sets[j]).any();
        const bool answer = pairs.meets_group(i, [&](size_t j) {
          tests++;
          return (sets[i] & sets[j]).any();
        });
        ASSERT_EQ(answer, brute) << label << ", pass " << pass << ", set " << i;
        asked++;
        group_sizes += group.size();
        if (answer) {
          moved.push_back(i);
          met++;
        } else {
          pairs.join_group(i);
          group.push_back(i);
        }
      }
      Members taken;
      for (size_t j : group)
        taken |= sets[j];
      for (size_t k : moved) { // a new set apart from the group's, which it joins
        sets[k] = random_members(~taken, 24);
        taken |= sets[k];
        pairs.join_group(k);
        group.push_back(k);
      }
      for (size_t k : moved)
        pairs.changed_apart_from_group(k);
    }
    EXPECT_GT(met, asked / 40) << label;         // sets met the group often enough to move (5 to 8%)
    EXPECT_LT(tests, group_sizes / 20) << label; // the pairs remembered spared most tests (all but 1%)
  }
}

/* The group's mark (AP's idle processors brought up to date from the sets that left the group and joined it since a
 * pass): random groups of 40 and 150 slots, each compared with the one marked before. The changes listed must be the
 * brute-force differences, each once, every set that left before any that joined (their count too); reset() forgets
 * the mark, clear_group() does not. */
TEST(DisjointPairs, ChangesSinceTheMarkAreTheDifferencesLeftFirst)
{
  for (size_t slots : {size_t{40}, size_t{150}}) {
    const std::string label = std::to_string(slots) + " sets";
    std::mt19937_64 random(slots + 1);
    DisjointPairs pairs;
    pairs.reset(slots);
    EXPECT_FALSE(pairs.marked()) << label;
    std::vector<bool> marked(slots, false);
    size_t lefts = 0, joins = 0;
    for (int pass = 0; pass < 500; pass++) {
      std::vector<bool> group(slots, false);
      pairs.clear_group();
      for (size_t k = 0; k < slots; k++)
        if (random() % 4 == 0) {
          group[k] = true;
          pairs.join_group(k);
        }
      if (pass > 0) {
        ASSERT_TRUE(pairs.marked()) << label;
        std::vector<size_t> left, joined;
        bool joined_seen = false, left_after_joined = false;
        pairs.for_changes_since_mark(
            [&](size_t k) {
              left.push_back(k);
              left_after_joined = left_after_joined || joined_seen;
            },
            [&](size_t k) {
              joined.push_back(k);
              joined_seen = true;
            });
        std::vector<size_t> expected_left, expected_joined;
        for (size_t k = 0; k < slots; k++) {
          if (marked[k] && !group[k]) expected_left.push_back(k);
          if (group[k] && !marked[k]) expected_joined.push_back(k);
        }
        ASSERT_EQ(left, expected_left) << label << ", pass " << pass;
        ASSERT_EQ(joined, expected_joined) << label << ", pass " << pass;
        ASSERT_FALSE(left_after_joined) << label << ", pass " << pass;
        ASSERT_EQ(pairs.changes_since_mark(), left.size() + joined.size()) << label << ", pass " << pass;
        lefts += left.size();
        joins += joined.size();
      }
      pairs.mark_group();
      marked = group;
    }
    EXPECT_GT(lefts, 500u) << label; // not vacuous: both kinds of change, many times
    EXPECT_GT(joins, 500u) << label;
    pairs.reset(slots);
    EXPECT_FALSE(pairs.marked()) << label;
  }
}

} // namespace
} // namespace jobsched
