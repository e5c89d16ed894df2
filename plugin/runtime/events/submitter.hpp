/* The workload's arrivals as a polled event source: it knows every submission time in advance, so the scheduler wakes
 * at each one and takes the jobs submitted then, in one event, with no actor and no message (thousands of sleeping
 * actors would cost minutes in SimGrid 3.32; one actor sending a message per instant costs a third of a fast run).
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
  Submitter(JobList& jobs, long population = 0) : EventSource(nullptr), jobs_(jobs), population_(population) {}
  bool pending_at(double) const override { return false; }
  bool exhausted() const override { return next_ >= jobs_.size(); }
  void job_ended(double now) override;
  double next_time() const override;
  void poll(double now, std::vector<std::unique_ptr<Event>>& into) override;

 private:
  JobList& jobs_;
  long population_;
  size_t next_ = 0;
  bool started_ = false;  // closed: the first `population` jobs were released
  long replacements_ = 0; // closed: jobs to release now for the jobs that just ended
  double replace_at_ = 0;
};

} // namespace jobsched
