/* Everything that reaches the scheduler from elsewhere comes as a typed Event on its mailbox, from an EventSource.
 *
 * A source counts the events it has sent and the scheduler has not received yet, and says whether one for the
 * current instant may still come; the scheduler gathers everything of one instant from every source before it
 * decides, with no handshake written for each sender. Sources: the workload's arrivals (open, or a closed population
 * whose finished jobs are replaced at once), and host changes (failures, owners, speed profiles). */
#pragma once

#include "model/job.hpp"

#include <simgrid/s4u.hpp>

#include <memory>
#include <vector>

namespace jobsched {

namespace sg4 = simgrid::s4u;

class EventSource;

struct Event {
  enum class Kind { submissions, host_change };
  Kind kind = Kind::submissions;
  std::vector<const WorkloadJob*> jobs; // submissions
  int host = -1;                        // host_change: the compute host's index
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
  /* The scheduler received one of this source's events. */
  void delivered() { in_flight_--; }

 protected:
  /* Send without waiting for the scheduler (any actor may send, the scheduler included). */
  void send(std::unique_ptr<Event> event)
  {
    event->source = this;
    in_flight_++;
    mailbox_->put_init(event.release(), 0)->detach();
  }
  sg4::Mailbox* mailbox_;
  int in_flight_ = 0;
};

} // namespace jobsched
