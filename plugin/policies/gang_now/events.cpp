/* Event handling, section 4.4 of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems":
 * job submission, new_processor, VP_exit, new_VP and processor_exit on the allocation map, built from MTAT,
 * Compression and Expansion. The readings of the paper are in events.hpp. */
#include "policies/gang_now/events.hpp"

#include "core/errors.hpp"
#include "core/fnv1a.hpp"
#include "core/word_members.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace jobsched::gang_now {

std::string new_slice_rule_name(NewSliceRule rule)
{
  return rule == NewSliceRule::turnaround ? "turnaround" : "time-share";
}

NewSliceRule parse_new_slice_rule(const std::string& name)
{
  if (name == "turnaround") return NewSliceRule::turnaround;
  if (name == "time-share") return NewSliceRule::time_share;
  throw InputError("unknown new-slice rule '" + name + "' (known: turnaround, time-share)");
}

namespace {

std::string job_name(JobId id)
{
  return "job " + std::to_string(id);
}

void check_map(const AllocationMap& map, const SchedulerOptions& options)
{
  if (!options.validate) return;
  auto problems = validate(map);
  if (!problems.empty())
    throw InputError("invalid allocation map: " + problems.front() +
                     (problems.size() > 1 ? " (and " + std::to_string(problems.size() - 1) + " more problems)" : ""));
}

bool uses_arch(const VpCounts& demand, const std::string& arch)
{
  auto it = demand.find(arch);
  return it != demand.end() && it->second > 0;
}

size_t queue_position(const AllocationMap& map, JobId id)
{
  for (size_t k = 0; k < map.jobs.size(); k++)
    if (map.jobs[k].id == id) return k;
  throw InputError("no " + job_name(id) + " in the allocation map");
}

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
void processor_changed(AllocationMap& map, size_t p)
{
  map.arch_changes[map.processors[p].arch]++;
}

JobRecord* record_of(AllocationMap& map, JobId id)
{
  for (auto& j : map.jobs)
    if (j.id == id) return &j;
  return nullptr;
}

void check_index(const AllocationMap& map, const char* when)
{
  auto problems = index_problems(map);
  if (!problems.empty())
    throw PolicyError(std::string("gang scheduler: the allocation map's index ") + when +
                      " the event is not its entries: " + problems.front());
}

/* The map's index for a handler (SchedulerOptions::indexed): built from the entries when the map has none, checked
 * against them with `validate`; dropped when the handler does not keep it (it would go stale). */
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

/* The index follows entry (s, p) becoming free, or taken. */
void index_freed(MapIndex& index, size_t s, size_t p)
{
  std::uint64_t& word = index.free[s * index.words + p / 64];
  const std::uint64_t bit = std::uint64_t{1} << (p % 64);
  if ((word & bit) != 0) return;
  word |= bit;
  index.held[s]--;
  index.free_entries++;
}

void index_taken(MapIndex& index, size_t s, size_t p)
{
  std::uint64_t& word = index.free[s * index.words + p / 64];
  const std::uint64_t bit = std::uint64_t{1} << (p % 64);
  if ((word & bit) == 0) return;
  word &= ~bit;
  index.held[s]++;
  index.free_entries--;
}

/* The index follows a slice appended to the map, all free. */
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

/* The job's entries cleared, and noted in `log` (if any). `held`: the slices it holds when the caller knows them
 * (nullptr: every slice is searched). */
void clear_job(AllocationMap& map, JobId id, ChangeLog* log, const std::vector<int>* held = nullptr)
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

/* The job's entries in `slices`: vps[p] VPs on processor p (none where vps[p] == 0); the job holds no entry before
 * (clear_job). Noted in `log`. */
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

/* clear_job, then write_job of the job in `slices` with vps[p] VPs on processor p: the same map, index, record, change
 * counters and log. A job that keeps its entries (an Expansion turn that only widens it, the usual case) has only the
 * slices it leaves cleared and those it takes written, instead of every entry of both (each clears and writes the
 * whole of a job holding hundreds of slices). */
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

/* MTAT then Compression on the processors `subset` (indices), as an allocation over all the map's processors. */
std::optional<JobAllocation> allocate_on(const AllocationMap& map, const VpCounts& demand,
                                         const std::vector<int>& subset, const SchedulerOptions& options)
{
  std::optional<JobAllocation> local;
  const bool one_pool = demand.size() == 1 && demand.begin()->second > 0 && !subset.empty() &&
                        std::all_of(subset.begin(), subset.end(), [&](int p) {
                          return map.processors[static_cast<size_t>(p)].arch == demand.begin()->first;
                        });
  const Rational* equal = nullptr; // the subset's one capacity, if it has one
  if (one_pool) {
    equal = &map.processors[static_cast<size_t>(subset.front())].capacity;
    for (int p : subset)
      if (!(map.processors[static_cast<size_t>(p)].capacity == *equal)) {
        equal = nullptr;
        break;
      }
  }
  std::optional<JobAllocation> closed_form;
  if (equal != nullptr && options.allocation.mtat == MtatVariant::optimal &&
      options.allocation.compression == CompressionVariant::exact) {
    // Processors of one capacity (a homogeneous cluster's every subset): the same allocation in closed form, without
    // a rational per processor (MTAT and Compression in rationals were a tenth of the KTH log's run).
    const auto& [arch, count] = *demand.begin();
    closed_form = allocate_on_equal_capacities(arch, count, subset.size(), *equal);
  }
  if (closed_form && !options.validate) {
    local = std::move(closed_form);
  } else { // (with `validate`, also beside the closed form, which must be equal)
    std::vector<Rational> capacities;
    capacities.reserve(subset.size());
    for (int p : subset)
      capacities.push_back(map.processors[static_cast<size_t>(p)].capacity);
    if (one_pool) {
      // The job's one architecture is every given processor's (the subsets the handlers pass): allocate_job's one
      // pool is the whole subset and its calls come down to these two, without the per-processor architecture names.
      const auto& [arch, count] = *demand.begin();
      MtatResult m = mtat(count, capacities, options.allocation.mtat);
      CompressionResult c = compress(m.vps, capacities, m.turnaround, options.allocation.compression);
      local.emplace();
      local->mtat.vps = std::move(m.vps);
      local->mtat.pool_turnarounds[arch] = m.turnaround;
      local->mtat.turnaround = std::max(Rational(0), m.turnaround);
      local->vps = std::move(c.vps);
      local->turnaround = c.turnaround;
    } else {
      std::vector<std::string> archs;
      for (int p : subset)
        archs.push_back(map.processors[static_cast<size_t>(p)].arch);
      local = allocate_job(demand, capacities, archs, options.allocation);
    }
    if (closed_form) {
      if (!local || closed_form->vps != local->vps || closed_form->turnaround != local->turnaround ||
          closed_form->mtat.vps != local->mtat.vps || closed_form->mtat.turnaround != local->mtat.turnaround ||
          closed_form->mtat.pool_turnarounds != local->mtat.pool_turnarounds)
        throw PolicyError("gang scheduler: MTAT and Compression in closed form on " + std::to_string(subset.size()) +
                          " processors of one capacity differ from their rational arithmetic");
      local = std::move(closed_form);
    }
  }
  if (!local) return std::nullopt;
  JobAllocation out;
  out.mtat.pool_turnarounds = std::move(local->mtat.pool_turnarounds);
  out.mtat.turnaround = local->mtat.turnaround;
  out.turnaround = local->turnaround;
  out.vps.assign(map.processors.size(), 0);
  out.mtat.vps.assign(map.processors.size(), 0);
  for (size_t k = 0; k < subset.size(); k++) {
    out.vps[static_cast<size_t>(subset[k])] = local->vps[k];
    out.mtat.vps[static_cast<size_t>(subset[k])] = local->mtat.vps[k];
  }
  return out;
}

bool has_every_arch(const AllocationMap& map, const VpCounts& demand)
{
  for (const auto& [arch, count] : demand)
    if (count > 0 && std::none_of(map.processors.begin(), map.processors.end(),
                                  [&arch](const Processor& p) { return p.arch == arch; }))
      return false;
  return true;
}

/* Section 4.4.1 for a job that holds no entry (new, waiting, or taken out to be placed again). */
PlacementDecision place_job(AllocationMap& map, const JobRecord& job, const SchedulerOptions& options, ChangeLog* log)
{
  PlacementDecision d;
  d.job = job.id;
  if (!has_every_arch(map, job.vps)) {
    d.waits = true;
    return d;
  }
  std::vector<int> all;
  for (size_t p = 0; p < map.processors.size(); p++)
    if (uses_arch(job.vps, map.processors[p].arch)) all.push_back(static_cast<int>(p));
  JobAllocation whole = *allocate_on(map, job.vps, all, options);
  d.new_slice_turnaround = whole.mtat.turnaround;
  d.pattern = find_free_pattern(map, job.vps, kFreeEntry, options);
  std::optional<JobAllocation> in_pattern;
  if (!d.pattern.empty()) in_pattern = allocate_on(map, job.vps, d.pattern.processors, options);
  if (in_pattern) {
    d.free_turnaround = in_pattern->mtat.turnaround;
    const Rational tau(static_cast<long long>(map.slices.size()));
    const Rational width(static_cast<long long>(d.pattern.slices.size()));
    d.uses_free_space = options.new_slice_rule == NewSliceRule::turnaround
                            ? *d.free_turnaround <= d.new_slice_turnaround
                            : *d.free_turnaround * tau / width <= d.new_slice_turnaround * (tau + Rational(1));
  }
  if (d.uses_free_space) {
    d.slices = d.pattern.slices;
    d.turnaround = in_pattern->turnaround;
    write_job(map, job.id, d.slices, in_pattern->vps, log);
  } else {
    map.slices.emplace_back(map.processors.size());
    if (map.index.built) index_slice_added(map);
    map.slice_changes++;
    d.slices = {static_cast<int>(map.slices.size() - 1)};
    d.turnaround = whole.turnaround;
    write_job(map, job.id, d.slices, whole.vps, log);
  }
  return d;
}

/* The processors of the job's architectures that are free or its own in every slice of `held`. */
std::vector<int> available_processors(const AllocationMap& map, const JobRecord& job, const std::vector<int>& held)
{
  std::vector<int> out;
  for (size_t p = 0; p < map.processors.size(); p++) {
    if (!uses_arch(job.vps, map.processors[p].arch)) continue;
    bool usable = std::all_of(held.begin(), held.end(), [&](int s) {
      const Entry& e = map.slices[static_cast<size_t>(s)][p];
      return e.free() || e.job == job.id;
    });
    if (usable) out.push_back(static_cast<int>(p));
  }
  return out;
}

/* Section 4.4.3 for one affected job: MTAT and Compression on the processors available to it in the slices it held
 * (`held`, which the event may have left without any of its VPs). False, and the job's entries cleared, when those
 * processors cannot hold it: the caller places it again as a submission. */
bool reallocate_in_place(AllocationMap& map, JobId id, const std::vector<int>& held, const SchedulerOptions& options,
                         ChangeLog* log)
{
  const JobRecord job = *map.job(id);
  std::optional<JobAllocation> a;
  if (!held.empty()) a = allocate_on(map, job.vps, available_processors(map, job, held), options);
  clear_job(map, id, log);
  if (!a) return false;
  write_job(map, id, held, a->vps, log);
  return true;
}

/* Every job's slices (AllocationMap::slices_of for all of them), in one pass over the map. */
std::unordered_map<JobId, std::vector<int>> slices_by_job(const AllocationMap& map)
{
  std::unordered_map<JobId, std::vector<int>> out;
  for (size_t s = 0; s < map.slices.size(); s++) {
    JobId last = kFreeEntry; // a job's entries are often side by side: look it up once per run of them
    for (const Entry& e : map.slices[s]) {
      if (e.free() || e.job == last) continue;
      last = e.job;
      auto& held = out[e.job];
      if (held.empty() || held.back() != static_cast<int>(s)) held.push_back(static_cast<int>(s));
    }
  }
  return out;
}

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
  std::vector<std::uint64_t> rows;           // the distinct rows, `words` each, in the order of their first slice
  std::vector<long long> row_units;          // per distinct row: its capacity
  std::vector<int> copies;                   // per distinct row: the slices that have it
  std::vector<int> of_slice;                 // per slice: its distinct row
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
  std::vector<int> count;          // per job row: the slices that have it
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

} // namespace

/* Declared with the map's index (MapIndex::round_scan), which keeps it from round to round. */
struct RoundScan {
  MapScan scan;
};

namespace {

/* Each architecture's processors as a bit mask over the map's processors (an Expansion round keeps the processors). */
using ArchMasks = std::map<std::string, std::vector<std::uint64_t>>;

ArchMasks arch_masks(const AllocationMap& map)
{
  ArchMasks masks;
  const size_t words = (map.processors.size() + 63) / 64;
  std::vector<std::uint64_t>* mask = nullptr;
  const std::string* arch = nullptr;
  for (size_t p = 0; p < map.processors.size(); p++) {
    if (!arch || *arch != map.processors[p].arch) {
      arch = &map.processors[p].arch;
      mask = &masks[*arch];
      mask->resize(words, 0);
    }
    (*mask)[p / 64] |= std::uint64_t{1} << (p % 64);
  }
  return masks;
}

/* The scan's free entries read from the map's index, where its handlers keep them. */
void point_at_index(const AllocationMap& map, MapScan& scan)
{
  scan.free = {map.index.free.data(), map.slices.size(), map.processors.size(), map.index.words};
  scan.free_entries = map.index.free_entries;
}

/* `scan.place` is the queue's (kept by the round, whose jobs keep their places); the rest is found again: from the
 * map's index when it has one (unless `from_entries`: the check of the index), else from every entry. */
void scan_map(const AllocationMap& map, MapScan& scan, bool from_entries = false)
{
  scan.from_index = map.index.built && !from_entries;
  scan.shared_count = 0;
  scan.shared_of_mask = -1;
  scan.mask_free_found = false;
  if (scan.from_index) {
    point_at_index(map, scan);
    return;
  }
  scan.scanned = FreeRows(map.slices.size(), map.processors.size());
  scan.free = {scan.scanned.bits.data(), scan.scanned.slices, scan.scanned.processors, scan.scanned.words};
  scan.free_entries = 0;
  scan.slices_of.resize(map.jobs.size());
  for (auto& held : scan.slices_of)
    held.clear();
  const size_t words = scan.free.words;
  for (size_t s = 0; s < map.slices.size(); s++) {
    const auto& slice = map.slices[s];
    // The free entries a word of bits at a time (no branch per entry), then the jobs' runs of entries.
    for (size_t w = 0; w < words; w++) {
      std::uint64_t word = 0;
      const size_t end = std::min(slice.size(), (w + 1) * 64);
      for (size_t p = w * 64; p < end; p++)
        word |= static_cast<std::uint64_t>(slice[p].job == kFreeEntry) << (p % 64);
      scan.scanned.bits[s * words + w] = word;
      scan.free_entries += word_members(word);
    }
    JobId last = kFreeEntry; // a job's entries are often side by side: look it up once per run of them
    for (const Entry& e : slice) {
      if (e.job == last || e.free()) continue;
      last = e.job;
      const int place = scan.place.of(e.job);
      if (place < 0) continue; // not a job of the queue: no turn reads it
      auto& held = scan.slices_of[static_cast<size_t>(place)];
      if (held.empty() || held.back() != static_cast<int>(s)) held.push_back(static_cast<int>(s));
    }
  }
}

/* Expansion's search on the entries a job may use (`free`: set on processors of its architectures only). */
Pattern search_free_rows(const AllocationMap& map, const FreeRows& free, const std::vector<size_t>& usable,
                         const SchedulerOptions& options)
{
  ExpansionSearch search = options.expansion;
  if (search == ExpansionSearch::exhaustive && options.exhaustive_falls_back) {
    long with_free = 0;
    for (size_t s = 0; s < free.slices; s++)
      with_free += free.row_empty(s) ? 0 : 1;
    if (with_free > options.max_exhaustive_slices) search = ExpansionSearch::column;
  }
  // Only the capacities of the processors the job may use are read.
  std::vector<Rational> capacities(map.processors.size(), Rational(1));
  for (size_t p : usable)
    capacities[p] = map.processors[p].capacity;
  return find_pattern(free, capacities, search, options.max_exhaustive_slices);
}

bool within(const std::uint64_t* a, const std::uint64_t* b, size_t words)
{
  for (size_t w = 0; w < words; w++)
    if ((a[w] & ~b[w]) != 0) return false;
  return true;
}

bool same_row(const std::uint64_t* a, const std::uint64_t* b, size_t words)
{
  for (size_t w = 0; w < words; w++)
    if (a[w] != b[w]) return false;
  return true;
}

long long count_of(const std::uint64_t* row, size_t words)
{
  long long count = 0;
  for (size_t w = 0; w < words; w++)
    count += word_members(row[w]);
  return count;
}

long long units_of(const std::uint64_t* row, const std::vector<long long>& units, size_t words)
{
  long long sum = 0;
  for (size_t w = 0; w < words; w++)
    for (std::uint64_t bits = row[w]; bits != 0; bits &= bits - 1)
      sum += units[w * 64 + static_cast<size_t>(__builtin_ctzll(bits))];
  return sum;
}

/* The capacities of the processors of `mask` in whole units (MaskUnits). */
MaskUnits mask_units(const AllocationMap& map, const std::vector<std::uint64_t>& mask)
{
  MaskUnits out;
  out.units.assign(map.processors.size(), 0);
  std::vector<size_t> members;
  for (size_t w = 0; w < mask.size(); w++)
    for (std::uint64_t bits = mask[w]; bits != 0; bits &= bits - 1)
      members.push_back(w * 64 + static_cast<size_t>(__builtin_ctzll(bits)));
  for (size_t p : members) {
    const long long d = map.processors[p].capacity.denominator();
    if (out.denominator % d == 0) continue;
    out.denominator = out.denominator / std::gcd(out.denominator, d) * d;
    if (out.denominator > 1000000000LL) {
      out.whole = false;
      return out;
    }
  }
  for (size_t p : members) {
    const Rational& a = map.processors[p].capacity;
    const __int128 unit = static_cast<__int128>(a.numerator()) * (out.denominator / a.denominator());
    if (unit > (static_cast<__int128>(1) << 40)) {
      out.whole = false;
      return out;
    }
    out.units[p] = static_cast<long long>(unit);
  }
  out.uniform = !members.empty() && std::all_of(members.begin(), members.end(), [&](size_t p) {
    return map.processors[p].capacity == map.processors[members.front()].capacity;
  });
  if (out.uniform) {
    out.capacity = map.processors[members.front()].capacity;
    out.unit = out.units[members.front()];
  }
  return out;
}

/* The shared rows of `mask`, the processors of architectures `archs`, from the round's scan (`free`), its
 * capacities in units from the map's index when it has them (checked with `validate`). */
void build_shared_rows(AllocationMap& map, const FreeView& free, const std::vector<std::string>& archs,
                       const std::vector<std::uint64_t>& mask, SharedRows& out, bool validate)
{
  out.mask = mask;
  out.words = free.words;
  if (map.index.built) {
    auto& kept = map.index.mask_units[archs];
    if (!kept)
      kept = std::make_shared<const MaskUnits>(mask_units(map, mask));
    else if (validate && !(*kept == mask_units(map, mask)))
      throw PolicyError("gang scheduler: the capacities in units the map's index kept are not its processors'");
    out.capacities = kept;
  } else {
    out.capacities = std::make_shared<const MaskUnits>(mask_units(map, mask));
  }
  out.rows.clear();
  out.row_units.clear();
  out.copies.clear();
  out.hashes.clear();
  if (!out.capacities->whole) { // no rows: the job's own search; none of an earlier build's left either
    out.of_slice.clear();
    out.by_row.clear();
    out.row_start.clear();
    out.contained.clear();
    out.width_of.clear();
    return;
  }
  const MaskUnits& caps = *out.capacities;
  const size_t words = out.words;
  size_t buckets = 16; // a power of two, at least twice the slices: open addressing's chains stay short
  while (buckets < 2 * free.slices)
    buckets *= 2;
  out.table.assign(buckets, -1);
  out.of_slice.resize(free.slices);
  std::uint64_t* row = nullptr; // the slice's row, written in place at the end of `rows` (kept if it is new)
  int empty_row = -1;           // the distinct row without free entries, once met (most slices have it)
  for (size_t s = 0; s < free.slices; s++) {
    out.rows.resize((out.copies.size() + 1) * words);
    row = out.rows.data() + out.copies.size() * words;
    std::uint64_t any = 0;
    for (size_t w = 0; w < words; w++) {
      row[w] = free.bits[s * words + w] & mask[w];
      any |= row[w];
    }
    int d = any == 0 ? empty_row : -1;
    if (d < 0) {
      const std::uint64_t hash = fnv1a_words(row, words);
      size_t bucket = hash & (buckets - 1);
      for (; out.table[bucket] >= 0; bucket = (bucket + 1) & (buckets - 1)) {
        const int k = out.table[bucket];
        if (out.hashes[static_cast<size_t>(k)] == hash && same_row(row, out.row(static_cast<size_t>(k)), words)) {
          d = k;
          break;
        }
      }
      if (d < 0) {
        d = static_cast<int>(out.copies.size());
        out.table[bucket] = d;
        out.hashes.push_back(hash);
        out.row_units.push_back(caps.uniform ? caps.unit * count_of(row, words) : units_of(row, caps.units, words));
        out.copies.push_back(0);
        if (any == 0) empty_row = d;
      }
    }
    out.copies[static_cast<size_t>(d)]++;
    out.of_slice[s] = d;
  }
  const size_t distinct = out.copies.size();
  out.rows.resize(distinct * words); // the last slice's row, if it was not new
  // The slices by distinct row (a counting sort: increasing within each row).
  out.row_start.assign(distinct + 1, 0);
  for (size_t d = 0; d < distinct; d++)
    out.row_start[d + 1] = out.row_start[d] + out.copies[d];
  out.by_row.resize(free.slices);
  std::vector<int>& next = out.table; // the table is no longer needed: each row's next place in by_row
  next.assign(out.row_start.begin(), out.row_start.end() - 1);
  for (size_t s = 0; s < free.slices; s++)
    out.by_row[static_cast<size_t>(next[static_cast<size_t>(out.of_slice[s])]++)] = static_cast<int>(s);
  out.contained.assign(distinct * distinct, 0);
  for (size_t x = 0; x < distinct; x++)
    for (size_t y = 0; y < distinct; y++)
      out.contained[x * distinct + y] = within(out.row(x), out.row(y), words) ? 1 : 0;
  out.width_of.assign(distinct, 0);
  for (size_t x = 0; x < distinct; x++)
    for (size_t y = 0; y < distinct; y++)
      if (out.contained[x * distinct + y] != 0) out.width_of[x] += out.copies[y];
}

/* The job's row x (SharedPick::rows): the shared row x / 2, with the job's entries when x is odd. */
const std::uint64_t* job_row(const SharedRows& shared, const SharedPick& pick, size_t x)
{
  return x % 2 == 0 ? shared.row(x / 2) : &pick.rows[x * shared.words];
}

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
                          SharedPick& pick)
{
  const size_t words = shared.words;
  const size_t distinct = shared.copies.size();
  const size_t none = shared.of_slice.size();
  const MaskUnits& caps = *shared.capacities;
  pick.pattern.processors.clear();
  pick.pattern.slices.clear();
  pick.pattern.size = Rational(0);
  pick.width = 0;
  pick.row = nullptr;
  pick.processor_count = 0;
  // Job row 2d: d where it does not hold the slice; 2d + 1: d with its entries. Their slices, and each one's first.
  pick.count.assign(2 * distinct, 0);
  std::vector<size_t>& first = pick.first;
  first.assign(2 * distinct, none);
  std::vector<size_t>& held_rows = pick.held_rows; // the distinct rows of the slices it holds, each once
  held_rows.clear();
  for (int s : held) {
    const auto d = static_cast<size_t>(shared.of_slice[static_cast<size_t>(s)]);
    if (pick.count[2 * d + 1]++ == 0) {
      first[2 * d + 1] = static_cast<size_t>(s);
      held_rows.push_back(d);
    }
  }
  pick.rows.resize(2 * distinct * words);
  std::vector<long long>& units = pick.units;
  units.assign(2 * distinct, 0);
  for (size_t d = 0; d < distinct; d++) {
    pick.count[2 * d] = shared.copies[d] - pick.count[2 * d + 1];
    units[2 * d] = shared.row_units[d];
    if (pick.count[2 * d + 1] > 0) {
      for (size_t w = 0; w < words; w++)
        pick.rows[(2 * d + 1) * words + w] = shared.row(d)[w] | own[w];
      units[2 * d + 1] = caps.uniform ? caps.unit * count_of(&pick.rows[(2 * d + 1) * words], words)
                                      : units_of(&pick.rows[(2 * d + 1) * words], caps.units, words);
    }
    if (pick.count[2 * d] > 0 && units[2 * d] > 0) { // its first slice the job does not hold (both lists increasing)
      auto h = held.begin();
      for (int r = shared.row_start[d]; r < shared.row_start[d + 1]; r++) {
        const int s = shared.by_row[static_cast<size_t>(r)];
        h = std::lower_bound(h, held.end(), s); // (a search: a job may hold hundreds of slices, this row's first few)
        if (h == held.end() || *h != s) {
          first[2 * d] = static_cast<size_t>(s);
          break;
        }
      }
    }
  }
  size_t best = 2 * distinct;
  __int128 best_size = 0;
  const auto slices = static_cast<__int128>(none); // the widest a candidate can be
  for (size_t x = 0; x < 2 * distinct; x++) {
    if (pick.count[x] == 0 || units[x] == 0) continue;
    if (static_cast<__int128>(units[x]) * slices < best_size) continue; // it cannot reach the best, even in every slice
    int width = 0;
    if (x % 2 == 0) { // the shared rows containing it, less the slices the job holds there, plus its held rows'
      const size_t d = x / 2;
      width = shared.width_of[d];
      for (size_t h : held_rows) {
        const int held_there = pick.count[2 * h + 1];
        if (shared.contained[d * distinct + h] != 0) width -= held_there;
        if (within(shared.row(d), &pick.rows[(2 * h + 1) * words], words)) width += held_there;
      }
    } else { // a held row (few): every job row that contains it
      for (size_t y = 0; y < 2 * distinct; y++)
        if (pick.count[y] != 0 && (y == x || within(&pick.rows[x * words], job_row(shared, pick, y), words)))
          width += pick.count[y];
    }
    const __int128 size = static_cast<__int128>(units[x]) * width;
    if (size > best_size || (size == best_size && best < 2 * distinct && first[x] < first[best])) {
      best_size = size;
      best = x;
      pick.width = width;
    }
  }
  if (best == 2 * distinct) return;
  pick.row = job_row(shared, pick, best);
  pick.processor_count = count_of(pick.row, words);
  pick.pattern.size = Rational(units[best], caps.denominator) * Rational(static_cast<long long>(pick.width));
}

/* The pattern's processors, from its row. */
void add_pattern_processors(const SharedRows& shared, SharedPick& pick)
{
  pick.pattern.processors.reserve(static_cast<size_t>(pick.processor_count));
  for (size_t w = 0; w < shared.words; w++)
    for (std::uint64_t bits = pick.row[w]; bits != 0; bits &= bits - 1)
      pick.pattern.processors.push_back(static_cast<int>(w * 64 + static_cast<size_t>(__builtin_ctzll(bits))));
}

/* The pattern's slices: those whose row (the job's) contains the pattern's processors (pick.row). */
void add_pattern_slices(const SharedRows& shared, const std::vector<int>& held, SharedPick& pick)
{
  const size_t words = shared.words;
  // The pattern's processors as bits are its row, pick.row (its processors are read from it).
  std::vector<char> contains(pick.count.size(), 0);
  for (size_t y = 0; y < contains.size(); y++)
    contains[y] = pick.count[y] > 0 && within(pick.row, job_row(shared, pick, y), words) ? 1 : 0;
  auto h = held.begin();
  for (size_t j = 0; j < shared.of_slice.size(); j++) {
    while (h != held.end() && static_cast<size_t>(*h) < j)
      ++h;
    const bool holds = h != held.end() && static_cast<size_t>(*h) == j;
    if (contains[2 * static_cast<size_t>(shared.of_slice[j]) + (holds ? 1 : 0)] != 0)
      pick.pattern.slices.push_back(static_cast<int>(j));
  }
}

/* The bound of the overload below, from k processors of which the first has capacity a (`equal`: all of them). */
Rational least_shared_turnaround(const JobRecord& job, long long k, const Rational& a, bool equal, const Rational& size,
                                 int width)
{
  const long long n = job.total_vps();
  if (!(job.vps.size() == 1 && equal)) return Rational(n) / size;
  return Rational((n + k - 1) / k) / a / Rational(static_cast<long long>(width));
}

/* Whether the bound above for a job of one architecture on k processors of capacity a over `width` slices,
 * ceil(n / k) / a / width, reaches now / held, compared as c x a.den x now.den x held >= now.num x a.num x width in
 * 128-bit integers (denominators are positive): the same order as in rationals without their three divisions and
 * gcds per turn. Empty when a product would not fit (then the rationals decide). */
std::optional<bool> bound_reaches(const JobRecord& job, long long k, const Rational& a, int width, const Rational& now,
                                  size_t held)
{
  const long long n = job.total_vps();
  const __int128 c = (n + k - 1) / k;
  __int128 left = 0;
  __int128 right = 0;
  if (__builtin_mul_overflow(c, static_cast<__int128>(a.denominator()), &left) ||
      __builtin_mul_overflow(left, static_cast<__int128>(now.denominator()), &left) ||
      __builtin_mul_overflow(left, static_cast<__int128>(held), &left) ||
      __builtin_mul_overflow(static_cast<__int128>(now.numerator()), static_cast<__int128>(a.numerator()), &right) ||
      __builtin_mul_overflow(right, static_cast<__int128>(width), &right))
    return std::nullopt;
  return left >= right;
}

/* A lower bound of the time-shared turnaround any allocation of the job on `processors` over `width` slices has
 * (whatever MTAT and Compression do there; `size`: the processors' capacity times `width`): n VPs on processors of
 * capacity C take at least n / C (each n_i <= T a_i), so over w slices at least n / (C w). On k processors of one
 * capacity a (all of the job's one architecture), whole VPs take at least ceil(n / k) / a, the optimum itself. */
Rational least_shared_turnaround(const AllocationMap& map, const JobRecord& job, const std::vector<int>& processors,
                                 const Rational& size, int width)
{
  const Rational& a = map.processors[static_cast<size_t>(processors.front())].capacity;
  const bool equal = job.vps.size() == 1 && std::all_of(processors.begin(), processors.end(), [&](int p) {
                       return map.processors[static_cast<size_t>(p)].capacity == a;
                     });
  return least_shared_turnaround(job, static_cast<long long>(processors.size()), a, equal, size, width);
}

/* The free rows `rows` (`slices` rows of `processors` bits, as FreeRows lays them out) on the processors of `mask`
 * only, and those processors, increasing, in `usable`: what a search of free space on a job's architectures starts
 * from (find_free_pattern on the map's index, expand_job on its round's scan). */
FreeRows rows_on_mask(const std::uint64_t* rows, size_t slices, size_t processors,
                      const std::vector<std::uint64_t>& mask, std::vector<size_t>& usable)
{
  FreeRows free(slices, processors);
  usable.clear();
  for (size_t w = 0; w < free.words; w++)
    for (std::uint64_t bits = mask[w]; bits != 0; bits &= bits - 1)
      usable.push_back(w * 64 + static_cast<size_t>(__builtin_ctzll(bits)));
  for (size_t s = 0; s < free.slices; s++)
    for (size_t w = 0; w < free.words; w++)
      free.bits[s * free.words + w] = rows[s * free.words + w] & mask[w];
  return free;
}

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
                   MapScan& scan, bool validate)
{
  if (!map.index.built || job.vps.size() != 1 || held.empty()) return false;
  const std::vector<std::uint64_t>& mask = scan.mask;
  if (!scan.mask_capacities) {
    auto& kept = map.index.mask_units[scan.mask_archs];
    if (!kept)
      kept = std::make_shared<const MaskUnits>(mask_units(map, mask));
    else if (validate && !(*kept == mask_units(map, mask)))
      throw PolicyError("gang scheduler: the capacities in units the map's index kept are not its processors'");
    scan.mask_capacities = kept;
    scan.mask_processors = count_of(mask.data(), mask.size());
  }
  const MaskUnits& caps = *scan.mask_capacities;
  if (!caps.uniform || scan.mask_processors == 0) return false;
  const Rational most = now * caps.capacity; // n_max
  if (most.denominator() != 1) return false;
  const long long n_max = most.numerator();
  const long long n = job.total_vps();
  if (n_max > (n + scan.mask_processors - 1) / scan.mask_processors) return false;
  const size_t words = scan.free.words;
  // Each slice's free entries on the mask: on a mask of every processor, its processors less its held entries (the
  // index's count, which follows the scan: both are the map's between turns), else counted from the scan's rows.
  const bool every = scan.mask_processors == static_cast<long long>(map.processors.size());
  if (!scan.mask_free_found && (!every || validate)) {
    scan.mask_free.assign(scan.free.slices, 0);
    for (size_t s = 0; s < scan.free.slices; s++)
      for (size_t w = 0; w < words; w++)
        scan.mask_free[s] += word_members(scan.free.bits[s * words + w] & mask[w]);
    scan.mask_free_found = true;
    if (every)
      for (size_t s = 0; s < scan.free.slices; s++)
        if (scan.mask_free[s] != scan.mask_processors - map.index.held[s])
          throw PolicyError("gang scheduler: the index's count of held entries of a slice is not the scan's");
  }
  auto free_on_mask = [&](size_t s) { return every ? scan.mask_processors - map.index.held[s] : scan.mask_free[s]; };
  long long most_free = 0; // F
  auto h = held.begin();
  for (size_t s = 0; s < scan.free.slices; s++) {
    if (h != held.end() && static_cast<size_t>(*h) == s) {
      ++h;
      continue;
    }
    most_free = std::max(most_free, free_on_mask(s));
  }
  if (most_free == 0) return true;
  const __int128 left = static_cast<__int128>(n_max) * static_cast<__int128>(scan.free.slices);
  const __int128 right = static_cast<__int128>((n + most_free - 1) / most_free) * static_cast<__int128>(held.size());
  return left <= right;
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

/* The VPs of each job on each processor, read from the job's first slice (AllocationMap::allocation_of: the same in
 * all its slices), in one pass over the map; processor p of `map` is row rows[p]. */
Holdings holdings_of(const AllocationMap& map, const std::vector<int>& rows)
{
  // Per job of the map (by its place in the queue): its first slice and its place in `out`.
  PlaceById place;
  place.assign(map.jobs);
  std::vector<int> first_slice(map.jobs.size(), -1); // -1: not met yet
  std::vector<size_t> slot(map.jobs.size(), 0);
  Holdings out;
  for (size_t s = 0; s < map.slices.size(); s++) {
    JobId last = kFreeEntry; // a job's entries are often side by side: look it up once per run of them
    Holding* into = nullptr;
    const auto& slice = map.slices[s];
    for (size_t p = 0; p < slice.size(); p++) {
      const Entry& e = slice[p];
      if (e.free()) continue;
      if (e.job != last) {
        last = e.job;
        into = nullptr;
        const int k = place.of(e.job);
        if (k < 0) continue; // not a job of the map
        int& first = first_slice[static_cast<size_t>(k)];
        if (first == -1) {
          first = static_cast<int>(s);
          slot[static_cast<size_t>(k)] = out.size();
          out.emplace_back(e.job, Holding{});
        }
        if (first == static_cast<int>(s)) into = &out[slot[static_cast<size_t>(k)]].second;
      }
      if (into && e.vps > 0) into->emplace_back(rows[p], e.vps);
    }
  }
  for (auto& [id, holding] : out)
    if (!std::is_sorted(holding.begin(), holding.end())) std::sort(holding.begin(), holding.end());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

/* The rows of the processors before an event, then of those it added: the old processors' rows are their indices,
 * and the handlers keep the processors' order (an event removes processors or appends new ones), so the rows of the
 * new map are found by one walk over both lists (`new_rows`, filled when not null). */
std::vector<const Processor*> processor_rows(const std::vector<Processor>& old_processors,
                                             const std::vector<Processor>& new_processors, std::vector<int>* new_rows)
{
  std::vector<const Processor*> rows;
  rows.reserve(old_processors.size() + 1);
  for (const auto& p : old_processors)
    rows.push_back(&p);
  if (&old_processors == &new_processors && !new_rows) return rows; // the same list: every row its own index
  if (new_rows) new_rows->assign(new_processors.size(), 0);
  size_t next = 0; // the old processors before `next` are matched or gone
  for (size_t j = 0; j < new_processors.size(); j++) {
    size_t k = next;
    while (k < old_processors.size() && old_processors[k].name != new_processors[j].name)
      k++;
    int row;
    if (k < old_processors.size()) {
      row = static_cast<int>(k);
      next = k + 1;
    } else {
      row = static_cast<int>(rows.size());
      rows.push_back(&new_processors[j]);
    }
    if (new_rows) (*new_rows)[j] = row;
  }
  return rows;
}

/* Job `id`'s net moves from holding `was` to `is`: per architecture (by name), losses given to gains in row order. */
void job_moves(JobId id, const Holding& was, const Holding& is, const std::vector<const Processor*>& rows,
               EventResult& result)
{
  if (was == is) return; // nothing lost, nothing gained
  // Per row, the VPs it had and has.
  std::vector<std::pair<int, int>> changes; // (row, new - old)
  size_t w = 0;
  size_t i = 0;
  while (w < was.size() || i < is.size()) {
    if (i == is.size() || (w < was.size() && was[w].first < is[i].first)) {
      changes.emplace_back(was[w].first, -was[w].second);
      w++;
    } else if (w == was.size() || is[i].first < was[w].first) {
      changes.emplace_back(is[i].first, is[i].second);
      i++;
    } else {
      if (is[i].second != was[w].second) changes.emplace_back(is[i].first, is[i].second - was[w].second);
      w++;
      i++;
    }
  }
  std::vector<const std::string*> archs;
  for (const auto& [row, delta] : changes)
    archs.push_back(&rows[static_cast<size_t>(row)]->arch);
  std::sort(archs.begin(), archs.end(), [](const std::string* x, const std::string* y) { return *x < *y; });
  archs.erase(
      std::unique(archs.begin(), archs.end(), [](const std::string* x, const std::string* y) { return *x == *y; }),
      archs.end());
  for (const std::string* arch : archs) {
    std::vector<VpCount> losses;
    std::vector<VpCount> gains;
    for (const auto& [row, delta] : changes) {
      const Processor& p = *rows[static_cast<size_t>(row)];
      if (p.arch != *arch) continue;
      if (delta < 0) losses.push_back({id, p.name, -delta});
      if (delta > 0) gains.push_back({id, p.name, delta});
    }
    size_t l = 0;
    size_t g = 0;
    while (l < losses.size() && g < gains.size()) {
      int moved = std::min(losses[l].vps, gains[g].vps);
      result.migrations.push_back({id, losses[l].processor, gains[g].processor, moved});
      losses[l].vps -= moved;
      gains[g].vps -= moved;
      if (losses[l].vps == 0) l++;
      if (gains[g].vps == 0) g++;
    }
    for (; l < losses.size(); l++)
      result.suspended.push_back(losses[l]);
    for (; g < gains.size(); g++)
      result.placed.push_back(gains[g]);
  }
}

/* The net moves between `old_map` and the result's map, from every job's holdings in both. */
void record_moves_of_maps(const AllocationMap& old_map, EventResult& result)
{
  std::vector<int> new_rows;
  const auto rows = processor_rows(old_map.processors, result.map.processors, &new_rows);
  std::vector<int> old_rows(old_map.processors.size());
  for (size_t p = 0; p < old_rows.size(); p++)
    old_rows[p] = static_cast<int>(p);
  const Holdings before = holdings_of(old_map, old_rows);
  const Holdings after = holdings_of(result.map, new_rows);
  const Holding none;
  size_t b = 0;
  size_t a = 0;
  while (b < before.size() || a < after.size()) { // the jobs of both, in id order
    if (a == after.size() || (b < before.size() && before[b].first < after[a].first)) {
      job_moves(before[b].first, before[b].second, none, rows, result);
      b++;
    } else if (b == before.size() || after[a].first < before[b].first) {
      job_moves(after[a].first, none, after[a].second, rows, result);
      a++;
    } else {
      job_moves(before[b].first, before[b].second, after[a].second, rows, result);
      b++;
      a++;
    }
  }
}

bool moves_differ(const EventResult& x, const EventResult& y)
{
  auto same_move = [](const VpMove& a, const VpMove& b) {
    return a.job == b.job && a.from == b.from && a.to == b.to && a.vps == b.vps;
  };
  auto same_count = [](const VpCount& a, const VpCount& b) {
    return a.job == b.job && a.processor == b.processor && a.vps == b.vps;
  };
  return !std::equal(x.migrations.begin(), x.migrations.end(), y.migrations.begin(), y.migrations.end(), same_move) ||
         !std::equal(x.placed.begin(), x.placed.end(), y.placed.begin(), y.placed.end(), same_count) ||
         !std::equal(x.suspended.begin(), x.suspended.end(), y.suspended.begin(), y.suspended.end(), same_count);
}

/* The net moves of the event whose changes `log` noted, the map having had `old_processors` before it. With
 * options.validate, they must be those found from the two maps (`old_map`, the map before, when given). */
void record_moves(const std::vector<Processor>& old_processors, ChangeLog& log, EventResult& result,
                  const SchedulerOptions& options, const AllocationMap* old_map)
{
  if (log.changes.empty() && (!options.validate || !old_map)) return; // no job's entries changed: no move
  const auto rows = processor_rows(old_processors, result.map.processors, nullptr);
  std::sort(log.changes.begin(), log.changes.end(),
            [](const ChangeLog::Change& x, const ChangeLog::Change& y) { return x.job < y.job; });
  for (const auto& change : log.changes)
    job_moves(change.job, change.before, change.after, rows, result);
  if (!options.validate || !old_map) return;
  EventResult check{result.map, {}, {}, {}, {}, {}, 0};
  record_moves_of_maps(*old_map, check);
  if (moves_differ(check, result))
    throw PolicyError("gang scheduler: the moves noted during an event differ from those between its maps");
}

void check_result(const EventResult& result, const SchedulerOptions& options)
{
  if (!options.validate) return;
  auto problems = validate(result.map);
  if (!problems.empty()) throw PolicyError("gang scheduler produced an invalid allocation map: " + problems.front());
  check_index(result.map, "after");
}

void check_demand(const VpCounts& vps, JobId id)
{
  int total = 0;
  for (const auto& [arch, count] : vps) {
    if (count < 0) throw InputError(job_name(id) + ": a negative VP count for architecture '" + arch + "'");
    if (arch.empty()) throw InputError(job_name(id) + ": VPs of an unnamed architecture");
    total += count;
  }
  if (total <= 0) throw InputError(job_name(id) + ": a job needs at least one VP");
}

/* What VP_exit and a job's exit share once the departed VPs are gone from `after_exit`: emptied slices removed, an
 * expansion round, and the VP moves counted from `after_exit`. */
EventResult after_departure(AllocationMap&& after_exit, const SchedulerOptions& options)
{
  std::optional<AllocationMap> before; // for the check of the moves (options.validate)
  if (options.validate) before = after_exit;
  EventResult result{std::move(after_exit), {}, {}, {}, {}, {}, 0};
  ChangeLog log;
  result.removed_slices += remove_empty_slices(result.map);
  expansion_round(result.map, {}, options, result, &log);
  record_moves(result.map.processors, log, result, options, before ? &*before : nullptr);
  check_result(result, options);
  return result;
}

} // namespace

Pattern find_free_pattern(const AllocationMap& map, const VpCounts& demand, JobId as_free,
                          const SchedulerOptions& options)
{
  if (map.index.built && as_free == kFreeEntry) { // the free rows from the index, on the job's architectures
    const size_t words = map.index.words;
    std::vector<std::uint64_t> mask(words, 0);
    for (const auto& [arch, count] : demand)
      if (count > 0)
        if (auto it = map.index.arch_masks.find(arch); it != map.index.arch_masks.end())
          for (size_t w = 0; w < words; w++)
            mask[w] |= it->second[w];
    std::vector<size_t> usable;
    const FreeRows free = rows_on_mask(map.index.free.data(), map.slices.size(), map.processors.size(), mask, usable);
    return search_free_rows(map, free, usable, options);
  }
  // The job's architectures looked up once per processor, not once per entry.
  std::vector<size_t> usable;
  for (size_t p = 0; p < map.processors.size(); p++)
    if (uses_arch(demand, map.processors[p].arch)) usable.push_back(p);
  FreeRows free(map.slices.size(), map.processors.size());
  for (size_t s = 0; s < map.slices.size(); s++)
    for (size_t p : usable) {
      const Entry& e = map.slices[s][p];
      if (e.free() || (as_free != kFreeEntry && e.job == as_free)) free.set(s, p);
    }
  return search_free_rows(map, free, usable, options);
}

EventResult submit_job(const AllocationMap& map, JobId job, const VpCounts& vps, const SchedulerOptions& options)
{
  return submit_job(AllocationMap(map), job, vps, options);
}

EventResult submit_job(AllocationMap&& map, JobId job, const VpCounts& vps, const SchedulerOptions& options)
{
  check_map(map, options);
  prepare_index(map, options);
  if (job < 0) throw InputError(job_name(job) + ": job ids are >= 0");
  if (map.job(job)) throw InputError(job_name(job) + " is already in the allocation map");
  check_demand(vps, job);
  std::optional<AllocationMap> before; // for the check of the moves (options.validate)
  if (options.validate) before = map;
  EventResult result{std::move(map), {}, {}, {}, {}, {}, 0};
  ChangeLog log;
  JobRecord record;
  record.id = job;
  for (const auto& [arch, count] : vps)
    if (count > 0) record.vps[arch] = count;
  result.map.jobs.push_back(record);
  result.placements.push_back(place_job(result.map, record, options, &log));
  record_moves(result.map.processors, log, result, options, before ? &*before : nullptr);
  check_result(result, options);
  return result;
}

EventResult new_processor(const AllocationMap& map, const Processor& processor, const SchedulerOptions& options)
{
  check_map(map, options);
  if (processor.name.empty()) throw InputError("new_processor: the processor has no name");
  if (map.processor_index(processor.name) >= 0)
    throw InputError("new_processor: processor '" + processor.name + "' is already in the allocation map");
  if (processor.capacity <= 0)
    throw InputError("new_processor: processor '" + processor.name + "' has capacity " +
                     fraction_string(processor.capacity));
  if (processor.arch.empty()) throw InputError("new_processor: processor '" + processor.name + "' has no architecture");
  if (options.indexed && options.validate && map.index.built) check_index(map, "before");
  EventResult result{map, {}, {}, {}, {}, {}, 0};
  result.map.processors.push_back(processor);
  for (auto& slice : result.map.slices)
    slice.emplace_back();
  processor_changed(result.map, result.map.processors.size() - 1);
  // A new row: the index is dropped, and built again by the next event that is not a processor's (on a network whose
  // owners come and go, most events are theirs: building it at each one would cost more than it saves).
  result.map.index.built = false;
  ChangeLog log; // the new processor's row follows the others'
  expansion_round(result.map, {}, options, result, &log);
  record_moves(map.processors, log, result, options, &map);
  check_result(result, options);
  return result;
}

EventResult vp_exit(const AllocationMap& map, JobId job, const std::string& processor, const SchedulerOptions& options)
{
  return vp_exit(AllocationMap(map), job, processor, options);
}

EventResult vp_exit(AllocationMap&& map, JobId job, const std::string& processor, const SchedulerOptions& options)
{
  check_map(map, options);
  prepare_index(map, options);
  // The job's record, found once: nothing below adds or removes a record before remove_job_record.
  const size_t q = queue_position(map, job);
  int p = map.row_of(processor);
  if (p < 0) throw InputError("VP_exit: no processor '" + processor + "' in the allocation map");
  long entry = -1; // its entry on p in the index
  if (map.index.built) {
    const auto& entries = map.jobs[q].held_entries;
    auto it = std::lower_bound(entries.begin(), entries.end(), std::make_pair(p, 0));
    if (it == entries.end() || it->first != p || it->second == 0)
      throw InputError("VP_exit: " + job_name(job) + " has no VP on processor '" + processor + "'");
    entry = it - entries.begin();
  } else if (map.allocation_of(job)[static_cast<size_t>(p)] == 0) {
    throw InputError("VP_exit: " + job_name(job) + " has no VP on processor '" + processor + "'");
  }
  AllocationMap after_exit = std::move(map);
  bool freed = false;
  if (after_exit.index.built) { // only the slices it holds, and its entry in the index
    JobRecord& record = after_exit.jobs[q];
    const long k = entry;
    for (int s : record.held_slices) {
      Entry& e = after_exit.slices[static_cast<size_t>(s)][static_cast<size_t>(p)];
      if (e.job == job && --e.vps == 0) {
        e = Entry{};
        freed = true;
        index_freed(after_exit.index, static_cast<size_t>(s), static_cast<size_t>(p));
      }
    }
    // Its processors and turnaround (JobRecord::held_found) follow: the VP leaves p's bit unless it was p's last, and
    // the turnaround unless p was the only entry reaching it (then they are found again at its next turn).
    const int was = record.held_entries[static_cast<size_t>(k)].second;
    if (record.held_found && was > 0) {
      if (Rational(was) / after_exit.processors[static_cast<size_t>(p)].capacity == record.held_turnaround) {
        if (record.held_at_max > 1)
          record.held_at_max--;
        else
          record.held_found = false;
      }
      if (was == 1)
        record.held_bits[static_cast<size_t>(p) / 64] &= ~(std::uint64_t{1} << (static_cast<size_t>(p) % 64));
    } else {
      record.held_found = false;
    }
    if (--record.held_entries[static_cast<size_t>(k)].second == 0)
      record.held_entries.erase(record.held_entries.begin() + k);
    if (record.held_entries.empty()) record.held_slices.clear();
  } else {
    for (auto& slice : after_exit.slices) {
      Entry& e = slice[static_cast<size_t>(p)];
      if (e.job == job && --e.vps == 0) {
        e = Entry{};
        freed = true;
      }
    }
  }
  // Another job's turn reads the map's free entries, not the VP counts of the job's entries (its own turn is taken
  // again: its memory is cleared below): a VP that leaves another of its VPs on the processor changes nothing it reads.
  if (freed) processor_changed(after_exit, static_cast<size_t>(p));
  JobRecord& record = after_exit.jobs[q];
  record.declined_at.clear();
  const std::string& arch = after_exit.processors[static_cast<size_t>(p)].arch;
  int& count = record.vps[arch];
  count--;
  if (count == 0) record.vps.erase(arch);
  if (record.total_vps() == 0) remove_job_record(after_exit, job);
  return after_departure(std::move(after_exit), options);
}

EventResult job_exit(const AllocationMap& map, JobId job, const SchedulerOptions& options)
{
  return job_exit(AllocationMap(map), job, options);
}

EventResult job_exit(AllocationMap&& map, JobId job, const SchedulerOptions& options)
{
  check_map(map, options);
  prepare_index(map, options);
  queue_position(map, job);
  AllocationMap after_exit = std::move(map);
  clear_job(after_exit, job, nullptr);
  remove_job_record(after_exit, job);
  return after_departure(std::move(after_exit), options);
}

EventResult new_vp(const AllocationMap& map, JobId job, const std::string& arch, const SchedulerOptions& options)
{
  check_map(map, options);
  queue_position(map, job);
  if (arch.empty()) throw InputError("new_VP: " + job_name(job) + "'s new VP has no architecture");
  EventResult result{map, {}, {}, {}, {}, {}, 0};
  prepare_index(result.map, options);
  ChangeLog log;
  const long long free_before = free_entries_of(result.map);
  JobRecord& record = result.map.jobs[queue_position(result.map, job)];
  record.vps[arch]++;
  record.declined_at.clear();
  const auto held = held_slices_of(result.map, job);
  if (!held.empty() && !reallocate_in_place(result.map, job, held, options, &log)) {
    result.removed_slices += remove_empty_slices(result.map);
    result.placements.push_back(place_job(result.map, *result.map.job(job), options, &log));
  }
  result.removed_slices += remove_empty_slices(result.map);
  if (free_entries_of(result.map) > free_before) expansion_round(result.map, {job}, options, result, &log);
  record_moves(map.processors, log, result, options, &map);
  check_result(result, options);
  return result;
}

EventResult processor_exit(const AllocationMap& map, const std::string& processor, const SchedulerOptions& options)
{
  check_map(map, options);
  int p = map.processor_index(processor);
  if (p < 0) throw InputError("processor_exit: no processor '" + processor + "' in the allocation map");
  std::set<JobId> affected;
  std::vector<std::pair<JobId, std::vector<int>>> held; // affected jobs in queue order, with the slices they hold
  // The jobs with VPs on the processor: its column's entries (a job is placed the same way in all its slices).
  std::unordered_set<JobId> on_processor;
  for (const auto& slice : map.slices)
    if (!slice[static_cast<size_t>(p)].free()) on_processor.insert(slice[static_cast<size_t>(p)].job);
  if (!on_processor.empty()) {
    auto slices = slices_by_job(map);
    for (const auto& job : map.jobs)
      if (on_processor.count(job.id) != 0) {
        affected.insert(job.id);
        held.emplace_back(job.id, slices[job.id]);
      }
  }
  // The affected jobs' holdings before the processor leaves (rows: the processors' indices now); afterwards the
  // processors past it keep their rows, one more than their index.
  ChangeLog log;
  for (const auto& [id, slices] : held) {
    Holding before;
    const auto& first = map.slices[static_cast<size_t>(slices.front())];
    for (size_t q = 0; q < first.size(); q++)
      if (first[q].job == id && first[q].vps > 0) before.emplace_back(static_cast<int>(q), first[q].vps);
    log.of(id, std::move(before));
  }
  log.remove_row(static_cast<size_t>(p));
  if (options.indexed && options.validate && map.index.built) check_index(map, "before");
  EventResult result{map, {}, {}, {}, {}, {}, 0};
  processor_changed(result.map, static_cast<size_t>(p));
  result.map.processors.erase(result.map.processors.begin() + p);
  for (auto& slice : result.map.slices)
    slice.erase(slice.begin() + p);
  // The rows past p shift: the index is dropped, as by new_processor.
  result.map.index.built = false;
  // Free entries the other jobs could already use: those of slices that still hold some VP.
  long long free_before = 0;
  for (const auto& slice : result.map.slices)
    if (std::any_of(slice.begin(), slice.end(), [](const Entry& e) { return !e.free(); }))
      free_before += std::count_if(slice.begin(), slice.end(), [](const Entry& e) { return e.free(); });
  // First every affected job in its own slices (a slice the leaving processor emptied stays until then), then the
  // ones that did not fit there, as submissions.
  std::vector<JobId> to_place;
  for (const auto& [id, slices] : held)
    if (!reallocate_in_place(result.map, id, slices, options, &log)) to_place.push_back(id);
  result.removed_slices += remove_empty_slices(result.map);
  for (JobId id : to_place) {
    result.placements.push_back(place_job(result.map, *result.map.job(id), options, &log));
    result.removed_slices += remove_empty_slices(result.map);
  }
  if (free_entries_of(result.map) > free_before) expansion_round(result.map, affected, options, result, &log);
  record_moves(map.processors, log, result, options, &map);
  check_result(result, options);
  return result;
}

} // namespace jobsched::gang_now
