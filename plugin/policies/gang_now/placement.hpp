/* A job's placement in the scheduling events of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous
 * Distributed Systems" (section 4.4): MTAT then Compression on a set of processors (allocate_on), a job placed as a
 * submission (4.4.1: a new slice or the free space Expansion finds), and an affected job placed again where it is
 * (4.4.3). Internal to the event handlers (events.hpp). */
#pragma once

#include "policies/gang_now/map_edits.hpp"

#include <optional>
#include <vector>

namespace jobsched::gang_now {

/* MTAT then Compression on the processors `subset` (indices), as an allocation over all the map's processors. */
std::optional<JobAllocation> allocate_on(const AllocationMap& map, const VpCounts& demand,
                                         const std::vector<int>& subset, const SchedulerOptions& options);

bool has_every_arch(const AllocationMap& map, const VpCounts& demand);

/* Section 4.4.1 for a job that holds no entry (new, waiting, or taken out to be placed again). */
PlacementDecision place_job(AllocationMap& map, const JobRecord& job, const SchedulerOptions& options, ChangeLog* log);

/* Section 4.4.3 for one affected job: MTAT and Compression on the processors available to it in the slices it held
 * (`held`, which the event may have left without any of its VPs). False, and the job's entries cleared, when those
 * processors cannot hold it: the caller places it again as a submission. */
bool reallocate_in_place(AllocationMap& map, JobId id, const std::vector<int>& held, const SchedulerOptions& options,
                         ChangeLog* log);

} // namespace jobsched::gang_now
