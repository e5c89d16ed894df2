/* EASY's waiting queue: the jobs in submission order, kept in slots (a job's slot stays put until the queue is next
 * pushed to) under a segment tree that holds, for every range of slots, the smallest requested size and the smallest
 * estimate of the jobs in it. A backfill pass asks for the next job that can fit by processor count and jumps to it
 * without visiting the jobs between: on an overloaded machine the queue holds tens of thousands of jobs and a pass
 * starts a handful (EASY with the smp allocator on 10,000 cores, 100,000 jobs: 3.3 billion jobs visited in 180,000
 * passes for 88,000 allocator calls).
 *
 * A range is skipped when its smallest size exceeds the free count, or exceeds the count free of the head's
 * reservation while its smallest estimate ends after the shadow time (then so does every estimate in it: the test is
 * monotone in the estimate). The two minima may come from different jobs, so a range that passes may still hold no
 * fitting job; the descent then visits it, and the answer at a slot is the exact test.
 *
 * Removals empty a slot (its leaf holds no job). When the slots run out, the live jobs are packed into a tree of twice
 * their number: every rebuild of C slots follows at least C/2 pushes. A requeued job goes back at its submission place
 * by a rebuild (requeues are rare: a job's host failed). */
#pragma once

#include "model/job.hpp"
#include "policies/space_sharing/waiting_queue.hpp"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

namespace jobsched {

class BackfillQueue {
 public:
  static constexpr size_t npos = std::numeric_limits<size_t>::max();

  BackfillQueue() { rebuild({}); }

  void push(const Job& job)
  {
    if (end_ == capacity_) {
      std::vector<const Job*> live = jobs();
      rebuild(live);
    }
    set_slot(end_++, &job);
    live_++;
    if (head_ == npos) head_ = end_ - 1;
  }
  /* Put a job back where its submission places it (a requeued job): before the first job submitted after it. */
  void push_in_submission_order(const Job& job)
  {
    std::vector<const Job*> live = jobs();
    auto later = std::find_if(live.begin(), live.end(), [&](const Job* j) { return submitted_after(*j, job); });
    live.insert(later, &job);
    rebuild(live);
  }

  bool empty() const { return live_ == 0; }
  size_t size() const { return live_; }
  /* The head's slot (npos when empty) and job. */
  size_t first() const { return head_; }
  const Job& front() const { return *slots_[head_]; }
  const Job& at(size_t slot) const { return *slots_[slot]; }

  void erase(size_t slot)
  {
    set_slot(slot, nullptr);
    live_--;
    if (slot == head_) head_ = live_ == 0 ? npos : find_first(slot + 1, [](int size, double) { return size < kNoJob; });
  }
  void pop_front() { erase(head_); }

  /* The first slot from `from` on whose job can fit by processor count: its size is at most `unreserved_count`, or at
   * most `free_count` and `ends_in_time(estimate)` (which must be monotone: true for an estimate, true for every
   * smaller one). unreserved_count <= free_count. npos when there is none. */
  template <class EndsInTime>
  size_t next_fitting(size_t from, int free_count, int unreserved_count, EndsInTime ends_in_time) const
  {
    return find_first(from, [&](int size, double estimate) {
      return size <= unreserved_count || (size <= free_count && ends_in_time(estimate));
    });
  }

  /* The live jobs in queue order. */
  std::vector<const Job*> jobs() const
  {
    std::vector<const Job*> live;
    live.reserve(live_);
    for (size_t s = 0; s < end_; s++)
      if (slots_[s]) live.push_back(slots_[s]);
    return live;
  }

 private:
  static constexpr int kNoJob = std::numeric_limits<int>::max();

  void rebuild(const std::vector<const Job*>& live)
  {
    capacity_ = 64;
    while (capacity_ < 2 * live.size())
      capacity_ *= 2;
    slots_.assign(capacity_, nullptr);
    min_size_.assign(2 * capacity_, kNoJob);
    min_estimate_.assign(2 * capacity_, std::numeric_limits<double>::infinity());
    for (size_t s = 0; s < live.size(); s++) {
      slots_[s] = live[s];
      min_size_[capacity_ + s] = live[s]->size;
      min_estimate_[capacity_ + s] = live[s]->estimate;
    }
    for (size_t n = capacity_; n-- > 1;)
      pull(n);
    end_ = live.size();
    live_ = live.size();
    head_ = live.empty() ? npos : 0;
  }

  void pull(size_t n)
  {
    min_size_[n] = std::min(min_size_[2 * n], min_size_[2 * n + 1]);
    min_estimate_[n] = std::min(min_estimate_[2 * n], min_estimate_[2 * n + 1]);
  }

  void set_slot(size_t slot, const Job* job)
  {
    slots_[slot] = job;
    size_t n = capacity_ + slot;
    min_size_[n] = job ? job->size : kNoJob;
    min_estimate_[n] = job ? job->estimate : std::numeric_limits<double>::infinity();
    for (n /= 2; n >= 1; n /= 2)
      pull(n);
  }

  /* The first slot from `from` on whose leaf passes `may_hold(min size, min estimate)`, descending only into ranges
   * that pass it (at a leaf the minima are the job's own values). */
  template <class MayHold>
  size_t find_first(size_t from, const MayHold& may_hold) const
  {
    if (from >= end_) return npos;
    return find_first(1, 0, capacity_, from, may_hold);
  }
  template <class MayHold>
  size_t find_first(size_t node, size_t lo, size_t hi, size_t from, const MayHold& may_hold) const
  {
    if (hi <= from || lo >= end_ || !may_hold(min_size_[node], min_estimate_[node])) return npos;
    if (hi - lo == 1) return lo;
    const size_t mid = (lo + hi) / 2;
    const size_t left = find_first(2 * node, lo, mid, from, may_hold);
    return left != npos ? left : find_first(2 * node + 1, mid, hi, from, may_hold);
  }

  std::vector<const Job*> slots_; // nullptr: an emptied slot, or one not used yet
  std::vector<int> min_size_;     // segment tree over the slots, root 1, leaves capacity_ + slot
  std::vector<double> min_estimate_;
  size_t capacity_ = 0;
  size_t end_ = 0;  // slots from here on were never used since the last rebuild
  size_t live_ = 0; // jobs in the queue
  size_t head_ = npos;
};

} // namespace jobsched
