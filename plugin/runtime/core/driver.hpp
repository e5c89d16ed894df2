/* A driver hands one instant's events to a policy, asks it what to do and applies the answer through the runtime.
 * Space-sharing policies answer with decisions (SpaceSharingDriver), time-sharing policies with plans
 * (TimeSharingDriver); the scheduler actor's event loop is the same for both. */
#pragma once

#include "model/job_state.hpp"
#include "model/machine_events.hpp"
#include "runtime/core/virtual_clock.hpp"

#include <limits>

namespace jobsched {

/* What Driver::advance_cycles() did: whole cycles advanced, the decision instants they (and the boundaries replayed
 * after them, or a lookahead's) stood for, and the instant reached (the last boundary replayed). */
struct CycleAdvance {
  long cycles = 0;
  long instants = 0;
  double clock = 0;
};

class Driver {
 public:
  virtual ~Driver() = default;
  virtual void job_submitted(const WorkloadJob& job, double now) = 0;
  /* After the runtime has let the job go (its record says how and when). */
  virtual void job_ended(const JobState& state, double now) = 0;
  /* The job lost its processors and waits again (its record is back to waiting, its work to do anew). */
  virtual void job_requeued(const JobState& state, double now) = 0;
  /* `up`: the processors whose host is available after the change. */
  virtual void host_changed(const HostChange& change, const ResourceSet& up, double now) = 0;
  /* Ask the policy and apply its answer. */
  virtual void decide(double now, const ResourceSet& up) = 0;
  /* The next instant the policy wants to be asked even if nothing happens. */
  virtual double next_wakeup() const = 0;
  /* The policy's next planned start of a waiting job (Policy::next_planned_start), infinity: none. */
  virtual double next_planned_start() const { return std::numeric_limits<double>::infinity(); }
  /* Jobs made of processes (runtime/execution/job_runtime.hpp): a process finished its work (not its job's last),
   * and the jobs' own events (new process, or one to end; `draw` picks which). */
  virtual void process_ended(JobId /*job*/, int /*process*/, double /*now*/) {}
  virtual void process_event(JobId /*job*/, bool /*added*/, double /*draw*/, double /*now*/) {}
  /* The policy's next wake-up may be reached on a virtual clock (Plan::repeats), execution permitting. */
  virtual bool next_wakeup_is_virtual() const { return false; }
  /* Right after a decision at `now`: advance the policy's repeating schedule (Plan::cycle) by as many whole cycles as
   * come before anything else can happen, or replay its lookahead (Plan::lookahead) as far, without asking the
   * policy. `next_instant(clock, until)` is the instant the scheduler would reach on its virtual clock for the
   * policy's wake-up `until` after deciding at `clock`, or -1 when it would not reach it virtually (something else
   * may come first): a rule inline, asked at every boundary replayed. */
  virtual CycleAdvance advance_cycles(double /*now*/, const NextVirtualInstant& /*next_instant*/) { return {}; }
  /* A cycle or lookahead advance_cycles() has not tried yet is in force (a cheap test first). */
  virtual bool may_advance_cycles() const { return false; }
  /* A rotation of jobs made of processes (Plan::rotation) advance_cycles() has not tried yet is in force: its
   * boundaries are not virtual wake-ups (a stall's timer comes between), but the runtime replays them all the same. */
  virtual bool replays_rotation() const { return false; }
  /* Whether advance_cycles() may follow the next decision at all (the scheduler's virtual wake-ups and cycles are on,
   * every host is up): a driver tells its policy (SystemView::replays_possible). Set before each decision. */
  void set_replays_possible(bool possible) { replays_possible_ = possible; }
  /* Jobs submitted and not started. */
  virtual size_t waiting_count() const = 0;
  long decisions() const { return decisions_; }

 protected:
  long decisions_ = 0;
  bool replays_possible_ = false;
};

inline JobEnd job_end_of(JobFate fate)
{
  return fate == JobFate::completed ? JobEnd::completed : fate == JobFate::failed ? JobEnd::failed : JobEnd::killed;
}

} // namespace jobsched
