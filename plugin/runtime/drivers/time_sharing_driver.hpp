/* The driver of time-sharing policies: it asks for a plan at every instant where something happened and when the
 * previous plan's time is up, checks it (known unfinished jobs, processors up, no processor given twice, allotments
 * within each job's bounds) and applies it atomically through the runtime:
 *   1. jobs left out of the plan are suspended (their images written out when an image store is set);
 *   2. running jobs moved by the plan: malleable ones are resized (reallocation cost x processors added or removed),
 *      others are suspended and resumed on their new processors (a migration);
 *   3. suspended jobs resume and waiting jobs start, each after the images still being written out of its new
 *      processors, its own image read back, and the context-switch cost.
 * Because step 1 happens first, a processor is never computing for two jobs at once. */
#pragma once

#include "policy/time_sharing.hpp"
#include "runtime/core/driver.hpp"
#include "runtime/execution/job_runtime.hpp"

#include <cstdint>
#include <set>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace jobsched {

class TimeSharingDriver : public Driver {
 public:
  TimeSharingDriver(const Machine& machine, TimeSharingPolicy& policy, JobRuntime& runtime);
  void job_submitted(const WorkloadJob& job, double now) override;
  void job_ended(const JobState& state, double now) override;
  void job_requeued(const JobState& state, double now) override;
  void host_changed(const HostChange& change, const ResourceSet& up, double now) override;
  void decide(double now, const ResourceSet& up) override;
  void process_ended(JobId job, int process, double now) override;
  void process_event(JobId job, bool added, double draw, double now) override;
  double next_wakeup() const override { return until_; }
  bool next_wakeup_is_virtual() const override { return repeats_; }
  CycleAdvance advance_cycles(double now, const NextVirtualInstant& next_instant) override;
  bool may_advance_cycles() const override
  {
    return (repeats_ && ((cycle_ && cycle_ != cycle_tried_) || lookahead_)) || replays_rotation();
  }
  bool replays_rotation() const override { return rotation_ && rotation_ != rotation_tried_; }
  size_t waiting_count() const override;

 private:
  /* `run_states`: the record of each job of plan.run, in its order (find_run_records()). */
  void check(const Plan& plan, const ResourceSet& up, const std::vector<const JobState*>& run_states) const;
  /* Fills run_ids_, run_sets_, run_states_ and run_orders_ for plan.run (looked up once per decision, and not at all
   * for the jobs of the last plan while no job ended since). */
  void find_run_records(const Plan& plan);
  /* A job's record (nullptr: not in the runtime's table) and submission order (kNoOrder: not in the system), looked
   * up (find_run_records(), and advance_cycles() for the phase it ends in). */
  std::pair<const JobState*, std::uint64_t> look_up_record(JobId id) const;
  /* Plan::processes: bring each process of the listed jobs (and of the jobs made of processes the plan leaves out)
   * where the plan says. */
  void apply_processes(const Plan& plan);
  /* Plan::share's rules (below), over the share jobs check() listed (share_runs_) in id order. */
  void check_shares(const Plan& plan, const ResourceSet& given) const;
  bool check_chained_shares() const;
  /* advance_cycles() for a lookahead (Plan::lookahead): its phases' boundaries replayed one by one from phase 0, as
   * far as nothing else happens at or before them; replayed whole, with the policy's wake-up after its last phase the
   * next thing to happen, then the policy's extensions there (TimeSharingPolicy::extend_lookahead) likewise. */
  CycleAdvance advance_lookahead(double now, const NextVirtualInstant& next_instant);
  /* advance_cycles() for a rotation of jobs made of processes (Plan::rotation): the runtime replays its boundaries
   * (JobRuntime::replay_rotation()) and the policy learns how many (TimeSharingPolicy::rotation_replayed()). */
  CycleAdvance advance_rotation(double now, const NextVirtualInstant& next_instant);
  /* A lookahead's form (Lookahead): as many instants as phases, ascending from now, the first the plan's `until`,
   * phase 0 the plan's `run` (not its sets), its counts (if any) one per entry; in a run's first kPhasesChecked
   * lookaheads, then in one of every 64, each later phase's jobs by id, in the system, on processors up, none given to
   * two, within their bounds, and every count declared that of its set. */
  void check_lookahead(const Lookahead& ahead, const Plan& plan, const ResourceSet& up, double now);
  /* An extension's form (TimeSharingPolicy::extend_lookahead), asked at `now` with phase `in_force` in force: 2
   * phases or more, an instant each, ascending from `now`, phase 0 the jobs of `in_force` on the same sets, its counts
   * (if any) one per entry; then its later phases as a lookahead's (check_later_phases()). */
  void check_extension(const Lookahead& ahead, const Phase& in_force, const ResourceSet& up, double now);
  /* check_lookahead()'s and check_extension()'s checks of the phases after the first, and of the counts, counted
   * among the lookaheads seen; `plan` (nullptr for an extension): the plan whose maps they must not point into;
   * `what` names the phases in errors. */
  void check_later_phases(const Lookahead& ahead, const Plan* plan, const ResourceSet& up, const char* what);
  /* A cycle's form (Cycle), once per cycle: a finite period > 0, boundaries ascending from 0 to 1, a phase per
   * boundary (the last empty), each phase's jobs by id with a set each; in a run's first kPhasesChecked cycles, then
   * in one of every 64, each phase's jobs in the system, on processors up, none given to two, within their bounds. At
   * every plan: the plan is the phase in force at `now` and its `until` that phase's end. */
  void check_cycle(const Cycle& cycle, const Plan& plan, const ResourceSet& up, double now);
  /* A phase of a cycle or lookahead (`what` and its number `p` name it in errors): its jobs by id, a set each. */
  void check_phase_form(const Phase& phase, const char* what, size_t p) const;
  /* Phases [from, to) of a cycle or lookahead point into none of the plan's own sets (its `run` map goes back to the
   * policy once applied, before the replay reads them). */
  void refuse_sets_in_plan(const Plan& plan, const std::vector<Phase>& phases, size_t from, size_t to,
                           const char* what);
  /* Its jobs in the system, on processors up, none given to two, within their bounds (after check_phase_form()), and
   * with `counts` (a lookahead's, Lookahead::counts, from this phase's first entry) each set's processors as counted
   * there. */
  void check_phase(const Phase& phase, const char* what, size_t p, const ResourceSet& up,
                   const int* counts = nullptr) const;
  /* cycle_ids_ for these phases (their jobs by id), with their records and submission orders (cycle_states_,
   * cycle_orders_); false when one of the jobs has ended or, unless `waiting`, has not started (as below). */
  bool fill_replay_jobs(const std::vector<Phase>& phases, bool waiting);
  /* cycle_ids_ and the phases job by job (cycle_run_first_, cycle_run_entries_: JobRuntime::cycle_begin()'s form of
   * the phases' size, for a cycle's phases: Plan::cycle), false as fill_replay_table(). */
  bool fill_replay_runs(const std::vector<Phase>& phases, bool waiting);
  /* cycle_ids_ and cycle_where_ for these phases (their jobs by id, where each computes in each), and with `counts`
   * (a lookahead's, Lookahead::counts) cycle_counts_ (how many processors each has there, -1 where it computes not);
   * false when one of the jobs has ended or, unless `waiting` (the replay starts such jobs: JobRuntime::cycle_begin()),
   * has not started (the runtime's replay would refuse it). */
  bool fill_replay_table(const std::vector<Phase>& phases, bool waiting = false, const int* counts = nullptr);
  /* After a replay: the plan in force is `run` (last_run_ and its records), one of the phases fill_replay_table() took.
   */
  void take_phase_as_last_plan(const Phase& run);

  const Machine& machine_;
  TimeSharingPolicy& policy_;
  JobRuntime& runtime_;
  std::vector<const JobState*> in_system_; // submitted and not finished, in submission order
  /* The submission order of each job of in_system_ (ascending), and of the jobs that ended since the last decision:
   * those leave in one pass over these numbers, without reading every job's record (a million-job gang run keeps tens
   * of thousands of jobs in the system, and that pass over their records was a sixth of its time). */
  std::vector<std::uint64_t> in_system_order_;
  std::vector<JobId> in_system_ids_; // their ids (ascending when submission order is id order)
  std::vector<std::uint64_t> ended_orders_;
  std::unordered_map<JobId, std::uint64_t> submission_order_;
  std::uint64_t submitted_ = 0;
  // The jobs of the last plan: the only ones that can hold processors now (a job gets processors only from a plan),
  // so suspensions look at them rather than at every job in the system.
  std::vector<JobId> last_run_;
  std::vector<const JobState*> last_run_states_; // their records (a record stays put while its job is in the system)
  std::set<JobId> process_jobs_; // jobs a plan placed as processes, until they end
  double until_ = std::numeric_limits<double>::infinity();
  /* The last plan repeats (Plan::repeats) and nothing it applies is a SimGrid activity or a stall: executions are
   * timers, no memory images move, no context-switch or reallocation cost, no processes. Otherwise (a stall's end, an
   * image transfer) the wake-ups stay SimGrid's. */
  bool repeats_ = false;
  // check_shares()'s scratch, kept between plans (a machine's worth of words or entries each): the union of the sets
  // seen, the processors in two sets or more; the share job holding each processor (-1).
  mutable std::vector<std::uint64_t> shares_covered_words_; // as words, zero between checks
  mutable std::vector<std::uint64_t> shares_twice_words_;
  mutable std::vector<std::pair<size_t, size_t>> shares_spans_; // each share job's words, first and end
  mutable std::vector<long> share_holders_;
  // and its lists by share job (ids, union-find parents, processors first held, the group's sums) and the processors
  // whose holder it set, kept likewise: lists allocated per plan were a tenth of its cost (Cao's).
  mutable std::vector<JobId> shares_ids_;
  mutable std::vector<size_t> shares_parent_;
  mutable std::vector<double> shares_first_held_;
  mutable std::vector<double> shares_held_;
  mutable std::vector<double> shares_processors_;
  mutable std::vector<int> shares_held_once_;
  // Jobs that ended since the last plan applied: while none did, every job of last_run_ is in the system, and the check
  // of a Plan::same_as_last (Cao's policies at 89-91% of their quanta) looks none of them up.
  std::uint64_t ended_since_plan_ = 0;
  /* The last plan's cycle (Plan::cycle), with repeats_; nullptr: none. */
  std::shared_ptr<const Cycle> cycle_;
  // fill_replay_table(): the jobs of a cycle or lookahead, and where each computes per phase
  std::vector<JobId> cycle_ids_;
  std::vector<const ResourceSet*> cycle_where_;
  std::vector<int> cycle_counts_;           // as cycle_where_, with a lookahead's counts (empty: none declared)
  // fill_replay_runs(): the phases job by job (job j's entries from cycle_run_first_[j]), each entry's job in phase
  // order and each job's next place (its scratch)
  std::vector<size_t> cycle_run_first_;
  std::vector<JobRuntime::CyclePhaseEntry> cycle_run_entries_;
  std::vector<size_t> cycle_entry_jobs_, cycle_run_next_;
  std::vector<JobId> cycle_ids_merged_;     // fill_replay_table()'s scratch
  std::vector<const JobState*> cycle_states_; // their records and submission orders (fill_replay_table())
  std::vector<std::uint64_t> cycle_orders_;
  std::vector<double> cycle_phase_seconds_; // advance_cycles(): how long each phase of the cycle lasts
  /* advance_cycles(): a boundary on the scheduler's clock, the policy's wake-up there, its position. */
  struct CycleBoundary {
    double clock, until;
    Cycle::Position at;
  };
  std::vector<CycleBoundary> cycle_boundaries_, next_cycle_boundaries_; // of the cycle being tried, and of the next
  /* Per decision, kept with their storage: the record and submission order of each job of the plan (kNoOrder: not in
   * the system), the submission order of each job of last_run_, and decide()'s lists of holders and resizes. */
  static constexpr std::uint64_t kNoOrder = ~std::uint64_t{0};
  std::vector<const JobState*> run_states_;
  std::vector<std::uint64_t> run_orders_;
  std::vector<std::uint64_t> last_run_orders_;
  // plan.run as a list (its passes walk a vector, not the map's nodes); each holder with its set in the plan (or none)
  std::vector<JobId> run_ids_;
  std::vector<const ResourceSet*> run_sets_;
  std::vector<std::tuple<std::uint64_t, const JobState*, size_t>> holders_; // size_t: its index in run_ids_, or
  static constexpr size_t kNotPlanned = ~size_t{0};                         // kNotPlanned
  /* Whether job i of the plan stays on the set its record holds, compared once per decision (-1: not yet; check(),
   * the suspensions and the resizes all ask, and on a large machine each comparison is up to a machine's words). A
   * job's set changes only when the runtime starts, resumes or resizes it, after all three asked. */
  mutable std::vector<signed char> run_same_;
  /* Each job's share in plan.share by its place in plan.run (-1: none), and the places of the share jobs in id order:
   * found by check()'s one walk along plan.share, so that check_shares() and decide() walk vectors, not the maps. */
  mutable std::vector<double> run_shares_;
  mutable std::vector<size_t> share_runs_;
  mutable std::vector<int> share_counts_; // by share job: its processors' count as check() found it (<= 0: unknown)
  mutable std::vector<std::pair<int, int>> shares_ends_; // check_chained_shares(): each set's lowest and highest
  bool stays(size_t i) const
  {
    if (run_same_[i] < 0) run_same_[i] = *run_sets_[i] == run_states_[i]->processors ? 1 : 0;
    return run_same_[i] != 0;
  }
  std::vector<std::tuple<bool, JobId, const ResourceSet*>> resizes_;
  // The view lent to the policy and check()'s union of the sets given (their sets' storage kept between decisions).
  SystemView view_;
  mutable ResourceSet check_given_;
  mutable ResourceSet check_placed_; // check()'s set of a listed job's processes' processors, kept likewise
  // The last cycle advance_cycles() replayed (kept alive: no other cycle can take its address).
  std::shared_ptr<const Cycle> cycle_tried_;
  /* The last plan's lookahead (Plan::lookahead), with repeats_, until advance_cycles() tried it; nullptr: none. */
  std::shared_ptr<const Lookahead> lookahead_;
  size_t replayed_ = 0; // its instants (or its last extension's) replayed since the last plan (SystemView::replayed)
  /* The last plan's rotation (Plan::rotation), when the runtime may replay it: its phase and the processors up then;
   * the last rotation advance_rotation() tried (a rotation is tried until the runtime replays or refuses it for good).
   */
  std::shared_ptr<const Rotation> rotation_;
  std::shared_ptr<const Rotation> rotation_tried_;
  size_t rotation_phase_ = 0;
  ResourceSet rotation_up_;
  /* fill_replay_table() walks along the union's ids up to this many (AP's lookaheads: about 9 to 18 jobs, each phase
   * naming half of them or so), and searches them beyond (EQUI-EPOCH's cycles on the KTH log: about 190 jobs, an
   * epoch's phase naming a few): a search per entry made AP's run 4.4% longer (docs/performance.md). */
  static constexpr size_t kIdsWalked = 64;
  static constexpr long kPhasesChecked = 256;     // the first lookaheads and cycles, whose phases' sets are all checked
  long lookaheads_seen_ = 0;
  long cycles_seen_ = 0;
  std::shared_ptr<const Cycle> cycle_checked_; // the last cycle whose form check_cycle() checked (kept alive likewise)
  std::vector<const ResourceSet*> plan_sets_;  // refuse_sets_in_plan(): the addresses of the plan's sets, sorted
};

} // namespace jobsched
