/* The one actor that injects the workload: it sleeps until each submission instant and sends the scheduler all jobs
 * submitted at that instant in one message (one actor for the whole workload: thousands of sleeping actors would
 * cost minutes, see ../shared/SIMGRID-NOTES.md). */
#pragma once

#include "core/job.hpp"

#include <simgrid/s4u.hpp>

#include <limits>
#include <vector>

namespace jobsched {

namespace sg4 = simgrid::s4u;

struct SchedulerMessage {
  enum class Kind { submissions, host_change } kind = Kind::submissions;
  std::vector<const Job*> jobs;
  int host = -1; // host_change: the compute host's index
};

class Submitter {
 public:
  Submitter(const JobList& jobs, sg4::Mailbox* mailbox) : jobs_(jobs), mailbox_(mailbox) {}
  void operator()();
  /* True while a batch for an instant <= t has not reached the scheduler yet. */
  bool pending_at(double t) const;
  bool done() const { return next_ >= jobs_.size() && !in_flight_; }
  void delivered() { in_flight_ = false; }

 private:
  const JobList& jobs_;
  sg4::Mailbox* mailbox_;
  size_t next_ = 0;
  bool in_flight_ = false;
};

} // namespace jobsched
