/* The files a run writes are the ones run_output_files() lists, which a sweep looks for before it reuses a run: under a
 * space-sharing policy (EASY) and a time-sharing one (gang, which adds segments.csv beside trace.csv), with output.jobs
 * and output.trace on and off, the run's folder as listed by the file system holds those files and no other. */
#include "run/simulation.hpp"
#include "support/child_process.hpp"
#include "support/quiet_run.hpp"
#include "support/scratch_folder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

using namespace jobsched;
using jobsched::testing::ScratchFolder;

namespace {

/* The scenario's run under `policy` with the output switches given: the files run_output_files() lists, and those
 * the run's folder holds, each set sorted and joined by spaces. */
std::pair<std::string, std::string> listed_and_written(const std::string& policy, bool jobs, bool trace)
{
  ScratchFolder f;
  const auto file = f.write("s.yaml", "platform: " + std::string(SOURCE_DIR) + "/platforms/cluster-16.xml\n" +
                                          "deployment: " + SOURCE_DIR + "/deployments/single-scheduler.xml\n" +
                                          "workload: {generator: {jobs: 30, mean_interarrival: 200}}\n" +
                                          "policy: {name: " + policy + "}\n");
  const auto out = f.dir / "out";
  const auto join = [](const std::set<std::string>& names) {
    std::string text;
    for (const auto& name : names)
      text += (text.empty() ? "" : " ") + name;
    return text;
  };
  Scenario sc = jobsched::testing::load_scenario_into(file, out);
  sc.write_jobs = jobs;
  sc.write_trace = trace;
  const std::vector<std::string> listed = run_output_files(sc);
  const std::vector<double> ran = jobsched::testing::in_child([&] {
    run_scenario(sc, jobsched::testing::quiet_options());
    return std::vector<double>{1};
  });
  if (ran.size() != 1) return {"(the run failed)", ""};
  std::set<std::string> written;
  for (const auto& entry : std::filesystem::directory_iterator(out))
    written.insert(entry.path().filename().string());
  return {join(std::set<std::string>(listed.begin(), listed.end())), join(written)};
}

} // namespace

TEST(OutputFiles, RunWritesWhatRunOutputFilesLists)
{
  struct Case {
    std::string policy;
    bool jobs, trace;
    std::string files; // sorted
  };
  const std::vector<Case> cases{
      {"easy", true, true, "jobs.csv performance.json summary.json trace.csv"},
      {"easy", false, true, "performance.json summary.json trace.csv"},
      {"easy", true, false, "jobs.csv performance.json summary.json"},
      {"easy", false, false, "performance.json summary.json"},
      {"gang", true, true, "jobs.csv performance.json segments.csv summary.json trace.csv"},
      {"gang", false, true, "performance.json segments.csv summary.json trace.csv"},
      {"gang", true, false, "jobs.csv performance.json summary.json"},
      {"gang", false, false, "performance.json summary.json"},
  };
  for (const Case& c : cases) {
    const auto [listed, written] = listed_and_written(c.policy, c.jobs, c.trace);
    const std::string what = c.policy + (c.jobs ? ", jobs" : "") + (c.trace ? ", trace" : "");
    EXPECT_EQ(listed, c.files) << what << ": run_output_files()";
    EXPECT_EQ(written, c.files) << what << ": the run's folder";
  }
}
