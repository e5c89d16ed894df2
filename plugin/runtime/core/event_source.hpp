/* Everything that reaches the scheduler from elsewhere comes as a typed Event from an EventSource, in one of two ways:
 *   - sent: an actor of the source (or a SimGrid callback through one) puts the event on the scheduler's mailbox; the
 *     source counts what it sent and the scheduler has not received, so the scheduler knows whether an event of the
 *     current instant may still come;
 *   - polled: a source that knows when its next event happens (next_time()) hands it over when the scheduler asks
 *     (poll()), with no actor and no message: the scheduler wakes at that time like at any other.
 * The scheduler gathers everything of one instant from every source before it decides, with no handshake written for
 * each sender. Sources: the workload's arrivals (open, or a closed population whose finished jobs are replaced at
 * once: polled), host changes (failures, speed profiles: sent), and workstation owners coming and going (polled,
 * runtime/events/owner_source.hpp). */
#pragma once

#include "model/job.hpp"

#include <simgrid/s4u.hpp>

#include <limits>
#include <memory>
#include <vector>

namespace jobsched {

namespace sg4 = simgrid::s4u;

class EventSource;

struct Event {
  enum class Kind { submissions, host_change, owner, process };
  Kind kind = Kind::submissions;
  std::vector<const WorkloadJob*> jobs; // submissions
  int host = -1;                        // host_change, owner: the compute host's index
  bool owner_busy = false;              // owner: the workstation's owner came back (else: left)
  JobId job = -1;                       // process: the job whose application adds a process or ends one
  bool process_added = false;           // process: a new process (else: one ends)
  double draw = 0;                      // process: uniform in [0, 1), which process ends
  EventSource* source = nullptr;
};

class EventSource {
 public:
  explicit EventSource(sg4::Mailbox* mailbox) : mailbox_(mailbox) {}
  EventSource(const EventSource&) = delete;
  EventSource& operator=(const EventSource&) = delete;
  virtual ~EventSource() = default;
  /* True while an event for an instant <= t has not reached the scheduler yet. */
  virtual bool pending_at(double /*t*/) const { return in_flight_ > 0; }
  /* True when it will send nothing more. */
  virtual bool exhausted() const { return in_flight_ == 0; }
  /* A job left the machine at `now` (a closed population replaces it). */
  virtual void job_ended(double /*now*/) {}
  /* Polled sources: when the next event is due (infinity: none), and the events due at `now`. */
  virtual double next_time() const { return std::numeric_limits<double>::infinity(); }
  virtual void poll(double /*now*/, std::vector<std::unique_ptr<Event>>& /*into*/) {}
  /* Its events come from the jobs in the system (a job's application adding or ending processes): they cannot bring a
   * host back, so the scheduler's wait for hosts down (SchedulerActor::kMaxWaitForHosts) does not count them. */
  virtual bool from_jobs() const { return false; }
  /* The scheduler received one of this source's events. */
  void delivered() { in_flight_--; }

 protected:
  /* Send from the source's own actor (never from the scheduler's): it returns once the scheduler, which always has a
   * receive posted, has the event, within the same instant. Not a detached put: in SimGrid 3.32 a detached send that
   * waits in the mailbox for a receive posted later never completes (the receiver waits forever on a comm RUNNING), so
   * a second event sent before the scheduler took the first one deadlocked the run (two hosts switched off at once). */
  void send(std::unique_ptr<Event> event)
  {
    event->source = this;
    in_flight_++;
    mailbox_->put(event.release(), 0);
  }
  sg4::Mailbox* mailbox_;
  int in_flight_ = 0;
};

} // namespace jobsched
