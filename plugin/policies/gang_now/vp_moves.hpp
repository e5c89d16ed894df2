/* The VP moves of an event of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems"
 * (section 4.4), net over the event, per job and architecture (the rule is in events.hpp): found from the event's
 * ChangeLog, and checked against those between the maps before and after it. Internal to the event handlers. */
#pragma once

#include "policies/gang_now/map_edits.hpp"

#include <vector>

namespace jobsched::gang_now {

/* The net moves of the event whose changes `log` noted, the map having had `old_processors` before it. With
 * options.validate, they must be those found from the two maps (`old_map`, the map before, when given). */
void record_moves(const std::vector<Processor>& old_processors, ChangeLog& log, EventResult& result,
                  const SchedulerOptions& options, const AllocationMap* old_map);
/* The same, the processors' rows given: rows[r] is the processor of row r (ChangeLog::row). */
void record_moves(const std::vector<const Processor*>& rows, ChangeLog& log, EventResult& result,
                  const SchedulerOptions& options, const AllocationMap* old_map);

} // namespace jobsched::gang_now
