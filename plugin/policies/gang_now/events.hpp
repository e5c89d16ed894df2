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

#include "policies/gang_now/allocation_map.hpp"
#include "policies/gang_now/compression.hpp"
#include "policies/gang_now/expansion.hpp"

#include <optional>

namespace jobsched::gang_now {

enum class NewSliceRule { turnaround, time_share };

std::string new_slice_rule_name(NewSliceRule rule); // "turnaround", "time-share"
NewSliceRule parse_new_slice_rule(const std::string& name);

struct SchedulerOptions {
  AllocationOptions allocation;
  ExpansionSearch expansion = ExpansionSearch::column;
  int max_exhaustive_slices = kExhaustiveSlicesLimit;
  /* The exhaustive search on a map with more than max_exhaustive_slices slices holding free entries: false refuses
   * (InputError, the plan command), true uses the column search for that event (a run cannot stop there). */
  bool exhaustive_falls_back = false;
  NewSliceRule new_slice_rule = NewSliceRule::turnaround;
  /* Check the map (validate) before and after each event: on by default (the plan command's maps come from users);
   * the policy gang-now turns it off unless its parameter validate_map asks for it (the tests do), since a run's maps
   * are the handlers' own and the check walks every job's slices at every event. */
  bool validate = true;
  /* The Expansion round skips a placed job when nothing its turn reads changed since its last turn left it in place
   * (JobRecord::declined_at, AllocationMap's change counters): the same decisions, without searching again. Off by
   * default (maps written by hand carry no counters); the policy gang-now turns it on. With `validate` the skipped
   * turns are taken anyway and must not move the job. */
  bool remember_declined = false;
  /* The Expansion round's column search (ExpansionSearch::column) shares what every job's turn reads alike: the map's
   * free rows on the job's architectures, as their distinct values with their capacities, found once per round (and
   * again after a turn that changed the map) instead of once per job; a job's own rows differ only in the slices it
   * holds, so its candidates are derived from those. A turn stops before MTAT and Compression when the pattern found
   * cannot make the job faster: n VPs on processors of capacity C take at least n / C, so over the pattern's w slices
   * at least n / (C w) of time-shared turnaround (ceil(n / k) / (a w) on k processors of one capacity a). And after a
   * move that removed no slice the round updates its scan of the map instead of scanning it again (checked against a
   * new scan with `validate`). The same decisions; off by default (the reference), the policy gang-now turns it on,
   * and a unit test compares the two on random events. */
  bool shared_search = false;
  /* Keep the map's index (MapIndex: each slice's free entries and held count, each job's slices and entries) event by
   * event, so that an event reads what it changes instead of passing over every entry: the Expansion round's scan,
   * a job's turn (its first slice), a job's exit, VP_exit, the search of free space for a placement and the removal
   * of emptied slices. new_processor and processor_exit drop it (the rows shift; the next other event builds it
   * again from the entries). The same decisions; off by default (the reference: every handler drops the index), the
   * policy gang-now turns it on. With `validate` the index is checked against the entries before and after each
   * event. */
  bool indexed = false;
};

/* `vps` VPs of `job` whose images go from processor `from` to processor `to` (same architecture). */
struct VpMove {
  JobId job = 0;
  std::string from;
  std::string to;
  int vps = 0;
};

/* `vps` VPs of `job` on `processor`. */
struct VpCount {
  JobId job = 0;
  std::string processor;
  int vps = 0;
};

/* How a job was placed as a submission (a new job, a waiting one, or one that lost its place). */
struct PlacementDecision {
  JobId job = 0;
  /* T_min: MTAT on every processor of the job's architectures (what a new slice gives). */
  Rational new_slice_turnaround{0};
  /* The free space found by Expansion (empty if none). */
  Pattern pattern;
  /* T_free: MTAT on the pattern's processors; empty when there is no pattern or it lacks one of the job's
   * architectures. */
  std::optional<Rational> free_turnaround;
  bool uses_free_space = false;
  /* No processor of one of its architectures: the job holds no slice. */
  bool waits = false;
  /* The slices it got and its turnaround after Compression (per slice). */
  std::vector<int> slices;
  Rational turnaround{0};
};

struct EventResult {
  AllocationMap map;
  std::vector<VpMove> migrations;
  std::vector<VpCount> placed;
  std::vector<VpCount> suspended;
  /* Every job placed as a submission during the event, in order. */
  std::vector<PlacementDecision> placements;
  /* Jobs the Expansion round moved, in order. */
  std::vector<JobId> expanded_jobs;
  /* Slices removed because they became entirely free. */
  int removed_slices = 0;
};

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

/* The pattern Expansion finds for a job of `demand` VPs: the free entries on processors of its architectures, the
 * entries of job `as_free` (if not kFreeEntry) counting as free. */
Pattern find_free_pattern(const AllocationMap& map, const VpCounts& demand, JobId as_free,
                          const SchedulerOptions& options);

} // namespace jobsched::gang_now
