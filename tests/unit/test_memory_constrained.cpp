/* The memory-constrained quantum schedulers of McCann & Zahorjan 1994 (plugin/policies/memory_constrained/): the
 * paper's worked examples (Figure 3, section 4.1.2 and the Figure 7 caption, Figure 8, section 4.2's J = 7 remark,
 * Table 1), HEURISTIC-EPOCH's documented choices on hand-computed cases, the validator on broken schedules, and
 * brute-force searches written here (exact tiling for BUDDY, set partitions for the epoch policies) on many small
 * random instances. Every schedule a test produces goes through the validator. */
#include "core/errors.hpp"
#include "policies/memory_constrained/epoch_bounds.hpp"
#include "policies/memory_constrained/partitions.hpp"
#include "policies/memory_constrained/policies.hpp"
#include "policies/memory_constrained/schedule_building.hpp"
#include "policy/policy.hpp"
#include "support/time_sharing_bench.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <tuple>

using namespace jobsched;
using namespace jobsched::memory_constrained;

namespace {

/* The policy by name at inequity k, checked by the validator with the policy's promises. */
QuantumSchedule plan(const std::string& policy, int nodes, const std::vector<int>& mins, int k = 1,
                     OptEpochOptions opt = {})
{
  const auto& p = memory_constrained_policy(policy);
  PlanOptions options;
  options.k = k;
  options.opt_epoch = opt;
  QuantumSchedule s = p.plan(nodes, mins, options);
  auto problems = validate(s, nodes, mins, p.promises(k));
  std::string all;
  for (const auto& problem : problems)
    all += "\n  " + problem;
  EXPECT_TRUE(problems.empty()) << policy << " (k = " << k << ") on N = " << nodes << ":" << all;
  return s;
}

std::vector<int> width_of_each_job(const QuantumSchedule& s, size_t job_count)
{
  std::vector<int> widths(job_count, 0);
  for (const auto& p : s.pieces)
    widths[static_cast<size_t>(p.job)] = p.width;
  return widths;
}

std::vector<std::vector<int>> epoch_widths(const QuantumSchedule& s)
{
  std::vector<std::vector<int>> out;
  for (const auto& e : s.epochs) {
    out.emplace_back();
    for (int i : e.pieces)
      out.back().push_back(s.pieces[static_cast<size_t>(i)].width);
  }
  return out;
}

std::vector<std::vector<int>> epoch_jobs(const QuantumSchedule& s)
{
  std::vector<std::vector<int>> out;
  for (const auto& e : s.epochs) {
    out.emplace_back();
    for (int i : e.pieces)
      out.back().push_back(s.pieces[static_cast<size_t>(i)].job);
  }
  return out;
}

/* A message is one line, for the launcher's "jobsched: error: ..." contract. */
template <class F>
std::string input_error_of(F&& f)
{
  try {
    f();
  } catch (const InputError& e) {
    std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    return what;
  }
  ADD_FAILURE() << "no InputError";
  return "";
}

// ---- Brute force, independent of the library ----

bool pow2(int v)
{
  return v > 0 && (v & (v - 1)) == 0;
}

/* Can pieces of these power-of-two widths, each of area N/J, tile the N x 1 rectangle? Heights are (N/J)/w, all
 * multiples of 1/J, so the rectangle is an N x J grid and a piece of width w covers w columns and N/w rows. The
 * lowest, then leftmost, empty cell must be some remaining piece's bottom-left corner: try each. */
bool tiles(int nodes, int job_count, const std::vector<int>& widths)
{
  std::vector<std::vector<bool>> used(static_cast<size_t>(job_count), std::vector<bool>(static_cast<size_t>(nodes)));
  std::map<int, int> left;
  for (int w : widths)
    left[w]++;
  std::function<bool(int)> place = [&](int placed) -> bool {
    if (placed == job_count) return true;
    int row = 0;
    int col = 0;
    bool found = false;
    for (row = 0; row < job_count && !found; row++)
      for (col = 0; col < nodes && !found; col++)
        if (!used[static_cast<size_t>(row)][static_cast<size_t>(col)]) found = true;
    row--;
    col--;
    for (auto& [w, count] : left) {
      if (count == 0) continue;
      int h = nodes / w;
      if (col + w > nodes || row + h > job_count) continue;
      bool free = true;
      for (int r = row; r < row + h && free; r++)
        for (int c = col; c < col + w && free; c++)
          free = !used[static_cast<size_t>(r)][static_cast<size_t>(c)];
      if (!free) continue;
      auto mark = [&](bool v) {
        for (int r = row; r < row + h; r++)
          for (int c = col; c < col + w; c++)
            used[static_cast<size_t>(r)][static_cast<size_t>(c)] = v;
      };
      mark(true);
      count--;
      bool ok = place(placed + 1);
      count++;
      mark(false);
      if (ok) return true;
    }
    return false;
  };
  return place(0);
}

/* The least overhead of an equal-area schedule with power-of-two widths (N and J powers of two): every multiset of
 * widths >= N/J that covers the jobs' minimums (largest width to largest job) and tiles the rectangle. */
long long best_power_of_two_overhead(int nodes, const std::vector<int>& mins)
{
  const int job_count = static_cast<int>(mins.size());
  std::vector<int> choices;
  for (int w = 1; w <= nodes; w *= 2)
    if (static_cast<long long>(w) * job_count >= nodes) choices.push_back(w);
  std::vector<int> sorted_mins = mins;
  std::sort(sorted_mins.rbegin(), sorted_mins.rend());
  long long best = -1;
  std::vector<int> widths;
  std::function<void(size_t)> choose = [&](size_t from) {
    if (static_cast<int>(widths.size()) == job_count) {
      long long sum = 0;
      for (size_t i = 0; i < widths.size(); i++) {
        if (widths[i] < sorted_mins[i]) return;
        sum += widths[i];
      }
      if ((best < 0 || sum < best) && tiles(nodes, job_count, widths)) best = sum;
      return;
    }
    for (size_t c = from; c < choices.size(); c++) { // non-increasing widths: choices from the largest
      widths.push_back(choices[choices.size() - 1 - c]);
      choose(c);
      widths.pop_back();
    }
  };
  choose(0);
  return best;
}

/* Can these jobs share one epoch: widths all in some [c, c + k], summing to N, each at least its job's M? Some c
 * works iff no job needs more than c + k and the widths max(M_j, c) leave room (sum <= N <= h (c + k)): between
 * those two sums every total is reachable by widening pieces one node at a time. */
bool fits_one_epoch(int nodes, const std::vector<int>& mins, int k)
{
  const long long parts = static_cast<long long>(mins.size());
  for (int c = 1; c <= nodes; c++) {
    long long least = 0;
    bool each_fits = true;
    for (int m : mins) {
      each_fits = each_fits && m <= c + k;
      least += std::max(m, c);
    }
    if (each_fits && least <= nodes && nodes <= parts * (c + k)) return true;
  }
  return false;
}

/* The fewest epochs of any epoch schedule within k: the fewest feasible groups covering the jobs (subset DP). */
int fewest_epochs(int nodes, const std::vector<int>& mins, int k)
{
  const int n = static_cast<int>(mins.size());
  const int full = (1 << n) - 1;
  std::vector<char> feasible(static_cast<size_t>(full + 1), 0);
  for (int mask = 1; mask <= full; mask++) {
    std::vector<int> group;
    for (int j = 0; j < n; j++)
      if (mask & (1 << j)) group.push_back(mins[static_cast<size_t>(j)]);
    feasible[static_cast<size_t>(mask)] = fits_one_epoch(nodes, group, k);
  }
  std::vector<int> best(static_cast<size_t>(full + 1), 1 << 20);
  best[0] = 0;
  for (int mask = 1; mask <= full; mask++) {
    int low = mask & -mask; // the group holding the lowest job
    for (int sub = mask; sub; sub = (sub - 1) & mask)
      if ((sub & low) && feasible[static_cast<size_t>(sub)])
        best[static_cast<size_t>(mask)] =
            std::min(best[static_cast<size_t>(mask)], best[static_cast<size_t>(mask ^ sub)] + 1);
  }
  return best[static_cast<size_t>(full)];
}

/* Partitions of N with max - min <= k, counted by a second method: for each smallest part c, the partitions of N
 * into parts from [c, c + k] minus those into parts from [c + 1, c + k] (coin-change DP). */
long long count_partitions_by_dp(int nodes, int k)
{
  auto with_parts = [nodes](int low, int high) {
    std::vector<long long> ways(static_cast<size_t>(nodes + 1), 0);
    ways[0] = 1;
    for (int part = low; part <= high; part++)
      for (int total = part; total <= nodes; total++)
        ways[static_cast<size_t>(total)] += ways[static_cast<size_t>(total - part)];
    return ways[static_cast<size_t>(nodes)];
  };
  long long count = 0;
  for (int c = 1; c <= nodes; c++)
    count += with_parts(c, c + k) - (k > 0 ? with_parts(c + 1, c + k) : 0);
  return count;
}

/* The greedy of section 4.1.3: EQUI-EPOCH's rule from the largest jobs instead of the smallest. */
int largest_first_equal_epochs(int nodes, std::vector<int> mins)
{
  std::sort(mins.rbegin(), mins.rend());
  int epochs = 0;
  size_t next = 0;
  while (next < mins.size()) {
    int c = static_cast<int>(std::min(mins.size() - next, static_cast<size_t>(nodes)));
    while (nodes % c != 0 || mins[next] > nodes / c) // the largest of the c must fit in N/c
      c--;
    next += static_cast<size_t>(c);
    epochs++;
  }
  return epochs;
}

} // namespace

// ---- The paper's examples ----

TEST(MemoryConstrainedBuddy, Figure3Widths)
{
  // N = 16, J = 8: area 2 each. Job 7 (M = 8) goes first: 8 wide, 1/4 tall. The min-seg is then at height 1/4
  // (x = 2) on nodes 0-7, forcing width 2 x 2^2 = 8 on the first M = 3 job (job 2) although ceilpow2(3) = 4. The
  // frontier then is 1/2 on 0-7 (x = 1): two M = 3 jobs get 4 nodes for 1/2 each; the last two M = 3 jobs fill 8-15
  // up to 1/2 and 1; M = 2 and M = 1 take nodes 12-13 and 14-15 for the whole quantum (width 2: area 2 in height 1).
  std::vector<int> mins{1, 2, 3, 3, 3, 3, 3, 8};
  QuantumSchedule s = plan("buddy", 16, mins);
  EXPECT_EQ(width_of_each_job(s, mins.size()), (std::vector<int>{2, 2, 8, 4, 4, 4, 4, 8}));
  EXPECT_EQ(s.overhead(), 36);
  EXPECT_DOUBLE_EQ(s.normalized_overhead(), 2.25);
  EXPECT_TRUE(s.epochs.empty());
  // The walk-through's partial schedule: the second piece sits on the min-seg (nodes 0-7, height 1/4).
  ASSERT_GE(s.pieces.size(), 2u);
  EXPECT_EQ(s.pieces[1].job, 2);
  EXPECT_EQ(s.pieces[1].first_node, 0);
  EXPECT_EQ(s.pieces[1].start, Fraction(1, 4));
  EXPECT_EQ(s.pieces[1].duration, Fraction(1, 4));
  // The paper's Figure 3 comparison: BUDDY* and HYBRID are BUDDY when J is a power of two.
  EXPECT_EQ(width_of_each_job(plan("buddy-star", 16, mins), mins.size()), width_of_each_job(s, mins.size()));
  EXPECT_EQ(width_of_each_job(plan("hybrid", 16, mins, 1), mins.size()), width_of_each_job(s, mins.size()));
}

TEST(MemoryConstrainedEpochs, N140TextAndFigure7Caption)
{
  // Section 4.1.2: ten jobs of M = 20. EQUI-EPOCH: 7 jobs of 20 nodes (140/7), then 3 left: 3 does not divide 140,
  // so 2 of 70, then 1 of 140. The optimum: 5 + 5 jobs of 28 nodes.
  std::vector<int> ten(10, 20);
  QuantumSchedule equi = plan("equi-epoch", 140, ten);
  EXPECT_EQ(epoch_widths(equi), (std::vector<std::vector<int>>{std::vector<int>(7, 20), {70, 70}, {140}}));
  EXPECT_EQ(equi.overhead(), 3 * 140);
  QuantumSchedule opt = plan("opt-epoch", 140, ten, 0);
  EXPECT_EQ(epoch_widths(opt), (std::vector<std::vector<int>>{std::vector<int>(5, 28), std::vector<int>(5, 28)}));
  EXPECT_EQ(opt.overhead(), 2 * 140);
  EXPECT_GE(opt.assignments_tested, 2);
  // The Figure 7 caption: twenty jobs of M = 10. EQUI-EPOCH: 14 of 10 nodes, 5 of 28, 1 of 140; optimum 10 + 10 of 14.
  std::vector<int> twenty(20, 10);
  EXPECT_EQ(epoch_widths(plan("equi-epoch", 140, twenty)),
            (std::vector<std::vector<int>>{std::vector<int>(14, 10), std::vector<int>(5, 28), {140}}));
  EXPECT_EQ(epoch_widths(plan("opt-epoch", 140, twenty, 0)),
            (std::vector<std::vector<int>>{std::vector<int>(10, 14), std::vector<int>(10, 14)}));
  // Both agree with the brute force on the ten-job case (the twenty-job one has 2^20 subsets).
  EXPECT_EQ(fewest_epochs(140, ten, 0), 2);
}

TEST(MemoryConstrainedEpochs, Figure8EquiEpochBeatsLargestFirst)
{
  // N = 16, M = [4, 4, 4, 4, 8]: from the smallest, four jobs of 4 share one epoch and the M = 8 job takes the
  // other. From the largest: {8, 4} on 8 + 8 (4 jobs would give 4 nodes to the M = 8 job), then {4, 4}, then {4}.
  std::vector<int> mins{4, 4, 4, 4, 8};
  QuantumSchedule equi = plan("equi-epoch", 16, mins);
  EXPECT_EQ(epoch_widths(equi), (std::vector<std::vector<int>>{{4, 4, 4, 4}, {16}}));
  EXPECT_EQ(epoch_jobs(equi), (std::vector<std::vector<int>>{{0, 1, 2, 3}, {4}}));
  EXPECT_EQ(equi.epochs[0].duration, Fraction(4, 5)); // durations proportional to the jobs held: area 16/5 each
  EXPECT_EQ(largest_first_equal_epochs(16, mins), 3);
  EXPECT_EQ(fewest_epochs(16, mins, 0), 2);
  EXPECT_EQ(plan("opt-epoch", 16, mins, 0).epochs.size(), 2u);
}

TEST(MemoryConstrainedEpochs, SevenJobsNeedThreeEqualEpochs)
{
  // Section 4.2: with J = 7 and N a power of two, an equal-allocation epoch holds a power of two of jobs, so
  // OPT-EPOCH(0) needs at least 3 epochs (7 = 4 + 2 + 1); OPT-EPOCH(1) can hold all seven in one.
  std::mt19937 random(7);
  for (int nodes : {8, 16, 32, 64, 128}) {
    std::uniform_int_distribution<int> min_of(1, nodes / 7);
    for (int trial = 0; trial < 20; trial++) {
      std::vector<int> mins(7);
      for (int& m : mins)
        m = min_of(random);
      EXPECT_GE(plan("opt-epoch", nodes, mins, 0).epochs.size(), 3u) << "N = " << nodes;
      EXPECT_EQ(plan("opt-epoch", nodes, mins, 1).epochs.size(), 1u) << "N = " << nodes;
    }
  }
  // N = 16, seven jobs of 1 node: widths 3, 3, 2, 2, 2, 2, 2.
  EXPECT_EQ(epoch_widths(plan("opt-epoch", 16, std::vector<int>(7, 1), 1)),
            (std::vector<std::vector<int>>{{3, 3, 2, 2, 2, 2, 2}}));
}

TEST(MemoryConstrainedPartitions, Table1)
{
  const std::vector<long long> table1{8, 128, 2144, 21527, 144055, 692693, 2560378};
  auto started = std::chrono::steady_clock::now();
  for (int k = 0; k <= 6; k++) {
    EXPECT_EQ(count_partitions(128, k), table1[static_cast<size_t>(k)]) << "k = " << k;
    EXPECT_EQ(count_partitions_by_dp(128, k), table1[static_cast<size_t>(k)]) << "k = " << k;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_LT(seconds, 10.0); // about 0.2 s in a release build
}

TEST(MemoryConstrainedPartitions, EnumerationOrderAndContents)
{
  // 10 into 3 parts within 2: smallest part 3 (4 3 3), then 2 (4 4 2), nothing with smallest part 1 (it needs a 7).
  std::vector<std::vector<int>> seen;
  for_each_partition(10, 2, 3, [&](const std::vector<int>& parts) {
    seen.push_back(parts);
    return true;
  });
  EXPECT_EQ(seen, (std::vector<std::vector<int>>{{4, 3, 3}, {4, 4, 2}}));
  // k = 0: the divisors; k = 1: one per part count.
  EXPECT_EQ(count_partitions(12, 0), 6);
  EXPECT_EQ(count_partitions(12, 1), 12);
  // Stopping early.
  int visits = 0;
  EXPECT_FALSE(for_each_partition(128, 6, 20, [&](const std::vector<int>&) { return ++visits < 3; }));
  EXPECT_EQ(visits, 3);
}

// ---- HEURISTIC-EPOCH's choices, by hand ----

TEST(MemoryConstrainedHeuristic, DocumentedChoices)
{
  // A job gets max(M_j, L - k), not M_j: N = 16, k = 1, M = [6, 2, 2]: 6, then 5 and 5 (not 2 and 2 spread later).
  EXPECT_EQ(epoch_widths(plan("heuristic-epoch", 16, {6, 2, 2}, 1)), (std::vector<std::vector<int>>{{6, 5, 5}}));
  // A job that does not fit is skipped for the largest that does: k = 2, M = [6, 6, 5, 4]: 6, 6 leave 4 nodes,
  // within 2 of 6; the M = 5 job waits for the next epoch and the M = 4 job takes the 4.
  QuantumSchedule skip = plan("heuristic-epoch", 16, {6, 6, 5, 4}, 2);
  EXPECT_EQ(epoch_widths(skip), (std::vector<std::vector<int>>{{6, 6, 4}, {16}}));
  EXPECT_EQ(epoch_jobs(skip), (std::vector<std::vector<int>>{{0, 1, 3}, {2}}));
  // Left nodes not within k: k = 1, M = [9, 4, 3]: 9 leaves 7 < 9 - 1, so no job fits and the 7 go to the M = 9 job;
  // then 4 and 3 get 4 and 3 (3 = max(3, 4 - 1)), 9 left: 4 each, the odd one to the narrowest: 8, 8.
  EXPECT_EQ(epoch_widths(plan("heuristic-epoch", 16, {9, 4, 3}, 1)), (std::vector<std::vector<int>>{{16}, {8, 8}}));
  // The extra nodes go to the narrowest, ties to the job placed last: M = [5, 5, 5], k = 1: 5, 5, 6.
  EXPECT_EQ(epoch_widths(plan("heuristic-epoch", 16, {5, 5, 5}, 1)), (std::vector<std::vector<int>>{{5, 5, 6}}));
  EXPECT_EQ(epoch_widths(plan("heuristic-epoch", 16, {5, 4, 3}, 2)), (std::vector<std::vector<int>>{{6, 5, 5}}));
  // k = 0: 1 node left over 3 jobs cannot be spread evenly; the last job goes back: 8, 8, then 16.
  EXPECT_EQ(epoch_widths(plan("heuristic-epoch", 16, {5, 5, 5}, 0)), (std::vector<std::vector<int>>{{8, 8}, {16}}));
  // Durations: each job runs 1/J of the quantum.
  QuantumSchedule s = plan("heuristic-epoch", 16, {9, 4, 3}, 1);
  EXPECT_EQ(s.epochs[0].duration, Fraction(1, 3));
  EXPECT_EQ(s.epochs[1].start, Fraction(1, 3));
  EXPECT_EQ(s.epochs[1].duration, Fraction(2, 3));
}

TEST(MemoryConstrainedHybrid, BuddyThenHeuristic)
{
  // J = 7: the four smallest under BUDDY during 4/7 of the quantum, the other three under HEURISTIC-EPOCH(1):
  // 7 then 6 (6 left 3 < 7 - 1), spread: 8, 8; then 5 alone on 16.
  std::vector<int> mins{1, 2, 3, 4, 5, 6, 7};
  QuantumSchedule s = plan("hybrid", 16, mins, 1);
  EXPECT_EQ(width_of_each_job(s, mins.size()), (std::vector<int>{4, 4, 4, 4, 16, 8, 8}));
  EXPECT_EQ(epoch_jobs(s), (std::vector<std::vector<int>>{{6, 5}, {4}}));
  EXPECT_EQ(s.epochs[0].start, Fraction(4, 7));
  // BUDDY*: subsets of 4, 2, 1 (smallest jobs first) in 4/7, 2/7 and 1/7 of the quantum.
  QuantumSchedule star = plan("buddy-star", 16, mins);
  for (const auto& p : star.pieces) {
    Fraction expected_start = p.job < 4 ? Fraction(0) : p.job < 6 ? Fraction(4, 7) : Fraction(6, 7);
    Fraction length = p.job < 4 ? Fraction(4, 7) : p.job < 6 ? Fraction(2, 7) : Fraction(1, 7);
    EXPECT_GE(p.start, expected_start) << "job " << p.job;
    EXPECT_LE(p.start + p.duration, expected_start + length) << "job " << p.job;
  }
  EXPECT_EQ(star.overhead(), 16 + 16 + 16); // each subset: BUDDY with widths N/J_s here
}

// ---- Inputs a policy cannot schedule ----

TEST(MemoryConstrainedInputs, OneLineRefusals)
{
  EXPECT_NE(input_error_of([] { buddy_schedule(16, {1, 2, 3}); }).find("J a power of two"), std::string::npos);
  EXPECT_NE(input_error_of([] { buddy_schedule(12, {1, 2}); }).find("N a power of two"), std::string::npos);
  EXPECT_NE(input_error_of([] { buddy_star_schedule(12, {1, 2, 3}); }).find("N a power of two"), std::string::npos);
  EXPECT_NE(input_error_of([] { hybrid_schedule(24, {1, 2, 3}, 1); }).find("N a power of two"), std::string::npos);
  EXPECT_NE(input_error_of([] { equi_epoch_schedule(16, {4, 17}); }).find("more than the 16"), std::string::npos);
  EXPECT_NE(input_error_of([] { heuristic_epoch_schedule(16, {0}, 1); }).find("at least 1"), std::string::npos);
  EXPECT_NE(input_error_of([] { heuristic_epoch_schedule(16, {3}, -1); }).find("k = -1"), std::string::npos);
  EXPECT_NE(input_error_of([] { opt_epoch_schedule(16, {3, 4}, 2); }).find("k <= 1"), std::string::npos);
  EXPECT_NE(input_error_of([] { memory_constrained_policy("buddies"); }).find("known: buddy"), std::string::npos);
  // A bounded search that runs out says so.
  OptEpochOptions tiny;
  tiny.max_partitions_examined = 3;
  EXPECT_NE(input_error_of([&] { opt_epoch_schedule(140, std::vector<int>(20, 10), 0, tiny); }).find("more than 3"),
            std::string::npos);
  // With a bound, k > 1 runs.
  OptEpochOptions bounded;
  bounded.max_partitions_examined = 1'000'000;
  EXPECT_EQ(plan("opt-epoch", 16, {5, 4, 3, 3}, 2, bounded).epochs.size(), 1u);
  // No jobs: an empty schedule.
  for (const auto& p : memory_constrained_policies())
    EXPECT_EQ(plan(p.name, 16, {}).overhead(), 0) << p.name;
}

TEST(MemoryConstrainedValidator, CatchesBrokenSchedules)
{
  std::vector<int> mins{2, 2};
  QuantumSchedule good;
  good.nodes = 4;
  good.pieces = {Piece{0, 0, 2, Fraction(0), Fraction(1)}, Piece{1, 2, 2, Fraction(0), Fraction(1)}};
  good.epochs = {Epoch{Fraction(0), Fraction(1), {0, 1}}};
  SchedulePromises all{true, 0, true};
  EXPECT_TRUE(validate(good, 4, mins, all).empty());

  auto problems_with = [&](auto change, SchedulePromises promises) {
    QuantumSchedule s = good;
    change(s);
    return validate(s, 4, mins, promises).size();
  };
  EXPECT_GT(problems_with([](QuantumSchedule& s) { s.pieces[1].first_node = 1; }, {}), 0u);            // overlap
  EXPECT_GT(problems_with([](QuantumSchedule& s) { s.pieces[1].width = 1; }, {}), 0u);                 // below M_j
  EXPECT_GT(problems_with([](QuantumSchedule& s) { s.pieces[1].job = 0; }, {}), 0u);                   // job 0 twice
  EXPECT_GT(problems_with([](QuantumSchedule& s) { s.pieces[0].first_node = 3; }, {}), 0u);            // outside
  EXPECT_GT(problems_with([](QuantumSchedule& s) { s.pieces[0].duration = Fraction(1, 2); }, {}), 0u); // idle
  // Unequal areas, widths 3 and 1 apart: only the promises object.
  QuantumSchedule unequal;
  unequal.nodes = 4;
  unequal.pieces = {Piece{0, 0, 3, Fraction(0), Fraction(1)}, Piece{1, 3, 1, Fraction(0), Fraction(1)}};
  unequal.epochs = {Epoch{Fraction(0), Fraction(1), {0, 1}}};
  EXPECT_TRUE(validate(unequal, 4, {1, 1}, {}).empty());
  EXPECT_EQ(validate(unequal, 4, {1, 1}, SchedulePromises{false, 1, false}).size(), 1u); // inequity 2 > 1
  EXPECT_EQ(validate(unequal, 4, {1, 1}, SchedulePromises{true, {}, false}).size(), 2u); // areas 3 and 1, not 2
  // An epoch whose widths do not sum to N, and a piece outside every epoch.
  QuantumSchedule short_epoch = good;
  short_epoch.epochs[0].pieces = {0};
  EXPECT_EQ(validate(short_epoch, 4, mins, {}).size(), 1u);
  EXPECT_EQ(validate(short_epoch, 4, mins, SchedulePromises{false, {}, true}).size(), 2u);
}

// ---- Against brute force on small random instances ----

TEST(MemoryConstrainedBruteForce, BuddyIsOptimalAmongPowerOfTwoEqualAreaSchedules)
{
  std::mt19937 random(1994);
  int checked = 0;
  for (int nodes : {1, 2, 4, 8, 16, 32})
    for (int job_count : {1, 2, 4, 8}) {
      std::uniform_int_distribution<int> min_of(1, nodes);
      for (int trial = 0; trial < 25; trial++) {
        std::vector<int> mins(static_cast<size_t>(job_count));
        for (int& m : mins)
          m = min_of(random);
        QuantumSchedule s = plan("buddy", nodes, mins);
        for (const auto& p : s.pieces)
          EXPECT_TRUE(pow2(p.width));
        EXPECT_EQ(s.overhead(), best_power_of_two_overhead(nodes, mins))
            << "N = " << nodes << ", M = " << ::testing::PrintToString(mins);
        checked++;
      }
    }
  EXPECT_EQ(checked, 6 * 4 * 25);
}

TEST(MemoryConstrainedBruteForce, EquiEpochEqualsOptEpochZeroWhenNIsAPowerOfTwo)
{
  std::mt19937 random(2);
  for (int trial = 0; trial < 400; trial++) {
    int nodes = 1 << std::uniform_int_distribution<int>(0, 6)(random);
    int job_count = std::uniform_int_distribution<int>(1, 9)(random);
    std::uniform_int_distribution<int> min_of(1, nodes);
    std::vector<int> mins(static_cast<size_t>(job_count));
    for (int& m : mins)
      m = min_of(random);
    size_t equi = plan("equi-epoch", nodes, mins).epochs.size();
    size_t opt = plan("opt-epoch", nodes, mins, 0).epochs.size();
    EXPECT_EQ(equi, opt) << "N = " << nodes << ", M = " << ::testing::PrintToString(mins);
    if (job_count <= 7 && nodes <= 16) {
      EXPECT_EQ(static_cast<int>(opt), fewest_epochs(nodes, mins, 0))
          << "N = " << nodes << ", M = " << ::testing::PrintToString(mins);
    }
  }
}

TEST(MemoryConstrainedBruteForce, OptEpochHasTheFewestEpochs)
{
  std::mt19937 random(3);
  OptEpochOptions bounded;
  bounded.max_partitions_examined = 10'000'000;
  for (int trial = 0; trial < 3000; trial++) {
    int nodes = std::uniform_int_distribution<int>(1, 30)(random);
    int job_count = std::uniform_int_distribution<int>(1, 9)(random);
    int k = std::uniform_int_distribution<int>(0, 3)(random);
    // Small minimums, so that epochs can hold several jobs.
    std::uniform_int_distribution<int> min_of(1, std::max(1, nodes / std::uniform_int_distribution<int>(1, 4)(random)));
    std::vector<int> mins(static_cast<size_t>(job_count));
    for (int& m : mins)
      m = min_of(random);
    int best = fewest_epochs(nodes, mins, k);
    QuantumSchedule opt = plan("opt-epoch", nodes, mins, k, bounded);
    EXPECT_EQ(static_cast<int>(opt.epochs.size()), best)
        << "N = " << nodes << ", k = " << k << ", M = " << ::testing::PrintToString(mins);
    EXPECT_EQ(opt.overhead(), static_cast<long long>(best) * nodes);
    EXPECT_GE(opt.assignments_tested, static_cast<long long>(opt.epochs.size()));
    // The heuristic is never better than the optimum; EQUI-EPOCH never better than OPT-EPOCH(0).
    EXPECT_GE(static_cast<int>(plan("heuristic-epoch", nodes, mins, k).epochs.size()), best);
    if (k == 0) {
      EXPECT_GE(static_cast<int>(plan("equi-epoch", nodes, mins).epochs.size()), best);
    }
  }
}

/* The pieces as (job, first node, width, start, duration), to compare two schedules whole. */
std::vector<std::tuple<int, int, int, Fraction, Fraction>> pieces_of(const QuantumSchedule& s)
{
  std::vector<std::tuple<int, int, int, Fraction, Fraction>> pieces;
  for (const auto& p : s.pieces)
    pieces.emplace_back(p.job, p.first_node, p.width, p.start, p.duration);
  return pieces;
}

// A memo kept across calls (the dynamic scheduler's: jobs arrive and depart, N and k change between sequences, which
// empties it) and its pruning by lower bound give every time the schedule a fresh search gives, and the fewest epochs
// by brute force while there are few jobs.
TEST(MemoryConstrainedBruteForce, OptEpochMemoKeptAcrossCallsGivesTheFreshSchedule)
{
  std::mt19937 random(5);
  OptEpochOptions fresh;
  fresh.max_partitions_examined = 10'000'000;
  OptEpochOptions kept = fresh;
  kept.memo = std::make_shared<OptEpochMemo>();
  int memo_hits = 0; // calls that found their whole job set solved by an earlier call
  for (int sequence = 0; sequence < 150; sequence++) {
    int nodes = std::uniform_int_distribution<int>(1, 40)(random);
    int k = std::uniform_int_distribution<int>(0, 2)(random);
    std::uniform_int_distribution<int> min_of(1, std::max(1, nodes / std::uniform_int_distribution<int>(1, 5)(random)));
    std::vector<int> mins;
    for (int step = 0; step < 30; step++) {
      if (!mins.empty() && std::uniform_int_distribution<int>(0, 9)(random) < 4)
        mins.erase(mins.begin() + std::uniform_int_distribution<long>(0, static_cast<long>(mins.size()) - 1)(random));
      else if (mins.size() < 14)
        mins.push_back(min_of(random));
      QuantumSchedule expected = plan("opt-epoch", nodes, mins, k, fresh);
      QuantumSchedule got = plan("opt-epoch", nodes, mins, k, kept);
      if (!mins.empty() && got.assignments_tested == 0) memo_hits++;
      ASSERT_EQ(pieces_of(got), pieces_of(expected))
          << "N = " << nodes << ", k = " << k << ", M = " << ::testing::PrintToString(mins);
      if (mins.size() <= 9) {
        EXPECT_EQ(static_cast<int>(got.epochs.size()), fewest_epochs(nodes, mins, k))
            << "N = " << nodes << ", k = " << k << ", M = " << ::testing::PrintToString(mins);
      }
    }
  }
  EXPECT_GT(memo_hits, 100); // the memo was used across calls, not only within each
}

// The search's lower bounds against the brute force's fewest epochs: never above them, and at k = 1 the covering bound
// equals them up to its limit (and is the limit plus one past it).
TEST(MemoryConstrainedBruteForce, EpochLowerBoundsNeverExceedTheFewestEpochs)
{
  std::mt19937 random(7);
  int exact_above_quick = 0; // k = 1 cases where the covering bound is tighter than the quick one
  for (int trial = 0; trial < 3000; trial++) {
    int nodes = std::uniform_int_distribution<int>(1, 40)(random);
    int job_count = std::uniform_int_distribution<int>(1, 9)(random);
    int k = std::uniform_int_distribution<int>(0, 2)(random);
    std::uniform_int_distribution<int> min_of(1, std::max(1, nodes / std::uniform_int_distribution<int>(1, 6)(random)));
    std::vector<int> mins(static_cast<size_t>(job_count));
    for (int& m : mins)
      m = min_of(random);
    std::sort(mins.begin(), mins.end(), std::greater<>());
    const int best = fewest_epochs(nodes, mins, k);
    const EpochLowerBound bounds(nodes, k);
    const auto where = [&] {
      return "N = " + std::to_string(nodes) + ", k = " + std::to_string(k) + ", M = " + ::testing::PrintToString(mins);
    };
    EXPECT_LE(bounds.quick(mins), best) << where();
    for (int limit = 0; limit <= best + 1; limit++) {
      if (k == 1) {
        EXPECT_EQ(bounds.within(mins, limit), std::max(bounds.quick(mins), std::min(best, limit + 1))) << where();
      } else {
        EXPECT_EQ(bounds.within(mins, limit), bounds.quick(mins)) << where();
      }
    }
    if (k == 1 && bounds.quick(mins) < best) exact_above_quick++;
  }
  EXPECT_GT(exact_above_quick, 10); // the cases this bound is for were drawn
}

// Past its bound, the memo is emptied at the next call: it then holds that call's sets alone.
TEST(MemoryConstrainedUnits, OptEpochMemoEmptiedPastItsBound)
{
  const std::vector<int> first{9, 7, 5, 4, 3, 3, 2, 1};
  const std::vector<int> second{8, 6, 6, 5, 2, 2, 1};
  OptEpochOptions alone;
  alone.memo = std::make_shared<OptEpochMemo>();
  opt_epoch_schedule(24, second, 1, alone);
  const size_t second_alone = alone.memo->size();
  ASSERT_GT(second_alone, 1u);

  OptEpochOptions bounded;
  bounded.memo = std::make_shared<OptEpochMemo>(1);
  opt_epoch_schedule(24, first, 1, bounded);
  const size_t first_alone = bounded.memo->size();
  ASSERT_GT(first_alone, 1u); // past the bound of 1: emptied at the next call
  opt_epoch_schedule(24, second, 1, bounded);
  EXPECT_EQ(bounded.memo->size(), second_alone);

  // Within its bound it keeps both calls' sets; another N empties it.
  OptEpochOptions roomy;
  roomy.memo = std::make_shared<OptEpochMemo>(1000);
  opt_epoch_schedule(24, first, 1, roomy);
  opt_epoch_schedule(24, second, 1, roomy);
  EXPECT_GT(roomy.memo->size(), second_alone);
  opt_epoch_schedule(25, second, 1, roomy);
  OptEpochOptions other_n;
  other_n.memo = std::make_shared<OptEpochMemo>();
  opt_epoch_schedule(25, second, 1, other_n);
  EXPECT_EQ(roomy.memo->size(), other_n.memo->size());
}

TEST(MemoryConstrainedBruteForce, EveryPolicyValidOnRandomInputs)
{
  std::mt19937 random(4);
  for (int trial = 0; trial < 300; trial++) {
    int nodes = 1 << std::uniform_int_distribution<int>(0, 7)(random);
    int job_count = std::uniform_int_distribution<int>(1, 20)(random);
    int k = std::uniform_int_distribution<int>(0, 1)(random);
    // The paper's workload shape (Table 3), load factor 100%: M_j uniform on 1 .. 2N/J - 1, clipped to [1, N].
    int top = std::clamp(2 * nodes / job_count - 1, 1, nodes);
    std::uniform_int_distribution<int> min_of(1, top);
    std::vector<int> mins(static_cast<size_t>(job_count));
    for (int& m : mins)
      m = min_of(random);
    plan("buddy-star", nodes, mins);
    plan("hybrid", nodes, mins, k);
    plan("equi-epoch", nodes, mins);
    plan("opt-epoch", nodes, mins, k);
    plan("heuristic-epoch", nodes, mins, k);
    if (pow2(job_count)) plan("buddy", nodes, mins);
    // Any N for the epoch policies.
    int other_nodes = std::uniform_int_distribution<int>(nodes, 3 * nodes)(random);
    plan("equi-epoch", other_nodes, mins);
    plan("opt-epoch", other_nodes, mins, k);
    plan("heuristic-epoch", other_nodes, mins, k);
  }
}

/* BUDDY as it was computed before its heights became integers (plugin/policies/memory_constrained/buddy.cpp): every
 * time a boost::rational, the frontier rebuilt after each piece. The second method the integer form is checked
 * against. */
namespace rational_buddy {

struct Segment {
  int first_node;
  int width;
  Fraction height;
};

std::vector<Piece> pieces(int nodes, const std::vector<int>& mins, const std::vector<int>& jobs)
{
  const Fraction share(nodes, static_cast<long long>(jobs.size()));
  std::vector<Segment> frontier{{0, nodes, Fraction(0)}};
  std::vector<Piece> out;
  for (int job : detail::jobs_by_decreasing_min(mins, jobs)) {
    int min_seg = -1;
    int min_seg_exponent = -1;
    bool tie = false;
    for (size_t i = 0; i < frontier.size(); i++) {
      if (frontier[i].height >= Fraction(1)) continue;
      int exponent = 0;
      for (long long d = frontier[i].height.denominator(); d > 1; d /= 2)
        exponent++;
      if (exponent > min_seg_exponent) {
        min_seg = static_cast<int>(i);
        min_seg_exponent = exponent;
        tie = false;
      } else if (exponent == min_seg_exponent) {
        tie = true;
      }
    }
    if (min_seg < 0 || tie) throw PolicyError("no unique min-seg");
    Segment& seg = frontier[static_cast<size_t>(min_seg)];
    Fraction forced = share * Fraction(1LL << min_seg_exponent);
    Fraction width = std::max(Fraction(ceil_power_of_two(mins[static_cast<size_t>(job)])), forced);
    Fraction height = share / width;
    if (width.denominator() != 1 || width > Fraction(seg.width) || seg.height + height > Fraction(1))
      throw PolicyError("does not fit");
    int w = static_cast<int>(width.numerator());
    out.push_back(Piece{job, seg.first_node, w, seg.height, height});
    Segment raised{seg.first_node, w, seg.height + height};
    Segment rest{seg.first_node + w, seg.width - w, seg.height};
    auto at = frontier.begin() + min_seg;
    at = frontier.erase(at);
    if (rest.width > 0) at = frontier.insert(at, rest);
    frontier.insert(at, raised);
    std::vector<Segment> merged;
    for (const auto& s : frontier)
      if (!merged.empty() && merged.back().height == s.height)
        merged.back().width += s.width;
      else
        merged.push_back(s);
    frontier = std::move(merged);
  }
  return out;
}

void append(QuantumSchedule& schedule, const std::vector<int>& mins, const std::vector<int>& jobs, Fraction start,
            Fraction length)
{
  for (Piece p : pieces(schedule.nodes, mins, jobs)) {
    p.start = start + p.start * length;
    p.duration *= length;
    schedule.pieces.push_back(p);
  }
}

QuantumSchedule buddy(int nodes, const std::vector<int>& mins)
{
  QuantumSchedule schedule;
  schedule.nodes = nodes;
  append(schedule, mins, detail::all_jobs(mins), Fraction(0), Fraction(1));
  return schedule;
}

QuantumSchedule buddy_star(int nodes, const std::vector<int>& mins)
{
  QuantumSchedule schedule;
  schedule.nodes = nodes;
  const long long job_count = static_cast<long long>(mins.size());
  std::vector<int> increasing = detail::jobs_by_increasing_min(mins, detail::all_jobs(mins));
  size_t next = 0;
  Fraction start(0);
  for (int bit = 62; bit >= 0; bit--) {
    long long subset_size = 1LL << bit;
    if ((job_count & subset_size) == 0) continue;
    std::vector<int> subset(increasing.begin() + static_cast<long>(next),
                            increasing.begin() + static_cast<long>(next + static_cast<size_t>(subset_size)));
    next += static_cast<size_t>(subset_size);
    Fraction length(subset_size, job_count);
    append(schedule, mins, subset, start, length);
    start += length;
  }
  return schedule;
}

QuantumSchedule hybrid(int nodes, const std::vector<int>& mins, int k)
{
  QuantumSchedule schedule;
  schedule.nodes = nodes;
  const long long job_count = static_cast<long long>(mins.size());
  long long buddy_count = 1;
  while (buddy_count * 2 <= job_count)
    buddy_count *= 2;
  std::vector<int> increasing = detail::jobs_by_increasing_min(mins, detail::all_jobs(mins));
  std::vector<int> smallest(increasing.begin(), increasing.begin() + static_cast<long>(buddy_count));
  std::vector<int> others(increasing.begin() + static_cast<long>(buddy_count), increasing.end());
  Fraction buddy_length(buddy_count, job_count);
  append(schedule, mins, smallest, Fraction(0), buddy_length);
  if (!others.empty())
    detail::append_epochs(schedule, detail::heuristic_epochs(nodes, mins, others, k), buddy_length,
                          static_cast<int>(job_count));
  return schedule;
}

} // namespace rational_buddy

/* The same schedule, piece by piece and epoch by epoch, rationals compared exactly; or both refuse the input (a
 * piece that does not fit above the min-seg: BUDDY is not defined for every set of minimums). Returns whether a
 * schedule was compared. */
bool expect_same_schedule(const std::function<QuantumSchedule()>& integer_form,
                          const std::function<QuantumSchedule()>& rational_form, const std::string& what)
{
  std::optional<QuantumSchedule> integer, rational;
  try {
    integer = integer_form();
  } catch (const PolicyError&) {
  }
  try {
    rational = rational_form();
  } catch (const PolicyError&) {
  }
  EXPECT_EQ(integer.has_value(), rational.has_value()) << what;
  if (!integer || !rational) return false;
  EXPECT_EQ(integer->nodes, rational->nodes) << what;
  EXPECT_EQ(integer->pieces.size(), rational->pieces.size()) << what;
  for (size_t i = 0; i < std::min(integer->pieces.size(), rational->pieces.size()); i++) {
    const Piece& a = integer->pieces[i];
    const Piece& b = rational->pieces[i];
    EXPECT_TRUE(a.job == b.job && a.first_node == b.first_node && a.width == b.width && a.start == b.start &&
                a.duration == b.duration)
        << what << ": piece " << i << " (job " << a.job << " at " << a.start << " for " << a.duration << ", job "
        << b.job << " at " << b.start << " for " << b.duration << ")";
  }
  EXPECT_EQ(integer->epochs.size(), rational->epochs.size()) << what;
  for (size_t e = 0; e < std::min(integer->epochs.size(), rational->epochs.size()); e++)
    EXPECT_TRUE(integer->epochs[e].start == rational->epochs[e].start &&
                integer->epochs[e].duration == rational->epochs[e].duration &&
                integer->epochs[e].pieces == rational->epochs[e].pieces)
        << what << ": epoch " << e;
  return true;
}

/* BUDDY, BUDDY* and HYBRID in integers (heights counted in 1/J) give exactly the pieces of the rational form above,
 * on random machines of 1 to 16,384 nodes and 1 to 300 jobs whose minimums are drawn three ways: the paper's (1 ..
 * 2N/J - 1), any size (1 .. N), and mostly one node (so that forced widths (N/J) 2^x below one node occur). */
TEST(MemoryConstrainedBuddy, IntegerHeightsEqualRationalOnes)
{
  std::mt19937 random(23);
  int compared = 0; // schedules (the others: inputs both forms refuse)
  for (int trial = 0; trial < 3000; trial++) {
    const int nodes = 1 << std::uniform_int_distribution<int>(0, 14)(random);
    const int job_count = std::uniform_int_distribution<int>(1, trial % 10 == 0 ? 300 : 40)(random);
    const int k = std::uniform_int_distribution<int>(0, 3)(random);
    int top = nodes;
    if (trial % 3 == 0) top = std::clamp(2 * nodes / job_count - 1, 1, nodes);
    if (trial % 3 == 1) top = std::min(nodes, 2);
    std::uniform_int_distribution<int> min_of(1, top);
    std::vector<int> mins(static_cast<size_t>(job_count));
    for (int& m : mins)
      m = min_of(random);
    const std::string what = "N = " + std::to_string(nodes) + ", J = " + std::to_string(job_count);
    compared += expect_same_schedule([&] { return buddy_star_schedule(nodes, mins); },
                                     [&] { return rational_buddy::buddy_star(nodes, mins); }, "buddy-star, " + what);
    compared += expect_same_schedule([&] { return hybrid_schedule(nodes, mins, k); },
                                     [&] { return rational_buddy::hybrid(nodes, mins, k); }, "hybrid, " + what);
    if (pow2(job_count))
      compared += expect_same_schedule([&] { return buddy_schedule(nodes, mins); },
                                       [&] { return rational_buddy::buddy(nodes, mins); }, "buddy, " + what);
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_GT(compared, 5000);
}

/* With min_nodes: memory a job's minimum is the nodes its memory fills, but never fewer than its own min_size: eight
 * malleable jobs of 100 KB per processor on 4 processors (1 node of 1 MB each) with min_size 3 on 8 nodes, each quantum
 * scheduler planned at instants through two quanta: every job given processors gets at least 3 (the memory alone
 * would allow 1 and made the schedulers give 1 or 2 when eight share the machine). */
TEST(MemoryConstrainedPolicy, MemoryMinimumNeverBelowTheJobsOwn)
{
  for (const std::string scheduler : {"buddy", "buddy-star", "hybrid", "equi-epoch", "opt-epoch", "heuristic-epoch"}) {
    jobsched::testing::TimeSharingBench bench(
        8, "memory-constrained",
        {{"policy", scheduler}, {"min_nodes", "memory"}, {"node_memory_mb", "1"}, {"quantum", "10"}});
    for (JobId id = 1; id <= 8; id++) {
      Job j;
      j.id = id;
      j.submit_time = 0;
      j.shape = JobShape::malleable;
      j.size = 4;
      j.min_size = 3;
      j.max_size = 8;
      j.memory_kb = 100;
      bench.submit(j, 0);
    }
    size_t given = 0;
    for (double t = 0; t < 20; t += 0.25) {
      const Plan plan = bench.plan(t);
      for (const auto& [id, processors] : plan.run) {
        EXPECT_GE(processors.count(), 3) << scheduler << ": job " << id << " at " << t;
        given++;
      }
    }
    EXPECT_GT(given, 20U) << scheduler;
  }
}

/* The plans memory-constrained builds in the map of the plans handed back (reuse_plan: the jobs of both keep their
 * nodes, the others' nodes are taken out and reused) equal those it builds in new maps: two policies of each quantum
 * scheduler given the same random arrivals (malleable jobs, minimums 1 to 16 of 32 processors), departures and
 * instants (quantum boundaries and instants inside quanta), one handed its plans back, the other not. */
TEST(MemoryConstrainedPolicy, PlansInReusedMapsEqualNewOnes)
{
  for (const std::string scheduler : {"buddy", "equi-epoch", "opt-epoch", "hybrid"}) {
    const std::map<std::string, std::string> values{{"policy", scheduler}, {"min_nodes", "size"}};
    jobsched::testing::TimeSharingBench reused(32, "memory-constrained", values);
    jobsched::testing::TimeSharingBench fresh(32, "memory-constrained", values);
    std::mt19937_64 random(5);
    std::vector<JobId> in_system;
    JobId next_id = 1;
    double t = 0;
    size_t jobs_planned = 0;
    size_t changes = 0; // plans whose jobs differ from the last plan's
    std::map<JobId, ResourceSet> last;
    for (int k = 0; k < 2000; k++) {
      t += random() % 2 == 0 ? 10.0 : 0.25 * static_cast<double>(1 + random() % 39);
      if (!in_system.empty() && random() % 5 == 0) {
        const size_t i = random() % in_system.size();
        reused.end(in_system[i], t);
        fresh.end(in_system[i], t);
        in_system.erase(in_system.begin() + static_cast<long>(i));
      }
      if (random() % 4 == 0 && in_system.size() < 12) {
        Job j;
        j.id = next_id++;
        j.submit_time = t;
        j.shape = JobShape::malleable;
        j.size = 1 + static_cast<int>(random() % 16);
        j.min_size = 1;
        j.max_size = 32;
        reused.submit(j, t);
        fresh.submit(j, t);
        in_system.push_back(j.id);
      }
      Plan a = reused.plan(t);
      Plan b = fresh.plan(t);
      ASSERT_EQ(a.run, b.run) << scheduler << " at " << t;
      ASSERT_EQ(a.until, b.until) << scheduler << " at " << t;
      jobs_planned += a.run.size();
      bool same_jobs = a.run.size() == last.size();
      for (auto x = a.run.begin(), y = last.begin(); same_jobs && x != a.run.end(); ++x, ++y)
        same_jobs = x->first == y->first;
      changes += same_jobs ? 0 : 1;
      last = a.run;
      reused.reuse(std::move(a));
    }
    EXPECT_GT(jobs_planned, 2000U) << scheduler;
    EXPECT_GT(changes, 300U) << scheduler << ": plans that take nodes out and reuse them";
  }
}

/* Cycle::position(now, hint) is position(now) to the bit whatever the hint, right or wrong: random cycles (origins,
 * periods, 1 to 40 boundaries, some of them sums of fractions such as the policy's), at instants landing on
 * boundaries (origin + (q + b) x period, as a replay reaches them; a fifth of the cycles with fractions equal to
 * boundaries exactly), just around them and anywhere. */
TEST(MemoryConstrainedPolicy, CyclePositionWithHintEqualsSearch)
{
  std::mt19937_64 random(29);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  long hits = 0;   // hints that held
  long checks = 0; // instants x hints compared
  for (int trial = 0; trial < 400; trial++) {
    Cycle cycle;
    cycle.origin = 1e6 * unit(random);
    cycle.period = trial % 2 == 0 ? 10.0 : 0.5 + 100 * unit(random);
    cycle.epsilon = 1e-9 / cycle.period;
    if (trial % 5 == 0) { // fractions equal to boundaries exactly: origin 0, period 1, no tolerance, quantum 0
      cycle.origin = 0;
      cycle.period = 1;
      cycle.epsilon = 0;
    }
    cycle.boundaries = {0.0, 1.0};
    const int inner = static_cast<int>(random() % 40);
    const long long denominator = 1 + static_cast<long long>(random() % 64);
    for (int b = 0; b < inner; b++)
      cycle.boundaries.push_back(b % 2 == 0 ? static_cast<double>(1 + random() % denominator) /
                                                  static_cast<double>(denominator + 1)
                                            : unit(random));
    std::sort(cycle.boundaries.begin(), cycle.boundaries.end());
    cycle.boundaries.erase(std::unique(cycle.boundaries.begin(), cycle.boundaries.end()), cycle.boundaries.end());
    cycle.phases.resize(cycle.boundaries.size());
    for (int k = 0; k < 60; k++) {
      const double q = trial % 5 == 0 ? 0.0 : static_cast<double>(random() % 1000);
      const double b = cycle.boundaries[random() % cycle.boundaries.size()];
      double now = cycle.origin + (q + b) * cycle.period;
      if (k % 3 == 1) now = std::nextafter(now, k % 2 == 0 ? 0.0 : 1e300);
      if (k % 3 == 2) now = cycle.origin + (q + unit(random)) * cycle.period;
      const Cycle::Position searched = cycle.position(now);
      for (size_t hint = 0; hint <= cycle.boundaries.size(); hint++) {
        const Cycle::Position hinted = cycle.position(now, hint);
        ASSERT_TRUE(hinted.phase == searched.phase && hinted.quantum == searched.quantum &&
                    hinted.next == searched.next && hinted.fraction == searched.fraction)
            << "trial " << trial << ", now " << now << ", hint " << hint;
        hits += hint == searched.phase;
        checks++;
      }
    }
  }
  EXPECT_GT(hits, 20000);
  EXPECT_GT(checks, 300000);
}

/* The cycle a schedule declares (Plan::cycle) lists in each phase exactly the jobs plan() runs inside that phase, on
 * the same processors: random arrivals (ids in random order, so that submission order is not id order) and departures
 * on 64 processors under BUDDY (BUDDY* for J not a power of two), BUDDY*, HYBRID and EQUI-EPOCH, each phase checked at
 * its middle. */
TEST(MemoryConstrainedPolicy, CyclePhasesAreThePlansInsideThem)
{
  for (const std::string scheduler : {"buddy", "buddy-star", "hybrid", "equi-epoch"}) {
    jobsched::testing::TimeSharingBench bench(64, "memory-constrained",
                                              {{"policy", scheduler}, {"min_nodes", "size"}, {"quantum", "10"}});
    std::mt19937_64 random(31);
    std::vector<JobId> in_system;
    std::vector<JobId> unused_ids(400);
    std::iota(unused_ids.begin(), unused_ids.end(), 1);
    std::shuffle(unused_ids.begin(), unused_ids.end(), random);
    double t = 0;
    size_t phases_checked = 0;
    for (int k = 0; k < 300 && !unused_ids.empty(); k++) {
      t += 1.0 + static_cast<double>(random() % 50);
      if (!in_system.empty() && random() % 3 == 0) {
        const size_t i = random() % in_system.size();
        bench.end(in_system[i], t);
        in_system.erase(in_system.begin() + static_cast<long>(i));
      }
      if (random() % 3 != 0 && in_system.size() < 20) {
        Job j;
        j.id = unused_ids.back();
        unused_ids.pop_back();
        j.submit_time = t;
        j.shape = JobShape::malleable;
        j.size = 1 + static_cast<int>(random() % 8);
        j.min_size = 1;
        j.max_size = 64;
        bench.submit(j, t);
        in_system.push_back(j.id);
      }
      const Plan first = bench.plan(t);
      if (!first.cycle) continue;
      const std::shared_ptr<const Cycle> cycle = first.cycle;
      const double quantum = std::floor((t - cycle->origin) / cycle->period) + 1;
      for (size_t p = 0; p + 1 < cycle->boundaries.size(); p++) {
        const double middle = (cycle->boundaries[p] + cycle->boundaries[p + 1]) / 2;
        const Plan inside = bench.plan(cycle->origin + (quantum + middle) * cycle->period);
        std::map<JobId, ResourceSet> listed;
        for (const auto& [id, where] : cycle->phases[p])
          listed.emplace(id, *where);
        ASSERT_EQ(listed.size(), cycle->phases[p].size()) << scheduler << ": a job twice in phase " << p;
        ASSERT_EQ(listed, inside.run) << scheduler << " at " << t << ", phase " << p;
        ASSERT_TRUE(std::is_sorted(cycle->phases[p].begin(), cycle->phases[p].end(),
                                   [](const auto& a, const auto& b) { return a.first < b.first; }));
        phases_checked++;
      }
      t = cycle->origin + (quantum + 1) * cycle->period; // the next events come after the phases looked at
    }
    EXPECT_GT(phases_checked, 500U) << scheduler;
  }
}

/* The cycle a schedule declares is the schedule's pieces, worked out here apart from the policy: the same quantum
 * scheduler called on the jobs' minimums (submission order), the boundaries every distinct start and end as a double
 * (sorted, with 0 and 1), and phase p listing the jobs whose piece has start <= b_p < end, compared as exact rationals,
 * on the piece's first min(width, max_size) processors. Random arrivals (many jobs of equal size, so that many pieces
 * share a start and an end) and departures on 64 processors under BUDDY (BUDDY* for J not a power of two), BUDDY*,
 * HYBRID and EQUI-EPOCH. The policy finds a piece's phases by remembering the last start and end it looked up. */
TEST(MemoryConstrainedPolicy, CycleIsTheSchedulesPieces)
{
  for (const std::string scheduler : {"buddy", "buddy-star", "hybrid", "equi-epoch"}) {
    jobsched::testing::TimeSharingBench bench(64, "memory-constrained",
                                              {{"policy", scheduler}, {"min_nodes", "size"}, {"quantum", "10"}});
    std::mt19937_64 random(41);
    std::vector<Job> in_system; // in submission order
    JobId next_id = 1;
    double t = 0;
    size_t cycles = 0, shared_spans = 0;
    for (int k = 0; k < 400; k++) {
      t += 1.0 + static_cast<double>(random() % 20);
      if (!in_system.empty() && random() % 3 == 0) {
        const size_t i = random() % in_system.size();
        bench.end(in_system[i].id, t);
        in_system.erase(in_system.begin() + static_cast<long>(i));
      }
      if (random() % 3 != 0 && in_system.size() < 24) {
        Job j;
        j.id = next_id++;
        j.submit_time = t;
        j.shape = JobShape::malleable;
        j.size = random() % 2 == 0 ? 1 + static_cast<int>(random() % 8) : 2;
        j.min_size = 1;
        j.max_size = j.size + static_cast<int>(random() % 20);
        bench.submit(j, t);
        in_system.push_back(j);
      }
      const Plan plan = bench.plan(t);
      if (!plan.cycle) continue;
      std::vector<int> mins;
      for (const Job& j : in_system)
        mins.push_back(j.size);
      const bool power_of_two = is_power_of_two(static_cast<long long>(mins.size()));
      const QuantumSchedule schedule =
          memory_constrained_policy(scheduler == "buddy" && !power_of_two ? "buddy-star" : scheduler)
              .plan(64, mins, PlanOptions{});
      std::vector<double> boundaries{0.0, 1.0};
      for (const Piece& piece : schedule.pieces) {
        boundaries.push_back(boost::rational_cast<double>(piece.start));
        boundaries.push_back(boost::rational_cast<double>(piece.start + piece.duration));
      }
      std::sort(boundaries.begin(), boundaries.end());
      boundaries.erase(std::unique(boundaries.begin(), boundaries.end()), boundaries.end());
      ASSERT_EQ(plan.cycle->boundaries, boundaries) << scheduler << " at " << t;
      ASSERT_EQ(plan.cycle->phases.size(), boundaries.size()) << scheduler << " at " << t;
      for (size_t p = 0; p + 1 < boundaries.size(); p++) {
        // b_p as a rational: the start or end it came from.
        std::optional<Fraction> at;
        for (const Piece& piece : schedule.pieces) {
          if (boost::rational_cast<double>(piece.start) == boundaries[p]) at = piece.start;
          if (boost::rational_cast<double>(piece.start + piece.duration) == boundaries[p])
            at = piece.start + piece.duration;
        }
        if (p == 0) at = Fraction(0);
        ASSERT_TRUE(at.has_value());
        std::map<JobId, ResourceSet> expected;
        for (const Piece& piece : schedule.pieces)
          if (piece.start <= *at && *at < piece.start + piece.duration) {
            const Job& j = in_system[static_cast<size_t>(piece.job)];
            ResourceSet where(64);
            where.add_range(piece.first_node, std::min(piece.width, j.max_size));
            expected[j.id] = where;
          }
        std::map<JobId, ResourceSet> listed;
        for (const auto& [id, where] : plan.cycle->phases[p])
          listed.emplace(id, *where);
        ASSERT_EQ(listed, expected) << scheduler << " at " << t << ", phase " << p;
      }
      ASSERT_TRUE(plan.cycle->phases.back().empty());
      for (size_t i = 1; i < schedule.pieces.size(); i++)
        shared_spans += schedule.pieces[i].start == schedule.pieces[i - 1].start &&
                        schedule.pieces[i].duration == schedule.pieces[i - 1].duration;
      cycles++;
    }
    EXPECT_GT(cycles, 100U) << scheduler;
    EXPECT_GT(shared_spans, 100U) << scheduler;
  }
}

/* A schedule rebuilt at an arrival or departure from what the policy kept of the jobs that stayed (their ids, minimums
 * and largest widths, carried from one schedule to the next) equals the schedule of a new policy given the same jobs:
 * random arrivals (ids in random order, sizes and largest sizes drawn, so that minimums and widths differ from job to
 * job) and departures on 64 processors under BUDDY, BUDDY*, HYBRID and EQUI-EPOCH; at each event the long-lived
 * policy's plan and every phase of its cycle against a new policy's, the jobs submitted to it in the same order. The
 * cycle of the event before the last is held meanwhile (as the driver holds the last one it tried): the policy, which
 * fills its old cycles again for new schedules, leaves it as it was. */
TEST(MemoryConstrainedPolicy, SchedulesFromKeptJobFactsEqualNewOnes)
{
  for (const std::string scheduler : {"buddy", "buddy-star", "hybrid", "equi-epoch"}) {
    const std::map<std::string, std::string> values{{"policy", scheduler}, {"min_nodes", "size"}, {"quantum", "10"}};
    jobsched::testing::TimeSharingBench kept(64, "memory-constrained", values);
    std::mt19937_64 random(37);
    std::vector<Job> in_system;
    std::vector<JobId> unused_ids(600);
    std::iota(unused_ids.begin(), unused_ids.end(), 1);
    std::shuffle(unused_ids.begin(), unused_ids.end(), random);
    double t = 0;
    size_t phases_compared = 0;
    size_t departures = 0;
    // The cycle of the event before the last, held as the driver holds the last one it tried (the last plan's cycle
    // the policy holds itself), and what it said then: a cycle the policy fills again for a later schedule must be one
    // nobody holds.
    std::shared_ptr<const Cycle> held, last_cycle;
    std::vector<double> held_boundaries;
    std::vector<size_t> held_phase_sizes;
    for (int k = 0; k < 400 && !unused_ids.empty(); k++) {
      t += 1.0 + static_cast<double>(random() % 30);
      bool event = false; // (between events the long-lived policy's quantum began at the last one)
      if (!in_system.empty() && random() % 3 == 0) {
        const size_t i = random() % in_system.size();
        kept.end(in_system[i].id, t);
        in_system.erase(in_system.begin() + static_cast<long>(i));
        departures++;
        event = true;
      }
      if (random() % 3 != 0 && in_system.size() < 24) {
        Job j;
        j.id = unused_ids.back();
        unused_ids.pop_back();
        j.submit_time = t;
        j.shape = JobShape::malleable;
        j.size = 1 + static_cast<int>(random() % 8);
        j.min_size = 1;
        j.max_size = j.size + static_cast<int>(random() % 20);
        kept.submit(j, t);
        in_system.push_back(j);
        event = true;
      }
      if (!event) continue;
      jobsched::testing::TimeSharingBench fresh(64, "memory-constrained", values);
      for (const Job& j : in_system)
        fresh.submit(j, t);
      const Plan a = kept.plan(t);
      const Plan b = fresh.plan(t);
      if (held) {
        ASSERT_NE(a.cycle, held) << scheduler << " at " << t;
        ASSERT_EQ(held->boundaries, held_boundaries) << scheduler << " at " << t << ": a held cycle was filled again";
        for (size_t p = 0; p < held_phase_sizes.size(); p++)
          ASSERT_EQ(held->phases[p].size(), held_phase_sizes[p]) << scheduler << " at " << t;
      }
      held = last_cycle;
      last_cycle = a.cycle;
      if (held) {
        held_boundaries = held->boundaries;
        held_phase_sizes.clear();
        for (const Phase& phase : held->phases)
          held_phase_sizes.push_back(phase.size());
      }
      ASSERT_EQ(a.run, b.run) << scheduler << " at " << t;
      ASSERT_EQ(a.until, b.until) << scheduler << " at " << t;
      ASSERT_EQ(a.cycle == nullptr, b.cycle == nullptr) << scheduler << " at " << t;
      if (!a.cycle) continue;
      ASSERT_EQ(a.cycle->boundaries, b.cycle->boundaries) << scheduler << " at " << t;
      ASSERT_EQ(a.cycle->phases.size(), b.cycle->phases.size());
      for (size_t p = 0; p < a.cycle->phases.size(); p++) {
        const Phase& x = a.cycle->phases[p];
        const Phase& y = b.cycle->phases[p];
        ASSERT_EQ(x.size(), y.size()) << scheduler << " at " << t << ", phase " << p;
        for (size_t i = 0; i < x.size(); i++) {
          ASSERT_EQ(x[i].first, y[i].first) << scheduler << " at " << t << ", phase " << p;
          ASSERT_EQ(*x[i].second, *y[i].second) << scheduler << " at " << t << ", phase " << p;
        }
        phases_compared++;
      }
    }
    EXPECT_GT(phases_compared, 800U) << scheduler;
    EXPECT_GT(departures, 80U) << scheduler;
  }
}
