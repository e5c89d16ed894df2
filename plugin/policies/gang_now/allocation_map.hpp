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

#include "policies/gang_now/mtat.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace jobsched::gang_now {

struct Processor {
  std::string name;
  Rational capacity{1};
  std::string arch = "any";
};

/* No job: a free entry. */
constexpr int kFreeEntry = -1;

struct Entry {
  int job = kFreeEntry;
  int vps = 0;
  bool free() const { return job == kFreeEntry; }
};

struct JobRecord {
  int id = 0;
  /* The job's VPs by architecture. */
  VpCounts vps;
  int total_vps() const;
  /* The Expansion round's memory (SchedulerOptions::remember_declined): the map's change counters
   * (AllocationMap::slice_changes, then arch_changes of each of the job's architectures, in the order of `vps`) when
   * its last turn left it where it was; empty when it has none. */
  std::vector<std::uint64_t> declined_at;
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

  /* Index of the processor called `name`, or -1. */
  int processor_index(const std::string& name) const;
  /* The record of job `id`, or nullptr. */
  const JobRecord* job(int id) const;
  /* The slices job `id` holds, increasing (empty for a waiting job). */
  std::vector<int> slices_of(int id) const;
  /* The job's VPs on each processor, from the first slice it holds (the same in all, by the rules); all 0 for a
   * waiting job. */
  std::vector<int> allocation_of(int id) const;
  /* max n_i / a_i of the job's allocation (0 for a waiting job). */
  Rational turnaround_of(int id) const;
  /* turnaround_of x slices / slices held (0 for a waiting job). */
  Rational shared_turnaround_of(int id) const;
  std::vector<Rational> capacities() const;
  std::vector<std::string> archs() const;
  /* Free entries over all slices. */
  long long free_entries() const;
};

/* Every rule the map breaks, one sentence each; empty when it is valid. */
std::vector<std::string> validate(const AllocationMap& map);

} // namespace jobsched::gang_now
