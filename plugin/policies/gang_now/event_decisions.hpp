/* What the scheduling events of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems"
 * (section 4.4) are decided with and what they decide: the options of the handlers (SchedulerOptions, the new-slice
 * rule) and an event's result (the new map, its VP moves, placements and expansions). The handlers are declared in
 * events.hpp (which describes the rules); their internal files (map_edits.hpp and those built on it) use these types
 * without depending on the handlers. */
#pragma once

#include "policies/gang_now/allocation_map.hpp"
#include "policies/gang_now/compression.hpp"
#include "policies/gang_now/expansion.hpp"

#include <optional>
#include <string>
#include <vector>

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
   * of emptied slices. new_processor and processor_exit follow it as the rows are added or shift (map_edits.hpp:
   * index_processor_added, index_processor_removed). The same decisions; off by default (the reference: every handler drops the index), the
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

} // namespace jobsched::gang_now
