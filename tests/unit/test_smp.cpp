/* The SMP-cluster paper's model (docs/reproduction/smp-cluster.md): the Tight placement rule on hand cases, the
 * communication cost table of the paper, the paging model by hand, and EASY with placement constraints never
 * delaying the head of its queue (checked against a brute-force reservation over every subset of nodes). */
#include "allocation/cost_aware_placement.hpp"
#include "model/job_model.hpp"
#include "support/policy_driver.hpp"
#include "workload/generator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

using namespace jobsched;
using jobsched::testing::PolicyUnderTest;

namespace {

struct Smp {
  Machine machine;
  Params params;
  std::unique_ptr<Allocator> allocator;
  Smp(int nodes, int cores, std::map<std::string, std::string> p, int level = 0, double base = 0.05)
      : machine(Machine::uniform(nodes, cores))
  {
    const auto& info = allocator_registry().get("smp");
    params = Params(info.params, p, "policy.allocation_params");
    allocator = info.make(AllocatorEnv{machine, params, level, base});
  }
  ResourceSet node(int n) const { return machine.processors_of(n); }
  /* Processors of `free_per_node[n]` lowest cores of each node n. */
  ResourceSet available(const std::vector<int>& free_per_node) const
  {
    ResourceSet r(machine.resource_count());
    for (size_t n = 0; n < free_per_node.size(); n++)
      r |= ResourceSet::range(machine.resource_count(), machine.first_resource(static_cast<int>(n)), free_per_node[n]);
    return r;
  }
  std::optional<std::string> place(int size, const ResourceSet& avail) const
  {
    Job j;
    j.size = size;
    auto r = allocator->select(j, avail);
    return r ? std::optional<std::string>(r->to_string()) : std::nullopt;
  }
};

TEST(SmpAllocation, CompactPlacementOnAnEmptyMachine)
{
  // 4 nodes x 4 cores; 6 processors need 2 nodes: all of node 0, then 2 cores of node 1.
  Smp smp(4, 4, {{"tight", "0"}});
  EXPECT_EQ(smp.place(6, smp.available({4, 4, 4, 4})), "0-5");
  EXPECT_EQ(smp.place(16, smp.available({4, 4, 4, 4})), "0-15");
}

TEST(SmpAllocation, TightBoundsTheNumberOfNodes)
{
  // Free cores per node: 1, 2, 3, 2 (8 in all). 6 processors: the best nodes are node 2 (3) and node 1 (2), 5
  // cores: a third node is needed. min_nodes = ceil(6/4) = 2, so Tight 0 refuses and Tight 1 accepts: all of
  // nodes 2 and 1, and the last core from node 0, the tightest node that still holds it (best fit).
  Smp tight0(4, 4, {{"tight", "0"}});
  Smp tight1(4, 4, {{"tight", "1"}});
  auto avail = tight0.available({1, 2, 3, 2});
  EXPECT_FALSE(tight0.place(6, avail).has_value());
  EXPECT_EQ(tight1.place(6, avail), "0 4-5 8-10");
  // 3 processors fit on node 2 alone, whatever Tight.
  EXPECT_EQ(tight0.place(3, avail), "8-10");
  // More than the free cores: never.
  EXPECT_FALSE(tight1.place(9, avail).has_value());
}

TEST(SmpAllocation, AdaptiveTightIsSixMinusLevel)
{
  // A 4-processor job on free cores 2, 1, 1, 0: min_nodes 1; it needs 3 nodes, so Tight >= 2. Adaptive Tight = 6 -
  // Level: accepted at Level 4 (Tight 2), refused at Level 5 (Tight 1).
  Smp level4(4, 4, {{"adaptive", "true"}}, 4);
  Smp level5(4, 4, {{"adaptive", "true"}}, 5);
  EXPECT_TRUE(level4.place(4, level4.available({2, 1, 1, 0})).has_value());
  EXPECT_FALSE(level5.place(4, level5.available({2, 1, 1, 0})).has_value());
  // A loaded network takes Tight further down: 6 - 4 - 1.0 x load 1.0 x 6 < 0 -> Tight 0.
  Smp loaded(4, 4, {{"adaptive", "true"}, {"load_weight", "1.0"}}, 4);
  AllocatorView busy;
  busy.network_load = 1.0;
  loaded.allocator->observe(busy);
  EXPECT_FALSE(loaded.place(4, loaded.available({2, 1, 1, 0})).has_value());
  EXPECT_TRUE(loaded.place(4, loaded.available({4, 0, 0, 0})).has_value());
  // A load weight of 2 reaches Tight 0 at half load (Level 0: 6 - 2 x 0.5 x 6 = 0), where a weight of 1 leaves 3.
  AllocatorView half;
  half.network_load = 0.5;
  Smp weight2(4, 4, {{"adaptive", "true"}, {"load_weight", "2"}}, 0);
  Smp weight1(4, 4, {{"adaptive", "true"}, {"load_weight", "1"}}, 0);
  weight2.allocator->observe(half);
  weight1.allocator->observe(half);
  EXPECT_FALSE(weight2.place(4, weight2.available({2, 1, 1, 0})).has_value());
  EXPECT_TRUE(weight2.place(4, weight2.available({4, 0, 0, 0})).has_value());
  EXPECT_TRUE(weight1.place(4, weight1.available({2, 1, 1, 0})).has_value());
}

TEST(CostAwarePlacement, EarliestExpectedFinishByHand)
{
  // Stretch 1 + 0.1 x nodes. Options: now on 3 nodes, at 10 on 2, at 30 on 1.
  auto stretch = [](int n) { return 1 + 0.1 * n; };
  const std::vector<PlacementOption> options = {{0, 3}, {10, 2}, {30, 1}};
  // Estimate 10: ends 0 + 13 = 13, 10 + 12 = 22, 30 + 11 = 41: finishing now wins.
  PlacementChoice quick = earliest_expected_finish(options, 10, stretch);
  EXPECT_EQ(quick.option.nodes, 3);
  EXPECT_NEAR(quick.finish, 13, 1e-9);
  // Estimate 1000: 1300, 1210, 1130: waiting for one node wins.
  PlacementChoice long_job = earliest_expected_finish(options, 1000, stretch);
  EXPECT_EQ(long_job.option.nodes, 1);
  EXPECT_NEAR(long_job.option.start, 30, 1e-12);
  EXPECT_NEAR(long_job.finish, 1130, 1e-9);
  // Estimate 100: 130, 130, 140: a tie between now on 3 nodes and 10 on 2 goes to the fewer nodes.
  PlacementChoice tie = earliest_expected_finish(options, 100, stretch);
  EXPECT_EQ(tie.option.nodes, 2);
  EXPECT_NEAR(tie.finish, 130, 1e-9);
}

TEST(CostAwarePlacement, StretchEstimatesByHand)
{
  EXPECT_NEAR(formula_stretch(0.05, 4, 10), 3.0, 1e-12); // the paper's 2.0 at 10 SMPs, Level 4
  // Network estimate, base 0.05, Level 2, 2 nodes: formula 1.2; load 0.5: contention 2 - 0.5^2 = 1.75 -> 2.1.
  EXPECT_NEAR(network_stretch(0.05, 2, 2, 0.5), 2.1, 1e-12);
  EXPECT_NEAR(network_stretch(0.05, 2, 2, 0.0), 1.2, 1e-12);     // quiet network: the formula
  EXPECT_NEAR(network_stretch(0.05, 2, 3, 1.0), 1.3 * 2, 1e-12); // every link busy: bandwidth halved
  EXPECT_NEAR(network_stretch(0.05, 2, 1, 1.0), 1.1, 1e-12);     // one node: its loopback only
  // Contention weight 3: 1.2 x (1 + 3 x (1 - 0.5^2)) = 1.2 x 3.25 = 3.9.
  EXPECT_NEAR(network_stretch(0.05, 2, 2, 0.5, 3.0), 3.9, 1e-12);
  EXPECT_EQ(fewest_nodes({1, 3, 0, 2}, 5), 2);  // 3 + 2
  EXPECT_EQ(fewest_nodes({1, 3, 0, 2}, 7), -1); // 6 free cores only
}

/* The cost-aware rule in the allocator. 4 nodes x 4 cores, Level 2, base 0.25: stretch 1 + 0.5 x nodes (1.5 on one
 * node, 2.0 on two). A 4-processor job with estimate 100 at t = 0 sees 2 free cores on node 0 and 2 on node 1, nodes
 * 2 and 3 busy: now it needs 2 nodes and is expected to end at 0 + 100 x 2.0 = 200. The job on node 2 is expected to
 * end at t_free (it started at t_free - 30 with estimate 20, stretched by 1.5 on its one node), the one on node 3 at
 * 1000 (850 + 100 x 1.5); from t_free one node holds it, expected end t_free + 100 x 1.5. */
struct CostAwareCase {
  Smp smp;
  Job job;
  // `params` beyond adaptive: cost-aware; spread_weight 0 by default here: the options' expected finishes alone (the
  // weight: SpreadWeightInTheAllocator).
  explicit CostAwareCase(double t_free, std::map<std::string, std::string> params = {{"spread_weight", "0"}})
      : smp(4, 4, with_cost_aware(std::move(params)), 2, 0.25)
  {
    job.id = 7;
    job.size = 4;
    job.estimate = 100;
    AllocatorView view;
    view.now = 0;
    view.releases = {{t_free, smp.node(2), t_free - 30, 20}, {1000, smp.node(3), 850, 100}};
    smp.allocator->observe(view);
  }
  std::optional<std::string> place(const ResourceSet& available) const
  {
    auto r = smp.allocator->select(job, available);
    return r ? std::optional<std::string>(r->to_string()) : std::nullopt;
  }
  /* Where the job goes with 2 free cores on each of nodes 0 and 1 ("none": it waits). */
  std::string place_now() const { return place(smp.available({2, 2, 0, 0})).value_or("none"); }
  static std::map<std::string, std::string> with_cost_aware(std::map<std::string, std::string> params)
  {
    params["adaptive"] = "cost-aware";
    return params;
  }
};

TEST(CostAwarePlacement, FinishNowWins)
{
  // t_free = 60: waiting ends at 60 + 150 = 210 > 200: the job starts now on nodes 0 and 1.
  CostAwareCase c(60);
  EXPECT_EQ(c.place(c.smp.available({2, 2, 0, 0})), "0-1 4-5");
}

TEST(CostAwarePlacement, WaitingWins)
{
  // t_free = 40: waiting ends at 40 + 150 = 190 < 200: no start now. The choice holds for the rest of the pass: on the
  // machine as it will be at 40 (EASY's reservation), the job is placed on node 2 alone.
  CostAwareCase c(40);
  const ResourceSet now = c.smp.available({2, 2, 0, 0});
  EXPECT_FALSE(c.place(now).has_value());
  EXPECT_EQ(c.place(now | c.smp.node(2)), "8-11");
  // Without the cost-aware rule (Tight 1) the job starts now.
  Smp loose(4, 4, {{"tight", "1"}}, 2, 0.25);
  EXPECT_TRUE(loose.allocator->fits(c.job, now));
}

TEST(CostAwarePlacement, TieGoesToTheFewerNodes)
{
  // t_free = 50: 50 + 150 = 200 = 0 + 200: a tie; the compact option (one node at 50) is taken.
  CostAwareCase c(50);
  EXPECT_FALSE(c.place(c.smp.available({2, 2, 0, 0})).has_value());
}

TEST(CostAwarePlacement, WaitsHeadLetsOnlyTheFirstWaiterWait)
{
  // t_free = 40 as above: the first job asked about waits (190 < 200). A second, identical job (id 8) would wait too
  // with `waits: every-job`; with `waits: head` it may not (it would hold no reservation): it starts now on 2 nodes.
  const ResourceSet now = CostAwareCase(40).smp.available({2, 2, 0, 0});
  for (const char* waits : {"every-job", "head"}) {
    Smp smp(4, 4, {{"adaptive", "cost-aware"}, {"waits", waits}}, 2, 0.25);
    AllocatorView view;
    view.releases = {{40, smp.node(2), 10, 20}, {1000, smp.node(3), 850, 100}};
    smp.allocator->observe(view);
    Job first, second;
    first.id = 7;
    second.id = 8;
    first.size = second.size = 4;
    first.estimate = second.estimate = 100;
    EXPECT_FALSE(smp.allocator->fits(first, now)) << waits;
    auto placed = smp.allocator->select(second, now);
    if (std::string(waits) == "head")
      EXPECT_EQ(placed ? placed->to_string() : "none", "0-1 4-5");
    else
      EXPECT_FALSE(placed.has_value());
  }
  EXPECT_THROW(Smp(2, 2, {{"adaptive", "cost-aware"}, {"waits", "nobody"}}), InputError);
}

TEST(CostAwarePlacement, EasyReservesTheCompactPlacementItWaitsFor)
{
  // 2 nodes x 2 cores, Level 2, base 0.25 (stretch 1.5 on one node, 2.0 on two). Running at t = 0: A on processor 0
  // (node 0), started at t_a - 30 with estimate 20, so the rule expects it to end at t_a (20 x 1.5 after its start)
  // and EASY at t_a - 10; B on processor 2 (node 1) until 1000 or later; idle: processors 1 and 3, one per node.
  // Queue: H (2 processors, estimate 100), then C and D (1 processor, estimate 100 each).
  //  t_a = 40: H now on 2 nodes ends at 200, at 40 on node 0 at 40 + 150 = 190: H waits, and EASY reserves node 0
  //  (processors 0-1) from 30. C ends at 100 > 30, so it may only use unreserved processor 3; D then finds none.
  //  t_a = 60: 60 + 150 = 210 > 200: H starts now on processors 1 and 3.
  using jobsched::testing::job;
  for (double t_a : {40.0, 60.0}) {
    PolicyUnderTest p("easy", Machine::uniform(2, 2), "smp", {{"adaptive", "cost-aware"}, {"spread_weight", "0"}}, 2,
                      0.25);
    const WorkloadJob a = job(1, 0, 1, 20), b = job(2, 0, 1, 1000), h = job(3, 0, 2, 100), c = job(4, 0, 1, 100),
                      d = job(5, 0, 1, 100);
    ClusterState state;
    state.now = 0;
    state.machine = &p.machine;
    state.up = ResourceSet::all(4);
    state.idle = ResourceSet::range(4, 1, 1) | ResourceSet::range(4, 3, 1);
    state.running[1] = RunningJob{&a, ResourceSet::range(4, 0, 1), t_a - 30, false};
    state.running[2] = RunningJob{&b, ResourceSet::range(4, 2, 1), 0, false};
    for (const WorkloadJob* j : {&h, &c, &d})
      p.policy->job_submitted(*j, 0);
    p.allocator->observe(allocator_view(state, *p.allocator));
    Decisions out = p.policy->decide(state);
    ASSERT_EQ(out.size(), 1U) << "t_a = " << t_a;
    EXPECT_EQ(out[0].job, t_a == 40.0 ? 4 : 3);
    EXPECT_EQ(out[0].resources.to_string(), t_a == 40.0 ? "3" : "1 3");
  }
}

TEST(CostAwarePlacement, CompactWithinToleranceByHand)
{
  // Stretch 1 + 0.1 x nodes, estimate 100; options now on 3 nodes, at 10 on 2, at 30 on 1: expected ends 130, 130,
  // 140. Tolerance 0 is the earliest finish (the tie goes to 2 nodes); 0.05 allows ends up to 135: still 2 nodes;
  // 0.1 allows 140: one node at 30.
  auto stretch = [](int n) { return 1 + 0.1 * n; };
  const std::vector<PlacementOption> options = {{0, 3}, {10, 2}, {30, 1}};
  EXPECT_EQ(compact_within_tolerance(options, 100, stretch, 0).option.nodes, 2);
  EXPECT_EQ(compact_within_tolerance(options, 100, stretch, 0.05).option.nodes, 2);
  PlacementChoice one = compact_within_tolerance(options, 100, stretch, 0.1);
  EXPECT_EQ(one.option.nodes, 1);
  EXPECT_NEAR(one.option.start, 30, 1e-12);
  EXPECT_NEAR(one.finish, 140, 1e-9);
  // Level 0 (no communication cost: stretch 1): now on 3 nodes ends at 100, one node at 20 ends at 120. Waiting 20 s
  // is 0.2 of the estimate: tolerance 0.2 waits, 0.19 starts now.
  auto flat = [](int) { return 1.0; };
  const std::vector<PlacementOption> level0 = {{0, 3}, {20, 1}};
  EXPECT_EQ(compact_within_tolerance(level0, 100, flat, 0.2).option.nodes, 1);
  EXPECT_EQ(compact_within_tolerance(level0, 100, flat, 0.19).option.nodes, 3);
}

TEST(CostAwarePlacement, WaitToleranceInTheAllocator)
{
  // CostAwareCase with t_free = 60: now on 2 nodes ends at 200, on one node at 60 + 150 = 210, 10 s (0.1 x the
  // estimate 100) later. wait_tolerance 0.1: the job waits; 0.09: it starts now on nodes 0 and 1.
  for (const char* tolerance : {"0.1", "0.09"}) {
    CostAwareCase c(60, {{"wait_tolerance", tolerance}, {"spread_weight", "0"}});
    EXPECT_EQ(c.place_now(), std::string(tolerance) == "0.1" ? "none" : "0-1 4-5") << tolerance;
  }
  EXPECT_THROW(Smp(2, 2, {{"adaptive", "cost-aware"}, {"wait_tolerance", "-0.1"}}), InputError);
  EXPECT_THROW(Smp(2, 2, {{"adaptive", "cost-aware"}, {"wait_tolerance", "nan"}}), InputError);
}

TEST(CostAwarePlacement, SpreadWeightInTheAllocator)
{
  // CostAwareCase with t_free = 60: now on 2 nodes (stretch 2.0) ends at 200, on one node (1.5) at 60 + 150 = 210.
  // spread_weight w adds w x 100 x (2.0 - 1.5) to the spread option: 205 with w = 0.1 (it still starts now), 250 with
  // w = 1, the default (it waits; the compact option, already the most compact, costs its finish, 210).
  for (const char* weight : {"0.1", "1", "default"}) {
    std::map<std::string, std::string> params;
    if (std::string(weight) != "default") params["spread_weight"] = weight;
    EXPECT_EQ(CostAwareCase(60, params).place_now(), std::string(weight) == "0.1" ? "0-1 4-5" : "none") << weight;
  }
  EXPECT_THROW(Smp(2, 2, {{"adaptive", "cost-aware"}, {"spread_weight", "-1"}}), InputError);
  EXPECT_THROW(Smp(2, 2, {{"adaptive", "cost-aware"}, {"spread_weight", "inf"}}), InputError);
}

TEST(CostAwarePlacement, MeanNetworkLoadByHand)
{
  // Network model, 4 nodes x 4 cores, Level 2, base 0.25 (formula stretch 1.5 on one node, 2.0 on two), spread weight
  // 0. The measured load is 0 at t = 0 and 1 from t = 10; at t = 40 the job (estimate 100) can start now on nodes 0
  // and 1, or at 40 + 110 = 150 on node 2 alone (ending at 150 + 150 = 300). load_measure now: load 1, contention
  // 1 + (1 - 0^2) = 2, stretch 4.0, now ends at 40 + 400 = 440: it waits. load_measure mean: (10 x 0 + 30 x 1) / 40 =
  // 0.75, contention 1 + (1 - 0.25^2) = 1.9375, stretch 3.875, now ends at 40 + 387.5 = 427.5: it waits too; with the
  // load at 1 only from t = 35, the mean is 5 / 40 = 0.125, contention 1 + (1 - 0.875^2) = 1.234375, stretch
  // 2.46875, now ends at 286.875 < 300: it starts now, while load_measure now still waits.
  const Machine machine = Machine::uniform(4, 4);
  for (const char* measure : {"now", "mean"})
    for (double busy_from : {10.0, 35.0}) {
      const auto& info = allocator_registry().get("smp");
      Params params(info.params, {{"adaptive", "cost-aware"}, {"load_measure", measure}, {"spread_weight", "0"}},
                    "policy.allocation_params");
      auto allocator = info.make(AllocatorEnv{machine, params, 2, 0.25, true});
      for (double t : {0.0, busy_from, 40.0}) {
        AllocatorView view;
        view.now = t;
        view.network_load = t >= busy_from ? 1.0 : 0.0;
        view.releases = {{150, machine.processors_of(2), 150, 0}, {1000, machine.processors_of(3), 1000, 0}};
        allocator->observe(view);
      }
      Job j;
      j.id = 7;
      j.size = 4;
      j.estimate = 100;
      auto placed = allocator->select(j, ResourceSet::range(16, 0, 2) | ResourceSet::range(16, 4, 2));
      const bool starts_now = std::string(measure) == "mean" && busy_from == 35.0;
      EXPECT_EQ(placed ? placed->to_string() : "none", starts_now ? "0-1 4-5" : "none") << measure << " " << busy_from;
    }
  EXPECT_THROW(Smp(2, 2, {{"adaptive", "cost-aware"}, {"load_measure", "max"}}), InputError);
}

TEST(CostAwarePlacement, StretchedReleasesByHand)
{
  // 4 nodes x 4 cores, Level 2, base 0.25: stretch 1.5 on one node, 2.0 on two. The 4-processor job (estimate 100)
  // ends at 200 now on nodes 0 and 1. A job started at 0 with estimate 40 on node 2 alone frees it at 40 by its
  // estimate (waiting ends at 40 + 150 = 190: the job waits) or at 40 x 1.5 = 60 stretched (210: it starts now). A
  // job on nodes 2 and 3 with estimate 30 frees them at 30 (180: waits) or at 30 x 2.0 = 60 stretched (210: now).
  for (const char* releases : {"estimate", "stretched"}) {
    Smp smp(4, 4, {{"adaptive", "cost-aware"}, {"releases", releases}, {"spread_weight", "0"}}, 2, 0.25);
    const bool stretched = std::string(releases) == "stretched";
    Job j;
    j.id = 7;
    j.size = 4;
    j.estimate = 100;
    for (const auto& [running, estimate] : {std::pair{smp.node(2), 40.0}, std::pair{smp.node(2) | smp.node(3), 30.0}}) {
      AllocatorView view;
      view.releases = {{estimate, running, 0, estimate}};
      smp.allocator->observe(view);
      auto placed = smp.allocator->select(j, smp.available({2, 2, 0, 0}));
      EXPECT_EQ(placed ? placed->to_string() : "none", stretched ? "0-1 4-5" : "none") << releases << " " << estimate;
    }
  }
  EXPECT_THROW(Smp(2, 2, {{"adaptive", "cost-aware"}, {"releases", "actual"}}), InputError);
}

TEST(SmpAllocation, AdaptiveTakesOffTrueOrCostAware)
{
  // Tight = tight_max - level_weight x Level - load_weight x load x tight_max only falls: no negative weight; either
  // weight above the largest tight_max (10^9) changes nothing more, and a load weight of 2 (Tight 0 at half load) is
  // meaningful.
  for (const char* weight : {"level_weight", "load_weight"}) {
    for (const char* bad : {"-1", "1e20", "1000000001", "nan", "inf"})
      EXPECT_THROW(Smp(2, 2, {{"adaptive", "true"}, {weight, bad}}), InputError) << weight << " " << bad;
    for (const char* good : {"0", "1", "2", "1000000000"})
      EXPECT_NO_THROW(Smp(2, 2, {{"adaptive", "true"}, {weight, good}})) << weight << " " << good;
  }
  EXPECT_THROW(Smp(2, 2, {{"adaptive", "sometimes"}}), InputError);
  for (const char* value : {"off", "false", "true", "cost-aware"})
    EXPECT_NO_THROW(Smp(2, 2, {{"adaptive", value}}));
}

TEST(CommunicationCost, ThePapersTable)
{
  // cost = 0.05 x SMPs x Level, the paper's table for 1..10 SMPs at Levels 1, 2 and 4.
  const double level1[] = {0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50};
  const double level2[] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};
  const double level4[] = {0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0};
  for (int k = 1; k <= 10; k++) {
    EXPECT_NEAR(communication_cost(0.05, k, 1), level1[k - 1], 1e-12);
    EXPECT_NEAR(communication_cost(0.05, k, 2), level2[k - 1], 1e-12);
    EXPECT_NEAR(communication_cost(0.05, k, 4), level4[k - 1], 1e-12);
  }
}

TEST(JobModel, FormulaStretchAndPagingByHand)
{
  Machine m = Machine::uniform(4, 4);
  CommSpec comm;
  comm.model = CommCostModel::formula;
  comm.level = 2;
  MemorySpec mem;
  mem.paging = true;
  mem.threshold = 1.0;
  mem.page_fault_penalty = 2.0;
  JobModel model(m, comm, mem, {300, 300, 300, 300}); // 300 MB per node
  Job j;
  j.size = 6;
  j.memory_kb = 100 * 1024; // 100 MB per process
  // 4 processes on node 0 (400 MB: 100 MB does not fit) and 2 on node 1 (200 MB): f = 100 / 600;
  // stretch = 1 + 2 x 1/6 (paging) + 0.05 x 2 x 2 (communication).
  PlacementCost c = model.cost(j, ResourceSet::range(16, 0, 6));
  EXPECT_EQ(c.nodes_used, 2);
  EXPECT_NEAR(c.communication, 0.2, 1e-12);
  EXPECT_NEAR(c.page_faults, 2.0 / 6.0, 1e-12);
  EXPECT_NEAR(model.compute_stretch(c), 1 + 2.0 / 6.0 + 0.2, 1e-12);
  // Spread 2 + 2 + 2 over three nodes: everything fits, communication over 3 nodes.
  ResourceSet spread = ResourceSet::range(16, 0, 2) | ResourceSet::range(16, 4, 2) | ResourceSet::range(16, 8, 2);
  PlacementCost s = model.cost(j, spread);
  EXPECT_EQ(s.nodes_used, 3);
  EXPECT_NEAR(s.page_faults, 0, 1e-12);
  EXPECT_NEAR(s.communication, 0.3, 1e-12);
}

/* Brute force: the earliest release time at which some set of at most max_nodes nodes holds `size` free cores,
 * enumerating every subset of nodes. */
double brute_force_shadow(const Machine& m, const ClusterState& state, int size, int max_nodes)
{
  std::vector<std::pair<double, ResourceSet>> releases;
  for (const auto& [id, r] : state.running)
    releases.emplace_back(r.expected_end(state.now), r.resources);
  std::sort(releases.begin(), releases.end(), [](auto& a, auto& b) { return a.first < b.first; });
  ResourceSet free = state.idle;
  auto fits = [&](const ResourceSet& avail) {
    const int hosts = m.host_count();
    for (int subset = 1; subset < (1 << hosts); subset++) {
      if (__builtin_popcount(subset) > max_nodes) continue;
      int cores = 0;
      for (int h = 0; h < hosts; h++)
        if (subset & (1 << h)) cores += (avail & m.processors_of(h)).count();
      if (cores >= size) return true;
    }
    return false;
  };
  if (fits(free)) return state.now;
  for (const auto& [t, r] : releases) {
    free |= r;
    if (fits(free)) return t;
  }
  return std::numeric_limits<double>::infinity();
}

/* The fewest-nodes placement as it was first written, with set algebra on whole processor sets (node by node, ranked
 * by a stable sort): the reference select() must agree with, member for member. `bound` is the most nodes allowed. */
std::optional<ResourceSet> set_algebra_placement(const Machine& machine, int size, long bound,
                                                 const ResourceSet& available, const ResourceSet* preferred)
{
  const int hosts = machine.host_count();
  std::vector<int> free(hosts, 0);
  for (int p : available.members())
    free[machine.host_of(p)]++;
  std::vector<int> order(hosts);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&free](int a, int b) { return free[a] > free[b]; });
  long k = 0;
  int held = 0;
  while (held < size && k < hosts && free[order[k]] > 0)
    held += free[order[k++]];
  if (held < size || k > bound) return std::nullopt;
  std::vector<std::pair<int, int>> take; // node, cores
  int got = 0;
  for (long i = 0; i + 1 < k; i++) {
    take.emplace_back(order[i], free[order[i]]);
    got += free[order[i]];
  }
  const int rest = size - got;
  int last = -1;
  for (long i = k - 1; i < hosts; i++) {
    const int h = order[i];
    if (free[h] >= rest && (last < 0 || free[h] < free[last] || (free[h] == free[last] && h < last))) last = h;
  }
  take.emplace_back(last, rest);
  ResourceSet chosen(available.capacity());
  for (const auto& [h, n] : take) {
    ResourceSet node = machine.processors_of(h) & available;
    ResourceSet first = preferred ? node & *preferred : ResourceSet(available.capacity());
    const int from_first = std::min(first.count(), n);
    chosen |= first.lowest(from_first);
    chosen |= (node - first).lowest(n - from_first);
  }
  return chosen;
}

/* select() finds the nodes from counts of free cores per node instead of sorting whole sets: on random free sets
 * (whole free nodes, partly free nodes, sparse and dense), random preferred sets (or none), sizes from 1 core to
 * more than the free ones and Tight 0 to 3, it returns what the set-algebra placement above returns. Machines: 8-core
 * nodes (a node is a byte of a word; 1,250 of them is the 10,000-processor benchmark), 10-core nodes (nodes across
 * word boundaries), nodes of 1 to 64 cores (the ranking's ties between different node sizes, nodes over two words),
 * and nodes of up to 70 cores (more than a word: free cores counted range by range). */
TEST(SmpAllocation, FewestNodesMatchesTheSetAlgebraPlacement)
{
  std::mt19937 rng(2026);
  Machine mixed, wide;
  for (int h = 0; h < 60; h++) {
    mixed.add_host("n" + std::to_string(h), 1 + (h * 37) % 64, 1e9);
    wide.add_host("n" + std::to_string(h), 1 + (h * 37) % 70, 1e9);
  }
  std::vector<std::pair<std::string, Machine>> machines{{"8 x 40", Machine::uniform(40, 8)},
                                                        {"8 x 1250", Machine::uniform(1250, 8)},
                                                        {"10 x 30", Machine::uniform(30, 10)},
                                                        {"mixed", mixed},
                                                        {"wide", wide}};
  int placed = 0;
  int refused = 0;
  for (auto& [name, machine] : machines)
    for (int tight = 0; tight <= 3; tight++) {
      const auto& info = allocator_registry().get("smp");
      Params params(info.params, {{"tight", std::to_string(tight)}}, "policy.allocation_params");
      auto allocator = info.make(AllocatorEnv{machine, params, 0, 0.05});
      std::vector<int> cores_by_size;
      for (int h = 0; h < machine.host_count(); h++)
        cores_by_size.push_back(machine.cores(h));
      std::sort(cores_by_size.rbegin(), cores_by_size.rend());
      const int capacity = machine.resource_count();
      for (int trial = 0; trial < 150; trial++) {
        // Each node wholly free, wholly busy, or random cores free (at a density that varies by trial).
        ResourceSet available(capacity), preferred(capacity);
        std::bernoulli_distribution core_free(std::uniform_real_distribution<double>(0.05, 0.95)(rng));
        std::discrete_distribution<int> node_kind({1, 2, 2});
        for (int h = 0; h < machine.host_count(); h++) {
          const int kind = node_kind(rng);
          for (int p = machine.first_resource(h); p < machine.first_resource(h) + machine.cores(h); p++)
            if (kind == 0 || (kind == 2 && core_free(rng))) available.set(p);
        }
        for (int p = 0; p < capacity; p++)
          if (std::bernoulli_distribution(0.3)(rng)) preferred.set(p);
        const int free = available.count();
        for (int q = 0; q < 6; q++) {
          Job job;
          job.size = std::uniform_int_distribution<int>(1, std::max(1, q == 0 ? free + 3 : std::min(free, 64)))(rng);
          long min_nodes = 0;
          for (int held = 0; held < job.size && min_nodes < static_cast<long>(cores_by_size.size());)
            held += cores_by_size[static_cast<size_t>(min_nodes++)];
          const ResourceSet* pref = q % 2 ? &preferred : nullptr;
          const auto expected = set_algebra_placement(machine, job.size, min_nodes + tight, available, pref);
          const auto got = allocator->select(job, available, pref);
          ASSERT_EQ(got.has_value(), expected.has_value()) << name << " tight " << tight << " size " << job.size;
          if (expected) {
            EXPECT_EQ(got->to_string(), expected->to_string()) << name << " tight " << tight << " size " << job.size;
            placed++;
          } else {
            refused++;
          }
        }
      }
    }
  // Both outcomes were exercised often.
  EXPECT_GT(placed, 1000);
  EXPECT_GT(refused, 300);
}

TEST(EasyWithPlacement, NeverDelaysTheHead)
{
  // 6 nodes x 4 cores, Tight 1; a generated workload with estimates above run times. Each time a job is at the head
  // of the queue, the brute-force earliest start from the running jobs' estimates is an upper bound of its start.
  GeneratorSpec g;
  g.jobs = 400;
  g.seed = 3;
  g.mean_interarrival = 40;
  g.max_run_time = 2000;
  g.time_resolution = 0;
  JobList jobs;
  for (auto& r : generate_jobs(g, 24))
    jobs.push_back(r.job);
  PolicyUnderTest p("easy", Machine::uniform(6, 4), "smp", {{"tight", "1"}});
  std::map<JobId, double> bound;
  int checked = 0;
  auto result =
      jobsched::testing::drive(p, jobs, [&](const ClusterState& state, const std::vector<const Job*>& waiting) {
        if (waiting.empty()) return;
        const Job& head = *waiting.front();
        int max_nodes = (head.size + 3) / 4 + 1;
        double shadow = brute_force_shadow(p.machine, state, head.size, max_nodes);
        auto [it, first] = bound.emplace(head.id, shadow);
        if (!first) it->second = std::min(it->second, shadow);
        checked++;
      });
  for (const auto& [id, b] : bound)
    EXPECT_LE(result.start.at(id), b + 1e-6) << "job " << id << " started after its reservation";
  EXPECT_GT(checked, 100);      // the queue really built up
  EXPECT_GT(bound.size(), 50U); // many different jobs were blocked at the head
  EXPECT_EQ(result.start.size(), jobs.size());
}

} // namespace
