/* What an Expansion round of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems"
 * (sections 4.3 and 4.4.2) reads of the map, and the column search shared by its turns: the round's scan (MapScan:
 * the free entries as bit rows, every job's slices), each architecture's processors as a mask, the free rows shared
 * by the jobs of the same architectures (SharedRows, SharedPick, shared_column_search), and the bounds on a job's
 * turnaround that let a turn stop before MTAT and Compression (least_shared_turnaround, bound_reaches,
 * gains_nothing). Internal to the event handlers (events.hpp). */
#pragma once

#include "policies/gang_now/map_edits.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace jobsched::gang_now {

/* What the column search of every job of one set of architectures reads alike in an Expansion round
 * (SchedulerOptions::shared_search): the map's free rows on those architectures' processors (`mask`), F_i for slice
 * i, as their distinct values (a map has few: most slices have no free entry at all), and each processor's capacity in
 * whole units of 1 / denominator. Built from the round's scan when a job of those architectures first needs it. */
struct SharedRows {
  std::vector<std::uint64_t> mask;
  size_t words = 0;
  /* The mask's capacities in units (not `whole`: then the job's own search); a row's units are its count x unit when
   * they are `uniform`. Kept by the map's index from round to round. */
  std::shared_ptr<const MaskUnits> capacities;
  std::vector<std::uint64_t> rows;  // the distinct rows, `words` each, in the order of their first slice
  std::vector<long long> row_units; // per distinct row: its capacity
  std::vector<int> copies;          // per distinct row: the slices that have it
  std::vector<int> of_slice;        // per slice: its distinct row
  /* The slices by distinct row, increasing within each: distinct row d's are by_row[row_start[d]] up to (not
   * including) by_row[row_start[d + 1]] (two arrays filled in place, where a vector per row was an allocation per
   * distinct row at every build). */
  std::vector<int> by_row;
  std::vector<int> row_start;
  /* Scratch of the build kept with the rows (a round's MapScan keeps its SharedRows from build to build): the
   * distinct rows by hash, open addressing (-1: empty), and each distinct row's hash. */
  std::vector<int> table;
  std::vector<std::uint64_t> hashes;
  /* [x x distinct + y]: distinct row x within distinct row y (its free entries a subset), found once for the turns
   * that read these rows. */
  std::vector<char> contained;
  /* Per distinct row d: the slices whose row contains it (the copies of every row d is within), the width d has for a
   * job that holds none of them; a job's turn corrects it for the few rows it holds (shared_column_search). */
  std::vector<int> width_of;
  const std::uint64_t* row(size_t d) const { return rows.data() + d * words; }
};

/* The column search's pick for one job (shared_column_search below). */
struct SharedPick {
  Pattern pattern; // size; processors once add_pattern_processors is called, slices once add_pattern_slices is
  int width = 0;
  const std::uint64_t* row = nullptr; // the pattern's processors as bits (job_row); nullptr: no pattern
  long long processor_count = 0;
  /* The job's distinct rows with its entries (2d + 1), `words` each at their place among 2 x distinct rows, written
   * for the distinct rows of the slices it holds only; a row 2d is the shared row d itself (job_row). */
  std::vector<std::uint64_t> rows;
  std::vector<int> count; // per job row: the slices that have it
  /* Per job row: its first slice, and its capacity in units (the search's own, kept here with the rest so that a
   * round's turns reuse the storage: MapScan::pick). */
  std::vector<size_t> first;
  std::vector<long long> units;
  std::vector<size_t> held_rows; // the distinct rows of the slices the job holds
};

/* Free entries laid out as FreeRows, read where they are (the map's index's or a scan's rows). */
struct FreeView {
  const std::uint64_t* bits = nullptr;
  size_t slices = 0;
  size_t processors = 0;
  size_t words = 0;
  bool row_empty(size_t slice) const
  {
    for (size_t w = 0; w < words; w++)
      if (bits[slice * words + w] != 0) return false;
    return true;
  }
};

/* The map as an Expansion round reads it, from one pass over its entries: the free entries as bit rows, their count,
 * and every job's slices. Built at the start of a round and again after a turn that changed the map (or brought up to
 * date by the turn itself, MapScan::current). */
struct MapScan {
  /* The free entries the round reads: the map's index's own rows when it has an index (between turns the scan is the
   * index: a copy of every row at each round was 4.8% of 100 jobs on 10,000 hosts), else `scanned`. */
  FreeView free;
  FreeRows scanned{0, 0};
  long long free_entries = 0;
  /* Per job of the map, by its place in the queue (`place`: job id -> place, -1 for ids not in the queue). Found
   * from the entries only (a scan of a map with an index reads each job's slices from it: held()). */
  PlaceById place;
  std::vector<std::vector<int>> slices_of;
  /* The slices come from the map's index (JobRecord::held_slices, which the handlers keep as the entries are written)
   * instead of slices_of: a copy of every job's list at each round was 1.2% of a whole-KTH run. */
  bool from_index = false;
  /* The slices of the job at `place`, increasing. */
  const std::vector<int>& held(const AllocationMap& map, size_t place) const
  {
    return from_index ? map.jobs[place].held_slices : slices_of[place];
  }
  /* Set by a turn that moved its job and brought the scan up to date with the map itself. */
  bool current = false;
  /* The column search's shared rows (SharedRows above), per set of architectures met in the round since the scan:
   * the first `shared_count` of `shared` (the others are kept for their storage, built again when needed). */
  std::vector<SharedRows> shared;
  size_t shared_count = 0;
  /* The last turn's architectures (those of its job's VPs) and their processors as bits (the round keeps the
   * processors), with the place in `shared` of their rows (-1: not found since `shared` was last cleared): the next
   * job of the same architectures reads them without building and comparing its mask again. */
  bool has_mask = false;
  std::vector<std::string> mask_archs;
  std::vector<std::uint64_t> mask;
  long shared_of_mask = -1;
  /* What gains_nothing reads: the capacities of the mask's processors in units (kept with the mask; null: not looked
   * up since it changed) and their count, and each slice's free entries on the mask (`mask_free_found`: since the
   * scan and the mask last changed). */
  std::shared_ptr<const MaskUnits> mask_capacities;
  long long mask_processors = 0;
  std::vector<long long> mask_free;
  bool mask_free_found = false;
  /* A turn's scratch, kept for its storage from turn to turn: the column search's pick, the job's own entries on
   * the mask, and the slices a moving job held (held() follows the map's index as the move is written). */
  SharedPick pick;
  std::vector<std::uint64_t> mine;
  std::vector<int> left_slices;
};

/* Declared with the map's index (MapIndex::round_scan), which keeps it from round to round. */
struct RoundScan {
  MapScan scan;
};

/* Each architecture's processors as a bit mask over the map's processors (an Expansion round keeps the processors). */
using ArchMasks = std::map<std::string, std::vector<std::uint64_t>>;

ArchMasks arch_masks(const AllocationMap& map);

/* The scan's free entries read from the map's index, where its handlers keep them. */
void point_at_index(const AllocationMap& map, MapScan& scan);

/* `scan.place` is the queue's (kept by the round, whose jobs keep their places); the rest is found again: from the
 * map's index when it has one (unless `from_entries`: the check of the index), else from every entry. */
void scan_map(const AllocationMap& map, MapScan& scan, bool from_entries = false);

/* Expansion's search on the entries a job may use (`free`: set on processors of its architectures only). */
Pattern search_free_rows(const AllocationMap& map, const FreeRows& free, const std::vector<size_t>& usable,
                         const SchedulerOptions& options);

/* The shared rows of `mask`, the processors of architectures `archs`, from the round's scan (`free`), its
 * capacities in units from the map's index when it has them (checked with `validate`). */
void build_shared_rows(AllocationMap& map, const FreeView& free, const std::vector<std::string>& archs,
                       const std::vector<std::uint64_t>& mask, SharedRows& out, bool validate);

/* The column search's pattern (column_search: the first largest) for a job holding `held` (increasing) whose own
 * entries are `own` (bits, on the mask's processors), from the shared rows. The job's row of slice j is F_j, or F_j
 * with its own entries where it holds j, so its distinct rows are, for each distinct shared row d, d (in the slices
 * with d it does not hold) and d with its entries (in those it holds): at most twice as many, each a candidate at its
 * first slice, its width the slices whose row contains it. The pattern's processors, size and width (its slice
 * count) are found here; its slices, which only a job that may move needs, by add_pattern_slices. `pick`'s storage is
 * reused from turn to turn.
 *
 * A job row 2d (not held) is contained in the rows of the slices of shared.width_of[d] but those the job holds, and
 * in the job's held rows that contain it: its width is corrected for the few distinct rows the job holds instead of
 * summed over every row (the same integers, in a pass of distinct x held rows instead of distinct squared). */
void shared_column_search(const SharedRows& shared, const std::vector<int>& held, const std::vector<std::uint64_t>& own,
                          SharedPick& pick);

/* The pattern's processors, from its row. */
void add_pattern_processors(const SharedRows& shared, SharedPick& pick);

/* The pattern's slices: those whose row (the job's) contains the pattern's processors (pick.row). */
void add_pattern_slices(const SharedRows& shared, const std::vector<int>& held, SharedPick& pick);

/* The bound of the overload below, from k processors of which the first has capacity a (`equal`: all of them). */
Rational least_shared_turnaround(const JobRecord& job, long long k, const Rational& a, bool equal, const Rational& size,
                                 int width);

/* Whether the bound above for a job of one architecture on k processors of capacity a over `width` slices,
 * ceil(n / k) / a / width, reaches now / held, compared as c x a.den x now.den x held >= now.num x a.num x width in
 * 128-bit integers (denominators are positive): the same order as in rationals without their three divisions and
 * gcds per turn. Empty when a product would not fit (then the rationals decide). */
std::optional<bool> bound_reaches(const JobRecord& job, long long k, const Rational& a, int width, const Rational& now,
                                  size_t held);

/* A lower bound of the time-shared turnaround any allocation of the job on `processors` over `width` slices has
 * (whatever MTAT and Compression do there; `size`: the processors' capacity times `width`): n VPs on processors of
 * capacity C take at least n / C (each n_i <= T a_i), so over w slices at least n / (C w). On k processors of one
 * capacity a (all of the job's one architecture), whole VPs take at least ceil(n / k) / a, the optimum itself. */
Rational least_shared_turnaround(const AllocationMap& map, const JobRecord& job, const std::vector<int>& processors,
                                 const Rational& size, int width);

/* The free rows `rows` (`slices` rows of `processors` bits, as FreeRows lays them out) on the processors of `mask`
 * only, and those processors, increasing, in `usable`: what a search of free space on a job's architectures starts
 * from (find_free_pattern on the map's index, expand_job on its round's scan). */
FreeRows rows_on_mask(const std::uint64_t* rows, size_t slices, size_t processors,
                      const std::vector<std::uint64_t>& mask, std::vector<size_t>& usable);

/* Whether the job's Expansion turn cannot move it (expand_job declines it whatever the search finds), decided from
 * counts alone: a job of one architecture whose processors (`scan.mask`) have one capacity a, with n VPs, at most
 * n_max on one processor (`now` = n_max / a) in h of the S slices. It moves only to a pattern whose turnaround per
 * slice is below n_max / (a h); a pattern of k processors of the mask over w slices gives at least ceil(n / k) /
 * (a w) (whole VPs on k processors, AllocationMap::turnaround). If w <= h, that is at least ceil(n / P), P the mask's
 * processors, over a h. If w > h, the pattern has a slice the job does not hold, where all its processors are free:
 * k <= F, the most free entries on the mask in such a slice, and w <= S: at least ceil(n / F) / (a S). So the turn
 * cannot gain when n_max <= ceil(n / P) and (F = 0 or n_max S <= ceil(n / F) h), in integers. On a uniform machine
 * this is the common case of a VP's exit (every job of one VP a processor in its slices, no other slice with room for
 * it), and it reads S counts instead of the rows of every slice (the shared rows and the job's search). False when
 * the map has no index (its capacities in units are the index's) or the job has several architectures. Used with the
 * column search only (the exhaustive one may refuse a map, InputError, which a skipped turn would not). */
bool gains_nothing(AllocationMap& map, const JobRecord& job, const std::vector<int>& held, const Rational& now,
                   MapScan& scan, bool validate);

} // namespace jobsched::gang_now
