/* What the runtime tells a policy about the machine at a decision point.
 *
 * The runtime (SimGrid actor) or a test harness maintains it; the policy reads it and answers with Decisions. */
#pragma once

#include "allocation/allocator.hpp"
#include "core/machine.hpp"
#include "core/resource_set.hpp"
#include "core/time.hpp"
#include "model/job.hpp"

#include <algorithm>
#include <map>

namespace jobsched {

struct RunningJob {
  const Job* job = nullptr;
  ResourceSet resources;
  double start_time = 0;
  bool suspended = false;
  /* When the policy should expect the job to end: its estimate after its start, never in the past. */
  double expected_end(double now) const { return std::max(now, start_time + job->estimate); }
};

struct ClusterState {
  double now = 0;
  const Machine* machine = nullptr;
  ResourceSet up;   // processors whose host is available (not failed, not reclaimed by its owner)
  ResourceSet idle; // processors that are up and run no job
  std::map<JobId, RunningJob> running;
  /* Mean utilization (0..1) of the links that carry traffic between hosts, as SimGrid measures it now. */
  double network_load = 0;
};

/* The running jobs' expected ends, earliest first (ties in job order): what an allocator that plans ahead reads. */
inline std::vector<ExpectedRelease> expected_releases(const ClusterState& state)
{
  std::vector<ExpectedRelease> out;
  out.reserve(state.running.size());
  for (const auto& [id, r] : state.running)
    if (!r.suspended) out.push_back({r.expected_end(state.now), r.resources, r.start_time, r.job->estimate});
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.end < b.end; });
  return out;
}

/* What the runtime (or a test harness) tells the allocator before a decision pass, as much as it asks for. */
inline AllocatorView allocator_view(const ClusterState& state, const Allocator& allocator)
{
  AllocatorView view;
  view.now = state.now;
  view.network_load = state.network_load;
  if (allocator.wants_releases()) view.releases = expected_releases(state);
  return view;
}

} // namespace jobsched
