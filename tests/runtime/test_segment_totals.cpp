/* A run without trace.csv has the runtime sum the running segments' processor-seconds and count the segments itself
 * (JobRuntime::keep_segment_totals) instead of handing each segment to the run's sink: the utilization must have the
 * same bits, and the segment count be the same, as the same run writing its trace (the sink's sum). Scenarios: a
 * memory-constrained scheduler whose cycles are advanced whole (aggregated rows, counted once, their area times their
 * repeats), EQUI (malleable) and Cao's ac-ds (fractional shares: segments whose area is not processors x length). */
#include "run/simulation.hpp"
#include "support/child_process.hpp"
#include "support/quiet_run.hpp"
#include "support/scratch_folder.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace jobsched;
using jobsched::testing::in_child;
using jobsched::testing::ScratchFolder;

namespace {

/* {utilization, segments, cycles} of `scenario` (under the source tree) with or without its trace; `edit` changes the
 * scenario first. */
template <class Edit>
std::vector<double> run(const std::string& scenario, bool trace, Edit edit)
{
  ScratchFolder f;
  return in_child([&] {
    Scenario sc = jobsched::testing::load_scenario_into(std::string(SOURCE_DIR) + "/" + scenario, f.dir / "out");
    sc.write_trace = trace;
    edit(sc);
    RunReport r = run_scenario(sc, jobsched::testing::quiet_options());
    return std::vector<double>{r.metrics.utilization, static_cast<double>(r.performance.segments),
                               static_cast<double>(r.performance.cycles)};
  });
}

template <class Edit>
void expect_same_totals(const std::string& scenario, Edit edit, bool cycles)
{
  const std::vector<double> with = run(scenario, true, edit);
  const std::vector<double> without = run(scenario, false, edit);
  ASSERT_EQ(with.size(), 3U);
  ASSERT_EQ(without.size(), 3U);
  EXPECT_GT(with[0], 0.05);
  EXPECT_GT(with[1], 100); // segments
  EXPECT_EQ(std::memcmp(&with[0], &without[0], sizeof(double)), 0) << with[0] << " vs " << without[0];
  EXPECT_EQ(with[1], without[1]);
  EXPECT_EQ(with[2], without[2]);
  if (cycles) {
    EXPECT_GT(with[2], 100) << "cycles advanced whole";
  }
}

} // namespace

TEST(SegmentTotals, MemoryConstrainedCyclesSameAreaAndCountAsTheTrace)
{
  expect_same_totals(
      "scenarios/memory-constrained/dynamic.yaml", [](Scenario& sc) { sc.policy.params["policy"] = "equi-epoch"; },
      true);
}

TEST(SegmentTotals, EquiSharesSameAreaAndCountAsTheTrace)
{
  expect_same_totals(
      "scenarios/time-sharing.yaml",
      [](Scenario& sc) {
        sc.policy.name = "equi";
        sc.policy.params.clear();
        sc.workload.jobs.shape = JobShape::malleable;
      },
      false);
}

TEST(SegmentTotals, HierarchicalSameAreaAndCountAsTheTrace)
{
  expect_same_totals(
      "scenarios/hierarchical/ac-ds.yaml", [](Scenario&) {}, false);
}
