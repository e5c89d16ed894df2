/* Partitions of N within k (McCann & Zahorjan 1994, section 4.2, Table 1); the enumeration is a template in the
 * header. */
#include "policies/memory_constrained/partitions.hpp"

namespace jobsched::memory_constrained {

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
