/* Partitions of N within k (McCann & Zahorjan 1994, section 4.2, Table 1). A partition with smallest part c is
 * c + d_i for increments d_i in [0, k], at least one d_i = 0: enumerating, for each c, the multisets of increments
 * summing to N - h c counts every partition once. */
#include "policies/memory_constrained/partitions.hpp"

#include <algorithm>

namespace jobsched::memory_constrained {
namespace {

struct IncrementEnumeration {
  int smallest_part;
  int k;
  std::vector<int> parts; // being built, non-increasing
  const std::function<bool(const std::vector<int>&)>* visit;

  /* Places `left` more parts whose increments are <= max_increment and sum to `extra`. The last part placed is the
   * smallest: its increment must be 0. */
  bool place(int left, int max_increment, int extra)
  {
    if (left == 0) return extra == 0 ? (*visit)(parts) : true;
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

} // namespace

bool for_each_partition(int nodes, int k, int part_count, const std::function<bool(const std::vector<int>&)>& visit)
{
  if (nodes < 1 || k < 0 || part_count < 1 || part_count > nodes) return true;
  // h parts of at least c and at most c + k: h c <= N <= h (c + k).
  int largest_smallest = nodes / part_count;
  int lowest_smallest = std::max(1, (nodes + part_count - 1) / part_count - k);
  for (int c = largest_smallest; c >= lowest_smallest; c--) {
    IncrementEnumeration e{c, k, {}, &visit};
    e.parts.reserve(static_cast<size_t>(part_count));
    if (!e.place(part_count, k, nodes - part_count * c)) return false;
  }
  return true;
}

long long count_partitions(int nodes, int k)
{
  long long count = 0;
  auto one_more = [&count](const std::vector<int>&) {
    count++;
    return true;
  };
  for (int h = 1; h <= nodes; h++)
    for_each_partition(nodes, k, h, one_more);
  return count;
}

} // namespace jobsched::memory_constrained
