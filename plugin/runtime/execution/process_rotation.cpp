/* Gang rotations of jobs made of processes replayed without SimGrid (JobRuntime::replay_rotation(), Plan::rotation).
 *
 * Between events gang-now's allocation map stays as it is and its time slices run in turn: at each of the policy's
 * wake-ups the processes of the slice coming in are resumed (after the context switch's stall) and those of the slice
 * going out suspended. Stepping through such a boundary costs the policy's plan, the driver's check, a place_process()
 * per process that changes, a SimGrid wait for the stalls' end and one for the next wake-up. The replay instead keeps
 * each process's state in a few numbers and applies, boundary by boundary, the same arithmetic in the same order (a
 * suspension's timer_left(), a resumption's stall, compute()'s timer at the stall's end, account()'s figures, the trace
 * rows as enter() closes them), on the clocks the scheduler would reach (its `next_instant`), stopping before anything
 * else could happen. Nothing is written back until it ends with at least one boundary: a replay that stops at once
 * changes no process's state (rotation_job() may have filled a process's caches of cost and speed, with the values
 * compute() and start_timer() would store). */
#include "runtime/execution/job_runtime.hpp"
#include "runtime/execution/work_account.hpp"

#include "core/time.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace jobsched {
namespace {
/* Whether a job's timers_from (RotationJob) is later than `above` by more than its rounding could have moved it: the
 * processes' figures it stands for are worked out again at every re-timing, each step off by an ulp or so (a few
 * nanoseconds at the log's clocks); a millisecond, plus a part in 10^9, is orders of magnitude beyond that. A job
 * that does not clear has its processes' timers read as before. */
bool clears(double timers_from, double above)
{
  return timers_from - (1e-3 + 1e-9 * std::fabs(timers_from)) > above;
}
} // namespace

JobRuntime::RotationRefusal JobRuntime::rotation_job(JobId id, const std::vector<int>& where, const ResourceSet& up,
                                                     bool computes_now, size_t& index)
{
  auto found = groups_.find(id);
  if (found == groups_.end()) return RotationRefusal::for_now; // none of its processes started yet
  ProcessGroup& g = found->second;
  if (g.rotation_replay == rotation_replays_) { // taken by this replay already (a phase met again)
    index = g.rotation_index;
    return RotationRefusal::none;
  }
  if (g.state->finished() || !g.job->profile.empty() || where.size() != g.processor.size())
    return RotationRefusal::for_good;
  const size_t first = rotation_processes_.size();
  const auto refuse = [&](RotationRefusal why) {
    rotation_processes_.resize(first);
    return why;
  };
  std::vector<int>& lean_of_process = rotation_lean_of_process_;
  lean_of_process.assign(where.size(), -1);
  for (size_t p = 0; p < where.size(); p++) {
    const int target = where[p];
    const int at = g.processor[p];
    Execution* e = g.exec[p];
    if (target == kProcessEnded) {
      if (at != kProcessEnded) return refuse(RotationRefusal::for_good); // the plan would end it
      continue;
    }
    if (!(target >= 0 && up.test(target))) { // computing in no phase: held where it is, not moved, no timer
      if (e != nullptr && ((target >= 0 && at != target) || g.computing[p] != 0 || e->timer_slot != kNoTimerSlot))
        return refuse(RotationRefusal::for_good);
      continue;
    }
    if (e == nullptr) return refuse(RotationRefusal::for_now);  // its job's plan starts it
    if (at != target) return refuse(RotationRefusal::for_good); // the plan moves it
    Execution& x = *e;
    JobState& s = state(x);
    if (x.slowdown != 1.0 || x.share >= 0 || x.share_area > 0 || x.host_failed || x.exec || x.preparing() ||
        !x.own_writes.empty() || x.job->kill_at_estimate || phased(x))
      return refuse(RotationRefusal::for_good);
    const bool running = s.status == JobStatus::running && x.timer_end >= 0 && x.stall_end < 0;
    const bool switching = s.status == JobStatus::switching && x.stall_end >= 0 && x.timer_end < 0 && x.compute_after;
    const bool suspended = s.status == JobStatus::suspended && x.timer_end < 0 && x.stall_end < 0;
    if (computes_now ? !(running || switching) : !suspended) return refuse(RotationRefusal::for_now);
    if (running && std::isinf(x.timer_end)) return refuse(RotationRefusal::for_good);
    if (!x.cost_valid) { // as compute() will find it (it depends on the processors only)
      s.cost = model_.cost(*x.job, s.processors);
      x.cost_valid = true;
    }
    if (x.speed_epoch != host_epoch_) { // as start_timer() reads it
      x.slowest_speed = slowest_speed_of(s.processors, x.on_host_off);
      x.speed_epoch = host_epoch_;
    }
    if (x.on_host_off || !(x.slowest_speed > 0) || std::isinf(x.slowest_speed))
      return refuse(RotationRefusal::for_good);
    lean_of_process[p] = static_cast<int>(rotation_processes_.size());
    RotationProcess& q = rotation_processes_.emplace_back();
    q.x = &x;
    q.host = machine_.host_of(target);
    q.speed = x.slowest_speed;
    q.stretch = model_.compute_stretch(s.cost);
    q.paging = s.cost.page_faults;
    // compute()'s ratio S(size) / S(processors): one call where both are the same count (a VP on one processor of a
    // job of size 1, every gang-now process), the quotient still taken as compute() takes it
    const auto count = static_cast<double>(static_cast<size_t>(s.processors.count()));
    q.speedup_size = x.job->speedup(x.job->size);
    q.speedup_one = count == static_cast<double>(x.job->size) ? q.speedup_size : x.job->speedup(count);
    q.status = s.status;
    q.since = x.since;
    q.remaining = x.remaining;
    q.remaining_at_segment = x.remaining_at_segment;
    q.timer_start = x.timer_start;
    q.timer_end = x.timer_end;
    q.timer_flops = x.timer_flops;
    q.stall_end = x.stall_end;
    q.service = s.service;
    q.switching_time = s.counters.switching_time;
    q.dedicated_rate = x.dedicated_rate;
    q.account = x.account;
    q.preemptions = s.counters.preemptions;
    q.computed_since_dispatch = x.computed_since_dispatch;
    if (x.sharing_host != (running ? q.host : -1)) return refuse(RotationRefusal::for_good);
  }
  index = rotation_job_count_++;
  if (index == rotation_jobs_.size()) rotation_jobs_.emplace_back();
  RotationJob& rj = rotation_jobs_[index]; // (its vectors' storage kept from earlier replays)
  rj.id = id;
  rj.group = &g;
  rj.first = first;
  rj.end = rotation_processes_.size();
  rj.lean_of_process.swap(lean_of_process);
  rj.lean_of_state.clear(); // found at its first rotation_sync()
  rj.synced = false;
  rj.timers_from = -std::numeric_limits<double>::infinity();
  rj.earliest_end = -std::numeric_limits<double>::infinity();
  for (size_t i = first; i < rj.end; i++)
    rotation_processes_[i].job = index;
  g.rotation_replay = rotation_replays_;
  g.rotation_index = index;
  return RotationRefusal::none;
}

std::vector<size_t>& JobRuntime::rotation_host(int h)
{
  const auto host = static_cast<size_t>(h);
  std::vector<size_t>& lean = rotation_sharers_[host];
  if (rotation_host_taken_[host] == 0) { // first met in this replay (its computing processes are added at its start)
    rotation_host_taken_[host] = 1;
    rotation_hosts_.push_back(h);
    lean.clear();
  }
  return lean;
}

void JobRuntime::rotation_start_timer(RotationProcess& q, double now)
{
  double speed = q.speed;
  const auto sharers = static_cast<int>(rotation_host(q.host).size());
  const int cores = machine_.cores(q.host);
  if (sharers > cores) speed = speed * cores / sharers;
  q.timer_start = now;
  q.timer_end = now + q.timer_flops / speed;
  double& earliest = rotation_jobs_[q.job].earliest_end;
  earliest = std::min(earliest, q.timer_end);
}

void JobRuntime::rotation_retime(RotationProcess& q, double now)
{
  const double left = timer_fraction_left(q.timer_start, q.timer_end, now);
  q.remaining *= left;
  q.timer_flops *= left;
  q.retimed = true;
  rotation_start_timer(q, now);
}

/* sync_group()'s record of the job at `clock`, from the replayed processes' state where they have one. */
void JobRuntime::rotation_sync(RotationJob& j, double clock)
{
  const ProcessGroup& g = *j.group;
  int rank = 0; // 0 none, 1 suspended, 2 transferring, 3 switching, 4 running
  for (size_t p = 0; p < g.exec.size(); p++) {
    const Execution* e = g.exec[p];
    if (e == nullptr) continue;
    const int lean = j.lean_of_process[p];
    const JobStatus status = lean >= 0 ? rotation_processes_[static_cast<size_t>(lean)].status : state(*e).status;
    rank = std::max(rank, status_rank(status, lean < 0 && state(*e).holds_processors()));
  }
  j.status = group_status(rank, g.state->started());
  if (j.lean_of_state.size() != g.states.size()) { // each record's replayed process (its execution's record)
    j.lean_of_state.assign(g.states.size(), -1);
    for (size_t i = j.first; i < j.end; i++)
      j.lean_of_state[rotation_processes_[i].x->record] = static_cast<int>(i);
  }
  JobCounters c = g.base;
  double service = 0;
  size_t k = 0;
  for (const JobState& p : g.states) {
    const int lean = j.lean_of_state[k++];
    const RotationProcess* q = lean >= 0 ? &rotation_processes_[static_cast<size_t>(lean)] : nullptr;
    c.preemptions += q != nullptr ? q->preemptions : p.counters.preemptions;
    c.migrations += p.counters.migrations;
    c.bytes_moved += p.counters.bytes_moved;
    c.switching_time += q != nullptr ? q->switching_time : p.counters.switching_time;
    c.transfer_time += p.counters.transfer_time;
    service = std::max(service, q != nullptr ? q->service : p.service);
  }
  double done = 0;
  for (size_t p = 0; p < g.exec.size(); p++) {
    const int lean = j.lean_of_process[p];
    double left = 0;
    if (lean >= 0) {
      const RotationProcess& q = rotation_processes_[static_cast<size_t>(lean)];
      left = q.remaining;
      if (q.timer_end >= 0) left *= timer_fraction_left(q.timer_start, q.timer_end, clock); // timer_left() at `clock`
    } else if (g.exec[p] != nullptr) {
      left = work_left(*g.exec[p]); // not computing (rotation_job()): the clock does not matter
    }
    done += g.processor[p] == kProcessEnded ? 1.0 : g.exec[p] != nullptr ? 1.0 - left : 0.0;
  }
  c.requeues = g.state->counters.requeues;
  c.work_lost = g.state->counters.work_lost;
  j.counters = c;
  j.service = service;
  const double fraction = g.exec.empty() ? 0.0 : done / static_cast<double>(g.exec.size());
  j.dedicated_time = fraction * g.job->run_time;
  j.synced = true;
}

JobRuntime::RotationReplay JobRuntime::replay_rotation(const RotationRequest& r, double now,
                                                       const std::function<double(double, double)>& next_instant)
{
  RotationReplay out;
  out.clock = now;
  const size_t tau = r.phase_jobs != nullptr ? r.phases : 0;
  if (!timers_ || images_enabled() || tau < 2 || r.phase >= tau || !(r.switch_cost > 0) ||
      !(r.quantum > r.switch_cost) || !preparing_.empty() || r.up == nullptr)
    return out;
  // Cheap refusals first (nothing taken yet): something comes before the policy's wake-up (an arrival, a deadline), or
  // a process's work ends by then (the heap's earliest timer, unless it is a stall's).
  if (next_instant(now, r.until) < 0) return out;
  if (!timer_heap_.empty() && timer_heap_.top().owner->timer_end >= 0 &&
      !(timer_heap_.top().end > r.until + kTimerSlack))
    return out;
  rotation_job_count_ = 0;
  rotation_replays_++; // (the jobs taken by the last one are not this one's)
  rotation_processes_.clear();
  rotation_rows_.clear();
  if (rotation_sharers_.size() != hosts_.size()) {
    rotation_sharers_.resize(hosts_.size());
    rotation_host_taken_.assign(hosts_.size(), 0);
  }
  for (int h : rotation_hosts_)
    rotation_host_taken_[static_cast<size_t>(h)] = 0;
  rotation_hosts_.clear();
  std::vector<RotationProcess>& processes = rotation_processes_;
  std::vector<size_t>& resumed = rotation_resumed_;
  std::vector<size_t>& current = rotation_current_; // the jobs of the phase in force, by id
  std::vector<size_t>& coming = rotation_coming_;   // those of the next one
  std::vector<size_t>& continuing = rotation_continuing_; // those of both, by id
  if (rotation_phase_stamp_.size() < tau) {
    rotation_phase_stamp_.resize(tau, 0);
    rotation_phase_range_.resize(tau);
  }
  rotation_phase_taken_.clear();
  // A phase's jobs, taken (and checked: their ids ascending, their processes' state as `computes_now` says, its hosts'
  // cores) the first time the replay meets them; a phase met again in this replay is the list it gave then.
  const auto take_phase = [&](size_t ph, bool computes_now, std::vector<size_t>& into) {
    if (rotation_phase_stamp_[ph] == rotation_replays_) { // taken whole by this replay: the same jobs, the same places
      const auto [from, to] = rotation_phase_range_[ph];
      into.assign(rotation_phase_taken_.begin() + static_cast<long>(from),
                  rotation_phase_taken_.begin() + static_cast<long>(to));
      return RotationRefusal::none;
    }
    into.clear();
    for (const auto& [id, where] : (*r.phase_jobs)(ph)) {
      if (where == nullptr || (!into.empty() && !(rotation_jobs_[into.back()].id < id)))
        return RotationRefusal::for_good;
      size_t index = 0;
      const RotationRefusal refusal = rotation_job(id, *where, *r.up, computes_now, index);
      if (refusal != RotationRefusal::none) return refusal;
      into.push_back(index);
    }
    rotation_phase_stamp_[ph] = rotation_replays_;
    rotation_phase_range_[ph] = {rotation_phase_taken_.size(), rotation_phase_taken_.size() + into.size()};
    rotation_phase_taken_.insert(rotation_phase_taken_.end(), into.begin(), into.end());
    return RotationRefusal::none;
  };
  const RotationRefusal first = take_phase(r.phase, true, current);
  if (first != RotationRefusal::none) {
    out.retry = first == RotationRefusal::for_now;
    return out;
  }
  // One walk over the phase in force's processes: its timers, its processes computing (each put on its host's list
  // for rotation_host()), the processes the decision just made resumed (their stalls end first) and the earliest end
  // of the running processes' timers.
  size_t timed = 0;
  long running = 0;
  resumed.clear();
  double floor = std::numeric_limits<double>::infinity();
  for (size_t j : current)
    for (size_t i = rotation_jobs_[j].first; i < rotation_jobs_[j].end; i++) {
      const RotationProcess& q = processes[i];
      timed += q.x->timer_slot != kNoTimerSlot ? 1 : 0;
      if (q.status == JobStatus::switching) resumed.push_back(i);
      if (q.status != JobStatus::running) continue;
      running++;
      floor = std::min(floor, q.timer_end);
      rotation_host(q.host).push_back(i);
    }
  // Every timer is one of these processes' (the others compute in no phase, or are suspended: no timer).
  if (timed != timer_heap_.size()) return out;
  // And every process sharing a host's CPU is one of the running ones, on its host's list (rotation_job() checked
  // each one's sharing_host), which is put in the order of host_sharers_'s.
  if (running != host_sharing_entries_) return out;
  for (int h : rotation_hosts_) {
    std::vector<size_t>& lean = rotation_sharers_[static_cast<size_t>(h)];
    if (lean.size() < 2 || static_cast<size_t>(h) >= host_sharers_.size()) continue;
    const std::vector<JobId>& ids = host_sharers_[static_cast<size_t>(h)];
    for (size_t k = 0; k < ids.size(); k++) // a few processes a host: each put in place by a search
      for (size_t m = k; m < lean.size(); m++)
        if (processes[lean[m]].x->job->id == ids[k]) {
          std::swap(lean[k], lean[m]);
          break;
        }
  }
  long fruitless = fruitless_dispatches_;
  long decisions = 0;
  double clock = now;
  double until = r.until;
  size_t phase = r.phase;
  // The stalls' end at `e`: the resumed processes compute, in the order their timers come out of the heap (by id).
  const auto launch_resumed = [&](double e) {
    std::sort(resumed.begin(), resumed.end(),
              [&](size_t a, size_t b) { return processes[a].x->job->id < processes[b].x->job->id; });
    for (size_t i : resumed) {
      RotationProcess& q = processes[i];
      const double length = e - q.since; // enter(running) closes the switching segment
      q.switching_time += length;
      if (length > 0) rotation_rows_.push_back({i, q.since, e, JobStatus::switching});
      q.status = JobStatus::running;
      q.since = e;
      q.stall_end = -1;
      // compute(): one process on one processor of its size 1, no slowdown (rotation_job())
      q.computed_since_dispatch = true;
      fruitless = 0;
      q.dedicated_rate = 1.0;
      q.remaining_at_segment = q.remaining;
      const double base_seconds = q.x->job->run_time * q.remaining * q.speedup_size / q.speedup_one;
      const double compute_seconds = base_seconds * q.stretch * 1.0;
      q.timer_flops = compute_seconds * reference_speed_;
      // start_timer(): it joins its host's CPU, the others there re-timed when they outnumber its cores
      std::vector<size_t>& sharers = rotation_host(q.host);
      sharers.push_back(i);
      if (static_cast<int>(sharers.size()) > machine_.cores(q.host))
        for (size_t other : sharers)
          if (other != i && processes[other].timer_end >= 0) rotation_retime(processes[other], e);
      rotation_start_timer(q, e);
      q.launched_at = e;
      // e + its work left at its host's full speed (the timer just started: all of it)
      double& from = rotation_jobs_[q.job].timers_from;
      from = std::min(from, e + q.timer_flops / q.speed);
    }
  };
  // The processes resumed by the decision just made: their stalls end first.
  if (!resumed.empty()) {
    const double stall_end = processes[resumed.front()].stall_end;
    for (size_t i : resumed)
      if (processes[i].stall_end != stall_end) return out;
    const double e = next_instant(clock, stall_end);
    if (e < 0 || stall_end > e + kTimerSlack || !(e < until - kTimeEpsilon) ||
        !(floor > std::max(stall_end, e) + kTimerSlack))
      return out;
    launch_resumed(e);
    clock = e;
  }
  // Walks the jobs of the phase in force and of the next together, by id: f(job, in force, next).
  const auto both = [&](const auto& f) {
    size_t a = 0;
    size_t b = 0;
    while (a < current.size() || b < coming.size()) {
      const bool take_a =
          a < current.size() && (b == coming.size() || rotation_jobs_[current[a]].id <= rotation_jobs_[coming[b]].id);
      const bool take_b =
          b < coming.size() && (a == current.size() || rotation_jobs_[coming[b]].id <= rotation_jobs_[current[a]].id);
      f(take_a ? current[a] : coming[b], take_a, take_b);
      a += take_a ? 1 : 0;
      b += take_b ? 1 : 0;
    }
  };
  for (;;) {
    // The next boundary: the policy's wake-up, before any process's work ends.
    const double t = next_instant(clock, until);
    if (t < 0) break;
    const double floor_above = std::max(until, t) + kTimerSlack;
    floor = std::numeric_limits<double>::infinity(); // of the jobs whose timers may end by floor_above
    for (size_t j : current) {
      RotationJob& rj = rotation_jobs_[j];
      if (rj.earliest_end > floor_above) continue; // (none of its timers ends before it)
      double earliest = std::numeric_limits<double>::infinity();
      for (size_t i = rj.first; i < rj.end; i++)
        earliest = std::min(earliest, processes[i].timer_end);
      rj.earliest_end = earliest;
      floor = std::min(floor, earliest);
    }
    if (!(floor > floor_above)) break;
    const size_t next = (phase + 1) % tau;
    const double next_until = t + r.quantum; // the policy's slice_start + quantum
    const RotationRefusal refusal = take_phase(next, false, coming);
    if (refusal != RotationRefusal::none) {
      out.retry = refusal == RotationRefusal::for_now;
      break;
    }
    // Its stalls' end, before the next wake-up and any timer of the processes that compute on.
    bool any_resumed = false;
    continuing.clear();
    both([&](size_t j, bool before, bool after) {
      if (before && after)
        continuing.push_back(j);
      else if (after)
        any_resumed = any_resumed || rotation_jobs_[j].end > rotation_jobs_[j].first;
    });
    double e = t;
    if (any_resumed) {
      const double stall_end = t + r.switch_cost;
      e = next_instant(t, stall_end);
      if (e < 0 || stall_end > e + kTimerSlack || !(e < next_until - kTimeEpsilon)) break;
      // The processes that compute on, at their host's full speed from t (a suspension there may speed them up), with
      // a margin: none ends by going_on_above where its job's timers_from clears it (t + its work left at full speed
      // is at least timers_from); the others' ends worked out, and their jobs' timers_from found on the way.
      const double going_on_above = std::max(stall_end, e) + kTimerSlack;
      double going_on = std::numeric_limits<double>::infinity();
      for (size_t j : continuing) {
        RotationJob& rj = rotation_jobs_[j];
        if (clears(t + (rj.timers_from - t) * (1 - 1e-9), going_on_above)) continue;
        double from = std::numeric_limits<double>::infinity();
        bool timed = true;
        for (size_t i = rj.first; i < rj.end; i++) {
          const RotationProcess& q = processes[i];
          const double left = timer_fraction_left(q.timer_start, q.timer_end, t);
          const double full_speed = q.timer_flops * left / q.speed;
          going_on = std::min(going_on, std::min(q.timer_end, t + full_speed * (1 - 1e-9)));
          from = std::min(from, t + full_speed);
          timed = timed && q.timer_end >= 0;
        }
        if (timed) rj.timers_from = from;
      }
      if (!(going_on > going_on_above)) break;
    }
    // The boundary, as the driver applies the policy's plan there: the jobs by id, each one's processes in order.
    resumed.clear();
    both([&](size_t j, bool before, bool after) {
      RotationJob& rj = rotation_jobs_[j];
      if (before == after || rj.end == rj.first) return;
      if (after) { // found as its processes are launched
        rj.timers_from = std::numeric_limits<double>::infinity();
        rj.earliest_end = std::numeric_limits<double>::infinity();
      }
      for (size_t i = rj.first; i < rj.end; i++) {
        RotationProcess& q = processes[i];
        decisions++;
        if (before) { // suspend_execution(): stop_exec(), then enter(suspended)
          q.remaining *= timer_fraction_left(q.timer_start, q.timer_end, t);
          q.timer_end = -1;
          // leave_host_share(): the others there re-timed when they outnumbered its cores
          std::vector<size_t>& sharers = rotation_host(q.host);
          sharers.erase(std::find(sharers.begin(), sharers.end(), i));
          if (static_cast<int>(sharers.size()) >= machine_.cores(q.host))
            for (size_t other : sharers)
              if (processes[other].timer_end >= 0) rotation_retime(processes[other], t);
          q.preempted = true;
          q.preemptions++;
          if (!q.computed_since_dispatch) fruitless++;
          const double length = t - q.since;
          q.service += length;
          q.account.dedicated_time += dedicated_length(length, q.dedicated_rate);
          add_work_done(q.account, q.remaining_at_segment, q.remaining, q.x->job->run_time, q.paging);
          if (length > 0) rotation_rows_.push_back({i, q.since, t, JobStatus::running});
          q.status = JobStatus::suspended;
          q.since = t;
        } else { // place_process() resuming it: enter(waiting), then the stall (enter(switching))
          q.computed_since_dispatch = false;
          q.resumed = true;
          if (t - q.since > 0) rotation_rows_.push_back({i, q.since, t, JobStatus::suspended});
          q.status = JobStatus::switching;
          q.since = t;
          q.stall_end = t + r.switch_cost;
          resumed.push_back(i);
        }
      }
      rotation_sync(rj, t);
    });
    if (any_resumed) launch_resumed(e);
    out.boundaries++;
    out.last_boundary = t;
    // The rows so far are those of kept boundaries (and of the stalls' end before the first): written as they come.
    for (const RotationRow& row : rotation_rows_) {
      Execution& x = *processes[row.process].x;
      emit_segment(x.owner, row.since, row.end, state(x).processors, row.status, -1, true);
    }
    rotation_rows_.clear();
    phase = next;
    until = next_until;
    clock = e;
    std::swap(current, coming);
  }
  if (out.boundaries == 0) return out; // nothing written back (the rows of the stalls' end dropped)
  for (size_t i = 0; i < processes.size(); i++) {
    RotationProcess& q = processes[i];
    Execution& x = *q.x;
    JobState& s = state(x);
    if (!(q.preempted || q.resumed || q.launched_at >= 0 || q.retimed)) continue;
    x.remaining = q.remaining;
    x.timer_start = q.timer_start;
    x.timer_end = q.timer_end;
    x.timer_flops = q.timer_flops;
    if (q.status == JobStatus::running)
      push_timer(x, q.timer_end);
    else
      drop_timer(x);
    x.sharing_host = q.status == JobStatus::running ? q.host : -1;
    if (!(q.preempted || q.resumed || q.launched_at >= 0)) continue; // re-timed only
    x.remaining_at_segment = q.remaining_at_segment;
    x.since = q.since;
    x.share_since = q.since;
    x.stall_end = -1;
    if (q.resumed) x.compute_after = true;
    x.computed_since_dispatch = q.computed_since_dispatch;
    if (q.preempted) x.held_throughout = false;
    x.dedicated_rate = q.dedicated_rate;
    x.account = q.account;
    s.service = q.service;
    s.counters.preemptions = q.preemptions;
    s.counters.switching_time = q.switching_time;
    s.status = q.status;
    s.image_out = false;
    note_computes(x);
  }
  // The hosts' lists of processes computing there, as join_host_share() and leave_host_share() left them.
  if (host_sharers_.size() != hosts_.size()) host_sharers_.resize(hosts_.size());
  for (int h : rotation_hosts_) {
    std::vector<JobId>& sharers = host_sharers_[static_cast<size_t>(h)];
    host_sharing_entries_ -= static_cast<long>(sharers.size());
    sharers.clear();
    for (size_t i : rotation_sharers_[static_cast<size_t>(h)])
      sharers.push_back(processes[i].x->job->id);
    host_sharing_entries_ += static_cast<long>(sharers.size());
  }
  for (size_t j = 0; j < rotation_job_count_; j++) {
    const RotationJob& rj = rotation_jobs_[j];
    if (!rj.synced) continue;
    JobState& s = *rj.group->state;
    s.status = rj.status;
    s.counters = rj.counters;
    s.service = rj.service;
    s.account.dedicated_time = rj.dedicated_time;
    s.account.paged_run_time = rj.dedicated_time;
    s.account.page_fault_time = 0;
  }
  fruitless_dispatches_ = fruitless;
  out.clock = clock;
  out.decisions = decisions;
  return out;
}

} // namespace jobsched
