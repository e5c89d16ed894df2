/* Partitions of N nodes into epoch widths that differ by at most k: the epochs OPT-EPOCH(k) may use.
 *
 * McCann & Zahorjan 1994, "Scheduling memory constrained jobs on distributed memory parallel computers", section 4.2
 * and Table 1 (valid partitions of N = 128: 8, 128, 2144, 21527, 144055, 692693, 2560378 for k = 0..6). A partition
 * is a multiset of positive parts summing to N whose largest and smallest parts differ by at most k; every number of
 * parts from 1 to N counts. At k = 0 they are the divisors of N, at k = 1 there is exactly one per number of parts. */
#pragma once

#include <algorithm>
#include <type_traits>
#include <vector>

namespace jobsched::memory_constrained {

namespace detail {

/* Partitions with smallest part c are c + d_i for increments d_i in [0, k], at least one d_i = 0: enumerating, for
 * each c, the multisets of increments summing to N - h c counts every partition once. */
template <class Visit>
struct IncrementEnumeration {
  int smallest_part;
  std::vector<int> parts; // being built, non-increasing
  Visit& visit;

  /* Places `left` more parts whose increments are <= max_increment and sum to `extra`. The last part placed is the
   * smallest: its increment must be 0. */
  bool place(int left, int max_increment, int extra)
  {
    if (left == 0) return extra == 0 ? visit(static_cast<const std::vector<int>&>(parts)) : true;
    // Every remaining part gets an increment <= max_increment and the last one 0.
    if (extra > static_cast<long long>(left - 1) * max_increment) return true;
    for (int d = std::min(max_increment, extra); d >= 0; d--) {
      if (left == 1 && d != 0) continue;
      parts.push_back(smallest_part + d);
      bool go_on = place(left - 1, d, extra - d);
      parts.pop_back();
      if (!go_on) return false;
    }
    return true;
  }
};

} // namespace detail

/* Calls visit(parts) for every partition of `nodes` into exactly `part_count` parts within k of each other, parts in
 * non-increasing order. Order: the smallest part from the largest possible down (the most even partition first),
 * then larger parts first. visit returns false to stop the enumeration; for_each_partition then returns false. A
 * template rather than a std::function: OPT-EPOCH's search calls it for every part count of every remaining set. */
template <class Visit>
bool for_each_partition(int nodes, int k, int part_count, Visit&& visit)
{
  if (nodes < 1 || k < 0 || part_count < 1 || part_count > nodes) return true;
  // h parts of at least c and at most c + k: h c <= N <= h (c + k).
  int largest_smallest = nodes / part_count;
  int lowest_smallest = std::max(1, (nodes + part_count - 1) / part_count - k);
  for (int c = largest_smallest; c >= lowest_smallest; c--) {
    detail::IncrementEnumeration<std::remove_reference_t<Visit>> e{c, {}, visit};
    e.parts.reserve(static_cast<size_t>(part_count));
    if (!e.place(part_count, k, nodes - part_count * c)) return false;
  }
  return true;
}

/* The number of partitions of `nodes` within k, over every number of parts (Table 1), by enumeration. */
long long count_partitions(int nodes, int k);

} // namespace jobsched::memory_constrained
