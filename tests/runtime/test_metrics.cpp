/* The per-job metrics of jobs.csv, summary.json and segments.csv on whole runs small enough to work out by hand:
 * under time sharing the slowdown divides the turnaround by the job's dedicated time (what its computing would have
 * taken alone on its requested processors), so suspension counts as waiting; the communication cost is communication
 * only; segments.csv has one row per running segment; jobs still in the system when a run stops on
 * simulation.max_backlog have every column defined. */
#include "core/csv.hpp"
#include "run/simulation.hpp"
#include "support/child_process.hpp"
#include "support/quiet_run.hpp"
#include "support/scratch_folder.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

using jobsched::testing::in_child;
namespace fs = std::filesystem;

namespace {

using Folder = jobsched::testing::ScratchFolder;

/* `hosts` 1-Gflop/s single-core compute hosts n0, n1, ... and a front end that runs the actors (role master). */
std::string platform(int hosts)
{
  std::string xml = "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                    "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">\n";
  for (int h = 0; h < hosts; h++)
    xml += "<host id=\"n" + std::to_string(h) + "\" speed=\"1Gf\"/>\n";
  xml += "<host id=\"frontend\" speed=\"1Gf\"><prop id=\"role\" value=\"master\"/></host>\n";
  xml += "<link id=\"l\" bandwidth=\"1GBps\" latency=\"0\"/>\n";
  for (int a = 0; a < hosts; a++)
    for (int b = a + 1; b < hosts; b++)
      xml +=
          "<route src=\"n" + std::to_string(a) + "\" dst=\"n" + std::to_string(b) + "\"><link_ctn id=\"l\"/></route>\n";
  return xml + "</zone></platform>\n";
}

/* An SWF record: id, submit, run time (also the estimate), processors. */
std::string swf(int id, double submit, double run, int procs)
{
  char buf[256];
  std::snprintf(buf, sizeof buf, "%d %g -1 %g %d -1 -1 %d %g -1 1 1 1 1 1 1 -1 -1\n", id, submit, run, procs, procs,
                run);
  return buf;
}

/* A CSV file as rows of named fields. */
struct Csv {
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> rows;
};

/* The project's CSV reader (core/csv.hpp, quoted fields included), by column name. */
Csv read_rows(const fs::path& file)
{
  Csv csv;
  if (!fs::exists(file)) {
    ADD_FAILURE() << file << " is missing";
    return csv;
  }
  const jobsched::CsvTable table = jobsched::read_csv(file);
  csv.header = table.header;
  for (size_t r = 0; r < table.rows.size(); r++) {
    const auto& f = table.rows[r];
    EXPECT_EQ(f.size(), csv.header.size()) << file << ": row " << r + 1;
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < f.size() && i < csv.header.size(); i++)
      row[csv.header[i]] = f[i];
    csv.rows.push_back(row);
  }
  return csv;
}

double number(const std::map<std::string, std::string>& row, const std::string& column)
{
  auto it = row.find(column);
  if (it == row.end() || it->second.empty()) {
    ADD_FAILURE() << "column " << column << " is empty or missing";
    return -1e300;
  }
  return std::stod(it->second);
}

/* summary.json's value for `key` (a number). */
double summary_value(const fs::path& file, const std::string& key)
{
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto at = text.find("\"" + key + "\": ");
  if (at == std::string::npos) {
    ADD_FAILURE() << "no " << key << " in " << file;
    return -1e300;
  }
  return std::stod(text.substr(at + key.size() + 4));
}

/* Runs the scenario (platform p.xml, workload w.swf) in a child process; outputs in f.dir / "out". */
void run(const Folder& f, int hosts, const std::string& workload, const std::string& rest)
{
  f.write("p.xml", platform(hosts));
  f.write("w.swf", workload);
  fs::path file = f.write("s.yaml", "platform: p.xml\n" + rest);
  fs::remove_all(f.dir / "out");
  in_child([&] {
    jobsched::testing::run_quietly(file, f.dir / "out");
    return std::vector<double>{};
  });
}

void expect_columns(const std::map<std::string, std::string>& row, const std::map<std::string, double>& want,
                    const std::string& what)
{
  for (const auto& [column, value] : want)
    EXPECT_NEAR(number(row, column), value, 1e-6) << what << ", " << column;
}

// Two 100 s jobs on one processor, gang with a 10 s quantum: J1 computes in [0, 10), [20, 30), ..., [180, 190), J2 in
// [10, 20), ..., [190, 200). Each computed 100 s alone on its one processor: slowdowns 190 / 100 and 200 / 100
// (mean 1.95), where execution times (190 each) would give 1 and 1.05. Both were suspended, so neither held one set of
// processors from start to finish: allocated_resources is empty and segments.csv has their processors, one row per
// slice, each row's submission being the end of the job's previous slice, its stretch the job's.
TEST(Metrics, GangSlowdownCountsSuspensionAsWaiting)
{
  Folder f;
  run(f, 1, swf(1, 0, 100, 1) + swf(2, 0, 100, 1),
      "workload: {trace: w.swf}\npolicy: {name: gang, params: {partition_size: 1, quantum: 10}}\n");
  Csv jobs = read_rows(f.dir / "out" / "jobs.csv");
  ASSERT_EQ(jobs.rows.size(), 2U);
  expect_columns(jobs.rows[0],
                 {{"starting_time", 0},
                  {"execution_time", 190},
                  {"finish_time", 190},
                  {"waiting_time", 0},
                  {"turnaround_time", 190},
                  {"stretch", 1.9},
                  {"bounded_slowdown", 1.9},
                  {"communication_cost", 0},
                  {"page_fault_cost", 0},
                  {"computing_time", 100},
                  {"dedicated_time", 100}},
                 "J1");
  expect_columns(jobs.rows[1],
                 {{"starting_time", 10},
                  {"execution_time", 190},
                  {"finish_time", 200},
                  {"waiting_time", 10},
                  {"turnaround_time", 200},
                  {"stretch", 2},
                  {"bounded_slowdown", 2},
                  {"communication_cost", 0},
                  {"page_fault_cost", 0},
                  {"computing_time", 100},
                  {"dedicated_time", 100}},
                 "J2");
  EXPECT_EQ(jobs.rows[0]["allocated_resources"], "");
  EXPECT_EQ(jobs.rows[1]["allocated_resources"], "");
  const fs::path summary = f.dir / "out" / "summary.json";
  EXPECT_NEAR(summary_value(summary, "mean_slowdown"), 1.95, 1e-9);
  EXPECT_NEAR(summary_value(summary, "mean_bounded_slowdown"), 1.95, 1e-9);
  EXPECT_NEAR(summary_value(summary, "mean_communication_cost"), 0, 1e-9);
  EXPECT_NEAR(summary_value(summary, "mean_turnaround_time"), 195, 1e-9);

  Csv segments = read_rows(f.dir / "out" / "segments.csv");
  ASSERT_EQ(segments.rows.size(), 20U);
  std::map<int, int> slices;
  for (const auto& row : segments.rows) {
    const int job = static_cast<int>(number(row, "job_id"));
    const int k = slices[job]++;
    const double start = 20.0 * k + (job == 2 ? 10 : 0);
    const std::string what = "J" + std::to_string(job) + " slice " + std::to_string(k);
    expect_columns(row,
                   {{"submission_time", k == 0 ? 0 : start - 10},
                    {"starting_time", start},
                    {"execution_time", 10},
                    {"finish_time", start + 10},
                    {"waiting_time", k == 0 ? start : 10},
                    {"turnaround_time", k == 0 ? start + 10 : 20},
                    {"requested_number_of_resources", 1},
                    {"stretch", job == 1 ? 1.9 : 2}},
                   what);
    EXPECT_EQ(row.at("allocated_resources"), "0") << what;
    EXPECT_EQ(row.at("final_state"), "COMPLETED_SUCCESSFULLY") << what;
  }
  EXPECT_EQ(slices[1], 10);
  EXPECT_EQ(slices[2], 10);
}

// Gang on two single-core nodes with the formula's communication cost at Level 1: each 2-process job spans 2 nodes
// and computes 100 x (1 + 0.05 x 2 x 1) = 110 s, in 11 slices of 10 s. J1 ends at 210, J2 at 220. Communication cost
// 10 s each (110 - 100), not the 110 and 120 s of execution beyond the run time that include their suspensions.
TEST(Metrics, GangCommunicationCostIsCommunicationOnly)
{
  Folder f;
  run(f, 2, swf(1, 0, 100, 2) + swf(2, 0, 100, 2),
      "workload: {trace: w.swf, communication: {model: formula, level: 1, base: 0.05}}\n"
      "policy: {name: gang, params: {partition_size: 2, quantum: 10}}\n");
  Csv jobs = read_rows(f.dir / "out" / "jobs.csv");
  ASSERT_EQ(jobs.rows.size(), 2U);
  expect_columns(jobs.rows[0],
                 {{"finish_time", 210},
                  {"dedicated_time", 110},
                  {"communication_cost", 10},
                  {"nodes_used", 2},
                  {"stretch", 210.0 / 110}},
                 "J1");
  expect_columns(
      jobs.rows[1],
      {{"finish_time", 220}, {"dedicated_time", 110}, {"communication_cost", 10}, {"nodes_used", 2}, {"stretch", 2}},
      "J2");
  EXPECT_NEAR(summary_value(f.dir / "out" / "summary.json", "mean_communication_cost"), 10, 1e-6);
}

// A malleable job's dedicated time is at its requested size. EQUI, S(n) = 3n / (2 + n): S(4) = 2, S(2) = 1.5. J1
// (4 processors, 10 s) alone on 4 to 5, then on 2 to 35/3: 5 + (20/3) x S(2) / S(4) = 10 s. J2 (submitted 5) on 2 to
// 35/3, then on 4 to 50/3: (20/3) x 0.75 + 5 = 10 s. Both were resized: allocated_resources is empty.
TEST(Metrics, MalleableDedicatedTimeIsAtTheRequestedSize)
{
  Folder f;
  run(f, 4, swf(1, 0, 10, 4) + swf(2, 5, 10, 4),
      "workload: {trace: w.swf, jobs: {shape: malleable, speedup: {model: beta, beta_min: 2}}}\n"
      "policy: {name: equi}\n");
  Csv jobs = read_rows(f.dir / "out" / "jobs.csv");
  ASSERT_EQ(jobs.rows.size(), 2U);
  expect_columns(jobs.rows[0], {{"finish_time", 35.0 / 3}, {"dedicated_time", 10}, {"stretch", 35.0 / 30}}, "J1");
  expect_columns(jobs.rows[1], {{"finish_time", 50.0 / 3}, {"dedicated_time", 10}, {"stretch", (50.0 / 3 - 5) / 10}},
                 "J2");
  EXPECT_EQ(jobs.rows[0]["allocated_resources"], "");
  EXPECT_EQ(jobs.rows[1]["allocated_resources"], "");
}

/* Every column of a jobs.csv row is a value, but metadata (Batsim's free text, empty) and allocated_resources (empty
 * when the job did not hold one set of processors from its start to its end). */
void expect_all_defined(const Csv& jobs)
{
  for (const auto& row : jobs.rows)
    for (const auto& column : jobs.header)
      if (column != "metadata" && column != "allocated_resources") {
        EXPECT_FALSE(row.at(column).empty()) << "job " << row.at("job_id") << ": " << column << " is empty";
      }
}

// The run stops on simulation.max_backlog (2) at 25, when J3 makes 3 jobs in the system; J4 (submitted at 40) was
// never reached. Gang, Q = 10, one processor: J1 computed [0, 10) and [20, 25), J2 [10, 20). Jobs still in the
// system are measured as if they ended at 25 (J4: at its submission), with what they computed.
TEST(Metrics, NotFinishedRowsHaveEveryColumnDefined)
{
  Folder f;
  run(f, 1, swf(1, 0, 100, 1) + swf(2, 0, 100, 1) + swf(3, 25, 100, 1) + swf(4, 40, 100, 1),
      "workload: {trace: w.swf}\npolicy: {name: gang, params: {partition_size: 1, quantum: 10}}\n"
      "simulation: {max_backlog: 2}\n");
  Csv jobs = read_rows(f.dir / "out" / "jobs.csv");
  ASSERT_EQ(jobs.rows.size(), 4U);
  expect_all_defined(jobs);
  for (const auto& row : jobs.rows) {
    EXPECT_EQ(row.at("final_state"), "NOT_FINISHED");
    EXPECT_EQ(row.at("success"), "0");
    EXPECT_EQ(row.at("allocated_resources"), ""); // J1, J2 were suspended; J3, J4 never started
  }
  expect_columns(jobs.rows[0],
                 {{"starting_time", 0},
                  {"execution_time", 25},
                  {"finish_time", 25},
                  {"waiting_time", 0},
                  {"turnaround_time", 25},
                  {"stretch", 25.0 / 15},
                  {"bounded_slowdown", 25.0 / 15},
                  {"computing_time", 15},
                  {"dedicated_time", 15},
                  {"communication_cost", 0},
                  {"nodes_used", 1}},
                 "J1");
  expect_columns(jobs.rows[1],
                 {{"starting_time", 10},
                  {"execution_time", 15},
                  {"finish_time", 25},
                  {"waiting_time", 10},
                  {"turnaround_time", 25},
                  {"stretch", 2.5},
                  {"bounded_slowdown", 2.5},
                  {"computing_time", 10},
                  {"dedicated_time", 10}},
                 "J2");
  expect_columns(jobs.rows[2],
                 {{"starting_time", 25},
                  {"execution_time", 0},
                  {"finish_time", 25},
                  {"waiting_time", 0},
                  {"turnaround_time", 0},
                  {"stretch", -1},
                  {"bounded_slowdown", 1},
                  {"computing_time", 0},
                  {"dedicated_time", 0},
                  {"nodes_used", 0},
                  {"communication_cost", 0},
                  {"page_fault_cost", 0}},
                 "J3");
  expect_columns(jobs.rows[3],
                 {{"starting_time", 40},
                  {"execution_time", 0},
                  {"finish_time", 40},
                  {"waiting_time", 0},
                  {"turnaround_time", 0},
                  {"stretch", -1},
                  {"bounded_slowdown", 1},
                  {"dedicated_time", 0}},
                 "J4");
  EXPECT_NEAR(summary_value(f.dir / "out" / "summary.json", "backlog_stop_time"), 25, 1e-9);

  // Under FCFS J1 holds processor 0 from its start at 0 to the stop at 2 (J3's submission): allocated_resources "0".
  run(f, 1, swf(1, 0, 100, 1) + swf(2, 1, 50, 1) + swf(3, 2, 50, 1),
      "workload: {trace: w.swf}\npolicy: {name: fcfs}\nsimulation: {max_backlog: 2}\n");
  jobs = read_rows(f.dir / "out" / "jobs.csv");
  ASSERT_EQ(jobs.rows.size(), 3U);
  expect_all_defined(jobs);
  EXPECT_EQ(jobs.rows[0]["allocated_resources"], "0");
  expect_columns(jobs.rows[0],
                 {{"starting_time", 0},
                  {"execution_time", 2},
                  {"finish_time", 2},
                  {"turnaround_time", 2},
                  {"stretch", 1},
                  {"bounded_slowdown", 1},
                  {"dedicated_time", 2}},
                 "FCFS J1");
  expect_columns(jobs.rows[1],
                 {{"starting_time", 2},
                  {"execution_time", 0},
                  {"finish_time", 2},
                  {"waiting_time", 1},
                  {"turnaround_time", 1},
                  {"stretch", -1}},
                 "FCFS J2");
  EXPECT_FALSE(fs::exists(f.dir / "out" / "segments.csv")) << "segments.csv is for time-sharing runs";
}

} // namespace
