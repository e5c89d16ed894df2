/* The FIFO of submitted jobs that the queue-based policies (FCFS, EASY, conservative) share. */
#pragma once

#include "core/job.hpp"

#include <algorithm>
#include <vector>

namespace jobsched {

class WaitingQueue {
 public:
  void push(const Job& job) { jobs_.push_back(&job); }
  bool empty() const { return jobs_.empty(); }
  size_t size() const { return jobs_.size(); }
  const Job& operator[](size_t i) const { return *jobs_[i]; }
  void erase(size_t i) { jobs_.erase(jobs_.begin() + static_cast<long>(i)); }
  /* Remove every job for which `started` is true, keeping the order of the rest. */
  template <class Pred>
  void erase_if(Pred started)
  {
    jobs_.erase(std::remove_if(jobs_.begin(), jobs_.end(), [&](const Job* j) { return started(*j); }), jobs_.end());
  }

 private:
  std::vector<const Job*> jobs_;
};

} // namespace jobsched
