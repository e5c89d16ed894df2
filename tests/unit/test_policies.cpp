/* FCFS, EASY and conservative backfilling on small cases whose schedules were computed by hand (in the comments). */
#include "support/policy_driver.hpp"

#include <gtest/gtest.h>

using namespace jobsched;
using jobsched::testing::drive;
using jobsched::testing::job;
using jobsched::testing::PolicyUnderTest;

namespace {

std::map<JobId, double> starts(const std::string& policy, int processors, const JobList& jobs)
{
  PolicyUnderTest p(policy, processors);
  return drive(p, jobs).start;
}

using Starts = std::map<JobId, double>;

/* 4 processors. J1 takes 3 until t=10; J2 (2 procs) is the blocked head; J3 needs the whole machine; J4 (1 proc,
 * 100 s) arrives at t=1.
 *   FCFS: J2 at 10 (J1 ends), J3 at 20 (J2 ends), J4 at 30 behind J3.
 *   EASY: shadow for J2 = 10 with 4-2 = 2 extra processors, so J4 (long, 1 proc) backfills at 1 on an extra one;
 *         J2 at 10; J3 waits for J4: 101. J4 delayed J3, which only the head's reservation forbids.
 *   Conservative: J3 holds [20,30); J4 would overlap it, so it is planned after: 30. */
const JobList kBackfillCase = {job(1, 0, 3, 10), job(2, 0, 2, 10), job(3, 0, 4, 10), job(4, 1, 1, 100)};

TEST(Fcfs, StartsInOrderAndBlocksBehindTheHead)
{
  EXPECT_EQ(starts("fcfs", 4, kBackfillCase), (Starts{{1, 0}, {2, 10}, {3, 20}, {4, 30}}));
}

TEST(Easy, BackfillsOnExtraProcessorsEvenIfThatDelaysTheSecondJob)
{
  EXPECT_EQ(starts("easy", 4, kBackfillCase), (Starts{{1, 0}, {2, 10}, {3, 101}, {4, 1}}));
}

TEST(Conservative, NeverDelaysAnEarlierReservation)
{
  EXPECT_EQ(starts("conservative", 4, kBackfillCase), (Starts{{1, 0}, {2, 10}, {3, 20}, {4, 30}}));
}

/* 4 processors. J1 (3 procs) until 10. Head J2 needs all 4: shadow 10, no extra processor.
 * J3 (1 proc, 100 s) would end after the shadow time: it must wait (FCFS order after J2: 15).
 * J4 (1 proc, 5 s) ends at 5 <= 10: EASY backfills it at 0; FCFS keeps it behind: 15. */
TEST(Easy, ShortJobBackfillsLongJobMayNotDelayTheHead)
{
  JobList jobs = {job(1, 0, 3, 10), job(2, 0, 4, 5), job(3, 0, 1, 100), job(4, 0, 1, 5)};
  EXPECT_EQ(starts("easy", 4, jobs), (Starts{{1, 0}, {2, 10}, {3, 15}, {4, 0}}));
  EXPECT_EQ(starts("fcfs", 4, jobs), (Starts{{1, 0}, {2, 10}, {3, 15}, {4, 15}}));
}

/* First-fit list scheduling on the same queue: J3 fits at 0 on the processor J1 leaves idle and starts (no head to
 * protect); J4 finds nothing free until J1 ends at 10 (J2 still needs all 4, J3 holds one until 100), starts then;
 * J2 waits for the whole machine: 100. */
TEST(FirstFitList, EveryJobThatFitsStartsNoneBlocks)
{
  JobList jobs = {job(1, 0, 3, 10), job(2, 0, 4, 5), job(3, 0, 1, 100), job(4, 0, 1, 5)};
  EXPECT_EQ(starts("first-fit-list", 4, jobs), (Starts{{1, 0}, {2, 100}, {3, 0}, {4, 10}}));
  // kBackfillCase: J4 (1 proc) starts at 1 on the idle one, J2 at 10, J3 (whole machine) when J4 ends at 101.
  EXPECT_EQ(starts("first-fit-list", 4, kBackfillCase), (Starts{{1, 0}, {2, 10}, {3, 101}, {4, 1}}));
}

/* Early completion: J1 asks for 10 s but ends at 5. J2 (whole machine) holds a reservation at 10; J3 (2 procs,
 * 8 s) ends at 9 <= 10 and backfills at 1. When J1 ends at 5, J3 still holds 2 processors until 9: J2 starts at 9,
 * earlier than its reservation. FCFS starts J2 at 5 and J3 after it, at 10. */
TEST(Easy, EarlyCompletionMovesTheReservationEarlier)
{
  JobList jobs = {job(1, 0, 2, 5, 10), job(2, 0, 4, 5), job(3, 1, 2, 8)};
  EXPECT_EQ(starts("easy", 4, jobs), (Starts{{1, 0}, {2, 9}, {3, 1}}));
  EXPECT_EQ(starts("conservative", 4, jobs), (Starts{{1, 0}, {2, 9}, {3, 1}}));
  EXPECT_EQ(starts("fcfs", 4, jobs), (Starts{{1, 0}, {2, 5}, {3, 10}}));
}

/* Conservative compression: J1 (2 procs) asks 10 s, runs 5. J2 (4 procs) planned at [10,15). J3 (2 procs, 3 s) fits
 * before: starts at 1. J4 (2 procs, 20 s, t=2) cannot fit before J2's reservation: planned at 15. At 5 J1 ends early:
 * J2 is compressed to 5, then J4 to 10 (after J2), and never later than its plan of 15. */
TEST(Conservative, CompressionOnEarlyCompletion)
{
  JobList jobs = {job(1, 0, 2, 5, 10), job(2, 0, 4, 5), job(3, 1, 2, 3), job(4, 2, 2, 20)};
  EXPECT_EQ(starts("conservative", 4, jobs), (Starts{{1, 0}, {2, 5}, {3, 1}, {4, 10}}));
}

/* A job that ends exactly at the shadow time does not delay the head: it may backfill. */
TEST(Easy, JobEndingExactlyAtShadowTimeBackfills)
{
  JobList jobs = {job(1, 0, 3, 10), job(2, 0, 4, 5), job(3, 4, 1, 6)};
  EXPECT_EQ(starts("easy", 4, jobs), (Starts{{1, 0}, {2, 10}, {3, 4}}));
}

/* Simultaneous events: J1 ends at 10 and J2 (whole machine) is submitted at 10: completions are handled first, so
 * J2 starts at 10, in the same decision pass. */
TEST(AllPolicies, CompletionBeforeSubmissionAtTheSameInstant)
{
  JobList jobs = {job(1, 0, 4, 10), job(2, 10, 4, 5)};
  for (const char* name : {"fcfs", "easy", "conservative", "first-fit-list"}) {
    PolicyUnderTest p(name, 4);
    auto r = drive(p, jobs);
    EXPECT_EQ(r.start, (Starts{{1, 0}, {2, 10}})) << name;
    EXPECT_EQ(r.decide_calls, 3) << name; // t=0, t=10 (one pass for both events), t=15
  }
}

/* The head's reservation takes processors that are busy now (released by J1), leaving the idle one to the long
 * backfilled job: J3 gets processor 3, not one of 0-2. */
TEST(Easy, ReservationPrefersReleasedProcessors)
{
  JobList jobs = {job(1, 0, 3, 10), job(2, 0, 2, 10), job(3, 0, 1, 100)};
  PolicyUnderTest p("easy", 4);
  auto r = drive(p, jobs);
  EXPECT_EQ(r.resources.at(1).to_string(), "0-2");
  EXPECT_EQ(r.resources.at(3).to_string(), "3");
  EXPECT_EQ(r.start.at(3), 0);
}

TEST(Registry, UnknownPolicyNamesTheKnownOnes)
{
  try {
    policy_registry().get("nope");
    FAIL() << "no error";
  } catch (const InputError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("policy.name"), std::string::npos) << msg;
    EXPECT_NE(msg.find("easy"), std::string::npos) << msg;
    EXPECT_NE(msg.find("conservative"), std::string::npos) << msg;
  }
}

} // namespace
