/* The FIFO of submitted jobs that the queue-based policies (FCFS, EASY, conservative) share. A deque: jobs start from
 * its head, and a saturated machine's queue holds hundreds of thousands of jobs late in a long run (a vector moved
 * them all at every start: FCFS's cost per job grew from 11 to 19 us between 100,000 and 1,000,000 jobs). */
#pragma once

#include "allocation/allocator.hpp"
#include "model/job.hpp"
#include "policy/decision.hpp"

#include <algorithm>
#include <deque>
#include <utility>
#include <vector>

namespace jobsched {

/* Whether `a` was submitted after `b`: the queues' order (submission time, then job number). */
inline bool submitted_after(const Job& a, const Job& b)
{
  return a.submit_time > b.submit_time || (a.submit_time == b.submit_time && a.id > b.id);
}

class WaitingQueue {
 public:
  void push(const Job& job) { jobs_.push_back(&job); }
  /* Put a job back where its submission places it (a requeued job): before the first job submitted after it. */
  void push_in_submission_order(const Job& job)
  {
    auto later = std::find_if(jobs_.begin(), jobs_.end(), [&](const Job* j) { return submitted_after(*j, job); });
    jobs_.insert(later, &job);
  }
  bool empty() const { return jobs_.empty(); }
  size_t size() const { return jobs_.size(); }
  const Job& operator[](size_t i) const { return *jobs_[i]; }
  const Job& front() const { return *jobs_.front(); }
  void erase(size_t i) { jobs_.erase(jobs_.begin() + static_cast<long>(i)); }
  void pop_front() { jobs_.pop_front(); }
  /* Remove every job for which `started` is true, keeping the order of the rest. */
  template <class Pred>
  void erase_if(Pred started)
  {
    jobs_.erase(std::remove_if(jobs_.begin(), jobs_.end(), [&](const Job* j) { return started(*j); }), jobs_.end());
  }

 private:
  std::deque<const Job*> jobs_;
};

/* The decision to start `job` on `processors`, told to the allocator (one that plans ahead counts its expected end). */
inline Decision start_decision(const Allocator& allocator, const Job& job, ResourceSet processors)
{
  allocator.started(job, processors);
  return Decision::start(job.id, std::move(processors));
}

/* First-come first-served: start jobs from the head of the queue (a WaitingQueue or EASY's BackfillQueue) while they
 * fit in `idle` (which shrinks), telling `on_start(job, processors)` about each. */
template <class Queue, class OnStart>
Decisions start_in_order(Queue& queue, const Allocator& allocator, ResourceSet& idle, OnStart on_start)
{
  Decisions out;
  while (!queue.empty()) {
    auto chosen = allocator.select(queue.front(), idle);
    if (!chosen) break;
    idle -= *chosen;
    on_start(queue.front(), *chosen);
    out.push_back(start_decision(allocator, queue.front(), std::move(*chosen)));
    queue.pop_front();
  }
  return out;
}

inline Decisions start_in_order(WaitingQueue& queue, const Allocator& allocator, ResourceSet& idle)
{
  return start_in_order(queue, allocator, idle, [](const Job&, const ResourceSet&) {});
}

} // namespace jobsched
