/* EQUI's max-min fair split (plugin/policies/time_sharing/equi.cpp), apart so that tests can compare it with the
 * rule it computes. */
#pragma once

#include <vector>

namespace jobsched {

/* Jobs i = 0..n-1 start at minimum[i] processors; `spare` more processors are handed out one at a time, each to the
 * job with the fewest (ties: the lowest i) among those below their maximum[i], until none is left or every job is at
 * its maximum. Returns each job's count. Computed by water-filling in O(n log n): the level t up to which every job
 * between its minimum and maximum is raised, then one more for the first jobs (in order) left at t. */
std::vector<int> max_min_fair_split(const std::vector<int>& minimum, const std::vector<int>& maximum, int spare);

} // namespace jobsched
