/* Finished jobs streamed out of a run: the job table's records made at first look-up and handed over in workload order
 * once every earlier job has left, and jobs.csv's rows written before the policy's own columns are known. */
#include "core/errors.hpp"
#include "model/job_state.hpp"
#include "output/reports.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include <sstream>
#include <string>
#include <vector>

using namespace jobsched;

namespace {
void finish(JobState& s, double at)
{
  s.status = JobStatus::finished;
  s.fate = JobFate::completed;
  s.start_time = at - 1;
  s.finish_time = at;
}
} // namespace

TEST(JobTable, RecordsMadeAtLookUpAndReleasedInWorkloadOrder)
{
  std::vector<Job> jobs(5);
  for (size_t i = 0; i < jobs.size(); i++)
    jobs[i].id = static_cast<JobId>(10 + i);
  JobTable table;
  for (const Job& j : jobs)
    table.expect(j);
  EXPECT_EQ(table.registered(), 5U);
  EXPECT_EQ(table.held(), 0U); // no record before a look-up
  EXPECT_EQ(table.at(12).status, JobStatus::pending);
  EXPECT_EQ(table.held(), 3U); // 10, 11 and 12, in order
  std::vector<std::pair<JobId, size_t>> released;
  table.set_release_sink([&](JobState& s, size_t position) { released.emplace_back(s.job->id, position); });

  finish(table.at(11), 5);
  finish(table.at(12), 6);
  table.mark_ended();
  table.release_marked();
  EXPECT_TRUE(released.empty()); // job 10 is still in the system: 11 and 12 wait for it
  EXPECT_TRUE(table.ended(11));
  EXPECT_FALSE(table.ended(10));

  finish(table.at(10), 7);
  table.mark_ended();
  finish(table.at(13), 7); // ends after the mark (during the decision): released at the next one
  table.release_marked();
  const std::vector<std::pair<JobId, size_t>> first{{10, 0}, {11, 1}, {12, 2}};
  EXPECT_EQ(released, first);
  EXPECT_EQ(table.held(), 1U);
  EXPECT_EQ(table.find(11), nullptr);
  EXPECT_TRUE(table.ended(11));
  EXPECT_EQ(table.job_of(11), &jobs[1]); // the job is still known
  EXPECT_THROW(table.at(11), PolicyError);
  EXPECT_THROW(table.at(99), PolicyError);

  std::vector<JobStatus> last_statuses;
  table.set_release_sink([&](JobState& s, size_t position) {
    released.emplace_back(s.job->id, position);
    last_statuses.push_back(s.status);
  });
  table.release_all(); // the end of the run: 13 finished, 14 never looked up
  const std::vector<std::pair<JobId, size_t>> all{{10, 0}, {11, 1}, {12, 2}, {13, 3}, {14, 4}};
  EXPECT_EQ(released, all);
  EXPECT_EQ(last_statuses, (std::vector<JobStatus>{JobStatus::finished, JobStatus::pending}));
  EXPECT_EQ(table.held(), 0U);
}

TEST(JobTable, JobNumbersInAnyOrder)
{
  std::vector<Job> jobs(4);
  const std::vector<JobId> ids{5, 6, 3, 9};
  for (size_t i = 0; i < ids.size(); i++)
    jobs[i].id = ids[i];
  JobTable table;
  for (const Job& j : jobs)
    table.expect(j);
  for (size_t i = 0; i < ids.size(); i++) {
    EXPECT_EQ(table.job_of(ids[i]), &jobs[i]);
    EXPECT_EQ(table.at(ids[i]).job, &jobs[i]);
  }
  EXPECT_EQ(table.job_of(4), nullptr);
  EXPECT_FALSE(table.contains(7));
  Job again;
  again.id = 6;
  EXPECT_THROW(table.expect(again), InputError);
  JobTable consecutive;
  consecutive.expect(jobs[0]);
  consecutive.expect(jobs[1]);
  EXPECT_THROW(consecutive.expect(again), InputError); // 5, 6, then 6 again
}

/* position_of() agrees with a search of the registered jobs for every number from below the lowest to above the
 * highest: numbers consecutive, with gaps and one below the first (the table by number, grown at its front), and
 * spread far apart partway (from then on the hash table alone); a number registered twice is refused either way. */
TEST(JobTable, PositionsByNumberAgreeWithASearch)
{
  const std::vector<std::vector<JobId>> numberings{
      {7, 8, 9, 10}, {15, 16, 18, 19, 12, 40, 41, 17, 3}, {15, 16, 18, 5000, 19, 12, 90000, 17}};
  for (const std::vector<JobId>& ids : numberings) {
    std::vector<Job> jobs(ids.size());
    JobTable table;
    for (size_t i = 0; i < ids.size(); i++) {
      jobs[i].id = ids[i];
      table.expect(jobs[i]);
    }
    for (JobId id = -2; id <= 90002; id++) {
      const auto found = std::find(ids.begin(), ids.end(), id);
      const long expected = found == ids.end() ? -1 : static_cast<long>(found - ids.begin());
      ASSERT_EQ(table.position_of(id), expected) << "job " << id << " of numbering " << ids.size();
    }
    Job again;
    again.id = ids[1];
    EXPECT_THROW(table.expect(again), InputError);
  }
}

/* The rows of a time-sharing run wait for the policy's columns: the same bytes as the rows written at once, with the
 * header's and each row's policy fields appended (a value where the policy has one, else empty). */
TEST(JobsCsvWriter, SpooledRowsGetThePolicysColumns)
{
  JobList jobs(3);
  std::deque<JobState> states(3);
  for (size_t i = 0; i < 3; i++) {
    jobs[i].id = static_cast<JobId>(i + 1);
    jobs[i].size = 2;
    jobs[i].submit_time = static_cast<double>(i);
    jobs[i].run_time = 4;
    jobs[i].estimate = 4;
    jobs[i].requested_time = 4;
    states[i].job = &jobs[i];
    finish(states[i], 10.0 + static_cast<double>(i));
    states[i].allocated = "0-1";
  }
  std::ostringstream direct;
  write_jobs_csv(direct, states, jobs, "w,1", 20);
  PolicyReport extra;
  extra.job_columns = {"leaf", "stall_time"};
  extra.job_values[2] = {3, 0.25};
  std::ostringstream spooled;
  {
    JobsCsvWriter writer(spooled, "w,1", true);
    for (size_t i = 0; i < 3; i++)
      writer.write(states[i], jobs[i], 20);
    EXPECT_EQ(spooled.str(), ""); // nothing before the end
    writer.finish(extra);
  }
  std::istringstream lines(direct.str());
  std::string expected;
  std::string line;
  for (int row = 0; std::getline(lines, line); row++)
    expected += line + (row == 0 ? ",leaf,stall_time" : row == 2 ? ",3,0.25" : ",,") + "\n";
  EXPECT_EQ(spooled.str(), expected);
  EXPECT_NE(direct.str().find("\"w,1\""), std::string::npos); // the workload's name quoted

  std::ostringstream unspooled; // without columns at the end, the spooled rows are the direct ones
  {
    JobsCsvWriter writer(unspooled, "w,1", true);
    for (size_t i = 0; i < 3; i++)
      writer.write(states[i], jobs[i], 20);
    writer.finish({});
  }
  EXPECT_EQ(unspooled.str(), direct.str());
}

/* A row assembled in place against the same row put together field by field, each number formatted on its own
 * (FormattedNumber, which write_number()'s own test checks against printf) and each integer with std::to_string:
 * counters of every column set to distinct values, numbers of up to hundreds of characters (1e300) and a processor list
 * longer than a block of the old writer's, a job killed (its final state's other text). */
TEST(JobsCsvWriter, RowAssembledInPlaceHasEveryFieldInItsColumn)
{
  JobList jobs(1);
  std::deque<JobState> states(1);
  WorkloadJob& j = jobs[0];
  j.id = 123456789012LL;
  j.size = 77;
  j.submit_time = 1e300;
  j.run_time = 2.0 / 3;
  j.estimate = 2000; // raised by workload.overrun: extend, say: the row shows the request
  j.requested_time = 1234.5;
  JobState& s = states[0];
  s.job = &j;
  s.status = JobStatus::finished;
  s.fate = JobFate::killed;
  s.start_time = 1e300 + 1e290;
  s.finish_time = 3e300;
  s.service = 0.1;
  s.cost.nodes_used = 5;
  s.counters.preemptions = 11;
  s.counters.resizes = 13;
  s.counters.migrations = 17;
  s.counters.requeues = 19;
  s.counters.bytes_moved = 1e12 + 0.5;
  s.counters.switching_time = 0.125;
  s.counters.transfer_time = 7.0 / 9;
  s.counters.work_lost = 42.000001;
  s.account.dedicated_time = 0.3;
  for (int p = 0; p < 300; p++)
    s.allocated += (p == 0 ? "" : " ") + std::to_string(3 * p);
  std::ostringstream written;
  write_jobs_csv(written, states, jobs, "w", 5);

  const JobMetrics m = job_metrics(s, 5);
  const auto n = [](double v) { return std::string(FormattedNumber(v).view()); };
  const JobCounters& c = s.counters;
  const std::string row = std::to_string(j.id) + ",w," + to_string(j.shape) + "," + n(j.submit_time) + ",77," +
                          n(j.requested_time) + ",0," + batsim_final_state(s.fate) + "," + n(m.start) + "," +
                          n(m.execution) + "," + n(m.end) + "," + n(m.waiting) + "," + n(m.turnaround) + "," +
                          n(m.slowdown) + "," + s.allocated + ",-1,," + n(m.bounded_slowdown) + "," + n(j.run_time) +
                          ",30,5," + n(m.communication) + "," + n(m.page_faults) + ",11,13,17," + n(c.bytes_moved) +
                          "," + n(c.switching_time) + "," + n(c.transfer_time) + "," + n(s.service) + "," +
                          n(m.dedicated) + ",19," + n(c.work_lost) + "\n";
  const std::string text = written.str();
  ASSERT_EQ(text.substr(text.find('\n') + 1), row);
  EXPECT_GT(row.size(), 1000U); // the numbers of 300 digits and the processors are there
}
