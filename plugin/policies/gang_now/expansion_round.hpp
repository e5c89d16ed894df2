/* The Expansion round of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems"
 * (section 4.4.2), which new_processor, VP_exit, new_VP and processor_exit end with: the jobs in queue order, each
 * moved to the free space Expansion finds when that makes it strictly faster (the readings are in events.hpp).
 * Internal to the event handlers. */
#pragma once

#include "policies/gang_now/map_edits.hpp"

#include <set>

namespace jobsched::gang_now {

/* One round over the map's jobs but `excluded`, from the queue's next_job on: its placements, moved jobs and removed
 * slices in `result`, its changes noted in `log`. */
void expansion_round(AllocationMap& map, const std::set<JobId>& excluded, const SchedulerOptions& options,
                     EventResult& result, ChangeLog* log);

} // namespace jobsched::gang_now
