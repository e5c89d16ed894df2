/* Partitions of N nodes into epoch widths that differ by at most k: the epochs OPT-EPOCH(k) may use.
 *
 * McCann & Zahorjan 1994, "Scheduling memory constrained jobs on distributed memory parallel computers", section 4.2
 * and Table 1 (valid partitions of N = 128: 8, 128, 2144, 21527, 144055, 692693, 2560378 for k = 0..6). A partition
 * is a multiset of positive parts summing to N whose largest and smallest parts differ by at most k; every number of
 * parts from 1 to N counts. At k = 0 they are the divisors of N, at k = 1 there is exactly one per number of parts. */
#pragma once

#include <functional>
#include <vector>

namespace jobsched::memory_constrained {

/* Calls visit(parts) for every partition of `nodes` into exactly `part_count` parts within k of each other, parts in
 * non-increasing order. Order: the smallest part from the largest possible down (the most even partition first),
 * then larger parts first. visit returns false to stop the enumeration; for_each_partition then returns false. */
bool for_each_partition(int nodes, int k, int part_count, const std::function<bool(const std::vector<int>&)>& visit);

/* The number of partitions of `nodes` within k, over every number of parts (Table 1), by enumeration. */
long long count_partitions(int nodes, int k);

} // namespace jobsched::memory_constrained
