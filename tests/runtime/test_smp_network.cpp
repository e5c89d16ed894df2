/* The `network` communication model on platforms/smp-cluster-10x10.xml: on an idle machine a job's traffic makes
 * it last run time x (1 + 0.05 x nodes x Level), the paper's formula, within 1%; two communicating jobs at once
 * contend for the backbone and take longer. */
#include "runtime/execution/job_runtime.hpp"
#include "support/child_process.hpp"
#include "support/test_engine.hpp"

#include <gtest/gtest.h>

using namespace jobsched;
using jobsched::testing::in_child;

namespace {

/* Runs jobs of `sizes` processors (taken node by node from processor `first`), all started at 0 for 100 s of run
 * time under the network model at `level`, and returns their durations. */
std::vector<double> durations(int level, const std::vector<std::pair<int, int>>& first_and_size)
{
  return in_child([&] {
    auto engine_holder = jobsched::testing::quiet_l07_engine(SOURCE_DIR "/platforms/smp-cluster-10x10.xml");
    sg4::Engine& engine = *engine_holder;
    std::vector<sg4::Host*> hosts;
    Machine machine;
    for (int h = 0; h < 10; h++) {
      hosts.push_back(engine.host_by_name("smp-" + std::to_string(h)));
      machine.add_host(hosts.back()->get_name(), hosts.back()->get_core_count(), hosts.back()->get_speed());
    }
    CommSpec comm;
    comm.model = CommCostModel::network;
    comm.level = level;
    JobList jobs(first_and_size.size());
    std::vector<double> out(jobs.size(), -1);
    sg4::Actor::create("script", engine.host_by_name("frontend"), [&] {
      JobRuntime rt(machine, hosts, 1e9, comm);
      for (size_t i = 0; i < jobs.size(); i++) {
        jobs[i].id = static_cast<JobId>(i + 1);
        jobs[i].size = first_and_size[i].second;
        jobs[i].run_time = 100;
        jobs[i].estimate = 100;
        rt.start(jobs[i], ResourceSet::range(100, first_and_size[i].first, first_and_size[i].second));
      }
      while (rt.size() > 0) {
        sg4::Activity::wait_any(rt.activities());
        for (const auto& [id, fate] : rt.collect_ended())
          out[id - 1] = sg4::Engine::get_clock();
      }
    });
    engine.run();
    return out;
  });
}

TEST(NetworkModel, IdleMachineReproducesTheFormulaWithinOnePercent)
{
  for (int level : {1, 2, 4, 5}) {
    for (int nodes : {1, 2, 3, 5, 10}) {
      auto d = durations(level, {{0, 10 * nodes}});
      double expected = 100 * (1 + 0.05 * nodes * level);
      ASSERT_EQ(d.size(), 1U);
      EXPECT_NEAR(d[0], expected, 0.01 * expected) << nodes << " nodes at Level " << level;
    }
  }
  // Part of one node (loopback traffic only) and a job across a node boundary (2 nodes).
  auto part = durations(2, {{0, 5}});
  EXPECT_NEAR(part[0], 110, 1.1);
  auto across = durations(2, {{5, 10}});
  EXPECT_NEAR(across[0], 120, 1.2);
}

TEST(NetworkModel, ContentionAddsToTheFormula)
{
  // Alone, a 5-node job at Level 4 lasts 100 x (1 + 1.0) = 200 s. Two of them at once send 10 flows of 1 GB/s
  // through the 4 GB/s backbone: they take longer.
  auto alone = durations(4, {{0, 50}});
  auto both = durations(4, {{0, 50}, {50, 50}});
  ASSERT_EQ(both.size(), 2U);
  EXPECT_NEAR(alone[0], 200, 2);
  EXPECT_GT(both[0], 1.2 * alone[0]);
  EXPECT_GT(both[1], 1.2 * alone[0]);
}

} // namespace
