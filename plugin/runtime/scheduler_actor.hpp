/* The scheduler actor: the thin adapter between SimGrid and a pure policy.
 *
 * It gathers everything that happens at one simulated instant, hands it to the policy in a fixed order
 * (completions first, then host changes, then submissions), calls decide() once, checks each decision against the
 * machine state and applies it through the JobRuntime. The fixed order is the project's rule for simultaneous events:
 * a job that ends at t frees its processors for the jobs submitted at t. */
#pragma once

#include "policy/policy.hpp"
#include "runtime/host_monitor.hpp"
#include "runtime/job_runtime.hpp"
#include "runtime/outcome.hpp"
#include "runtime/submitter.hpp"

#include <chrono>
#include <functional>
#include <unordered_map>

namespace jobsched {

struct SchedulerStats {
  long instants = 0; // decision points
  long decisions = 0;
  double wall_seconds = 0;
};

class SchedulerActor {
 public:
  /* `progress` is called about once a wall-clock second with (simulated time, jobs ended). */
  SchedulerActor(const Machine& machine, std::vector<sg4::Host*> hosts, const JobList& jobs, Policy& policy,
                 Allocator& allocator, JobRuntime& runtime, sg4::Mailbox* mailbox, Submitter& submitter,
                 HostMonitor& monitor, std::function<void(double, size_t)> progress);
  void operator()();

  const std::vector<JobOutcome>& outcomes() const { return outcomes_; }
  const SchedulerStats& stats() const { return stats_; }
  size_t ended_count() const { return ended_; }
  bool finished() const { return finished_; }

 private:
  bool gather(bool woke_on_message);
  void job_ended(JobId id, JobFate fate);
  void apply(const Decision& d);
  void host_changed(int host);
  double network_load() const;
  JobOutcome& outcome(JobId id);

  const Machine& machine_;
  std::vector<sg4::Host*> hosts_;
  Policy& policy_;
  Allocator& allocator_;
  std::vector<sg4::Link*> network_links_; // links between hosts (not loopbacks), for the network load
  JobRuntime& runtime_;
  sg4::Mailbox* mailbox_;
  Submitter& submitter_;
  HostMonitor& monitor_;
  std::function<void(double, size_t)> progress_;

  ClusterState state_;
  std::unordered_map<JobId, size_t> index_; // job id -> position in outcomes_
  std::vector<JobOutcome> outcomes_;
  std::vector<bool> host_up_;
  SchedulerMessage* message_ = nullptr;
  sg4::CommPtr receive_;
  std::vector<SchedulerMessage*> inbox_;
  size_t ended_ = 0;
  bool finished_ = false;
  SchedulerStats stats_;
};

} // namespace jobsched
