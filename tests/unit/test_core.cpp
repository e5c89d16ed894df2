/* ResourceSet, AvailabilityProfile, first-fit allocation and the metric definitions, on hand-computed values. */
#include "allocation/allocator.hpp"
#include "core/errors.hpp"
#include "core/simgrid_cfg.hpp"
#include "core/time_format.hpp"
#include "output/metrics.hpp"
#include "output/reports.hpp"
#include "policies/space_sharing/availability_profile.hpp"
#include "policy/policy.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace jobsched;

TEST(ResourceSet, IntervalNotationAndSetAlgebra)
{
  ResourceSet s(130);
  for (int i : {0, 1, 2, 3, 7, 64, 65, 129})
    s.set(i);
  EXPECT_EQ(s.to_string(), "0-3 7 64-65 129");
  EXPECT_EQ(s.count(), 8);
  EXPECT_EQ(s.lowest(5).to_string(), "0-3 7");
  EXPECT_TRUE(s.lowest(9).empty());
  ResourceSet r = ResourceSet::range(130, 2, 4); // 2-5
  EXPECT_EQ((s & r).to_string(), "2-3");
  EXPECT_EQ((s - r).to_string(), "0-1 7 64-65 129");
  EXPECT_EQ((s | r).to_string(), "0-5 7 64-65 129");
  EXPECT_TRUE(s.contains(s & r));
  EXPECT_FALSE(r.contains(s));
  EXPECT_EQ(s.members().back(), 129);
}

/* The time-sharing driver's one-pass check of a plan's set: its count when every member is allowed and none taken. */
TEST(ResourceSet, CountIfWithinAndApart)
{
  const ResourceSet up = ResourceSet::range(200, 0, 150); // 0-149
  ResourceSet taken(200);
  taken.set(70);
  EXPECT_EQ(ResourceSet::range(200, 60, 10).count_if_within_and_apart(up, taken), 10);  // 60-69
  EXPECT_EQ(ResourceSet::range(200, 60, 11).count_if_within_and_apart(up, taken), -1);  // 70 is taken
  EXPECT_EQ(ResourceSet::range(200, 140, 11).count_if_within_and_apart(up, taken), -1); // 150 is down
  EXPECT_EQ(ResourceSet(200).count_if_within_and_apart(up, taken), 0);
  EXPECT_EQ(ResourceSet::range(200, 71, 79).count_if_within_and_apart(up, taken), 79); // 71-149, across words
}

/* count_differences() (a resize's moved processors) against the members counted one index at a time with test():
 * random sets on capacities around multiples of 64 (heap-stored sets included), and by hand on ranges. */
TEST(ResourceSet, CountDifferencesCountsTheMembersOfExactlyOneSet)
{
  EXPECT_EQ(ResourceSet::range(200, 0, 10).count_differences(ResourceSet::range(200, 5, 10)), 10); // 0-4 and 10-14
  EXPECT_EQ(ResourceSet::range(200, 60, 80).count_differences(ResourceSet::range(200, 60, 80)), 0);
  EXPECT_EQ(ResourceSet(200).count_differences(ResourceSet::range(200, 63, 2)), 2);
  std::mt19937 rng(7);
  for (int capacity : {1, 63, 64, 65, 255, 256, 257, 1000, 10000})
    for (int trial = 0; trial < 20; trial++) {
      ResourceSet a(capacity), b(capacity);
      std::bernoulli_distribution member(trial % 4 == 0 ? 0.02 : 0.5);
      for (int i = 0; i < capacity; i++) {
        if (member(rng)) a.set(i);
        if (member(rng)) b.set(i);
      }
      int expected = 0;
      for (int i = 0; i < capacity; i++)
        expected += a.test(i) != b.test(i);
      EXPECT_EQ(a.count_differences(b), expected) << "capacity " << capacity << ", trial " << trial;
      EXPECT_EQ(b.count_differences(a), expected) << "capacity " << capacity << ", trial " << trial;
    }
}

/* Every operation passes over the span of words a set's members may lie in, not over all its words; sets here go
 * through random sequences of every mutation (members set and reset, ranges, unions, intersections, differences,
 * lowest(), take_lowest(), merge_range(), add_range(), clear(), copies and moves between sets of other spans), which
 * leave spans wider than the members, narrower sets assigned over wider ones and the reverse. After each step every
 * query is compared with a reference kept one index at a time in a std::vector<bool> and computed member by member. */
TEST(ResourceSet, SpanRestrictedOperationsMatchIndexByIndex)
{
  using Bits = std::vector<bool>;
  auto bits_of = [](const ResourceSet& s) {
    Bits b(static_cast<size_t>(s.capacity()));
    for (int i = 0; i < s.capacity(); i++)
      b[static_cast<size_t>(i)] = s.test(i);
    return b;
  };
  auto text_of = [](const Bits& b) {
    std::string out;
    for (size_t i = 0; i < b.size();) {
      if (!b[i]) {
        i++;
        continue;
      }
      size_t j = i;
      while (j + 1 < b.size() && b[j + 1])
        j++;
      out += (out.empty() ? "" : " ") + std::to_string(i) + (j > i ? "-" + std::to_string(j) : "");
      i = j + 1;
    }
    return out;
  };
  std::mt19937 rng(97);
  int checked = 0;
  for (int capacity : {1, 63, 64, 65, 200, 1000, 10000}) {
    std::uniform_int_distribution<int> where(0, capacity - 1);
    auto random_range = [&] {
      const int first = where(rng);
      const int n = std::uniform_int_distribution<int>(0, std::min(capacity - first, 300))(rng);
      return std::make_pair(first, n);
    };
    std::vector<ResourceSet> sets(4, ResourceSet(capacity));
    std::vector<Bits> ref(4, Bits(static_cast<size_t>(capacity)));
    for (int step = 0; step < 400; step++) {
      const auto a = static_cast<size_t>(std::uniform_int_distribution<int>(0, 3)(rng));
      const auto b = static_cast<size_t>(std::uniform_int_distribution<int>(0, 3)(rng));
      const int op = std::uniform_int_distribution<int>(0, 12)(rng);
      ResourceSet& x = sets[a];
      Bits& r = ref[a];
      const Bits other = ref[b];
      switch (op) {
      case 0: { // a member in, one out
        const int i = where(rng);
        x.set(i);
        r[static_cast<size_t>(i)] = true;
        const int k = where(rng);
        x.reset(k);
        r[static_cast<size_t>(k)] = false;
        break;
      }
      case 1: { // a range, assigned over whatever was there
        const auto [first, n] = random_range();
        x = ResourceSet::range(capacity, first, n);
        r.assign(static_cast<size_t>(capacity), false);
        for (int i = first; i < first + n; i++)
          r[static_cast<size_t>(i)] = true;
        break;
      }
      case 2:
        x |= sets[b];
        for (size_t i = 0; i < r.size(); i++)
          r[i] = r[i] || other[i];
        break;
      case 3:
        x &= sets[b];
        for (size_t i = 0; i < r.size(); i++)
          r[i] = r[i] && other[i];
        break;
      case 4:
        x -= sets[b];
        for (size_t i = 0; i < r.size(); i++)
          r[i] = r[i] && !other[i];
        break;
      case 5: // a copy over a set of another span
        x = sets[b];
        r = other;
        break;
      case 6: { // a move; the moved-from set is the empty set of capacity 0, then gets its capacity back
        ResourceSet moved = std::move(sets[b]);
        EXPECT_EQ(sets[b].capacity(), 0);
        EXPECT_TRUE(sets[b].empty());
        sets[b] = ResourceSet(capacity);
        ref[b].assign(static_cast<size_t>(capacity), false);
        x = std::move(moved); // x may be sets[b]
        r = other;
        break;
      }
      case 7: { // the lowest n members
        const int n = std::uniform_int_distribution<int>(0, 80)(rng);
        int have = 0;
        Bits low(static_cast<size_t>(capacity));
        for (size_t i = 0; i < r.size() && have < n; i++)
          if (r[i]) {
            low[i] = true;
            have++;
          }
        x = x.lowest(n);
        r = have == n ? low : Bits(static_cast<size_t>(capacity));
        break;
      }
      case 8: { // the members of another set in a range
        const auto [first, n] = random_range();
        x.merge_range(sets[b], first, n);
        for (int i = first; i < first + n; i++)
          r[static_cast<size_t>(i)] = r[static_cast<size_t>(i)] || other[static_cast<size_t>(i)];
        break;
      }
      case 9: { // every member of a range out, one by one (the span stays, its words zero)
        const auto [first, n] = random_range();
        for (int i = first; i < first + n; i++) {
          x.reset(i);
          r[static_cast<size_t>(i)] = false;
        }
        break;
      }
      case 10: { // a range added, or the set emptied in place then given a range
        const auto [first, n] = random_range();
        if (step % 3 == 0) {
          x.clear();
          r.assign(static_cast<size_t>(capacity), false);
        }
        x.add_range(first, n);
        for (int i = first; i < first + n; i++)
          r[static_cast<size_t>(i)] = true;
        break;
      }
      case 11: { // the lowest n members moved into another set (one of another capacity when it is the same set)
        const int n = std::uniform_int_distribution<int>(0, 80)(rng);
        int have = 0;
        Bits low(static_cast<size_t>(capacity));
        for (size_t i = 0; i < r.size() && have < n; i++)
          if (r[i]) {
            low[i] = true;
            have++;
          }
        if (have < n) low.assign(static_cast<size_t>(capacity), false); // too few: nothing taken
        ResourceSet elsewhere(capacity == 1 ? 64 : 1);
        ResourceSet& to = a != b ? sets[b] : elsewhere;
        x.take_lowest(n, to);
        EXPECT_EQ(to.capacity(), capacity);
        EXPECT_EQ(bits_of(to), low) << "capacity " << capacity << ", step " << step;
        if (a != b) ref[b] = low;
        for (size_t i = 0; i < r.size(); i++)
          r[i] = r[i] && !low[i];
        break;
      }
      default: { // a copy of itself made elsewhere, then assigned back
        ResourceSet copy(x);
        x = ResourceSet(capacity);
        x = copy;
        break;
      }
      }
      for (size_t i = 0; i < sets.size(); i++) {
        const Bits& s = ref[i];
        ASSERT_EQ(bits_of(sets[i]), s) << "capacity " << capacity << ", step " << step << ", op " << op;
        std::vector<int> members;
        for (size_t k = 0; k < s.size(); k++)
          if (s[k]) members.push_back(static_cast<int>(k));
        EXPECT_EQ(sets[i].members(), members);
        EXPECT_EQ(sets[i].count(), static_cast<int>(members.size()));
        EXPECT_EQ(sets[i].empty(), members.empty());
        EXPECT_EQ(sets[i].to_string(), text_of(s));
        std::vector<int> visited;
        sets[i].for_each([&](int p) { visited.push_back(p); });
        EXPECT_EQ(visited, members);
        for (size_t j = 0; j < sets.size(); j++) {
          const Bits& t = ref[j];
          bool contains = true, intersects = false, within_and_apart = true;
          int differences = 0;
          for (size_t k = 0; k < s.size(); k++) {
            contains = contains && (!t[k] || s[k]);
            intersects = intersects || (s[k] && t[k]);
            differences += s[k] != t[k];
            // count_if_within_and_apart(allowed = set j, taken = set 0)
            within_and_apart = within_and_apart && (!s[k] || (t[k] && !ref[0][k]));
          }
          EXPECT_EQ(sets[i] == sets[j], s == t);
          EXPECT_EQ(sets[i].contains(sets[j]), contains);
          EXPECT_EQ(sets[i].intersects(sets[j]), intersects);
          EXPECT_EQ(sets[i].count_differences(sets[j]), differences);
          EXPECT_EQ(sets[i].count_if_within_and_apart(sets[j], sets[0]),
                    within_and_apart ? static_cast<int>(members.size()) : -1);
        }
      }
      checked++;
    }
  }
  EXPECT_EQ(checked, 7 * 400);
}

/* count_in_range() and merge_range() (the smp allocator's per-node look) work a word at a time; the
 * references here go one index at a time with test(). Random sets (sparse and dense) on capacities around multiples
 * of 64, random ranges (within a word, across one or several word boundaries, at both ends). */
/* The inline copies, moves, comparisons and counts (word by word up to four words, by memcpy / memcmp / POPCNT above)
 * against a std::vector<bool> model: random sets of 1 to 300 processors, copied and moved into sets of the same and of
 * other capacities (inline and heap storage either way), compared, counted, cleared, cut to their lowest members. */
TEST(ResourceSet, InlineCopiesComparisonsAndCountsMatchAModel)
{
  using Bits = std::vector<bool>;
  std::mt19937 rng(2311);
  auto matches = [](const ResourceSet& s, const Bits& b) {
    if (s.capacity() != static_cast<int>(b.size())) return false;
    for (int i = 0; i < s.capacity(); i++)
      if (s.test(i) != b[static_cast<size_t>(i)]) return false;
    return true;
  };
  auto model_count = [](const Bits& b) { return static_cast<int>(std::count(b.begin(), b.end(), true)); };
  // A random set and its model: members set, ranges added, some members removed again (reset() keeps the span, so
  // spans cover zero words too), or nothing at all.
  auto random_set = [&](int capacity, Bits& b) {
    ResourceSet s(capacity);
    b.assign(static_cast<size_t>(capacity), false);
    std::uniform_int_distribution<int> where(0, capacity - 1);
    const int kind = std::uniform_int_distribution<int>(0, 4)(rng);
    if (kind == 0) return s;
    const int steps = std::uniform_int_distribution<int>(1, kind == 1 ? 2 : 12)(rng);
    for (int k = 0; k < steps; k++) {
      const int i = where(rng);
      switch (std::uniform_int_distribution<int>(0, 2)(rng)) {
      case 0:
        s.set(i);
        b[static_cast<size_t>(i)] = true;
        break;
      case 1: {
        const int n = std::uniform_int_distribution<int>(0, capacity - i)(rng);
        s.add_range(i, n);
        for (int j = i; j < i + n; j++)
          b[static_cast<size_t>(j)] = true;
        break;
      }
      default:
        s.reset(i);
        b[static_cast<size_t>(i)] = false;
      }
    }
    return s;
  };
  int equal_pairs = 0;
  int heap_sets = 0;
  for (int round = 0; round < 3000; round++) {
    const int capacity = std::uniform_int_distribution<int>(1, 300)(rng);
    // The second set: of the same capacity mostly, else of another one (of other storage when above 256).
    const int other_capacity =
        std::uniform_int_distribution<int>(0, 3)(rng) == 0 ? std::uniform_int_distribution<int>(1, 300)(rng) : capacity;
    Bits ba;
    Bits bb;
    const ResourceSet a = random_set(capacity, ba);
    ResourceSet b = random_set(other_capacity, bb);
    if (std::uniform_int_distribution<int>(0, 5)(rng) == 0 && other_capacity == capacity) { // an equal set, built apart
      b = ResourceSet(capacity);
      for (int i = 0; i < capacity; i++)
        if (ba[static_cast<size_t>(i)]) b.set(i);
      bb = ba;
    }
    heap_sets += capacity > 256;
    ASSERT_TRUE(matches(a, ba));
    ASSERT_TRUE(matches(b, bb));
    ASSERT_EQ(a.count(), model_count(ba));
    ASSERT_EQ(a.empty(), model_count(ba) == 0);
    const bool same = ba == bb; // std::vector<bool>'s comparison: sizes and every member
    equal_pairs += same;
    ASSERT_EQ(a == b, same);
    ASSERT_EQ(a != b, !same);
    if (capacity == other_capacity) {
      bool subset = true;
      for (size_t i = 0; i < ba.size(); i++)
        subset = subset && (!bb[i] || ba[i]);
      ASSERT_EQ(a.contains(b), subset);
    }
    // Copies and moves: into a fresh set, over a set of the same or another capacity, and the moved-from sets empty.
    const ResourceSet copied(a);
    ASSERT_TRUE(matches(copied, ba));
    ASSERT_TRUE(copied == a);
    ResourceSet assigned = b;
    assigned = a;
    ASSERT_TRUE(matches(assigned, ba));
    ASSERT_EQ(assigned.count(), model_count(ba));
    ResourceSet source = a;
    ResourceSet moved(std::move(source));
    ASSERT_TRUE(matches(moved, ba));
    ASSERT_EQ(source.capacity(), 0);
    ASSERT_TRUE(source.empty());
    ASSERT_TRUE(source == ResourceSet());
    ResourceSet move_assigned = b;
    ResourceSet move_source = a;
    move_assigned = std::move(move_source);
    ASSERT_TRUE(matches(move_assigned, ba));
    ASSERT_EQ(move_assigned, a);
    ASSERT_EQ(move_source.capacity(), 0);
    // The copy's words are its own: changing it leaves the original as it was.
    assigned.set(capacity - 1);
    moved.add_range(0, capacity);
    ASSERT_TRUE(matches(a, ba));
    // Cleared: empty, of its capacity, equal to a new set, and reusable.
    ResourceSet cleared = a;
    cleared.clear();
    ASSERT_TRUE(cleared.empty());
    ASSERT_EQ(cleared.count(), 0);
    ASSERT_TRUE(cleared == ResourceSet(capacity));
    cleared.set(capacity / 2);
    ASSERT_EQ(cleared.count(), 1);
    // The n lowest members, or none when there are fewer than n.
    const int n = std::uniform_int_distribution<int>(0, model_count(ba) + 2)(rng);
    Bits lowest(ba.size(), false);
    int taken = 0;
    for (size_t i = 0; i < ba.size() && taken < n; i++)
      if (ba[i]) {
        lowest[i] = true;
        taken++;
      }
    if (taken < n) lowest.assign(ba.size(), false);
    ASSERT_TRUE(matches(a.lowest(n), lowest));
  }
  EXPECT_GT(equal_pairs, 300); // both outcomes of the comparison were met often
  EXPECT_GT(heap_sets, 300);
}

/* The inline paths of |=, -=, add_range(), count_if_within_and_apart(), lowest() and copy assignment (spans of up to
 * four words, or a range within one word) and their out-of-line ones (larger), against a std::vector<bool> model:
 * random sets of 1 to 300 processors (inline storage up to 256, heap storage above, where spans of five words take the
 * out-of-line paths), spans wider than their members (members set then reset), every result computed member by
 * member on the model. */
TEST(ResourceSet, InlineSetOperationsMatchAModel)
{
  using Bits = std::vector<bool>;
  std::mt19937 rng(4127);
  auto matches = [](const ResourceSet& s, const Bits& b) {
    if (s.capacity() != static_cast<int>(b.size())) return false;
    for (int i = 0; i < s.capacity(); i++)
      if (s.test(i) != b[static_cast<size_t>(i)]) return false;
    // The members listed and counted agree with the bits tested (a word written outside the span would not be).
    int n = 0;
    for (bool member : b)
      n += member;
    return s.count() == n && static_cast<int>(s.members().size()) == n;
  };
  // A random set of `capacity` processors and its model, built member by member (set(), reset()) only: the
  // operations under test do not build it.
  auto random_set = [&](int capacity, Bits& b) {
    ResourceSet s(capacity);
    b.assign(static_cast<size_t>(capacity), false);
    std::uniform_int_distribution<int> where(0, capacity - 1);
    const int kind = std::uniform_int_distribution<int>(0, 5)(rng);
    if (kind == 0) return s;
    if (kind == 1) { // one run, of any length
      const int first = where(rng);
      const int n = std::uniform_int_distribution<int>(1, capacity - first)(rng);
      for (int i = first; i < first + n; i++) {
        s.set(i);
        b[static_cast<size_t>(i)] = true;
      }
      return s;
    }
    const int steps = std::uniform_int_distribution<int>(1, kind == 2 ? 3 : 40)(rng);
    for (int k = 0; k < steps; k++) {
      const int i = where(rng);
      if (std::uniform_int_distribution<int>(0, 3)(rng) == 0) {
        s.reset(i); // the span stays
        b[static_cast<size_t>(i)] = false;
      } else {
        s.set(i);
        b[static_cast<size_t>(i)] = true;
      }
    }
    return s;
  };
  int large_spans = 0;
  int refused = 0;
  int cut_words = 0;
  for (int round = 0; round < 4000; round++) {
    // A third of the sets have five words (heap storage), where spans of five words take the out-of-line paths.
    const int capacity = std::uniform_int_distribution<int>(0, 2)(rng) == 0
                             ? std::uniform_int_distribution<int>(257, 300)(rng)
                             : std::uniform_int_distribution<int>(1, 300)(rng);
    Bits ba, bb, bc;
    const ResourceSet a = random_set(capacity, ba);
    const ResourceSet b = random_set(capacity, bb);
    const ResourceSet c = random_set(capacity, bc);
    large_spans += a.word_span().second - a.word_span().first > 4;
    // a | b, a - b
    ResourceSet united = a;
    united |= b;
    ResourceSet subtracted = a;
    subtracted -= b;
    Bits bu(ba.size()), bs(ba.size());
    for (size_t i = 0; i < ba.size(); i++) {
      bu[i] = ba[i] || bb[i];
      bs[i] = ba[i] && !bb[i];
    }
    ASSERT_TRUE(matches(united, bu)) << "round " << round;
    ASSERT_TRUE(matches(subtracted, bs)) << "round " << round;
    ASSERT_TRUE(matches(a | b, bu));
    ASSERT_TRUE(matches(a - b, bs));
    // Chained: the results' spans are wider than their members.
    subtracted |= c;
    united -= c;
    for (size_t i = 0; i < ba.size(); i++) {
      bs[i] = bs[i] || bc[i];
      bu[i] = bu[i] && !bc[i];
    }
    ASSERT_TRUE(matches(subtracted, bs)) << "round " << round;
    ASSERT_TRUE(matches(united, bu)) << "round " << round;
    // A range added: within one word, or over several.
    const int first = std::uniform_int_distribution<int>(0, capacity - 1)(rng);
    const int longest = std::uniform_int_distribution<int>(0, 1)(rng) == 0 ? 64 - first % 64 : capacity - first;
    const int n = std::uniform_int_distribution<int>(0, std::min(longest, capacity - first))(rng);
    ResourceSet ranged = a;
    ranged.add_range(first, n);
    Bits br = ba;
    for (int i = first; i < first + n; i++)
      br[static_cast<size_t>(i)] = true;
    ASSERT_TRUE(matches(ranged, br)) << "round " << round << ", range " << first << " +" << n;
    // count_if_within_and_apart(allowed = b, taken = c)
    bool within_and_apart = true;
    int members = 0;
    for (size_t i = 0; i < ba.size(); i++) {
      within_and_apart = within_and_apart && (!ba[i] || (bb[i] && !bc[i]));
      members += ba[i];
    }
    refused += !within_and_apart;
    ASSERT_EQ(a.count_if_within_and_apart(b, c), within_and_apart ? members : -1) << "round " << round;
    ASSERT_EQ(a.count_if_within_and_apart(a, ResourceSet(capacity)), members);
    // The k lowest members, or none when there are fewer: k around the count, and within a word's members.
    const int k = std::uniform_int_distribution<int>(-1, members + 2)(rng);
    Bits bl(ba.size(), false);
    int taken = 0;
    for (size_t i = 0; i < ba.size() && taken < k; i++)
      if (ba[i]) {
        bl[i] = true;
        taken++;
      }
    if (taken < k) bl.assign(ba.size(), false);
    for (size_t i = 0; i + 1 < ba.size() && taken == k && k > 0; i++)
      cut_words += bl[i] && !bl[i + 1] && ba[i + 1] && (i + 1) % 64 != 0; // the cut falls inside a word
    ASSERT_TRUE(matches(a.lowest(k), bl)) << "round " << round << ", k " << k;
    // Copy assignment over sets of the same capacity, of another one (inline or heap storage), and over itself.
    const int other_capacity = std::uniform_int_distribution<int>(1, 300)(rng);
    Bits bo;
    ResourceSet copied = random_set(other_capacity, bo);
    copied = a;
    ASSERT_TRUE(matches(copied, ba));
    ASSERT_TRUE(copied == a);
    ResourceSet over_same = c;
    over_same = a;
    ASSERT_TRUE(matches(over_same, ba));
    over_same = b;
    ASSERT_TRUE(matches(over_same, bb));
    ResourceSet& alias = over_same;
    over_same = alias;
    ASSERT_TRUE(matches(over_same, bb));
    // Cleared to a capacity: the same one (storage kept) or another.
    copied.clear(capacity);
    ASSERT_TRUE(matches(copied, Bits(ba.size(), false)));
    copied.clear(other_capacity);
    ASSERT_TRUE(matches(copied, Bits(static_cast<size_t>(other_capacity), false)));
  }
  EXPECT_GT(large_spans, 200); // the out-of-line paths were taken
  EXPECT_GT(refused, 500);     // count_if_within_and_apart() met both outcomes
  EXPECT_GT(cut_words, 500);   // lowest() cut words inside, not only between them
}

TEST(ResourceSet, RangeCountAndMergeMatchIndexByIndex)
{
  EXPECT_EQ(ResourceSet::range(200, 60, 10).count_in_range(62, 20), 8); // 62-69, across words 0 and 1
  std::mt19937 rng(41);
  int checked = 0;
  for (int capacity : {1, 63, 64, 65, 128, 129, 1000, 10000})
    for (int trial = 0; trial < 40; trial++) {
      ResourceSet s(capacity), base(capacity);
      std::bernoulli_distribution member(trial % 3 == 0 ? 0.01 : trial % 3 == 1 ? 0.5 : 0.97);
      for (int i = 0; i < capacity; i++) {
        if (member(rng)) s.set(i);
        if (member(rng)) base.set(i);
      }
      std::uniform_int_distribution<int> where(0, capacity - 1);
      for (int q = 0; q < 20; q++) {
        const int first = where(rng);
        const int count = std::uniform_int_distribution<int>(0, std::min(capacity - first, q % 2 ? 12 : 300))(rng);
        int expected = 0;
        ResourceSet merged = base;
        for (int i = first; i < first + count; i++)
          if (s.test(i)) {
            expected++;
            merged.set(i);
          }
        EXPECT_EQ(s.count_in_range(first, count), expected) << capacity << " " << first << " " << count;
        ResourceSet got = base;
        got.merge_range(s, first, count);
        EXPECT_EQ(got, merged) << capacity << " " << first << " " << count;
        checked++;
      }
    }
  EXPECT_EQ(checked, 8 * 40 * 20);
}

/* append_to() finds runs a word at a time; the reference here builds the notation from test(), one index at a time.
 * Sets of random runs (long ones across word boundaries, lone members, the first and the last index, full words)
 * on capacities around multiples of 64, plus the empty and the full set. */
TEST(ResourceSet, IntervalNotationByRunsMatchesMemberByMember)
{
  auto reference = [](const ResourceSet& s) {
    std::string out;
    int i = 0;
    while (i < s.capacity()) {
      if (!s.test(i)) {
        i++;
        continue;
      }
      int j = i;
      while (j + 1 < s.capacity() && s.test(j + 1))
        j++;
      out += (out.empty() ? "" : " ") + std::to_string(i) + (j > i ? "-" + std::to_string(j) : "");
      i = j + 1;
    }
    return out;
  };
  std::mt19937 rng(23);
  int checked = 0;
  for (int capacity : {1, 2, 63, 64, 65, 127, 128, 129, 200, 640, 10000}) {
    EXPECT_EQ(ResourceSet(capacity).to_string(), "");
    EXPECT_EQ(ResourceSet::all(capacity).to_string(), capacity == 1 ? "0" : "0-" + std::to_string(capacity - 1));
    for (int trial = 0; trial < 300; trial++) {
      ResourceSet s(capacity);
      std::uniform_int_distribution<int> where(0, capacity - 1);
      std::uniform_int_distribution<int> length(1, trial % 3 == 0 ? 3 : 200);
      // Every fourth trial has up to 600 runs: text longer than append_to()'s 512-character block, appended in parts.
      const int runs = std::uniform_int_distribution<int>(0, trial % 4 == 1 ? 600 : 12)(rng);
      for (int r = 0; r < runs; r++) {
        const int first = where(rng);
        const int n = std::min(length(rng), capacity - first);
        s |= ResourceSet::range(capacity, first, n);
      }
      if (trial % 5 == 0) s.set(capacity - 1);
      if (trial % 7 == 0) s.set(0);
      std::string appended = "x";
      s.append_to(appended);
      ASSERT_EQ(appended, "x" + reference(s)) << "capacity " << capacity << ", trial " << trial;
      // In place: the same text, within text_bound(), which is two numbers of the largest index's digits and two
      // separators per run (runs counted here from the reference's text) or, for a set of a narrow span, per every
      // other bit of its words (the span is at least the words from its first member's to its last's), and nothing
      // written after it.
      const std::string text = reference(s);
      const size_t text_runs = text.empty() ? 0 : 1 + static_cast<size_t>(std::count(text.begin(), text.end(), ' '));
      const size_t per_run = 2 * (std::to_string(capacity - 1).size() + 1);
      const std::vector<int> members = s.members();
      const size_t words = members.empty() ? 0 : static_cast<size_t>(members.back() / 64 - members.front() / 64 + 1);
      if (words > ResourceSet::kUncountedSpan)
        ASSERT_EQ(s.text_bound(), text_runs * per_run);
      else
        ASSERT_GE(s.text_bound(), words * 32 * per_run);
      ASSERT_LE(s.text_bound(), std::max(text_runs, ResourceSet::kUncountedSpan * 32) * per_run);
      std::vector<char> room(s.text_bound() + 16, '#');
      const char* end = s.write_text(room.data());
      ASSERT_EQ(std::string(static_cast<const char*>(room.data()), end), text);
      ASSERT_EQ(std::count(room.begin() + (end - room.data()), room.end(), '#'),
                room.end() - room.begin() - (end - room.data()));
      checked++;
    }
  }
  EXPECT_EQ(checked, 11 * 300);
  // Every other processor of 10,000: 5,000 runs of one, "0 2 4 ... 9998": 5 numbers of one digit, 45 of two, 450 of
  // three, 4,500 of four, and 4,999 spaces.
  ResourceSet even(10000);
  for (int i = 0; i < 10000; i += 2)
    even.set(i);
  const std::string text = even.to_string();
  EXPECT_EQ(text.size(), 5U * 1 + 45U * 2 + 450U * 3 + 4500U * 4 + 4999U);
  EXPECT_EQ(text.substr(0, 8), "0 2 4 6 ");
  EXPECT_EQ(text.substr(text.size() - 9), "9996 9998");
  EXPECT_EQ(even.text_bound(), 5000U * 2 * 5); // 5,000 runs, 4 digits
  std::vector<char> room(even.text_bound());
  const char* even_end = even.write_text(room.data());
  EXPECT_EQ(std::string(static_cast<const char*>(room.data()), even_end), text);
}

TEST(AvailabilityProfile, EarliestFitOnHandBuiltProfile)
{
  // 4 processors from t=0; [0,10) 1 free, [10,20) 2 free, [20,inf) 4 free.
  AvailabilityProfile p(0, 4);
  p.reserve(0, 10, 3);
  p.reserve(10, 20, 2);
  EXPECT_EQ(p.free_at(5), 1);
  EXPECT_EQ(p.free_at(10), 2);
  EXPECT_EQ(p.free_at(25), 4);
  EXPECT_EQ(p.earliest_fit(0, 100, 1), 0);
  EXPECT_EQ(p.earliest_fit(0, 5, 2), 10);
  EXPECT_EQ(p.earliest_fit(0, 15, 2), 10);
  EXPECT_EQ(p.earliest_fit(0, 5, 3), 20);
  EXPECT_EQ(p.earliest_fit(12, 5, 2), 12);
  EXPECT_TRUE(std::isinf(p.earliest_fit(0, 1, 5)));
  p.release(0, 10, 3);
  EXPECT_EQ(p.earliest_fit(0, 5, 3), 0);
  EXPECT_EQ(p.earliest_fit(0, 15, 3), 20); // [10,20) has only 2 free
}

// The tree-based profile against a plain list of steps and the definition of the earliest fit (the first of `from`
// and the later step starts where the window has room), on random reservations and releases with coinciding times.
TEST(AvailabilityProfile, AgreesWithAPlainStepListOnRandomOperations)
{
  std::mt19937_64 gen(11);
  for (int round = 0; round < 200; round++) {
    const int capacity = 1 + static_cast<int>(gen() % 16);
    AvailabilityProfile tree(0, capacity);
    std::vector<std::pair<double, int>> steps{{0.0, capacity}}; // (start, free), sorted
    auto free_at = [&](double t) {
      int v = 0;
      for (const auto& [start, free] : steps)
        if (start <= t) v = free;
      return v;
    };
    auto add = [&](double a, double b, int delta) {
      for (double t : {a, b})
        if (std::none_of(steps.begin(), steps.end(), [&](const auto& st) { return st.first == t; })) {
          int v = free_at(t);
          steps.insert(std::upper_bound(steps.begin(), steps.end(), std::make_pair(t, 0),
                                        [](const auto& x, const auto& y) { return x.first < y.first; }),
                       {t, v});
        }
      for (auto& [start, free] : steps)
        if (start >= a && start < b) free += delta;
      for (size_t i = steps.size() - 1; i > 0; i--) // equal neighbours are one step
        if (steps[i].second == steps[i - 1].second) steps.erase(steps.begin() + static_cast<long>(i));
    };
    double origin = 0;
    auto advance = [&](double now) {
      int v = free_at(now);
      steps.erase(std::remove_if(steps.begin(), steps.end(), [&](const auto& st) { return st.first < now; }),
                  steps.end());
      if (steps.empty() || steps.front().first != now) steps.insert(steps.begin(), {now, v});
      origin = now;
    };
    auto earliest = [&](double from, double duration, int processors) {
      std::vector<double> candidates{from};
      for (const auto& st : steps)
        if (st.first > from) candidates.push_back(st.first);
      for (double c : candidates) {
        bool fits = free_at(c) >= processors;
        for (const auto& [start, free] : steps)
          if (start > c && start < c + duration && free < processors) fits = false;
        if (fits) return c;
      }
      return std::numeric_limits<double>::infinity();
    };
    std::vector<std::tuple<double, double, int>> reserved;
    for (int op = 0; op < 60; op++) {
      if (gen() % 10 == 0) {
        double now = origin + static_cast<double>(gen() % 4);
        tree.advance_to(now);
        advance(now);
        reserved.erase(
            std::remove_if(reserved.begin(), reserved.end(), [&](const auto& r) { return std::get<1>(r) <= now; }),
            reserved.end());
        for (auto& r : reserved)
          std::get<0>(r) = std::max(std::get<0>(r), now);
      } else if (!reserved.empty() && gen() % 3 == 0) {
        size_t i = gen() % reserved.size();
        auto [a, b, n] = reserved[i];
        tree.release(a, b, n);
        add(a, b, n);
        reserved.erase(reserved.begin() + static_cast<long>(i));
      } else {
        double a = origin + static_cast<double>(gen() % 40);
        double b = a + 1 + static_cast<double>(gen() % 20);
        int n = 1 + static_cast<int>(gen() % capacity);
        if (earliest(a, b - a, n) != a) continue; // reservations never overbook
        tree.reserve(a, b, n);
        add(a, b, -n);
        reserved.emplace_back(a, b, n);
      }
      for (int q = 0; q < 10; q++) {
        double from = origin + static_cast<double>(gen() % 70) / 2;
        double duration = 0.5 + static_cast<double>(gen() % 30); // jobs have positive estimates
        int processors = static_cast<int>(gen() % (capacity + 2));
        ASSERT_EQ(tree.free_at(from), free_at(from)) << "round " << round << " op " << op;
        int most = free_at(from);
        for (const auto& [start, free] : steps)
          if (start > from && start < from + duration) most = std::max(most, free);
        ASSERT_EQ(tree.max_free(from, from + duration), most) << "round " << round << " op " << op;
        ASSERT_EQ(tree.earliest_fit(from, duration, processors), earliest(from, duration, processors))
            << "round " << round << " op " << op << " from " << from << " duration " << duration << " processors "
            << processors;
      }
    }
    EXPECT_EQ(tree.steps(), steps.size());
  }
}

TEST(FirstFit, LowestIdleAndPreferredFirst)
{
  Machine m = Machine::uniform(8);
  auto ff = allocator_registry().get("first-fit").make(AllocatorEnv{m, Params()});
  Job j;
  j.size = 3;
  ResourceSet idle = ResourceSet::range(8, 2, 5); // 2-6
  EXPECT_EQ(ff->select(j, idle)->to_string(), "2-4");
  ResourceSet pref = ResourceSet::range(8, 5, 3); // 5-7
  EXPECT_EQ(ff->select(j, idle, &pref)->to_string(), "2 5-6");
  j.size = 6;
  EXPECT_FALSE(ff->select(j, idle).has_value());
}

/* Three hosts of 4 cores: processors 0-3, 4-7, 8-11. {0, 1, 5, 9, 10} touches all three, {4, 5} one, {} none. */
TEST(Machine, HostsSpannedBySets)
{
  const Machine m = Machine::uniform(3, 4);
  ResourceSet spread(12);
  for (int p : {0, 1, 5, 9, 10})
    spread |= ResourceSet::range(12, p, 1);
  EXPECT_EQ(m.hosts_spanned(spread), 3);
  EXPECT_EQ(m.hosts_spanned(ResourceSet::range(12, 4, 2)), 1);
  EXPECT_EQ(m.hosts_spanned(ResourceSet(12)), 0);
}

namespace {
/* The jobs registered in a JobTable, in order (as the scheduler registers the workload's): segments.csv's writer finds
 * a job's position there. */
JobTable registered(const JobList& jobs)
{
  JobTable table;
  for (const WorkloadJob& j : jobs)
    table.expect(j);
  return table;
}
/* `n` jobs numbered 1 to n, nothing else set. */
JobList numbered_jobs(size_t n)
{
  JobList jobs(n);
  for (size_t i = 0; i < n; i++)
    jobs[i].id = static_cast<JobId>(i + 1);
  return jobs;
}
} // namespace

/* segments.csv's row of a segment takes its start, end and processors from trace.csv's row of it
 * (TraceWriter::last_row()) when the two writers alternate, and formats them itself otherwise: each row must carry its
 * own segment's processors and times either way. The sets differ by one member ("20-24" and "20-24 50") or come back
 * after another ("0-9"). */
TEST(OutputWriters, TraceAndSegmentsRowsCarryTheirOwnProcessors)
{
  const JobList jobs = numbered_jobs(2);
  std::deque<JobState> states(2);
  for (size_t i = 0; i < 2; i++) {
    states[i].job = &jobs[i];
    states[i].status = JobStatus::finished;
    states[i].fate = JobFate::completed;
    states[i].start_time = 0;
    states[i].finish_time = 8;
  }
  ResourceSet b50 = ResourceSet::range(100, 20, 5);
  b50.set(50);
  const std::vector<TraceSegment> segments{{1, 0, 5, ResourceSet::range(100, 0, 10), JobStatus::running},
                                           {2, 0, 5, ResourceSet::range(100, 20, 5), JobStatus::running},
                                           {1, 5, 6, ResourceSet::range(100, 0, 10), JobStatus::suspended},
                                           {2, 5, 7, b50, JobStatus::running},
                                           {1, 6, 8, ResourceSet::range(100, 0, 10), JobStatus::running}};
  auto column = [](const std::string& text, size_t index) { // that column of every row after the header
    std::vector<std::string> values;
    std::istringstream lines(text);
    std::string line;
    std::getline(lines, line);
    while (std::getline(lines, line)) {
      std::istringstream fields(line);
      std::string field;
      for (size_t i = 0; i <= index; i++)
        std::getline(fields, field, ',');
      values.push_back(field);
    }
    return values;
  };
  const std::vector<std::string> trace_sets{"0-9", "20-24", "0-9", "20-24 50", "0-9"};
  const std::vector<std::string> running_sets{"0-9", "20-24", "20-24 50", "0-9"};
  for (bool alternate : {true, false}) {
    std::ostringstream trace;
    std::ostringstream rows;
    TraceWriter trace_writer(trace);
    const JobTable table = registered(jobs);
    SegmentsWriter segments_writer(rows, jobs, table, "w");
    for (const TraceSegment& s : segments) {
      trace_writer.write(s);
      if (alternate) segments_writer.add(s, trace_writer.last_row());
    }
    if (!alternate)
      for (auto s = segments.rbegin(); s != segments.rend(); ++s) // backwards: never the last set formatted first
        segments_writer.add(*s);
    for (size_t i = 0; i < 2; i++)
      segments_writer.job_left(i, {states[i].fate, job_metrics(states[i], 8).slowdown});
    segments_writer.finish();
    trace_writer.flush();
    EXPECT_EQ(column(trace.str(), 3), trace_sets);
    const std::vector<std::string> expected =
        alternate ? running_sets : std::vector<std::string>(running_sets.rbegin(), running_sets.rend());
    EXPECT_EQ(column(rows.str(), 14), expected) << rows.str();
    const std::vector<std::string> starts{"0", "0", "5", "6"};
    const std::vector<std::string> ends{"5", "5", "7", "8"};
    EXPECT_EQ(column(rows.str(), 8), alternate ? starts : std::vector<std::string>(starts.rbegin(), starts.rend()));
    EXPECT_EQ(column(rows.str(), 10), alternate ? ends : std::vector<std::string>(ends.rbegin(), ends.rend()));
  }
}

/* segments.csv rows go out in the order their segments closed, each once its job and the jobs of every row before it
 * have left, with the job's final figures; in memory or, beyond the memory limit (200 bytes: some rows, 0: every row),
 * through the temporary file, the same text. Jobs 10, 12 and 15 (numbers close together: the table by number; 10, 12
 * and 900015: the hash table), submitted at 0, 1 and 0. Every row's figures below are worked out by hand from the
 * segments: the submission is the end of the job's previous running segment (job 10's second row ran on from its first:
 * waiting 0), job 15's aggregated row (3 repetitions every 10 s) is ready at the end of its row before, and its next
 * row at the end of the last repetition, 2 + 2 x 10 = 22. */
TEST(OutputWriters, SegmentsRowsWaitForTheirJobsInOrder)
{
  const std::string header =
      "job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,success,"
      "final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,"
      "allocated_resources,consumed_energy,metadata\n";
  const std::vector<std::string> rows{"10,w,malleable,0,2,100,1,COMPLETED_SUCCESSFULLY,0,5,5,0,5,1.5,0-1,-1,\n",
                                      "12,w,rigid,1,1,50.5,0,COMPLETED_KILLED,2,2,4,1,3,2.25,2,-1,\n",
                                      "15,w,rigid,0,4,30,0,NOT_FINISHED,0,1,1,0,1,-1,4-7,-1,\n",
                                      "10,w,malleable,5,2,100,1,COMPLETED_SUCCESSFULLY,5,2.5,7.5,0,2.5,1.5,0-3,-1,\n",
                                      "15,w,rigid,1,4,30,0,NOT_FINISHED,1,1,2,0,1,-1,4-5,-1,repeats=3;period=10\n",
                                      "12,w,rigid,4,1,50.5,0,COMPLETED_KILLED,6,3,9,2,5,2.25,2-3,-1,\n",
                                      "15,w,rigid,22,4,30,0,NOT_FINISHED,25,5,30,3,8,-1,4-7 9,-1,\n"};
  for (JobId third : {JobId{15}, JobId{900015}})
    for (std::size_t limit : {SegmentsWriter::kMemoryLimit, std::size_t{200}, std::size_t{0}}) {
      JobList jobs(3);
      const JobId ids[3] = {10, 12, third};
      for (size_t i = 0; i < 3; i++)
        jobs[i].id = ids[i];
      jobs[0].shape = JobShape::malleable;
      jobs[0].size = 2;
      jobs[0].estimate = jobs[0].requested_time = 100;
      jobs[1].estimate = jobs[1].requested_time = 50.5;
      jobs[2].size = 4;
      jobs[2].estimate = jobs[2].requested_time = 30;
      ResourceSet last = ResourceSet::range(16, 4, 4);
      last.set(9);
      std::ostringstream out;
      const JobTable table = registered(jobs);
      SegmentsWriter writer(out, jobs, table, "w", limit);
      jobs[1].submit_time = 1; // submitted once the run goes, as a closed population's jobs are (events/submitter.cpp)
      writer.add({10, 0, 5, ResourceSet::range(16, 0, 2), JobStatus::running});
      writer.add({12, 2, 4, ResourceSet::range(16, 2, 1), JobStatus::running});
      writer.add({third, 0, 1, ResourceSet::range(16, 4, 4), JobStatus::running});
      writer.add({10, 5, 7.5, ResourceSet::range(16, 0, 4), JobStatus::running});
      writer.add({12, 4, 6, ResourceSet::range(16, 2, 1), JobStatus::suspended}); // not a row
      writer.add({third, 1, 2, ResourceSet::range(16, 4, 2), JobStatus::running, -1, 3, 10});
      writer.add({12, 6, 9, ResourceSet::range(16, 2, 2), JobStatus::running});
      writer.job_left(1, {JobFate::killed, 2.25});
      writer.flush();
      EXPECT_EQ(out.str(), header) << "job 10's row is first and job 10 has not left";
      writer.job_left(0, {JobFate::completed, 1.5});
      writer.flush();
      EXPECT_EQ(out.str(), header + rows[0] + rows[1]) << "job 15's row waits";
      writer.add({third, 25, 30, last, JobStatus::running});
      writer.job_left(2, {JobFate::running, -1});
      writer.flush();
      std::string all = header;
      for (const std::string& row : rows)
        all += row;
      if (third != 15)
        for (size_t at = all.find("\n15,"); at != std::string::npos; at = all.find("\n15,", at + 1))
          all.replace(at + 1, 2, "900015");
      EXPECT_EQ(out.str(), all) << "limit " << limit;
      writer.finish();
      EXPECT_EQ(out.str(), all);
      EXPECT_EQ(writer.spilled_bytes() > 0, limit != SegmentsWriter::kMemoryLimit);
    }
}

/* segments.csv's rows that can go out reach the stream some at a time: after each job_left() the stream has whole
 * rows only, in order, at most kFlushSize characters short of every row that can go out; after flush() or finish(),
 * every one. Job 1's 12,000 rows (about 900 KB) go out when it leaves, then job 2's 3,000 a few at each of its rows
 * once it has left. printf makes the expected rows. */
TEST(OutputWriters, SegmentsRowsReachTheStreamInBatches)
{
  JobList jobs = numbered_jobs(2);
  for (WorkloadJob& j : jobs) {
    j.size = 1;
    j.estimate = j.requested_time = 10;
  }
  std::ostringstream out;
  const JobTable table = registered(jobs);
  SegmentsWriter writer(out, jobs, table, "w");
  std::string expected = out.str(); // (the header)
  const auto row = [](JobId job, int k, const char* outcome, const char* stretch) {
    char text[160];
    std::snprintf(text, sizeof text, "%lld,w,rigid,%d,1,10,%s,%d,1,%d,0,1,%s,%lld,-1,\n", static_cast<long long>(job),
                  k, outcome, k, k + 1, stretch, static_cast<long long>(job - 1));
    return std::string(text);
  };
  size_t last_written_size = expected.size();
  const auto expect_whole_rows_in_order = [&](const std::string& ready) {
    const auto written_size = static_cast<size_t>(out.tellp());
    ASSERT_LT(ready.size() - written_size, TraceWriter::kFlushSize + 200);
    if (written_size == last_written_size) return; // (nothing written since)
    last_written_size = written_size;
    const std::string written = out.str();
    ASSERT_EQ(written.back(), '\n');
    ASSERT_EQ(written, ready.substr(0, written.size()));
  };
  for (int k = 0; k < 12000; k++) {
    writer.add({1, static_cast<double>(k), k + 1.0, ResourceSet::range(4, 0, 1), JobStatus::running});
    expected += row(1, k, "1,COMPLETED_SUCCESSFULLY", "2");
  }
  writer.job_left(1, {JobFate::killed, 3.5}); // job 2 (no row yet)
  writer.job_left(0, {JobFate::completed, 2});
  expect_whole_rows_in_order(expected);
  EXPECT_GT(out.str().size(), 2 * TraceWriter::kFlushSize);
  EXPECT_LT(out.str().size(), expected.size()) << "the last rows are held";
  writer.flush();
  EXPECT_EQ(out.str(), expected);
  for (int k = 0; k < 3000; k++) {
    writer.add({2, static_cast<double>(k), k + 1.0, ResourceSet::range(4, 1, 1), JobStatus::running});
    expected += row(2, k, "0,COMPLETED_KILLED", "3.5");
    expect_whole_rows_in_order(expected);
  }
  writer.finish();
  EXPECT_EQ(out.str(), expected);
}

/* A row of a job that never left is a bug of the run: finish() says so instead of leaving the row out. */
TEST(OutputWriters, SegmentsOfAJobThatNeverLeftAreAnError)
{
  const JobList jobs = numbered_jobs(2);
  std::ostringstream out;
  const JobTable table = registered(jobs);
  SegmentsWriter writer(out, jobs, table, "w");
  writer.add({2, 0, 5, ResourceSet::range(4, 0, 2), JobStatus::running});
  writer.job_left(0, {JobFate::completed, 1});
  EXPECT_THROW(writer.finish(), std::logic_error);
  EXPECT_THROW(writer.add({3, 0, 1, ResourceSet::range(4, 0, 1), JobStatus::running}), std::out_of_range);
}

TEST(Metrics, DefinitionsOnTwoJobs)
{
  JobList jobs(2);
  WorkloadJob& a = jobs[0];
  a.id = 1;
  a.submit_time = 0;
  a.size = 2;
  a.run_time = 20;
  WorkloadJob& b = jobs[1];
  b.id = 2;
  b.submit_time = 10;
  b.size = 4;
  b.run_time = 5;
  std::deque<JobState> o(2);
  auto finished = [](const Job& j, double start, double finish) {
    JobState s;
    s.job = &j;
    s.status = JobStatus::finished;
    s.fate = JobFate::completed;
    s.start_time = start;
    s.finish_time = finish;
    s.account.dedicated_time = finish - start; // computing all along on its requested processors
    return s;
  };
  o[0] = finished(a, 5, 25);  // wait 5, exec 20, turnaround 25
  o[1] = finished(b, 25, 30); // wait 15, exec 5, turnaround 20
  // Utilization comes from the trace's running segments; a suspended segment does not count.
  std::vector<TraceSegment> trace{{1, 5, 25, ResourceSet::range(4, 0, 2), JobStatus::running},
                                  {2, 25, 30, ResourceSet::range(4, 0, 4), JobStatus::running},
                                  {2, 20, 25, ResourceSet::range(4, 0, 4), JobStatus::suspended}};
  double area = 0;
  for (const auto& s : trace)
    area += busy_area(s);
  RunMetrics m = compute_metrics(o, jobs, area, 4, 4);
  EXPECT_DOUBLE_EQ(m.mean_wait, 10);
  EXPECT_DOUBLE_EQ(m.median_wait, 10);
  EXPECT_DOUBLE_EQ(m.makespan, 30);
  EXPECT_DOUBLE_EQ(m.utilization, (2 * 20 + 4 * 5) / (4.0 * 30));
  // Linear jobs computing all along on their requested processors: their work is what they held.
  EXPECT_DOUBLE_EQ(m.work, 2 * 20 + 4 * 5);
  EXPECT_DOUBLE_EQ(m.work_utilization, m.utilization);
  EXPECT_DOUBLE_EQ(m.mean_slowdown, (25.0 / 20 + 20.0 / 5) / 2);
  // bounded: job b's execution (5 s) is below tau = 10 s: 20 / 10 = 2.
  EXPECT_DOUBLE_EQ(m.mean_bounded_slowdown, (25.0 / 20 + 2.0) / 2);
}

/* A job's work, in processor-seconds at the reference speed, under each job model, worked out by hand:
 *   a: rigid, linear, 2 processors for 20 s, completed: 2 x 20 = 40
 *   b: malleable, beta speedup (beta 2: S(4) = 3 x 4 / (2 + 4) = 2), 5 s on its 4 processors, completed: 5 x 2 = 10
 *      (whatever it ran on: the allotment is in its times, not in its work)
 *   c: Cao's phases, span 3 at parallelism 4 then 2 at 1: 14; stopped at its walltime halfway (run time 8, its
 *      account's run time stretched by paging 4.4 of which paging 0.4: 4 / 8): 7
 *   d: rigid, linear, 4 processors for 10 s, killed after 30% of its work at a paging stretch of 0.5 (account: run
 *      time x (1 + 0.5) x 0.3 = 4.5, paging 10 x 0.5 x 0.3 = 1.5; dedicated time 6 with its communication): 0.3 x 40 =
 *      12
 *   e: rigid, 3 processors for 10 s, killed before it started (account zero): 0
 * Together 69 over 8 processors x a makespan of 50 (first submission 0, last finish 50): 69 / 400; on 8 processors of
 * which 4 run at three times the reference speed (4 + 4 x 3 = 16 reference processors), 69 / 800. */
TEST(Metrics, WorkOfEachJobModel)
{
  JobList jobs(5);
  for (size_t i = 0; i < jobs.size(); i++) {
    jobs[i].id = static_cast<JobId>(i + 1);
    jobs[i].submit_time = 0;
  }
  jobs[0].size = 2;
  jobs[0].run_time = 20;
  jobs[1].size = 4;
  jobs[1].run_time = 5;
  jobs[1].shape = JobShape::malleable;
  jobs[1].min_size = 1;
  jobs[1].max_size = 8;
  jobs[1].speedup = Speedup::with_beta(2);
  jobs[2].size = 4;
  jobs[2].run_time = 8;
  jobs[2].profile.span = {3, 2};
  jobs[2].profile.parallelism = {4, 1};
  jobs[3].size = 4;
  jobs[3].run_time = 10;
  jobs[4].size = 3;
  jobs[4].run_time = 10;
  std::deque<JobState> o(5);
  for (size_t i = 0; i < jobs.size(); i++) {
    o[i].job = &jobs[i];
    o[i].status = JobStatus::finished;
    o[i].start_time = 0;
  }
  o[0].fate = JobFate::completed;
  o[0].finish_time = 20;
  o[0].account = JobAccount{20, 20, 0};
  o[1].fate = JobFate::completed;
  o[1].finish_time = 50; // on 1 processor: 5 x S(4) / S(1) = 10 s of work there, suspended the rest of the time
  o[1].account = JobAccount{5, 5, 0};
  o[2].fate = JobFate::walltime_reached;
  o[2].finish_time = 30;
  o[2].account = JobAccount{4, 4.4, 0.4};
  o[3].fate = JobFate::killed;
  o[3].finish_time = 9;
  o[3].account = JobAccount{6, 4.5, 1.5};
  o[4].fate = JobFate::killed;
  o[4].start_time = -1;
  o[4].finish_time = 40;
  EXPECT_DOUBLE_EQ(job_work(o[0], jobs[0]), 40);
  EXPECT_DOUBLE_EQ(job_work(o[1], jobs[1]), 10);
  EXPECT_DOUBLE_EQ(job_work(o[2], jobs[2]), 7);
  EXPECT_DOUBLE_EQ(job_work(o[3], jobs[3]), 12);
  EXPECT_EQ(job_work(o[4], jobs[4]), 0.0);
  const RunMetrics m = compute_metrics(o, jobs, 0, 8, 8);
  EXPECT_DOUBLE_EQ(m.makespan, 50);
  EXPECT_DOUBLE_EQ(m.work, 69);
  EXPECT_DOUBLE_EQ(m.work_utilization, 69.0 / 400);
  EXPECT_DOUBLE_EQ(compute_metrics(o, jobs, 0, 8, 16).work_utilization, 69.0 / 800);
}

/* A running segment's busy area: its area on shares when it has one (its processors not counted then), else processors
 * x length; a segment not running holds none. */
TEST(Metrics, BusyAreaOfSharesAndOfWholeProcessors)
{
  TraceSegment shares{1, 10, 20, ResourceSet::range(8, 0, 4), JobStatus::running, 7.5};
  EXPECT_EQ(busy_area(shares), 7.5);
  shares.area = 0;
  EXPECT_EQ(busy_area(shares), 0.0);
  const TraceSegment whole{1, 10, 20, ResourceSet::range(8, 2, 3), JobStatus::running};
  EXPECT_EQ(busy_area(whole), 30.0);
  const TraceSegment suspended{1, 10, 20, ResourceSet::range(8, 0, 4), JobStatus::suspended, 7.5};
  EXPECT_EQ(busy_area(suspended), 0.0);
}

// A job submitted at 0, started at 10, finished at 100, that computed 40 s (dedicated time 40 s: it was suspended the
// rest of the time), of which 32 s at its run time of 30 s stretched by paging (x 16/15) and 2 s of paging (30 x
// 1/15): slowdown 100 / 40, communication 40 - 32 = 8 s. The same job still running when the run stopped at 60 is
// measured at 60; had it not computed, its slowdown would be -1 (undefined) and its bounded slowdown 60 / 10.
TEST(Metrics, JobMetricsDivideByTheDedicatedTime)
{
  WorkloadJob job;
  job.submit_time = 0;
  JobState s;
  s.job = &job;
  s.start_time = 10;
  s.finish_time = 100;
  s.fate = JobFate::completed;
  s.account = JobAccount{40, 32, 2};
  JobMetrics m = job_metrics(s, 1e9);
  EXPECT_DOUBLE_EQ(m.waiting, 10);
  EXPECT_DOUBLE_EQ(m.execution, 90);
  EXPECT_DOUBLE_EQ(m.turnaround, 100);
  EXPECT_DOUBLE_EQ(m.slowdown, 2.5);
  EXPECT_DOUBLE_EQ(m.bounded_slowdown, 2.5);
  EXPECT_DOUBLE_EQ(m.communication, 8);
  EXPECT_DOUBLE_EQ(m.page_faults, 2);
  s.fate = JobFate::running;
  s.finish_time = -1;
  m = job_metrics(s, 60);
  EXPECT_DOUBLE_EQ(m.end, 60);
  EXPECT_DOUBLE_EQ(m.execution, 50);
  EXPECT_DOUBLE_EQ(m.slowdown, 60.0 / 40);
  s.account = JobAccount{};
  s.start_time = -1;
  m = job_metrics(s, 60);
  EXPECT_DOUBLE_EQ(m.start, 60);
  EXPECT_DOUBLE_EQ(m.waiting, 60);
  EXPECT_DOUBLE_EQ(m.slowdown, -1);
  EXPECT_DOUBLE_EQ(m.bounded_slowdown, 6);
  EXPECT_DOUBLE_EQ(m.communication, 0);
  job.submit_time = 80; // submitted after the run stopped: measured at its submission
  m = job_metrics(s, 60);
  EXPECT_DOUBLE_EQ(m.start, 80);
  EXPECT_DOUBLE_EQ(m.turnaround, 0);
}

TEST(TimeFormat, ShortestStableText)
{
  EXPECT_EQ(format_number(1000), "1000");
  EXPECT_EQ(format_number(999.99999999999989), "1000");
  EXPECT_EQ(format_number(3.3), "3.3");
  EXPECT_EQ(format_number(0.1234567), "0.123457");
  EXPECT_EQ(format_number(-0.0000001), "0");
}

namespace {
/* printf's "%.6f" without its trailing zeros and point, "-0" as "0": what output files write, made another way. */
std::string printf_number(double v)
{
  char buf[400];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  std::string s = buf;
  while (!s.empty() && s.back() == '0')
    s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s == "-0" ? std::string("0") : s;
}
} // namespace

// The fast paths (whole numbers, and values below 10^8 through an integer count of millionths) against printf's
// "%.6f" with the trailing zeros and point removed, on random values of every magnitude and on values next to the
// halfway points between two sixth decimals, where a product rounded twice would go wrong (below 2 x 10^6 and, where
// the product's rounding error is larger, from 10^6 to 2 x 10^8).
TEST(TimeFormat, AgreesWithPrintfEverywhere)
{
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> exponent(-9, 18);
  std::uniform_int_distribution<long long> millionths(-2000000000000LL, 2000000000000LL);
  std::uniform_int_distribution<long long> large_millionths(1000000000000LL, 200000000000000LL);
  std::vector<double> values{0.0, -0.0,           0.5e-6,           -0.5e-6,          1.5e-6, 0.0000025, 999999.9999995,
                             1e6, 123456.7890125, 99999999.9999995, 12345678.1234565, 1e8};
  for (int i = 0; i < 200000; i++) {
    const double large_halfway = (static_cast<double>(large_millionths(gen)) + 0.5) / 1e6 * (i % 2 != 0 ? 1 : -1);
    values.push_back(large_halfway);
    values.push_back(std::nextafter(large_halfway, 0.0));
    values.push_back(std::nextafter(large_halfway, 1e300));
    values.push_back(static_cast<double>(large_millionths(gen)) / 1e6); // six decimals or fewer, below 2 x 10^8
    double magnitude = std::pow(10.0, exponent(gen));
    values.push_back(i % 2 != 0 ? magnitude : -magnitude);
    double halfway = (static_cast<double>(millionths(gen)) + 0.5) / 1e6; // near x.xxxxxx5
    values.push_back(halfway);
    values.push_back(std::nextafter(halfway, 0.0));
    values.push_back(std::nextafter(halfway, 1e300));
    values.push_back(std::round(magnitude)); // whole numbers
  }
  int mismatches = 0;
  for (double v : values)
    if (format_number(v) != printf_number(v) && ++mismatches < 5) ADD_FAILURE() << v << ": " << format_number(v);
  EXPECT_EQ(mismatches, 0);
}

namespace {
std::vector<double> edge_and_random_numbers()
{
  const double largest = std::numeric_limits<double>::max();
  const double least = std::numeric_limits<double>::min();
  const double denormal = std::numeric_limits<double>::denorm_min();
  std::vector<double> values{0.0,
                             -0.0,
                             1e-7,
                             -1e-7,
                             4e-7,
                             5e-7,
                             6e-7,
                             0.0000015,
                             0.0000025,
                             1e15,
                             -1e15,
                             9e15,
                             1e16,
                             9007199254740993.0,
                             123.4565,
                             0.1234565,
                             999999.9999995,
                             99999999.9999995,
                             1e8,
                             1e8 + 0.5e-6,
                             2.5,
                             -2.5,
                             1e300,
                             -1e300,
                             largest,
                             -largest,
                             least,
                             denormal};
  std::mt19937_64 gen(11);
  std::uniform_real_distribution<double> exponent(-9, 20);
  std::uniform_int_distribution<long long> millionths(-2000000000000LL, 2000000000000LL);
  for (int i = 0; i < 20000; i++) {
    const double magnitude = std::pow(10.0, exponent(gen));
    values.push_back(i % 2 != 0 ? magnitude : -magnitude);
    const double halfway = (static_cast<double>(millionths(gen)) + 0.5) / 1e6; // rounds at the sixth decimal
    values.push_back(halfway);
    values.push_back(std::nextafter(halfway, 0.0));
    values.push_back(std::nextafter(halfway, 1e300));
  }
  return values;
}
} // namespace

/* write_number() puts a number's text in place: each value's text is printf's, and nothing past kNumberTextMax
 * characters is touched (the longest, "%.6f" of -DBL_MAX, 317 characters, fits). */
TEST(TimeFormat, WriteNumberInPlaceIsPrintfsText)
{
  const std::vector<double> values = edge_and_random_numbers();
  std::vector<char> buffer(kNumberTextMax + 1);
  int mismatches = 0;
  for (double v : values) {
    std::fill(buffer.begin(), buffer.end(), '#');
    char* end = write_number(buffer.data(), v);
    const std::string text(buffer.data(), end);
    ASSERT_LE(text.size(), kNumberTextMax);
    EXPECT_EQ(buffer.back(), '#') << v;
    if (text != printf_number(v) && ++mismatches < 5) ADD_FAILURE() << v << ": " << text;
  }
  EXPECT_EQ(mismatches, 0);
  // (before its zeros go: what write_number() may use)
  EXPECT_EQ(std::snprintf(nullptr, 0, "%.6f", -std::numeric_limits<double>::max()), 317);
  for (auto [v, text] : {std::pair<double, const char*>{std::nan(""), "nan"},
                         {std::numeric_limits<double>::infinity(), "inf"},
                         {-std::numeric_limits<double>::infinity(), "-inf"}})
    EXPECT_EQ(std::string(buffer.data(), write_number(buffer.data(), v)), text);
}

/* Each row of segments.csv carries its own job's stretch, formatted once when the job left: rows of two jobs
 * interleaved, one stretch too long to be kept as text (formatted per row) and one kept; printf makes the expected
 * texts. */
TEST(OutputWriters, SegmentsRowsCarryTheirOwnJobsStretch)
{
  const JobList jobs = numbered_jobs(2);
  std::ostringstream out;
  const JobTable table = registered(jobs);
  SegmentsWriter writer(out, jobs, table, "w");
  for (int k = 0; k < 3; k++) {
    writer.add({1, 2.0 * k, 2.0 * k + 1, ResourceSet::range(4, 0, 1), JobStatus::running});
    writer.add({2, 2.0 * k + 1, 2.0 * k + 2, ResourceSet::range(4, 1, 1), JobStatus::running});
  }
  const double long_stretch = 1.25e30; // (31 digits)
  const double short_stretch = 1234.0625;
  writer.job_left(1, {JobFate::killed, short_stretch});
  writer.job_left(0, {JobFate::completed, long_stretch});
  writer.finish();
  std::istringstream rows(out.str());
  std::string row;
  std::getline(rows, row); // the header
  int n = 0;
  for (; std::getline(rows, row); n++) {
    const bool first = n % 2 == 0;
    char stretch[400];
    std::snprintf(stretch, sizeof stretch, "%.6f", first ? long_stretch : short_stretch);
    std::string text = stretch;
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
    const std::string final_state = first ? "1,COMPLETED_SUCCESSFULLY," : "0,COMPLETED_KILLED,";
    EXPECT_EQ(row.substr(0, 2), first ? "1," : "2,") << row;
    EXPECT_NE(row.find(final_state), std::string::npos) << row;
    EXPECT_NE(row.find("," + text + ","), std::string::npos) << row << " (" << text << ")";
  }
  EXPECT_EQ(n, 6);
}

/* segments.csv's rows made with trace.csv's texts (TraceWriter::last_row(), copied at a fixed length when short) are
 * the rows made without them: starts and ends of 31, 32 and 33 characters (1e30, 2e31, 1e32) and processors' texts of
 * 63, 64 and 65 characters around the copies' fixed lengths, of jobs 1, 257 and 513, whose positions are kept in one
 * place (SegmentsWriter::position_of()), their rows interleaved. Each row's job, times and processors are also checked
 * against texts made by printf and member by member. */
TEST(OutputWriters, SegmentsRowsFromTraceTextsOfEveryLength)
{
  JobList jobs(3);
  for (size_t i = 0; i < 3; i++) {
    jobs[i].id = static_cast<JobId>(1 + 256 * i);
    jobs[i].size = static_cast<int>(i + 1);
    jobs[i].estimate = 1e33;
  }
  // Members spaced by 2 (no runs): `three` of three digits from 100, `four` of four digits from 1000.
  auto spaced = [](int three, int four, std::string& text) {
    ResourceSet set(2000);
    text.clear();
    for (int k = 0; k < three + four; k++) {
      const int member = k < three ? 100 + 2 * k : 1000 + 2 * (k - three);
      set.set(member);
      text += (k > 0 ? " " : "") + std::to_string(member);
    }
    return set;
  };
  std::string sets[3];
  const ResourceSet set63 = spaced(16, 0, sets[0]);
  const ResourceSet set64 = spaced(15, 1, sets[1]);
  const ResourceSet set65 = spaced(14, 2, sets[2]);
  ASSERT_EQ(sets[0].size(), 63u);
  ASSERT_EQ(sets[1].size(), 64u);
  ASSERT_EQ(sets[2].size(), 65u);
  const std::vector<TraceSegment> segments{
      {1, 1e30, 2e31, set63, JobStatus::running},   {257, 2e31, 1e32, set64, JobStatus::running},
      {513, 0, 1e30, set65, JobStatus::running},    {1, 2e31, 1e32, set65, JobStatus::running},
      {257, 1e32, 2e32, set63, JobStatus::running}, {513, 1e30, 2e31, set64, JobStatus::running}};
  const std::vector<std::vector<std::string>> expected{{"1", printf_number(1e30), printf_number(2e31), sets[0]},
                                                       {"257", printf_number(2e31), printf_number(1e32), sets[1]},
                                                       {"513", "0", printf_number(1e30), sets[2]},
                                                       {"1", printf_number(2e31), printf_number(1e32), sets[2]},
                                                       {"257", printf_number(1e32), printf_number(2e32), sets[0]},
                                                       {"513", printf_number(1e30), printf_number(2e31), sets[1]}};
  ASSERT_EQ(printf_number(1e30).size(), 31u);
  ASSERT_EQ(printf_number(2e31).size(), 32u);
  ASSERT_EQ(printf_number(1e32).size(), 33u);
  std::string texts[2];
  for (bool from_trace : {true, false}) {
    std::ostringstream trace;
    std::ostringstream rows;
    TraceWriter trace_writer(trace);
    const JobTable table = registered(jobs);
    SegmentsWriter writer(rows, jobs, table, "w");
    for (const TraceSegment& s : segments) {
      trace_writer.write(s);
      if (from_trace)
        writer.add(s, trace_writer.last_row());
      else
        writer.add(s);
    }
    for (size_t i = 0; i < 3; i++)
      writer.job_left(i, {JobFate::completed, 1});
    writer.finish();
    texts[from_trace ? 0 : 1] = rows.str();
    std::istringstream lines(rows.str());
    std::string line;
    std::getline(lines, line); // the header
    for (const std::vector<std::string>& fields : expected) {
      ASSERT_TRUE(std::getline(lines, line));
      std::vector<std::string> row;
      std::istringstream cells(line);
      for (std::string cell; std::getline(cells, cell, ',');)
        row.push_back(cell);
      ASSERT_EQ(row.size(), 16u) << line; // (the metadata column empty)
      EXPECT_EQ((std::vector<std::string>{row[0], row[8], row[10], row[14]}), fields) << line;
    }
    EXPECT_FALSE(std::getline(lines, line));
  }
  EXPECT_EQ(texts[0], texts[1]);
}

namespace {
/* SegmentsRowsCarryTheirOwnJobsFields (below) under one workload name. */
void expect_rows_carry_their_own_jobs_fields(const std::string& name)
{
  JobList jobs(4);
  const JobId ids[4] = {7, 123456789012, 3, 40};
  const JobShape shapes[4] = {JobShape::moldable, JobShape::rigid, JobShape::malleable, JobShape::rigid};
  const int sizes[4] = {1, 2048, 64, 3};
  const double estimates[4] = {3600.5, 0.000001, 1e90, 86400}; // (1e90: 91 digits)
  for (size_t i = 0; i < 4; i++) {
    jobs[i].id = ids[i];
    jobs[i].shape = shapes[i];
    jobs[i].size = sizes[i];
    jobs[i].estimate = jobs[i].requested_time = estimates[i];
  }
  std::ostringstream out;
  const JobTable table = registered(jobs);
  SegmentsWriter writer(out, jobs, table, name);
  std::vector<size_t> row_jobs; // the position of each row's job, in the order the rows go out
  const auto add = [&](size_t i, double start) {
    writer.add({ids[i], start, start + 1, ResourceSet::range(4, 0, 1), JobStatus::running});
    row_jobs.push_back(i);
  };
  for (int k = 0; k < 2; k++)
    for (size_t i : {0, 1, 2})
      add(i, k);
  // Each job a fate of its own, and the texts Batsim gives them.
  const JobFate fates[4] = {JobFate::completed, JobFate::walltime_reached, JobFate::failed, JobFate::killed};
  const std::string outcomes[4] = {"1,COMPLETED_SUCCESSFULLY", "0,COMPLETED_WALLTIME_REACHED", "0,COMPLETED_FAILED",
                                   "0,COMPLETED_KILLED"};
  writer.job_left(0, {fates[0], 1});
  for (int k = 2; k < 4; k++)
    for (size_t i : {3, 1, 2})
      add(i, k);
  writer.job_left(1, {fates[1], 1});
  add(1, 4);
  for (size_t i : {2, 3})
    writer.job_left(i, {fates[i], 1});
  writer.finish();
  const auto number = [](double v) { // write_number()'s text: six decimals, no trailing zeros
    char text[400];
    std::snprintf(text, sizeof text, "%.6f", v);
    std::string s = text;
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
    return s;
  };
  std::istringstream rows(out.str());
  std::string row;
  std::getline(rows, row); // the header
  size_t n = 0;
  for (; std::getline(rows, row); n++) {
    ASSERT_LT(n, row_jobs.size());
    const size_t i = row_jobs[n];
    std::vector<std::string> fields;
    std::istringstream split(row);
    for (std::string field; std::getline(split, field, ',');)
      fields.push_back(field);
    ASSERT_GE(fields.size(), 8U) << row;
    char id[32];
    std::snprintf(id, sizeof id, "%lld", static_cast<long long>(ids[i]));
    EXPECT_EQ(fields[0], id) << row;
    EXPECT_EQ(fields[1], name) << row;
    EXPECT_EQ(fields[2], to_string(shapes[i])) << row;
    EXPECT_EQ(fields[4], std::to_string(sizes[i])) << row;
    EXPECT_EQ(fields[5], number(estimates[i])) << row;
    EXPECT_EQ(fields[6] + "," + fields[7], outcomes[i]) << row;
  }
  EXPECT_EQ(n, row_jobs.size());
}
} // namespace

/* Each row of segments.csv carries its own job's number, workload, shape, size and estimate, formatted once per job
 * while the job is in the system and copied on its other rows: four jobs' rows interleaved, job 7 leaving before job
 * 40 comes (40 takes the room 7 had: none of 7's text may show on 40's rows), job 3's estimate too long for the room
 * (formatted per row), a row of job 123456789012 after it left (formatted on its own), and a workload name of 40
 * characters, then of 300 (a text longer than 255 characters). Each job ends with a fate of its own: the rows' success
 * and final state are its. printf makes the expected texts. */
TEST(OutputWriters, SegmentsRowsCarryTheirOwnJobsFields)
{
  for (const std::string& name : {std::string("a-workload-name-of-forty-characters-long"), std::string(300, 'w')}) {
    SCOPED_TRACE(name);
    expect_rows_carry_their_own_jobs_fields(name);
  }
}

/* NumberCache writes what write_number() writes, and formats a number only when its place does not hold it: eight
 * numbers of eight places in turn are formatted once each, two of one place in turn each time (and still right), 0 and
 * -0 each, a text too long to keep each time, and on random numbers (of every kind, too long to keep among them) it
 * formats no more than a memo of the last one (of the same room) would. */
TEST(OutputWriters, NumberCacheWritesWhatWriteNumberWrites)
{
  int calls = 0;
  auto value_of = [&calls](double key) {
    calls++;
    return nine_decimals(key);
  };
  char text[kNumberTextMax];
  char expected[kNumberTextMax];
  auto agrees = [&](NumberCache& cache, double k) {
    const std::string_view written(text, static_cast<size_t>(cache.write(text, k, value_of) - text));
    const std::string_view reference(expected,
                                     static_cast<size_t>(write_number(expected, nine_decimals(k)) - expected));
    return written == reference;
  };
  std::vector<double> apart; // numbers of eight places
  std::vector<bool> taken(NumberCache::kEntries);
  for (double k = 0.5; apart.size() < 8; k += 1.25)
    if (!taken[NumberCache::place_of(k)]) {
      taken[NumberCache::place_of(k)] = true;
      apart.push_back(k);
    }
  double partner = apart[0] + 1.25; // a number of apart[0]'s place
  while (NumberCache::place_of(partner) != NumberCache::place_of(apart[0]))
    partner += 1.25;
  const std::vector<double> together{apart[0], partner};
  // 50 rounds of `keys` through a new cache: how many numbers it formatted.
  auto formatted_in_fifty_rounds = [&](const std::vector<double>& keys) {
    NumberCache cache;
    calls = 0;
    for (int round = 0; round < 50; round++)
      for (double k : keys)
        EXPECT_TRUE(agrees(cache, k)) << k;
    return calls;
  };
  EXPECT_EQ(formatted_in_fifty_rounds(apart), 8);
  EXPECT_EQ(formatted_in_fifty_rounds(together), 100);
  calls = 0;
  NumberCache edges; // 0 and -0 (other bits) formatted each, 1e200's text (too long to keep) each time
  for (double k : {0.0, -0.0, -0.0, 1e200, 1e200})
    EXPECT_TRUE(agrees(edges, k)) << k;
  EXPECT_EQ(calls, 4);

  std::vector<double> keys = edge_and_random_numbers();
  keys.resize(2000);
  std::mt19937_64 gen(3);
  std::uniform_int_distribution<size_t> pick(0, 39);
  std::vector<double> sequence;
  for (size_t i = 0; i < 20000; i++) // a key among the 40 around the i-th, often again
    sequence.push_back(keys[(i / 10 + pick(gen)) % keys.size()]);
  int memo_calls = 0;
  for (size_t i = 0; i < sequence.size(); i++)
    if (i == 0 || std::memcmp(&sequence[i], &sequence[i - 1], sizeof(double)) != 0 ||
        printf_number(nine_decimals(sequence[i])).size() > NumberCache::kTextRoom)
      memo_calls++;
  calls = 0;
  NumberCache random;
  int mismatches = 0;
  for (double k : sequence)
    if (!agrees(random, k) && ++mismatches < 5) ADD_FAILURE() << k;
  EXPECT_EQ(mismatches, 0);
  EXPECT_LE(calls, memo_calls);
  EXPECT_LT(calls, 19000); // (numbers that came back were copied)
}

/* A TextBuffer keeps its text as it grows from room() to room(), and a moved-from one is empty, with no room. */
TEST(OutputWriters, TextBufferKeepsItsTextAsItGrows)
{
  TextBuffer text;
  std::string expected;
  for (int i = 0; i < 5000; i++) {
    const std::string piece = std::to_string(i * 7919) + (i % 10 == 0 ? std::string(300, 'x') : ",");
    char* p = text.room(piece.size());
    std::memcpy(p, piece.data(), piece.size());
    text.set_end(p + piece.size());
    expected += piece;
  }
  EXPECT_GE(text.capacity(), expected.size());
  EXPECT_EQ(std::string(text.data(), text.size()), expected);
  TextBuffer moved = std::move(text);
  EXPECT_EQ(std::string(moved.data(), moved.size()), expected);
  EXPECT_EQ(text.size(), 0U);
  EXPECT_EQ(text.capacity(), 0U);
  char* p = text.room(3);
  std::memcpy(p, "abc", 3);
  text.set_end(p + 3);
  EXPECT_EQ(std::string(text.data(), text.size()), "abc");
}

/* Each row of trace.csv carries its own job's number, the text of which the writer keeps by number modulo 256 for the
 * job's next rows: 0 first (the number of a place where nothing is kept yet), numbers sharing a place (5, 261, 256005,
 * -251; the least and 0), the greatest, rows of each interleaved three times; the rows' states, every status in turn.
 * printf makes the expected texts. */
TEST(OutputWriters, TraceRowsCarryTheirOwnJobNumbers)
{
  const std::vector<JobId> jobs{
      0, 5, 261, 256005, -251, std::numeric_limits<JobId>::min(), std::numeric_limits<JobId>::max()};
  std::ostringstream out;
  std::string expected = "job_id,start,end,processors,state\n";
  {
    TraceWriter writer(out);
    const std::pair<JobStatus, const char*> statuses[] = {
        {JobStatus::pending, "pending"},     {JobStatus::waiting, "waiting"},
        {JobStatus::running, "running"},     {JobStatus::suspended, "suspended"},
        {JobStatus::switching, "switching"}, {JobStatus::transferring, "transferring"},
        {JobStatus::finished, "finished"}};
    size_t n = 0;
    for (int k = 0; k < 3; k++)
      for (JobId job : jobs) {
        const auto& [status, status_text] = statuses[n++ % std::size(statuses)];
        writer.write({job, 1, 2, ResourceSet::range(4, 1, 2), status});
        char row[64];
        std::snprintf(row, sizeof row, "%lld,1,2,1-2,%s\n", static_cast<long long>(job), status_text);
        expected += row;
      }
  }
  EXPECT_EQ(out.str(), expected);
}

/* trace.csv's writer keeps each job's texts for its next rows (its processors' text while its set's words are those it
 * was of, its last end for a start equal to it): every row must still carry its own segment's processors and times.
 * Jobs share places (3, 259 and -253 by number modulo 256), keep their sets or change them by one member, move a set to
 * other words of the same bits ("0-3" and "64-67"), hold sets of more words than are kept (1,000 processors: "0 999"
 * and "0 998", the same four first words) and texts too long to keep (every other processor: 64 runs); starts are the
 * job's end before, another job's, or new, ends whole, fractional, -0 and too long to keep (10^30). The expected texts
 * are made from the members one by one and with printf. */
TEST(OutputWriters, TraceRowsCarryTheirOwnProcessorsAndTimes)
{
  const std::vector<JobId> jobs{3, 259, -253, 4, 5};
  std::mt19937_64 gen(11);
  std::uniform_int_distribution<int> pick(0, 999);
  auto set_text = [](const ResourceSet& set) {
    std::string text;
    for (int i = 0; i < set.capacity(); i++) {
      if (!set.test(i) || (i > 0 && set.test(i - 1))) continue;
      int last = i;
      while (last + 1 < set.capacity() && set.test(last + 1))
        last++;
      if (!text.empty()) text += ' ';
      text += std::to_string(i);
      if (last > i) text += "-" + std::to_string(last);
    }
    return text;
  };
  auto some_set = [&](int choice) {
    switch (choice % 7) {
    case 0:
      return ResourceSet::range(200, 0, 4);
    case 1:
      return ResourceSet::range(200, 64, 4);
    case 2: {
      ResourceSet set = ResourceSet::range(1000, 0, 1);
      set.set(999 - choice % 2);
      return set;
    }
    case 3: {
      ResourceSet set(200);
      for (int i = 0; i < 128; i += 2)
        set.set(i);
      return set;
    }
    default:
      return ResourceSet::range(200, pick(gen) % 150, 1 + pick(gen) % 40);
    }
  };
  std::vector<ResourceSet> sets;
  std::vector<double> ends(jobs.size(), 0);
  for (size_t k = 0; k < jobs.size(); k++)
    sets.push_back(some_set(static_cast<int>(k)));
  std::ostringstream out;
  std::string expected = "job_id,start,end,processors,state\n";
  int kept_sets = 0;
  int kept_starts = 0;
  {
    TraceWriter writer(out);
    double last_end = 0;
    for (int n = 0; n < 20000; n++) {
      const size_t k = static_cast<size_t>(pick(gen)) % jobs.size();
      const int change = pick(gen);
      if (change < 150) {
        sets[k] = some_set(pick(gen));
      } else if (change < 250) { // one member more or fewer
        const int member = pick(gen) % sets[k].capacity();
        if (sets[k].test(member))
          sets[k].reset(member);
        else
          sets[k].set(member);
      } else {
        kept_sets++;
      }
      const int when = pick(gen);
      double start = when < 700 ? ends[k] : when < 850 ? last_end : pick(gen) / 8.0;
      if (when < 700) kept_starts++;
      const int length = pick(gen);
      const double end = length < 20 ? 1e30 : length < 40 ? -0.0 : length < 500 ? start + length : start + length / 7.0;
      const JobStatus status = length % 2 == 0 ? JobStatus::running : JobStatus::suspended;
      writer.write({jobs[k], start, end, sets[k], status});
      const std::string processors = set_text(sets[k]);
      expected += std::to_string(jobs[k]) + "," + printf_number(start) + "," + printf_number(end) + "," + processors +
                  "," + (status == JobStatus::running ? "running" : "suspended") + "\n";
      const SegmentTexts texts = writer.last_row();
      ASSERT_EQ(std::string(texts.start), printf_number(start)) << n;
      ASSERT_EQ(std::string(texts.end), printf_number(end)) << n;
      ASSERT_EQ(std::string(texts.processors), processors) << n;
      ends[k] = end;
      last_end = end;
    }
  }
  EXPECT_EQ(out.str(), expected);
  EXPECT_GT(kept_sets, 10000); // (most rows were of a job's set before, most starts its end before)
  EXPECT_GT(kept_starts, 10000);
}

/* The count of the last row's processors (TraceWriter::last_row_processor_count()), kept with its job's processors'
 * text, is the row's own: sets kept from row to row, changed by a member within the same words, rows of jobs 1 and
 * 257 (one place) in turn, a set of more words than are kept, and rows whose count is not asked for. Expected counts
 * by testing each processor. */
TEST(OutputWriters, TraceRowsCountTheirOwnProcessors)
{
  std::ostringstream out;
  TraceWriter writer(out);
  ResourceSet plus_one = ResourceSet::range(1000, 0, 10);
  plus_one.set(40);
  ResourceSet minus_one = ResourceSet::range(1000, 0, 10);
  minus_one.reset(3);
  const ResourceSet wide = ResourceSet::range(1000, 0, 700); // 11 words
  const std::vector<std::pair<TraceSegment, bool>> rows{
      {{1, 0, 1, ResourceSet::range(1000, 0, 10), JobStatus::running}, true},
      {{1, 1, 2, ResourceSet::range(1000, 0, 10), JobStatus::running}, true},
      {{1, 2, 3, plus_one, JobStatus::running}, true},
      {{1, 3, 4, minus_one, JobStatus::running}, true},
      {{257, 0, 4, ResourceSet::range(1000, 5, 3), JobStatus::running}, true},
      {{1, 4, 5, minus_one, JobStatus::running}, true},
      {{1, 5, 6, ResourceSet::range(1000, 0, 10), JobStatus::suspended}, false},
      {{1, 6, 7, plus_one, JobStatus::running}, true},
      {{257, 4, 5, wide, JobStatus::running}, true},
      {{257, 5, 6, wide, JobStatus::running}, true},
      {{257, 6, 7, ResourceSet::range(1000, 5, 3), JobStatus::running}, false},
      {{257, 7, 8, ResourceSet::range(1000, 5, 4), JobStatus::running}, true}};
  for (const auto& [segment, asked] : rows) {
    writer.write(segment);
    if (!asked) continue;
    int expected = 0;
    for (int p = 0; p < 1000; p++)
      expected += segment.processors.test(p) ? 1 : 0;
    EXPECT_EQ(writer.last_row_processor_count(segment.processors), expected) << segment.job << " at " << segment.start;
  }
}

/* trace.csv's rows go to the stream some at a time: after each write() the stream has whole rows only, at most
 * kFlushSize characters short of every row, last_row() is that row's texts; after flush(), or when the writer goes, the
 * stream has every row. The rows expected are made with snprintf; times of every kind (whole, six decimals, repeated
 * as the memo keeps them). */
TEST(OutputWriters, TraceRowsReachTheStreamInBatches)
{
  std::mt19937_64 gen(5);
  std::uniform_int_distribution<int> pick(0, 99);
  std::ostringstream out;
  std::string expected = "job_id,start,end,processors,state,period,repeats\n";
  {
    TraceWriter writer(out, true);
    size_t last_written_size = expected.size(); // (the header is written at once)
    int batches = 0;
    double start = 0;
    for (int i = 0; i < 60000; i++) {
      const int first = pick(gen);
      const int count = 1 + pick(gen) % 5;
      ResourceSet processors = ResourceSet::range(200, first, count);
      if (i % 7 == 0) processors.set(199);
      const double end = i % 3 == 0 ? start : start + (i % 5 == 0 ? 60 : pick(gen) / 7.0);
      const TraceSegment segment{i % 50,
                                 start,
                                 end,
                                 processors,
                                 i % 4 == 0 ? JobStatus::suspended : JobStatus::running,
                                 -1,
                                 i % 9 == 0 ? 3 : 1,
                                 i % 9 == 0 ? 100.5 : 0};
      writer.write(segment);
      std::string processor_text = std::to_string(first);
      if (count > 1) processor_text += "-" + std::to_string(first + count - 1);
      if (i % 7 == 0) processor_text += " 199";
      std::string row = std::to_string(i % 50) + "," + printf_number(start) + "," + printf_number(end) + "," +
                        processor_text + "," + (i % 4 == 0 ? "suspended" : "running") + "," +
                        (i % 9 == 0 ? "100.5,3" : ",") + "\n";
      expected += row;
      const SegmentTexts texts = writer.last_row();
      ASSERT_EQ(std::string(texts.start), printf_number(start));
      ASSERT_EQ(std::string(texts.end), printf_number(end));
      ASSERT_EQ(std::string(texts.processors), processor_text);
      const auto written_size = static_cast<size_t>(out.tellp());
      ASSERT_LE(expected.size() - written_size, TraceWriter::kFlushSize + row.size());
      if (written_size != last_written_size) { // a batch went out: whole rows, in order
        const std::string written = out.str();
        ASSERT_EQ(written.back(), '\n');
        ASSERT_EQ(written, expected.substr(0, written.size()));
        batches++;
        last_written_size = written_size;
      }
      if (i == 40000) {
        writer.flush();
        ASSERT_EQ(out.str(), expected);
      }
      start = end;
    }
    EXPECT_LT(out.str().size(), expected.size());
    EXPECT_GE(static_cast<size_t>(batches), expected.size() / (2 * TraceWriter::kFlushSize));
  }
  EXPECT_EQ(out.str(), expected);
}

TEST(Params, ListsAndMappingsKeepTheirShapeAndNumbersAreChecked)
{
  std::vector<ParamSpec> specs{
      {"sizes", "[]", "a list"}, {"weights", "{}", "a mapping"}, {"q", "1.0", "a number"}, {"n", "1", "an integer"}};
  Params p(specs, {{"sizes", "[16, 32, 64]"}, {"weights", "{a: 1, b: 2}"}}, "policy.params");
  EXPECT_EQ(p.get_list("sizes"), (std::vector<std::string>{"16", "32", "64"}));
  EXPECT_EQ(p.get_map("weights"), (std::map<std::string, std::string>{{"a", "1"}, {"b", "2"}}));
  EXPECT_THROW(Params(specs, {{"sizes", "16"}}, "policy.params"), InputError);
  EXPECT_THROW(Params(specs, {{"weights", "[1]"}}, "policy.params"), InputError);
  EXPECT_THROW(Params(specs, {{"q", "[1]"}}, "policy.params"), InputError);
  EXPECT_THROW(Params(specs, {{"q", "nan"}}, "policy.params"), InputError);
  EXPECT_THROW(Params(specs, {{"q", "inf"}}, "policy.params"), InputError);
  EXPECT_THROW(Params(specs, {{"n", "9223372036854775807"}}, "policy.params"), InputError);
  try {
    Params(specs, {{"n", "2147483648"}}, "policy.params");
    FAIL() << "an integer beyond int range was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("policy.params.n"), std::string::npos) << e.what();
  }
}

/* Declared choices and ranges: the defaults pass, a value outside is one InputError naming the key, the value and
 * what is allowed, written out here by hand. */
TEST(Params, ChoicesAndRangesAreChecked)
{
  std::vector<ParamSpec> specs{{"order", "fcfs", "queue order", {"fcfs", "sjf", "ljf"}},
                               {"fraction", "0.5", "a share", {}, ParamRange{0, 1, true, false}},
                               {"count", "3", "a count", {}, ParamRange::between(1, 64)},
                               {"cost", "0.0", "seconds", {}, ParamRange::at_least(0)},
                               {"memory", "1.0", "MB", {}, ParamRange::above(0)},
                               {"width", "auto", "auto or a number", {"auto"}, ParamRange::at_least(1)}};
  auto refusal = [&](const std::map<std::string, std::string>& values) -> std::string {
    try {
      Params(specs, values, "policy.params");
    } catch (const InputError& e) {
      return e.what();
    }
    return "accepted";
  };
  // Every default is allowed, and so are the ends of closed intervals.
  Params defaults(specs, {}, "policy.params");
  EXPECT_EQ(defaults.get_string("order"), "fcfs");
  EXPECT_EQ(refusal({{"order", "ljf"}, {"fraction", "1"}, {"count", "64"}, {"cost", "0"}, {"width", "2.5"}}),
            "accepted");
  EXPECT_EQ(refusal({{"order", "bogus"}}), "policy.params.order: 'bogus' is not one of fcfs, sjf, ljf");
  EXPECT_EQ(refusal({{"order", "FCFS"}}), "policy.params.order: 'FCFS' is not one of fcfs, sjf, ljf");
  // Open ends are refused, closed ones are not.
  EXPECT_EQ(refusal({{"fraction", "0"}}), "policy.params.fraction: '0' is not in (0, 1]");
  EXPECT_EQ(refusal({{"fraction", "1.5"}}), "policy.params.fraction: '1.5' is not in (0, 1]");
  EXPECT_EQ(refusal({{"count", "65"}}), "policy.params.count: '65' is not in [1, 64]");
  EXPECT_EQ(refusal({{"count", "0"}}), "policy.params.count: '0' is not in [1, 64]");
  EXPECT_EQ(refusal({{"cost", "-0.5"}}), "policy.params.cost: '-0.5' is not at least 0");
  EXPECT_EQ(refusal({{"memory", "0"}}), "policy.params.memory: '0' is not above 0");
  EXPECT_EQ(refusal({{"width", "0.5"}}), "policy.params.width: '0.5' is not one of auto, or a number at least 1");
  EXPECT_EQ(refusal({{"width", "wide"}}), "policy.params.width: 'wide' is not one of auto, or a number at least 1");
  // The type is checked before the range: a text where a number goes says so.
  EXPECT_EQ(refusal({{"count", "many"}}), "policy.params.count: expected an integer, got 'many'");
  // What list-policies prints beside each parameter.
  EXPECT_EQ(specs[0].allowed_text(), "one of fcfs, sjf, ljf");
  EXPECT_EQ(specs[1].allowed_text(), "in (0, 1]");
  EXPECT_EQ((ParamSpec{"k", "1", "", {}, ParamRange::between(0, 1'000'000)}.allowed_text()), "in [0, 1000000]");
  EXPECT_EQ((ParamSpec{"x", "1", "", {}, ParamRange{-1e300, 1e-4, false, true}}).allowed_text(),
            "in [-1e+300, 0.0001)");
  EXPECT_EQ((ParamSpec{"y", "1", "", {}, ParamRange{-1e300, 1e12, false, true}}).allowed_text(),
            "in [-1e+300, 1000000000000)");
  EXPECT_EQ((ParamSpec{"s", "a", "plain text"}.allowed_text()), "");
}

/* Every in-tree policy and allocator accepts its own defaults, and each default lies within its declared choices. */
TEST(Params, InTreeDefaultsAreAllowed)
{
  auto check = [](const std::string& component, const std::vector<ParamSpec>& specs) {
    for (const auto& s : specs) {
      if (!s.choices.empty() && !s.range) {
        EXPECT_NE(std::find(s.choices.begin(), s.choices.end(), s.default_value), s.choices.end())
            << component << "." << s.name;
      }
    }
    EXPECT_NO_THROW(Params(specs, {}, component)) << component;
  };
  for (const auto* p : policy_registry().all())
    check(p->name, p->params);
  for (const auto* a : allocator_registry().all())
    check(a->name, a->params);
}

/* Downey (1997), by hand: A = 4, sigma = 0.5: S(2) = 4 x 2 / (4 + 0.5 x 1 / 2) = 8 / 4.25; S(6) = 24 / (0.5 x 3.5 +
 * 6 x 0.75) = 3.84; S(n >= 2A - 1 = 7) = A. sigma = 2: S(5) = 5 x 4 x 3 / (2 x 8 + 4) = 3; S(n >= A + A sigma - sigma
 * = 10) = A. Beta: (1 + beta) n / (beta + n). */
TEST(Speedup, ModelsByHand)
{
  EXPECT_DOUBLE_EQ(Speedup::linear()(7), 7);
  Speedup low = Speedup::downey(4, 0.5);
  EXPECT_DOUBLE_EQ(low(1), 1);
  EXPECT_DOUBLE_EQ(low(2), 8 / 4.25);
  EXPECT_DOUBLE_EQ(low(6), 3.84);
  EXPECT_DOUBLE_EQ(low(10), 4);
  EXPECT_NEAR(low(4), 16 / 4.75, 1e-12); // both low-variance branches meet at n = A
  Speedup high = Speedup::downey(4, 2);
  EXPECT_DOUBLE_EQ(high(1), 1);
  EXPECT_DOUBLE_EQ(high(5), 3);
  EXPECT_DOUBLE_EQ(high(12), 4);
  EXPECT_DOUBLE_EQ(Speedup::with_beta(2)(4), 2);
  EXPECT_DOUBLE_EQ(Speedup::with_beta(2)(2), 1.5);
  EXPECT_DOUBLE_EQ(Speedup::with_beta(0)(8), 1); // beta 0: no speedup at all
}

// Error messages are one line whatever the user wrote: control characters become escapes (by hand), a long value is
// cut at kQuotedLength bytes, never inside a UTF-8 character.
TEST(Errors, QuotedValuesStayOnOneLine)
{
  EXPECT_EQ(quoted_value("easy"), "'easy'");
  EXPECT_EQ(quoted_value("5\n6\n"), "'5\\n6\\n'");
  EXPECT_EQ(quoted_value("a\tb\rc\x01"
                         "d\x7f"),
            "'a\\tb\\rc\\x01d\\x7f'");
  EXPECT_EQ(quoted_value(std::string(80, 'x')), "'" + std::string(80, 'x') + "'");
  EXPECT_EQ(quoted_value(std::string(81, 'x')), "'" + std::string(80, 'x') + "...' (81 characters)");
  // 79 ASCII bytes then a 2-byte character (U+00E9, bytes c3 a9): byte 80 is its second half, so the cut is at 79.
  EXPECT_EQ(quoted_value(std::string(79, 'x') + "\xc3\xa9" + "yy"),
            "'" + std::string(79, 'x') + "...' (83 characters)");
  EXPECT_EQ(InputError("a.yaml:3: key: got '1\n2'").what(), std::string("a.yaml:3: key: got '1\\n2'"));
}

// clear(capacity): an empty set of that capacity, whether the set had it (storage kept) or another one.
/* take_lowest() of hundreds to thousands of members from a large set (AP's partitions on 10,000 processors), where it
 * takes whole words several at a time: sets of 10,000 and 1,000 members made of runs, dense and sparse (a run of
 * full words, then scattered members, then empty words), compared member by member with the lowest n of a reference;
 * what is left must be the rest, its count and lowest member too. */
TEST(ResourceSet, TakeLowestOfManyWordsMatchesTheLowestMembers)
{
  std::mt19937_64 rng(11);
  size_t full_words_taken = 0;
  for (int capacity : {10000, 1000}) {
    for (int round = 0; round < 400; round++) {
      std::vector<bool> ref(static_cast<size_t>(capacity), false);
      ResourceSet x(capacity);
      int start = 0;
      while (start < capacity) { // runs of members, of empty words and of scattered members
        const int length = std::min(capacity - start, 1 + static_cast<int>(rng() % 700));
        const int kind = static_cast<int>(rng() % 3);
        for (int i = start; i < start + length; i++)
          if (kind == 0 || (kind == 1 && rng() % 3 == 0)) {
            ref[static_cast<size_t>(i)] = true;
            x.set(i);
          }
        start += length;
      }
      const int members = static_cast<int>(std::count(ref.begin(), ref.end(), true));
      const int n = static_cast<int>(rng() % static_cast<std::uint64_t>(std::min(members + 50, 3000) + 1));
      std::vector<bool> low(ref.size(), false), rest = ref;
      if (n <= members) {
        int have = 0;
        for (size_t i = 0; i < ref.size() && have < n; i++)
          if (ref[i]) {
            low[i] = true;
            rest[i] = false;
            have++;
          }
      }
      ResourceSet to(capacity);
      x.take_lowest(n, to);
      const std::string label = std::to_string(capacity) + ", round " + std::to_string(round) + ", n " +
                                std::to_string(n) + " of " + std::to_string(members);
      for (int i = 0; i < capacity; i++) {
        ASSERT_EQ(to.test(i), low[static_cast<size_t>(i)]) << label << ", member " << i;
        ASSERT_EQ(x.test(i), rest[static_cast<size_t>(i)]) << label << ", member " << i;
      }
      const int left = static_cast<int>(std::count(rest.begin(), rest.end(), true));
      ASSERT_EQ(to.count(), n <= members ? n : 0) << label;
      ASSERT_EQ(x.count(), left) << label;
      if (left > 0) {
        const auto first = std::find(rest.begin(), rest.end(), true) - rest.begin();
        ASSERT_EQ(x.lowest(1), ResourceSet::range(capacity, static_cast<int>(first), 1)) << label;
      }
      if (n <= members && n >= 256) full_words_taken++;
    }
  }
  EXPECT_GT(full_words_taken, 300u); // not vacuous: many takes of four words or more at a time
}

TEST(ResourceSet, ClearToACapacity)
{
  ResourceSet same = ResourceSet::range(300, 5, 200);
  same.clear(300);
  EXPECT_EQ(same.capacity(), 300);
  EXPECT_TRUE(same.empty());
  EXPECT_EQ(same.count(), 0);
  same.set(299);
  EXPECT_EQ(same.count(), 1);
  ResourceSet other = ResourceSet::range(64, 0, 64);
  other.clear(1000);
  EXPECT_EQ(other.capacity(), 1000);
  EXPECT_TRUE(other.empty());
  other.set(999);
  EXPECT_TRUE(other.test(999));
  EXPECT_EQ(other, ResourceSet::range(1000, 999, 1));
}

// SimGrid 3.32 splits one --cfg's value at spaces, tabs, newlines and commas, skipping empty parts.
TEST(SimgridCfg, SplitsEachCfgLikeSimGridAndSkipsTheOtherOptions)
{
  const std::vector<std::string> args{"--cfg=tracing:yes",
                                      "--log=root.thres:critical",
                                      "--cfg=tracing/filename:t.trace tracing/precision:6",
                                      "--cfg=, a:1,,b:2\tc:3\n d ",
                                      "--cfg=",
                                      "--cfgx=e:5"};
  const std::vector<std::string> expected{
      "tracing:yes", "tracing/filename:t.trace", "tracing/precision:6", "a:1", "b:2", "c:3", "d"};
  EXPECT_EQ(cfg_settings(args), expected);
}

TEST(SimgridCfg, NameIsBeforeTheFirstColonAndValueAfterIt)
{
  EXPECT_EQ(cfg_setting_name("tracing/filename:a:b"), "tracing/filename");
  EXPECT_EQ(cfg_setting_value("tracing/filename:a:b"), "a:b");
  EXPECT_EQ(cfg_setting_name("path:"), "path");
  EXPECT_EQ(cfg_setting_value("path:"), "");
  EXPECT_EQ(cfg_setting_name("novalue"), "novalue");
  EXPECT_EQ(cfg_setting_value("novalue"), "");
}
