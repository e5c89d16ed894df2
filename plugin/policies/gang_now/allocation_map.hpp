/* The allocation map of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems" (section 3,
 * Figure 1): processors x time slices, each entry free or held by one job with one or more of its VPs.
 *
 * Rules (checked by validate):
 *   - processors have unique names, positive capacities (relative to the slowest processor of the whole network,
 *     section 4.1) and an architecture; a job's VPs of architecture z sit only on processors of architecture z;
 *   - gang scheduling: all VPs of a job are in the same slice; a job in several slices has all its VPs in each
 *     (replicated, section 3). We also require its entries to be the same in every slice it holds (same processors,
 *     same counts): regular patterns give exactly that, and a VP then never moves between its slices;
 *   - several jobs may share a slice on disjoint processors; no slice is entirely free (an emptied slice is removed);
 *   - a job may hold no slice: it is waiting because some architecture it needs has no processor left (processor_exit
 *     of the last one); a new_processor of that architecture places it.
 * Slices rotate with a quantum and a context-switch cost; both belong to the runtime, not to this map.
 *
 * Turnarounds: a job's turnaround in one slice is T = max_i n_i / a_i (MTAT's measure: the time to finish if it had
 * the processors to itself). Holding w of the map's tau slices, it runs w / tau of the time, so its time-shared
 * turnaround is T tau / w. */
#pragma once

#include "model/job.hpp"
#include "policies/gang_now/mtat.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace jobsched::gang_now {

struct Processor {
  std::string name;
  Rational capacity{1};
  std::string arch = "any";
};

/* No job: a free entry. */
constexpr JobId kFreeEntry = -1;

struct Entry {
  JobId job = kFreeEntry;
  int vps = 0;
  bool free() const { return job == kFreeEntry; }
};

struct JobRecord {
  JobId id = 0;
  /* The job's VPs by architecture. */
  VpCounts vps;
  int total_vps() const;
  /* The Expansion round's memory (SchedulerOptions::remember_declined): the map's change counters
   * (AllocationMap::slice_changes, then arch_changes of each of the job's architectures, in the order of `vps`) when
   * its last turn left it where it was; empty when it has none. */
  std::vector<std::uint64_t> declined_at;
  /* The map's index (MapIndex, when built): the slices the job holds, increasing, and its entries in each (processor,
   * VPs), by processor (the same in every slice it holds, by the rules). */
  std::vector<int> held_slices;
  std::vector<std::pair<int, int>> held_entries;
  /* Found from held_entries by the job's Expansion turn and kept until they change (`held_found` false): its
   * processors as bits and its turnaround in one slice, max n_p / a_p, with the count of its entries that reach it
   * (so a VP_exit elsewhere, or where another entry reaches it too, keeps them). */
  bool held_found = false;
  std::vector<std::uint64_t> held_bits;
  Rational held_turnaround{0};
  int held_at_max = 0;
};

/* The capacities of a set of processors in whole units of 1 / denominator (the Expansion round's column search adds
 * and compares them in integers, events.cpp); `whole` false when the denominator would exceed 10^9 or a unit 2^40. */
struct MaskUnits {
  bool whole = true;
  long long denominator = 1;
  std::vector<long long> units; // per processor of the map (0 outside the set)
  /* Every processor of the set has one capacity (`capacity`, `unit` units). */
  bool uniform = false;
  Rational capacity{0};
  long long unit = 0;
  bool operator==(const MaskUnits& o) const
  {
    return whole == o.whole && denominator == o.denominator && units == o.units && uniform == o.uniform &&
           capacity == o.capacity && unit == o.unit;
  }
};

/* An Expansion round's scan of the map (events.cpp). */
struct RoundScan;

/* What the event handlers would otherwise find by passes over every entry of the map (SchedulerOptions::indexed),
 * kept up to date by them event by event: each slice's free entries as bits and its count of held entries, the free
 * entries in all, each architecture's processors as bits, each processor's row by name, and (in JobRecord) each
 * job's slices and entries. A map read or written by hand has none (`built` false): a handler builds it from the
 * entries (build_index); new_processor and processor_exit follow it as the rows are added or shift. */
struct MapIndex {
  bool built = false;
  size_t words = 0; // per slice: (processors + 63) / 64
  /* Slice s's free entries: processor p is bit p % 64 of word s x words + p / 64 (as FreeRows). */
  std::vector<std::uint64_t> free;
  std::vector<int> held; // per slice: its entries held by a job
  long long free_entries = 0;
  std::map<std::string, std::vector<std::uint64_t>> arch_masks; // `words` words each
  /* (hash of its name, index) per processor, in increasing order: a name's row is found by binary search, then
   * compared (AllocationMap::row_of); no copy of the names, which a map of networks whose owners come and go would
   * make at every one of their events. */
  std::vector<std::pair<std::size_t, int>> rows;
  /* The capacities in units of each set of processors an Expansion round met, by their architectures (the union of
   * their arch_masks: the processors, and so the masks, being the same until the index is built again; a key of a
   * few names where the masks were 157 words each on 10,000 processors, compared at every lookup). */
  std::map<std::vector<std::string>, std::shared_ptr<const MaskUnits>> mask_units;
  /* The Expansion round's scan, kept with its storage from round to round (a scan built and freed at every departure
   * allocated its rows and scratch anew); copies of the map share it, each round setting all it reads. */
  std::shared_ptr<RoundScan> round_scan;
};

struct AllocationMap {
  std::vector<Processor> processors;
  /* slices[s][p]: processor p in slice s; every slice has processors.size() entries. */
  std::vector<std::vector<Entry>> slices;
  /* The jobs in their queue order (section 4.4.2: visited round-robin), waiting ones included. */
  std::vector<JobRecord> jobs;
  /* Index into `jobs` of the job the next Expansion round starts from. */
  size_t next_job = 0;
  /* Change counters kept by the event handlers (events.cpp): slices added or removed, and per architecture, any entry
   * of a processor of that architecture changed or such a processor added or removed. A job's Expansion turn reads
   * only the slices and the entries of its architectures' processors, so while these counters stand still its turn
   * decides the same. */
  std::uint64_t slice_changes = 0;
  std::map<std::string, std::uint64_t> arch_changes;
  /* Kept by the handlers when SchedulerOptions::indexed (MapIndex above); not part of the map's value. */
  MapIndex index;

  /* Index of the processor called `name`, or -1. */
  int processor_index(const std::string& name) const;
  /* The same, from the index when it is built (MapIndex::rows). */
  int row_of(const std::string& name) const;
  /* The record of job `id`, or nullptr. */
  const JobRecord* job(JobId id) const;
  /* The slices job `id` holds, increasing (empty for a waiting job). */
  std::vector<int> slices_of(JobId id) const;
  /* The job's VPs on each processor, from the first slice it holds (the same in all, by the rules); all 0 for a
   * waiting job. */
  std::vector<int> allocation_of(JobId id) const;
  /* max n_i / a_i of the job's allocation (0 for a waiting job). */
  Rational turnaround_of(JobId id) const;
  /* turnaround_of x slices / slices held (0 for a waiting job). */
  Rational shared_turnaround_of(JobId id) const;
  std::vector<Rational> capacities() const;
  std::vector<std::string> archs() const;
  /* Free entries over all slices. */
  long long free_entries() const;
};

/* Every rule the map breaks, one sentence each; empty when it is valid. */
std::vector<std::string> validate(const AllocationMap& map);

/* The map's index (MapIndex and the jobs' held_slices and held_entries) built from its entries. */
void build_index(AllocationMap& map);
/* Where the map's index differs from the one its entries give (build_index), one sentence each; empty when it is
 * the same (or not built). */
std::vector<std::string> index_problems(const AllocationMap& map);

} // namespace jobsched::gang_now
