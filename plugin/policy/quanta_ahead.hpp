/* The plans of a time-sharing policy's next quanta, worked out ahead (Plan::lookahead, policy/time_sharing.hpp), for a
 * policy whose plans between arrivals and departures follow from its own state alone, one quantum's step after
 * another (Setia's AP, adaptive_partitioning.cpp: at each quantum's end the usages charged, the jobs ranked and
 * chosen again). The policy takes the steps; QuantaAhead keeps what stepping ahead needs around them:
 *   - the lookahead handed to the driver (its phases and instants) and the sets its phases' jobs run on, which stay
 *     put until the next plan();
 *   - the policy's state after the lookahead's phase 0 (State: what a step changes), from which the next plan()
 *     starts again where the scheduler replayed part of the lookahead: the state taken back there, then the steps
 *     of the phases replayed redone from those phases (SystemView::replayed), as stepping quantum by quantum would
 *     have left it. A copy of the state per phase, taken before every step, cost more: a lookahead is replayed whole
 *     or cut short by an event once, and the copy is a pass over every job at every step (AP);
 *   - the submissions and ends that come while a lookahead is out, held back (in order) until the state is back at
 *     that boundary, where those jobs were still there, or not yet;
 *   - the pace (LookaheadPace): how many phases, and pauses after lookaheads the scheduler did not replay;
 *   - no lookahead where the scheduler can replay none (SystemView::replays_possible);
 *   - extensions (extend(), TimeSharingPolicy::extend_lookahead): when the scheduler replayed a lookahead whole and
 *     reaches its last instant with nothing else happened, more phases stepped from the policy's state there (the
 *     last phase's), so that the replay goes on without a plan(). The phase in force keeps its sets: an extension's
 *     steps take sets after them, and the sets are reused from the first only at the next look_ahead().
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
 *   void save_state(State& to) const, void restore_state(const State& from, const Phase& phase, const int* counts);
 *                                              restore_state() also gets the phase that state is the one after, and
 *                                              its counts (nullptr when the phases declare none): what the phase
 *                                              already holds (AP's last plan: its jobs and counts) need not be saved;
 *   void redo_step(double t, const Phase& phase, const int* counts)
 *                                              the state step_ahead(t, ...) left when it gave `phase` (its counts:
 *                                              nullptr when the phases declare none), from the state after the phase
 *                                              before it, without choosing again: the choice is `phase`;
 *   void let_in(const Job& job), void let_out(JobId id)   a held-back submission or end, taken in now. */
#pragma once

#include "core/time.hpp"
#include "policy/lookahead_pace.hpp"
#include "policy/time_sharing.hpp"

#include <algorithm>
#include <cstddef>
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
    if (replayed + 1 != phases_out_) { // (replayed whole, the state is the last phase's: the policy's own)
      const Lookahead& out = *lookahead_;
      const int* counts = out.counts.empty() ? nullptr : out.counts.data(); // phase p's: after the phases' before it
      policy.restore_state(first_state_, out.phases[0], counts);
      for (size_t p = 1; p <= replayed; p++) {
        if (counts != nullptr) counts += out.phases[p - 1].size();
        policy.redo_step(out.instants[p - 1], out.phases[p], counts);
      }
    }
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
   * policy's per phase while it steps at the last phase's wake-up, up to half the pace's length (at least 4 phases:
   * a lookahead replayed whole is extended by extend(), so a short one costs no plan(), and fewer steps are worked out
   * in vain past an arrival or an end; AP on 10,000 jobs: 6,637 M instructions against 6,776 M for the pace's whole
   * length); the policy's state is then the last phase's. nullptr when the policy does not step at the plan's
   * wake-up. */
  template <class Policy>
  std::shared_ptr<const Lookahead> look_ahead(double until, Policy& policy)
  {
    if (!policy.steps_at(until)) return nullptr;
    Lookahead& ahead = unheld_lookahead();
    sets_used_ = 0;
    size_t phases = 0;
    ahead.counts.clear();
    policy.first_phase(next_phase(ahead, phases), ahead.counts);
    ahead.instants.clear();
    ahead.instants.push_back(until);
    step_on(ahead, phases, until, std::max<size_t>(4, pace_.most_phases() / 2), policy);
    return lookahead_;
  }

  /* An extension of the lookahead out (TimeSharingPolicy::extend_lookahead), asked at `now`, its last instant, the
   * scheduler having replayed it whole with nothing else happened: the policy's state is the last phase's. The pace
   * counts the lookahead out as replayed whole. Phase 0 is its last phase, on its sets; the steps from `now` follow, up
   * to the pace's length (AP on 10,000 jobs: half of it, 7,043 M instructions; twice, 8,015 M: the pace's mean then
   * grows with the extensions replayed whole). nullptr when the policy does not step at `now`, when an event came (held
   * back), or when the sets taken since the last plan() reach kMostSetsExtended (they are reused only from the next
   * plan()'s lookahead on). */
  template <class Policy>
  std::shared_ptr<const Lookahead> extend(double now, Policy& policy)
  {
    if (phases_out_ < 2 || !held_back_.empty() || sets_used_ >= kMostSetsExtended) return nullptr;
    const Lookahead& last = *lookahead_;
    if (now != last.instants.back() || !policy.steps_at(now)) return nullptr;
    pace_.record(phases_out_ - 1, true);   // replayed whole, as if the next plan() had come at its last instant
    Lookahead& ahead = unheld_lookahead(); // not `last`, which the driver holds
    size_t phases = 0;
    Phase& in_force = next_phase(ahead, phases);
    in_force = last.phases.back();
    ahead.counts.clear();
    if (!last.counts.empty())
      ahead.counts.assign(last.counts.end() - static_cast<std::ptrdiff_t>(in_force.size()), last.counts.end());
    ahead.instants.clear();
    ahead.instants.push_back(now);
    step_on(ahead, phases, now, pace_.most_phases(), policy);
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
  /* The lookahead to fill, made the one out: lookahead_, or the other one kept while the driver holds lookahead_ (an
   * extension's, whose last phase the driver's replay reads), or a new one while it holds both. */
  Lookahead& unheld_lookahead()
  {
    if (lookahead_ && lookahead_.use_count() > 1) std::swap(lookahead_, spare_lookahead_);
    if (!lookahead_ || lookahead_.use_count() > 1) lookahead_ = std::make_shared<Lookahead>();
    return *lookahead_;
  }
  /* After the phase in force at `t` (`ahead`'s first and only one): one step of the policy's per phase while it
   * steps at the last phase's wake-up, up to `most` phases; the policy's state is then the last phase's, and
   * first_state_ the first phase's. */
  template <class Policy>
  void step_on(Lookahead& ahead, size_t phases, double t, size_t most, Policy& policy)
  {
    policy.save_state(first_state_);
    stepping_ = true;
    for (;;) {
      t = policy.step_ahead(t, next_phase(ahead, phases), ahead.counts);
      ahead.instants.push_back(t);
      if (phases == most || !policy.steps_at(t)) break;
    }
    stepping_ = false;
    while (ahead.phases.size() > phases) { // the phases past the last set aside with their storage (next_phase())
      spare_phases_.push_back(std::move(ahead.phases.back()));
      ahead.phases.pop_back();
    }
    phases_out_ = phases;
  }
  /* Phase number `phases` of `ahead`, emptied (kept with its storage from one lookahead to the next), then one more.
   * A phase beyond those `ahead` has is one set aside by step_on() when it can be: a lookahead and an extension
   * differ in length, and the two Lookaheads alternate, so phases cut off one and wanted by the other were freed and
   * grown again entry by entry (AP at 10,000 jobs: 134 M instructions of 6,605 M in their reallocations). */
  Phase& next_phase(Lookahead& ahead, size_t& phases)
  {
    if (phases == ahead.phases.size()) {
      if (spare_phases_.empty()) {
        ahead.phases.emplace_back();
      } else {
        ahead.phases.push_back(std::move(spare_phases_.back()));
        spare_phases_.pop_back();
      }
    }
    Phase& phase = ahead.phases[phases++];
    phase.clear();
    return phase;
  }
  /* The sets an extension may find taken before it extends no more (a few megabytes on 10,000 processors): a chain
   * of extensions takes sets after the phase in force's, and without a plan() between them, none is freed. */
  static constexpr size_t kMostSetsExtended = 4096;

  std::shared_ptr<Lookahead> lookahead_;       // the last one handed out (unheld_lookahead() says which is filled)
  std::shared_ptr<Lookahead> spare_lookahead_; // the one before (unheld_lookahead())
  std::deque<ResourceSet> sets_; // its phases' sets (a deque: they stay put as it grows), the first sets_used_
  size_t sets_used_ = 0;
  size_t phases_out_ = 0; // its phases while it is out (0: none)
  State first_state_;     // the policy's state after the lookahead's phase 0 (kept with its storage)
  std::vector<Phase> spare_phases_; // cut off the end of a lookahead, with their storage (next_phase())
  bool stepping_ = false;
  std::vector<HeldBackEvent> held_back_; // in the order they came
  LookaheadPace pace_;
};

} // namespace jobsched
