/* Repeating schedules replayed without SimGrid (JobRuntime::cycle_begin() to cycle_end(), Plan::cycle and AP's
 * lookaheads): between two events the runtime applies each boundary's suspensions, resumptions and moves to a table
 * of the jobs' state, with the arithmetic of compute(), account() and enter() in the same order, and writes back the
 * records and rows once the replay ends (docs/performance.md: "Virtual wake-ups: repeating schedules replayed off
 * SimGrid", "Cycles advanced whole"). The gang rotations of jobs made of processes are process_rotation.cpp's. */
#include "runtime/execution/job_runtime.hpp"
#include "runtime/execution/work_account.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace jobsched {

template <class Link>
void JobRuntime::link_replayed_fields(Execution& x, CycleState& st, Link link)
{
  link(x.remaining, st.remaining);
  link(x.since, st.since);
  link(x.timer_start, st.timer_start);
  link(x.timer_end, st.timer_end);
  link(x.timer_flops, st.timer_flops);
  link(state(x).service, st.service);
  link(x.remaining_at_segment, st.remaining_at_segment);
  link(x.dedicated_rate, st.dedicated_rate);
  link(x.account, st.account);
}

namespace {
/* cycle_begin()'s two forms of the phases, read the same way: where job j computes in phase p (at(), nullptr:
 * suspended), the count declared for it (count_at(), -1: none), and its runs of phases on one set (the same address),
 * phase by phase, handed to `emit` (first, end, set, count at first), which refuses by false. */
struct DenseCycleRows { // where[job x phases + phase], counts laid out the same (or nullptr)
  const ResourceSet* const* where;
  const int* counts;
  size_t phases;
  const ResourceSet* at(size_t j, size_t p) const { return where[j * phases + p]; }
  int count_at(size_t j, size_t p) const { return counts != nullptr ? counts[j * phases + p] : -1; }
  template <class Emit> bool runs(size_t j, Emit emit) const
  {
    const ResourceSet* const* const row = where + j * phases;
    const int* const row_counts = counts != nullptr ? counts + j * phases : nullptr;
    for (size_t p = 0; p < phases;) {
      const ResourceSet* const on = row[p];
      const size_t first = p;
      while (++p < phases && row[p] == on) {
      }
      if (on != nullptr && !emit(first, p, on, row_counts != nullptr ? row_counts[first] : -1)) return false;
    }
    return true;
  }
};
struct SparseCycleRows { // job j's entries: entries[first[j]] to entries[first[j + 1]] - 1, by phase
  const size_t* first;
  const JobRuntime::CyclePhaseEntry* entries;
  const ResourceSet* at(size_t j, size_t p) const
  {
    const auto* const end = entries + first[j + 1];
    const auto* const found = std::lower_bound(entries + first[j], end, p, [](const auto& e, size_t phase) {
      return e.phase < phase;
    });
    return found != end && found->phase == p ? found->on : nullptr;
  }
  int count_at(size_t, size_t) const { return -1; }
  template <class Emit> bool runs(size_t j, Emit emit) const
  {
    const auto* e = entries + first[j];
    const auto* const end = entries + first[j + 1];
    while (e != end) {
      const ResourceSet* const on = e->on;
      const size_t run_first = e->phase;
      size_t run_end = run_first + 1;
      while (++e != end && e->phase == run_end && e->on == on)
        run_end++;
      if (!emit(run_first, run_end, on, -1)) return false;
    }
    return true;
  }
};
} // namespace

bool JobRuntime::cycle_begin(const std::vector<JobId>& ids, const std::vector<const ResourceSet*>& where, size_t phases,
                             size_t phase, bool waiting, const std::vector<int>* counts)
{
  if (counts != nullptr && counts->empty()) counts = nullptr;
  const bool valid = where.size() == ids.size() * phases && (counts == nullptr || counts->size() == where.size());
  return cycle_begin_rows(ids, phases, phase, waiting, valid,
                          DenseCycleRows{where.data(), counts != nullptr ? counts->data() : nullptr, phases});
}

bool JobRuntime::cycle_begin(const std::vector<JobId>& ids, const std::vector<size_t>& first,
                             const std::vector<CyclePhaseEntry>& entries, size_t phases, size_t phase, bool waiting)
{
  const bool valid = first.size() == ids.size() + 1 && first.back() == entries.size() &&
                     std::all_of(entries.begin(), entries.end(), [phases](const auto& e) { return e.phase < phases; });
  return cycle_begin_rows(ids, phases, phase, waiting, valid, SparseCycleRows{first.data(), entries.data()});
}

template <class Rows>
bool JobRuntime::cycle_begin_rows(const std::vector<JobId>& ids, size_t phases, size_t phase, bool waiting, bool valid,
                                  const Rows& rows)
{
  cycle_state_.clear();
  cycle_undo_.clear();
  cycle_rows_.clear();
  cycle_rows_kept_ = 0;
  cycles_committed_ = 0;
  cycle_partial_ = false;
  cycle_partial_unkept_ = false;
  cycle_trial_sure_ = false;
  cycle_next_as_applied_ = false;
  cycle_timers_after_ = -std::numeric_limits<double>::infinity();
  cycle_period_ = 0;
  // Only what suspend(), resume() and resize() do to a job on a timer with nothing to prepare is replayed.
  if (!timers_ || images_enabled() || wall_time_jobs_ > 0 || !preparing_.empty() || process_executions_ > 0 ||
      phase >= phases || !valid)
    return false;
  // Each job as it is now: computing where the phase says, or suspended (or, with `waiting`, waiting to start and not
  // placed in the phase: no execution yet, nullptr); every execution the cycle does not name suspended (the plan in
  // force names every job that computes). One walk along the executions and the ids, both by id.
  std::vector<Execution*>& executions = cycle_executions_;
  executions.clear();
  bool any_malleable = false;
  size_t j = 0;
  const auto take_waiting = [&] { // ids[j], which has no execution
    if (!waiting || (j > 0 && !(ids[j - 1] < ids[j]))) return false;
    const JobState* s = table_.find(ids[j]);
    if (s == nullptr || s->status != JobStatus::waiting || rows.at(j, phase) != nullptr) return false;
    const auto& job = static_cast<const WorkloadJob&>(*s->job);
    if (!job.profile.empty() || job.kill_at_estimate) return false;
    any_malleable = any_malleable || job.shape == JobShape::malleable;
    executions.push_back(nullptr);
    j++;
    return true;
  };
  for (auto& [id, x] : jobs_) {
    while (j < ids.size() && ids[j] < id) // not in the runtime (or the ids are not ascending)
      if (!take_waiting()) return false;
    if (j == ids.size() || id < ids[j]) {
      if (x.state->status != JobStatus::suspended || x.stall_end >= 0 || x.timer_end >= 0) return false;
      continue;
    }
    const JobState& s = *x.state;
    const bool running = s.status == JobStatus::running;
    const ResourceSet* now_on = rows.at(j, phase);
    if (phased(x) || x.owner >= 0 || x.job->kill_at_estimate || x.preparing() || x.stall_end >= 0 || x.host_failed ||
        x.share >= 0 || x.share_area > 0 || x.slowdown != 1.0 || !x.computed_since_dispatch ||
        (!running && s.status != JobStatus::suspended) || running != (now_on != nullptr) ||
        (running && (x.timer_end < 0 || s.processors != *now_on)))
      return false;
    any_malleable = any_malleable || x.job->shape == JobShape::malleable;
    executions.push_back(&x);
    j++;
  }
  while (j < ids.size())
    if (!take_waiting()) return false;
  cycle_horizon_ = std::numeric_limits<double>::infinity(); // no other timer (a stall, another execution) runs
  if (cycle_jobs_.size() < ids.size()) cycle_jobs_.resize(ids.size());
  const size_t jobs = ids.size();
  cycle_sets_.clear();
  cycle_computing_runs_.clear();
  cycle_job_runs_.resize(jobs + 1);
  cycle_phases_ = phases;
  cycle_phase_ = phase;
  cycle_trial_phase_ = phase;
  if (cycle_changes_.size() < phases) cycle_changes_.resize(phases);
  for (size_t p = 0; p < phases; p++) { // emptied, their storage kept from the last advance
    CycleChanges& emptied = cycle_changes_[p];
    emptied.to = std::numeric_limits<size_t>::max();
    if (emptied.next.size() < jobs) emptied.next.resize(jobs); // a job changes at most once from a phase to the next
    emptied.next_listed = 0;
    if (emptied.resumed.size() < jobs) emptied.resumed.resize(jobs);
    emptied.resumed_listed = 0;
  }
  // With the rows' orders given already (AP's lookaheads: cycle_rows_as_applied()) and no resize to sort out, the
  // changes from each phase to the next are listed as the driver applies a plan here, once per advance, rather than
  // sorted out at every step (cycle_list_changes(): a twentieth of APMC's run): the jobs stopped or moved in `next`,
  // the jobs resumed apart, put after them once every job is listed.
  const bool as_applied = !cycle_stop_orders_.empty() && !any_malleable;
  cycle_timer_floor_ = -std::numeric_limits<double>::infinity();
  CycleChanges* const changes = cycle_changes_.data(); // (read through a local: a store through cycle_changes_' own
                                                       // pointer made the compiler load every member again after it)
  for (j = 0; j < ids.size(); j++) {
    Execution* const x = executions[j];
    JobState& s = x != nullptr ? *x->state : *table_.find(ids[j]);
    CycleReplay& r = cycle_jobs_[j];
    r.x = x;
    r.state = &s;
    r.job = x != nullptr ? x->job : &static_cast<const WorkloadJob&>(*s.job);
    r.trace_id = x != nullptr ? trace_id(*x) : r.job->id;
    r.malleable = r.job->shape == JobShape::malleable;
    r.duty = -1;
    r.run_time = r.job->run_time;
    r.speedup_of_size = r.job->speedup(r.job->size);
    const size_t first_set = cycle_sets_.size(); // the job's sets: cycle_sets_[first_set ..]
    // `computes`: the job may compute on the set (its phases', or its record's when it runs), whose figures launch()
    // and account() read are then worked out; a suspended job's own set serves its rows only. `known`: its count when
    // the caller has it (counts' entry), else -1.
    auto index_of = [&r, first_set, this](const ResourceSet& set, bool computes, int known) {
      // A phase names a piece's set by its address, the same in every phase the piece spans: once found equal to one
      // of the job's sets, that address is remembered with it and the words are not compared again.
      size_t i = first_set;
      while (i < cycle_sets_.size() && cycle_sets_[i].set != &set && cycle_sets_[i].same != &set)
        i++;
      if (i == cycle_sets_.size()) {
        // Then by its words, with the job's few sets. A set is counted only once it may be computed on (counting a
        // set of 157 words, on 10,000 hosts, costs more than comparing it: a set found equal to one of the job's is
        // not counted again, nor a suspended job's own set that it is not resumed on).
        for (i = first_set; i < cycle_sets_.size() && *cycle_sets_[i].set != set;)
          i++;
        if (i < cycle_sets_.size()) {
          cycle_sets_[i].same = &set;
        } else {
          bool off = false;
          CycleSet& c = cycle_sets_.emplace_back(); // filled in place: a copy of it compiled to a slow `rep movs`
          c.set = &set;
          c.count = -1;
          // slowest_speed_of()'s answer when every host runs at one speed, known already (a call of it, through the
          // library's PLT, cost more than this test).
          c.speed = host_speed_epoch_ == host_epoch_ && uniform_host_speed_ >= 0 && !set.empty()
                        ? uniform_host_speed_
                        : slowest_speed_of(set, off);
        }
      }
      CycleSet& c = cycle_sets_[i];
      if (computes && c.count < 0) c.count = known >= 0 ? known : set.count();
      if (computes && !c.timed && c.count > 0) { // (an empty set is refused by the caller: nothing to work out)
        const int n = c.count;
        c.timed = true;
        c.cost = model_.cost(*r.job, set, n);
        c.stretch = model_.compute_stretch(c.cost);
        c.speedup = r.job->speedup(static_cast<double>(n));
        c.rate = n == r.job->size ? 1.0 : c.speedup / r.speedup_of_size;
        c.paged_run_time = r.run_time * (1.0 + c.cost.page_faults);
        c.page_fault_time = r.run_time * c.cost.page_faults;
        c.whole_time = r.run_time * r.speedup_of_size / c.speedup * c.stretch * reference_speed_ / c.speed;
      }
      return static_cast<int>(i);
    };
    CycleState& st = cycle_state_.emplace_back(); // filled in place, as cycle_sets_' entries
    st.waiting = x == nullptr;
    // A suspended job's are where it last computed.
    const bool runs = s.status == JobStatus::running; // on the phase's set (checked above): its count is the phase's
    st.set = st.waiting ? -1 : index_of(s.processors, runs, runs ? rows.count_at(j, phase) : -1);
    // A running job's processors are the phase's set (checked above): its address needs no comparison of words.
    if (s.status == JobStatus::running) cycle_sets_[static_cast<size_t>(st.set)].same = rows.at(j, phase);
    r.set_at_begin = st.set;
    const ResourceSet* last_on = nullptr; // the set of the last run that named one, and its index
    int last_index = -1;
    int place_before = -1; // in the phase before `covered`
    size_t covered = 0;    // the phases up to the end of its last run
    // Run by run: a job stays on one set (or suspended) for phases on end, found once a run. The changes from each
    // phase to the next are listed here by job (most jobs stay as they were from one phase to the next: a step then
    // walks the few that change, not every job); within a run none changes. The runs it computes in are kept
    // (cycle_computing_runs_), which is all the replay keeps of where it computes: a table of every job's place in
    // every phase cost a store per job and phase (EQUI-EPOCH on the KTH log: hundreds of jobs, dozens of phases, each
    // job computing in a few).
    const auto suspended_from = [&](size_t p) { // from phase p (after `covered`'s run) until its next run
      if (p > 0 && place_before >= 0) {
        CycleChanges& step = changes[p - 1];
        step.next[step.next_listed++] = {j, -1};
      }
      place_before = -1;
    };
    cycle_job_runs_[j] = cycle_computing_runs_.size();
    const bool placed = rows.runs(j, [&](size_t first, size_t end, const ResourceSet* on, int known) {
      if (on != last_on) {
        last_on = on;
        last_index = index_of(*on, true, known);
        if (cycle_sets_[static_cast<size_t>(last_index)].count == 0) return false; // an empty set
      }
      if (first > covered) suspended_from(covered);
      if (first > 0 && last_index != place_before) {
        CycleChanges& step = changes[first - 1];
        if (as_applied && place_before < 0)
          step.resumed[step.resumed_listed++] = {j, last_index};
        else
          step.next[step.next_listed++] = {j, last_index};
      }
      place_before = last_index;
      covered = end;
      cycle_computing_runs_.push_back({j, first, end, last_index});
      return true;
    });
    if (!placed) return false;
    if (covered < phases) suspended_from(covered);
    // Over the sets it may compute on (a set not worked out counts for infinity).
    r.least_time = std::numeric_limits<double>::infinity();
    for (size_t i = first_set; i < cycle_sets_.size(); i++)
      r.least_time = std::min(r.least_time, cycle_sets_[i].whole_time);
    st.running = s.status == JobStatus::running;
    if (x != nullptr) {
      link_replayed_fields(*x, st, [](const auto& job, auto& replay) { replay = job; });
    } else { // as start() makes its execution (a new one's fields, read only)
      cycle_new_execution_.state = &s;
      link_replayed_fields(cycle_new_execution_, st, [](const auto& job, auto& replay) { replay = job; });
    }
  }
  cycle_job_runs_[jobs] = cycle_computing_runs_.size();
  if (as_applied) {
    for (size_t p = 0; p + 1 < phases; p++) {
      CycleChanges& step = changes[p];
      sort_by_stop_order(step.next.data(), step.next_listed);
      std::copy(step.resumed.data(), step.resumed.data() + step.resumed_listed, step.next.data() + step.next_listed);
      step.next_listed += step.resumed_listed;
    }
    cycle_next_as_applied_ = true;
  }
  if (std::any_of(cycle_sets_.begin(), cycle_sets_.end(), [](const CycleSet& c) { return !(c.speed > 0); }))
    return false;
  cycle_saved_in_.assign(ids.size(), -1);
  if (cycle_saved_state_.size() < ids.size()) cycle_saved_state_.resize(ids.size());
  cycle_trial_ = 0;
  return true;
}

// Inline (called from cycle_step() and cycle_step_sure() only): a function of the shared library that is not is called
// through its PLT entry and never inlined (-fPIC lets another library interpose it), which cost a tenth of the replay.
inline double JobRuntime::cycle_launch(const CycleReplay& r, const CycleSet& c, CycleState& st, double clock,
                                       double reference_speed)
{
  // launch() and start_timer() for a job on a timer on set c (its cost, speed and rate per set computed once); the
  // caller keeps cycle_step()'s bound below the timer's end, which it returns.
  st.dedicated_rate = c.rate;
  st.remaining_at_segment = st.remaining;
  const double base_seconds = r.run_time * st.remaining * r.speedup_of_size / c.speedup;
  const double compute_seconds = base_seconds * c.stretch * 1.0;
  st.timer_flops = compute_seconds * reference_speed;
  st.timer_start = clock;
  st.timer_end = clock + st.timer_flops / c.speed;
  st.running = true;
  return st.timer_end;
}

inline void JobRuntime::cycle_close(size_t job, CycleState& st, double clock, bool record)
{
  // enter() closing the open segment (after stop_exec() for a running one), with account().
  const double length = clock - st.since;
  if (st.running) {
    const CycleSet& c = cycle_sets_[static_cast<size_t>(st.set)];
    st.service += length;
    st.account.dedicated_time += dedicated_length(length, st.dedicated_rate);
    add_work_done_by(st.account, st.remaining_at_segment, st.remaining, c.paged_run_time, c.page_fault_time);
  }
  if (record && length > 0 && (cycle_partial_ || cycles_committed_ == 0 || st.rows == 0)) {
    // Written field by field in its place: a row built apart and copied in was read back in 16-byte halves of 8-byte
    // stores not yet landed, which the processor cannot forward.
    CycleRow& row = cycle_rows_.emplace_back();
    row.job = job;
    row.start = st.since;
    row.end = clock;
    row.set = st.set;
    row.running = st.running;
    row.kind = cycle_partial_           ? CycleRow::Kind::as_is
               : cycles_committed_ == 1 ? CycleRow::Kind::after_first
               : st.rows == 0           ? CycleRow::Kind::as_is
                                        : CycleRow::Kind::every_cycle;
  }
  if (length > 0) st.rows++;
  st.since = clock;
}

// The lists found already, inline in cycle_step() (nearly every step's); the others listed by cycle_list_changes(),
// which is not.
inline JobRuntime::CycleChangeList JobRuntime::cycle_changes(size_t from, size_t to)
{
  const CycleChanges& changes = cycle_changes_[from];
  const bool as_applied = !cycle_stop_orders_.empty();
  if (to == from + 1 && (!as_applied || cycle_next_as_applied_))
    return {changes.next.data(), changes.next.data() + changes.next_listed};
  if (changes.to == to) return {changes.jobs.data(), changes.jobs.data() + changes.listed};
  return cycle_list_changes(from, to);
}

void JobRuntime::sort_by_stop_order(CycleChange* listed, size_t count) const
{
  // A step stops a few jobs, most often listed in submission order already (a generated workload's ids follow it): an
  // insertion sort, written here, where std::sort's calls and tests for its size were a fortieth of APMC's run. Up to
  // 16 entries std::sort is this same insertion sort (its threshold), so equal orders, if any, keep their order too.
  if (count <= 16) {
    const std::uint64_t* const orders = cycle_stop_orders_.data();
    for (size_t i = 1; i < count; i++) {
      const CycleChange change = listed[i];
      const std::uint64_t order = orders[change.first];
      size_t k = i;
      for (; k > 0 && order < orders[listed[k - 1].first]; k--)
        listed[k] = listed[k - 1];
      listed[k] = change;
    }
  } else {
    std::sort(listed, listed + count, [this](const auto& a, const auto& b) {
      return cycle_stop_orders_[a.first] < cycle_stop_orders_[b.first];
    });
  }
}

JobRuntime::CycleChangeList JobRuntime::cycle_list_changes(size_t from, size_t to)
{
  CycleChanges& changes = cycle_changes_[from];
  const bool as_applied = !cycle_stop_orders_.empty();
  const bool next = to == from + 1; // cycle_begin() listed those changes
  changes.to = to;
  const size_t jobs = cycle_state_.size();
  // A job's place in a phase: the run of cycle_computing_runs_ that holds it, among the job's (by phase), or -1. Asked
  // for two phases that do not follow each other, once per such pair in a replay (most often the last phase and the
  // first: a cycle's return).
  const CycleRun* const runs = cycle_computing_runs_.data();
  const size_t* const job_runs = cycle_job_runs_.data();
  const auto place_in = [runs, job_runs](size_t j, size_t phase) {
    const CycleRun* const first = runs + job_runs[j];
    const CycleRun* const after = std::upper_bound(first, runs + job_runs[j + 1], phase,
                                                   [](size_t p, const CycleRun& run) { return p < run.first; });
    return after != first && phase < after[-1].end ? after[-1].set : -1;
  };
  // Each list is as long as the changes may be, and written in its place (a call of emplace_back per change was half
  // of the time here).
  const size_t most = next ? changes.next_listed : jobs;
  if (changes.jobs.size() < most) changes.jobs.resize(most);
  CycleChange* const listed = changes.jobs.data();
  if (!as_applied) { // by id
    size_t count = 0;
    for (size_t j = 0; j < jobs; j++) {
      const int goes = place_in(j, to);
      if (place_in(j, from) != goes) listed[count++] = {j, goes};
    }
    changes.listed = count;
    return {listed, listed + count};
  }
  // As the driver applies a plan (cycle_rows_as_applied()): first the jobs suspended and the jobs that are not
  // malleable moved (in submission order), then the malleable jobs resized, those shrunk first (by id each), then
  // the jobs resumed (by id).
  for (auto* later : {&cycle_shrinking_, &cycle_growing_, &cycle_resuming_})
    if (later->size() < most) later->resize(most);
  CycleChange* const shrinking = cycle_shrinking_.data();
  CycleChange* const growing = cycle_growing_.data();
  CycleChange* const resuming = cycle_resuming_.data();
  size_t stopped_count = 0;
  size_t shrinking_count = 0;
  size_t growing_count = 0;
  size_t resuming_count = 0;
  const auto sort_out = [&](size_t j, int was, int goes) {
    if (was >= 0 && (goes < 0 || !cycle_jobs_[j].malleable)) {
      listed[stopped_count++] = {j, goes};
    } else if (was < 0) {
      resuming[resuming_count++] = {j, goes};
    } else if (cycle_sets_[static_cast<size_t>(was)].set->contains(*cycle_sets_[static_cast<size_t>(goes)].set)) {
      shrinking[shrinking_count++] = {j, goes};
    } else {
      growing[growing_count++] = {j, goes};
    }
  };
  if (next) { // the jobs that change only, each placed in `from` as its state is (cycle_step() lists them there)
    for (size_t k = 0; k < changes.next_listed; k++) {
      const size_t j = changes.next[k].first;
      const CycleState& st = cycle_state_[j];
      sort_out(j, st.running ? st.set : -1, changes.next[k].second);
    }
  } else {
    for (size_t j = 0; j < jobs; j++) {
      const int was = place_in(j, from);
      const int goes = place_in(j, to);
      if (was != goes) sort_out(j, was, goes);
    }
  }
  sort_by_stop_order(listed, stopped_count);
  CycleChange* listed_end = listed + stopped_count;
  listed_end = std::copy(shrinking, shrinking + shrinking_count, listed_end);
  listed_end = std::copy(growing, growing + growing_count, listed_end);
  listed_end = std::copy(resuming, resuming + resuming_count, listed_end);
  changes.listed = static_cast<size_t>(listed_end - listed);
  return {listed, listed_end};
}

void JobRuntime::cycle_rows_as_applied(const std::vector<std::uint64_t>& orders)
{
  cycle_stop_orders_ = orders;
}

void JobRuntime::cycle_trial_until(double latest)
{
  cycle_trial_sure_ = false;
  if (cycle_partial_ || cycles_committed_ < 2 || !cycle_undo_.empty() || !(latest < cycle_horizon_)) return;
  // A job's timer launched at ts lasts its remaining fraction times the launch's set's time for the whole work, at
  // least its least_time (checked for the timer running now); each stop takes off the fraction done, whose time on the
  // fastest set is at most the time it computed. So from its last change `from` (its timer's start, or its
  // suspension) every timer it runs in the trial ends at from + remaining x least_time or later, up to the arithmetic's
  // roundings (a few ulps of each operand a step: far below the margins, relative and absolute).
  // That end, from + remaining x least_time, only grows as the job computes and waits (a stop takes off at most the
  // time it computed): the least over the jobs, once computed, bounds every later trial's timers too, up to the
  // roundings of the trials since (a few ulps of the clock per stop: computed again every 64 trials, they stay below
  // 1e-10 of the clock up to thousands of phases, within the margin of 1e-9 of it).
  const double bound = latest + kTimerSlack + 1e-6 + 1e-9 * std::fabs(latest);
  if (!(bound < cycle_timers_after_) || ++cycle_timers_after_age_ >= 64) {
    cycle_timers_after_age_ = 0;
    double after = std::numeric_limits<double>::infinity();
    for (size_t j = 0; j < cycle_state_.size(); j++) {
      const CycleState& st = cycle_state_[j];
      const double least = st.remaining * cycle_jobs_[j].least_time;
      const double from = st.running ? st.timer_start : st.since;
      if (st.waiting || !(from >= 0) || (st.running && !(st.timer_end - st.timer_start >= least * (1 - 1e-12)))) {
        after = -std::numeric_limits<double>::infinity();
        break;
      }
      double earliest = from + least * (1 - 1e-9);
      const double duty = cycle_jobs_[j].duty;
      if (duty >= 0) {
        // It computes `duty` seconds a period (cycle_durations()), so in any span of L seconds at most duty x (L /
        // period + 1) (whole periods, and one period's worth in the rest); it needs `least` seconds of computing
        // before its timer can run out while it computes (a step refuses only then: a timer it is stopped before
        // does not count), so not before from + period x (least / duty - 1). The duty is taken a little larger than
        // its phases' lengths: the boundaries reached on the clock differ from them by a few of the clock's ulps.
        const double most = duty * (1 + 1e-6) + 1e-6 + 1e-12 * std::fabs(latest);
        earliest = std::max(earliest, from + cycle_period_ * (least * (1 - 1e-9) / most - 1));
      } else if (st.running) {
        earliest = std::min(earliest, st.timer_end);
      }
      after = std::min(after, earliest);
    }
    cycle_timers_after_ = after;
  }
  cycle_trial_sure_ = bound < cycle_timers_after_;
}

/* cycle_step()'s changes in a trial found sure to be kept (cycle_trial_until()), the most of a run's: no job waits (a
 * trial with one is never sure), no state is saved for a drop and no row is recorded (not in the first two cycles nor
 * after cycle_partial()), so neither is tested per job; nor are its rows counted (they are read only while rows are
 * recorded, and cycle_whole() and a save count them from 0 again). Each job's arithmetic is the general loop's,
 * operation for operation and in the same order; the only loop of the replay that most boundaries run. */
inline void JobRuntime::cycle_step_sure(CycleChangeList changed, double clock)
{
  CycleState* const states = cycle_state_.data();
  const CycleReplay* const jobs = cycle_jobs_.data();
  const CycleSet* const sets = cycle_sets_.data();
  const double reference_speed = reference_speed_;
  double floor = cycle_timer_floor_;
  for (const auto& [j, target] : changed) {
    CycleState& st = states[j];
    st.transitions++;
    bool resized = false;
    if (st.running) {
      // stop_exec(), then enter() closing the running segment (cycle_close())
      st.remaining *= timer_fraction_left(st.timer_start, st.timer_end, clock);
      st.timer_end = -1;
      const CycleSet& was = sets[static_cast<size_t>(st.set)];
      const double length = clock - st.since;
      st.service += length;
      st.account.dedicated_time += dedicated_length(length, st.dedicated_rate);
      add_work_done_by(st.account, st.remaining_at_segment, st.remaining, was.paged_run_time, was.page_fault_time);
      st.since = clock;
      st.running = false;
      if (target < 0) {
        st.preemptions++; // suspend()
        continue;
      }
      resized = jobs[j].malleable;
      if (resized) st.resizes++; // resize()
    } else {
      st.since = clock; // the suspended segment closed
    }
    if (!resized && target != st.set) st.migrations++;
    st.set = target;
    floor = std::min(floor, cycle_launch(jobs[j], sets[static_cast<size_t>(target)], st, clock, reference_speed));
  }
  cycle_timer_floor_ = floor;
}

bool JobRuntime::cycle_step(double clock, double until, size_t phase)
{
  auto refuse = [this] {
    if (cycle_trial_sure_) throw std::logic_error("cycle replay: a step refused in a cycle found sure to be kept");
    return false;
  };
  if (phase >= cycle_phases_) return refuse();
  // The wake-up comes strictly first, as SchedulerActor's virtual wake-ups require.
  // No timer is due when the clock gets there either (collect_ended() takes those within kTimerSlack).
  if (!(until < cycle_horizon_ && clock + kTimerSlack < cycle_horizon_)) return refuse();
  // Each job's state is its place in the phase in force (cycle_begin() checked it; every step keeps it so): the jobs
  // that compute are that phase's, and those that change are the ones placed otherwise in the next. No timer of theirs
  // ends by then: known from a bound below them all, kept as timers are launched, else from their timers, which gives
  // the bound anew (an exact one: most steps then read no job's timer).
  if (!(cycle_timer_floor_ > until && cycle_timer_floor_ > clock + kTimerSlack)) {
    double floor = std::numeric_limits<double>::infinity();
    for (const CycleState& st : cycle_state_)
      if (st.running) floor = std::min(floor, st.timer_end);
    cycle_timer_floor_ = floor;
    if (!(floor > until && floor > clock + kTimerSlack)) return refuse();
  }
  const CycleChangeList changed = cycle_changes(cycle_trial_phase_, phase);
  if (cycle_trial_sure_) { // (never after cycle_partial(): cycle_trial_until())
    cycle_step_sure(changed, clock);
    cycle_trial_phase_ = phase;
    return true;
  }
  const bool record = cycle_partial_ || cycles_committed_ < 2;
  // A step is refused before it changes anything, and after cycle_partial() each one is kept before the next
  // (cycle_commit_boundary()): only a trial of whole cycles, which may be dropped after some of its steps, saves the
  // jobs' states, and only when it is not sure to be kept.
  const bool save = !cycle_partial_;
  if (cycle_partial_) {
    if (cycle_partial_unkept_) throw std::logic_error("cycle replay: a boundary replayed after one not kept");
    cycle_partial_unkept_ = true;
  }
  for (const auto& [j, target] : changed) {
    const CycleReplay& r = cycle_jobs_[j];
    CycleState& st = cycle_state_[j];
    // Its first change in this trial, unless nothing is saved (then its rows are not counted either: only the first
    // two cycles' are recorded, and those after cycle_partial() each).
    if (save && cycle_saved_in_[j] != cycle_trial_) {
      cycle_saved_in_[j] = cycle_trial_;
      cycle_saved_state_[j] = st;
      cycle_undo_.push_back(j);
      st.rows = 0;
    }
    st.transitions++;
    if (st.waiting) { // its first start (start(), launch()): no segment was open, and it is not a migration
      st.waiting = false;
      st.start_time = clock;
      st.since = clock;
      st.set = target;
      cycle_timer_floor_ = std::min(
          cycle_timer_floor_, cycle_launch(r, cycle_sets_[static_cast<size_t>(st.set)], st, clock, reference_speed_));
      continue;
    }
    const bool resized = st.running && target >= 0 && r.malleable;
    if (st.running) { // stop_exec(): the timer's fraction not done
      st.remaining *= timer_fraction_left(st.timer_start, st.timer_end, clock);
      st.timer_end = -1;
      if (target < 0)
        st.preemptions++; // suspend()
      else if (r.malleable)
        st.resizes++; // resize()
    }
    cycle_close(j, st, clock, record); // the segment, running or suspended
    st.running = false;
    if (target < 0) continue;
    // resume() elsewhere, or a job that is not malleable moved (its second half); a resize is not a migration.
    if (!resized && target != st.set) st.migrations++;
    st.set = target;
    cycle_timer_floor_ = std::min(
        cycle_timer_floor_, cycle_launch(r, cycle_sets_[static_cast<size_t>(st.set)], st, clock, reference_speed_));
  }
  cycle_trial_phase_ = phase;
  return true;
}

void JobRuntime::cycle_drop_trial()
{
  if (cycle_trial_sure_) throw std::logic_error("cycle replay: a cycle found sure to be kept was dropped");
  if (cycle_partial_unkept_) throw std::logic_error("cycle replay: a boundary replayed after cycle_partial() dropped");
  for (const size_t j : cycle_undo_)
    cycle_state_[j] = cycle_saved_state_[j];
  if (!cycle_undo_.empty()) cycle_timer_floor_ = -std::numeric_limits<double>::infinity(); // timers put back
  cycle_undo_.clear();
  cycle_trial_++;
  cycle_trial_phase_ = cycle_phase_;
}

void JobRuntime::cycle_commit()
{
  cycle_commit_boundary();
  cycles_committed_++;
}

void JobRuntime::cycle_partial()
{
  cycle_drop_trial();
  cycle_rows_.resize(cycle_rows_kept_); // a cycle's rows are kept with the cycle
  cycle_partial_ = true;
}

void JobRuntime::cycle_durations(const std::vector<double>& phase_seconds, double period)
{
  if (phase_seconds.size() != cycle_phases_ || !(period > 0)) return;
  cycle_period_ = period;
  const size_t jobs = cycle_state_.size();
  // Each job's phases summed in phase order over the runs it computes in (cycle_begin() lists them by job, then by
  // phase): a walk along the whole table, every phase of every job tested, was a twentieth of EQUI-EPOCH's run on
  // the KTH log with rigid jobs (hundreds of jobs, dozens of phases, each job computing in a few).
  for (size_t j = 0; j < jobs; j++)
    cycle_jobs_[j].duty = 0;
  for (const CycleRun& run : cycle_computing_runs_) {
    double& duty = cycle_jobs_[run.job].duty;
    for (size_t p = run.first; p < run.end; p++)
      duty += phase_seconds[p];
  }
}

size_t JobRuntime::cycle_waiting() const
{
  return static_cast<size_t>(
      std::count_if(cycle_state_.begin(), cycle_state_.end(), [](const CycleState& st) { return st.waiting; }));
}

void JobRuntime::cycle_whole()
{
  if (!cycle_partial_ || cycle_partial_unkept_ || cycle_waiting() > 0)
    throw std::logic_error("cycle replay: whole cycles after boundaries not all kept or jobs not all started");
  if (cycle_next_as_applied_) // (its lists from one phase to the next would be read by id from here)
    throw std::logic_error("cycle replay: whole cycles after changes listed as applied");
  cycle_partial_ = false;
  cycles_committed_ = 0;
  for (CycleState& st : cycle_state_)
    st.rows = 0;
  // The rows by id from here, as an advance that begins here writes them.
  cycle_stop_orders_.clear();
  for (CycleChanges& changes : cycle_changes_)
    changes.to = std::numeric_limits<size_t>::max();
}

void JobRuntime::cycle_commit_boundary()
{
  cycle_trial_sure_ = false;
  cycle_partial_unkept_ = false;
  cycle_undo_.clear();
  cycle_trial_++;
  cycle_phase_ = cycle_trial_phase_;
  cycle_rows_kept_ = cycle_rows_.size();
}

void JobRuntime::cycle_end(double period)
{
  cycle_stop_orders_.clear();
  cycle_drop_trial();
  cycle_rows_.resize(cycle_rows_kept_); // a cycle's rows are kept with the cycle (none when nothing was committed)
  const long cycles = cycles_committed_;
  const auto repeats_of = [cycles](const CycleRow& row) { // how many segments a row stands for (at least one)
    const long n = row.kind == CycleRow::Kind::as_is         ? 1
                   : row.kind == CycleRow::Kind::every_cycle ? cycles
                                                             : cycles - 1;
    return std::max(1L, n);
  };
  // The rows first: a suspended job's first set is its record's, which the state below may change.
  if (trace_sink_) {
    // A job's rows of the first cycle but its first (which began before the advance, wherever the schedule before had
    // put its start) are those of every cycle, shifted by whole periods; so is its first row of the second cycle (which
    // began at its last change of the first) for every cycle after the first. Each is written once with its count.
    // One segment per processor set of the cycle, written over and over: a set's processors are copied into it once
    // per advance (a job's rows take turns between its two or three sets), into words kept from the last advance.
    if (cycle_row_segments_.size() < cycle_sets_.size()) cycle_row_segments_.resize(cycle_sets_.size());
    cycle_row_segment_filled_.assign(cycle_sets_.size(), false);
    for (const CycleRow& row : cycle_rows_) {
      const size_t set = static_cast<size_t>(row.set);
      const long repeats = repeats_of(row);
      TraceSegment& segment = cycle_row_segments_[set];
      if (!cycle_row_segment_filled_[set]) {
        segment.processors = *cycle_sets_[set].set;
        cycle_row_segment_filled_[set] = true;
      }
      segment.job = cycle_jobs_[row.job].trace_id;
      segment.start = row.start;
      segment.end = row.end;
      segment.status = row.running ? JobStatus::running : JobStatus::suspended;
      segment.area = -1;
      segment.period = repeats > 1 ? period : 0;
      segment.repeats = repeats;
      trace_sink_(segment);
    }
  } else if (running_sink_) {
    for (const CycleRow& row : cycle_rows_) { // the rows above, each once
      if (row.running) running_sink_(*cycle_sets_[static_cast<size_t>(row.set)].set, row.start, row.end);
      segments_total_++;
    }
  } else if (segment_totals_) {
    for (const CycleRow& row : cycle_rows_) { // busy_area() x repeats of the rows above
      if (row.running)
        running_area_total_ +=
            held_processor_seconds(-1, cycle_set_count(static_cast<size_t>(row.set)), row.start, row.end) *
            static_cast<double>(repeats_of(row));
      segments_total_++;
    }
  }
  for (size_t j = 0; j < cycle_state_.size(); j++) {
    CycleState& st = cycle_state_[j];
    if (st.transitions == 0 || st.waiting) continue; // it computed or waited where it was throughout
    const CycleReplay& r = cycle_jobs_[j];
    JobState& s = *r.state;
    if (r.x == nullptr) { // started by the replay: its execution, as start() makes it
      Execution& x = jobs_[r.job->id];
      x.job = r.job;
      x.state = &s;
      x.computed_since_dispatch = true;
      s.start_time = st.start_time;
    }
    Execution& x = r.x != nullptr ? *r.x : jobs_.at(r.job->id);
    link_replayed_fields(x, st, [](auto& job, const auto& replay) { job = replay; });
    x.share_since = st.since;
    // It keeps the processors of its first start while it did nothing else (a start made by the replay, then none).
    x.held_throughout = r.x == nullptr && st.transitions == 1;
    const CycleSet& c = cycle_sets_[static_cast<size_t>(st.set)];
    // Where it last computed, as launch() left it. The replay leaves the record's processors as they were, and a job's
    // sets differ from one another: they changed exactly when its set is not the one they were at the start.
    if (st.set != cycle_jobs_[j].set_at_begin) {
      s.processors = *c.set;
      s.cost = c.cost;
      x.cost_valid = true;
      x.slowest_speed = c.speed;
      x.on_host_off = false;
      x.speed_epoch = host_epoch_;
    }
    s.status = st.running ? JobStatus::running : JobStatus::suspended; // (a partial cycle may end in another phase)
    s.counters.preemptions += st.preemptions;
    s.counters.resizes += st.resizes;
    s.counters.migrations += st.migrations;
    if (st.running) {
      push_timer(x, x.timer_end);
      fruitless_dispatches_ = 0;
    } else {
      drop_timer(x); // its timer ended with its last suspension
    }
  }
  cycle_rows_.clear();
}

} // namespace jobsched
