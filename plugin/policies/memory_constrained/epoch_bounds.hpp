/* Lower bounds on the fewest epochs OPT-EPOCH(k) needs for a set of jobs (McCann & Zahorjan 1994, section 4.2): the
 * search with a memo kept across quanta skips a candidate whose remaining set cannot beat the best so far by them. */
#pragma once

#include <cstddef>
#include <vector>

namespace jobsched::memory_constrained {

class EpochLowerBound {
 public:
  EpochLowerBound(int nodes, int k);

  /* A lower bound on the epochs of `remaining` (M_j non-increasing), cheap: the sum bound (every epoch holds jobs
   * whose M_j sum to at most N) and the most jobs an epoch holding a job of M_j can hold. */
  int quick(const std::vector<int>& remaining) const { return quick(remaining.data(), remaining.size()); }
  int quick(const int* remaining, size_t count) const;

  /* At k = 1, min(the fewest epochs of `remaining`, limit + 1), and never below quick(): exact up to `limit`. At any
   * other k, quick(). */
  int within(const std::vector<int>& remaining, int limit) const
  {
    return within(remaining.data(), remaining.size(), limit);
  }
  int within(const int* remaining, size_t count, int limit) const;

 private:
  int covering_groups(const int* remaining, size_t count, int limit) const;

  int nodes_;
  int k_;
  std::vector<int> most_parts_; // by M_j: the most parts of a partition of N within k with a part of at least M_j
  // covering_groups()'s two rows, kept: the search asks for the bound of nearly every candidate.
  mutable std::vector<int> best_;
  mutable std::vector<int> next_;
};

} // namespace jobsched::memory_constrained
