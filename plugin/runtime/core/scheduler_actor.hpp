/* The scheduler actor: SimGrid's side of a run. It gathers everything that happens at one simulated instant from the
 * runtime (jobs that ended) and from its event sources (submissions, host changes), hands it to the driver in a
 * fixed order (completions first, then host changes, then submissions), and lets the driver decide once. The fixed
 * order is the project's rule for simultaneous events: a job that ends at t frees its processors for the jobs
 * submitted at t. All its state is its own, so several scheduler actors could run side by side. */
#pragma once

#include "model/owner_activity.hpp"
#include "runtime/core/driver.hpp"
#include "runtime/core/event_source.hpp"
#include "runtime/core/virtual_clock.hpp"
#include "runtime/execution/job_runtime.hpp"

#include <chrono>
#include <functional>
#include <memory>

namespace jobsched {

struct SchedulerStats {
  long instants = 0; // decision points
  long decisions = 0;
  double wall_seconds = 0;
  long virtual_instants = 0; // of `instants`, those reached on the virtual clock (SchedulerActor::set_virtual_wakeups)
  long cycles = 0;           // whole cycles of a repeating schedule advanced without deciding (set_cycles)
  long cycle_instants = 0;   // the decision instants those cycles stood for (not in `instants`)
};

class SchedulerActor {
 public:
  /* Every job of `jobs` is admitted to the runtime's table (in workload order) here. `progress` is called about once
   * a wall-clock second with (simulated time, jobs ended). */
  SchedulerActor(const Machine& machine, std::vector<sg4::Host*> hosts, const JobList& jobs, JobRuntime& runtime,
                 sg4::Mailbox* mailbox, std::vector<EventSource*> sources,
                 std::function<void(double, size_t)> progress);
  /* The driver is made once the processors that are up are known (see up()). */
  void set_driver(std::unique_ptr<Driver> driver) { driver_ = std::move(driver); }
  /* Stop the run once more than `jobs` are in the system (submitted and not ended): a saturated system, whose run
   * would otherwise last as long as its ever longer queue takes to drain. 0: never. */
  void set_max_backlog(long jobs) { max_backlog_ = jobs; }
  /* How errors about the platform name it (its file). */
  void set_platform_name(std::string name) { platform_name_ = std::move(name); }
  /* How errors about hosts held by their owners name the owners' activity (its trace file). */
  void set_owners_name(std::string name) { owners_name_ = std::move(name); }
  /* When the run stopped on its backlog, -1 when it did not. */
  double backlog_stop_time() const { return backlog_stop_time_; }
  /* A run whose every dispatch ends before its job computes (time slices shorter than the image loads that start
   * them) would never end: it stops after this many such preemptions in a row. */
  static constexpr long kFruitlessDispatchLimit = 1000;
  /* When the run stopped on kFruitlessDispatchLimit, -1 when it did not. */
  double stall_stop_time() const { return stall_stop_time_; }
  /* While hosts are down, the scheduler looks every kHostPollPeriod seconds whether a profile brought one back. When
   * jobs wait, nothing runs, no event is due and only such a host could change that, the run stops with an error
   * after kMaxWaitForHosts (30 days) of this. */
  static constexpr double kHostPollPeriod = 3600;
  static constexpr double kMaxWaitForHosts = 30 * 86400;
  /* A run that goes on without progress would never end: jobs that owners or failing hosts evict again and again (a
   * job wider than the workstations that are ever idle together), or jobs that wait while nothing computes (owners
   * who keep the workstations for months). It stops as saturated once jobs are in the system and, for this long, no
   * job ended while jobs were requeued, or nothing computed. */
  static constexpr double kMaxWithoutProgress = 30 * 86400;
  /* When the run stopped on kMaxWithoutProgress, -1 when it did not. */
  double no_progress_stop_time() const { return no_progress_stop_time_; }
  /* Virtual wake-ups: when the policy's next wake-up is the next thing to happen (its plan repeats, Plan::repeats;
   * no job ends, no deadline, no event of a source is due before it; no SimGrid activity is in flight), the scheduler
   * does not ask SimGrid to wait for it: it sets its own clock (and the runtime's) to the value SimGrid's clock would
   * take there, and decides as at any instant. Only when it waits for real again does SimGrid's clock catch up, in
   * one wait whose timeout is chosen to land on that value exactly. `quiet`: nothing outside jobsched's actors can
   * happen in the meantime (no host or link profile, no user's actors, no processes' events), which only the run's
   * set-up knows. Owners come and go at instants known in advance (OwnerSource::next_time), which end a virtual
   * spell like any source's event. */
  void set_virtual_wakeups(bool quiet) { virtual_wakeups_ = quiet; }
  /* Cycles: with virtual wake-ups, a repeating schedule the policy declares (Plan::cycle) is advanced by as many whole
   * cycles as every one of its boundaries would be a virtual wake-up (Driver::advance_cycles): the runtime replays the
   * jobs' arithmetic boundary by boundary, without the policy, the driver's plan or trace rows of each instant; the
   * trace gets the first cycle's rows with their repeat count. */
  void set_cycles(bool on) { cycles_ = on; }
  const ResourceSet& up() const { return up_; }
  void operator()();
  /* A job left the machine (called by the runtime's collection, or by a driver that killed it). */
  void job_ended(JobId id, JobFate fate);
  /* A job lost its processors (its host failed, or a driver killed it for the host's owner): requeued, or ended with
   * `fate`, by the eviction rule. */
  void job_evicted(JobId id, JobFate fate);
  void set_eviction(GuestEviction eviction) { eviction_ = eviction; }
  /* Hosts whose owner is there at time 0 (owners: the hosts are not available to jobs); before the driver is made. */
  void owners_busy_at_start(const std::vector<bool>& busy);

  const SchedulerStats& stats() const { return stats_; }
  size_t ended_count() const { return ended_; }
  bool finished() const { return finished_; }

 private:
  bool gather(bool woke_on_message);
  void host_changed(int host, bool owner);
  bool sources_pending(double now) const;
  /* The earliest instant a source has an event due (infinity: none). */
  double next_source_time() const;
  double policy_wakeup() const;
  /* Whether the next instant may be reached on the virtual clock as far as hosts go: no host is off or at speed 0 (a
   * profile would bring it back unseen); hosts held by their owners come back at an owner's event, whose time is known
   * (next_source_time bounds every virtual wake-up). */
  bool hosts_allow_virtual_clock() const { return hosts_off_ == 0; }
  std::string stranded_message() const;

  const Machine& machine_;
  std::vector<sg4::Host*> hosts_;
  JobRuntime& runtime_;
  sg4::Mailbox* mailbox_;
  std::vector<EventSource*> sources_;
  std::function<void(double, size_t)> progress_;
  std::unique_ptr<Driver> driver_;

  ResourceSet up_;
  std::vector<bool> host_up_;
  std::vector<bool> host_on_;    // on and at a speed above 0, whatever its owner does
  std::vector<bool> owner_busy_; // the workstation's owner is there: not available to jobs
  GuestEviction eviction_ = GuestEviction::requeue;
  int hosts_down_ = 0; // hosts not available to jobs: off, at speed 0, or their owner is there
  int hosts_off_ = 0; // of those, the hosts off or at speed 0 (only a SimGrid profile, unseen until it acts, ends that)
  double now_ = 0;
  double decided_at_ = -1; // the last instant the driver decided
  Event* message_ = nullptr;
  sg4::CommPtr receive_;
  std::vector<std::unique_ptr<Event>> inbox_;
  size_t ended_ = 0;
  bool finished_ = false;
  long max_backlog_ = 0;
  long submitted_ = 0;
  double backlog_stop_time_ = -1;
  double stall_stop_time_ = -1;
  std::string platform_name_ = "platform";
  std::string owners_name_ = "owners";
  double waiting_for_hosts_since_ = -1; // when the run began to wait for nothing but hosts down, -1: it does not
  double last_end_ = 0;            // the last instant a job ended (or the system was empty)
  long requeues_since_end_ = 0;    // jobs requeued since then
  double last_computing_ = 0;      // the last instant some job computed or prepared (or the system was empty)
  double no_progress_stop_time_ = -1;
  bool no_progress(double now); // see kMaxWithoutProgress

  bool virtual_wakeups_ = false;
  bool cycles_ = false;
  /* After a decision: Driver::advance_cycles() when the instants ahead could be virtual wake-ups. */
  void advance_cycles();
  double virtual_clock_ = -1; // > SimGrid's clock: the instant the scheduler is at (see set_virtual_wakeups), else -1
  /* Bring SimGrid's clock to virtual_clock_ (a wait on `activities`, nothing else in flight) and drop the latter. */
  void catch_up(const std::vector<sg4::ActivityPtr>& activities);
  SchedulerStats stats_;
};

} // namespace jobsched
