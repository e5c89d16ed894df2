/* EQUI's admission (plugin/policies/time_sharing/equi.cpp) on views built by hand: with `admission: skip` a large
 * rigid job waits while later small ones pass it for as long as they keep coming; with `admission: in-order` it
 * starts as soon as the processors held when it became first are free, and the jobs behind it wait. The expected
 * plans are worked out by hand in the comments. */
#include "core/errors.hpp"
#include "policies/time_sharing/equi.hpp"
#include "policy/policy.hpp"
#include "support/time_sharing_bench.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace jobsched;

namespace {

/* EQUI on a uniform machine of `processors`, fed rigid or moldable jobs. */
class EquiBench : public jobsched::testing::TimeSharingBench {
 public:
  EquiBench(int processors, const std::map<std::string, std::string>& values)
      : TimeSharingBench(processors, "equi", values)
  {
  }
  /* Submit job `id` at `now`: rigid of `size` processors, or moldable from `size` to the whole machine. */
  void submit(JobId id, double now, int size, JobShape shape = JobShape::rigid)
  {
    Job j;
    j.id = id;
    j.submit_time = now;
    j.shape = shape;
    j.size = size;
    j.min_size = size;
    j.max_size = processors();
    TimeSharingBench::submit(j, now);
  }
  /* The processors each running job holds after a plan at `now`. */
  std::map<JobId, int> plan(double now) { return jobsched::testing::processor_counts(TimeSharingBench::plan(now)); }
};

using Counts = std::map<JobId, int>;

} // namespace

/* 8 processors. Job 1 (rigid 4) runs; job 2 (rigid 6) arrives: 4 are free, it waits. Then rigid jobs of 4 arrive one
 * after the other, each just before the previous one ends:
 *   skip:     job 3 takes the 4 free processors; job 1 ends (4 free, job 2 still needs 6); job 4 takes them; job 3
 *             ends; job 5 takes them... job 2 never starts while the small ones keep coming.
 *   in-order: job 3 waits behind job 2; job 1 ends: 8 free, job 2 takes 6, job 3 (4) does not fit in the 2 left and
 *             waits; job 4 arrives and waits too; job 2 ends: jobs 3 and 4 take 4 each. */
TEST(Equi, SkipLetsSmallJobsPassALargeOneForever)
{
  EquiBench skip(8, {});
  skip.submit(1, 0, 4);
  EXPECT_EQ(skip.plan(0), (Counts{{1, 4}}));
  skip.submit(2, 1, 6);
  EXPECT_EQ(skip.plan(1), (Counts{{1, 4}}));
  skip.submit(3, 2, 4);
  EXPECT_EQ(skip.plan(2), (Counts{{1, 4}, {3, 4}}));
  JobId older = 1; // the two small jobs running
  JobId newer = 3;
  for (JobId next = 4; next < 10; next++) {
    const double t = 10.0 * static_cast<double>(next);
    skip.end(older, t); // `newer` still holds 4 processors: job 2 does not fit in the other 4
    EXPECT_EQ(skip.plan(t), (Counts{{newer, 4}})) << "at " << t;
    skip.submit(next, t + 1, 4);
    EXPECT_EQ(skip.plan(t + 1), (Counts{{newer, 4}, {next, 4}})) << "at " << t + 1;
    older = newer;
    newer = next;
  }
}

TEST(Equi, InOrderAdmissionStopsAtTheFirstJobThatDoesNotFit)
{
  EquiBench in_order(8, {{"admission", "in-order"}});
  in_order.submit(1, 0, 4);
  EXPECT_EQ(in_order.plan(0), (Counts{{1, 4}}));
  in_order.submit(2, 1, 6);
  EXPECT_EQ(in_order.plan(1), (Counts{{1, 4}}));
  in_order.submit(3, 2, 4);
  EXPECT_EQ(in_order.plan(2), (Counts{{1, 4}})); // 4 free, but job 2 is first and needs 6
  in_order.end(1, 30);
  EXPECT_EQ(in_order.plan(30), (Counts{{2, 6}})); // 2 left, job 3 needs 4
  in_order.submit(4, 31, 4);
  EXPECT_EQ(in_order.plan(31), (Counts{{2, 6}}));
  in_order.end(2, 40);
  EXPECT_EQ(in_order.plan(40), (Counts{{3, 4}, {4, 4}}));
}

/* Moldable jobs share what is left after admission, under either rule. 10 processors: rigid job 1 (6) runs; rigid job
 * 2 (8) waits; moldable job 3 (minimum 2) arrives.
 *   skip:     job 3 is admitted with its 2, then gets the 2 left over: 4.
 *   in-order: job 3 waits behind job 2; the 4 free processors stay idle. */
TEST(Equi, AdmissionDecidesWhoSharesTheRest)
{
  for (const char* admission : {"skip", "in-order"}) {
    EquiBench bench(10, {{"admission", admission}});
    bench.submit(1, 0, 6);
    bench.submit(2, 0, 8);
    bench.submit(3, 0, 2, JobShape::moldable);
    const Counts expected = std::string(admission) == "skip" ? Counts{{1, 6}, {3, 4}} : Counts{{1, 6}};
    EXPECT_EQ(bench.plan(0), expected) << admission;
  }
}

/* A moldable job's processor count is fixed once it started (the driver refuses another). 8 processors: moldable job 1
 * (2 to 8) alone takes all 8; moldable job 2 (2 to 8) arrives and waits (job 1 keeps its 8). Processor 7 goes down (its
 * owner is back): job 1 no longer holds what it runs on, but may only run on 8 again, which the 7 up cannot give: job 2
 * takes the 7 (its 2 and the 5 left). Processor 7 comes back: job 2 keeps its 7, job 1 still needs 8 and waits; job 2
 * ends: job 1 runs on 8 again. (Without the rule job 1 and job 2 would split the 7, 4 and 3.) */
TEST(Equi, StartedMoldableJobKeepsItsCount)
{
  EquiBench bench(8, {});
  bench.submit(1, 0, 2, JobShape::moldable);
  EXPECT_EQ(bench.plan(0), (Counts{{1, 8}}));
  bench.submit(2, 1, 2, JobShape::moldable);
  EXPECT_EQ(bench.plan(1), (Counts{{1, 8}}));
  bench.set_up(ResourceSet::range(8, 0, 7));
  EXPECT_EQ(bench.plan(2), (Counts{{2, 7}}));
  bench.set_up(ResourceSet::all(8));
  EXPECT_EQ(bench.plan(3), (Counts{{2, 7}}));
  bench.end(2, 10);
  EXPECT_EQ(bench.plan(10), (Counts{{1, 8}}));
}

TEST(Equi, AdmissionParameterIsChecked)
{
  try {
    EquiBench bench(4, {{"admission", "fifo"}});
    FAIL() << "admission: fifo was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("policy.params.admission: 'fifo' is not one of skip, in-order"),
              std::string::npos)
        << e.what();
  }
}

/* The water-filling split against the rule it replaced, kept here as the reference: processors handed out one at a
 * time, each to the job with the fewest (ties: the earliest) below its maximum. Random minimums, maximums (some at
 * or below the minimum: jobs that cannot grow) and spare counts, from none to more than every job can take; many
 * equal minimums so that ties decide. */
TEST(Equi, WaterFillingSplitsAsOneAtATime)
{
  auto one_at_a_time = [](std::vector<int> share, const std::vector<int>& maximum, int left) {
    while (left > 0) {
      int best = -1;
      for (size_t i = 0; i < share.size(); i++)
        if (share[i] < maximum[i] && (best < 0 || share[i] < share[static_cast<size_t>(best)]))
          best = static_cast<int>(i);
      if (best < 0) break;
      share[static_cast<size_t>(best)]++;
      left--;
    }
    return share;
  };
  std::mt19937 rng(2023);
  int ties_split = 0; // cases where jobs of equal count ended one apart (the tie-breaking was exercised)
  for (int trial = 0; trial < 5000; trial++) {
    const int jobs = std::uniform_int_distribution<int>(0, trial % 10 == 0 ? 60 : 12)(rng);
    const int range = trial % 3 == 0 ? 4 : 40;
    std::vector<int> minimum(static_cast<size_t>(jobs));
    std::vector<int> maximum(static_cast<size_t>(jobs));
    long capacity = 0;
    for (int i = 0; i < jobs; i++) {
      minimum[static_cast<size_t>(i)] = std::uniform_int_distribution<int>(1, range)(rng);
      maximum[static_cast<size_t>(i)] = std::uniform_int_distribution<int>(1, 2 * range)(rng);
      capacity += std::max(0, maximum[static_cast<size_t>(i)] - minimum[static_cast<size_t>(i)]);
    }
    const int spare = std::uniform_int_distribution<int>(0, static_cast<int>(capacity) + 5)(rng);
    const std::vector<int> expected = one_at_a_time(minimum, maximum, spare);
    ASSERT_EQ(max_min_fair_split(minimum, maximum, spare), expected) << "trial " << trial;
    for (size_t i = 0; i + 1 < expected.size(); i++)
      if (expected[i] == expected[i + 1] + 1 && minimum[i] < expected[i] && maximum[i + 1] > expected[i + 1]) {
        ties_split++;
        break;
      }
  }
  EXPECT_GT(ties_split, 100);
  // By hand: minimums 1, 3, 1, maximums 5, 4, 2, 6 spare: levels 1 -> 2 (jobs 0 and 2: 2 processors), 2 -> 3 (job 0
  // only, job 2 is at its maximum: 1), 3 -> 4 (jobs 0 and 1: 2), then 1 left for the first job at 4 below its
  // maximum: job 0 gets 5. Result 5, 4, 2.
  EXPECT_EQ(max_min_fair_split({1, 3, 1}, {5, 4, 2}, 6), (std::vector<int>{5, 4, 2}));
  EXPECT_EQ(max_min_fair_split({2, 2, 2}, {9, 9, 9}, 4), (std::vector<int>{4, 3, 3}));
}
