/* A time-sharing policy planning over views built by hand, with no SimGrid: jobs are submitted and ended by the test,
 * and each plan is applied to the jobs' records as the driver would (running on the processors given, or suspended),
 * so the next plan sees what the last one did. */
#pragma once

#include "policy/policy.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace jobsched::testing {

class TimeSharingBench {
 public:
  /* Policy `name` with `values` on `processors` uniform processors; `mesh_width` > 0: processor i is at
   * x = i mod mesh_width, y = i div mesh_width of a mesh (for a submesh `allocation`). */
  TimeSharingBench(int processors, const std::string& name, const std::map<std::string, std::string>& values,
                   const std::string& allocation = "first-fit", int mesh_width = 0)
      : machine_(mesh(processors, mesh_width)), info_(policy_registry().get(name)),
        params_(info_.params, values, "policy.params"),
        allocator_(allocator_registry().get(allocation).make(AllocatorEnv{machine_, allocator_params_})),
        policy_(info_.make_time_sharing(PolicyEnv{machine_, *allocator_, params_})),
        up_(ResourceSet::all(machine_.resource_count()))
  {
  }
  int processors() const { return machine_.resource_count(); }
  /* Submit `job` (its id and submit time set by the caller) at `now`. */
  void submit(const Job& job, double now)
  {
    const Job& j = jobs_.emplace_back(job);
    JobState& s = states_.emplace_back();
    s.job = &j;
    s.status = JobStatus::waiting;
    in_system_.push_back(&s);
    policy_->job_submitted(j, now);
  }
  void end(JobId id, double now)
  {
    for (size_t i = 0; i < in_system_.size(); i++)
      if (in_system_[i]->job->id == id) {
        policy_->job_ended(*in_system_[i]->job, JobEnd::completed, now);
        in_system_.erase(in_system_.begin() + static_cast<long>(i));
        return;
      }
    FAIL() << "job " << id << " is not in the system";
  }
  /* Plan at `now`, then apply the plan to the records; a processor given to two jobs is a test failure. `replayed`:
   * the phases of the last plan's lookahead applied since (apply_phase(), SystemView::replayed). */
  Plan plan(double now, size_t replayed = 0)
  {
    SystemView view;
    view.now = now;
    view.replayed = replayed;
    view.replays_possible = replays_possible;
    view.machine = &machine_;
    view.up = up_;
    view.jobs.assign(in_system_.begin(), in_system_.end());
    Plan p = policy_->plan(view);
    if (p.same_as_last) return p; // the last plan again (Plan::same_as_last): the records stay as they are
    apply(now, [&p](JobId id) {
      auto it = p.run.find(id);
      return it != p.run.end() ? &it->second : nullptr;
    });
    return p;
  }
  /* A phase of a lookahead (Plan::lookahead) applied to the records at `now`, as the scheduler's replay does: its jobs
   * run where it says, the others that started are suspended. */
  void apply_phase(const Phase& phase, double now)
  {
    apply(now, [&phase](JobId id) {
      auto it = std::lower_bound(phase.begin(), phase.end(), id,
                                 [](const auto& entry, JobId key) { return entry.first < key; });
      return it != phase.end() && it->first == id ? it->second : nullptr;
    });
  }
  /* The policy's extension of its lookahead replayed whole, at its last instant `now` (TimeSharingPolicy::
   * extend_lookahead, on the processors up), as the scheduler asks for it. */
  std::shared_ptr<const Lookahead> extend(double now) { return policy_->extend_lookahead(now, up_); }
  /* The processors up in the views from now on (all of them until set); the jobs running on those that go down are
   * the test's to end (as the driver requeues them). */
  void set_up(const ResourceSet& up) { up_ = up; }
  /* What the views say of replays (SystemView::replays_possible). */
  bool replays_possible = true;
  /* Hands a plan back to the policy once applied, as the driver does (TimeSharingPolicy::reuse_plan). */
  void reuse(Plan&& p) { policy_->reuse_plan(std::move(p)); }
  /* The policy, for the calls the bench does not make itself (process events). */
  TimeSharingPolicy& policy() { return *policy_; }

 private:
  /* The jobs that `where` places (a set, nullptr: none) run there, the others that started are suspended; a processor
   * given to two jobs is a test failure. */
  template <class Where>
  void apply(double now, const Where& where)
  {
    ResourceSet taken(machine_.resource_count());
    for (JobState* s : in_system_) {
      if (const ResourceSet* set = where(s->job->id)) {
        EXPECT_FALSE(taken.intersects(*set)) << "job " << s->job->id << " shares processors";
        taken |= *set;
        if (s->start_time < 0) s->start_time = now;
        s->processors = *set;
        s->status = JobStatus::running;
      } else if (s->started()) {
        s->status = JobStatus::suspended;
      }
    }
  }
  static Machine mesh(int processors, int width)
  {
    Machine m = Machine::uniform(processors);
    if (width > 0)
      for (int i = 0; i < processors; i++)
        m.set_position(i, i % width, i / width);
    return m;
  }

  Machine machine_;
  const PolicyInfo& info_;
  Params params_;
  Params allocator_params_{{}, {}, "policy.allocation_params"};
  std::unique_ptr<Allocator> allocator_;
  std::unique_ptr<TimeSharingPolicy> policy_;
  ResourceSet up_;
  std::deque<Job> jobs_;
  std::deque<JobState> states_;
  std::vector<JobState*> in_system_;
};

/* The processors each job of a plan got, by job. */
inline std::map<JobId, int> processor_counts(const Plan& p)
{
  std::map<JobId, int> out;
  for (const auto& [id, processors] : p.run)
    out[id] = processors.count();
  return out;
}

} // namespace jobsched::testing
