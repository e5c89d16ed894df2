/* The plans of a time-sharing policy's next quanta, worked out ahead (Plan::lookahead, policy/time_sharing.hpp), for a
 * policy whose plans between arrivals and departures follow from its own state alone, one quantum's step after
 * another (Setia's AP, adaptive_partitioning.cpp: at each quantum's end the usages charged, the jobs ranked and
 * chosen again). The policy takes the steps; QuantaAhead keeps what stepping ahead needs around them:
 *   - the lookahead handed to the driver (its phases and instants) and the sets its phases' jobs run on, which stay
 *     put until the next plan();
 *   - a journal: the policy's state after each phase but the last (State: what a step changes), so that the next
 *     plan() starts from the state the replay reached (SystemView::replayed), as stepping quantum by quantum would;
 *   - the submissions and ends that come while a lookahead is out, held back (in order) until the state is back at
 *     that boundary, where those jobs were still there, or not yet;
 *   - the pace (LookaheadPace): how many phases, and pauses after lookaheads the scheduler did not replay;
 *   - no lookahead where the scheduler can replay none (SystemView::replays_possible).
 *
 * The policy is any type with these members (QuantaAhead's calls):
 *   void first_phase(Phase& phase, std::vector<int>& counts)
 *                                              phase 0, the plan being returned: its jobs by id on the plan's sets
 *                                              (and each set's processors appended to `counts`: Lookahead::counts),
 *                                              and the state readied for steps from there;
 *   bool steps_at(double t) const              plan() at `t` (the last phase's wake-up) would be a step of the state
 *                                              alone (AP: `t` ends a quantum), given that nothing else happened;
 *   double step_ahead(double t, Phase& phase, std::vector<int>& counts)
 *                                              that step: the jobs of the plan plan() would return at `t`, by id, in
 *                                              `phase` (those it moves on new_set()'s sets; their counts appended as
 *                                              first_phase()'s), and that plan's `until`;
 *   void save_state(State& to) const, void restore_state(const State& from);
 *   void let_in(const Job& job), void let_out(JobId id)   a held-back submission or end, taken in now. */
#pragma once

#include "core/time.hpp"
#include "policy/lookahead_pace.hpp"
#include "policy/time_sharing.hpp"

#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace jobsched {

template <class State>
class QuantaAhead {
 public:
  /* A lookahead is out: the last plan() returned one, which the next has not taken up yet. */
  bool out() const { return phases_out_ > 0; }
  /* A submission or an end, held back while a lookahead is out: false when none is (the policy takes it in now). */
  bool hold_back_submission(const Job& job) { return hold_back(job.id, &job); }
  bool hold_back_end(JobId id) { return hold_back(id, nullptr); }

  /* At plan(), before anything else: the policy's state taken back to the boundary the scheduler replayed the last
   * lookahead to (unless it replayed all of it: the state after its last phase is the policy's own), then the events
   * held back let in, in the order they came (a job requeued ends, then comes again). */
  template <class Policy>
  void take_up_replay(const SystemView& view, Policy& policy)
  {
    if (phases_out_ == 0) return;
    const size_t replayed = view.replayed;
    if (replayed >= phases_out_)
      throw std::logic_error("lookahead: " + std::to_string(replayed) + " of its " + std::to_string(phases_out_) +
                             " phases replayed after the first");
    pace_.record(replayed, view.now >= lookahead_->instants[0] - kTimeEpsilon);
    if (replayed + 1 != phases_out_) policy.restore_state(journal_[replayed]);
    phases_out_ = 0;
    for (const HeldBackEvent& event : held_back_)
      if (event.submitted == nullptr)
        policy.let_out(event.id);
      else
        policy.let_in(*event.submitted);
    held_back_.clear();
  }

  /* Whether this plan is worth a lookahead: the scheduler may replay one, and lookaheads do not pause (a pause counts
   * the plans asked here). The policy then checks its own conditions and calls look_ahead(). */
  bool worth_trying(const SystemView& view) { return view.replays_possible && pace_.try_now(); }

  /* The lookahead of the plan being returned, whose `until` is `until`: phase 0 is the plan, then one step of the
   * policy's per phase while it steps at the last phase's wake-up, as many as the pace says; the policy's state is
   * then the last phase's. nullptr when the policy does not step at the plan's wake-up. */
  template <class Policy>
  std::shared_ptr<const Lookahead> look_ahead(double until, Policy& policy)
  {
    if (!policy.steps_at(until)) return nullptr;
    if (!lookahead_ || lookahead_.use_count() > 1) lookahead_ = std::make_shared<Lookahead>(); // the driver holds it
    Lookahead& ahead = *lookahead_;
    sets_used_ = 0;
    size_t phases = 0;
    ahead.counts.clear();
    policy.first_phase(next_phase(ahead, phases), ahead.counts);
    ahead.instants.clear();
    ahead.instants.push_back(until);
    policy.save_state(journal_entry(0));
    stepping_ = true;
    const size_t most = pace_.most_phases(); // at least 4
    for (double t = until;;) {
      t = policy.step_ahead(t, next_phase(ahead, phases), ahead.counts);
      ahead.instants.push_back(t);
      if (phases == most || !policy.steps_at(t)) break;
      policy.save_state(journal_entry(phases - 1)); // a phase follows (the last phase's state is the policy's own)
    }
    stepping_ = false;
    ahead.phases.resize(phases);
    phases_out_ = phases;
    return lookahead_;
  }

  /* In a step (step_ahead()): a set for a job the step moves, which stays put until the next plan(). */
  bool stepping() const { return stepping_; }
  ResourceSet& new_set()
  {
    if (sets_used_ == sets_.size()) sets_.emplace_back();
    return sets_[sets_used_++];
  }

 private:
  struct HeldBackEvent {
    JobId id;
    const Job* submitted; // the job submitted; nullptr: the job ended
  };
  bool hold_back(JobId id, const Job* submitted)
  {
    if (phases_out_ == 0) return false;
    held_back_.push_back({id, submitted});
    return true;
  }
  /* Phase number `phases` of `ahead`, emptied (kept with its storage from one lookahead to the next), then one more. */
  static Phase& next_phase(Lookahead& ahead, size_t& phases)
  {
    if (phases == ahead.phases.size()) ahead.phases.emplace_back();
    Phase& phase = ahead.phases[phases++];
    phase.clear();
    return phase;
  }
  /* The state after phase `phase` (kept with its storage from one lookahead to the next). */
  State& journal_entry(size_t phase)
  {
    if (phase == journal_.size()) journal_.emplace_back();
    return journal_[phase];
  }

  std::shared_ptr<Lookahead> lookahead_; // the last one (a new one while the driver still holds it)
  std::deque<ResourceSet> sets_;         // its phases' sets (a deque: they stay put as it grows), the first sets_used_
  size_t sets_used_ = 0;
  size_t phases_out_ = 0; // its phases while it is out (0: none)
  std::vector<State> journal_;
  bool stepping_ = false;
  std::vector<HeldBackEvent> held_back_; // in the order they came
  LookaheadPace pace_;
};

} // namespace jobsched
