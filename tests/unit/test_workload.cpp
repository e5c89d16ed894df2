/* build_workload: validity checks, the scenario's filter, the overrun rule and the ordering, on hand-made records
 * (expected counts worked out by hand) and on the real KTH SP2 log (expected counts from the traces README and from
 * an independent scan of the file written here with plain zlib and istringstream). */
#include "core/errors.hpp"
#include "support/input_error.hpp"
#include "workload/swf_reader.hpp"
#include "workload/workload.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>
#include <zlib.h>

using jobsched::build_workload;
using jobsched::InputError;
using jobsched::Job;
using jobsched::JobRecord;
using jobsched::Overrun;
using jobsched::Workload;
using jobsched::WorkloadFilter;

namespace {

const std::string kth_path = SOURCE_DIR "/../shared/data/traces/KTH-SP2-1996-2.1-cln.swf.gz";

JobRecord rec(long id, double submit, int size, double run_time, double estimate, int line = 0)
{
  JobRecord r;
  r.job.id = id;
  r.job.submit_time = submit;
  r.job.size = size;
  r.job.run_time = run_time;
  r.job.estimate = estimate;
  r.origin = "t.swf:" + std::to_string(line > 0 ? line : id);
  return r;
}

std::vector<long> ids(const Workload& w)
{
  std::vector<long> out;
  for (const auto& j : w.jobs)
    out.push_back(static_cast<long>(j.id));
  return out;
}
using jobsched::testing::input_error_of;

using Skips = std::map<std::string, long>;

} // namespace

/* Load scaling divides inter-arrival times from the first submission on; the offered load is the work over the
 * capacity during the submissions: (4 x 100 + 2 x 50 + 4 x 100) / (16 x 150) at factor 2. */
TEST(BuildWorkload, LoadFactorDividesInterArrivalTimes)
{
  std::vector<JobRecord> r{rec(1, 100, 4, 100, 100), rec(2, 200, 2, 50, 50), rec(3, 400, 4, 100, 100)};
  WorkloadFilter f;
  f.load_factor = 2;
  Workload w = build_workload("w", r, f, 16, 0);
  ASSERT_EQ(w.jobs.size(), 3U);
  EXPECT_DOUBLE_EQ(w.jobs[0].submit_time, 100);
  EXPECT_DOUBLE_EQ(w.jobs[1].submit_time, 150);
  EXPECT_DOUBLE_EQ(w.jobs[2].submit_time, 250);
  EXPECT_DOUBLE_EQ(w.offered_load, 900.0 / (16 * 150));
  Workload unscaled = build_workload("w", r, WorkloadFilter{}, 16, 0);
  EXPECT_DOUBLE_EQ(unscaled.offered_load, 900.0 / (16 * 300));
}

/* Input shaking: 2,000 jobs submitted 100 s apart, shaken by up to 30 s. Every shift is within +-30 s (checked by
 * matching each job's id back to its recorded submission), none is before the first submission, the jobs come out in
 * submission order, the mean shift of a uniform(-30, 30) draw is 0 with standard deviation 30 / sqrt(3 x 2000) =
 * 0.39 s (asserted within 4 of them), at least 95% of the jobs moved (a draw of exactly 0 has probability 0), the
 * same seed gives the same times and another seed others, and shake 0 leaves the trace as it is. */
TEST(BuildWorkload, ShakeMovesEachSubmissionWithinItsBound)
{
  std::vector<JobRecord> r;
  for (long i = 0; i < 2000; i++)
    r.push_back(rec(i + 1, 1000 + 100.0 * i, 1, 10, 10));
  WorkloadFilter f;
  f.shake = 30;
  f.shake_seed = 7;
  Workload w = build_workload("w", r, f, 16, 0);
  ASSERT_EQ(w.jobs.size(), 2000U);
  double sum = 0;
  int moved = 0;
  for (size_t k = 0; k < w.jobs.size(); k++) {
    const auto& j = w.jobs[k];
    const double recorded = 1000 + 100.0 * static_cast<double>(j.id - 1);
    EXPECT_LE(std::abs(j.submit_time - recorded), 30.0) << "job " << j.id;
    EXPECT_GE(j.submit_time, 1000.0);
    if (k > 0) {
      EXPECT_LE(w.jobs[k - 1].submit_time, j.submit_time);
    }
    if (j.id > 1) sum += j.submit_time - recorded; // the first job can only move later (clamped)
    moved += j.submit_time != recorded;
  }
  EXPECT_NEAR(sum / 1999, 0.0, 4 * 30 / std::sqrt(3.0 * 1999));
  EXPECT_GE(moved, 1900);
  Workload again = build_workload("w", r, f, 16, 0);
  Workload other_seed = build_workload(
      "w", r,
      [&] {
        WorkloadFilter g = f;
        g.shake_seed = 8;
        return g;
      }(),
      16, 0);
  int same = 0;
  int differ = 0;
  for (size_t k = 0; k < w.jobs.size(); k++) {
    same += w.jobs[k].submit_time == again.jobs[k].submit_time;
    differ += w.jobs[k].submit_time != other_seed.jobs[k].submit_time;
  }
  EXPECT_EQ(same, 2000);
  EXPECT_GE(differ, 1900);
  Workload unshaken = build_workload("w", r, WorkloadFilter{}, 16, 0);
  for (size_t k = 0; k < unshaken.jobs.size(); k++)
    ASSERT_EQ(unshaken.jobs[k].submit_time, 1000 + 100.0 * static_cast<double>(k));
}

/* Shaking reorders jobs closer together than the shake: two jobs 1 s apart, shaken by up to 1000 s, come out in
 * submission order whatever their draws; over 20 seeds both orders appear (each has probability 1/2 for two i.i.d.
 * draws, so the chance of seeing only one is 2 x 2^-20). */
TEST(BuildWorkload, ShakeReordersCloseSubmissions)
{
  std::vector<JobRecord> r{rec(1, 5000, 1, 10, 10), rec(2, 5001, 1, 10, 10)};
  std::set<long> first_ids;
  for (std::uint64_t seed = 1; seed <= 20; seed++) {
    WorkloadFilter f;
    f.shake = 1000;
    f.shake_seed = seed;
    Workload w = build_workload("w", r, f, 16, 0);
    ASSERT_EQ(w.jobs.size(), 2U);
    EXPECT_LE(w.jobs[0].submit_time, w.jobs[1].submit_time);
    first_ids.insert(static_cast<long>(w.jobs[0].id));
  }
  EXPECT_EQ(first_ids.size(), 2U);
}

/* A job number read twice is an error naming both places; the check has a path of its own while the numbers increase
 * (no table), so repeats are tried after increasing runs, after a first decrease, and among skipped records. */
TEST(BuildWorkload, AJobNumberReadTwiceIsAnErrorNamingBothLines)
{
  // 1, 2, 3 increase; the second 2 is the first number that does not: it repeats line 2's.
  std::vector<JobRecord> r = {rec(1, 0, 1, 10, 10, 1), rec(2, 1, 1, 10, 10, 2), rec(3, 2, 1, 10, 10, 3),
                              rec(2, 3, 1, 10, 10, 4)};
  EXPECT_EQ(input_error_of([&] { build_workload("w", r, WorkloadFilter{}, 16, 0); }),
            "t.swf:4: job number 2 appears twice (first at t.swf:2)");
  // 5, 3, 4 do not increase but none repeats; the second 3 (line 4) repeats line 2's, after the first decrease.
  r = {rec(5, 0, 1, 10, 10, 1), rec(3, 1, 1, 10, 10, 2), rec(4, 2, 1, 10, 10, 3), rec(3, 3, 1, 10, 10, 4)};
  EXPECT_EQ(input_error_of([&] { build_workload("w", r, WorkloadFilter{}, 16, 0); }),
            "t.swf:4: job number 3 appears twice (first at t.swf:2)");
  r.pop_back();
  EXPECT_EQ(ids(build_workload("w", r, WorkloadFilter{}, 16, 0)), (std::vector<long>{5, 3, 4}));
  // A skipped record (no run time, line 1) does not take its number: the later job 7 is kept, as is 6 after it.
  r = {rec(7, 0, 1, 0, 10, 1), rec(7, 1, 1, 10, 10, 2), rec(6, 2, 1, 10, 10, 3)};
  Workload w = build_workload("w", r, WorkloadFilter{}, 16, 0);
  EXPECT_EQ(ids(w), (std::vector<long>{7, 6}));
  EXPECT_EQ(w.skipped.at("no_run_time"), 1);
  // The first repeat in record order is the one named, whichever path found the earlier number.
  r = {rec(1, 0, 1, 10, 10, 1), rec(9, 1, 1, 10, 10, 2), rec(4, 2, 1, 10, 10, 3), rec(9, 3, 1, 10, 10, 4),
       rec(1, 4, 1, 10, 10, 5)};
  EXPECT_EQ(input_error_of([&] { build_workload("w", r, WorkloadFilter{}, 16, 0); }),
            "t.swf:4: job number 9 appears twice (first at t.swf:2)");
}

TEST(BuildWorkload, AllValidKeepsEverything)
{
  std::vector<JobRecord> r{rec(1, 0, 4, 100, 200), rec(2, 5, 16, 50, 60)};
  Workload w = build_workload("w", r, WorkloadFilter{}, 16, 32);
  EXPECT_EQ(w.name, "w");
  EXPECT_EQ(w.source_records, 2);
  EXPECT_EQ(w.source_max_procs, 32);
  EXPECT_EQ(ids(w), (std::vector<long>{1, 2}));
  EXPECT_TRUE(w.skipped.empty());
  EXPECT_EQ(w.overrun_jobs, 0);
  EXPECT_DOUBLE_EQ(w.jobs[0].estimate, 200); // untouched
  EXPECT_DOUBLE_EQ(w.jobs[1].estimate, 60);
}

TEST(BuildWorkload, InvalidRecordsAreSkippedWithTheirReason)
{
  std::vector<JobRecord> r{
      rec(1, 0, 4, 100, 200),  // kept
      rec(2, 1, 4, 0, 200),    // no_run_time (0)
      rec(3, 2, 4, -1, 200),   // no_run_time (-1)
      rec(4, 3, -1, 100, 200), // no_size
      rec(5, 4, 0, 100, 200),  // no_size
      rec(6, 5, -1, -1, 200),  // both missing: counted once, as no_size
      rec(7, 6, 2, 10, 20),    // kept
  };
  Workload w = build_workload("w", r, WorkloadFilter{}, 16, 0);
  EXPECT_EQ(ids(w), (std::vector<long>{1, 7}));
  EXPECT_EQ(w.skipped, (Skips{{"no_run_time", 2}, {"no_size", 3}}));
  EXPECT_EQ(w.source_records, 7);
}

TEST(BuildWorkload, LargerThanMachineAndAboveMaxSize)
{
  WorkloadFilter f;
  f.max_size = 8;
  std::vector<JobRecord> r{
      rec(1, 0, 8, 100, 200),  // kept: exactly max_size
      rec(2, 1, 9, 100, 200),  // above_max_size
      rec(3, 2, 16, 100, 200), // above_max_size (fits the machine)
      rec(4, 3, 17, 100, 200), // larger_than_machine (checked first)
      rec(5, 4, 1, 100, 200),  // kept
  };
  Workload w = build_workload("w", r, f, 16, 0);
  EXPECT_EQ(ids(w), (std::vector<long>{1, 5}));
  EXPECT_EQ(w.skipped, (Skips{{"above_max_size", 2}, {"larger_than_machine", 1}}));
}

TEST(BuildWorkload, MachineSizeItselfFits)
{
  std::vector<JobRecord> r{rec(1, 0, 16, 100, 200), rec(2, 0, 17, 100, 200)};
  Workload w = build_workload("w", r, WorkloadFilter{}, 16, 0);
  EXPECT_EQ(ids(w), (std::vector<long>{1}));
  EXPECT_EQ(w.skipped, (Skips{{"larger_than_machine", 1}}));
}

TEST(BuildWorkload, APolicysLargestJobActsAsTheMachineSize)
{
  // Gang with partitions of 5 on 16 processors: one job has at most 15. Sizes 15, 16 and 17: 16 and 17 are oversize.
  std::vector<JobRecord> r{rec(1, 0, 15, 100, 200, 1), rec(2, 1, 16, 100, 200, 2), rec(3, 2, 17, 100, 200, 3)};
  const std::string why = "policy.params.partition_size: 3 partitions of 5 processors";
  Workload w = build_workload("w", r, WorkloadFilter{}, 16, 0, 15, why);
  EXPECT_EQ(ids(w), (std::vector<long>{1}));
  EXPECT_EQ(w.skipped, (Skips{{"larger_than_machine", 2}}));
  WorkloadFilter reject;
  reject.reject_oversize = true;
  std::vector<JobRecord> fits_machine{rec(1, 0, 15, 100, 200, 1), rec(2, 1, 16, 100, 200, 2)};
  EXPECT_EQ(input_error_of([&] { build_workload("w", fits_machine, reject, 16, 0, 15, why); }),
            "t.swf:2: job 2 asks for 16 processors but one job can have at most 15 of the 16 (" + why + ")");
  // Larger than the machine itself: the machine's message.
  std::vector<JobRecord> beyond{rec(3, 2, 17, 100, 200, 3)};
  EXPECT_EQ(input_error_of([&] { build_workload("w", beyond, reject, 16, 0, 15, why); }),
            "t.swf:3: job 3 asks for 17 processors but the machine has 16");
  // 0 (or a bound above the machine): the machine's size.
  EXPECT_EQ(ids(build_workload("w", r, WorkloadFilter{}, 16, 0, 0, "")), (std::vector<long>{1, 2}));
}

TEST(BuildWorkload, MaxJobsCountsOnlyValidJobs)
{
  WorkloadFilter f;
  f.max_jobs = 3;
  std::vector<JobRecord> r{
      rec(1, 0, 4, 100, 200),  // kept (1)
      rec(2, 1, 4, 0, 200),    // no_run_time: does not use up the budget
      rec(3, 2, 64, 100, 200), // larger_than_machine: neither
      rec(4, 3, 4, 100, 200),  // kept (2)
      rec(5, 4, 4, 100, 200),  // kept (3)
      rec(6, 5, 4, 100, 200),  // beyond_max_jobs
      rec(7, 6, 4, 0, 200),    // still no_run_time (validity is checked before the budget)
      rec(8, 7, 4, 100, 200),  // beyond_max_jobs
  };
  Workload w = build_workload("w", r, f, 16, 0);
  EXPECT_EQ(ids(w), (std::vector<long>{1, 4, 5}));
  EXPECT_EQ(w.skipped, (Skips{{"no_run_time", 2}, {"larger_than_machine", 1}, {"beyond_max_jobs", 2}}));
}

TEST(BuildWorkload, TimeWindow)
{
  WorkloadFilter f;
  f.start_time = 100;
  f.end_time = 200;
  std::vector<JobRecord> r{
      rec(1, 0, 4, 10, 20),    // before_start_time
      rec(2, 99.5, 4, 10, 20), // before_start_time
      rec(3, 100, 4, 10, 20),  // kept: start is inclusive
      rec(4, 150, 4, 0, 20),   // inside, but no_run_time
      rec(5, 199, 4, 10, 20),  // kept
      rec(6, 200, 4, 10, 20),  // after_end_time: end is exclusive
      rec(7, 300, 0, 0, 20),   // after_end_time (the window is checked before validity)
  };
  Workload w = build_workload("w", r, f, 16, 0);
  EXPECT_EQ(ids(w), (std::vector<long>{3, 5}));
  EXPECT_EQ(w.skipped, (Skips{{"before_start_time", 2}, {"after_end_time", 2}, {"no_run_time", 1}}));
}

TEST(BuildWorkload, TimeWindowWithMaxJobs)
{
  // The budget counts jobs inside the window only.
  WorkloadFilter f;
  f.start_time = 10;
  f.max_jobs = 2;
  std::vector<JobRecord> r{rec(1, 0, 1, 5, 5), rec(2, 5, 1, 5, 5), rec(3, 10, 1, 5, 5), rec(4, 11, 1, 5, 5),
                           rec(5, 12, 1, 5, 5)};
  Workload w = build_workload("w", r, f, 16, 0);
  EXPECT_EQ(ids(w), (std::vector<long>{3, 4}));
  EXPECT_EQ(w.skipped, (Skips{{"before_start_time", 2}, {"beyond_max_jobs", 1}}));
}

TEST(BuildWorkload, RejectInvalidNamesTheRecord)
{
  WorkloadFilter f;
  f.reject_invalid = true;
  std::vector<JobRecord> r{rec(1, 0, 4, 100, 200, 30), rec(42, 1, 4, 0, 200, 31)};
  std::string msg = input_error_of([&] { build_workload("w", r, f, 16, 0); });
  EXPECT_NE(msg.find("t.swf:31"), std::string::npos) << msg;
  EXPECT_NE(msg.find("job 42"), std::string::npos) << msg;
  EXPECT_NE(msg.find("run time"), std::string::npos) << msg;

  std::vector<JobRecord> s{rec(9, 0, -1, 100, 200, 77)};
  msg = input_error_of([&] { build_workload("w", s, f, 16, 0); });
  EXPECT_NE(msg.find("t.swf:77"), std::string::npos) << msg;
  EXPECT_NE(msg.find("job 9"), std::string::npos) << msg;
  EXPECT_NE(msg.find("processor"), std::string::npos) << msg;
}

TEST(BuildWorkload, RejectInvalidDoesNotRejectOversize)
{
  WorkloadFilter f;
  f.reject_invalid = true;
  std::vector<JobRecord> r{rec(1, 0, 64, 100, 200)};
  Workload w = build_workload("w", r, f, 16, 0);
  EXPECT_TRUE(w.jobs.empty());
  EXPECT_EQ(w.skipped, (Skips{{"larger_than_machine", 1}}));
}

TEST(BuildWorkload, RejectOversizeNamesTheRecordAndBothSizes)
{
  WorkloadFilter f;
  f.reject_oversize = true;
  std::vector<JobRecord> r{rec(1, 0, 4, 100, 200, 5), rec(2, 1, 64, 100, 200, 6)};
  std::string msg = input_error_of([&] { build_workload("w", r, f, 16, 0); });
  EXPECT_NE(msg.find("t.swf:6"), std::string::npos) << msg;
  EXPECT_NE(msg.find("job 2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("64"), std::string::npos) << msg;
  EXPECT_NE(msg.find("16"), std::string::npos) << msg;
}

TEST(BuildWorkload, RejectOversizeStillSkipsInvalidAndOutOfWindow)
{
  WorkloadFilter f;
  f.reject_oversize = true;
  f.end_time = 50;
  std::vector<JobRecord> r{rec(1, 0, 64, 0, 200), rec(2, 60, 64, 100, 200), rec(3, 1, 2, 10, 10)};
  Workload w = build_workload("w", r, f, 16, 0);
  EXPECT_EQ(ids(w), (std::vector<long>{3}));
  EXPECT_EQ(w.skipped, (Skips{{"no_run_time", 1}, {"after_end_time", 1}}));
}

TEST(BuildWorkload, OverrunExtendRaisesTheEstimate)
{
  std::vector<JobRecord> r{rec(1, 0, 4, 300, 100), rec(2, 0, 4, 100, 100), rec(3, 0, 4, 50, 100)};
  WorkloadFilter f;
  f.overrun = Overrun::extend;
  Workload w = build_workload("w", r, f, 16, 0);
  ASSERT_EQ(w.jobs.size(), 3u);
  EXPECT_EQ(w.overrun_jobs, 1); // only job 1 ran longer than requested (run time = estimate is no overrun)
  EXPECT_DOUBLE_EQ(w.jobs[0].estimate, 300);
  EXPECT_DOUBLE_EQ(w.jobs[0].requested_time, 100); // what jobs.csv reports: the request, not the raised estimate
  EXPECT_DOUBLE_EQ(w.jobs[0].run_time, 300);
  EXPECT_FALSE(w.jobs[0].kill_at_estimate);
  EXPECT_DOUBLE_EQ(w.jobs[1].estimate, 100);
  EXPECT_DOUBLE_EQ(w.jobs[2].estimate, 100);
  EXPECT_DOUBLE_EQ(w.jobs[1].requested_time, 100);
  EXPECT_DOUBLE_EQ(w.jobs[2].requested_time, 100);
  for (const auto& j : w.jobs)
    EXPECT_FALSE(j.kill_at_estimate);
}

TEST(BuildWorkload, OverrunKillKeepsTheEstimateAndFlagsTheJob)
{
  std::vector<JobRecord> r{rec(1, 0, 4, 300, 100), rec(2, 0, 4, 100, 100), rec(3, 0, 4, 50, 100)};
  WorkloadFilter f;
  f.overrun = Overrun::kill;
  Workload w = build_workload("w", r, f, 16, 0);
  ASSERT_EQ(w.jobs.size(), 3u);
  EXPECT_EQ(w.overrun_jobs, 1);
  EXPECT_DOUBLE_EQ(w.jobs[0].estimate, 100);
  EXPECT_DOUBLE_EQ(w.jobs[0].run_time, 300); // the truth is kept: the runtime kills it at 100
  EXPECT_DOUBLE_EQ(w.jobs[0].requested_time, 100);
  EXPECT_TRUE(w.jobs[0].kill_at_estimate);
  EXPECT_FALSE(w.jobs[1].kill_at_estimate);
  EXPECT_FALSE(w.jobs[2].kill_at_estimate);
}

TEST(BuildWorkload, MissingEstimateBecomesRunTimeAndIsNoOverrun)
{
  std::vector<JobRecord> r{rec(1, 0, 4, 300, -1), rec(2, 0, 4, 77, 0)};
  for (Overrun o : {Overrun::extend, Overrun::kill}) {
    WorkloadFilter f;
    f.overrun = o;
    Workload w = build_workload("w", r, f, 16, 0);
    ASSERT_EQ(w.jobs.size(), 2u);
    EXPECT_DOUBLE_EQ(w.jobs[0].estimate, 300);
    EXPECT_DOUBLE_EQ(w.jobs[1].estimate, 77);
    EXPECT_DOUBLE_EQ(w.jobs[0].requested_time, 300); // none given: the run time, as the estimate
    EXPECT_DOUBLE_EQ(w.jobs[1].requested_time, 77);
    EXPECT_EQ(w.overrun_jobs, 0);
    EXPECT_FALSE(w.jobs[0].kill_at_estimate);
    EXPECT_FALSE(w.jobs[1].kill_at_estimate);
  }
}

TEST(BuildWorkload, EstimateFromSwfMinusOneBecomesRunTime)
{
  // The reader leaves -1 when field 9 is -1; build_workload substitutes the run time (field 4 = 50).
  auto swf = jobsched::parse_swf("2 10 0 50 6 -1 -1 -1 -1 -1 1 3 3 -1 -1 -1 -1 -1\n", "m.swf");
  Workload w = build_workload("m", swf.records, WorkloadFilter{}, 16, swf.max_procs);
  ASSERT_EQ(w.jobs.size(), 1u);
  EXPECT_DOUBLE_EQ(w.jobs[0].estimate, 50);
}

TEST(BuildWorkload, OutputIsSortedBySubmitTimeStably)
{
  std::vector<JobRecord> r{rec(1, 30, 1, 5, 5), rec(2, 10, 1, 5, 5), rec(3, 20, 1, 5, 5), rec(4, 10, 1, 5, 5),
                           rec(5, 0, 1, 5, 5)};
  Workload w = build_workload("w", r, WorkloadFilter{}, 16, 0);
  EXPECT_EQ(ids(w), (std::vector<long>{5, 2, 4, 3, 1})); // 2 before 4: equal submit times keep file order
}

TEST(BuildWorkload, MaxJobsTakesTheFirstInFileOrderThenSorts)
{
  WorkloadFilter f;
  f.max_jobs = 2;
  std::vector<JobRecord> r{rec(1, 30, 1, 5, 5), rec(2, 10, 1, 5, 5), rec(3, 0, 1, 5, 5)};
  Workload w = build_workload("w", r, f, 16, 0);
  EXPECT_EQ(ids(w), (std::vector<long>{2, 1}));
  EXPECT_EQ(w.skipped, (Skips{{"beyond_max_jobs", 1}}));
}

TEST(BuildWorkload, RejectionReasonsAreTheRecordsTheSimulatorCannotRun)
{
  // Every reason build_workload can give, produced here so that a renamed reason would show.
  WorkloadFilter f;
  f.start_time = 10;
  f.end_time = 100;
  f.max_size = 8;
  f.max_jobs = 1;
  std::vector<JobRecord> r{rec(1, 0, 4, 10, 10),  rec(2, 200, 4, 10, 10), rec(3, 20, 4, 0, 10),
                           rec(4, 20, 0, 10, 10), rec(5, 20, 32, 10, 10), rec(6, 20, 12, 10, 10),
                           rec(7, 20, 4, 10, 10), rec(8, 20, 4, 10, 10)};
  Workload w = build_workload("w", r, f, 16, 0);
  const Skips all{{"before_start_time", 1},   {"after_end_time", 1}, {"no_run_time", 1},    {"no_size", 1},
                  {"larger_than_machine", 1}, {"above_max_size", 1}, {"beyond_max_jobs", 1}};
  ASSERT_EQ(w.skipped, all);
  std::set<std::string> rejections;
  for (const auto& [reason, n] : w.skipped)
    if (jobsched::is_rejection_reason(reason)) rejections.insert(reason);
  EXPECT_EQ(rejections, (std::set<std::string>{"no_run_time", "no_size", "larger_than_machine"}));
}

TEST(BuildWorkload, EmptyInput)
{
  Workload w = build_workload("none", {}, WorkloadFilter{}, 16, 0);
  EXPECT_TRUE(w.jobs.empty());
  EXPECT_EQ(w.source_records, 0);
  EXPECT_TRUE(w.skipped.empty());
}

namespace {

/* An independent scan of an SWF file: zlib line by line, fields by istringstream. */
struct KthFacts {
  long records = 0;
  long no_run_time = 0;   // field 4 <= 0 (and a size)
  long no_size = 0;       // fields 8 and 5 both <= 0
  long over_estimate = 0; // valid jobs with field 4 > field 9 (> 0)
  std::set<long> skipped_ids;
  bool ok = false;
};

KthFacts scan(const std::string& path)
{
  KthFacts k;
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr) return k;
  char buf[4096];
  while (gzgets(f, buf, sizeof buf) != nullptr) {
    std::istringstream in(buf);
    std::vector<double> v;
    for (double x; in >> x;)
      v.push_back(x);
    if (v.empty()) continue; // comment (';' stops >>) or blank
    if (v.size() != 18) {
      gzclose(f);
      return k;
    }
    k.records++;
    double size = v[7] > 0 ? v[7] : v[4];
    if (size <= 0) {
      k.no_size++;
      k.skipped_ids.insert(static_cast<long>(v[0]));
    } else if (v[3] <= 0) {
      k.no_run_time++;
      k.skipped_ids.insert(static_cast<long>(v[0]));
    } else if (v[8] > 0 && v[3] > v[8]) {
      k.over_estimate++;
    }
  }
  gzclose(f);
  k.ok = true;
  return k;
}

} // namespace

TEST(BuildWorkload, RealKthTraceOnOneHundredProcessors)
{
  if (!std::filesystem::exists(kth_path)) GTEST_SKIP() << kth_path << " is absent";
  KthFacts facts = scan(kth_path);
  ASSERT_TRUE(facts.ok);
  // The independent scan agrees with the traces README: 28,476 records, 8 zero-run-time jobs, job 27313 with no
  // size, 475 jobs longer than requested.
  ASSERT_EQ(facts.records, 28476);
  ASSERT_EQ(facts.no_run_time, 8);
  ASSERT_EQ(facts.no_size, 1);
  ASSERT_EQ(facts.over_estimate, 475);
  ASSERT_EQ(facts.skipped_ids.count(27313), 1u);

  auto swf = jobsched::read_swf(kth_path);
  Workload w = build_workload("KTH", swf.records, WorkloadFilter{}, 100, swf.max_procs);
  EXPECT_EQ(w.source_records, 28476);
  EXPECT_EQ(w.source_max_procs, 100);
  EXPECT_EQ(w.jobs.size(), 28467u); // 28,476 - 8 - 1
  EXPECT_EQ(w.skipped, (Skips{{"no_run_time", 8}, {"no_size", 1}}));
  EXPECT_EQ(w.overrun_jobs, 475);

  std::set<long> kept;
  for (const auto& j : w.jobs)
    kept.insert(static_cast<long>(j.id));
  EXPECT_EQ(kept.size(), 28467u); // no job twice
  for (long id : facts.skipped_ids)
    EXPECT_EQ(kept.count(id), 0u) << "job " << id << " should have been skipped";
  EXPECT_TRUE(std::is_sorted(w.jobs.begin(), w.jobs.end(),
                             [](const Job& a, const Job& b) { return a.submit_time < b.submit_time; }));
  long over = 0;
  for (const auto& j : w.jobs) {
    EXPECT_GE(j.estimate, j.run_time); // extend: nobody is over any more
    EXPECT_GE(j.size, 1);
    EXPECT_LE(j.size, 100);
    over += j.kill_at_estimate;
  }
  EXPECT_EQ(over, 0);
}

TEST(BuildWorkload, RealKthTraceWithKill)
{
  if (!std::filesystem::exists(kth_path)) GTEST_SKIP() << kth_path << " is absent";
  auto swf = jobsched::read_swf(kth_path);
  WorkloadFilter f;
  f.overrun = Overrun::kill;
  Workload w = build_workload("KTH", swf.records, f, 100, swf.max_procs);
  long flagged = 0;
  long below = 0;
  for (const auto& j : w.jobs) {
    flagged += j.kill_at_estimate;
    below += j.estimate < j.run_time;
  }
  EXPECT_EQ(w.overrun_jobs, 475);
  EXPECT_EQ(flagged, 475);
  EXPECT_EQ(below, 475);
}

TEST(BuildWorkload, RealKthTraceMaxJobsAndInvalidRejected)
{
  if (!std::filesystem::exists(kth_path)) GTEST_SKIP() << kth_path << " is absent";
  auto swf = jobsched::read_swf(kth_path);
  WorkloadFilter f;
  f.max_jobs = 500;
  Workload w = build_workload("KTH", swf.records, f, 100, swf.max_procs);
  EXPECT_EQ(w.jobs.size(), 500u);
  // The first invalid record is job 2466 (run time 0), well after the first 500 jobs (numbers 15..514).
  EXPECT_EQ(w.skipped, (Skips{{"beyond_max_jobs", 28476 - 500 - 9}, {"no_run_time", 8}, {"no_size", 1}}));
  EXPECT_EQ(w.jobs.front().id, 15);

  f = WorkloadFilter{};
  f.reject_invalid = true;
  std::string msg = input_error_of([&] { build_workload("KTH", swf.records, f, 100, swf.max_procs); });
  // Job 2466 is on line 24 (header) + (2466 - 14) of the file.
  EXPECT_NE(msg.find(kth_path + ":" + std::to_string(24 + 2466 - 14) + ":"), std::string::npos) << msg;
  EXPECT_NE(msg.find("job 2466"), std::string::npos) << msg;
}
