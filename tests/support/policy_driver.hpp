/* Drives a policy through a workload without SimGrid: jobs last exactly their run time on dedicated processors.
 *
 * It follows the runtime's rule for one instant (completions, then submissions, then one decide()) so that hand-
 * computed schedules can be checked against the policies' pure decision code. It accepts only start decisions. */
#pragma once

#include "policy/policy.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>

namespace jobsched::testing {

struct DriveResult {
  std::map<JobId, double> start;
  std::map<JobId, ResourceSet> resources;
  int decide_calls = 0;
};

struct PolicyUnderTest {
  Machine machine;
  Params allocator_params;
  std::unique_ptr<Allocator> allocator;
  Params params;
  std::unique_ptr<Policy> policy;

  PolicyUnderTest(const std::string& name, int processors) : PolicyUnderTest(name, Machine::uniform(processors)) {}
  PolicyUnderTest(const std::string& name, Machine m, const std::string& allocation = "first-fit",
                  const std::map<std::string, std::string>& allocation_params = {}, int communication_level = 0,
                  double communication_base = 0.05)
      : machine(std::move(m))
  {
    const auto& info = allocator_registry().get(allocation);
    allocator_params = Params(info.params, allocation_params, "policy.allocation_params");
    allocator = info.make(AllocatorEnv{machine, allocator_params, communication_level, communication_base});
    params = Params(policy_registry().get(name).params, {}, "policy.params");
    policy = policy_registry().get(name).make(PolicyEnv{machine, *allocator, params});
  }
};

/* Called after every decision pass with the state after the pass and the jobs still waiting (submission order). */
using AfterDecide = std::function<void(const ClusterState&, const std::vector<const Job*>&)>;

inline DriveResult drive(PolicyUnderTest& p, const JobList& jobs, const AfterDecide& after_decide = {})
{
  std::vector<const Job*> waiting;
  DriveResult out;
  ClusterState state;
  state.machine = &p.machine;
  state.up = ResourceSet::all(p.machine.resource_count());
  state.idle = state.up;
  size_t next = 0;
  const double inf = std::numeric_limits<double>::infinity();
  while (next < jobs.size() || !state.running.empty() || p.policy->waiting_count() > 0) {
    double t = next < jobs.size() ? jobs[next].submit_time : inf;
    // The harness is the runtime here: it knows the truth behind the Job the policy sees.
    auto run_time = [](const RunningJob& r) { return static_cast<const WorkloadJob*>(r.job)->run_time; };
    for (const auto& [id, r] : state.running)
      t = std::min(t, r.start_time + run_time(r));
    if (std::isinf(t)) {
      ADD_FAILURE() << "policy left " << p.policy->waiting_count() << " jobs waiting on an idle machine";
      return out;
    }
    state.now = t;
    for (auto it = state.running.begin(); it != state.running.end();) {
      if (it->second.start_time + run_time(it->second) <= t + kTimeEpsilon) {
        state.idle |= it->second.resources;
        p.policy->job_ended(*it->second.job, JobEnd::completed, t);
        it = state.running.erase(it);
      } else {
        ++it;
      }
    }
    while (next < jobs.size() && jobs[next].submit_time <= t + kTimeEpsilon) {
      waiting.push_back(&jobs[next]);
      p.policy->job_submitted(jobs[next++], t);
    }
    out.decide_calls++;
    if (p.allocator->wants_network_load() || p.allocator->wants_releases())
      p.allocator->observe(allocator_view(state, *p.allocator));
    for (const auto& d : p.policy->decide(state)) {
      EXPECT_EQ(d.kind, Decision::Kind::start);
      const Job* job = nullptr;
      for (const auto& j : jobs)
        if (j.id == d.job) job = &j;
      EXPECT_NE(job, nullptr);
      EXPECT_EQ(d.resources.count(), job->size) << "job " << d.job;
      EXPECT_TRUE(state.idle.contains(d.resources)) << "job " << d.job << " started on busy processors";
      state.idle -= d.resources;
      state.running[d.job] = RunningJob{job, d.resources, t, false};
      out.start[d.job] = t;
      out.resources[d.job] = d.resources;
      waiting.erase(std::remove(waiting.begin(), waiting.end(), job), waiting.end());
    }
    if (after_decide) after_decide(state, waiting);
  }
  return out;
}

/* A job: id, submit time, size, run time, estimate (defaults to the run time). */
inline WorkloadJob job(JobId id, double submit, int size, double run_time, double estimate = -1)
{
  WorkloadJob j;
  j.id = id;
  j.submit_time = submit;
  j.size = size;
  j.run_time = run_time;
  j.estimate = estimate > 0 ? estimate : run_time;
  return j;
}

} // namespace jobsched::testing
