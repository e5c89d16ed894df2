/* Setia's time-shared adaptive partitioning (plugin/policies/time_sharing/adaptive_partitioning.*): the partition
 * arithmetic on the paper's own examples (section 3.1), the paging overhead of section 4.1, the load average of
 * footnote 3, and the policies' plans on views built by hand (priority by decayed usage, the usage halving, the load
 * samples, skipping jobs that do not fit, the paging slowdown). Also the section 4.1 workload options of the
 * generator (moments of the demand, memory distributions) and the saturation test of summary.json. Every expected
 * value is computed here from the paper's formulas, not taken from the code. */
#include "core/errors.hpp"
#include "core/random.hpp"
#include "output/metrics.hpp"
#include "policies/time_sharing/adaptive_partitioning.hpp"
#include "policy/policy.hpp"
#include "support/time_sharing_bench.hpp"
#include "workload/generator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <tuple>
#include <vector>

using namespace jobsched;
namespace ap = jobsched::adaptive_partitioning;

// ---------------------------------------------------------------------------------------------------------------
// Arithmetic

TEST(AdaptivePartitioning, PartitionUnitOfThePapersExample)
{
  // P = 128, L = 5: P/L = 25.6. The formula 2^i <= P/L < 2^(i+1) gives 16; the worked example says 32.
  EXPECT_EQ(ap::partition_unit(128, 5, ap::UnitRounding::floor), 16);
  EXPECT_EQ(ap::partition_unit(128, 5, ap::UnitRounding::ceiling), 32);
  EXPECT_EQ(ap::partition_unit(128, 5, ap::UnitRounding::nearest), 32); // 25.6 >= 16 sqrt(2) = 22.6
}

TEST(AdaptivePartitioning, RoundingsDifferAtLoadsThreeAndOneAndAHalf)
{
  // L = 3: P/L = 42.67, between 32 and 64, below 32 sqrt(2) = 45.25.
  EXPECT_EQ(ap::partition_unit(128, 3, ap::UnitRounding::floor), 32);
  EXPECT_EQ(ap::partition_unit(128, 3, ap::UnitRounding::nearest), 32);
  EXPECT_EQ(ap::partition_unit(128, 3, ap::UnitRounding::ceiling), 64);
  // L = 1.5: P/L = 85.33, between 64 and 128, below 64 sqrt(2) = 90.5.
  EXPECT_EQ(ap::partition_unit(128, 1.5, ap::UnitRounding::floor), 64);
  EXPECT_EQ(ap::partition_unit(128, 1.5, ap::UnitRounding::nearest), 64);
  EXPECT_EQ(ap::partition_unit(128, 1.5, ap::UnitRounding::ceiling), 128);
  // L = 1.4: P/L = 91.4 >= 90.5, so nearest goes up where floor does not.
  EXPECT_EQ(ap::partition_unit(128, 1.4, ap::UnitRounding::nearest), 128);
  EXPECT_EQ(ap::partition_unit(128, 1.4, ap::UnitRounding::floor), 64);
}

TEST(AdaptivePartitioning, PartitionUnitEdges)
{
  for (auto r : {ap::UnitRounding::floor, ap::UnitRounding::nearest, ap::UnitRounding::ceiling}) {
    EXPECT_EQ(ap::partition_unit(128, 0.5, r), 128) << ap::to_string(r); // L < 1: capped at P
    EXPECT_EQ(ap::partition_unit(128, 0, r), 128) << ap::to_string(r);   // nothing measured yet
    EXPECT_EQ(ap::partition_unit(128, 200, r), 1) << ap::to_string(r);   // P/L < 1
    EXPECT_EQ(ap::partition_unit(128, 1, r), 128) << ap::to_string(r);   // P/L = 128 exactly
    EXPECT_EQ(ap::partition_unit(128, 4, r), 32) << ap::to_string(r);    // P/L = 32 exactly
  }
  EXPECT_EQ(ap::partition_unit(100, 1, ap::UnitRounding::ceiling), 100); // 128 > P: capped
  EXPECT_THROW(ap::unit_rounding_from("up"), InputError);
}

TEST(AdaptivePartitioning, PartitionUnitOfAVanishingLoad)
{
  // With period 1 and 900 s between arrivals the load average halves a thousand times in a row: it reaches subnormal
  // numbers (the smallest is 2^-1074), where P / L is infinite. The unit is then the whole machine, as for any
  // L <= P / (2P) = 1/2 (P / L >= 2P: the largest power of two <= P / L is at least P).
  const double smallest = std::numeric_limits<double>::denorm_min();
  for (auto r : {ap::UnitRounding::floor, ap::UnitRounding::nearest, ap::UnitRounding::ceiling}) {
    EXPECT_EQ(ap::partition_unit(128, smallest, r), 128) << ap::to_string(r);
    EXPECT_EQ(ap::partition_unit(100, smallest, r), 100) << ap::to_string(r);
    EXPECT_EQ(ap::partition_unit(128, 1e-310, r), 128) << ap::to_string(r); // subnormal, P / L = inf
    EXPECT_EQ(ap::partition_unit(128, 1e-300, r), 128) << ap::to_string(r); // normal, P / L = 1.28e302
    EXPECT_EQ(ap::partition_unit(100, 0.5, r), 100) << ap::to_string(r);    // P / L = 2P exactly
  }
  // The halvings of next_load themselves: from 15 jobs, samples of 0 bring the load to 15 / 2^5 < 1/2 after five
  // periods and to 0 through the subnormals after about 1080; every unit from the fifth on is P.
  double load = 15;
  for (int i = 1; i <= 1100; i++) {
    load = ap::next_load(load, 0);
    if (i >= 5) {
      ASSERT_EQ(ap::partition_unit(128, load, ap::UnitRounding::floor), 128) << "after " << i << " halvings";
    }
  }
  EXPECT_EQ(load, 0.0);
}

TEST(AdaptivePartitioning, PartitionSizesOfThePapersExamples)
{
  const int c = 32; // P = 128, L = 5
  // APMC = APVM(1): min 20 -> 32, min 45 -> 64.
  EXPECT_EQ(ap::partition_size(20, 1.0, c, 128), 32);
  EXPECT_EQ(ap::partition_size(45, 1.0, c, 128), 64);
  // APVM(0.5): min 45 -> 22.5 -> 32 (and min 20 -> 32). APVM(0.75): min 45 -> 33.75 -> 64.
  EXPECT_EQ(ap::partition_size(45, 0.5, c, 128), 32);
  EXPECT_EQ(ap::partition_size(20, 0.5, c, 128), 32);
  EXPECT_EQ(ap::partition_size(45, 0.75, c, 128), 64);
  // The formula (k - 1) C < min_j <= k C at an exact multiple: 64 -> 64 (the sentence's "greater than" would say 96).
  EXPECT_EQ(ap::partition_size(64, 1.0, c, 128), 64);
  EXPECT_EQ(ap::partition_size(65, 1.0, c, 128), 96);
  // AP: min_j = 1 gives C.
  EXPECT_EQ(ap::partition_size(1, 1.0, c, 128), 32);
  // Never beyond P: min 100 at C = 64 would be 128.
  EXPECT_EQ(ap::partition_size(100, 1.0, 64, 100), 100);
}

TEST(AdaptivePartitioning, PagingOverhead)
{
  // (1 - c) / (1 - f) x O for f <= c < 1; 0 for c >= 1.
  EXPECT_DOUBLE_EQ(ap::paging_overhead(1.0, 0.5, 0.25), 0.0);
  EXPECT_DOUBLE_EQ(ap::paging_overhead(1.4, 0.5, 0.25), 0.0);
  EXPECT_DOUBLE_EQ(ap::paging_overhead(0.5, 0.5, 0.25), 0.25); // c = f: O
  EXPECT_DOUBLE_EQ(ap::paging_overhead(0.75, 0.5, 0.5), 0.25); // halfway: O / 2
  EXPECT_DOUBLE_EQ(ap::paging_overhead(0.8, 0.75, 0.5), 0.4);  // 0.2 / 0.25 x 0.5
  EXPECT_DOUBLE_EQ(ap::paging_overhead(32.0 / 45, 0.5, 0.25), (1 - 32.0 / 45) / 0.5 * 0.25);
  EXPECT_DOUBLE_EQ(ap::paging_overhead(0.9, 1.0, 0.5), 0.0); // APMC never pages
}

TEST(AdaptivePartitioning, LoadAverageUpdate)
{
  EXPECT_DOUBLE_EQ(ap::next_load(4, 10), 7);
  EXPECT_DOUBLE_EQ(ap::next_load(1, 9), 5);
  EXPECT_DOUBLE_EQ(ap::next_load(5, 0), 2.5);
}

// ---------------------------------------------------------------------------------------------------------------
// Plans on hand-built views

namespace {

/* A policy of the family on a uniform machine, and the jobs of its views (moldable 1..P). */
class Bench : public jobsched::testing::TimeSharingBench {
 public:
  using TimeSharingBench::TimeSharingBench;
  /* Submit job `id` now; `memory_processors` of memory (node_memory_mb 1: one MB per processor). */
  void submit(JobId id, double now, int memory_processors = 0)
  {
    Job j;
    j.id = id;
    j.submit_time = now;
    j.shape = JobShape::moldable;
    j.size = 1;
    j.min_size = 1;
    j.max_size = processors();
    if (memory_processors > 0) j.memory_kb = memory_processors * 1024.0;
    TimeSharingBench::submit(j, now);
  }
};

using jobsched::testing::processor_counts;

} // namespace

/* initial_load 5 on 128 processors: C = 32 from the start (ceiling). APMC: min 20 -> 32, min 45 -> 64; APVM(0.5):
 * min 45 -> 32 with c = 32/45, slowdown 1 + (1 - 32/45)/0.5 x O; APVM(0.75): min 45 -> 64. */
TEST(AdaptivePartitioning, PoliciesConfigureThePapersExamples)
{
  Bench apmc(128, "apmc", {{"initial_load", "5"}});
  apmc.submit(1, 0, 20);
  apmc.submit(2, 0, 45);
  EXPECT_EQ(processor_counts(apmc.plan(0)), (std::map<JobId, int>{{1, 32}, {2, 64}}));

  Bench half(128, "apvm", {{"initial_load", "5"}, {"fraction", "0.5"}, {"overhead", "0.25"}});
  half.submit(1, 0, 45);
  half.submit(2, 0, 20);
  Plan p = half.plan(0);
  EXPECT_EQ(processor_counts(p), (std::map<JobId, int>{{1, 32}, {2, 32}}));
  ASSERT_EQ(p.slowdown.count(1), 1U);
  EXPECT_DOUBLE_EQ(p.slowdown.at(1), 1 + (1 - 32.0 / 45) / 0.5 * 0.25);
  EXPECT_EQ(p.slowdown.count(2), 0U); // 32 processors hold its 20: no paging

  Bench three_quarters(128, "apvm", {{"initial_load", "5"}, {"fraction", "0.75"}, {"overhead", "0.25"}});
  three_quarters.submit(1, 0, 45);
  EXPECT_EQ(processor_counts(three_quarters.plan(0)), (std::map<JobId, int>{{1, 64}}));

  Bench plain(128, "ap", {{"initial_load", "5"}});
  plain.submit(1, 0, 45); // AP ignores memory
  EXPECT_EQ(processor_counts(plain.plan(0)), (std::map<JobId, int>{{1, 32}}));
}

/* Images (Plan::image_bytes, 1 MiB of memory per processor of min_j): APVM(0.5) loads the active pages its partition
 * holds, 32 of job 1's 45 MiB (c = 32/45), and all 20 MiB of job 2 (32 processors hold them); APMC and AP load a
 * job's whole memory. */
TEST(AdaptivePartitioning, ImagesAreTheMemoryThePartitionHolds)
{
  const double mib = 1024.0 * 1024.0;
  Bench half(128, "apvm", {{"initial_load", "5"}, {"fraction", "0.5"}, {"overhead", "0.25"}});
  half.submit(1, 0, 45);
  half.submit(2, 0, 20);
  Plan p = half.plan(0);
  EXPECT_DOUBLE_EQ(p.image_bytes.at(1), 32 * mib);
  EXPECT_DOUBLE_EQ(p.image_bytes.at(2), 20 * mib);
  Bench apmc(128, "apmc", {{"initial_load", "5"}});
  apmc.submit(1, 0, 45);
  EXPECT_DOUBLE_EQ(apmc.plan(0).image_bytes.at(1), 45 * mib);
  Bench plain(128, "ap", {{"initial_load", "5"}});
  plain.submit(1, 0, 45);
  EXPECT_DOUBLE_EQ(plain.plan(0).image_bytes.at(1), 45 * mib);
}

/* Partitions as submeshes of a 4 x 2 mesh (processors 0-3 on row 0, 4-7 on row 1). GS(4): the count-only allocator
 * gives job 1 the lowest four, 0-3, and job 2 the rest; first-fit submeshes give each a 2 x 2 square, 0-1 4-5 and
 * 2-3 6-7. */
TEST(AdaptivePartitioning, PartitionsAsSubmeshes)
{
  for (const std::string allocation : {"first-fit", "submesh-first-fit"}) {
    Bench b(8, "ap", {{"partition_size", "4"}}, allocation, 4);
    b.submit(1, 0);
    b.submit(2, 0);
    Plan p = b.plan(0);
    const bool mesh = allocation != "first-fit";
    EXPECT_EQ(p.run.at(1).to_string(), mesh ? "0-1 4-5" : "0-3") << allocation;
    EXPECT_EQ(p.run.at(2).to_string(), mesh ? "2-3 6-7" : "4-7") << allocation;
  }
}

/* Fragmentation the count does not see. APMC on the 4 x 2 mesh with C = 2 (initial_load 4): jobs 1-4 (memory 1: 2
 * processors each) take 0-1, 2-3, 4-5 and 6-7 (2 x 1 submeshes, row by row); job 5 (memory 3: 4 processors) waits.
 * Jobs 1 and 4 end at 0.5: 0-1 and 6-7 are idle, four processors, but not a 2 x 2 or 4 x 1 submesh. The count-only
 * allocator gives them to job 5 in mid-quantum; with submeshes job 5 keeps waiting. */
TEST(AdaptivePartitioning, ContiguityLeavesFragmentsIdle)
{
  for (const std::string allocation : {"first-fit", "submesh-first-fit"}) {
    Bench b(8, "apmc", {{"initial_load", "4"}}, allocation, 4);
    for (JobId id = 1; id <= 4; id++)
      b.submit(id, 0, 1);
    b.submit(5, 0, 3);
    Plan first = b.plan(0);
    EXPECT_EQ(processor_counts(first), (std::map<JobId, int>{{1, 2}, {2, 2}, {3, 2}, {4, 2}})) << allocation;
    b.end(1, 0.5);
    b.end(4, 0.5);
    Plan later = b.plan(0.5);
    if (allocation == "first-fit") {
      ASSERT_EQ(later.run.count(5), 1U);
      EXPECT_EQ(later.run.at(5).to_string(), "0-1 6-7");
    } else {
      EXPECT_EQ(later.run.count(5), 0U);
      EXPECT_EQ(processor_counts(later), (std::map<JobId, int>{{2, 2}, {3, 2}}));
    }
  }
}

/* A job whose partition does not fit is skipped for a later one that fits: 4 processors, C = 2 (initial_load 2),
 * job 1 needs 2, job 2 (memory 3) needs 4, job 3 needs 2: jobs 1 and 3 run, job 2 waits. */
TEST(AdaptivePartitioning, SkipsJobsThatDoNotFit)
{
  Bench b(4, "apmc", {{"initial_load", "2"}});
  b.submit(1, 0, 1);
  b.submit(2, 0, 3);
  b.submit(3, 0, 1);
  Plan p = b.plan(0);
  EXPECT_EQ(processor_counts(p), (std::map<JobId, int>{{1, 2}, {3, 2}}));
  EXPECT_EQ(p.run.at(1).to_string(), "0-1");
  EXPECT_EQ(p.run.at(3).to_string(), "2-3");
  EXPECT_DOUBLE_EQ(p.until, 2); // a job waits: the next quantum
}

/* The load average: L starts at 1 (C = 128 on 128 processors). Nine jobs are in the system at the sample of t = 100:
 * L = 1/2 + 9/2 = 5, so a job arriving at 101 gets C = 32 (16 with floor). That job alone at the sample of 200:
 * L = 5/2 + 1/2 = 3, so a job arriving at 250 gets 64 (32 with floor). Then the system is empty for the samples of 300
 * to 600: L = 3 / 2^4 = 0.1875 < 1, and a job arriving at 601 gets the whole machine. */
TEST(AdaptivePartitioning, LoadAverageSetsThePartitionUnit)
{
  for (const char* rounding : {"ceiling", "floor"}) {
    Bench b(128, "ap", {{"rounding", rounding}});
    for (JobId id = 1; id <= 9; id++)
      b.submit(id, 0);
    EXPECT_EQ(processor_counts(b.plan(0)), (std::map<JobId, int>{{1, 128}})) << rounding;
    b.plan(100);
    for (JobId id = 1; id <= 9; id++)
      b.end(id, 101);
    b.submit(10, 101);
    const bool ceiling = std::string(rounding) == "ceiling";
    const int at_five = ceiling ? 32 : 16; // 128/5 = 25.6
    EXPECT_EQ(processor_counts(b.plan(101)), (std::map<JobId, int>{{10, at_five}})) << rounding;
    Plan alone = b.plan(200);
    EXPECT_EQ(processor_counts(alone), (std::map<JobId, int>{{10, at_five}})) << rounding;
    b.end(10, 250);
    b.submit(11, 250);
    const int expected = ceiling ? 64 : 32; // 128/3 = 42.7
    EXPECT_EQ(processor_counts(b.plan(250)), (std::map<JobId, int>{{11, expected}})) << rounding;
    b.end(11, 260);
    b.plan(260);
    b.submit(12, 601);
    EXPECT_EQ(processor_counts(b.plan(601)), (std::map<JobId, int>{{12, 128}})) << rounding;
  }
}

/* When p_j is fixed. Nine jobs at 0 with L = 1 (C = 128): job 1 runs on 128. At the sample of 100, L = 5 (C = 32).
 * configure: arrival kept the others at 128, so at 100 job 2 runs alone; configure: dispatch recomputes an unstarted
 * job's partition whenever it is considered, so jobs 2 to 5 run on 32 each (job 1, started, keeps its 128). */
TEST(AdaptivePartitioning, ConfigureOnArrivalOrAtFirstDispatch)
{
  Bench arrival(128, "ap", {{"configure", "arrival"}});
  Bench dispatch(128, "ap", {{"configure", "dispatch"}});
  for (Bench* b : {&arrival, &dispatch}) {
    for (JobId id = 1; id <= 9; id++)
      b->submit(id, 0);
    EXPECT_EQ(processor_counts(b->plan(0)), (std::map<JobId, int>{{1, 128}}));
  }
  EXPECT_EQ(processor_counts(arrival.plan(100)), (std::map<JobId, int>{{2, 128}}));
  EXPECT_EQ(processor_counts(dispatch.plan(100)), (std::map<JobId, int>{{2, 32}, {3, 32}, {4, 32}, {5, 32}}));
}

/* Priority and the usage halving, under GS(128) (one job at a time). Job 1 runs alone from 0 to 100: 100 s x 128 =
 * 12800 processor-seconds, halved at 100 to 6400. Job 2 arrives at 99 (mid-quantum: it waits) and runs from 100,
 * 256 processor-seconds a quantum; at 150 its 25 quanta make 6400, equal to job 1's, and the tie goes to job 1 (the
 * earlier submission), which runs [150, 152); then job 2 again. Without the halving job 2 would run until 200. */
TEST(AdaptivePartitioning, UsageHalvingEveryPeriod)
{
  Bench b(128, "ap", {{"partition_size", "128"}});
  b.submit(1, 0);
  EXPECT_EQ(processor_counts(b.plan(0)), (std::map<JobId, int>{{1, 128}}));
  EXPECT_DOUBLE_EQ(b.plan(0).until, 100); // alone: nothing to do before the load sample
  b.submit(2, 99);
  Plan at99 = b.plan(99);
  EXPECT_EQ(processor_counts(at99), (std::map<JobId, int>{{1, 128}}));
  EXPECT_DOUBLE_EQ(at99.until, 100);
  std::map<double, JobId> runs;
  for (int k = 0; k <= 30; k++) {
    const double t = 100 + 2 * k;
    Plan p = b.plan(t);
    ASSERT_EQ(p.run.size(), 1U) << "at " << t;
    runs[t] = p.run.begin()->first;
  }
  EXPECT_EQ(runs.at(100), 2);
  EXPECT_EQ(runs.at(148), 2);
  EXPECT_EQ(runs.at(150), 1);
  EXPECT_EQ(runs.at(152), 2);
  EXPECT_EQ(runs.at(154), 1); // 6400 + 256 = 6656 each: the tie goes to job 1 again
}

/* Processors freed in mid-quantum go to the waiting jobs; the running ones keep theirs. 4 processors, GS(2): jobs 1
 * and 2 run, job 3 waits; job 1 ends at 1: job 3 gets its processors at once, job 2 keeps 2-3. */
TEST(AdaptivePartitioning, FreedProcessorsGoToWaitingJobs)
{
  Bench b(4, "ap", {{"partition_size", "2"}});
  b.submit(1, 0);
  b.submit(2, 0);
  b.submit(3, 0);
  Plan p = b.plan(0);
  EXPECT_EQ(p.run.at(1).to_string(), "0-1");
  EXPECT_EQ(p.run.at(2).to_string(), "2-3");
  b.end(1, 1);
  Plan q = b.plan(1);
  EXPECT_EQ(q.run.at(2).to_string(), "2-3");
  EXPECT_EQ(q.run.at(3).to_string(), "0-1");
  EXPECT_DOUBLE_EQ(q.until, 100); // everyone runs
}

/* The jobs' priority order is kept from one plan to the next and sorted again by insertion (rank()): at every quantum
 * of GS(2) on 16 processors the 8 jobs chosen must be the 8 of least usage (ties: the earlier submission), the usage
 * being counted here from the plans themselves: 2 processors x the seconds since the last plan for each job of the
 * last plan, every usage halved at each multiple of the 100 s period. Random arrivals and departures (up to 40 jobs in
 * the system, so that the order is rebuilt after each change of membership and most quanta move several jobs) over
 * 3,000 quanta; all at quantum boundaries, so every job competes at every plan. The plans are handed back
 * (reuse_plan), as the driver does. */
TEST(AdaptivePartitioning, QuantumChoosesTheJobsOfLeastUsage)
{
  Bench b(16, "ap", {{"partition_size", "2"}});
  std::mt19937_64 random(23);
  std::map<JobId, std::pair<double, int>> usage; // id -> usage, submission number
  std::map<JobId, int> last;                     // the jobs of the last plan
  JobId next_id = 1;
  int submitted = 0;
  double previous = 0;
  for (int q = 0; q < 3000; q++) {
    const double t = 2.0 * q;
    for (auto& [id, held] : last)
      if (usage.count(id) != 0) usage[id].first += (t - previous) * 2;
    if (q > 0 && q % 50 == 0) // t a multiple of 100
      for (auto& [id, u] : usage)
        u.first /= 2;
    previous = t;
    if (!usage.empty() && random() % 3 == 0) { // a departure, some job at random
      auto it = usage.begin();
      std::advance(it, static_cast<long>(random() % usage.size()));
      b.end(it->first, t);
      usage.erase(it);
    }
    for (int n = static_cast<int>(random() % 3); n > 0 && usage.size() < 40; n--) {
      b.submit(next_id, t);
      usage[next_id++] = {0.0, submitted++};
    }
    if (usage.empty()) continue;
    std::vector<std::tuple<double, int, JobId>> order;
    for (const auto& [id, u] : usage)
      order.emplace_back(u.first, u.second, id);
    std::sort(order.begin(), order.end());
    std::map<JobId, int> expected;
    for (size_t i = 0; i < order.size() && i < 8; i++)
      expected[std::get<2>(order[i])] = 2;
    Plan p = b.plan(t);
    ASSERT_EQ(processor_counts(p), expected) << "at " << t;
    last = expected;
    b.reuse(std::move(p));
  }
}

/* The plans a policy builds in the maps of the plans handed back (reuse_plan: the jobs of both keep their nodes, the
 * others are taken out or put in) equal those it builds in new maps: two policies of each family given the same
 * random arrivals, departures and instants (mid-quantum ones too), one handed its plans back, the other not. APVM's
 * paging slowdowns and image sizes are maps of the plan too. */
TEST(AdaptivePartitioning, PlansInReusedMapsEqualNewOnes)
{
  const std::vector<std::pair<std::string, std::map<std::string, std::string>>> families = {
      {"ap", {}}, {"apvm", {{"fraction", "0.5"}, {"overhead", "0.25"}}}};
  for (const auto& [name, values] : families) {
    Bench reused(64, name, values);
    Bench fresh(64, name, values);
    std::mt19937_64 random(7);
    std::vector<JobId> in_system;
    JobId next_id = 1;
    double t = 0;
    size_t plans_with_slowdowns = 0;
    for (int k = 0; k < 3000; k++) {
      t += random() % 2 == 0 ? 2.0 : 0.5 * static_cast<double>(1 + random() % 3); // quanta and mid-quantum instants
      if (!in_system.empty() && random() % 4 == 0) {
        const size_t i = random() % in_system.size();
        reused.end(in_system[i], t);
        fresh.end(in_system[i], t);
        in_system.erase(in_system.begin() + static_cast<long>(i));
      }
      if (random() % 3 == 0 && in_system.size() < 30) {
        const int memory = 1 + static_cast<int>(random() % 48); // processors' worth of memory (1 MB each)
        reused.submit(next_id, t, memory);
        fresh.submit(next_id, t, memory);
        in_system.push_back(next_id++);
      }
      Plan a = reused.plan(t);
      Plan b = fresh.plan(t);
      ASSERT_EQ(a.run, b.run) << name << " at " << t;
      ASSERT_EQ(a.slowdown, b.slowdown) << name << " at " << t;
      ASSERT_EQ(a.image_bytes, b.image_bytes) << name << " at " << t;
      ASSERT_EQ(a.until, b.until) << name << " at " << t;
      plans_with_slowdowns += a.slowdown.empty() ? 0 : 1;
      reused.reuse(std::move(a));
    }
    if (name == "apvm") {
      EXPECT_GT(plans_with_slowdowns, 100U); // the slowdown map was exercised
    }
  }
}

/* The counts a lookahead hands along (Lookahead::counts): one per entry, phase after phase, each its set's count, as
 * counted here (the replay times the jobs by them). Returns how many were compared. */
static size_t expect_counts_declared(const Lookahead& la, const std::string& label)
{
  size_t entries = 0;
  for (const Phase& phase : la.phases)
    entries += phase.size();
  EXPECT_EQ(la.counts.size(), entries) << label;
  if (la.counts.size() != entries) return 0;
  const int* count = la.counts.data();
  for (size_t p = 0; p < la.phases.size(); p++)
    for (const auto& [id, where] : la.phases[p])
      EXPECT_EQ(*count++, where->count()) << label << " phase " << p << " job " << id;
  return entries;
}

/* A lookahead (Plan::lookahead) holds the plans plan() returns at the quanta ahead: two policies given the same random
 * arrivals and departures (at any instant, quantum boundaries included), one asked at every wake-up (stepping), the
 * other only where its lookahead's replay stops: at an event, or at a boundary the replay declines at random (as the
 * runtime does for an execution it does not model); a lookahead replayed whole before the next event is extended
 * (TimeSharingPolicy::extend_lookahead) and the extension replayed likewise. Each phase of a lookahead or extension is
 * checked against the stepping policy's
 * plan at its instant (jobs, sets and wake-up), and after a replay cut short the policy must plan as if it had been
 * asked at every boundary replayed (its usages, counts and last sets taken back to that boundary), the jobs that
 * ended or were requeued meanwhile (a job that ends and is submitted again at once) leaving and coming in the order
 * they did. */
TEST(AdaptivePartitioning, LookaheadPhasesAreThePlansOfTheQuantaAhead)
{
  const std::vector<std::pair<std::string, std::map<std::string, std::string>>> families = {
      {"ap", {}},
      {"ap", {{"partition_size", "16"}}},
      {"ap", {{"usage", "seconds"}, {"configure", "dispatch"}}},
      {"ap", {{"quantum", "3"}, {"period", "100"}}},
      {"apvm", {{"fraction", "0.5"}}}};
  for (const auto& [name, values] : families) {
    const std::string label = name + (values.empty() ? "" : " " + values.begin()->first + "=" + values.begin()->second);
    Bench ahead(64, name, values);
    Bench stepped(64, name, values);
    std::mt19937_64 random(11);
    std::vector<JobId> in_system;
    JobId next_id = 1;
    double t = 0;
    double next_event = 0;
    size_t replayed = 0;
    size_t lookaheads = 0;
    size_t phases_checked = 0;
    size_t cut_short = 0;
    size_t extensions = 0;
    size_t requeues = 0;
    size_t counts_checked = 0;
    std::map<JobId, int> memory_of;
    for (int k = 0; k < 4000; k++) {
      if (t >= next_event) { // arrivals and departures, then the next event: some on a quantum boundary
        if (!in_system.empty() && random() % 3 == 0) {
          const size_t i = random() % in_system.size();
          ahead.end(in_system[i], t);
          stepped.end(in_system[i], t);
          in_system.erase(in_system.begin() + static_cast<long>(i));
        }
        if (!in_system.empty() && random() % 8 == 0) { // a job requeued (its host failed): it ends and comes again
          const size_t i = random() % in_system.size();
          const JobId id = in_system[i];
          for (Bench* b : {&ahead, &stepped}) {
            b->end(id, t);
            b->submit(id, t, memory_of[id]);
          }
          in_system.erase(in_system.begin() + static_cast<long>(i));
          in_system.push_back(id);
          requeues++;
        }
        for (int n = static_cast<int>(random() % 3); n > 0 && in_system.size() < 24; n--) {
          const int memory = 1 + static_cast<int>(random() % 40);
          ahead.submit(next_id, t, memory);
          stepped.submit(next_id, t, memory);
          memory_of[next_id] = memory;
          in_system.push_back(next_id++);
        }
        next_event = t + (random() % 2 == 0 ? 6.0 * static_cast<double>(1 + random() % 20)
                                            : 0.25 * static_cast<double>(1 + random() % 400));
      }
      Plan a = ahead.plan(t, replayed);
      Plan s = stepped.plan(t);
      ASSERT_EQ(a.run, s.run) << label << " at " << t;
      ASSERT_EQ(a.until, s.until) << label << " at " << t;
      stepped.reuse(std::move(s));
      replayed = 0;
      double next = a.until;
      if (a.lookahead) {
        lookaheads++;
        ASSERT_EQ(a.lookahead->phases.size(), a.lookahead->instants.size());
        ASSERT_EQ(a.lookahead->instants.front(), a.until);
        std::map<JobId, ResourceSet> first;
        for (const auto& [id, where] : a.lookahead->phases.front())
          first.emplace(id, *where);
        ASSERT_EQ(first, a.run) << label << " at " << t;
        counts_checked += expect_counts_declared(*a.lookahead, label);
        // The lookahead, then its extensions while one is replayed whole before the next event (the scheduler asks
        // at its last instant, when nothing else happened): phase 0 the phase in force, on its sets.
        for (std::shared_ptr<const Lookahead> out = a.lookahead;;) {
          const Lookahead& la = *out;
          bool whole = true;
          for (size_t i = 0; i + 1 < la.phases.size(); i++) {
            if (!(la.instants[i] < next_event) || random() % 24 == 0) {
              cut_short += la.instants[i] < next_event ? 1 : 0;
              whole = false;
              break;
            }
            Plan step = stepped.plan(la.instants[i]);
            std::map<JobId, ResourceSet> phase;
            for (const auto& [id, where] : la.phases[i + 1])
              phase.emplace(id, *where);
            ASSERT_EQ(phase, step.run) << label << " phase " << i + 1 << " at " << la.instants[i];
            ASSERT_EQ(step.until, la.instants[i + 1]) << label << " phase " << i + 1;
            stepped.reuse(std::move(step));
            ahead.apply_phase(la.phases[i + 1], la.instants[i]);
            replayed++;
            phases_checked++;
          }
          next = la.instants[replayed];
          if (!whole || !(la.instants.back() < next_event)) break;
          std::shared_ptr<const Lookahead> more = ahead.extend(la.instants.back());
          if (!more) break;
          extensions++;
          ASSERT_GE(more->phases.size(), 2U) << label;
          ASSERT_EQ(more->instants.size(), more->phases.size()) << label;
          ASSERT_EQ(more->instants.front(), la.instants.back()) << label;
          ASSERT_EQ(more->phases.front(), la.phases.back()) << label << " at " << la.instants.back();
          counts_checked += expect_counts_declared(*more, label);
          replayed = 0;
          out = std::move(more);
        }
      }
      ahead.reuse(std::move(a));
      t = std::min(next, next_event);
    }
    EXPECT_GT(lookaheads, 100U) << label;
    EXPECT_GT(phases_checked, 2000U) << label;
    EXPECT_GT(cut_short, 20U) << label;
    EXPECT_GT(extensions, 50U) << label;
    EXPECT_GT(requeues, 100U) << label;
    EXPECT_GT(counts_checked, 2000U) << label;
  }
}

/* Where the scheduler can replay nothing (SystemView::replays_possible false: owners, failing hosts, no virtual
 * wake-ups) AP works out no lookahead, and plans as it does where it may: two policies given the same random arrivals
 * and departures, both asked at every wake-up (nothing replayed), one told replays are possible. That one looks ahead
 * at least four times (the pace pauses only after four lookaheads reached and not replayed). */
TEST(AdaptivePartitioning, NoLookaheadWhereNothingCanBeReplayed)
{
  Bench possible(64, "ap", {});
  Bench impossible(64, "ap", {});
  impossible.replays_possible = false;
  std::mt19937_64 random(5);
  std::vector<JobId> in_system;
  JobId next_id = 1;
  double t = 0;
  size_t lookaheads = 0;
  for (int k = 0; k < 2000; k++) {
    if (random() % 16 == 0) {
      if (!in_system.empty() && random() % 2 == 0) {
        const size_t i = random() % in_system.size();
        possible.end(in_system[i], t);
        impossible.end(in_system[i], t);
        in_system.erase(in_system.begin() + static_cast<long>(i));
      }
      if (in_system.size() < 20) {
        possible.submit(next_id, t);
        impossible.submit(next_id, t);
        in_system.push_back(next_id++);
      }
    }
    Plan a = possible.plan(t);
    Plan b = impossible.plan(t);
    ASSERT_EQ(a.run, b.run) << "at " << t;
    ASSERT_EQ(a.until, b.until) << "at " << t;
    ASSERT_EQ(b.lookahead, nullptr) << "at " << t;
    lookaheads += a.lookahead ? 1 : 0;
    t = std::isfinite(a.until) ? a.until : t + 7;
    possible.reuse(std::move(a));
    impossible.reuse(std::move(b));
  }
  EXPECT_GE(lookaheads, 4U);
}

namespace {

/* GS(p) (`ap` with partition_size p) computed the plain way, processor by processor, as the paper says it: usage
 * charged to the jobs of the last plan (processors x seconds) and halved every 100 s; at a quantum's end (2 s) every
 * job competes, mid-quantum the jobs of the last plan whose processors are all up keep them; the others, by least
 * usage (ties: the earlier submission), are chosen while their partitions fit in the processors left, skipping those
 * that do not; each chosen job goes back to its last set when that has its partition's size and every processor of it
 * is up and idle (not kept, not given back to a job before it), the others take the lowest idle processors in turn.
 * A job's partition is p, or its maximum when that is smaller. */
class PlainGs {
 public:
  using Bits = std::vector<bool>;      // a flag per processor
  using Members = std::vector<size_t>; // a set as its processors, in increasing order
  PlainGs(int processors, int partition) : processors_(processors), partition_(partition) {}
  void submit(JobId id, int max_size)
  {
    Job& j = jobs_[id];
    j = Job{};
    j.order = submitted_++;
    j.partition = std::min(partition_, max_size);
  }
  void end(JobId id) { jobs_.erase(id); }
  /* The jobs that run at `now` on the processors `up`, and where. */
  std::map<JobId, ResourceSet> plan(double now, const Bits& up)
  {
    while (next_period_ <= now) {
      charge(next_period_);
      for (auto& [id, j] : jobs_)
        j.usage /= 2;
      next_period_ += 100;
    }
    charge(now);
    const bool new_quantum = std::fmod(now, 2.0) == 0; // instants are multiples of 1/4 here: exact
    Bits idle = up;
    auto all_in = [](const Members& set, const Bits& where) {
      return std::all_of(set.begin(), set.end(), [&](size_t p) { return where[p]; });
    };
    auto take = [&idle](const Members& set) {
      for (size_t p : set)
        idle[p] = false;
    };
    std::vector<std::pair<std::pair<double, int>, JobId>> candidates;
    std::map<JobId, Members> placed;
    for (auto& [id, j] : jobs_) {
      if (!new_quantum && j.running && all_in(j.last, up)) { // keeps its processors
        placed[id] = j.last;
        take(j.last);
      } else {
        candidates.push_back({{j.usage, j.order}, id});
      }
    }
    std::sort(candidates.begin(), candidates.end());
    int left = static_cast<int>(std::count(idle.begin(), idle.end(), true));
    std::vector<JobId> chosen;
    for (const auto& c : candidates) {
      if (left == 0) break;
      if (jobs_[c.second].partition > left) continue;
      chosen.push_back(c.second);
      left -= jobs_[c.second].partition;
    }
    std::vector<JobId> moved;
    for (JobId id : chosen) {
      const Job& j = jobs_[id];
      if (static_cast<int>(j.last.size()) == j.partition && all_in(j.last, idle)) {
        placed[id] = j.last;
        take(j.last);
        returns_++;
      } else {
        moved.push_back(id);
      }
    }
    for (JobId id : moved) {
      Members mine;
      for (size_t p = 0; p < idle.size() && static_cast<int>(mine.size()) < jobs_[id].partition; p++)
        if (idle[p]) mine.push_back(p);
      take(mine);
      placed[id] = mine;
    }
    moves_ += moved.size();
    std::map<JobId, ResourceSet> run;
    for (const auto& [id, members] : placed) {
      ResourceSet set(processors_);
      for (size_t p : members)
        set.set(static_cast<int>(p));
      run.emplace(id, set);
    }
    return run;
  }
  /* A plan (or a lookahead's phase) applied: its jobs run where it says, the others stop. */
  void apply(const std::map<JobId, ResourceSet>& run)
  {
    for (auto& [id, j] : jobs_) {
      auto it = run.find(id);
      j.running = it != run.end();
      if (!j.running) continue;
      j.last.clear();
      for (int p = 0; p < processors_; p++)
        if (it->second.test(p)) j.last.push_back(static_cast<size_t>(p));
    }
  }
  bool running(JobId id) const { return jobs_.at(id).running; }
  const Members& last(JobId id) const { return jobs_.at(id).last; }
  size_t returns() const { return returns_; } // jobs chosen that went back to their last set
  size_t moves() const { return moves_; }     // and that took the lowest idle processors

 private:
  struct Job {
    double usage = 0;
    int order = 0;
    int partition = 0;
    Members last;
    bool running = false;
  };
  void charge(double until)
  {
    const double length = until - accounted_until_;
    if (length > 0)
      for (auto& [id, j] : jobs_)
        if (j.running) j.usage += length * static_cast<double>(j.last.size());
    accounted_until_ = std::max(accounted_until_, until);
  }
  int processors_;
  int partition_;
  std::map<JobId, Job> jobs_;
  int submitted_ = 0;
  double accounted_until_ = 0;
  double next_period_ = 100;
  size_t returns_ = 0;
  size_t moves_ = 0;
};

} // namespace

/* AP remembers which jobs' last sets are disjoint (disjoint_pairs.hpp) on large machines rather than testing each
 * last set against the idle processors: its plans, and every phase of its lookaheads the scheduler would replay, must
 * be those of PlainGs above. Random arrivals (partitions of 1 to p: a job's maximum may be smaller), departures,
 * processors failing and coming back (the jobs running on them requeued: they end and come again; the others keep
 * their last sets, partly down) and calls at any quarter second (quantum ends and mid-quantum ones); replays of the
 * lookaheads cut short at random. On 64 processors (one-word sets), on 300 (five words, stored on the heap) and on
 * 4,160 (65 words: there AP remembers the disjoint pairs, on the others it tests the idle set). */
TEST(AdaptivePartitioning, PlacementMatchesPlainSetArithmetic)
{
  for (const auto& [processors, partition, calls] :
       {std::tuple{64, 8, 5000}, std::tuple{300, 32, 5000}, std::tuple{4160, 512, 2000}}) {
    const std::string label = std::to_string(processors) + " processors";
    Bench b(processors, "ap", {{"partition_size", std::to_string(partition)}});
    PlainGs plain(processors, partition);
    std::mt19937_64 random(static_cast<std::uint64_t>(processors));
    std::map<JobId, int> in_system; // id -> maximum size
    PlainGs::Bits up(static_cast<size_t>(processors), true);
    JobId next_id = 1;
    double t = 0;
    double next_event = 0;
    size_t replayed = 0;
    size_t plans = 0, phases = 0, mid_quantum = 0, with_failures = 0, requeues = 0, counts_checked = 0;
    auto submit = [&](JobId id, int max_size) {
      Job j;
      j.id = id;
      j.submit_time = t;
      j.shape = JobShape::moldable;
      j.size = 1;
      j.min_size = 1;
      j.max_size = max_size;
      b.TimeSharingBench::submit(j, t);
      plain.submit(id, max_size);
      in_system[id] = max_size;
    };
    auto end = [&](JobId id) {
      b.end(id, t);
      plain.end(id);
      in_system.erase(id);
    };
    for (int k = 0; k < calls; k++) {
      if (t >= next_event) {
        if (!in_system.empty() && random() % 3 == 0) {
          auto it = in_system.begin();
          std::advance(it, static_cast<long>(random() % in_system.size()));
          end(it->first);
        }
        if (random() % 5 == 0) { // processors fail (the jobs running there are requeued), or all come back
          if (std::count(up.begin(), up.end(), false) > 0 && random() % 2 == 0) {
            up.assign(up.size(), true);
          } else {
            const size_t first = random() % up.size();
            const size_t n = 1 + random() % static_cast<size_t>(partition);
            for (size_t i = first; i < std::min(up.size(), first + n); i++)
              up[i] = false;
            std::vector<std::pair<JobId, int>> hit;
            for (const auto& [id, max_size] : in_system) {
              const PlainGs::Members& last = plain.last(id);
              if (plain.running(id) && std::any_of(last.begin(), last.end(), [&](size_t p) { return !up[p]; }))
                hit.emplace_back(id, max_size);
            }
            for (const auto& [id, max_size] : hit) {
              end(id);
              submit(id, max_size);
              requeues++;
            }
          }
          ResourceSet up_set(processors);
          for (size_t i = 0; i < up.size(); i++)
            if (up[i]) up_set.set(static_cast<int>(i));
          b.set_up(up_set);
        }
        for (int n = static_cast<int>(random() % 3); n > 0 && in_system.size() < 20; n--)
          submit(next_id++, 1 + static_cast<int>(random() % static_cast<size_t>(partition + partition / 2)));
        next_event = t + 0.25 * static_cast<double>(1 + random() % 200);
      }
      Plan a = b.plan(t, replayed);
      const std::map<JobId, ResourceSet> expected = plain.plan(t, up);
      ASSERT_EQ(a.run, expected) << label << " at " << t;
      plain.apply(expected);
      plans++;
      mid_quantum += std::fmod(t, 2.0) != 0 ? 1 : 0;
      with_failures += std::count(up.begin(), up.end(), false) > 0 ? 1 : 0;
      replayed = 0;
      double next = a.until;
      if (a.lookahead) {
        const Lookahead& la = *a.lookahead;
        counts_checked += expect_counts_declared(la, label); // (on 4,160 processors: the pairs remembered)
        for (size_t i = 0; i + 1 < la.phases.size(); i++) {
          if (!(la.instants[i] < next_event) || random() % 16 == 0) break;
          std::map<JobId, ResourceSet> phase;
          for (const auto& [id, where] : la.phases[i + 1])
            phase.emplace(id, *where);
          const std::map<JobId, ResourceSet> step = plain.plan(la.instants[i], up);
          ASSERT_EQ(phase, step) << label << " phase " << i + 1 << " at " << la.instants[i];
          b.apply_phase(la.phases[i + 1], la.instants[i]);
          plain.apply(step);
          replayed++;
          phases++;
        }
        next = la.instants[replayed];
      }
      b.reuse(std::move(a));
      t = std::min(next, next_event);
    }
    // What the comparison went through (not vacuous): plans and phases, mid-quantum calls, failures and requeues,
    // jobs that went back and jobs that moved.
    const auto n = static_cast<size_t>(calls);
    EXPECT_EQ(plans, n) << label;
    EXPECT_GT(phases, 2 * n) << label;
    EXPECT_GT(mid_quantum, n / 5) << label;
    EXPECT_GT(with_failures, n / 5) << label;
    EXPECT_GT(requeues, n / 50) << label;
    EXPECT_GT(plain.returns(), 20 * n) << label;
    EXPECT_GT(plain.moves(), 4 * n) << label;
    EXPECT_GT(counts_checked, 2 * n) << label;
  }
}

TEST(AdaptivePartitioning, BadParametersAreOneLine)
{
  auto make = [](const std::string& name, const std::map<std::string, std::string>& values) {
    Bench b(128, name, values);
  };
  EXPECT_THROW(make("ap", {{"rounding", "up"}}), InputError);
  EXPECT_THROW(make("ap", {{"quantum", "0"}}), InputError);
  EXPECT_THROW(make("ap", {{"partition_size", "129"}}), InputError);
  EXPECT_THROW(make("apvm", {{"fraction", "0"}}), InputError);
  EXPECT_THROW(make("apvm", {{"overhead", "-1"}}), InputError);
  EXPECT_THROW(make("apmc", {{"node_memory_mb", "0"}}), InputError);
  EXPECT_THROW(make("apmc", {{"configure", "later"}}), InputError);
  EXPECT_THROW(make("apmc", {{"fraction", "0.5"}}), InputError); // APVM's parameter
  Bench b(128, "apmc", {});
  EXPECT_THROW(b.submit(1, 0, 200), InputError); // more memory than the machine
}

// ---------------------------------------------------------------------------------------------------------------
// The workload of section 4.1

/* Two classes, exponential of mean 300 (p = 0.75) and 3600 (p = 0.25): mean 0.75 x 300 + 0.25 x 3600 = 1125;
 * E[D^2] = 0.75 x 2 x 300^2 + 0.25 x 2 x 3600^2 = 6,615,000, so CV = sqrt(6,615,000 - 1125^2) / 1125 = 2.0559.
 * Over 2,000,000 draws (20 seeds of 100,000 jobs) both are within 1%. */
TEST(AdaptivePartitioningWorkload, DemandMoments)
{
  const double mean = 0.75 * 300 + 0.25 * 3600;
  const double second = 0.75 * 2 * 300.0 * 300 + 0.25 * 2 * 3600.0 * 3600;
  const double cv = std::sqrt(second - mean * mean) / mean;
  EXPECT_NEAR(mean, 1125, 1e-9);
  EXPECT_NEAR(cv, 2.0559, 1e-4);
  double sum = 0, sum2 = 0;
  long n = 0;
  for (std::uint64_t seed = 1; seed <= 20; seed++) {
    GeneratorSpec s;
    s.seed = seed;
    s.jobs = 100000;
    s.time_resolution = 0;
    s.serial_fraction = 1;
    s.run_time_distribution = RunTimeDistribution::two_class;
    s.short_mean = 300;
    s.long_mean = 3600;
    s.long_fraction = 0.25;
    for (const auto& r : generate_jobs(s, 128)) {
      EXPECT_EQ(r.job.size, 1);
      sum += r.job.run_time;
      sum2 += r.job.run_time * r.job.run_time;
      n++;
    }
  }
  const double m = sum / n;
  const double sample_cv = std::sqrt(sum2 / n - m * m) / m;
  EXPECT_NEAR(m / mean, 1, 0.01) << m;
  EXPECT_NEAR(sample_cv / cv, 1, 0.01) << sample_cv;
}

/* A: uniform 1..128 (mean 64.5); B: 1..64 with probability 0.75, else 65..128 (mean 0.75 x 32.5 + 0.25 x 96.5 =
 * 48.5); C: uniform 1..64 (mean 32.5). */
TEST(AdaptivePartitioningWorkload, MemoryDistributions)
{
  struct Expect {
    MemoryDistribution d;
    int lo, hi;
    double mean, above_64;
  };
  for (const Expect& e :
       {Expect{MemoryDistribution::setia_a, 1, 128, 64.5, 0.5}, Expect{MemoryDistribution::setia_b, 1, 128, 48.5, 0.25},
        Expect{MemoryDistribution::setia_c, 1, 64, 32.5, 0}}) {
    RandomStream stream(3, "memory requirements");
    const int draws = 200000;
    double sum = 0;
    int lo = 1000, hi = 0, above = 0;
    for (int i = 0; i < draws; i++) {
      int m = draw_memory_processors(e.d, 128, stream);
      sum += m;
      lo = std::min(lo, m);
      hi = std::max(hi, m);
      above += m > 64;
    }
    EXPECT_EQ(lo, e.lo);
    EXPECT_EQ(hi, e.hi);
    EXPECT_NEAR(sum / draws / e.mean, 1, 0.01);
    EXPECT_NEAR(static_cast<double>(above) / draws, e.above_64, 0.005);
  }
  // The generator writes min_j x node_memory_mb over the job's processes.
  GeneratorSpec s;
  s.jobs = 50;
  s.serial_fraction = 1;
  s.memory_distribution = MemoryDistribution::setia_c;
  s.node_memory_mb = 32;
  for (const auto& r : generate_jobs(s, 128)) {
    const double processors = r.job.memory_kb * r.job.size / (32 * 1024.0);
    EXPECT_DOUBLE_EQ(processors, std::round(processors));
    EXPECT_GE(processors, 1);
    EXPECT_LE(processors, 64);
  }
}

TEST(AdaptivePartitioningWorkload, SaturationTest)
{
  EXPECT_FALSE(saturation_test(4.0, 5.0));   // a stable queue, noise
  EXPECT_FALSE(saturation_test(2.0, 6.0));   // tripled but nearly empty: within the margin
  EXPECT_TRUE(saturation_test(10.7, 41.3));  // growing
  EXPECT_FALSE(saturation_test(30.0, 40.0)); // long but not growing by half
  EXPECT_FALSE(saturation_test(6.1, 18.2));  // heavy traffic: doubled, but by 12 jobs (GS(32) at 0.7, stable)
  EXPECT_TRUE(saturation_test(20.0, 45.0));  // by half and by 25 jobs
}
