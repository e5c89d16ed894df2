/* The scheduling events of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems"
 * (section 4.4, Figures 2 and 6), as pure functions: an allocation map and an event in, the new map and the VP moves
 * out. The runtime executes the moves (and charges migration costs, which these decisions ignore, as the paper does).
 *
 * Building blocks: a job's allocation on a set of processors is MTAT then Compression (allocate_job); the free space
 * is searched by Expansion (find_pattern) on the entries the job may use (free ones, on processors of its
 * architectures).
 *
 * submit_job (4.4.1): T_min = MTAT on every processor of the job's architectures (a new slice); Expansion finds the
 *   largest regular pattern of free entries and T_free = MTAT on its processors. The job takes the pattern when the
 *   new-slice rule says so (below), else a new slice is appended; Compression runs on the choice. The job joins the
 *   end of the queue. A job with VPs of an architecture no processor has waits (no slice).
 * new_processor and VP_exit (4.4.2): the row is added (resp. the VP removed from its processor in every slice of its
 *   job; a job whose last VP exits leaves the map, as job_exit does), then an Expansion round.
 * new_VP and processor_exit (4.4.3): the affected jobs (the VP's job; the jobs with VPs on the processor, in queue
 *   order) get MTAT and Compression again on the processors "available" to them: those of their architectures that
 *   are free or theirs in every slice they hold (a job whose VPs were all on the leaving processor keeps its
 *   slices), so no other job is disturbed. A job that cannot be placed there (no
 *   such processor for one of its architectures) is placed again as a submission; if no processor of that
 *   architecture is left at all, it waits. If free entries then outnumber those before this step, an Expansion round
 *   runs over the other jobs.
 * Expansion round: the jobs in queue order, starting one place further at each round (fairness, 4.4.2), until every
 *   job was visited or no free entry remains. A waiting job is placed as a submission if it can be. Any other job
 *   gets Expansion on the map where its own entries count as free, then MTAT and Compression on the pattern's
 *   processors; it moves there (in all the pattern's slices) if that makes it strictly faster in time-shared terms
 *   (T / slices held, the map's slice count being the same). A slice emptied by a move is removed at once, so it is
 *   not mistaken for free space.
 *
 * New slice or free space (the paper states the rule twice, differently):
 *   - `turnaround` (the default; 4.4.1): take the pattern when T_free <= T_min, i.e. when the free processors alone
 *     give the job its best turnaround. Time sharing is ignored.
 *   - `time-share` (4.3): a new slice gives the job one slice of tau + 1 (tau: the slices before), the pattern w of
 *     tau; take the pattern when T_free tau / w <= T_min (tau + 1). The paper writes the new slice's turnaround
 *     "T_min / tau": we read it as a share of the time (1 / (tau + 1) of it), which is what makes the comparison with
 *     a pattern's width meaningful.
 *
 * Moves are net over the event, per job and architecture: processors that lost VPs give them, in processor order, to
 * processors that gained VPs, in processor order (the map's rows before the event, then new rows). VPs gained from
 * nowhere are `placed` (a new job, a new VP, a waiting job resuming); VPs lost to nowhere are `suspended` (their job
 * waits). A VP that changes slices on the same processor does not move. */
#pragma once

#include "policies/gang_now/event_decisions.hpp"

#include <string>

namespace jobsched::gang_now {

/* Each handler checks its map (validate, when options.validate) and its event, and throws InputError naming what is
 * wrong: an unknown or duplicate job or processor, a VP count <= 0, a VP_exit where the job has no VP. The map
 * returned is valid. */
EventResult submit_job(const AllocationMap& map, JobId job, const VpCounts& vps, const SchedulerOptions& options);
EventResult new_processor(const AllocationMap& map, const Processor& processor, const SchedulerOptions& options);
EventResult vp_exit(const AllocationMap& map, JobId job, const std::string& processor, const SchedulerOptions& options);
/* The whole job ends: VP_exit of all its VPs at once. */
EventResult job_exit(const AllocationMap& map, JobId job, const SchedulerOptions& options);
EventResult new_vp(const AllocationMap& map, JobId job, const std::string& arch, const SchedulerOptions& options);
/* The same events on a map the caller gives up (the policy's own, replaced by the result's): no copy of it is made. */
EventResult submit_job(AllocationMap&& map, JobId job, const VpCounts& vps, const SchedulerOptions& options);
EventResult vp_exit(AllocationMap&& map, JobId job, const std::string& processor, const SchedulerOptions& options);
EventResult job_exit(AllocationMap&& map, JobId job, const SchedulerOptions& options);
EventResult processor_exit(const AllocationMap& map, const std::string& processor, const SchedulerOptions& options);
EventResult new_processor(AllocationMap&& map, const Processor& processor, const SchedulerOptions& options);
EventResult processor_exit(AllocationMap&& map, const std::string& processor, const SchedulerOptions& options);

/* The pattern Expansion finds for a job of `demand` VPs: the free entries on processors of its architectures, the
 * entries of job `as_free` (if not kFreeEntry) counting as free. */
Pattern find_free_pattern(const AllocationMap& map, const VpCounts& demand, JobId as_free,
                          const SchedulerOptions& options);

} // namespace jobsched::gang_now
