/* The utilization of runs whose processes double up on processors (gang-now), its busy intervals settled into the sum
 * after every running segment (RunOptions::busy_settle_every = 1), against the sum computed from the whole trace
 * kept in memory: every processor's running intervals sorted, the union's lengths added processor by processor, over
 * processors x makespan. The two must have the same bits: a bound from JobRuntime::earliest_running_start() that let
 * an interval settle before one still to come that sorts before it would drop or reorder a term. The runs: the
 * gang-now scenario of docs/reproduction/gang-now.md (owners coming back, VPs migrated, created and ended), and the
 * same with VPs suspended in place. */
#include "run/simulation.hpp"
#include "support/child_process.hpp"
#include "support/quiet_run.hpp"
#include "support/scratch_folder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <utility>
#include <vector>

using namespace jobsched;
using jobsched::testing::in_child;
using jobsched::testing::ScratchFolder;

namespace {

/* {utilization, the trace's, running segments} of the scenario with `eviction`. */
std::vector<double> utilizations(const std::string& eviction)
{
  ScratchFolder f;
  return in_child([&] {
    Scenario sc = jobsched::testing::load_scenario_into(SOURCE_DIR "/scenarios/gang-now/now.yaml", f.dir / "out");
    sc.policy.params["eviction"] = eviction;
    RunOptions options = jobsched::testing::quiet_options();
    options.keep_trace = true;
    options.busy_settle_every = 1;
    RunReport r = run_scenario(sc, options);
    std::map<int, std::vector<std::pair<double, double>>> busy;
    double running = 0;
    for (const TraceSegment& t : r.trace)
      if (t.status == JobStatus::running) {
        t.processors.for_each([&](int p) { busy[p].emplace_back(t.start, t.end); });
        running++;
      }
    double area = 0; // (the other segments hold no processor-seconds)
    for (auto& [p, intervals] : busy) {
      std::sort(intervals.begin(), intervals.end());
      double covered = -std::numeric_limits<double>::infinity();
      for (const auto& [start, end] : intervals) {
        area += std::max(0.0, end - std::max(start, covered));
        covered = std::max(covered, end);
      }
    }
    const double processors = 16; // platforms/now-16-lan.xml's workstations
    return std::vector<double>{r.metrics.utilization, area / (r.metrics.makespan * processors), running};
  });
}

/* {utilization, segments} of the scenario with `eviction`, with the trace kept (the segments handed to the sink) or
 * without trace.csv and nothing kept (the runtime's running sink feeding the busy union, JobRuntime::set_running_sink),
 * every interval settled at once. */
std::vector<double> utilization_and_segments(const std::string& eviction, bool keep_trace)
{
  ScratchFolder f;
  return in_child([&] {
    Scenario sc = jobsched::testing::load_scenario_into(SOURCE_DIR "/scenarios/gang-now/now.yaml", f.dir / "out");
    sc.policy.params["eviction"] = eviction;
    sc.write_trace = keep_trace;
    RunOptions options = jobsched::testing::quiet_options();
    options.keep_trace = keep_trace;
    options.busy_settle_every = 1;
    RunReport r = run_scenario(sc, options);
    return std::vector<double>{r.metrics.utilization, static_cast<double>(r.performance.segments)};
  });
}

void expect_same_bits(const std::vector<double>& v)
{
  ASSERT_EQ(v.size(), 3U);
  EXPECT_GT(v[2], 400) << "running segments"; // settled in as many steps
  EXPECT_GT(v[0], 0.05);
  EXPECT_EQ(std::memcmp(&v[0], &v[1], sizeof(double)), 0) << v[0] << " vs the trace's " << v[1];
}

} // namespace

TEST(BusyUnionRuns, GangNowMigratingUtilizationEqualsTheWholeTracesBits)
{
  expect_same_bits(utilizations("migrate"));
}

TEST(BusyUnionRuns, GangNowWaitingUtilizationEqualsTheWholeTracesBits)
{
  expect_same_bits(utilizations("wait"));
}

TEST(BusyUnionRuns, GangNowUtilizationWithoutTraceHasTheKeptTracesBits)
{
  for (const std::string eviction : {"migrate", "wait"}) {
    const std::vector<double> kept = utilization_and_segments(eviction, true);
    const std::vector<double> lean = utilization_and_segments(eviction, false);
    ASSERT_EQ(kept.size(), 2U);
    ASSERT_EQ(lean.size(), 2U);
    EXPECT_GT(kept[0], 0.05) << eviction;
    EXPECT_GT(kept[1], 400) << eviction;
    EXPECT_EQ(std::memcmp(&kept[0], &lean[0], sizeof(double)), 0) << eviction << ": " << lean[0] << " vs " << kept[0];
    EXPECT_EQ(lean[1], kept[1]) << eviction << ": segments counted";
  }
}
