/* The workload's arrivals as an event source.
 *
 * Open: one actor sleeps until each submission instant and sends every job submitted then in one event (one actor
 * for the whole workload: thousands of sleeping actors would cost minutes, see ../shared/SIMGRID-NOTES.md).
 * Closed (`workload.closed`): the first `population` jobs are submitted at time 0 and every job that leaves is
 * replaced at once by the next one of the workload, submitted at that instant, so exactly `population` jobs are in the
 * system until the workload runs out. */
#pragma once

#include "runtime/core/event_source.hpp"

namespace jobsched {

class Submitter : public EventSource {
 public:
  /* `population` 0: open arrivals at the jobs' submit times; > 0: a closed population of that size (the jobs' submit
   * times are then set as they are released). */
  Submitter(JobList& jobs, sg4::Mailbox* mailbox, long population = 0)
      : EventSource(mailbox), jobs_(jobs), population_(population)
  {
  }
  void operator()();
  bool pending_at(double t) const override;
  bool exhausted() const override { return next_ >= jobs_.size() && in_flight_ == 0; }
  void job_ended(double now) override;

 private:
  JobList& jobs_;
  long population_;
  size_t next_ = 0;
  bool started_ = false;
};

} // namespace jobsched
