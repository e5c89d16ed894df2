/* The SMP-cluster paper's model (../shared/papers/README.md): the Tight placement rule on hand cases, the
 * communication cost table of the paper, the paging model by hand, and EASY with placement constraints never
 * delaying the head of its queue (checked against a brute-force reservation over every subset of nodes). */
#include "model/job_model.hpp"
#include "support/policy_driver.hpp"
#include "workload/generator.hpp"

#include <gtest/gtest.h>

using namespace jobsched;
using jobsched::testing::PolicyUnderTest;

namespace {

struct Smp {
  Machine machine;
  Params params;
  std::unique_ptr<Allocator> allocator;
  Smp(int nodes, int cores, std::map<std::string, std::string> p, int level = 0)
      : machine(Machine::uniform(nodes, cores))
  {
    const auto& info = allocator_registry().get("smp");
    params = Params(info.params, p, "policy.allocation_params");
    allocator = info.make(AllocatorEnv{machine, params, level});
  }
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
  ClusterState busy;
  busy.network_load = 1.0;
  loaded.allocator->observe(busy.network_load);
  EXPECT_FALSE(loaded.place(4, loaded.available({2, 1, 1, 0})).has_value());
  EXPECT_TRUE(loaded.place(4, loaded.available({4, 0, 0, 0})).has_value());
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
