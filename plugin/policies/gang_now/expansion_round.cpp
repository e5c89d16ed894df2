/* The Expansion round of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems"
 * (section 4.4.2): each job's turn (expand_job) and the round over the queue (expansion_round.hpp). */
#include "policies/gang_now/expansion_round.hpp"

#include "core/errors.hpp"
#include "core/word_members.hpp"
#include "policies/gang_now/placement.hpp"
#include "policies/gang_now/shared_rows.hpp"

#include <algorithm>
#include <memory>
#include <optional>

namespace jobsched::gang_now {

namespace {

/* The job's processors (`own`, set as bits) and its turnaround in one slice, max n_p / a_p, from its entries: those
 * of the first slice it holds (as AllocationMap::turnaround_of reads them), or the index's. */
void held_processors(const AllocationMap& map, const JobRecord& job, const std::vector<int>& held,
                     std::vector<std::uint64_t>& own, Rational& now, int& at_max)
{
  std::vector<std::pair<int, int>> scanned; // (processor, VPs) of its entries, by processor
  const std::vector<std::pair<int, int>>* entries = &job.held_entries;
  if (!map.index.built) {
    const auto& first = map.slices[static_cast<size_t>(held.front())];
    for (size_t p = 0; p < first.size(); p++)
      if (first[p].job == job.id) scanned.emplace_back(static_cast<int>(p), first[p].vps);
    entries = &scanned;
  }
  const size_t none = map.processors.size();
  size_t slowest = none; // the processor of the largest n_p / a_p (compared as whole numbers)
  int slowest_vps = 0;
  at_max = 0;
  for (const auto& [q, vps] : *entries) {
    const auto p = static_cast<size_t>(q);
    own[p / 64] |= std::uint64_t{1} << (p % 64);
    if (vps <= 0) continue;
    const Rational& a = map.processors[p].capacity;
    if (slowest == none) {
      slowest = p;
      slowest_vps = vps;
      at_max = 1;
      continue;
    }
    const Rational& b = map.processors[slowest].capacity;
    // n_p / a_p against n_q / a_q, capacities being positive fractions
    const __int128 mine = static_cast<__int128>(vps) * a.denominator() * b.numerator();
    const __int128 theirs = static_cast<__int128>(slowest_vps) * b.denominator() * a.numerator();
    if (mine > theirs) {
      slowest = p;
      slowest_vps = vps;
      at_max = 1;
    } else if (mine == theirs) {
      at_max++;
    }
  }
  now = Rational(0);
  if (slowest < none) now = Rational(slowest_vps) / map.processors[slowest].capacity;
}

/* One job's turn in an Expansion round, the job at `place` in the queue; true if it moved or was placed (false: the
 * map is unchanged). With shared_search, a move that removed no slice brings `scan` up to date itself
 * (MapScan::current). `scan`: the map's free entries (scan_map), from which the job's search rows are made
 * word by word (its own entries counting as free, as find_free_pattern has them). */
bool expand_job(AllocationMap& map, JobRecord& job, size_t place, const SchedulerOptions& options, EventResult& result,
                MapScan& scan, const ArchMasks& masks, ChangeLog* log)
{
  // Its slices (the scan follows a move only after their last use below; the index's, copied before the move).
  const std::vector<int>& held = scan.held(map, place);
  const JobId id = job.id;
  if (held.empty()) {
    if (!has_every_arch(map, job.vps)) return false;
    result.placements.push_back(place_job(map, job, options, log));
    return true;
  }
  // The processors of its architectures, as the last turn's when it had the same architectures.
  size_t archs = 0;
  bool same_archs = scan.has_mask;
  for (const auto& [arch, count] : job.vps)
    if (count > 0) {
      same_archs = same_archs && archs < scan.mask_archs.size() && scan.mask_archs[archs] == arch;
      archs++;
    }
  if (!same_archs || archs != scan.mask_archs.size()) {
    scan.mask.assign(scan.free.words, 0);
    scan.mask_archs.clear();
    for (const auto& [arch, count] : job.vps)
      if (count > 0) {
        scan.mask_archs.push_back(arch);
        if (auto it = masks.find(arch); it != masks.end())
          for (size_t w = 0; w < scan.mask.size(); w++)
            scan.mask[w] |= it->second[w];
      }
    scan.has_mask = true;
    scan.shared_of_mask = -1;
    scan.mask_capacities = nullptr;
    scan.mask_free_found = false;
  }
  const std::vector<std::uint64_t>& mask = scan.mask;
  // Its processors as bits, and its turnaround in one slice: found from its entries, which the index keeps (with the
  // two found, until they change: JobRecord::held_found).
  std::vector<std::uint64_t> found;
  const std::vector<std::uint64_t>* own = &job.held_bits;
  Rational now(0);
  if (!map.index.built || !job.held_found || options.validate) {
    found.assign(scan.free.words, 0);
    int at_max = 0;
    held_processors(map, job, held, found, now, at_max);
    if (map.index.built && job.held_found &&
        (found != job.held_bits || now != job.held_turnaround || at_max != job.held_at_max))
      throw PolicyError("gang scheduler: " + job_name(id) + "'s processors and turnaround kept from its last turn " +
                        "are not its entries'");
    if (map.index.built) {
      job.held_bits = found;
      job.held_turnaround = now;
      job.held_at_max = at_max;
      job.held_found = true;
    }
    own = &found;
  } else {
    now = job.held_turnaround;
  }
  // A turn that cannot gain declines without a search (with `validate`, it is taken and must not move).
  const bool gains_none =
      options.expansion == ExpansionSearch::column && gains_nothing(map, job, held, now, scan, options.validate);
  if (gains_none && !options.validate) return false;
  const SharedRows* shared = nullptr;
  if (options.shared_search && options.expansion == ExpansionSearch::column) {
    if (scan.shared_of_mask >= 0) {
      shared = &scan.shared[static_cast<size_t>(scan.shared_of_mask)];
    } else {
      for (size_t k = 0; k < scan.shared_count; k++)
        if (scan.shared[k].mask == mask) {
          shared = &scan.shared[k];
          scan.shared_of_mask = static_cast<long>(k);
        }
      if (!shared) {
        if (scan.shared_count == scan.shared.size()) scan.shared.emplace_back();
        SharedRows& built = scan.shared[scan.shared_count++];
        build_shared_rows(map, scan.free, scan.mask_archs, mask, built, options.validate);
        shared = &built;
        scan.shared_of_mask = static_cast<long>(scan.shared_count - 1);
      }
    }
    if (options.validate && shared->mask != mask)
      throw PolicyError("gang scheduler: the shared rows kept for " + job_name(id) + "'s architectures are not theirs");
    if (!shared->capacities->whole) shared = nullptr;
  }
  Pattern pattern;
  if (shared) {
    std::vector<std::uint64_t>& mine = scan.mine;
    mine.resize(scan.free.words);
    for (size_t w = 0; w < mine.size(); w++)
      mine[w] = (*own)[w] & mask[w];
    SharedPick& pick = scan.pick;
    shared_column_search(*shared, held, mine, pick);
    if (!pick.row) return false;
    // Time-shared turnarounds with the same slice count tau on both sides: T / slices held. On processors of one
    // capacity the bound needs only their count; else it reads each one's.
    Rational least(0);
    std::optional<bool> declines; // least >= now / held, decided in integers
    if (shared->capacities->uniform) {
      if (job.vps.size() == 1)
        declines = bound_reaches(job, pick.processor_count, shared->capacities->capacity, pick.width, now, held.size());
      if (!declines || options.validate)
        least = least_shared_turnaround(job, pick.processor_count, shared->capacities->capacity, true,
                                        pick.pattern.size, pick.width);
      if (options.validate) {
        add_pattern_processors(*shared, pick);
        if (least != least_shared_turnaround(map, job, pick.pattern.processors, pick.pattern.size, pick.width))
          throw PolicyError("gang scheduler: the bound on " + job_name(id) + "'s turnaround from the count differs");
        if (declines && *declines != (least >= now / Rational(static_cast<long long>(held.size()))))
          throw PolicyError("gang scheduler: the bound on " + job_name(id) + "'s turnaround, compared in integers, " +
                            "decides otherwise than in rationals");
      }
    } else {
      add_pattern_processors(*shared, pick);
      least = least_shared_turnaround(map, job, pick.pattern.processors, pick.pattern.size, pick.width);
    }
    if (declines ? *declines : least >= now / Rational(static_cast<long long>(held.size()))) return false;
    if (pick.pattern.processors.empty()) add_pattern_processors(*shared, pick);
    add_pattern_slices(*shared, held, pick);
    pattern = std::move(pick.pattern);
  } else {
    std::vector<size_t> usable;
    FreeRows free = rows_on_mask(scan.free.bits, scan.free.slices, scan.free.processors, mask, usable);
    for (int s : held)
      for (size_t w = 0; w < free.words; w++)
        free.bits[static_cast<size_t>(s) * free.words + w] |= (*own)[w] & mask[w];
    pattern = search_free_rows(map, free, usable, options);
  }
  if (pattern.empty()) return false;
  // Time-shared turnarounds with the same slice count tau on both sides: T / slices held.
  now /= Rational(static_cast<long long>(held.size()));
  if (options.shared_search && !shared &&
      least_shared_turnaround(map, job, pattern.processors, pattern.size, static_cast<int>(pattern.slices.size())) >=
          now)
    return false;
  auto a = allocate_on(map, job.vps, pattern.processors, options);
  if (!a) return false;
  Rational then = a->turnaround / Rational(static_cast<long long>(pattern.slices.size()));
  if (then >= now) return false;
  // The processors it left, for a scan of its own to follow the move (`own` may be the record's, changed below).
  std::vector<std::uint64_t> left;
  if (!scan.from_index) left = *own;
  // The slices it left (`held` may be the record's, changed below).
  const std::vector<int>& left_slices = scan.from_index ? (scan.left_slices = held) : held;
  rewrite_job(map, id, pattern.slices, a->vps, log, &left_slices);
  const int removed = remove_empty_slices(map);
  result.removed_slices += removed;
  if (removed == 0 && options.shared_search) { // the scan follows the move, without a pass over the map
    scan.shared_count = 0;
    scan.shared_of_mask = -1;
    scan.mask_free_found = false;
    if (scan.from_index) { // the index, which the scan reads, followed the move as it was written
      point_at_index(map, scan);
    } else {
      const size_t words = scan.free.words;
      // The processors it left (`left`), then those it took, as bits.
      std::vector<std::uint64_t> taken(words, 0);
      for (size_t p = 0; p < a->vps.size(); p++)
        if (a->vps[p] > 0) taken[p / 64] |= std::uint64_t{1} << (p % 64);
      for (int s : left_slices)
        for (size_t w = 0; w < words; w++) {
          std::uint64_t& row = scan.scanned.bits[static_cast<size_t>(s) * words + w];
          scan.free_entries += word_members(left[w] & ~row);
          row |= left[w];
        }
      for (int s : pattern.slices)
        for (size_t w = 0; w < words; w++) {
          std::uint64_t& row = scan.scanned.bits[static_cast<size_t>(s) * words + w];
          scan.free_entries -= word_members(taken[w] & row);
          row &= ~taken[w];
        }
      scan.slices_of[place] = pattern.slices;
    }
    scan.current = true;
  }
  if (gains_none)
    throw PolicyError("gang scheduler: " + job_name(id) + "'s Expansion turn was found unable to gain, and it moves");
  return true;
}

/* What a job's Expansion turn reads, as change counters: the slices, and the entries and processors of each of its
 * architectures (AllocationMap::slice_changes, arch_changes), written into `key` (its storage reused). */
void turn_inputs(const AllocationMap& map, const JobRecord& job, std::vector<std::uint64_t>& key)
{
  key.assign(1, map.slice_changes);
  for (const auto& [arch, count] : job.vps) {
    auto it = map.arch_changes.find(arch);
    key.push_back(it == map.arch_changes.end() ? 0 : it->second);
  }
}

} // namespace

void expansion_round(AllocationMap& map, const std::set<JobId>& excluded, const SchedulerOptions& options,
                     EventResult& result, ChangeLog* log)
{
  if (map.jobs.empty()) return;
  const size_t start = map.next_job % map.jobs.size();
  std::vector<JobId> order;
  for (size_t k = 0; k < map.jobs.size(); k++)
    order.push_back(map.jobs[(start + k) % map.jobs.size()].id);
  // The free entries, counted again only when a job's turn changed the map; every job's slices from one pass over
  // the map. A job's turn changes only its own entries, and adds a slice at the end if any: the others' slices stay
  // where they were unless an emptied slice was removed (then all are found again).
  // The scan keeps its storage from round to round (its shared rows, the turns' scratch) with the map's index, which
  // the round does not replace. Each round sets all it reads (scan_map, and the architectures of the last turn
  // forgotten: the processors may have changed since, or the last round was on a copy of the map).
  if (!map.index.round_scan) map.index.round_scan = std::make_shared<RoundScan>();
  const std::shared_ptr<RoundScan> kept = map.index.round_scan;
  MapScan& scan = kept->scan;
  scan.has_mask = false;
  if (!map.index.built || options.validate) { // the places by id, for a scan of the entries
    scan.place.assign(map.jobs);
  }
  scan_map(map, scan);
  ArchMasks built_masks;
  if (!map.index.built) built_masks = arch_masks(map);
  const ArchMasks& masks = map.index.built ? map.index.arch_masks : built_masks;
  // An Expansion round neither adds nor removes jobs: each one's record stays at its place in the queue.
  std::vector<std::uint64_t> inputs; // a turn's change counters (turn_inputs), its storage kept from turn to turn
  for (size_t k = 0; k < order.size(); k++) {
    const JobId id = order[k];
    if (excluded.count(id)) continue;
    const size_t place = (start + k) % map.jobs.size();
    JobRecord* job = &map.jobs[place];
    bool waiting = job && scan.held(map, place).empty();
    // "until no free entries remain": a waiting job may still take a new slice.
    if (!job || (!waiting && scan.free_entries == 0)) continue;
    // A placed job whose last turn left it in place, with nothing it reads changed since, stays again.
    inputs.clear();
    if (options.remember_declined && !waiting) {
      turn_inputs(map, *job, inputs);
      if (job->declined_at == inputs) {
        if (options.validate && expand_job(map, *job, place, options, result, scan, masks, log))
          throw PolicyError("gang scheduler: " + job_name(id) +
                            " was skipped by the Expansion round as unchanged, and its turn moves it");
        continue;
      }
    }
    scan.current = false;
    const bool moved = expand_job(map, *job, place, options, result, scan, masks, log);
    if (!moved && !inputs.empty()) job->declined_at = inputs; // (a copy into its storage: `inputs` is kept)
    if (moved) {
      result.expanded_jobs.push_back(id);
      if (!scan.current) {
        scan_map(map, scan);
      } else if (options.validate) { // the scan the move brought up to date must be the map's
        MapScan fresh;
        fresh.place = scan.place;
        scan_map(map, fresh, true);
        bool same_slices = true;
        for (size_t j = 0; j < map.jobs.size(); j++)
          same_slices = same_slices && fresh.slices_of[j] == scan.held(map, j);
        const size_t bits = scan.free.slices * scan.free.words;
        if (fresh.free.slices != scan.free.slices || fresh.free.words != scan.free.words ||
            !std::equal(fresh.free.bits, fresh.free.bits + bits, scan.free.bits) ||
            fresh.free_entries != scan.free_entries || !same_slices)
          throw PolicyError("gang scheduler: the Expansion round's scan, updated after " + job_name(id) +
                            "'s move, is not the map's");
      }
    }
  }
  map.next_job = (start + 1) % map.jobs.size();
}

} // namespace jobsched::gang_now
