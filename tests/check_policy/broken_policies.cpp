/* Deliberately broken policies that `jobsched check-policy` must catch (tests/cli/check_policy.sh):
 *   broken-busy       starts the oldest waiting job on the lowest-numbered processors, busy or not (a decision the
 *                     runtime refuses: the check reports the run's internal error);
 *   broken-kill       starts jobs first-come first-served where they fit, then kills each at the next decision (the
 *                     runtime lets a policy kill; the check finds jobs that never finished, in jobs.csv);
 *   broken-lookahead  a time-sharing policy that runs every job that fits, one quantum after another, and declares
 *                     the next quantum ahead (Plan::lookahead) with the first two of them on the same processors (the
 *                     driver refuses the lookahead: a policy error).
 * A plugin library like a user's: the test loads it with check-policy --plugin. */
#include "policy/plugin.hpp"
#include "policy/policy.hpp"

#include <deque>
#include <memory>

JOBSCHED_PLUGIN;

namespace jobsched {
namespace {

class BrokenBusy : public Policy {
 public:
  explicit BrokenBusy(const PolicyEnv& env) : processors_(env.machine.resource_count()) {}
  void job_submitted(const Job& job, double) override { queue_.push_back(job); }
  size_t waiting_count() const override { return queue_.size(); }
  Decisions decide(const ClusterState&) override
  {
    Decisions out;
    if (!queue_.empty()) {
      out.push_back(Decision::start(queue_.front().id, ResourceSet::range(processors_, 0, queue_.front().size)));
      queue_.pop_front();
    }
    return out;
  }

 private:
  int processors_;
  std::deque<Job> queue_;
};

class BrokenKill : public Policy {
 public:
  explicit BrokenKill(const PolicyEnv& env) : allocator_(env.allocator) {}
  void job_submitted(const Job& job, double) override { queue_.push_back(job); }
  size_t waiting_count() const override { return queue_.size(); }
  Decisions decide(const ClusterState& state) override
  {
    Decisions out;
    ResourceSet idle = state.idle;
    for (const auto& [id, running] : state.running)
      if (running.start_time < state.now) {
        out.push_back(Decision::kill(id));
        idle |= running.resources & state.up;
      }
    while (!queue_.empty()) {
      auto chosen = allocator_.select(queue_.front(), idle);
      if (!chosen) break;
      idle -= *chosen;
      out.push_back(Decision::start(queue_.front().id, *chosen));
      queue_.pop_front();
    }
    return out;
  }

 private:
  const Allocator& allocator_;
  std::deque<Job> queue_;
};

class BrokenLookahead : public TimeSharingPolicy {
 public:
  Plan plan(const SystemView& view) override
  {
    Plan plan;
    ResourceSet idle = view.up;
    for (const JobState* s : view.jobs)
      if (s->job->min_processors() <= idle.count()) {
        ResourceSet mine = idle.lowest(s->job->min_processors());
        idle -= mine;
        plan.run.emplace(s->job->id, std::move(mine));
      }
    plan.until = view.now + 10;
    plan.repeats = true;
    if (plan.run.size() < 2) return plan;
    auto ahead = std::make_shared<Lookahead>();
    ahead->phases.resize(2);
    for (const auto& [id, where] : plan.run) {
      ahead->phases[0].emplace_back(id, &where);
      ahead->phases[1].emplace_back(id, &plan.run.begin()->second); // the first job's processors, to each
    }
    ahead->instants = {plan.until, plan.until + 10};
    plan.lookahead = ahead;
    return plan;
  }
};

PolicyRegistration broken_busy{{"broken-busy",
                                "test policy: starts the oldest job on the lowest processors, busy or not",
                                {},
                                [](const PolicyEnv& env) { return std::make_unique<BrokenBusy>(env); }}};
PolicyRegistration broken_kill{{"broken-kill",
                                "test policy: first-come first-served, then kills each job at the next decision",
                                {},
                                [](const PolicyEnv& env) { return std::make_unique<BrokenKill>(env); }}};
PolicyRegistration broken_lookahead{
    {"broken-lookahead",
     "test policy: runs the jobs that fit each quantum, its lookahead gives two jobs the same processors",
     {},
     nullptr,
     [](const PolicyEnv&) -> std::unique_ptr<TimeSharingPolicy> { return std::make_unique<BrokenLookahead>(); }}};

} // namespace
} // namespace jobsched
