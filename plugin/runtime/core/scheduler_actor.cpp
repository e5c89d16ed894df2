#include "runtime/core/scheduler_actor.hpp"

#include "core/errors.hpp"
#include "core/time.hpp"
#include "core/time_format.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

XBT_LOG_NEW_DEFAULT_CATEGORY(jobsched_scheduler, "jobsched: the scheduler actor");

namespace jobsched {

SchedulerActor::SchedulerActor(const Machine& machine, std::vector<sg4::Host*> hosts, const JobList& jobs,
                               JobRuntime& runtime, sg4::Mailbox* mailbox, std::vector<EventSource*> sources,
                               std::function<void(double, size_t)> progress)
    : machine_(machine), hosts_(std::move(hosts)), runtime_(runtime), mailbox_(mailbox), sources_(std::move(sources)),
      progress_(std::move(progress))
{
  for (const auto& j : jobs) // records are made as the jobs are submitted
    runtime_.expect(j);
  up_ = ResourceSet(machine.resource_count());
  owner_busy_.assign(static_cast<size_t>(machine.host_count()), false);
  for (int h = 0; h < machine.host_count(); h++) {
    host_up_.push_back(hosts_[h]->is_on() && hosts_[h]->get_available_speed() > 0);
    host_on_.push_back(host_up_.back());
    if (host_up_.back()) {
      up_ |= machine.processors_of(h);
    } else {
      hosts_down_++;
      hosts_off_++;
    }
  }
}

void SchedulerActor::job_ended(JobId id, JobFate fate)
{
  JobState& s = runtime_.table().at(id);
  XBT_VERB("job %ld ended (%s)", static_cast<long>(id), fate == JobFate::completed ? "completed" : "did not complete");
  s.fate = fate;
  s.finish_time = now_;
  s.status = JobStatus::finished;
  ended_++;
  last_end_ = now_;
  requeues_since_end_ = 0;
  driver_->job_ended(s, now_);
  for (auto* source : sources_)
    source->job_ended(now_);
}

std::string SchedulerActor::stranded_message() const
{
  std::string down;
  int listed = 0;
  for (int h = 0; h < machine_.host_count(); h++)
    if (!host_up_[h] && listed++ < 3) down += (down.empty() ? "" : ", ") + hosts_[h]->get_name();
  if (hosts_down_ > 3) down += " and " + std::to_string(hosts_down_ - 3) + " more";
  // Hosts down are off or at speed 0 (the platform's profiles), or held by their owners (the owners' file), or both.
  const int held_by_owners = hosts_down_ - hosts_off_;
  const std::string blamed = hosts_off_ == 0       ? owners_name_
                             : held_by_owners == 0 ? platform_name_
                                                   : platform_name_ + " and " + owners_name_;
  const std::string why = hosts_off_ == 0       ? "only hosts their owners hold"
                          : held_by_owners == 0 ? "only hosts down"
                                                : "only hosts down or held by their owners";
  return blamed + ": " + std::to_string(driver_->waiting_count() + runtime_.size()) + " jobs wait and " + why +
         " could run them (" + down + "), but none came back in the " + format_exact(kMaxWaitForHosts) + " s since " +
         format_exact(waiting_for_hosts_since_) + " s";
}

void SchedulerActor::job_evicted(JobId id, JobFate fate)
{
  if (eviction_ == GuestEviction::kill) {
    job_ended(id, fate);
    return;
  }
  JobState& s = runtime_.table().at(id);
  XBT_VERB("job %ld requeued, %g s of work lost", static_cast<long>(id), s.service);
  s.counters.requeues++;
  requeues_since_end_++;
  s.counters.work_lost += s.service;
  s.service = 0;
  s.work_done = 0; // a parallelism profile starts again from its first segment
  s.span_done = 0;
  s.account = JobAccount{}; // its measures are those of its last run
  s.status = JobStatus::waiting;
  s.start_time = -1;
  s.allocated.clear();
  driver_->job_requeued(s, now_);
}

void SchedulerActor::owners_busy_at_start(const std::vector<bool>& busy)
{
  owner_busy_ = busy;
  for (int h = 0; h < machine_.host_count(); h++)
    if (owner_busy_[h] && host_up_[h]) {
      host_up_[h] = false;
      up_ -= machine_.processors_of(h);
      hosts_down_++;
    }
}

void SchedulerActor::host_changed(int host, bool owner)
{
  sg4::Host* h = hosts_[host];
  const bool on = h->is_on() && h->get_available_speed() > 0;
  if (on != host_on_[host]) hosts_off_ += on ? -1 : 1;
  host_on_[host] = on;
  bool up = on && !owner_busy_[host];
  if (up)
    up_ |= machine_.processors_of(host);
  else
    up_ -= machine_.processors_of(host);
  if (up != host_up_[host]) hosts_down_ += up ? -1 : 1;
  host_up_[host] = up;
  driver_->host_changed(HostChange{host, up, h->get_available_speed(), owner}, up_, now_);
}

double SchedulerActor::policy_wakeup() const
{
  // A wake-up at or before the last decision has been served: asking again at the same instant would spin forever.
  double t = driver_->next_wakeup();
  return wakeup_served(t, decided_at_) ? std::numeric_limits<double>::infinity() : t;
}

bool SchedulerActor::sources_pending(double now) const
{
  return std::any_of(sources_.begin(), sources_.end(), [now](const EventSource* s) { return s->pending_at(now); });
}

double SchedulerActor::next_source_time() const
{
  double t = std::numeric_limits<double>::infinity();
  for (const auto* source : sources_)
    t = std::min(t, source->next_time());
  return t;
}

/* Collect everything that happens at the current instant. Returns false when nothing did. */
bool SchedulerActor::gather(bool woke_on_message)
{
  bool happened = false;
  for (const auto& [id, fate] : runtime_.collect_ended()) {
    if (fate == JobFate::failed) // its host (or a link it used) failed
      job_evicted(id, fate);
    else
      job_ended(id, fate);
    happened = true;
  }
  for (const auto& [id, process] : runtime_.collect_process_ends()) {
    if (runtime_.table().ended(id)) continue;
    driver_->process_ended(id, process, now_);
    happened = true;
  }
  // Events of this instant: the one that woke us, and any a source is still sending (a closed population's
  // replacements for the jobs that just ended among them).
  while (woke_on_message || sources_pending(now_)) {
    if (!woke_on_message) receive_->wait();
    woke_on_message = false;
    inbox_.emplace_back(message_);
    receive_ = mailbox_->get_async<Event>(&message_);
    inbox_.back()->source->delivered();
  }
  // Polled sources (arrivals) due now.
  for (auto* source : sources_)
    if (source->next_time() <= now_ + kTimeEpsilon) source->poll(now_, inbox_);
  // Host changes (failures, profiles, owners) before submissions, whatever order the events came in.
  std::stable_partition(inbox_.begin(), inbox_.end(),
                        [](const std::unique_ptr<Event>& e) { return e->kind != Event::Kind::submissions; });
  for (const auto& e : inbox_) {
    if (e->kind == Event::Kind::host_change) {
      host_changed(e->host, false);
    } else if (e->kind == Event::Kind::owner) {
      XBT_VERB("the owner of host %d %s", e->host, e->owner_busy ? "is back" : "left");
      owner_busy_[e->host] = e->owner_busy;
      host_changed(e->host, true);
    } else if (e->kind == Event::Kind::process) {
      if (!runtime_.table().ended(e->job))
        driver_->process_event(e->job, e->process_added, e->draw, now_);
    } else
      for (const WorkloadJob* j : e->jobs) {
        XBT_VERB("job %ld submitted (%d processors, estimate %g s)", static_cast<long>(j->id), j->size, j->estimate);
        runtime_.table().at(j->id).status = JobStatus::waiting;
        submitted_++;
        driver_->job_submitted(*j, now_);
      }
    happened = true;
  }
  inbox_.clear();
  return happened;
}

void SchedulerActor::catch_up(const std::vector<sg4::ActivityPtr>& activities)
{
  const double from = sg4::Engine::get_clock();
  const double timeout = timeout_landing_on(from, virtual_clock_); // found when virtual_clock_ was set
  const ssize_t woke = sg4::Activity::wait_any_for(activities, timeout);
  if (woke != -1 || sg4::Engine::get_clock() != virtual_clock_)
    throw std::logic_error("virtual wake-ups: SimGrid's clock went from " + format_exact(from) + " to " +
                           format_exact(sg4::Engine::get_clock()) + " s, not to the scheduler's " +
                           format_exact(virtual_clock_) + " s (something happened in between)");
  virtual_clock_ = -1;
  runtime_.set_virtual_clock(-1);
}

void SchedulerActor::advance_cycles()
{
  // The conditions of a virtual wake-up (operator()) that hold until something happens: nothing in flight, every host
  // up (no polling for hosts), no event of a source on its way; the earliest event a source has due bounds the advance.
  if (!driver_->may_advance_cycles() || hosts_down_ > 0 ||
      !(driver_->next_wakeup_is_virtual() || driver_->replays_rotation()) || !runtime_.activities().empty() ||
      sources_pending(now_))
    return;
  NextVirtualInstant next_instant;
  next_instant.others = std::min(runtime_.next_deadline(), next_source_time());
  next_instant.simgrid_clock = sg4::Engine::get_clock();
  // Nothing the advance does changes requeues_since_end_ or last_end_ (no job ends or is requeued in it).
  next_instant.requeued = requeues_since_end_ > 0;
  next_instant.last_end = last_end_;
  next_instant.max_without_progress = kMaxWithoutProgress;
  const CycleAdvance advance = driver_->advance_cycles(now_, next_instant);
  if (advance.instants == 0) return;
  stats_.cycles += advance.cycles;
  stats_.cycle_instants += advance.instants;
  now_ = advance.clock;
  decided_at_ = now_;
  last_computing_ = now_;
  virtual_clock_ = now_;
  runtime_.set_virtual_clock(now_);
}

bool SchedulerActor::no_progress(double now)
{
  if (runtime_.size() == 0 && driver_->waiting_count() == 0) { // nobody waits for progress
    last_end_ = now;
    requeues_since_end_ = 0;
    last_computing_ = now;
    return false;
  }
  const bool evicted_again_and_again = evicted_too_long(requeues_since_end_ > 0, last_end_, now, kMaxWithoutProgress);
  // Jobs that only hosts down for good could run are the stranded rule's (an error about the platform, above).
  const bool stranded = waiting_for_hosts_since_ >= 0;
  return evicted_again_and_again || (!stranded && now - last_computing_ >= kMaxWithoutProgress);
}

void SchedulerActor::operator()()
{
  auto wall_start = std::chrono::steady_clock::now();
  auto last_print = wall_start;
  receive_ = mailbox_->get_async<Event>(&message_);
  auto exhausted = [this] {
    return std::all_of(sources_.begin(), sources_.end(), [](const EventSource* s) { return s->exhausted(); });
  };
  std::vector<sg4::ActivityPtr> activities; // refilled at each wake-up, in the same storage
  while (!(exhausted() && runtime_.size() == 0 && driver_->waiting_count() == 0)) {
    // Nothing below changes the timers, the wall-time deadlines or the sources before the wait: each is read once.
    const double next_timer = runtime_.next_timer();
    const double next_deadline = runtime_.next_deadline();
    const double source_time = next_source_time();
    const double policy = policy_wakeup();
    const double others = std::min({next_deadline, next_timer, source_time}); // what SimGrid or a source brings
    double latest = std::numeric_limits<double>::infinity();                  // the scheduler's own looks (below)
    runtime_.activities(activities);
    activities.push_back(receive_);
    double now = virtual_clock_ >= 0 ? virtual_clock_ : sg4::Engine::get_clock();
    // A start the policy planned for later (a replayed job's recorded start) is progress to come, as a job computing
    // is: the no-progress stop, and the stranded rule, count from that start if it finds the processors taken.
    const double planned_start = driver_->next_planned_start();
    const bool start_ahead = !std::isinf(planned_start) && planned_start > now + kTimeEpsilon;
    const bool computing = activities.size() > 1 || !std::isinf(next_timer) || start_ahead;
    if (computing) last_computing_ = now;
    if (runtime_.size() > 0 || driver_->waiting_count() > 0) { // look again when kMaxWithoutProgress's limit comes
      const double limit =
          progress_limit_wakeup(requeues_since_end_ > 0, last_end_, now, last_computing_, kMaxWithoutProgress);
      if (limit > now) latest = limit; // past: the stranded rule's case, which polls on its own
    }
    // While hosts are down or at speed 0, only a SimGrid profile may bring them back, and future profile events do
    // not keep a simulation alive (an execution on a host at speed 0 never ends): poll for them. SimGrid does not say
    // whether a profile has events left, so jobs that only hosts down for good could run would make the polling go on
    // forever: a run where nothing but such a host can change anything stops after kMaxWaitForHosts. Nothing computes,
    // no event is to come (a source's: an owner leaving), and jobs are in the system, waiting or suspended; a policy
    // that re-plans on its own (a time-sharing quantum) changes nothing then.
    if (hosts_down_ > 0) {
      double next_event = std::numeric_limits<double>::infinity();
      for (const auto* source : sources_)
        if (!source->from_jobs()) next_event = std::min(next_event, source->next_time());
      const bool nothing_computes =
          activities.size() == 1 && std::isinf(next_timer) && std::isinf(next_deadline) && !start_ahead;
      const bool only_hosts_can_help = nothing_computes && std::isinf(next_event) && exhausted() &&
                                       !sources_pending(now) && (driver_->waiting_count() > 0 || runtime_.size() > 0);
      if (!only_hosts_can_help)
        waiting_for_hosts_since_ = -1;
      else if (waiting_for_hosts_since_ < 0)
        waiting_for_hosts_since_ = now;
      else if (now - waiting_for_hosts_since_ >= kMaxWaitForHosts)
        throw InputError(stranded_message());
      latest = std::min(latest, now + kHostPollPeriod);
    }
    const double wake_at = std::min({policy, others, latest});
    // Nothing scheduled and no event on its way on a machine that is all up: the policy is stuck.
    if (activities.size() == 1 && std::isinf(wake_at) && !sources_pending(now))
      throw PolicyError("the policy left " + std::to_string(driver_->waiting_count()) +
                        " jobs waiting on an idle machine and asked for no wake-up");
    ssize_t woke = -1;
    // A virtual wake-up (set_virtual_wakeups): nothing is in flight, no host may come back unseen, the driver's plan
    // repeats and no source's event is on its way; then virtual_wakeup_instant()'s rule says whether and where.
    bool virtual_wakeup = false;
    if (virtual_wakeups_ && activities.size() == 1 && hosts_allow_virtual_clock() &&
        driver_->next_wakeup_is_virtual() && !sources_pending(now)) {
      const double next = virtual_wakeup_instant(now, policy, others, latest, sg4::Engine::get_clock());
      if (next >= 0) {
        virtual_wakeup = true;
        virtual_clock_ = next;
        runtime_.set_virtual_clock(next);
      }
    }
    if (!virtual_wakeup) {
      if (virtual_clock_ >= 0) catch_up(activities); // now is SimGrid's clock again, as it would have been
      try {
        woke = sg4::Activity::wait_any_for(activities, std::isinf(wake_at) ? -1.0 : std::max(0.0, wake_at - now));
      } catch (const simgrid::Exception&) {
        // An activity lost its host or link: collect_ended() reports its job as failed. SimGrid 3.32 leaves this
        // actor's last simcall observer dangling after a wait_any that failed, and the next test_any reads it (a
        // crash): one more simcall first resets it.
        sg4::this_actor::yield();
      }
    }
    now_ = virtual_clock_ >= 0 ? virtual_clock_ : sg4::Engine::get_clock();
    if (computing) last_computing_ = now_; // it went on until now
    // The system stayed empty until now: the jobs this wake-up brings have waited for no progress yet, however long
    // the log was quiet before them (a gap of more than 30 days between submissions stopped the run at the next one).
    if (runtime_.size() == 0 && driver_->waiting_count() == 0) no_progress(now_);
    bool woke_on_message = woke == static_cast<ssize_t>(activities.size()) - 1;
    bool happened = gather(woke_on_message);
    if (no_progress(now_)) {
      XBT_VERB("no job ended nor computed for %g s at %g s: the run stops", kMaxWithoutProgress, now_);
      no_progress_stop_time_ = now_;
      break;
    }
    if (!happened && now_ < policy_wakeup() - kTimeEpsilon) continue;
    stats_.instants++;
    if (virtual_wakeup) stats_.virtual_instants++;
    decided_at_ = now_;
    // The records of the jobs that ended before this decision go to the outputs after it (JobTable): the driver and
    // the policy forget such jobs as they decide.
    runtime_.table().mark_ended();
    // advance_cycles() (below) replays nothing unless these hold, and none of them changes in between.
    driver_->set_replays_possible(virtual_wakeups_ && cycles_ && hosts_down_ == 0);
    driver_->decide(now_, up_);
    runtime_.table().release_marked();
    if (max_backlog_ > 0 && submitted_ - static_cast<long>(ended_) > max_backlog_) {
      XBT_VERB("%ld jobs in the system at %g s, more than simulation.max_backlog: the run stops",
               submitted_ - static_cast<long>(ended_), now_);
      backlog_stop_time_ = now_;
      break;
    }
    if (runtime_.fruitless_dispatches_in_a_row() >= kFruitlessDispatchLimit) {
      XBT_VERB("%ld preemptions in a row before any job computed, at %g s: the run stops",
               runtime_.fruitless_dispatches_in_a_row(), now_);
      stall_stop_time_ = now_;
      break;
    }
    if (cycles_ && virtual_wakeups_) advance_cycles(); // after the checks that may stop the run at this decision

    if (progress_ && (stats_.instants & 255) == 0) {
      auto t = std::chrono::steady_clock::now();
      if (t - last_print >= std::chrono::seconds(1)) {
        progress_(now_, ended_);
        last_print = t;
      }
    }
  }
  // The last wake-up's activities are not held past the loop (as when the vector was the loop's own).
  activities.clear();
  if (virtual_clock_ >= 0) catch_up({receive_}); // the outputs read SimGrid's clock at the end
  receive_->cancel();
  runtime_.close_trace();
  finished_ = true;
  stats_.decisions = driver_->decisions();
  stats_.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
}

} // namespace jobsched
