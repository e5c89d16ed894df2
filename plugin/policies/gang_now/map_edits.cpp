/* The allocation map's edits in the scheduling events of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous
 * Distributed Systems" (section 4.4), with the map's index and the event's ChangeLog following them (map_edits.hpp). */
#include "policies/gang_now/map_edits.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <functional>

namespace jobsched::gang_now {

std::string job_name(JobId id)
{
  return "job " + std::to_string(id);
}

size_t queue_position(const AllocationMap& map, JobId id)
{
  for (size_t k = 0; k < map.jobs.size(); k++)
    if (map.jobs[k].id == id) return k;
  throw InputError("no " + job_name(id) + " in the allocation map");
}

void processor_changed(AllocationMap& map, size_t p)
{
  map.arch_changes[map.processors[p].arch]++;
}

namespace {

JobRecord* record_of(AllocationMap& map, JobId id)
{
  for (auto& j : map.jobs)
    if (j.id == id) return &j;
  return nullptr;
}

/* The index follows entry (s, p) becoming taken. */
void index_taken(MapIndex& index, size_t s, size_t p)
{
  std::uint64_t& word = index.free[s * index.words + p / 64];
  const std::uint64_t bit = std::uint64_t{1} << (p % 64);
  if ((word & bit) == 0) return;
  word &= ~bit;
  index.held[s]++;
  index.free_entries--;
}

} // namespace

void check_index(const AllocationMap& map, const char* when)
{
  auto problems = index_problems(map);
  if (!problems.empty())
    throw PolicyError(std::string("gang scheduler: the allocation map's index ") + when +
                      " the event is not its entries: " + problems.front());
}

void prepare_index(AllocationMap& map, const SchedulerOptions& options)
{
  if (!options.indexed) {
    map.index.built = false;
    return;
  }
  if (!map.index.built)
    build_index(map);
  else if (options.validate)
    check_index(map, "before");
}

void index_slice_added(AllocationMap& map)
{
  MapIndex& index = map.index;
  const size_t processors = map.processors.size();
  index.free.resize(index.free.size() + index.words, 0);
  std::uint64_t* row = index.free.data() + index.free.size() - index.words;
  for (size_t p = 0; p < processors; p++)
    row[p / 64] |= std::uint64_t{1} << (p % 64);
  index.held.push_back(0);
  index.free_entries += static_cast<long long>(processors);
}

namespace {

/* Bit p taken out of the bit set of `from` (`old_words` words), the bits past it one lower, into `to` (`words` words;
 * `to` may be `from`: each word is written after the two it is made of were read). */
void remove_bit(const std::uint64_t* from, size_t old_words, std::uint64_t* to, size_t words, size_t p)
{
  const size_t at = p / 64;
  for (size_t w = 0; w < words; w++) {
    const std::uint64_t word = from[w];
    const std::uint64_t next = w + 1 < old_words ? from[w + 1] : 0;
    if (w < at) {
      to[w] = word;
      continue;
    }
    const std::uint64_t low = w == at ? (std::uint64_t{1} << (p % 64)) - 1 : 0; // the bits below p, kept
    to[w] = (word & low) | ((word >> 1) & ~low) | (next << 63);
  }
}

} // namespace

void index_processor_added(AllocationMap& map)
{
  MapIndex& index = map.index;
  const size_t processors = map.processors.size();
  const size_t p = processors - 1;
  const size_t slices = map.slices.size();
  const size_t words = (processors + 63) / 64;
  if (words != index.words) { // a word more per row: every row moved to its new place, from the last
    index.free.resize(slices * words, 0);
    for (size_t s = slices; s-- > 0;)
      for (size_t w = words; w-- > 0;)
        index.free[s * words + w] = w < index.words ? index.free[s * index.words + w] : 0;
    for (auto& [arch, mask] : index.arch_masks)
      mask.resize(words, 0);
    for (auto& job : map.jobs)
      if (job.held_found) job.held_bits.resize(words, 0);
    index.words = words;
  }
  const std::uint64_t bit = std::uint64_t{1} << (p % 64);
  for (size_t s = 0; s < slices; s++)
    index.free[s * words + p / 64] |= bit;
  index.free_entries += static_cast<long long>(slices);
  auto& mask = index.arch_masks[map.processors[p].arch];
  mask.resize(words, 0);
  mask[p / 64] |= bit;
  const std::pair<std::size_t, int> row(std::hash<std::string>{}(map.processors[p].name), static_cast<int>(p));
  index.rows.insert(std::lower_bound(index.rows.begin(), index.rows.end(), row), row);
  // Units per processor of the map: found again for the new list of processors.
  index.mask_units.clear();
}

void index_processor_removed(AllocationMap& map, size_t p, const std::string& arch)
{
  MapIndex& index = map.index;
  const size_t old_words = index.words;
  const size_t words = (map.processors.size() + 63) / 64;
  const size_t slices = map.slices.size();
  const std::uint64_t bit = std::uint64_t{1} << (p % 64);
  for (size_t s = 0; s < slices; s++) {
    std::uint64_t* row = index.free.data() + s * old_words;
    if ((row[p / 64] & bit) != 0)
      index.free_entries--;
    else
      index.held[s]--;
    remove_bit(row, old_words, index.free.data() + s * words, words, p);
  }
  index.free.resize(slices * words);
  for (auto it = index.arch_masks.begin(); it != index.arch_masks.end();) {
    std::vector<std::uint64_t>& mask = it->second;
    remove_bit(mask.data(), old_words, mask.data(), words, p);
    mask.resize(words);
    if (it->first == arch && std::all_of(mask.begin(), mask.end(), [](std::uint64_t w) { return w == 0; }))
      it = index.arch_masks.erase(it); // its last processor: no mask, as build_index has it
    else
      ++it;
  }
  const int gone = static_cast<int>(p);
  index.rows.erase(std::remove_if(index.rows.begin(), index.rows.end(),
                                  [gone](const std::pair<std::size_t, int>& r) { return r.second == gone; }),
                   index.rows.end());
  for (auto& r : index.rows) // (the order by hash, then index, stays)
    if (r.second > gone) r.second--;
  for (auto& job : map.jobs) {
    auto& entries = job.held_entries;
    const auto on = std::lower_bound(entries.begin(), entries.end(), std::make_pair(gone, 0));
    bool had = on != entries.end() && on->first == gone;
    for (auto e = on; e != entries.end(); ++e)
      e->first--;
    if (had) {
      entries.erase(on);
      job.held_found = false; // its processors and turnaround change: found again at its next turn
    } else if (job.held_found) {
      remove_bit(job.held_bits.data(), old_words, job.held_bits.data(), words, p);
      job.held_bits.resize(words);
    }
  }
  index.mask_units.clear();
  index.words = words;
}

long long free_entries_of(const AllocationMap& map)
{
  return map.index.built ? map.index.free_entries : map.free_entries();
}

std::vector<int> held_slices_of(const AllocationMap& map, JobId id)
{
  if (!map.index.built) return map.slices_of(id);
  const JobRecord* record = map.job(id);
  return record ? record->held_slices : std::vector<int>{};
}

void clear_job(AllocationMap& map, JobId id, ChangeLog* log, const std::vector<int>* held)
{
  if (map.index.built) { // its slices and entries from the index: only those entries are read
    Holding before;
    if (JobRecord* record = record_of(map, id)) {
      if (log)
        for (const auto& [p, vps] : record->held_entries)
          if (vps > 0) before.emplace_back(log->row(static_cast<size_t>(p)), vps);
      for (int s : record->held_slices)
        for (const auto& [p, vps] : record->held_entries) {
          map.slices[static_cast<size_t>(s)][static_cast<size_t>(p)] = Entry{};
          index_freed(map.index, static_cast<size_t>(s), static_cast<size_t>(p));
        }
      if (!record->held_slices.empty())
        for (const auto& [p, vps] : record->held_entries)
          processor_changed(map, static_cast<size_t>(p));
      record->held_slices.clear();
      record->held_entries.clear();
      record->held_found = false;
    }
    if (log) log->of(id, std::move(before)).after.clear();
    return;
  }
  std::vector<size_t> columns; // the processors that held some of its entries, each once (marked)
  std::vector<char> marked(map.processors.size(), 0);
  Holding before;
  bool first = true; // its holding, read from the first slice holding it
  auto clear_slice = [&](std::vector<Entry>& slice) {
    bool found = false;
    for (const Entry& e : slice) // most slices do not hold it: one pass without a branch per entry first
      found |= e.job == id;
    if (!found) return;
    for (size_t p = 0; p < slice.size(); p++)
      if (slice[p].job == id) {
        if (first && log && slice[p].vps > 0) before.emplace_back(log->row(p), slice[p].vps);
        found = true;
        slice[p] = Entry{};
        if (!marked[p]) {
          marked[p] = 1;
          columns.push_back(p);
        }
      }
    first = first && !found;
  };
  if (held)
    for (int s : *held)
      clear_slice(map.slices[static_cast<size_t>(s)]);
  else
    for (auto& slice : map.slices)
      clear_slice(slice);
  for (size_t p : columns)
    processor_changed(map, p);
  if (log) log->of(id, std::move(before)).after.clear();
}

void write_job(AllocationMap& map, JobId id, const std::vector<int>& slices, const std::vector<int>& vps,
               ChangeLog* log)
{
  Holding after;
  for (size_t p = 0; p < vps.size(); p++)
    if (vps[p] > 0) {
      for (int s : slices)
        map.slices[static_cast<size_t>(s)][p] = Entry{id, vps[p]};
      if (!slices.empty()) {
        processor_changed(map, p);
        if (log) after.emplace_back(log->row(p), vps[p]);
      }
    }
  if (map.index.built && !slices.empty())
    if (JobRecord* record = record_of(map, id)) {
      record->held_entries.clear();
      record->held_found = false;
      for (size_t p = 0; p < vps.size(); p++)
        if (vps[p] > 0) {
          record->held_entries.emplace_back(static_cast<int>(p), vps[p]);
          for (int s : slices)
            index_taken(map.index, static_cast<size_t>(s), p);
        }
      record->held_slices.clear();
      if (!record->held_entries.empty()) record->held_slices = slices;
    }
  if (log) log->of(id, {}).after = std::move(after);
}

void rewrite_job(AllocationMap& map, JobId id, const std::vector<int>& slices, const std::vector<int>& vps,
                 ChangeLog* log, const std::vector<int>* held)
{
  JobRecord* record = map.index.built && !slices.empty() ? record_of(map, id) : nullptr;
  bool same_entries = record != nullptr && !record->held_slices.empty();
  if (same_entries) { // its entries as write_job would list them (processors increasing, VPs > 0)
    size_t k = 0;
    for (size_t p = 0; p < vps.size() && same_entries; p++)
      if (vps[p] > 0)
        same_entries = k < record->held_entries.size() &&
                       record->held_entries[k++] == std::pair<int, int>(static_cast<int>(p), vps[p]);
    same_entries = same_entries && k == record->held_entries.size() && std::is_sorted(slices.begin(), slices.end());
  }
  if (!same_entries) {
    clear_job(map, id, log, held);
    write_job(map, id, slices, vps, log);
    return;
  }
  const std::vector<int>& left = record->held_slices; // increasing: write_job's callers pass increasing slices
  const auto set_slice = [&](int s, bool taken) {
    std::vector<Entry>& slice = map.slices[static_cast<size_t>(s)];
    for (const auto& [p, n] : record->held_entries) {
      slice[static_cast<size_t>(p)] = taken ? Entry{id, n} : Entry{};
      if (taken)
        index_taken(map.index, static_cast<size_t>(s), static_cast<size_t>(p));
      else
        index_freed(map.index, static_cast<size_t>(s), static_cast<size_t>(p));
    }
  };
  size_t a = 0;
  size_t b = 0;
  while (a < left.size() || b < slices.size()) { // both increasing: the slices in one list only
    if (b == slices.size() || (a < left.size() && left[a] < slices[b])) {
      set_slice(left[a++], false);
    } else if (a == left.size() || slices[b] < left[a]) {
      set_slice(slices[b++], true);
    } else {
      a++;
      b++;
    }
  }
  Holding holding;
  for (const auto& [p, n] : record->held_entries) {
    processor_changed(map, static_cast<size_t>(p)); // clear_job's count of changes
    processor_changed(map, static_cast<size_t>(p)); // and write_job's
    if (log) holding.emplace_back(log->row(static_cast<size_t>(p)), n);
  }
  record->held_found = false; // (as write_job leaves it)
  record->held_slices = slices;
  if (log) {
    Holding after = holding;
    log->of(id, std::move(holding)).after = std::move(after);
  }
}

int remove_empty_slices(AllocationMap& map)
{
  if (map.index.built) { // the slices whose count of held entries is 0, without reading their entries
    MapIndex& index = map.index;
    const size_t words = index.words;
    std::vector<int> shift(map.slices.size(), 0); // per slice kept: the slices removed before it
    size_t kept = 0;
    int removed = 0;
    for (size_t s = 0; s < map.slices.size(); s++) {
      if (index.held[s] == 0) {
        removed++;
        continue;
      }
      shift[s] = removed;
      if (kept != s) {
        map.slices[kept] = std::move(map.slices[s]);
        std::copy(index.free.begin() + static_cast<long>(s * words),
                  index.free.begin() + static_cast<long>((s + 1) * words),
                  index.free.begin() + static_cast<long>(kept * words));
        index.held[kept] = index.held[s];
      }
      kept++;
    }
    if (removed == 0) return 0;
    map.slices.resize(kept);
    index.free.resize(kept * words);
    index.held.resize(kept);
    index.free_entries -= static_cast<long long>(removed) * static_cast<long long>(map.processors.size());
    for (auto& job : map.jobs)
      for (int& s : job.held_slices)
        s -= shift[static_cast<size_t>(s)];
    map.slice_changes++;
    return removed;
  }
  size_t before = map.slices.size();
  map.slices.erase(std::remove_if(map.slices.begin(), map.slices.end(),
                                  [](const std::vector<Entry>& slice) {
                                    return std::all_of(slice.begin(), slice.end(),
                                                       [](const Entry& e) { return e.free(); });
                                  }),
                   map.slices.end());
  if (map.slices.size() != before) map.slice_changes++;
  return static_cast<int>(before - map.slices.size());
}

void remove_job_record(AllocationMap& map, JobId id)
{
  size_t k = queue_position(map, id);
  map.jobs.erase(map.jobs.begin() + static_cast<long>(k));
  if (k < map.next_job) map.next_job--;
  if (map.next_job >= map.jobs.size()) map.next_job = 0;
}

} // namespace jobsched::gang_now
