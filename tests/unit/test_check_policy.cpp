/* jobsched check-policy's reading of a run's outputs (experiment/check_policy.hpp), on hand-made run folders whose
 * verdicts are worked out by hand: a run on two single-core hosts, node-0 at the reference speed and node-1 twice as
 * fast; job 0 (1 processor, run time 100) then job 1 (2 processors, run time 50). */
#include "experiment/run_outputs_check.hpp"
#include "support/scratch_folder.hpp"

#include <gtest/gtest.h>

#include <string>

using jobsched::check_run_outputs;
using jobsched::CheckedRun;
using jobsched::testing::ScratchFolder;

namespace {

struct Outputs {
  std::string summary_extra = "\"backlog_stop_time\": -1, \"stall_stop_time\": -1, \"no_progress_stop_time\": -1";
  long records_read = 2;
  long simulated = 2;
  std::string jobs = "0,COMPLETED_SUCCESSFULLY,1,100\n1,COMPLETED_SUCCESSFULLY,2,50\n";
  std::string trace = "0,0,100,0,running\n1,100,150,0-1,running\n";
};

std::string check(const ScratchFolder& f, const Outputs& r, CheckedRun c = {2, 1, {1.0, 2.0}, true, false})
{
  f.write("out/summary.json", "{\"records_read\": " + std::to_string(r.records_read) +
                                  ", \"jobs_simulated\": " + std::to_string(r.simulated) +
                                  ", \"jobs_rejected\": 0, \"jobs_skipped\": 0, " + r.summary_extra + "}\n");
  f.write("out/jobs.csv", "job_id,final_state,requested_number_of_resources,trace_run_time\n" + r.jobs);
  f.write("out/trace.csv", "job_id,start,end,processors,state\n" + r.trace);
  return check_run_outputs(f.dir / "out", c);
}

} // namespace

TEST(CheckPolicyOutputs, ACorrectRunPasses)
{
  ScratchFolder f;
  // Job 0: 100 s on node-0 = 100 >= 1 x 100; job 1: 50 s on node-0 and node-1 = 50 + 100 >= 2 x 50.
  EXPECT_EQ(check(f, Outputs{}), "");
}

/* Jobs that never ran (NOT_FINISHED, no second computed) are named, the first five and how many more, before the
 * saturated stop that they caused; a job that computed and did not finish is not one of them. */
TEST(CheckPolicyOutputs, JobsThatNeverStartedAreNamed)
{
  ScratchFolder f;
  f.write("out/summary.json", "{\"records_read\": 9, \"jobs_simulated\": 9, \"jobs_rejected\": 0, \"jobs_skipped\": 0, "
                              "\"backlog_stop_time\": -1, \"stall_stop_time\": -1, \"no_progress_stop_time\": 500}\n");
  std::string jobs = "job_id,final_state,requested_number_of_resources,trace_run_time,computing_time\n"
                     "1,COMPLETED_SUCCESSFULLY,1,100,100\n"
                     "3,NOT_FINISHED,1,100,40\n"; // ran 40 s: not starved
  for (int id : {2, 4, 6, 8, 10, 12, 14})
    jobs += std::to_string(id) + ",NOT_FINISHED,1,100,0\n";
  f.write("out/jobs.csv", jobs);
  f.write("out/trace.csv", "job_id,start,end,processors,state\n1,0,100,0,running\n3,100,140,0,running\n");
  EXPECT_EQ(check_run_outputs(f.dir / "out", {9, 1, {1.0, 2.0}, true, false}),
            "jobs.csv: 7 of the 9 jobs never started (jobs 2, 4, 6, 8, 10 and 2 more: NOT_FINISHED, no second "
            "computed): the policy starves them; the run stopped as saturated (summary.json no_progress_stop_time "
            "500.000000)");
}

TEST(CheckPolicyOutputs, TwoJobsOnOneProcessorAtOnce)
{
  ScratchFolder f;
  Outputs r;
  r.trace = "0,0,100,0,running\n1,90,140,0-1,running\n";
  EXPECT_NE(check(f, r).find("trace.csv lines 2 and 3: processor 0 computes for jobs 0 and 1 at once, from 90 to 100"),
            std::string::npos)
      << check(f, r);
  // A context switch holds the processor too; a suspended job's row (its last processors) does not.
  r.trace = "0,0,100,0,running\n1,95,100,0-1,switching\n1,100,150,0-1,running\n";
  EXPECT_NE(check(f, r).find("processor 0 computes for jobs 0 and 1"), std::string::npos);
  r.trace = "0,0,100,0,running\n1,90,100,0-1,suspended\n1,100,150,0-1,running\n";
  EXPECT_EQ(check(f, r), "");
  // Touching ends (job 1 from 100, job 0 until 100, as the files round them) are not an overlap.
  r.trace = "0,0,100.0000004,0,running\n1,100,150,0-1,running\n";
  EXPECT_EQ(check(f, r), "");
}

TEST(CheckPolicyOutputs, FractionalSharesOverlapOnlyAtTheEndsOfBothSets)
{
  ScratchFolder f;
  Outputs r;
  // Job 1 on 0-1 while job 0 holds processor 0: the lowest processor of both sets.
  r.trace = "0,0,100,0,running\n1,50,150,0-1,running\n";
  CheckedRun shares{2, 1, {1.0, 2.0}, true, true};
  EXPECT_EQ(check(f, r, shares), "");
  EXPECT_NE(check(f, r), ""); // without shares
  // Three processors: processor 1 inside job 1's set 0-2 is its own.
  shares.speed = {1.0, 2.0, 1.0};
  r.trace = "0,0,100,1,running\n1,50,150,0-2,running\n";
  EXPECT_NE(check(f, r, shares).find("processor 1 computes for jobs 0 and 1"), std::string::npos);
}

TEST(CheckPolicyOutputs, BusyProcessorSecondsTimesSpeedCoverTheWork)
{
  ScratchFolder f;
  Outputs r;
  // Job 1: 20 s on both = 20 + 40 = 60 < 2 x 50.
  r.trace = "0,0,100,0,running\n1,100,120,0-1,running\n";
  EXPECT_NE(check(f, r).find("job 1 completed after 60 processor-seconds"), std::string::npos) << check(f, r);
  EXPECT_NE(check(f, r).find("less than its work of 100"), std::string::npos);
  // Job 0 for 50 s on the fast node-1: 100, its work.
  r.trace = "0,0,50,1,running\n1,100,150,0-1,running\n";
  EXPECT_EQ(check(f, r), "");
  r.trace = "0,0,50,0,running\n1,100,150,0-1,running\n"; // on node-0: 50 < 100
  EXPECT_NE(check(f, r).find("job 0 completed after 50 processor-seconds"), std::string::npos);
  // Phased jobs (work >= the run time alone): 60 >= 50.
  r.trace = "0,0,100,0,running\n1,100,120,0-1,running\n";
  EXPECT_EQ(check(f, r, CheckedRun{2, 1, {1.0, 2.0}, false, false}), "");
}

TEST(CheckPolicyOutputs, ProcessesDoubledUpOnAProcessorCountItOnce)
{
  ScratchFolder f;
  Outputs r;
  // Job 1's two processes both on node-1 from 100 to 150: 50 x 2 = 100 covers 2 x 50.
  r.trace = "0,0,100,0,running\n1,100,150,1,running\n1,100,150,1,running\n";
  EXPECT_EQ(check(f, r), "");
  // From 100 to 140: 80 < 100, although the two rows add up to 160.
  r.trace = "0,0,100,0,running\n1,100,140,1,running\n1,100,140,1,running\n";
  EXPECT_NE(check(f, r).find("job 1 completed after 80 processor-seconds"), std::string::npos) << check(f, r);
}

TEST(CheckPolicyOutputs, EveryJobReportedAndCompleted)
{
  ScratchFolder f;
  Outputs r;
  r.jobs = "0,COMPLETED_SUCCESSFULLY,1,100\n1,COMPLETED_KILLED,2,50\n";
  EXPECT_NE(check(f, r).find("jobs.csv:3: job 1 ended COMPLETED_KILLED"), std::string::npos) << check(f, r);
  r = Outputs{};
  r.jobs = "0,COMPLETED_SUCCESSFULLY,1,100\n";
  r.trace = "0,0,100,0,running\n";
  EXPECT_NE(check(f, r).find("jobs.csv has 1 rows for 2 jobs simulated"), std::string::npos);
  r = Outputs{};
  r.jobs = "0,COMPLETED_SUCCESSFULLY,1,100\n0,COMPLETED_SUCCESSFULLY,2,50\n";
  EXPECT_NE(check(f, r).find("job 0 has two rows"), std::string::npos);
  r = Outputs{};
  r.records_read = 3;
  EXPECT_NE(check(f, r).find("records_read 3, the generator made 2"), std::string::npos);
  r = Outputs{};
  r.trace = "0,0,100,0,running\n"; // job 1 completed without a running segment
  EXPECT_NE(check(f, r).find("job 1 completed without computing"), std::string::npos);
  r = Outputs{};
  r.trace += "7,0,1,0,suspended\n";
  EXPECT_NE(check(f, r).find("job 7 is not in jobs.csv"), std::string::npos);
  r = Outputs{};
  r.trace = "0,0,100,2,running\n1,100,150,0-1,running\n";
  EXPECT_NE(check(f, r).find("processors '2' are not processors of the machine"), std::string::npos);
}

TEST(CheckPolicyOutputs, ARunStoppedAsSaturatedFails)
{
  ScratchFolder f;
  Outputs r;
  r.summary_extra = "\"backlog_stop_time\": -1, \"stall_stop_time\": -1, \"no_progress_stop_time\": 2592000";
  EXPECT_NE(check(f, r).find("stopped as saturated (summary.json no_progress_stop_time"), std::string::npos);
}
