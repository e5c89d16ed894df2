#include "model/job_state.hpp"

#include "core/errors.hpp"

namespace jobsched {

const char* to_string(JobStatus s)
{
  switch (s) {
  case JobStatus::pending:
    return "pending";
  case JobStatus::waiting:
    return "waiting";
  case JobStatus::running:
    return "running";
  case JobStatus::suspended:
    return "suspended";
  case JobStatus::switching:
    return "switching";
  case JobStatus::transferring:
    return "transferring";
  case JobStatus::finished:
    return "finished";
  }
  return "?";
}

JobState& JobTable::add(const Job& job)
{
  if (!index_.emplace(job.id, states_.size()).second)
    throw InputError("workload: job number " + std::to_string(job.id) + " appears twice");
  JobState s; // its processor sets stay empty (no storage) until it starts: most jobs of a long run are not running
  s.job = &job;
  states_.push_back(std::move(s));
  return states_.back();
}

JobState* JobTable::find(JobId id)
{
  auto it = index_.find(id);
  return it == index_.end() ? nullptr : &states_[it->second];
}

JobState& JobTable::at(JobId id)
{
  JobState* s = find(id);
  if (s == nullptr) throw PolicyError("job " + std::to_string(id) + " is not in the workload");
  return *s;
}

const JobState& JobTable::at(JobId id) const
{
  return const_cast<JobTable*>(this)->at(id);
}

} // namespace jobsched
