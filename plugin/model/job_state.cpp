#include "model/job_state.hpp"

#include "core/errors.hpp"

#include <algorithm>

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

void JobTable::expect(const Job& job)
{
  const size_t p = jobs_.size();
  if (p == 0) first_id_ = job.id;
  if (consecutive_ && job.id != first_id_ + static_cast<JobId>(p)) { // from now on, ids are looked up
    consecutive_ = false;
    by_id_ = true;
    lowest_id_ = first_id_;
    position_by_id_.resize(p);
    for (size_t i = 0; i < p; i++)
      position_by_id_[i] = static_cast<long>(i);
  }
  if (!consecutive_) {
    const auto twice = [&job] {
      return InputError("workload: job number " + std::to_string(job.id) + " appears twice");
    };
    if (by_id_) {
      if (position_of(job.id) >= 0) throw twice();
      note_by_id(job.id, p); // (which may give the table up for index_)
    }
    if (!by_id_ && !index_.emplace(job.id, p).second) throw twice();
  }
  jobs_.push_back(&job);
}

void JobTable::note_by_id(JobId id, size_t position)
{
  const JobId lowest = std::min(lowest_id_, id);
  const JobId end = std::max(lowest_id_ + static_cast<JobId>(position_by_id_.size()), id + 1);
  if (end - lowest >= 4 * static_cast<JobId>(position + 1) + 1024) { // too sparse: index_ from now on
    index_.reserve(position + 1);
    for (size_t k = 0; k < position_by_id_.size(); k++)
      if (position_by_id_[k] >= 0) index_.emplace(lowest_id_ + static_cast<JobId>(k), position_by_id_[k]);
    by_id_ = false;
    position_by_id_ = {};
    return;
  }
  if (lowest < lowest_id_) {
    position_by_id_.insert(position_by_id_.begin(), static_cast<size_t>(lowest_id_ - lowest), -1);
    lowest_id_ = lowest;
  }
  position_by_id_.resize(static_cast<size_t>(end - lowest_id_), -1);
  position_by_id_[static_cast<size_t>(id - lowest_id_)] = static_cast<long>(position);
}

JobState& JobTable::add(const Job& job)
{
  expect(job);
  return *record(jobs_.size() - 1);
}

long JobTable::position_of(JobId id) const
{
  if (consecutive_) {
    const JobId p = id - first_id_;
    return jobs_.empty() || id < first_id_ || p >= static_cast<JobId>(jobs_.size()) ? -1 : static_cast<long>(p);
  }
  if (by_id_) {
    const JobId k = id - lowest_id_;
    return k < 0 || k >= static_cast<JobId>(position_by_id_.size()) ? -1 : position_by_id_[static_cast<size_t>(k)];
  }
  auto it = index_.find(id);
  return it == index_.end() ? -1 : static_cast<long>(it->second);
}

JobState* JobTable::record(size_t p)
{
  if (p < first_) return nullptr;
  while (first_ + states_.size() <= p) { // its processor sets stay empty (no storage) until it starts
    JobState s;
    s.job = jobs_[first_ + states_.size()];
    states_.push_back(std::move(s));
  }
  return &states_[p - first_];
}

JobState* JobTable::find(JobId id)
{
  const long p = position_of(id);
  return p < 0 ? nullptr : record(static_cast<size_t>(p));
}

JobState& JobTable::at(JobId id)
{
  JobState* s = find(id);
  if (s == nullptr) {
    if (contains(id)) throw PolicyError("job " + std::to_string(id) + " has left the system");
    throw PolicyError("job " + std::to_string(id) + " is not in the workload");
  }
  return *s;
}

const JobState& JobTable::at(JobId id) const
{
  return const_cast<JobTable*>(this)->at(id);
}

bool JobTable::ended(JobId id) const
{
  const long p = position_of(id);
  if (p < 0) return false;
  const auto q = static_cast<size_t>(p);
  if (q < first_) return true;
  return q - first_ < states_.size() && states_[q - first_].finished();
}

void JobTable::mark_ended()
{
  if (!sink_) return;
  while (marked_ < states_.size() && ready_to_release(states_[marked_]))
    marked_++;
}

void JobTable::release_marked()
{
  for (; marked_ > 0; marked_--) {
    sink_(states_.front(), first_);
    states_.pop_front();
    first_++;
  }
}

void JobTable::release_all()
{
  marked_ = 0;
  while (first_ < jobs_.size()) {
    record(first_);
    sink_(states_.front(), first_);
    states_.pop_front();
    first_++;
  }
}

} // namespace jobsched
