/* Deliberately broken policies that `jobsched check-policy` must catch (tests/cli/check_policy.sh):
 *   broken-busy       starts the oldest waiting job on the lowest-numbered processors, busy or not (a decision the
 *                     runtime refuses: the check reports the run's internal error);
 *   broken-kill       starts jobs first-come first-served where they fit, then kills each at the next decision (the
 *                     runtime lets a policy kill; the check finds jobs that never finished, in jobs.csv);
 *   broken-starve     starts the jobs of odd id first-come first-served where they fit, never one of even id (the
 *                     check names the jobs that never started and counts them);
 *   broken-lookahead  a time-sharing policy that runs the jobs that fit, the list of jobs turned by one each 10 s
 *                     quantum, and declares the next quantum ahead (Plan::lookahead) with every job on the first one's
 *                     processors (the driver refuses the lookahead: a policy error);
 *   stale-lookahead   the same policy, its lookahead's next quantum the same as this one (well formed, but not what
 *                     plan() returns there: the check's run with simulation.virtual_wakeups false differs);
 *   dangling-lookahead  the same policy, its lookahead's next quantum on the sets of the plan's own `run` map, which
 *                     goes back to the policy once applied, before the replay would read them (refused);
 *   miscounted-lookahead  the same policy, its lookahead's next quantum the same as this one, each set's count
 *                     declared (Lookahead::counts) one too many there (refused: the replay would time the jobs by it);
 *   broken-extension  the same policy, its lookahead's next quantum the one plan() returns there, and when the
 *                     scheduler replayed it whole, an extension (TimeSharingPolicy::extend_lookahead) whose next
 *                     quantum has every job on the first one's processors (refused like broken-lookahead's).
 * A plugin library like a user's: the test loads it with check-policy --plugin. */
#include "policy/plugin.hpp"
#include "policy/policy.hpp"

#include <cmath>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <vector>

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

/* Starts the jobs of odd id where they fit, first come first served, and never a job of even id. */
class BrokenStarve : public Policy {
 public:
  explicit BrokenStarve(const PolicyEnv& env) : allocator_(env.allocator) {}
  void job_submitted(const Job& job, double) override { queue_.push_back(job); }
  size_t waiting_count() const override { return queue_.size(); }
  Decisions decide(const ClusterState& state) override
  {
    Decisions out;
    ResourceSet idle = state.idle;
    for (auto it = queue_.begin(); it != queue_.end();) {
      auto chosen = it->id % 2 == 1 ? allocator_.select(*it, idle) : std::nullopt;
      if (!chosen) {
        ++it;
        continue;
      }
      idle -= *chosen;
      out.push_back(Decision::start(it->id, *chosen));
      it = queue_.erase(it);
    }
    return out;
  }

 private:
  const Allocator& allocator_;
  std::deque<Job> queue_;
};

/* What is wrong with BrokenLookahead's lookahead. */
enum class LookaheadDefect { overlap, stale, into_run, miscounted, extension };

class BrokenLookahead : public TimeSharingPolicy {
 public:
  explicit BrokenLookahead(LookaheadDefect defect) : defect_(defect) {}
  Plan plan(const SystemView& view) override
  {
    Plan plan;
    const auto turn = static_cast<size_t>(std::floor(view.now / 10 + 1e-9));
    plan.run = turn_run(view.jobs, view.up, turn);
    plan.until = static_cast<double>(turn + 1) * 10;
    plan.repeats = true;
    if (plan.run.size() < 2) return plan;
    // The phases' sets are the policy's own, kept until the next plan() (Lookahead), as a policy must keep them.
    sets_.clear();
    auto ahead = std::make_shared<Lookahead>();
    ahead->phases.resize(2);
    for (const auto& [id, where] : plan.run) {
      ahead->phases[0].emplace_back(id, &sets_.emplace_back(where));
      switch (defect_) {
      case LookaheadDefect::overlap: // the first job's
        ahead->phases[1].emplace_back(id, &sets_.front());
        break;
      case LookaheadDefect::stale: // its own, again
      case LookaheadDefect::miscounted:
        ahead->phases[1].emplace_back(id, &sets_.back());
        break;
      case LookaheadDefect::into_run: // its own, in the plan's map (whose nodes the returned plan keeps)
        ahead->phases[1].emplace_back(id, &where);
        break;
      case LookaheadDefect::extension: // the next quantum's, below
        break;
      }
    }
    if (defect_ == LookaheadDefect::extension) { // the next turn, right; its extension is the broken one
      jobs_ = view.jobs;
      for (auto& [id, where] : turn_run(jobs_, view.up, turn + 1))
        ahead->phases[1].emplace_back(id, &sets_.emplace_back(std::move(where)));
    }
    ahead->instants = {plan.until, plan.until + 10};
    if (defect_ == LookaheadDefect::miscounted) { // phase 0's counts right, phase 1's one too many
      for (const auto& [id, where] : plan.run)
        ahead->counts.push_back(where.count());
      for (const auto& [id, where] : plan.run)
        ahead->counts.push_back(where.count() + 1);
    }
    plan.lookahead = ahead;
    last_ = ahead;
    return plan;
  }

  /* The lookahead replayed whole: its last phase again, then every job on the first one's processors. */
  std::shared_ptr<const Lookahead> extend_lookahead(double now, const ResourceSet& /*up*/) override
  {
    if (defect_ != LookaheadDefect::extension || !last_) return nullptr;
    auto more = std::make_shared<Lookahead>();
    more->phases.resize(2);
    more->phases[0] = last_->phases.back();
    for (const auto& [id, where] : more->phases[0])
      more->phases[1].emplace_back(id, more->phases[0].front().second);
    more->instants = {now, now + 10};
    last_ = more;
    return more;
  }

 private:
  /* The jobs of `jobs` that fit on `up`, the list turned by `turn`, each on the lowest processors left. */
  static std::map<JobId, ResourceSet> turn_run(const std::vector<const JobState*>& jobs, const ResourceSet& up,
                                               size_t turn)
  {
    std::map<JobId, ResourceSet> run;
    ResourceSet idle = up;
    for (size_t k = 0; k < jobs.size(); k++) {
      const JobState* s = jobs[(turn + k) % jobs.size()];
      if (s->job->min_processors() <= idle.count()) {
        ResourceSet mine = idle.lowest(s->job->min_processors());
        idle -= mine;
        run.emplace(s->job->id, std::move(mine));
      }
    }
    return run;
  }

  LookaheadDefect defect_;
  std::deque<ResourceSet> sets_;
  std::vector<const JobState*> jobs_;     // (extension) the jobs of the last plan's view
  std::shared_ptr<const Lookahead> last_; // the last lookahead or extension
};

PolicyRegistration broken_busy{{"broken-busy",
                                "test policy: starts the oldest job on the lowest processors, busy or not",
                                {},
                                [](const PolicyEnv& env) { return std::make_unique<BrokenBusy>(env); }}};
PolicyRegistration broken_kill{{"broken-kill",
                                "test policy: first-come first-served, then kills each job at the next decision",
                                {},
                                [](const PolicyEnv& env) { return std::make_unique<BrokenKill>(env); }}};
PolicyRegistration broken_starve{{"broken-starve",
                                  "test policy: first-come first-served where jobs fit, but never a job of even id",
                                  {},
                                  [](const PolicyEnv& env) { return std::make_unique<BrokenStarve>(env); }}};
/* A BrokenLookahead with `defect`, registered as `name`. */
PolicyInfo lookahead_policy(const char* name, const char* description, LookaheadDefect defect)
{
  return {name, description, {}, nullptr, [defect](const PolicyEnv&) -> std::unique_ptr<TimeSharingPolicy> {
            return std::make_unique<BrokenLookahead>(defect);
          }};
}
PolicyRegistration broken_lookahead{lookahead_policy(
    "broken-lookahead",
    "test policy: runs the jobs that fit each quantum, its lookahead gives every job the first one's processors",
    LookaheadDefect::overlap)};
PolicyRegistration stale_lookahead{lookahead_policy(
    "stale-lookahead",
    "test policy: runs the jobs that fit each quantum, its lookahead says the next quantum is this one again",
    LookaheadDefect::stale)};
PolicyRegistration dangling_lookahead{lookahead_policy(
    "dangling-lookahead",
    "test policy: runs the jobs that fit each quantum, its lookahead's next quantum on the plan's own sets",
    LookaheadDefect::into_run)};
PolicyRegistration miscounted_lookahead{lookahead_policy(
    "miscounted-lookahead",
    "test policy: runs the jobs that fit each quantum, its lookahead declares its next quantum's counts one too many",
    LookaheadDefect::miscounted)};
PolicyRegistration broken_extension{lookahead_policy(
    "broken-extension",
    "test policy: runs the jobs that fit each quantum, its lookahead's extension gives every job the first one's "
    "processors",
    LookaheadDefect::extension)};

} // namespace
} // namespace jobsched
