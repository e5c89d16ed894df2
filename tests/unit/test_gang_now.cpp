/* Gang scheduling on heterogeneous networks of workstations (Al-Saqabi, Otto & Walpole, "Gang Scheduling in
 * Heterogeneous Distributed Systems", section 4; plugin/policies/gang_now/): the paper's Examples 1, 2 and 3 step by
 * step, the counterexample to its Theorem 1, exact rationals where doubles fail, brute-force searches written here
 * for `optimal` MTAT and `exact` Compression on random heterogeneous instances, Expansion on hand-made grids (the
 * exhaustive search finds what the column search misses), Figure 1's processor_exit and free-space cases, and each
 * event handler on a hand-made map with its result computed by hand. */
#include "core/errors.hpp"
#include "experiment/gang_now_plan.hpp"
#include "policies/gang_now/events.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <optional>
#include <random>
#include <sstream>
#include <tuple>

using namespace jobsched;
using namespace jobsched::gang_now;

namespace {

Rational r(long long p, long long q = 1)
{
  return Rational(p, q);
}

std::vector<Rational> caps(const std::vector<std::string>& texts)
{
  std::vector<Rational> out;
  for (const auto& t : texts)
    out.push_back(parse_capacity(t, "test"));
  return out;
}

/* A map from one string per slice, one token per processor: "." free, "J" one VP of job J, "J*k" k VPs. Processors
 * are P1, P2, ... with the given capacities and architectures (default "any"); jobs are listed in order of first
 * appearance, each with the VPs of its first slice. */
AllocationMap make_map(const std::vector<std::string>& capacities, const std::vector<std::string>& slices,
                       const std::vector<std::string>& archs = {})
{
  AllocationMap map;
  for (size_t p = 0; p < capacities.size(); p++)
    map.processors.push_back(Processor{"P" + std::to_string(p + 1), parse_capacity(capacities[p], "test"),
                                       archs.empty() ? "any" : archs[p]});
  for (const auto& text : slices) {
    std::istringstream tokens(text);
    std::string token;
    std::vector<Entry> slice;
    while (tokens >> token) {
      if (token == ".") {
        slice.emplace_back();
        continue;
      }
      auto star = token.find('*');
      int job = std::stoi(token.substr(0, star));
      int vps = star == std::string::npos ? 1 : std::stoi(token.substr(star + 1));
      slice.push_back(Entry{job, vps});
    }
    map.slices.push_back(slice);
  }
  for (const auto& slice : map.slices)
    for (size_t p = 0; p < slice.size(); p++)
      if (!slice[p].free() && !map.job(slice[p].job)) {
        JobRecord record;
        record.id = slice[p].job;
        for (size_t q = 0; q < slice.size(); q++)
          if (slice[q].job == record.id) record.vps[map.processors[q].arch] += slice[q].vps;
        map.jobs.push_back(record);
      }
  auto problems = validate(map);
  EXPECT_TRUE(problems.empty()) << problems.front();
  return map;
}

/* The map as the same strings make_map reads (processor order), to compare whole maps. */
std::vector<std::string> slice_strings(const AllocationMap& map)
{
  std::vector<std::string> out;
  for (const auto& slice : map.slices) {
    std::string s;
    for (const auto& e : slice) {
      if (!s.empty()) s += " ";
      s += e.free() ? "." : std::to_string(e.job) + (e.vps > 1 ? "*" + std::to_string(e.vps) : "");
    }
    out.push_back(s);
  }
  return out;
}

std::string moves_string(const std::vector<VpMove>& moves)
{
  std::string out;
  for (const auto& m : moves)
    out += (out.empty() ? "" : ", ") + std::to_string(m.job) + ":" + m.from + "->" + m.to + "x" + std::to_string(m.vps);
  return out;
}

std::string counts_string(const std::vector<VpCount>& counts)
{
  std::string out;
  for (const auto& c : counts)
    out += (out.empty() ? "" : ", ") + std::to_string(c.job) + ":" + c.processor + "x" + std::to_string(c.vps);
  return out;
}

int processors_used(const std::vector<int>& vps)
{
  int count = 0;
  for (int n : vps)
    count += n > 0 ? 1 : 0;
  return count;
}

int total(const std::vector<int>& vps)
{
  int sum = 0;
  for (int n : vps)
    sum += n;
  return sum;
}

/* Random capacities with one decimal place in [0.1, 5.0] (11/10, 33/10, ...): heterogeneous and not whole. */
std::vector<Rational> random_capacities(std::mt19937_64& rng, int count)
{
  std::uniform_int_distribution<int> tenths(1, 50);
  std::vector<Rational> out;
  for (int i = 0; i < count; i++)
    out.push_back(Rational(tenths(rng), 10));
  return out;
}

/* The smallest max n_i / a_i over every way of writing X as n_1 + ... + n_k (n_i >= 0). */
Rational brute_force_turnaround(int vps, const std::vector<Rational>& capacities)
{
  std::vector<int> n(capacities.size(), 0);
  Rational best(-1);
  std::function<void(size_t, int)> place = [&](size_t i, int left) {
    if (i + 1 == capacities.size()) {
      n[i] = left;
      Rational t = turnaround_of(n, capacities);
      if (best < 0 || t < best) best = t;
      return;
    }
    for (int k = 0; k <= left; k++) {
      n[i] = k;
      place(i + 1, left - k);
    }
  };
  place(0, vps);
  return best;
}

/* The fewest processors that can hold X VPs with every n_i / a_i <= T: the smallest subset whose floor(T a_i) sum
 * to at least X, over every subset. */
int brute_force_processors(int vps, const std::vector<Rational>& capacities, const Rational& target)
{
  const size_t n = capacities.size();
  int best = static_cast<int>(n) + 1;
  for (unsigned set = 0; set < (1u << n); set++) {
    long long room = 0;
    int count = 0;
    for (size_t i = 0; i < n; i++)
      if (set & (1u << i)) {
        room += floor_of(target * capacities[i]);
        count++;
      }
    if (room >= vps) best = std::min(best, count);
  }
  return best;
}

} // namespace

// ---- exact numbers ----

TEST(GangNowRational, DecimalCapacitiesAreReadExactly)
{
  EXPECT_EQ(parse_capacity("1.1", "a"), r(11, 10));
  EXPECT_EQ(parse_capacity("3.3", "a"), r(33, 10));
  EXPECT_EQ(parse_capacity("10", "a"), r(10));
  EXPECT_EQ(parse_capacity("0.25", "a"), r(1, 4));
  EXPECT_EQ(parse_capacity(".5", "a"), r(1, 2));
  EXPECT_EQ(parse_capacity("2.", "a"), r(2));
  EXPECT_EQ(parse_capacity("0.0001", "a"), r(1, 10000));
  EXPECT_EQ(parse_capacity("1000", "a"), r(1000));
  for (const char* bad :
       {"", ".", "-1", "0", "0.0", "x", "1e3", "1.1.1", "11/10", " 1", "1.12345", "1000.0001", "+2", "1.123456789"})
    EXPECT_THROW(parse_capacity(bad, "a"), InputError) << "'" << bad << "'";
}

TEST(GangNowRational, Printing)
{
  EXPECT_EQ(fraction_string(r(6, 5)), "6/5");
  EXPECT_EQ(fraction_string(r(3)), "3");
  EXPECT_EQ(decimal_string(r(11, 10)), "1.1");
  EXPECT_EQ(decimal_string(r(1, 8)), "0.125");
  EXPECT_EQ(decimal_string(r(-3, 2)), "-1.5");
  EXPECT_EQ(decimal_string(r(1, 3)), "0.333333333333");
  EXPECT_EQ(exact_string(r(1, 3)), "1/3");
  EXPECT_EQ(exact_string(r(33, 10)), "3.3");
  EXPECT_EQ(floor_of(r(-1, 2)), -1);
  EXPECT_EQ(ceil_of(r(-1, 2)), 0);
  EXPECT_EQ(ceil_of(r(7, 2)), 4);
}

// ---- MTAT (section 4.1) ----

TEST(GangNowMtat, PaperExample1)
{
  // X = 20 on a = {10, 1, 4, 3}: alpha = 20/18, x = {11.11, 1.11, 4.44, 3.33}, Diff = 1, Drag = {0.089, 0.889,
  // 0.139, 0.222}: the extra VP goes to processor 1, T_min = 1.2.
  MtatResult m = mtat(20, caps({"10", "1", "4", "3"}), MtatVariant::paper);
  EXPECT_EQ(m.alpha, r(10, 9));
  EXPECT_EQ(m.ideal, (std::vector<Rational>{r(100, 9), r(10, 9), r(40, 9), r(10, 3)}));
  EXPECT_EQ(m.floors, (std::vector<int>{11, 1, 4, 3}));
  EXPECT_EQ(m.diff, 1);
  EXPECT_EQ(m.drags, (std::vector<Rational>{r(4, 45), r(8, 9), r(5, 36), r(2, 9)}));
  EXPECT_EQ(m.vps, (std::vector<int>{12, 1, 4, 3}));
  EXPECT_EQ(m.turnaround, r(6, 5));
  MtatResult best = mtat(20, caps({"10", "1", "4", "3"}), MtatVariant::optimal);
  EXPECT_EQ(best.vps, (std::vector<int>{12, 1, 4, 3})); // exactly the 20 values k / a_i <= 6/5
  EXPECT_EQ(best.turnaround, r(6, 5));
}

TEST(GangNowMtat, PaperExample2)
{
  // X = 4 on three equal processors: Drag = {2/3, 2/3, 2/3}, T_min = 2 whichever processor gets the extra VP.
  MtatResult m = mtat(4, caps({"1", "1", "1"}), MtatVariant::paper);
  EXPECT_EQ(m.alpha, r(4, 3));
  EXPECT_EQ(m.drags, (std::vector<Rational>(3, r(2, 3))));
  EXPECT_EQ(m.diff, 1);
  EXPECT_EQ(m.vps, (std::vector<int>{2, 1, 1})); // the tie goes to the lower index
  EXPECT_EQ(m.turnaround, r(2));
  EXPECT_EQ(mtat(4, caps({"1", "1", "1"}), MtatVariant::optimal).turnaround, r(2));
}

TEST(GangNowMtat, PaperExample3Figure4a)
{
  // X = 9 on a = {4, 2, 1}: alpha = 9/7, x = {5.14, 2.57, 1.29}, Drag = {0.214, 0.214, 0.714}, the extra VP to
  // processor 2 (Figure 4-a: {5, 2+1, 1}), completion times {5/4, 3/2, 1}, T_min = 3/2.
  MtatResult m = mtat(9, caps({"4", "2", "1"}), MtatVariant::paper);
  EXPECT_EQ(m.alpha, r(9, 7));
  EXPECT_EQ(m.ideal, (std::vector<Rational>{r(36, 7), r(18, 7), r(9, 7)}));
  EXPECT_EQ(m.floors, (std::vector<int>{5, 2, 1}));
  EXPECT_EQ(m.drags, (std::vector<Rational>{r(3, 14), r(3, 14), r(5, 7)}));
  EXPECT_EQ(m.vps, (std::vector<int>{5, 3, 1}));
  EXPECT_EQ(m.turnaround, r(3, 2));
  MtatResult best = mtat(9, caps({"4", "2", "1"}), MtatVariant::optimal);
  EXPECT_EQ(best.turnaround, r(3, 2));
  EXPECT_EQ(best.vps, (std::vector<int>{6, 2, 1})); // (6)/4 = (3)/2: the tie goes to the larger capacity
}

TEST(GangNowMtat, Theorem1IsFalseForThePaperVariant)
{
  // Step 4 gives at most one extra VP per processor: floors {13, 1, 1, 1}, Diff = 2, and the second-lowest Drag is a
  // slow processor, which then finishes at 2. Fifteen VPs on the fast one finish at 3/2.
  MtatResult paper = mtat(18, caps({"10", "1", "1", "1"}), MtatVariant::paper);
  EXPECT_EQ(paper.floors, (std::vector<int>{13, 1, 1, 1}));
  EXPECT_EQ(paper.diff, 2);
  EXPECT_EQ(paper.vps, (std::vector<int>{14, 2, 1, 1}));
  EXPECT_EQ(paper.turnaround, r(2));
  MtatResult best = mtat(18, caps({"10", "1", "1", "1"}), MtatVariant::optimal);
  EXPECT_EQ(best.vps, (std::vector<int>{15, 1, 1, 1}));
  EXPECT_EQ(best.turnaround, r(3, 2));
  EXPECT_EQ(brute_force_turnaround(18, caps({"10", "1", "1", "1"})), r(3, 2));
}

TEST(GangNowMtat, DecimalCapacitiesNeedExactArithmetic)
{
  // alpha = 4 / 4.4 = 10/11 makes x = {1, 3} whole: Diff = 0. In doubles 3.3 x (4 / 4.4) is 2.9999999999999996,
  // whose floor loses a VP. Both processors finish at exactly 10/11.
  MtatResult paper = mtat(4, caps({"1.1", "3.3"}), MtatVariant::paper);
  EXPECT_EQ(paper.ideal, (std::vector<Rational>{r(1), r(3)}));
  EXPECT_EQ(paper.floors, (std::vector<int>{1, 3}));
  EXPECT_EQ(paper.diff, 0);
  EXPECT_EQ(paper.vps, (std::vector<int>{1, 3}));
  EXPECT_EQ(paper.turnaround, r(10, 11));
  MtatResult best = mtat(4, caps({"1.1", "3.3"}), MtatVariant::optimal);
  EXPECT_EQ(best.vps, (std::vector<int>{1, 3}));
  // The same step 1 in doubles (IEEE 754, as on every platform we build on): floor(x_2) = 2.
  volatile double alpha = 4 / (1.1 + 3.3);
  EXPECT_EQ(std::floor(3.3 * alpha), 2.0);
  EXPECT_EQ(best.turnaround, r(10, 11));
}

TEST(GangNowMtat, EdgeCases)
{
  MtatResult none = mtat(0, caps({"2", "1"}), MtatVariant::optimal);
  EXPECT_EQ(none.vps, (std::vector<int>{0, 0}));
  EXPECT_EQ(none.turnaround, r(0));
  EXPECT_EQ(mtat(7, caps({"0.5"}), MtatVariant::paper).turnaround, r(14));
  EXPECT_THROW(mtat(3, {}, MtatVariant::optimal), InputError);
  EXPECT_THROW(mtat(-1, caps({"1"}), MtatVariant::optimal), InputError);
  EXPECT_THROW(mtat(1, {r(0)}, MtatVariant::optimal), InputError);
  // A new VP prefers a processor that already holds VPs at equal completion time: {2, 1}, X = 2 gives {2, 0}.
  EXPECT_EQ(mtat(2, caps({"2", "1"}), MtatVariant::optimal).vps, (std::vector<int>{2, 0}));
  // `paper` on a whole x_i: Drag 0, chosen first (a = {2, 1, 1}, X = 6: x = {3, 1.5, 1.5}).
  MtatResult whole = mtat(6, caps({"2", "1", "1"}), MtatVariant::paper);
  EXPECT_EQ(whole.drags[0], r(0));
  EXPECT_EQ(whole.vps, (std::vector<int>{4, 1, 1}));
  EXPECT_EQ(whole.turnaround, r(2));
}

TEST(GangNowMtat, OptimalMatchesBruteForceOnRandomHeterogeneousInstances)
{
  std::mt19937_64 rng(20240611);
  int paper_worse = 0;
  for (int instance = 0; instance < 600; instance++) {
    int processors = 1 + static_cast<int>(rng() % 4);
    int vps = static_cast<int>(rng() % 13);
    std::vector<Rational> a = random_capacities(rng, processors);
    Rational best = brute_force_turnaround(vps, a);
    MtatResult opt = mtat(vps, a, MtatVariant::optimal);
    ASSERT_EQ(opt.turnaround, best) << "instance " << instance;
    ASSERT_EQ(total(opt.vps), vps);
    ASSERT_EQ(turnaround_of(opt.vps, a), opt.turnaround);
    MtatResult paper = mtat(vps, a, MtatVariant::paper);
    ASSERT_EQ(total(paper.vps), vps) << "instance " << instance;
    ASSERT_GE(paper.turnaround, best);
    ASSERT_GE(paper.turnaround, paper.alpha); // Lemma 1
    if (paper.turnaround > best) paper_worse++;
  }
  EXPECT_GT(paper_worse, 0); // the counterexamples to Theorem 1 are not rare
}

TEST(GangNowMtat, OptimalPlacesVpsAsTheOneAtATimeGreedy)
{
  // The documented rule, one VP at a time from zero: the next VP goes to the smallest (n_i + 1) / a_i, ties to a
  // processor already holding VPs, then the larger capacity, then the lower index. Written here by linear scans and
  // compared VP for VP on many processors of few distinct capacities (as platforms have: the ties decide).
  std::mt19937_64 rng(1000);
  const std::vector<Rational> speeds{r(1), r(3, 2), r(2), r(3), r(4), r(5)};
  for (int instance = 0; instance < 300; instance++) {
    std::vector<Rational> a;
    const size_t processors = 1 + rng() % (instance % 3 == 0 ? 300 : 20);
    for (size_t i = 0; i < processors; i++)
      a.push_back(speeds[rng() % (instance % 2 == 0 ? 2 : speeds.size())]);
    const int vps = static_cast<int>(rng() % (instance % 5 == 0 ? 400 : 20));
    std::vector<int> expected(processors, 0);
    const auto key = [&](size_t k) {
      return std::make_tuple(Rational(expected[k] + 1) / a[k], expected[k] == 0, -a[k]);
    };
    for (int v = 0; v < vps; v++) {
      size_t best = 0;
      for (size_t i = 1; i < processors; i++)
        if (key(i) < key(best)) best = i;
      expected[best]++;
    }
    EXPECT_EQ(mtat(vps, a, MtatVariant::optimal).vps, expected) << "instance " << instance;
  }
}

TEST(GangNowMtat, LargestInputsStayExact)
{
  // The command line's bounds (rational.hpp): 10^4 processors of capacities with 4 decimal places up to 1000, 10^6
  // VPs. T is minimal exactly when the capacities hold X VPs at T but not just below it: sum floor(T a_i) >= X >
  // sum (ceil(T a_i) - 1). An overflow would break these identities or the VP count.
  std::mt19937_64 rng(3);
  std::vector<Rational> a;
  for (int i = 0; i < 10000; i++)
    a.push_back(Rational(1 + static_cast<long long>(rng() % 10'000'000), 10000));
  a[0] = parse_capacity("999.9999", "a");
  a[1] = parse_capacity("0.0001", "a");
  const int vps = 1'000'000;
  for (auto variant : {MtatVariant::paper, MtatVariant::optimal}) {
    MtatResult m = mtat(vps, a, variant);
    ASSERT_EQ(total(m.vps), vps);
    ASSERT_GE(m.turnaround, m.alpha);
    long long fit = 0;
    long long below = 0;
    for (const auto& c : a) {
      fit += floor_of(m.turnaround * c);
      below += ceil_of(m.turnaround * c) - 1;
    }
    ASSERT_GE(fit, vps);
    if (variant == MtatVariant::optimal) {
      ASSERT_LT(below, vps);
      CompressionResult c = compress(m.vps, a, m.turnaround, CompressionVariant::exact);
      ASSERT_EQ(total(c.vps), vps);
      ASSERT_EQ(c.turnaround, m.turnaround);
    }
  }
}

TEST(GangNowMtat, ArchitecturePools)
{
  // T_min = max of the pools' MTAT: 18 VPs on x86 {10, 1, 1, 1} (3/2) and 4 on sparc {1.1, 3.3} (10/11).
  std::vector<Rational> a = caps({"10", "1.1", "1", "1", "3.3", "1"});
  std::vector<std::string> z = {"x86", "sparc", "x86", "x86", "sparc", "x86"};
  PooledMtatResult p = pooled_mtat({{"x86", 18}, {"sparc", 4}}, a, z, MtatVariant::optimal);
  EXPECT_EQ(p.vps, (std::vector<int>{15, 1, 1, 1, 3, 1}));
  EXPECT_EQ(p.pool_turnarounds.at("x86"), r(3, 2));
  EXPECT_EQ(p.pool_turnarounds.at("sparc"), r(10, 11));
  EXPECT_EQ(p.turnaround, r(3, 2));
  EXPECT_THROW(pooled_mtat({{"mips", 1}}, a, z, MtatVariant::optimal), InputError);
}

// ---- Compression (section 4.2) ----

TEST(GangNowCompression, PaperExample2Figure3)
{
  // T_min = 2 on three equal processors: two processors of two VPs each suffice.
  std::vector<Rational> a = caps({"1", "1", "1"});
  for (auto variant : {CompressionVariant::paper, CompressionVariant::exact}) {
    CompressionResult c = compress({2, 1, 1}, a, r(2), variant);
    EXPECT_EQ(c.bounds, (std::vector<int>{2, 2, 2}));
    EXPECT_EQ(processors_used(c.vps), 2) << compression_variant_name(variant);
    EXPECT_EQ(total(c.vps), 4);
    EXPECT_EQ(c.turnaround, r(2));
  }
  EXPECT_EQ(compress({2, 1, 1}, a, r(2), CompressionVariant::exact).vps, (std::vector<int>{2, 2, 0}));
  // `paper` empties P2 into P3 (the first target with room), then P1 and P3 hold 2 VPs each.
  EXPECT_EQ(compress({2, 1, 1}, a, r(2), CompressionVariant::paper).vps, (std::vector<int>{2, 0, 2}));
}

TEST(GangNowCompression, PaperExample3Figure4b)
{
  // T_min = 3/2 on a = {4, 2, 1}: x_max = {6, 3, 1.5}, floors {6, 3, 1}, free = 1: the third processor's VP moves to
  // the first, {6, 3} and the third processor freed.
  std::vector<Rational> a = caps({"4", "2", "1"});
  for (auto variant : {CompressionVariant::paper, CompressionVariant::exact}) {
    CompressionResult c = compress({5, 3, 1}, a, r(3, 2), variant);
    EXPECT_EQ(c.bounds, (std::vector<int>{6, 3, 1}));
    EXPECT_EQ(c.vps, (std::vector<int>{6, 3, 0})) << compression_variant_name(variant);
    EXPECT_EQ(c.turnaround, r(3, 2));
  }
  // From `optimal` MTAT's {6, 2, 1} too.
  EXPECT_EQ(compress({6, 2, 1}, a, r(3, 2), CompressionVariant::exact).vps, (std::vector<int>{6, 3, 0}));
}

TEST(GangNowCompression, PaperVariantChoicesAndANonMinimalCase)
{
  // A processor holding no VP is no target: a = {1, 1, 1, 3}, T = 1, {1, 1, 1, 0}: bounds {1, 1, 1, 3}, free = 3,
  // Phi_T = {P4}, empty. P1, P2 and P3 (1 VP <= free each) find no target and keep their VPs: three processors
  // where P4 alone suffices (exact). Lemma 3 does not hold for the pseudocode read this way.
  std::vector<Rational> a = caps({"1", "1", "1", "3"});
  EXPECT_EQ(compress({1, 1, 1, 0}, a, r(1), CompressionVariant::paper).vps, (std::vector<int>{1, 1, 1, 0}));
  EXPECT_EQ(compress({1, 1, 1, 0}, a, r(1), CompressionVariant::exact).vps, (std::vector<int>{0, 0, 0, 3}));
  // From MTAT's own allocation of the same job, `paper` MTAT gives {1, 0, 0, 2} (T = 1): P1 empties into P4.
  MtatResult m = mtat(3, a, MtatVariant::paper);
  EXPECT_EQ(m.vps, (std::vector<int>{1, 0, 0, 2}));
  EXPECT_EQ(compress(m.vps, a, m.turnaround, CompressionVariant::paper).vps, (std::vector<int>{0, 0, 0, 3}));
  // free counts the removed processor's own room: a = {2, 1, 1}, T = 2, {1, 1, 1}: bounds {4, 2, 2}, free = 5.
  // P2 (the smaller capacity of the 1-VP ones) empties into P1 (most room), free 4; P3 into P1, free 3; P1 (3 VPs
  // <= 3) passes the test but no target is left (P2 and P3 were emptied, P1 is itself): its VPs stay.
  std::vector<Rational> b = caps({"2", "1", "1"});
  EXPECT_EQ(compress({1, 1, 1}, b, r(2), CompressionVariant::paper).vps, (std::vector<int>{3, 0, 0}));
  // No partial move: a = {1, 2, 2}, T = 1, {1, 1, 1}: bounds {1, 2, 2}, free = 2, Phi_T = {P2, P3}. P1 -> P2
  // (free 1); P3 (1 VP <= 1) has one target, P2, now full: nothing moves. Two processors, as exact.
  std::vector<Rational> c = caps({"1", "2", "2"});
  EXPECT_EQ(compress({1, 1, 1}, c, r(1), CompressionVariant::paper).vps, (std::vector<int>{0, 2, 1}));
  EXPECT_EQ(compress({1, 1, 1}, c, r(1), CompressionVariant::exact).vps, (std::vector<int>{0, 2, 1}));
}

TEST(GangNowCompression, ExactIsMinimalAgainstBruteForceAndPaperIsValid)
{
  std::mt19937_64 rng(7);
  for (int instance = 0; instance < 800; instance++) {
    int processors = 1 + static_cast<int>(rng() % 5);
    int vps = 1 + static_cast<int>(rng() % 12);
    std::vector<Rational> a = random_capacities(rng, processors);
    for (auto mtat_variant : {MtatVariant::optimal, MtatVariant::paper}) {
      MtatResult m = mtat(vps, a, mtat_variant);
      int fewest = brute_force_processors(vps, a, m.turnaround);
      CompressionResult exact = compress(m.vps, a, m.turnaround, CompressionVariant::exact);
      ASSERT_EQ(processors_used(exact.vps), fewest) << "instance " << instance;
      ASSERT_EQ(total(exact.vps), vps);
      ASSERT_LE(exact.turnaround, m.turnaround);
      CompressionResult paper = compress(m.vps, a, m.turnaround, CompressionVariant::paper);
      ASSERT_EQ(total(paper.vps), vps) << "instance " << instance;
      ASSERT_LE(paper.turnaround, m.turnaround);
      ASSERT_LE(processors_used(paper.vps), processors_used(m.vps));
      ASSERT_GE(processors_used(paper.vps), fewest);
    }
    // Any allocation that meets a target: `paper` stays valid and never uses more processors than it was given.
    std::vector<int> any(static_cast<size_t>(processors), 0);
    for (int k = 0; k < vps; k++)
      any[rng() % static_cast<size_t>(processors)]++;
    Rational target = turnaround_of(any, a) + Rational(static_cast<long long>(rng() % 3), 2);
    CompressionResult paper = compress(any, a, target, CompressionVariant::paper);
    ASSERT_EQ(total(paper.vps), vps) << "instance " << instance;
    ASSERT_LE(paper.turnaround, target);
    ASSERT_LE(processors_used(paper.vps), processors_used(any));
    ASSERT_GE(processors_used(paper.vps), brute_force_processors(vps, a, target));
    CompressionResult exact = compress(any, a, target, CompressionVariant::exact);
    ASSERT_EQ(processors_used(exact.vps), brute_force_processors(vps, a, target)) << "instance " << instance;
  }
}

TEST(GangNowCompression, RefusesAnAllocationOverTheTarget)
{
  EXPECT_THROW(compress({3, 0}, caps({"1", "1"}), r(2), CompressionVariant::exact), InputError);
}

TEST(GangNowCompression, PoolsPerPoolOrCommonTarget)
{
  // x86: 2 VPs on {1, 1}, T_x86 = 1; sparc: 2 VPs on {1}, T_sparc = 2; the job's T_min = 2. Per pool, x86 stays on
  // two processors; to the common T_min, one x86 processor holds both VPs for the same turnaround.
  std::vector<Rational> a = caps({"1", "1", "1"});
  std::vector<std::string> z = {"x86", "x86", "sparc"};
  PooledMtatResult m = pooled_mtat({{"x86", 2}, {"sparc", 2}}, a, z, MtatVariant::optimal);
  EXPECT_EQ(m.vps, (std::vector<int>{1, 1, 2}));
  EXPECT_EQ(m.turnaround, r(2));
  auto per_pool = compress_pools(m.vps, a, z, m.pool_turnarounds, PoolTarget::per_pool, CompressionVariant::exact);
  EXPECT_EQ(per_pool.vps, (std::vector<int>{1, 1, 2}));
  EXPECT_EQ(per_pool.pool_targets.at("x86"), r(1));
  auto common = compress_pools(m.vps, a, z, m.pool_turnarounds, PoolTarget::common, CompressionVariant::exact);
  EXPECT_EQ(common.vps, (std::vector<int>{2, 0, 2}));
  EXPECT_EQ(common.pool_targets.at("x86"), r(2));
  EXPECT_EQ(common.turnaround, r(2));
  // allocate_job does both steps; a job needing an absent architecture gets nothing.
  auto job = allocate_job({{"x86", 2}, {"sparc", 2}}, a, z, AllocationOptions{});
  ASSERT_TRUE(job);
  EXPECT_EQ(job->vps, (std::vector<int>{2, 0, 2}));
  EXPECT_FALSE(allocate_job({{"mips", 1}}, a, z, AllocationOptions{}));
}

TEST(GangNowCompression, EqualCapacitiesInClosedFormAsAllocateJob)
{
  // The closed form against allocate_job's rationals, processor by processor, for every count of VPs up to 3 times
  // the processors, on capacities whole, decimal and not decimal. Two cases by hand first: 7 VPs on 3 processors of
  // capacity 1 are {3, 2, 2} (T = 3), each bound 3, so Compression keeps 3 processors ({3, 2, 2}); 5 VPs on 4
  // processors of capacity 3/2 are {2, 1, 1, 1} (T = 4/3), bounds 2, so it keeps 3 ({2, 2, 1}, T = 4/3).
  JobAllocation seven = allocate_on_equal_capacities("any", 7, 3, r(1));
  EXPECT_EQ(seven.mtat.vps, (std::vector<int>{3, 2, 2}));
  EXPECT_EQ(seven.vps, (std::vector<int>{3, 2, 2}));
  EXPECT_EQ(seven.turnaround, r(3));
  JobAllocation five = allocate_on_equal_capacities("any", 5, 4, r(3, 2));
  EXPECT_EQ(five.mtat.vps, (std::vector<int>{2, 1, 1, 1}));
  EXPECT_EQ(five.mtat.turnaround, r(4, 3));
  EXPECT_EQ(five.vps, (std::vector<int>{2, 2, 1, 0}));
  EXPECT_EQ(five.turnaround, r(4, 3));
  for (const Rational& capacity : {r(1), r(3, 2), r(11, 10), r(7, 3), r(1000)})
    for (size_t n = 1; n <= 20; n++)
      for (int x = 1; x <= 3 * static_cast<int>(n) + 2; x++) {
        const std::vector<Rational> a(n, capacity);
        const std::vector<std::string> z(n, "sparc");
        auto rationals = allocate_job({{"sparc", x}}, a, z, AllocationOptions{});
        ASSERT_TRUE(rationals);
        JobAllocation closed = allocate_on_equal_capacities("sparc", x, n, capacity);
        const std::string at = std::to_string(x) + " VPs on " + std::to_string(n) + " of " + fraction_string(capacity);
        EXPECT_EQ(closed.mtat.vps, rationals->mtat.vps) << at;
        EXPECT_EQ(closed.mtat.turnaround, rationals->mtat.turnaround) << at;
        EXPECT_EQ(closed.mtat.pool_turnarounds, rationals->mtat.pool_turnarounds) << at;
        EXPECT_EQ(closed.vps, rationals->vps) << at;
        EXPECT_EQ(closed.turnaround, rationals->turnaround) << at;
      }
  EXPECT_THROW(allocate_on_equal_capacities("any", 0, 3, r(1)), InputError);
  EXPECT_THROW(allocate_on_equal_capacities("any", 2, 0, r(1)), InputError);
}

// ---- Expansion (section 4.3) ----

TEST(GangNowExpansion, ExhaustiveFindsWhatTheColumnSearchMisses)
{
  // Free entries: t1 {P1, P2, P3}, t2 {P1, P2, P4}, t3 {P1, P2, P5}. No slice's free set is inside another's, so
  // the column search sees three patterns of size 3; {P1, P2} x {t1, t2, t3} has size 6.
  std::vector<std::vector<bool>> free = {
      {true, true, true, false, false}, {true, true, false, true, false}, {true, true, false, false, true}};
  std::vector<Rational> a(5, r(1));
  Pattern column = find_pattern(free, a, ExpansionSearch::column);
  EXPECT_EQ(column.processors, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(column.slices, (std::vector<int>{0}));
  EXPECT_EQ(column.size, r(3));
  Pattern all = find_pattern(free, a, ExpansionSearch::exhaustive);
  EXPECT_EQ(all.processors, (std::vector<int>{0, 1}));
  EXPECT_EQ(all.slices, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(all.size, r(6));
}

TEST(GangNowExpansion, ColumnSearchWidthAndCapacityWeights)
{
  // t1 {P2, P3} is inside t2 {P1, P2, P3} and t3 {P2, P3, P4}: width 3, size 2 x 3 = 6 beats t2 alone (3).
  std::vector<std::vector<bool>> free = {
      {false, true, true, false}, {true, true, true, false}, {false, true, true, true}};
  Pattern p = find_pattern(free, std::vector<Rational>(4, r(1)), ExpansionSearch::column);
  EXPECT_EQ(p.processors, (std::vector<int>{1, 2}));
  EXPECT_EQ(p.slices, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(p.size, r(6));
  // Capacity weighting: one free processor of capacity 4 outweighs two of capacity 1.5.
  std::vector<std::vector<bool>> two = {{true, false, false}, {false, true, true}};
  Pattern q = find_pattern(two, caps({"4", "1.5", "1.5"}), ExpansionSearch::column);
  EXPECT_EQ(q.processors, (std::vector<int>{0}));
  EXPECT_EQ(q.size, r(4));
  // Ties: the column search keeps the first, {P1, P2} x {t1} (size 2); the exhaustive one the smaller capacity sum,
  // {P1} x {t1, t2} (size 2 too).
  std::vector<std::vector<bool>> tie = {{true, true}, {true, false}};
  Pattern c = find_pattern(tie, std::vector<Rational>(2, r(1)), ExpansionSearch::column);
  EXPECT_EQ(c.processors, (std::vector<int>{0, 1}));
  EXPECT_EQ(c.slices, (std::vector<int>{0}));
  Pattern t = find_pattern(tie, std::vector<Rational>(2, r(1)), ExpansionSearch::exhaustive);
  EXPECT_EQ(t.processors, (std::vector<int>{0}));
  EXPECT_EQ(t.slices, (std::vector<int>{0, 1}));
}

namespace {

/* The column search as the paper states it, slice by slice, written here without bit rows or shortcuts. */
Pattern column_search_by_definition(const std::vector<std::vector<bool>>& free, const std::vector<Rational>& a)
{
  Pattern best;
  for (size_t i = 0; i < free.size(); i++) {
    Pattern candidate;
    for (size_t p = 0; p < a.size(); p++)
      if (free[i][p]) candidate.processors.push_back(static_cast<int>(p));
    if (candidate.processors.empty()) continue;
    Rational capacity(0);
    for (int p : candidate.processors)
      capacity += a[static_cast<size_t>(p)];
    for (size_t j = 0; j < free.size(); j++) {
      bool contains = true;
      for (int p : candidate.processors)
        contains = contains && free[j][static_cast<size_t>(p)];
      if (contains) candidate.slices.push_back(static_cast<int>(j));
    }
    candidate.size = capacity * Rational(static_cast<long long>(candidate.slices.size()));
    if (candidate.size > best.size) best = candidate;
  }
  return best;
}

} // namespace

TEST(GangNowExpansion, ColumnSearchOnBitRowsMatchesTheDefinition)
{
  // Random maps with many repeated free sets (the search tries each distinct one once), on 1 to 150 processors (rows
  // of one to three 64-bit words), through both entry points (bools and bit rows).
  std::mt19937 rng(23);
  for (int trial = 0; trial < 400; trial++) {
    const size_t processors = 1 + rng() % (trial % 4 == 0 ? 150 : 10);
    const size_t slices = rng() % 12;
    std::vector<Rational> a;
    for (size_t p = 0; p < processors; p++)
      a.push_back(r(1 + static_cast<long long>(rng() % 5), 1 + static_cast<long long>(rng() % 2)));
    std::vector<std::vector<bool>> kinds(1 + rng() % 4, std::vector<bool>(processors));
    for (auto& kind : kinds)
      for (size_t p = 0; p < processors; p++)
        kind[p] = rng() % 3 != 0;
    std::vector<std::vector<bool>> free;
    FreeRows rows(slices, processors);
    for (size_t s = 0; s < slices; s++) {
      free.push_back(kinds[rng() % kinds.size()]);
      if (rng() % 4 == 0) free.back()[rng() % processors] = false; // a near copy
      for (size_t p = 0; p < processors; p++)
        if (free[s][p]) rows.set(s, p);
    }
    const Pattern expected = column_search_by_definition(free, a);
    for (const Pattern& got :
         {find_pattern(free, a, ExpansionSearch::column), find_pattern(rows, a, ExpansionSearch::column)}) {
      EXPECT_EQ(got.processors, expected.processors) << "trial " << trial;
      EXPECT_EQ(got.slices, expected.slices) << "trial " << trial;
      EXPECT_EQ(got.size, expected.size) << "trial " << trial;
    }
    if (slices <= 8) {
      const Pattern exhaustive = find_pattern(free, a, ExpansionSearch::exhaustive);
      const Pattern from_rows = find_pattern(rows, a, ExpansionSearch::exhaustive);
      EXPECT_EQ(from_rows.processors, exhaustive.processors) << "trial " << trial;
      EXPECT_EQ(from_rows.slices, exhaustive.slices) << "trial " << trial;
    }
  }
}

TEST(GangNowExpansion, NothingFreeAndSearchLimit)
{
  std::vector<std::vector<bool>> full = {{false, false}};
  EXPECT_TRUE(find_pattern(full, {r(1), r(1)}, ExpansionSearch::column).empty());
  EXPECT_TRUE(find_pattern(full, {r(1), r(1)}, ExpansionSearch::exhaustive).empty());
  EXPECT_TRUE(find_pattern({}, {r(1)}, ExpansionSearch::exhaustive).empty());
  std::vector<std::vector<bool>> many(5, std::vector<bool>{true});
  EXPECT_THROW(find_pattern(many, {r(1)}, ExpansionSearch::exhaustive, 4), InputError);
  EXPECT_EQ(find_pattern(many, {r(1)}, ExpansionSearch::exhaustive, 5).size, r(5));
}

// ---- the allocation map and the events (sections 3 and 4.4) ----

namespace {

/* Figure 1 with one VP per entry (footnote 3), slices T1..T5 in processor order P1..P6. */
AllocationMap figure1()
{
  return make_map({"1", "1", "1", "1", "1", "1"},
                  {"1 1 1 1 1 1", "2 2 3 3 3 3", "4 5 6 6 . .", "7 7 7 7 . .", "8 8 8 8 8 8"});
}

} // namespace

TEST(GangNowMap, ValidatorNamesBrokenRules)
{
  AllocationMap map = make_map({"1", "1"}, {"1 1", "2 ."});
  EXPECT_TRUE(validate(map).empty());
  EXPECT_EQ(map.turnaround_of(1), r(1));
  EXPECT_EQ(map.shared_turnaround_of(1), r(2));
  AllocationMap split = map;
  split.slices[1][1] = Entry{1, 1}; // job 1 in two slices, one VP in each: not gang scheduled
  split.slices[0][1] = Entry{};
  EXPECT_FALSE(validate(split).empty());
  AllocationMap empty_slice = map;
  empty_slice.slices.push_back({Entry{}, Entry{}});
  EXPECT_FALSE(validate(empty_slice).empty());
  AllocationMap wrong_arch = map;
  wrong_arch.processors[1].arch = "sparc";
  EXPECT_FALSE(validate(wrong_arch).empty());
  AllocationMap uneven = make_map({"1", "1"}, {"1 1", "1 1"});
  uneven.slices[1][0].vps = 2;
  uneven.slices[1][1] = Entry{};
  EXPECT_FALSE(validate(uneven).empty());
}

TEST(GangNowEvents, Figure1ProcessorExit)
{
  // P1's owner returns. J1 (six VPs in T1) doubles up on P2, then compression moves the VPs of P5 and P6 to P3 and
  // P4: T1 holds J1 on P2, P3, P4 with two VPs each and frees P5 and P6 (section 3). J2 doubles on P2 in T2; J4,
  // alone on P1 in T3, moves to P5, free there.
  EventResult e = processor_exit(figure1(), "P1", SchedulerOptions{});
  const AllocationMap& m = e.map;
  ASSERT_EQ(m.processors.size(), 5u);
  EXPECT_EQ(m.allocation_of(1), (std::vector<int>{2, 2, 2, 0, 0}));
  EXPECT_EQ(m.turnaround_of(1), r(2));
  EXPECT_EQ(m.allocation_of(2), (std::vector<int>{2, 0, 0, 0, 0}));
  EXPECT_EQ(m.allocation_of(4), (std::vector<int>{0, 0, 0, 1, 0}));
  EXPECT_EQ(m.allocation_of(7), (std::vector<int>{1, 1, 1, 1, 0}));
  EXPECT_EQ(m.allocation_of(8), (std::vector<int>{2, 2, 2, 0, 0}));
  std::string moves = moves_string(e.migrations);
  EXPECT_NE(moves.find("1:P1->P2x1, 1:P5->P3x1, 1:P6->P4x1"), std::string::npos) << moves;
  EXPECT_NE(moves.find("2:P1->P2x1"), std::string::npos) << moves;
  EXPECT_NE(moves.find("4:P1->P5x1"), std::string::npos) << moves;
  EXPECT_NE(moves.find("7:P1->P5x1"), std::string::npos) << moves;
  EXPECT_TRUE(e.suspended.empty());
  EXPECT_TRUE(e.placed.empty());
  EXPECT_TRUE(validate(m).empty());
}

TEST(GangNowEvents, Figure1FreeSpaceForANewJob)
{
  // P5 and P6 are free in T3 and T4: a regular pattern of width 2 (size 4).
  AllocationMap map = figure1();
  Pattern p = find_free_pattern(map, {{"any", 1}}, kFreeEntry, SchedulerOptions{});
  EXPECT_EQ(p.processors, (std::vector<int>{4, 5}));
  EXPECT_EQ(p.slices, (std::vector<int>{2, 3}));
  EXPECT_EQ(p.size, r(4));
  // Two VPs: T_free = T_min = 1, the job takes the free space.
  EventResult two = submit_job(map, 9, {{"any", 2}}, SchedulerOptions{});
  const PlacementDecision& d2 = two.placements.at(0);
  EXPECT_EQ(d2.new_slice_turnaround, r(1));
  EXPECT_EQ(*d2.free_turnaround, r(1));
  EXPECT_TRUE(d2.uses_free_space);
  EXPECT_EQ(slice_strings(two.map)[2], "4 5 6 6 9 9");
  EXPECT_EQ(slice_strings(two.map)[3], "7 7 7 7 9 9");
  EXPECT_EQ(two.map.slices.size(), 5u);
  EXPECT_EQ(counts_string(two.placed), "9:P5x1, 9:P6x1");
  // Four VPs: T_free = 2 > T_min = 1. The 4.4.1 rule opens a sixth slice (four processors suffice at T = 1); the
  // time-share rule (4.3) compares 2 x 5 / 2 = 5 with 1 x 6 = 6 and takes the free space.
  EventResult four = submit_job(map, 9, {{"any", 4}}, SchedulerOptions{});
  EXPECT_FALSE(four.placements.at(0).uses_free_space);
  EXPECT_EQ(*four.placements.at(0).free_turnaround, r(2));
  ASSERT_EQ(four.map.slices.size(), 6u);
  EXPECT_EQ(slice_strings(four.map)[5], "9 9 9 9 . .");
  SchedulerOptions share;
  share.new_slice_rule = NewSliceRule::time_share;
  EventResult shared = submit_job(map, 9, {{"any", 4}}, share);
  EXPECT_TRUE(shared.placements.at(0).uses_free_space);
  EXPECT_EQ(slice_strings(shared.map)[2], "4 5 6 6 9*2 9*2");
  EXPECT_EQ(shared.map.turnaround_of(9), r(2));
}

TEST(GangNowEvents, MapCheckCanBeTurnedOff)
{
  // A map breaking a rule (its second slice is entirely free) is refused by default; without the check (the policy's
  // runs, whose maps are the handlers' own, unless validate_map) the handler takes it as it is: job 2 (1 VP) finds
  // the free pattern {P2} x {t1, t2} (size 2, before {P1, P2} x {t2}, also 2), whose turnaround 1 equals a new
  // slice's.
  AllocationMap map = make_map({"1", "1"}, {"1 ."});
  map.slices.emplace_back(2);
  EXPECT_THROW(submit_job(map, 2, {{"any", 1}}, SchedulerOptions{}), InputError);
  SchedulerOptions unchecked;
  unchecked.validate = false;
  EventResult e = submit_job(map, 2, {{"any", 1}}, unchecked);
  EXPECT_EQ(slice_strings(e.map), (std::vector<std::string>{"1 2", ". 2"}));
  EXPECT_EQ(e.placements.at(0).slices, (std::vector<int>{0, 1}));
}

TEST(GangNowEvents, SubmissionCompressesAndWaitsWithoutItsArchitecture)
{
  // Example 3 as a submission to an empty map: a new slice with {6, 3} and the third processor left free.
  AllocationMap empty = make_map({"4", "2", "1"}, {});
  EventResult e = submit_job(empty, 1, {{"any", 9}}, SchedulerOptions{});
  EXPECT_EQ(slice_strings(e.map), (std::vector<std::string>{"1*6 1*3 ."}));
  EXPECT_EQ(e.placements.at(0).new_slice_turnaround, r(3, 2));
  EXPECT_TRUE(e.placements.at(0).pattern.empty());
  // No sparc processor: the job waits with no slice.
  EventResult w = submit_job(empty, 2, {{"sparc", 1}}, SchedulerOptions{});
  EXPECT_TRUE(w.placements.at(0).waits);
  EXPECT_TRUE(w.map.slices.empty());
  ASSERT_NE(w.map.job(2), nullptr);
  EXPECT_THROW(submit_job(e.map, 1, {{"any", 1}}, SchedulerOptions{}), InputError);
  EXPECT_THROW(submit_job(e.map, 3, {{"any", 0}}, SchedulerOptions{}), InputError);
}

TEST(GangNowEvents, NewProcessorExpandsAJob)
{
  // J1 doubled on P1 (T = 2), J2 on P2. A processor of capacity 2 arrives: J1 gets both VPs on it (T = 1); J2 would
  // gain nothing by moving (T = 1 either way) and stays. The next round starts from the second job.
  AllocationMap map = make_map({"1", "1"}, {"1*2 2"});
  EventResult e = new_processor(map, Processor{"P3", r(2), "any"}, SchedulerOptions{});
  EXPECT_EQ(slice_strings(e.map), (std::vector<std::string>{". 2 1*2"}));
  EXPECT_EQ(moves_string(e.migrations), "1:P1->P3x2");
  EXPECT_EQ(e.expanded_jobs, (std::vector<JobId>{1}));
  EXPECT_EQ(e.map.next_job, 1u);
  EXPECT_THROW(new_processor(map, Processor{"P1", r(1), "any"}, SchedulerOptions{}), InputError);
}

TEST(GangNowEvents, VpExitFreesSpaceAndRemovesAnEmptiedSlice)
{
  // J1's only VP exits: J1 leaves and its slice, now empty, is removed. J2 (two VPs on P1 and on P2, T = 2) then
  // expands over P3 (capacity 2): {1, 1, 2}, T = 1.
  AllocationMap map = make_map({"1", "1", "2"}, {"1 . .", "2*2 2*2 ."});
  EventResult e = vp_exit(map, 1, "P1", SchedulerOptions{});
  EXPECT_EQ(e.removed_slices, 1);
  EXPECT_EQ(e.map.job(1), nullptr);
  EXPECT_EQ(slice_strings(e.map), (std::vector<std::string>{"2 2 2*2"}));
  EXPECT_EQ(moves_string(e.migrations), "2:P1->P3x1, 2:P2->P3x1");
  EXPECT_EQ(e.map.turnaround_of(2), r(1));
  // A VP that is not the last: the job stays, its VP count drops; no VP moves.
  AllocationMap three = make_map({"1", "1"}, {"1*2 1"});
  EventResult f = vp_exit(three, 1, "P1", SchedulerOptions{});
  EXPECT_EQ(slice_strings(f.map), (std::vector<std::string>{"1 1"}));
  EXPECT_EQ(f.map.job(1)->total_vps(), 2);
  EXPECT_TRUE(f.migrations.empty());
  EXPECT_THROW(vp_exit(three, 1, "P9", SchedulerOptions{}), InputError);
  EXPECT_THROW(vp_exit(make_map({"1", "1"}, {"1 ."}), 1, "P2", SchedulerOptions{}), InputError);
  // job_exit: every VP at once. J2's slice goes; J1 then moves to P3, twice as fast.
  EventResult g = job_exit(map, 2, SchedulerOptions{});
  EXPECT_EQ(g.removed_slices, 1);
  EXPECT_EQ(slice_strings(g.map), (std::vector<std::string>{". . 1"}));
  EXPECT_EQ(moves_string(g.migrations), "1:P1->P3x1");
}

TEST(GangNowEvents, NewVpCompressesThenOthersExpand)
{
  // P1 (capacity 3), P2, P3. T1: J1 on P1 and P2, J2 on P3. T2: J3 on P2. J1 gets a third VP: MTAT on P1 and P2
  // puts all three on P1 (T = 1), which frees P2 in T1. Free entries grew, so the others expand, from the queue's
  // head: J2 moves to P1 in T2 (T = 1/3); J3 then finds P2 and P3 free in T1 and T2 and takes P2 in both slices
  // (T = 1 in 2 slices of 2).
  AllocationMap map = make_map({"3", "1", "1"}, {"1 1 2", ". 3 ."});
  EventResult e = new_vp(map, 1, "any", SchedulerOptions{});
  EXPECT_EQ(slice_strings(e.map), (std::vector<std::string>{"1*3 3 .", "2 3 ."}));
  EXPECT_EQ(e.map.job(1)->total_vps(), 3);
  EXPECT_EQ(moves_string(e.migrations), "1:P2->P1x1, 2:P3->P1x1");
  EXPECT_EQ(counts_string(e.placed), "1:P1x1");
  EXPECT_EQ(e.expanded_jobs, (std::vector<JobId>{2, 3}));
  EXPECT_EQ(e.map.shared_turnaround_of(3), r(1));
  // Room in its slice: the new VP goes to a free processor there, nothing else moves, no Expansion round.
  AllocationMap room = make_map({"1", "1", "1"}, {"1 2 .", "3 3 3"});
  EventResult f = new_vp(room, 1, "any", SchedulerOptions{});
  EXPECT_EQ(slice_strings(f.map), (std::vector<std::string>{"1 2 1", "3 3 3"}));
  EXPECT_TRUE(f.migrations.empty());
  EXPECT_EQ(counts_string(f.placed), "1:P3x1");
  EXPECT_EQ(f.map.next_job, 0u);
}

TEST(GangNowEvents, ProcessorExitReplacesOrSuspendsAJob)
{
  // J1 alone on P1 in a slice whose other processor is J2's: nowhere to go in its slice, so it is placed again as a
  // submission: a new slice on P2.
  AllocationMap map = make_map({"1", "1"}, {"1 2"});
  EventResult e = processor_exit(map, "P1", SchedulerOptions{});
  EXPECT_EQ(slice_strings(e.map), (std::vector<std::string>{"2", "1"}));
  EXPECT_EQ(moves_string(e.migrations), "1:P1->P2x1");
  ASSERT_EQ(e.placements.size(), 1u);
  EXPECT_FALSE(e.placements[0].uses_free_space);
  // A job whose VPs were all on the leaving processor keeps its slice, emptied for a moment: J1 takes P2 there.
  AllocationMap keep = make_map({"1", "1"}, {"1 .", "2 2"});
  EventResult k = processor_exit(keep, "P1", SchedulerOptions{});
  EXPECT_EQ(slice_strings(k.map), (std::vector<std::string>{"1", "2*2"}));
  EXPECT_EQ(moves_string(k.migrations), "1:P1->P2x1, 2:P1->P2x1");
  EXPECT_TRUE(k.placements.empty());
  EXPECT_EQ(k.removed_slices, 0);
  // The last sparc processor leaves: J1 waits, its VP suspended; a sparc processor arrives and J1 resumes there.
  AllocationMap pools = make_map({"1", "1"}, {"2 1"}, {"x86", "sparc"});
  EventResult out = processor_exit(pools, "P2", SchedulerOptions{});
  EXPECT_EQ(counts_string(out.suspended), "1:P2x1");
  EXPECT_TRUE(out.map.slices_of(1).empty());
  EXPECT_TRUE(out.placements.at(0).waits);
  EXPECT_EQ(slice_strings(out.map), (std::vector<std::string>{"2"}));
  EventResult back = new_processor(out.map, Processor{"P3", r(2), "sparc"}, SchedulerOptions{});
  EXPECT_EQ(slice_strings(back.map), (std::vector<std::string>{"2 1"}));
  EXPECT_EQ(back.map.allocation_of(1), (std::vector<int>{0, 1}));
  EXPECT_EQ(counts_string(back.placed), "1:P3x1");
  EXPECT_THROW(processor_exit(map, "P7", SchedulerOptions{}), InputError);
}

TEST(GangNowEvents, ExpansionRoundStartsOneJobFurtherEachTime)
{
  // J1 and J2 doubled up on P1 and P2 in one slice; P3 arrives, one free entry. The first job visited takes it and
  // the round stops (no free entry left): J1 from the head, J2 when the round starts one job further.
  AllocationMap map = make_map({"1", "1"}, {"1*2 2*2"});
  EventResult first = new_processor(map, Processor{"P3", r(1), "any"}, SchedulerOptions{});
  EXPECT_EQ(slice_strings(first.map), (std::vector<std::string>{"1 2*2 1"}));
  EXPECT_EQ(first.expanded_jobs, (std::vector<JobId>{1}));
  EXPECT_EQ(first.map.next_job, 1u);
  map.next_job = 1;
  EventResult second = new_processor(map, Processor{"P3", r(1), "any"}, SchedulerOptions{});
  EXPECT_EQ(slice_strings(second.map), (std::vector<std::string>{"1*2 2 2"}));
  EXPECT_EQ(second.expanded_jobs, (std::vector<JobId>{2}));
  EXPECT_EQ(second.map.next_job, 0u);
  // Two jobs in two slices of P1; P2 arrives. J1 is visited first, but the column search offers it {P1, P2} x {T1}
  // (size 2, the first of two equal patterns): no faster. J2 is offered {P2} x {T1, T2} and runs twice as often.
  AllocationMap two = make_map({"1"}, {"1", "2"});
  EventResult e = new_processor(two, Processor{"P2", r(1), "any"}, SchedulerOptions{});
  EXPECT_EQ(e.expanded_jobs, (std::vector<JobId>{2}));
  EXPECT_EQ(slice_strings(e.map), (std::vector<std::string>{"1 2", ". 2"}));
  EXPECT_EQ(e.map.shared_turnaround_of(2), r(1));
  // The exhaustive search prefers, among equal sizes, more slices: J1 gets {P2} x {T1, T2}, then J2 {P1} x {T1, T2}:
  // each job now runs in both slices.
  SchedulerOptions exhaustive;
  exhaustive.expansion = ExpansionSearch::exhaustive;
  EventResult x = new_processor(two, Processor{"P2", r(1), "any"}, exhaustive);
  EXPECT_EQ(x.expanded_jobs, (std::vector<JobId>{1, 2}));
  EXPECT_EQ(slice_strings(x.map), (std::vector<std::string>{"2 1", "2 1"}));
  EXPECT_EQ(moves_string(x.migrations), "1:P1->P2x1");
}

namespace {

/* A processor of `all` that `map` does not hold (one that left and may come back), drawn by `rng`; none when the map
 * holds them all. */
std::optional<Processor> processor_away(const AllocationMap& map, const std::vector<Processor>& all, std::mt19937& rng)
{
  std::vector<Processor> away;
  for (const auto& p : all)
    if (map.processor_index(p.name) < 0) away.push_back(p);
  if (away.empty()) return std::nullopt;
  return away[rng() % away.size()];
}

/* Random events (submissions, job exits, VP exits, new VPs, processors leaving and coming back) on two copies of a map
 * of `all` processors, one handled with `reference`, the other with `tried`: every result must be the same. Jobs are
 * of 1 to `max_vps` VPs of one of `archs`. With `validate` on (both callers), each handler also checks the VP moves
 * it noted while changing the map (the change log) against those between the maps before and after. Returns the jobs
 * that Expansion rounds moved and the jobs that carried a remembered decline from one event to the next, over all seeds
 * (so that a caller can check the comparison covered what it tries). */
std::pair<int, int> compare_on_random_events(const std::vector<Processor>& all, const std::vector<std::string>& archs,
                                             int max_vps, const SchedulerOptions& reference,
                                             const SchedulerOptions& tried, unsigned seeds, int steps)
{
  int expanded = 0;
  int remembered = 0;
  for (unsigned seed = 1; seed <= seeds; seed++) {
    std::mt19937 rng(seed);
    AllocationMap a;
    a.processors = all;
    AllocationMap b = a;
    int next_id = 0;
    for (int step = 0; step < steps; step++) {
      const int kind = static_cast<int>(rng() % 10);
      std::function<EventResult(const AllocationMap&, const SchedulerOptions&)> event;
      if (kind <= 2 || a.jobs.empty()) {
        const int id = next_id++;
        const VpCounts vps{{archs[rng() % archs.size()], 1 + static_cast<int>(rng() % static_cast<unsigned>(max_vps))}};
        event = [=](const AllocationMap& m, const SchedulerOptions& o) { return submit_job(m, id, vps, o); };
      } else if (kind <= 4) {
        const int id = a.jobs[rng() % a.jobs.size()].id;
        event = [=](const AllocationMap& m, const SchedulerOptions& o) { return job_exit(m, id, o); };
      } else if (kind == 5) {
        const JobRecord& job = a.jobs[rng() % a.jobs.size()];
        const std::vector<int> held = a.allocation_of(job.id);
        std::vector<size_t> on;
        for (size_t p = 0; p < held.size(); p++)
          if (held[p] > 0) on.push_back(p);
        if (on.empty()) continue;
        const int id = job.id;
        const std::string name = a.processors[on[rng() % on.size()]].name;
        event = [=](const AllocationMap& m, const SchedulerOptions& o) { return vp_exit(m, id, name, o); };
      } else if (kind == 6) {
        const JobRecord& job = a.jobs[rng() % a.jobs.size()];
        if (job.vps.empty()) continue;
        const int id = job.id;
        const std::string arch = job.vps.begin()->first;
        event = [=](const AllocationMap& m, const SchedulerOptions& o) { return new_vp(m, id, arch, o); };
      } else if (kind <= 8 && a.processors.size() > 3) {
        const std::string name = a.processors[rng() % a.processors.size()].name;
        event = [=](const AllocationMap& m, const SchedulerOptions& o) { return processor_exit(m, name, o); };
      } else {
        const std::optional<Processor> away = processor_away(a, all, rng);
        if (!away) continue;
        const Processor back = *away;
        event = [=](const AllocationMap& m, const SchedulerOptions& o) { return new_processor(m, back, o); };
      }
      EventResult x = event(a, reference);
      EventResult y = event(b, tried);
      const std::string where = "seed " + std::to_string(seed) + ", step " + std::to_string(step);
      const bool same =
          slice_strings(y.map) == slice_strings(x.map) && moves_string(y.migrations) == moves_string(x.migrations) &&
          counts_string(y.placed) == counts_string(x.placed) &&
          counts_string(y.suspended) == counts_string(x.suspended) && y.expanded_jobs == x.expanded_jobs &&
          y.placements.size() == x.placements.size() && y.map.next_job == x.map.next_job;
      if (!same) { // what differs, then no further step (the maps have parted)
        EXPECT_EQ(slice_strings(y.map), slice_strings(x.map)) << where;
        EXPECT_EQ(moves_string(y.migrations), moves_string(x.migrations)) << where;
        EXPECT_EQ(counts_string(y.placed), counts_string(x.placed)) << where;
        EXPECT_EQ(counts_string(y.suspended), counts_string(x.suspended)) << where;
        EXPECT_EQ(y.expanded_jobs, x.expanded_jobs) << where;
        EXPECT_EQ(y.placements.size(), x.placements.size()) << where;
        EXPECT_EQ(y.map.next_job, x.map.next_job) << where;
        return {expanded, remembered};
      }
      expanded += static_cast<int>(x.expanded_jobs.size());
      for (const auto& job : y.map.jobs)
        remembered += job.declined_at.empty() ? 0 : 1;
      a = std::move(x.map);
      b = std::move(y.map);
    }
  }
  return {expanded, remembered};
}

/* 12 workstations of 3 architectures and 6 capacities. */
std::vector<Processor> mixed_workstations()
{
  const std::vector<std::string> speeds{"1", "1.5", "2", "3", "4", "5"};
  const std::vector<std::string> archs{"sparc", "x86", "alpha"};
  std::vector<Processor> all;
  for (size_t p = 0; p < 12; p++)
    all.push_back(Processor{"P" + std::to_string(p + 1), parse_capacity(speeds[p % 6], "test"), archs[p % 3]});
  return all;
}

} // namespace

TEST(GangNowEvents, RememberedDeclinesDecideAsFullRounds)
{
  // The Expansion round's memory (remember_declined) skips a job whose inputs did not change since it last stayed;
  // the decisions must be those of rounds that retry every job. Random events on 12 workstations of 3 architectures
  // and 6 capacities, both maps side by side, every result compared (with `validate`, the memory's skipped turns are
  // also taken and must not move their job).
  SchedulerOptions full;
  full.validate = true;
  SchedulerOptions remembering = full;
  remembering.remember_declined = true;
  auto [expanded, remembered] =
      compare_on_random_events(mixed_workstations(), {"sparc", "x86", "alpha"}, 6, full, remembering, 12, 250);
  EXPECT_GT(remembered, 1000); // jobs carried a remembered decline from round to round
}

TEST(GangNowEvents, SharedColumnSearchDecidesAsEachJobsOwnSearch)
{
  // shared_search: the Expansion round's column search from rows shared by the round's jobs, and turns stopped when
  // the pattern's size cannot make the job faster. The decisions must be those of each job searching its own rows and
  // allocating on every pattern found: random events compared event by event, on mixed workstations (3
  // architectures, 6 capacities, some not whole), on one architecture of equal capacities with large jobs (KTH's
  // kind: many slices, jobs replicated over many of them, VPs doubled up), and with the remembered declines on both
  // sides.
  SchedulerOptions own;
  own.validate = true;
  SchedulerOptions shared = own;
  shared.shared_search = true;
  auto [mixed, unused] =
      compare_on_random_events(mixed_workstations(), {"sparc", "x86", "alpha"}, 6, own, shared, 12, 250);
  EXPECT_GT(mixed, 1000); // Expansion moved jobs: the comparison covered moves, not only declines
  std::vector<Processor> equal;
  for (int p = 0; p < 20; p++)
    equal.push_back(Processor{"N" + std::to_string(p), Rational(1), "any"});
  auto [uniform, unused2] = compare_on_random_events(equal, {"any"}, 40, own, shared, 8, 400);
  EXPECT_GT(uniform, 1000);
  // Equal capacities not whole: the bound compared in integers (c x a.den x now.den x held against now.num x a.num x
  // width) reads both parts of each fraction.
  for (auto& p : equal)
    p.capacity = Rational(3, 2);
  auto [uniform_fraction, unused3] = compare_on_random_events(equal, {"any"}, 40, own, shared, 8, 400);
  EXPECT_GT(uniform_fraction, 1000);
  own.remember_declined = true;
  shared.remember_declined = true;
  auto [remembering, remembered] =
      compare_on_random_events(mixed_workstations(), {"sparc", "x86", "alpha"}, 6, own, shared, 6, 250);
  EXPECT_GT(remembering, 500);
  EXPECT_GT(remembered, 300);
}

TEST(GangNowEvents, IndexedMapDecidesAsPassesOverTheMap)
{
  // indexed: the handlers keep the map's index (each slice's free entries and held count, each job's slices and
  // entries) event by event and read it instead of the entries. Against the reference (no index, no shared search,
  // every turn taken), random events compared event by event with the policy's options: with `validate` the index
  // carried from event to event is also checked against the entries before and after each one (a stale index throws
  // PolicyError); without it (as the policy runs) a stale index would show as different decisions.
  SchedulerOptions reference;
  reference.validate = true;
  SchedulerOptions policy = reference;
  policy.remember_declined = true;
  policy.shared_search = true;
  policy.indexed = true;
  SchedulerOptions unchecked = policy;
  unchecked.validate = false;
  std::vector<Processor> equal;
  for (int p = 0; p < 70; p++) // more than 64 processors: rows of two words
    equal.push_back(Processor{"N" + std::to_string(p), Rational(1), "any"});
  auto [mixed_unchecked, unused] =
      compare_on_random_events(mixed_workstations(), {"sparc", "x86", "alpha"}, 6, reference, unchecked, 12, 250);
  auto [uniform_unchecked, unused2] = compare_on_random_events(equal, {"any"}, 140, reference, unchecked, 4, 400);
  auto [mixed, unused3] =
      compare_on_random_events(mixed_workstations(), {"sparc", "x86", "alpha"}, 6, reference, policy, 12, 250);
  EXPECT_GT(mixed, 1000);
  auto [uniform, unused4] = compare_on_random_events(equal, {"any"}, 140, reference, policy, 4, 400);
  EXPECT_GT(uniform, 500);
  EXPECT_EQ(mixed_unchecked, mixed);
  EXPECT_EQ(uniform_unchecked, uniform);
  // The index itself, after the events, against one built from the entries by a plain pass.
  AllocationMap a;
  a.processors = mixed_workstations();
  SchedulerOptions plain; // no index
  for (int id = 0; id < 8; id++)
    a = submit_job(a, id, {{id % 2 == 0 ? "sparc" : "x86", 1 + id % 5}}, policy).map;
  a = job_exit(a, 3, policy).map;
  ASSERT_TRUE(a.index.built);
  long long free_entries = 0;
  for (size_t s = 0; s < a.slices.size(); s++)
    for (size_t p = 0; p < a.processors.size(); p++) {
      const bool free = a.slices[s][p].free();
      free_entries += free ? 1 : 0;
      EXPECT_EQ(((a.index.free[s * a.index.words + p / 64] >> (p % 64)) & 1) != 0, free) << s << " " << p;
    }
  EXPECT_EQ(a.index.free_entries, free_entries);
  for (const auto& job : a.jobs) {
    EXPECT_EQ(job.held_slices, a.slices_of(job.id)) << job.id;
    const auto vps = a.allocation_of(job.id);
    std::vector<std::pair<int, int>> entries;
    for (size_t p = 0; p < vps.size(); p++)
      if (vps[p] > 0) entries.emplace_back(static_cast<int>(p), vps[p]);
    EXPECT_EQ(job.held_entries, entries) << job.id;
  }
  // A handler without the index drops it.
  EXPECT_FALSE(submit_job(a, 100, {{"x86", 2}}, plain).map.index.built);
}

TEST(GangNowEvents, ProcessorEventsKeepTheIndex)
{
  // new_processor and processor_exit follow the map's index (its rows of bits one word wider past 64 processors, one
  // narrower again, the rows and the jobs' entries past a leaving processor one lower) instead of dropping it: after
  // each, the index must be built and equal to one built from the entries (index_problems), and its free bits and the
  // jobs' entries those read from the entries one by one.
  SchedulerOptions policy;
  policy.remember_declined = true;
  policy.shared_search = true;
  policy.indexed = true;
  policy.validate = false; // (with it, the handler itself would throw on a stale index)
  AllocationMap map;
  for (int p = 0; p < 64; p++)
    map.processors.push_back(Processor{"N" + std::to_string(p), Rational(1), p < 60 ? "any" : "other"});
  for (int id = 0; id < 6; id++)
    map = submit_job(std::move(map), id, {{"any", 10 + 9 * id}}, policy).map;
  map = submit_job(std::move(map), 6, {{"other", 3}}, policy).map;
  auto check = [](const AllocationMap& m, size_t processors, const std::string& when) {
    ASSERT_TRUE(m.index.built) << when;
    ASSERT_EQ(m.processors.size(), processors) << when;
    EXPECT_EQ(m.index.words, (processors + 63) / 64) << when;
    EXPECT_EQ(index_problems(m), std::vector<std::string>{}) << when;
    long long free_entries = 0;
    for (size_t s = 0; s < m.slices.size(); s++)
      for (size_t p = 0; p < m.processors.size(); p++) {
        const bool free = m.slices[s][p].free();
        free_entries += free ? 1 : 0;
        EXPECT_EQ(((m.index.free[s * m.index.words + p / 64] >> (p % 64)) & 1) != 0, free) << when << s << " " << p;
      }
    EXPECT_EQ(m.index.free_entries, free_entries) << when;
    for (const auto& job : m.jobs) {
      EXPECT_EQ(job.held_slices, m.slices_of(job.id)) << when << job.id;
      const auto vps = m.allocation_of(job.id);
      std::vector<std::pair<int, int>> entries;
      for (size_t p = 0; p < vps.size(); p++)
        if (vps[p] > 0) entries.emplace_back(static_cast<int>(p), vps[p]);
      EXPECT_EQ(job.held_entries, entries) << when << job.id;
    }
  };
  check(map, 64, "before");
  map = new_processor(std::move(map), Processor{"N64", Rational(1), "any"}, policy).map; // a second word
  check(map, 65, "N64 added");
  map = processor_exit(std::move(map), "N3", policy).map; // one word again, the rows past N3 one lower
  check(map, 64, "N3 gone");
  map = processor_exit(std::move(map), "N61", policy).map; // a processor of job 6's architecture
  check(map, 63, "N61 gone");
  for (const char* name : {"N60", "N62", "N63"}) // the last of architecture "other": job 6 waits
    map = processor_exit(std::move(map), name, policy).map;
  check(map, 60, "other gone");
  EXPECT_EQ(map.index.arch_masks.count("other"), 0u);
  EXPECT_TRUE(map.slices_of(6).empty());
  map = new_processor(std::move(map), Processor{"N3", Rational(1), "other"}, policy).map; // job 6 placed again
  check(map, 61, "N3 back");
  EXPECT_FALSE(map.slices_of(6).empty());
  map = job_exit(std::move(map), 2, policy).map; // a later event reads the index as it was kept
  check(map, 61, "job 2 ended");
}

TEST(GangNowEvents, TurnsThatCannotGainAreToldFromCountsOnly)
{
  // Four processors of one capacity. J3 leaves P3 in slice 2: slice 1 "1 1 2 2", slice 2 "3 3 . .". J3 (2 VPs, one
  // a processor, in slice 2 only) has no slice of its own left with a free entry (F = 0): no pattern over more
  // slices than it holds exists, and none over its own can beat one VP a processor, so its turn is told from the
  // counts that it stays. J1 and J2 have the same counts (2 VPs, 1 a processor, 1 of 2 slices held, 2 free entries
  // in the other slice): ceil(2 / 2) x 1 held < 1 x 2 slices, so the counts cannot tell, and the rows decide: J2's
  // processors P3, P4 are free in slice 2, a pattern of width 2 (half its turnaround per slice), and it takes them;
  // J1's P1, P2 are not, and it stays. With `validate`, the turn told from the counts is also taken (and must not
  // move): a rule that also skipped J1 would skip J2 and leave slice 2 as it was.
  SchedulerOptions options;
  options.validate = true;
  options.remember_declined = true;
  options.shared_search = true;
  options.indexed = true;
  for (const bool validate : {true, false}) {
    options.validate = validate;
    AllocationMap map = make_map({"1", "1", "1", "1"}, {"1 1 2 2", "3 3 3 ."});
    EventResult e = vp_exit(map, 3, "P3", options);
    EXPECT_EQ(slice_strings(e.map), (std::vector<std::string>{"1 1 2 2", "3 3 2 2"})) << validate;
    EXPECT_EQ(e.expanded_jobs, (std::vector<JobId>{2})) << validate;
    EXPECT_EQ(moves_string(e.migrations), "") << validate;
    EXPECT_EQ(e.removed_slices, 0) << validate;
  }
}

TEST(GangNowEvents, RoundAfterAnotherMapsRoundDecidesAsTheFirst)
{
  // The Expansion round's scan keeps its storage from round to round with the map's index (MapIndex::round_scan),
  // shared by copies of the map, whose processors may differ by then; what the last round read must not carry over.
  // The map: P1 of another architecture, held by J4 in T2 and free elsewhere; J1's two VPs doubled up on P2 in T1, T3
  // and T4; J3 on P3 in T1. When J3 leaves, J1's turn spreads it over P2 and P3 in all four slices, then J4's spreads
  // over P1's. Were P1 taken for one of J1's processors (the last round's were), the three slices where P1 is free
  // would make the larger pattern, and J1 would hold three slices only.
  SchedulerOptions policy;
  policy.remember_declined = true;
  policy.shared_search = true;
  policy.indexed = true;
  const AllocationMap map =
      make_map({"1", "1", "1"}, {". 1*2 3", "4 . .", ". 1*2 .", ". 1*2 ."}, {"other", "any", "any"});
  const EventResult first = job_exit(map, 3, policy);
  EXPECT_EQ(slice_strings(first.map), (std::vector<std::string>{"4 1 1", "4 1 1", "4 1 1", "4 1 1"}));
  EXPECT_EQ(first.expanded_jobs, (std::vector<JobId>{1, 4}));
  // A round on another map, whose last turn is a job of the same architecture on four processors (P1 among them).
  const AllocationMap other = make_map({"1", "1", "1", "1"}, {"5 5 6 6"});
  const EventResult between = job_exit(other, 6, policy);
  EXPECT_EQ(between.expanded_jobs, (std::vector<JobId>{})); // two VPs on two processors already: no faster
  ASSERT_TRUE(between.map.index.round_scan);
  // The same event again with the other map's scan, and once more with the map's checks on: the same decision.
  for (bool validate : {false, true}) {
    policy.validate = validate;
    AllocationMap sharing = map;
    sharing.index.round_scan = between.map.index.round_scan;
    const EventResult again = job_exit(sharing, 3, policy);
    EXPECT_EQ(slice_strings(again.map), slice_strings(first.map)) << validate;
    EXPECT_EQ(again.expanded_jobs, first.expanded_jobs) << validate;
    EXPECT_EQ(moves_string(again.migrations), moves_string(first.migrations)) << validate;
    EXPECT_EQ(again.map.index.round_scan, between.map.index.round_scan) << validate; // (the round used it)
    AllocationMap other_sharing = other;
    other_sharing.index.round_scan = between.map.index.round_scan;
    const EventResult back = job_exit(other_sharing, 6, policy);
    EXPECT_EQ(slice_strings(back.map), slice_strings(between.map)) << validate;
  }
}

TEST(GangNowEvents, JobIdsBeyondIntDecideAsSmallOnes)
{
  // An SWF trace's job numbers go up to 2^53 (JobId). Random events on jobs numbered 0, 1, 2... and on the same jobs
  // numbered kBase + kStride x n (beyond int, and spread far wider than the queue: the round's places by id and the
  // map-to-map moves then look ids up by hash) must decide alike, event by event, with and without the map's index.
  // Cut to int, kBase is 1483406943, which a job of the large run became before (the policy's internal error).
  constexpr JobId kBase = 5'778'374'239;
  constexpr JobId kStride = 1'000'000'007;
  auto small_id = [&](JobId id) { return (id - kBase) / kStride; };
  SchedulerOptions reference; // no index; validate: the moves also found from the maps before and after
  reference.validate = true;
  SchedulerOptions policy = reference;
  policy.remember_declined = true;
  policy.shared_search = true;
  policy.indexed = true;
  const std::vector<std::string> archs{"sparc", "x86", "alpha"};
  const std::vector<Processor> all = mixed_workstations();
  for (const SchedulerOptions& options : {reference, policy}) {
    std::mt19937 rng(5);
    AllocationMap small;
    small.processors = all;
    AllocationMap large = small;
    JobId next_id = 0;
    int events = 0;
    for (int step = 0; step < 300; step++) {
      const int kind = static_cast<int>(rng() % 10);
      // The event on the small map's job `id`, which is kBase + kStride x id in the large one.
      std::function<EventResult(const AllocationMap&, JobId)> event;
      JobId id = 0;
      if (kind <= 3 || small.jobs.empty()) {
        id = next_id++;
        const VpCounts vps{{archs[rng() % archs.size()], 1 + static_cast<int>(rng() % 6u)}};
        event = [&, vps](const AllocationMap& m, JobId job) { return submit_job(m, job, vps, options); };
      } else if (kind <= 5) {
        id = small.jobs[rng() % small.jobs.size()].id;
        event = [&](const AllocationMap& m, JobId job) { return job_exit(m, job, options); };
      } else if (kind == 6) {
        id = small.jobs[rng() % small.jobs.size()].id;
        const std::vector<int> held = small.allocation_of(id);
        std::vector<size_t> on;
        for (size_t p = 0; p < held.size(); p++)
          if (held[p] > 0) on.push_back(p);
        if (on.empty()) continue;
        const std::string name = small.processors[on[rng() % on.size()]].name;
        event = [&, name](const AllocationMap& m, JobId job) { return vp_exit(m, job, name, options); };
      } else if (kind == 7) {
        const JobRecord& job = small.jobs[rng() % small.jobs.size()];
        if (job.vps.empty()) continue;
        id = job.id;
        const std::string arch = job.vps.begin()->first;
        event = [&, arch](const AllocationMap& m, JobId j) { return new_vp(m, j, arch, options); };
      } else if (kind == 8 && small.processors.size() > 3) {
        const std::string name = small.processors[rng() % small.processors.size()].name;
        event = [&, name](const AllocationMap& m, JobId) { return processor_exit(m, name, options); };
      } else {
        const std::optional<Processor> away = processor_away(small, all, rng);
        if (!away) continue;
        const Processor back = *away;
        event = [&, back](const AllocationMap& m, JobId) { return new_processor(m, back, options); };
      }
      EventResult x = event(small, id);
      EventResult y = event(large, kBase + kStride * id);
      // The large run's ids numbered back.
      for (auto& slice : y.map.slices)
        for (auto& e : slice)
          if (!e.free()) {
            ASSERT_EQ((e.job - kBase) % kStride, 0) << e.job;
            e.job = small_id(e.job);
          }
      for (auto& m : y.migrations)
        m.job = small_id(m.job);
      for (auto* counts : {&y.placed, &y.suspended})
        for (auto& c : *counts)
          c.job = small_id(c.job);
      for (auto& j : y.expanded_jobs)
        j = small_id(j);
      const std::string where = "step " + std::to_string(step);
      ASSERT_EQ(slice_strings(y.map), slice_strings(x.map)) << where;
      ASSERT_EQ(moves_string(y.migrations), moves_string(x.migrations)) << where;
      ASSERT_EQ(counts_string(y.placed), counts_string(x.placed)) << where;
      ASSERT_EQ(counts_string(y.suspended), counts_string(x.suspended)) << where;
      ASSERT_EQ(y.expanded_jobs, x.expanded_jobs) << where;
      ASSERT_EQ(y.map.next_job, x.map.next_job) << where;
      ASSERT_EQ(y.map.jobs.size(), x.map.jobs.size()) << where;
      for (size_t k = 0; k < x.map.jobs.size(); k++)
        ASSERT_EQ(y.map.jobs[k].id, kBase + kStride * x.map.jobs[k].id) << where;
      small = std::move(x.map);
      large = event(large, kBase + kStride * id).map; // (y's map was numbered back)
      events++;
    }
    EXPECT_GT(events, 250);
    EXPECT_GT(small.jobs.size(), 5u); // the queue was not empty all along
  }
}

// ---- the map's JSON form ----

TEST(GangNowMapJson, RoundTripAndErrors)
{
  AllocationMap map = make_map({"1.1", "3.3", "2"}, {"1 1*3 .", "2 . 2"}, {"x86", "x86", "x86"});
  std::string text = map_json(map);
  AllocationMap back = read_map_json(text, "m.json");
  EXPECT_EQ(map_json(back), text);
  EXPECT_EQ(back.processors[1].capacity, r(33, 10));
  // Job ids up to 2^53 (JobId, as a trace gives them), not cut to int.
  AllocationMap large = read_map_json(R"({"processors": [{"name": "A", "capacity": 1}, {"name": "B", "capacity": 1}],
      "slices": [[{"job": 5778374239, "vps": 1}, {"job": 9007199254740992, "vps": 1}]]})",
                                      "large.json");
  EXPECT_EQ(large.job(5'778'374'239)->vps.at("any"), 1);
  EXPECT_EQ(large.job(9'007'199'254'740'992)->vps.at("any"), 1);
  EXPECT_EQ(large.slices[0][1].job, 9'007'199'254'740'992);
  EXPECT_EQ(map_json(read_map_json(map_json(large), "again.json")), map_json(large));
  // Relaxed input: numbers as capacities, no arch, no jobs list.
  AllocationMap relaxed = read_map_json(R"({"processors": [{"name": "A", "capacity": 1.1}, {"name": "B",
      "capacity": "1.10"}], "slices": [[{"job": 4, "vps": 2}, null]]})",
                                        "r.json");
  EXPECT_EQ(relaxed.processors[0].capacity, r(11, 10));
  EXPECT_EQ(relaxed.processors[1].capacity, r(11, 10));
  EXPECT_EQ(relaxed.job(4)->vps.at("any"), 2);
  auto message = [](const std::string& json) {
    try {
      read_map_json(json, "bad.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(
      message("{\"processors\": [], \"slices\": [}")
          .rfind("bad.json: malformed JSON: parse error at line 1, column 31: syntax error while parsing value", 0),
      0u);
  EXPECT_EQ(message("{\"processors\": []}"), "bad.json: missing key \"slices\"");
  EXPECT_EQ(message("{\"processors\": [{\"name\": \"A\", \"capacity\": 0}], \"slices\": []}")
                .rfind("bad.json: /processors/0/capacity: processor 'A' capacity", 0),
            0u);
  EXPECT_EQ(message(R"({"processors": [{"name": "A", "capacity": 1}], "slices": [[{"job": 1, "vps": 1.5}]]})"),
            "bad.json: /slices/0/0/vps: \"vps\" must be a whole number from 1 to 1000000, not 1.5");
  EXPECT_EQ(message(R"({"processors": [{"name": "A", "capacity": 1, "name": "B"}], "slices": []})"),
            "bad.json: malformed JSON: the key \"name\" is given twice in an object");
  EXPECT_NE(message(R"({"processors": [{"name": "A", "capacity": 1}, {"name": "B", "capacity": 1}],
                        "slices": [[{"job": 1, "vps": 1}, null], [null, {"job": 1, "vps": 1}]]})")
                .find("not placed the same way"),
            std::string::npos);
  EXPECT_NE(message(R"({"processors": [], "slices": [], "colour": 1})").find("unknown key \"colour\""),
            std::string::npos);
  // A job on no slice whose VPs no processor can take is waiting (allocation_map.hpp), as after processor_exit of the
  // last processor of its architecture: it is read (s36 refused it) and a submission carries it into the new map.
  const std::string two_archs = R"({"processors": [{"name": "P1", "capacity": 1, "arch": "x86"},
      {"name": "P2", "capacity": 1, "arch": "sparc"}], "slices": [[{"job": 1, "vps": 1}, null]], "jobs": [{"id": 1,
      "vps": 1}, )";
  AllocationMap waiting = read_map_json(two_archs + R"({"id": 5, "vps": 1}]})", "wait.json");
  ASSERT_EQ(waiting.jobs.size(), 2u);
  EXPECT_EQ(waiting.jobs[1].id, 5);
  EXPECT_EQ(waiting.jobs[1].vps, (VpCounts{{"any", 1}})); // a plain count on no slice
  EXPECT_TRUE(waiting.slices_of(5).empty());
  EXPECT_EQ(read_map_json(map_json(waiting), "again.json").jobs[1].vps, (VpCounts{{"any", 1}}));
  AllocationMap mips = read_map_json(two_archs + R"({"id": 6, "vps": {"sparc": 1, "mips": 2}}]})", "wait.json");
  EXPECT_EQ(mips.jobs[1].vps, (VpCounts{{"sparc", 1}, {"mips", 2}}));
  EventResult after = submit_job(mips, 7, {{"x86", 1}}, SchedulerOptions{});
  ASSERT_EQ(after.map.jobs.size(), 3u);
  EXPECT_EQ(after.map.jobs[1].id, 6);
  EXPECT_EQ(after.map.jobs[1].vps, (VpCounts{{"sparc", 1}, {"mips", 2}}));
  EXPECT_TRUE(after.map.slices_of(6).empty());
  EXPECT_FALSE(after.map.slices_of(7).empty());
  EXPECT_EQ(read_map_json(two_archs + R"({"id": 7, "vps": {"sparc": 2, "mips": 0}}]})", "ok.json").jobs.size(), 2u);
}
