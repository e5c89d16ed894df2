/* The jobs' own events, for jobs made of processes (gang-now's VPs): while a job is in the system (from its
 * submission to its end) its application creates processes (new_VP) and ends some early (VP_exit) at the Poisson rates
 * of the workload (workload.generator: new_vp_per_hour, vp_exit_per_hour, per job and hour of its life), each job's
 * from its own random stream ("gang-dynamics-<id>"). A polled source: the scheduler wakes at each event and hands it
 * to the driver as an event of kind `process`; a VP_exit carries a uniform draw that picks which process ends (the
 * policy knows which are placed). Events do not keep a run alive: they stop with their job. */
#pragma once

#include "core/random.hpp"
#include "model/job_state.hpp"
#include "runtime/core/event_source.hpp"

#include <map>
#include <set>
#include <tuple>

namespace jobsched {

class ProcessEventSource : public EventSource {
 public:
  ProcessEventSource(const JobList& jobs, const JobTable& table, double new_per_hour, double exit_per_hour,
                     std::uint64_t seed);
  bool pending_at(double) const override { return false; }
  bool exhausted() const override { return true; }
  bool from_jobs() const override { return true; }
  double next_time() const override;
  void poll(double now, std::vector<std::unique_ptr<Event>>& into) override;
  void job_ended(double now) override;

 private:
  struct Dynamics {
    RandomStream random;
    double next_new;
    double next_exit;
  };
  double next(Dynamics& d, double from, double per_hour);
  const JobTable& table_;
  double new_per_hour_;
  double exit_per_hour_;
  std::map<JobId, Dynamics> jobs_;
  std::set<std::tuple<double, JobId, bool>> due_; // (time, job, added)
};

} // namespace jobsched
