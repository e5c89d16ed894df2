/* The allocation map's edits in the scheduling events of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous
 * Distributed Systems" (section 4.4): a job's entries cleared, written or rewritten, emptied slices removed, a job's
 * record taken out of the queue, each followed by the map's index (MapIndex) and the change counters, and noted in the
 * event's ChangeLog, from which its VP moves are found (vp_moves.hpp). Internal to the event handlers (events.hpp). */
#pragma once

#include "policies/gang_now/event_decisions.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace jobsched::gang_now {

std::string job_name(JobId id);
/* The job's place in the map's queue (InputError when it has none). */
size_t queue_position(const AllocationMap& map, JobId id);

/* Job -> (row, VPs) for every processor holding some of its VPs, by increasing row; jobs in increasing id order. A
 * row numbers a processor of the map before the event (its index there) or one the event added (after them). */
using Holding = std::vector<std::pair<int, int>>;
using Holdings = std::vector<std::pair<JobId, Holding>>;

/* Each job's place in the map's queue by its id: a vector indexed by id less the smallest (job numbers are mostly
 * dense: a hash map's look-up per run of a job's entries was a tenth of a whole-KTH run), or a hash map when the ids
 * spread far wider than the queue (a trace's job numbers may reach 2^53). */
class PlaceById {
 public:
  void assign(const std::vector<JobRecord>& jobs)
  {
    by_id_.clear();
    sparse_.clear();
    low_ = 0;
    dense_ = true;
    if (jobs.empty()) return;
    const auto [low, high] = std::minmax_element(jobs.begin(), jobs.end(),
                                                 [](const JobRecord& a, const JobRecord& b) { return a.id < b.id; });
    low_ = low->id;
    const auto span = static_cast<std::uint64_t>(high->id - low->id); // ids are at most 2^53: no overflow
    dense_ = span < 4 * jobs.size() + 64;
    if (dense_) by_id_.assign(static_cast<size_t>(span) + 1, -1);
    for (size_t k = 0; k < jobs.size(); k++) {
      if (dense_)
        by_id_[static_cast<size_t>(jobs[k].id - low_)] = static_cast<int>(k);
      else
        sparse_.emplace(jobs[k].id, static_cast<int>(k));
    }
  }
  /* The job's place, -1 for an id not in the queue. */
  int of(JobId id) const
  {
    if (dense_)
      return id >= low_ && id - low_ < static_cast<JobId>(by_id_.size()) ? by_id_[static_cast<size_t>(id - low_)] : -1;
    auto it = sparse_.find(id);
    return it == sparse_.end() ? -1 : it->second;
  }

 private:
  bool dense_ = true;
  JobId low_ = 0;
  std::vector<int> by_id_;
  std::unordered_map<JobId, int> sparse_;
};

/* The jobs whose entries an event changed, each with its holding (VPs per row) before its first change and after its
 * last, a job's allocation being the same in all the slices it holds: the moves are found from these instead of from
 * every job's holdings in the maps before and after. `rows` gives the row of each processor of the map as it is now.
 * Entries change only through clear_job, write_job and rewrite_job (and a processor_exit's column, whose jobs the
 * handler notes first), write_job writes a job that holds no entry, or one that clear_job cleared before, and
 * rewrite_job logs what clear_job and write_job would have. */
struct ChangeLog {
  struct Change {
    JobId job = 0;
    Holding before;
    Holding after;
  };
  /* The row before the event of processor p of the map after it: p itself, or p + 1 past a processor that left
   * (remove_row). Computed, not stored: an array of the rows was filled per event, 40 KB on 10,000 processors at
   * each VP's exit whatever it changed. */
  size_t removed = std::numeric_limits<size_t>::max(); // the row of the processor that left, if one did
  int row(size_t p) const { return static_cast<int>(p < removed ? p : p + 1); }
  void remove_row(size_t p) { removed = p; }
  std::vector<Change> changes; // in order of first change
  /* The job's change, with `before` as its holding when it is its first. */
  Change& of(JobId job, Holding before)
  {
    for (auto& c : changes)
      if (c.job == job) return c;
    changes.push_back(Change{job, std::move(before), {}});
    changes.back().after = changes.back().before;
    return changes.back();
  }
};

/* An entry of processor p changed, or p came or went: the turns of jobs of its architecture may decide otherwise. */
void processor_changed(AllocationMap& map, size_t p);

void check_index(const AllocationMap& map, const char* when);

/* The map's index for a handler (SchedulerOptions::indexed): built from the entries when the map has none, checked
 * against them with `validate`; dropped when the handler does not keep it (it would go stale). */
void prepare_index(AllocationMap& map, const SchedulerOptions& options);

/* The index follows entry (s, p) becoming free (inline: called per entry, from the event handlers too). */
inline void index_freed(MapIndex& index, size_t s, size_t p)
{
  std::uint64_t& word = index.free[s * index.words + p / 64];
  const std::uint64_t bit = std::uint64_t{1} << (p % 64);
  if ((word & bit) != 0) return;
  word |= bit;
  index.held[s]--;
  index.free_entries++;
}

/* The index follows a slice appended to the map, all free. */
void index_slice_added(AllocationMap& map);

/* The index follows a processor appended to the map (the last of map.processors, free in every slice): its free
 * entries, row and architecture's bits added, the rows of bits widened when it takes a word more. The jobs' entries
 * keep their rows. */
void index_processor_added(AllocationMap& map);
/* The index follows processor p leaving the map (map.processors and every slice already without it; `arch`: its
 * architecture): its entries dropped from the counts, the bits and rows past it one lower, each job's entries past it
 * one row lower (those on it dropped). The slices stay (a slice it emptied is removed by remove_empty_slices). Work in
 * words of bits per slice and entries per job, where building the index again read every entry. */
void index_processor_removed(AllocationMap& map, size_t p, const std::string& arch);

long long free_entries_of(const AllocationMap& map);
std::vector<int> held_slices_of(const AllocationMap& map, JobId id);

/* The job's entries cleared, and noted in `log` (if any). `held`: the slices it holds when the caller knows them
 * (nullptr: every slice is searched). */
void clear_job(AllocationMap& map, JobId id, ChangeLog* log, const std::vector<int>* held = nullptr);
/* The job's entries in `slices`: vps[p] VPs on processor p (none where vps[p] == 0); the job holds no entry before
 * (clear_job). Noted in `log`. */
void write_job(AllocationMap& map, JobId id, const std::vector<int>& slices, const std::vector<int>& vps,
               ChangeLog* log);
/* clear_job, then write_job of the job in `slices` with vps[p] VPs on processor p: the same map, index, record, change
 * counters and log. A job that keeps its entries (an Expansion turn that only widens it, the usual case) has only the
 * slices it leaves cleared and those it takes written, instead of every entry of both (each clears and writes the
 * whole of a job holding hundreds of slices). */
void rewrite_job(AllocationMap& map, JobId id, const std::vector<int>& slices, const std::vector<int>& vps,
                 ChangeLog* log, const std::vector<int>* held);
int remove_empty_slices(AllocationMap& map);
void remove_job_record(AllocationMap& map, JobId id);

} // namespace jobsched::gang_now
