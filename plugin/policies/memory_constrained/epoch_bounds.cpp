#include "policies/memory_constrained/epoch_bounds.hpp"

#include <algorithm>
#include <numeric>

namespace jobsched::memory_constrained {
namespace {

/* For each M from 1 to N, the most parts a partition of N within k can have with a part of at least M: the most jobs
 * an epoch holding a job of M_j = M can hold. With h parts of c to c + k nodes (h c <= N <= h (c + k)) the largest
 * part is at most min(c + k, N - (h - 1) c), and that is reached. */
std::vector<int> most_parts_by_min(int nodes, int k)
{
  std::vector<int> most(static_cast<size_t>(nodes) + 1, 0);
  for (int h = 1; h <= nodes; h++) {
    int largest = 0;
    for (int c = std::max(1, (nodes + h - 1) / h - k); c <= nodes / h; c++)
      largest = std::max(largest, std::min(c + k, nodes - (h - 1) * c));
    most[static_cast<size_t>(largest)] = std::max(most[static_cast<size_t>(largest)], h);
  }
  for (int m = nodes - 1; m >= 1; m--) // a part of at least m: the best over every largest part >= m
    most[static_cast<size_t>(m)] = std::max(most[static_cast<size_t>(m)], most[static_cast<size_t>(m) + 1]);
  return most;
}

} // namespace

EpochLowerBound::EpochLowerBound(int nodes, int k) : nodes_(nodes), k_(k), most_parts_(most_parts_by_min(nodes, k)) {}

/* With the most-parts rule alone, taking each time the largest job left with as many of the next largest as it
 * allows uses the fewest epochs (an exchange argument: the epoch of the largest job holds at most its count of jobs,
 * and the next largest are the ones that allow the fewest). */
int EpochLowerBound::quick(const int* remaining, size_t count) const
{
  if (count == 0) return 0;
  int groups = 0;
  for (size_t i = 0; i < count; i += static_cast<size_t>(most_parts_[static_cast<size_t>(remaining[i])]))
    groups++;
  const long long sum = std::accumulate(remaining, remaining + count, 0LL);
  return std::max(groups, static_cast<int>((sum + nodes_ - 1) / nodes_));
}

int EpochLowerBound::within(const int* remaining, size_t count, int limit) const
{
  const int cheap = quick(remaining, count);
  if (k_ != 1 || cheap > limit) return cheap;
  return std::max(cheap, covering_groups(remaining, count, limit));
}

/* At k = 1 an epoch of h jobs has one partition: r = N mod h parts of a + 1 nodes and h - r of a = floor(N / h), so it
 * has h parts of at least m for m <= a, r for m = a + 1 and none beyond. A job fits a part at least its M_j, so (Hall's
 * condition, the parts a job fits being nested) jobs fit a set of epochs' parts one each if and only if, for every m,
 * the parts of at least m are at least the jobs of M_j >= m; and the jobs a part set holds fewer than its parts still
 * make an epoch (an epoch of h - 1 jobs has parts at least as wide: a + 1 >= ceil(N / h) if a grows, r + a wide
 * parts if not). So the fewest epochs is the fewest partitions covering those counts, checked only at each distinct
 * M_j (the counts step there) and at m = 1 (every job). The thresholds are taken from the largest down: an epoch
 * first needed at threshold m is one with a >= m, of which h = floor(N / m) has the most parts at m and at every lower
 * threshold, or one with a = m - 1, partial at m and whole below. Epochs chosen earlier are whole at every later
 * threshold, so the state after a threshold is the count of epochs and their parts, of which the most is kept for
 * each count. The partial epochs' parts at m, N - h (m - 1), run in steps of m - 1, so p of them reach any total in
 * steps of m - 1 between p times the lowest and p times the highest; the least total that meets the count leaves the
 * most parts below. Returns min(the fewest epochs, limit + 1). */
int EpochLowerBound::covering_groups(const int* remaining, size_t count, int limit) const
{
  if (count == 0) return 0;
  if (limit < 1) return limit + 1;
  const int jobs = static_cast<int>(count);
  std::vector<int>& best = best_; // by epochs: the most parts, -1 if none
  std::vector<int>& next = next_;
  best.assign(static_cast<size_t>(limit) + 1, -1);
  next.resize(best.size());
  best[0] = 0;
  size_t i = 0;
  while (true) {
    const int m = i < count ? remaining[i] : 1;
    while (i < count && remaining[i] == m)
      i++;
    const int needed = static_cast<int>(i); // jobs of M_j >= m
    const int whole = nodes_ / m;
    int lowest = 0;
    int highest = -1; // no partial epoch at m = 1, nor where no h has floor(N / h) = m - 1
    if (m > 1 && nodes_ / (m - 1) > whole) {
      lowest = nodes_ % (m - 1);
      highest = nodes_ - (whole + 1) * (m - 1);
    }
    std::fill(next.begin(), next.end(), -1);
    for (int e = 0; e <= limit; e++) {
      if (best[static_cast<size_t>(e)] < 0) continue;
      const int parts = best[static_cast<size_t>(e)];
      const int short_by = needed - parts;
      for (int w = 0; e + w <= limit; w++) {
        const int still_short = short_by - w * whole;
        for (int p = 0; e + w + p <= limit && (p == 0 || highest >= 0); p++) {
          int later = w * whole;
          if (p == 0) {
            if (still_short > 0) continue;
          } else {
            if (still_short > p * highest) continue;
            int at_m = p * lowest;
            if (still_short > at_m) at_m += (still_short - at_m + m - 2) / (m - 1) * (m - 1);
            later += (p * nodes_ - at_m) / (m - 1);
          }
          int& slot = next[static_cast<size_t>(e + w + p)];
          slot = std::max(slot, std::min(jobs, parts + later));
        }
      }
    }
    for (int e = 1; e <= limit; e++) // at most e epochs
      next[static_cast<size_t>(e)] = std::max(next[static_cast<size_t>(e)], next[static_cast<size_t>(e) - 1]);
    best.swap(next);
    if (m == 1) break;
  }
  for (int e = 0; e <= limit; e++)
    if (best[static_cast<size_t>(e)] >= 0) return e;
  return limit + 1;
}

} // namespace jobsched::memory_constrained
