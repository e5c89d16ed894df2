/* The driver of space-sharing policies: it keeps the ClusterState they read (idle and available processors, running
 * jobs), calls decide() once per instant, checks each decision against the machine and applies it through the
 * runtime. */
#pragma once

#include "policy/policy.hpp"
#include "runtime/core/driver.hpp"
#include "runtime/execution/job_runtime.hpp"

namespace jobsched {

class SpaceSharingDriver : public Driver {
 public:
  /* `end_job` tells the scheduler that a decision (kill) ended a job; `evict_job`, that an owner's return took a job's
   * processors (the scheduler requeues it or ends it, by owners.eviction). */
  SpaceSharingDriver(const Machine& machine, Policy& policy, Allocator& allocator, JobRuntime& runtime,
                     const ResourceSet& up, std::function<void(JobId, JobFate)> end_job,
                     std::function<void(JobId, JobFate)> evict_job);
  void job_submitted(const WorkloadJob& job, double now) override { policy_.job_submitted(job, now); }
  void job_ended(const JobState& state, double now) override;
  void job_requeued(const JobState& state, double now) override;
  void host_changed(const HostChange& change, const ResourceSet& up, double now) override;
  void decide(double now, const ResourceSet& up) override;
  double next_wakeup() const override { return policy_.next_wakeup(); }
  double next_planned_start() const override { return policy_.next_planned_start(); }
  size_t waiting_count() const override { return policy_.waiting_count(); }

 private:
  void apply(const Decision& d);
  void release(JobId id); // the job's processors are free again
  double network_load() const;

  const Machine& machine_;
  Policy& policy_;
  Allocator& allocator_;
  JobRuntime& runtime_;
  std::function<void(JobId, JobFate)> end_job_;
  std::function<void(JobId, JobFate)> evict_job_;
  std::vector<sg4::Link*> network_links_; // links between hosts (not loopbacks), for the network load
  ClusterState state_;
};

} // namespace jobsched
