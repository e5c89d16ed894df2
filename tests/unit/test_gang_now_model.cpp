/* Gang scheduling on networks of workstations, the pure parts around the runtime: capacities from platform speeds,
 * the owners' busy and idle periods (drawn and traced), the VP workload (workload.generator.model: vp), the policy's
 * parameters and the old `gang_now:` section's one-line refusal. */
#include "model/owner_activity.hpp"
#include "policies/gang_now/events.hpp"
#include "policies/gang_now/rational.hpp"
#include "policy/policy.hpp"
#include "scenario/scenario.hpp"
#include "support/input_error.hpp"
#include "support/scratch_folder.hpp"
#include "workload/generator.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace jobsched;
using jobsched::testing::input_error_of;
using jobsched::testing::ScratchFolder;
namespace gn = jobsched::gang_now;

TEST(GangNowModel, CapacitiesFromSpeedsAreExactRatios)
{
  EXPECT_EQ(gn::capacity_from_speeds(75e6, 50e6, "h"), gn::Rational(3, 2));
  EXPECT_EQ(gn::capacity_from_speeds(250e6, 50e6, "h"), gn::Rational(5));
  EXPECT_EQ(gn::capacity_from_speeds(50e6, 50e6, "h"), gn::Rational(1));
  // 1/3 of the way: rounded to the nearest 1/10000.
  EXPECT_EQ(gn::capacity_from_speeds(4e9, 3e9, "h"), gn::Rational(13333, 10000));
  EXPECT_NE(input_error_of([] { gn::capacity_from_speeds(2e12, 1e9, "host x"); }).find("host x"), std::string::npos);
}

TEST(GangNowModel, HyperexponentialHasItsMeanAndVariation)
{
  // Balanced-means H2: mean m and coefficient of variation c, checked by sampling (200,000 draws: the standard error
  // of the mean is c m / 447, under 0.5% of m for c = 2).
  for (double cv : {1.0, 2.0, 3.0}) {
    RandomStream r(5, "h2");
    const int n = 200000;
    double sum = 0;
    double sum2 = 0;
    for (int i = 0; i < n; i++) {
      double x = hyperexponential(r, 100, cv);
      sum += x;
      sum2 += x * x;
    }
    const double mean = sum / n;
    const double sd = std::sqrt(sum2 / n - mean * mean);
    EXPECT_NEAR(mean, 100, 100 * 4 * cv / std::sqrt(n)) << cv;
    EXPECT_NEAR(sd / mean, cv, 0.06 * cv) << cv;
  }
}

TEST(GangNowModel, TraceAppliesTheGraceTime)
{
  ScratchFolder scratch;
  auto file = scratch.write("o.csv", "# time,host,state\n0,w1,busy\n5,w0,busy\n6,w0,idle\n9,w1,idle\n10,w0,busy\n"
                                     "20,w0,idle\n30,w1,busy\n");
  std::vector<bool> initially_busy;
  auto changes = read_owner_trace(file, {"w0", "w1"}, 2, initially_busy);
  EXPECT_FALSE(initially_busy[0]);
  EXPECT_TRUE(initially_busy[1]);
  // w0's 1 s visit is within the grace time: unseen. w1, busy from 0, joins at 9. w0 busy 10-20: seen at 12.
  // w1's owner from 30 to the end: seen at 32.
  ASSERT_EQ(changes.size(), 4U);
  EXPECT_EQ(changes[0].time, 9);
  EXPECT_EQ(changes[0].host, 1);
  EXPECT_FALSE(changes[0].busy);
  EXPECT_EQ(changes[1].time, 12);
  EXPECT_TRUE(changes[1].busy);
  EXPECT_EQ(changes[2].time, 20);
  EXPECT_FALSE(changes[2].busy);
  EXPECT_EQ(changes[3].time, 32);
  EXPECT_EQ(changes[3].host, 1);
}

TEST(GangNowModel, TraceErrorsNameTheLine)
{
  ScratchFolder scratch;
  std::vector<bool> b;
  const std::vector<std::string> hosts{"w0"};
  auto error = [&](const std::string& text) {
    auto f = scratch.write("bad.csv", text);
    return input_error_of([&] { read_owner_trace(f, hosts, 0, b); });
  };
  EXPECT_NE(error("1,w0,busy\n2,w9,idle\n").find("bad.csv:2: no compute host named 'w9'"), std::string::npos);
  EXPECT_NE(error("1,w0,busy\n0.5,w0,idle\n").find("bad.csv:2:"), std::string::npos);
  EXPECT_NE(error("1,w0,idle\n").find("bad.csv:1: host w0 is already idle"), std::string::npos);
  EXPECT_NE(error("nan,w0,busy\n").find("bad.csv:1:"), std::string::npos);
  EXPECT_NE(error("1,w0,away\n").find("neither busy nor idle"), std::string::npos);
  EXPECT_NE(error("1,w0\n").find("3 fields"), std::string::npos);
  // Past the horizon of 1e12 s (README) a change is never reached: 1e300 was accepted; 1e12 itself is the last time.
  EXPECT_NE(error("0,w0,busy\n1e300,w0,idle\n").find("bad.csv:2: time 1e300 is past the simulator's horizon (1e12 s)"),
            std::string::npos);
  const auto at_horizon = scratch.write("ok.csv", "0,w0,busy\n1e12,w0,idle\n");
  EXPECT_EQ(read_owner_trace(at_horizon, hosts, 0, b).size(), 1U);
  // A file without any change (empty, or comments alone: "no owner this week") is no owner activity, as SimGrid reads
  // a profile without events: s35 ran it, s36 refused it.
  for (const char* nothing : {"", "# owners: none this week\n\n"}) {
    const auto quiet = scratch.write("quiet.csv", nothing);
    b.assign(3, true);
    EXPECT_TRUE(read_owner_trace(quiet, {"w0", "w1"}, 5, b).empty()) << nothing;
    EXPECT_EQ(b, (std::vector<bool>{false, false})) << nothing;
    OwnerSpec spec;
    spec.model = OwnerSpec::Model::trace;
    spec.trace = quiet;
    OwnerActivity owners(spec, {"w0", "w1"}, 1);
    EXPECT_FALSE(owners.initially_busy(0));
    EXPECT_FALSE(owners.initially_busy(1));
    EXPECT_EQ(owners.next_time(), std::numeric_limits<double>::infinity()) << nothing;
  }
}

TEST(GangNowModel, AlternatingOwnersAreReproducibleAndAlternate)
{
  OwnerSpec spec;
  spec.model = OwnerSpec::Model::alternating;
  spec.mean_idle = 100;
  spec.mean_busy = 50;
  spec.grace = 1;
  OwnerActivity a(spec, {"w0", "w1", "w2"}, 3);
  OwnerActivity b(spec, {"w0", "w1", "w2"}, 3);
  std::vector<bool> busy{a.initially_busy(0), a.initially_busy(1), a.initially_busy(2)};
  double last = 0;
  for (int i = 0; i < 300; i++) {
    ASSERT_EQ(a.next_time(), b.next_time());
    const double t = a.next_time();
    ASSERT_GE(t, last);
    last = t;
    auto ca = a.take_due(t);
    auto cb = b.take_due(t);
    ASSERT_EQ(ca.size(), cb.size());
    for (const auto& c : ca) {
      EXPECT_NE(busy[static_cast<size_t>(c.host)], c.busy) << "a change that is no change at " << t;
      busy[static_cast<size_t>(c.host)] = c.busy;
    }
  }
}

TEST(GangNowModel, WorkloadFollowsItsSpec)
{
  GeneratorSpec spec;
  spec.model = GeneratorModel::vp;
  spec.jobs = 500;
  spec.seed = 9;
  spec.vp.min_vps = 3;
  spec.vp.max_vps = 5;
  spec.vp.min_work = 10;
  spec.vp.max_work = 100;
  spec.vp.image_mb = 2;
  auto jobs = generate_vp_jobs(spec, {"x", "y"}, {3, 1});
  ASSERT_EQ(jobs.size(), 500U);
  int x = 0;
  for (size_t i = 0; i < jobs.size(); i++) {
    const WorkloadJob& j = jobs[i].job;
    EXPECT_GE(j.size, 3);
    EXPECT_LE(j.size, 5);
    EXPECT_GE(j.run_time, 10);
    EXPECT_LE(j.run_time, 100);
    EXPECT_EQ(j.memory_kb * 1024, 2e6); // the image of one VP, per processor
    if (i > 0) {
      EXPECT_GE(j.submit_time, jobs[i - 1].job.submit_time);
    }
    x += j.arch == "x";
  }
  // Architecture x has 3/4 of the capacity: about 375 of 500 jobs (binomial sd 9.7).
  EXPECT_NEAR(x, 375, 40);
  spec.vp.archs = {"y"};
  for (const auto& r : generate_vp_jobs(spec, {"x", "y"}, {3, 1}))
    EXPECT_EQ(r.job.arch, "y");
  spec.vp.archs = {"mips"};
  EXPECT_NE(input_error_of([&] {
              generate_vp_jobs(spec, {"x", "y"}, {3, 1});
            }).find("workload.generator.archs"),
            std::string::npos);
}

TEST(GangNowModel, ScenarioKeysAreChecked)
{
  const std::string head = "platform: p.xml\npolicy: {name: gang-now}\n";
  auto error = [&](const std::string& body) { return input_error_of([&] { parse_scenario(head + body, "s.yaml"); }); };
  Scenario sc = parse_scenario(head + "owners: {model: alternating, mean_idle: 1000, mean_busy: 250}\n"
                                      "workload:\n  generator: {model: vp, jobs: 5, min_vps: 2, max_vps: 4}\n",
                               "s.yaml");
  ASSERT_TRUE(sc.workload.generator);
  EXPECT_EQ(sc.workload.generator->model, GeneratorModel::vp);
  EXPECT_EQ(sc.workload.generator->jobs, 5);
  EXPECT_EQ(sc.workload.generator->vp.min_vps, 2);
  EXPECT_EQ(sc.workload.generator->vp.max_vps, 4);
  EXPECT_EQ(sc.owners.activity(), 0.2);
  // A key of the other model names the key and the model.
  EXPECT_NE(error("workload:\n  generator: {model: vp, max_size: 4}\n")
                .find("s.yaml:4: workload.generator.max_size: model vp has no such key (it belongs to model batch)"),
            std::string::npos);
  EXPECT_NE(error("workload:\n  generator: {min_vps: 4}\n").find("workload.generator.min_vps: model batch has no"),
            std::string::npos);
  EXPECT_NE(error("workload:\n  generator: {model: vp, min_vps: 4, max_vps: 2}\n").find("workload.generator.max_vps"),
            std::string::npos);
  EXPECT_NE(error("workload:\n  generator: {model: vp, image_mb: .nan}\n").find("workload.generator.image_mb"),
            std::string::npos);
  EXPECT_NE(error("workload:\n  generator: {model: vpp}\n").find("workload.generator.model"), std::string::npos);
  // The old section: one line naming the keys that replace it.
  const std::string old =
      input_error_of([] { parse_scenario("platform: p.xml\ngang_now:\n  policy: {quantum: 3}\n", "s.yaml"); });
  for (const char* key : {"s.yaml:3: gang_now: this section is gone", "policy.name: gang-now", "policy.params",
                          "owners:", "workload.generator.model: vp"})
    EXPECT_NE(old.find(key), std::string::npos) << key << " not in: " << old;
}

/* The policy's parameters (policy.params of a scenario), checked when the policy is made: one line naming the key. */
TEST(GangNowModel, PolicyParametersAreChecked)
{
  Machine machine;
  machine.add_host("a", 1, 1e9);
  machine.add_host("b", 1, 2e9);
  auto allocator = allocator_registry().get("first-fit").make(AllocatorEnv{machine, Params()});
  const PolicyInfo& info = policy_registry().get("gang-now");
  auto make = [&](const std::map<std::string, std::string>& values) {
    Params params(info.params, values, "policy.params");
    return info.make_time_sharing(PolicyEnv{machine, *allocator, params});
  };
  EXPECT_NE(make({{"mtat", "paper"}, {"expansion", "exhaustive"}, {"eviction", "restart"}, {"quantum", "30"}}),
            nullptr);
  auto error = [&](const std::map<std::string, std::string>& values) { return input_error_of([&] { make(values); }); };
  EXPECT_NE(error({{"eviction", "never"}}).find("policy.params.eviction: 'never' is not one of migrate, wait, restart"),
            std::string::npos);
  EXPECT_NE(error({{"mtat", "best"}}).find("policy.params.mtat"), std::string::npos);
  EXPECT_NE(error({{"compression", "x"}}).find("policy.params.compression"), std::string::npos);
  EXPECT_NE(error({{"pool_target", "x"}}).find("policy.params.pool_target"), std::string::npos);
  EXPECT_NE(error({{"expansion", "x"}}).find("policy.params.expansion"), std::string::npos);
  EXPECT_NE(error({{"new_slice_rule", "x"}}).find("policy.params.new_slice_rule"), std::string::npos);
  EXPECT_NE(error({{"max_exhaustive_slices", "25"}}).find("policy.params.max_exhaustive_slices"), std::string::npos);
  EXPECT_NE(error({{"quantm", "3"}}).find("policy.params.quantm"), std::string::npos);
  EXPECT_NE(error({{"quantum", "0"}}).find("policy.params.quantum"), std::string::npos);
  EXPECT_NE(error({{"quantum", "0.4"}}).find("policy.params.switch_cost: the context switch (0.5 s)"),
            std::string::npos);
  EXPECT_NE(error({{"switch_cost", "-1"}}).find("policy.params.switch_cost"), std::string::npos);
}

TEST(GangNowModel, ExhaustiveSearchGivesWayToColumnsInRuns)
{
  // Three slices with a free entry (P2) and a limit of 2: the plan command refuses, a run searches by columns.
  gn::AllocationMap map;
  map.processors = {{"p1", gn::Rational(1), "x"}, {"p2", gn::Rational(2), "x"}};
  for (int s = 0; s < 3; s++)
    map.slices.push_back({gn::Entry{s, 1}, gn::Entry{}});
  gn::SchedulerOptions options;
  options.expansion = gn::ExpansionSearch::exhaustive;
  options.max_exhaustive_slices = 2;
  EXPECT_NE(input_error_of([&] {
              gn::find_free_pattern(map, {{"x", 1}}, gn::kFreeEntry, options);
            }).find("more than the 2 it searches"),
            std::string::npos);
  options.exhaustive_falls_back = true;
  gn::Pattern p = gn::find_free_pattern(map, {{"x", 1}}, gn::kFreeEntry, options);
  EXPECT_EQ(p.processors, std::vector<int>{1});
  EXPECT_EQ(p.slices, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(p.size, gn::Rational(6));
}
