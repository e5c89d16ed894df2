/* Event handling, section 4.4 of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems":
 * job submission, new_processor, VP_exit, new_VP and processor_exit on the allocation map, built from MTAT,
 * Compression and Expansion. The readings of the paper are in events.hpp. */
#include "policies/gang_now/events.hpp"

#include "core/errors.hpp"

#include <algorithm>
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

std::string job_name(int id)
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

size_t queue_position(const AllocationMap& map, int id)
{
  for (size_t k = 0; k < map.jobs.size(); k++)
    if (map.jobs[k].id == id) return k;
  throw InputError("no " + job_name(id) + " in the allocation map");
}

void clear_job(AllocationMap& map, int id)
{
  for (auto& slice : map.slices)
    for (auto& e : slice)
      if (e.job == id) e = Entry{};
}

/* The job's entries in `slices`: vps[p] VPs on processor p (none where vps[p] == 0). */
void write_job(AllocationMap& map, int id, const std::vector<int>& slices, const std::vector<int>& vps)
{
  for (int s : slices)
    for (size_t p = 0; p < vps.size(); p++)
      if (vps[p] > 0) map.slices[static_cast<size_t>(s)][p] = Entry{id, vps[p]};
}

int remove_empty_slices(AllocationMap& map)
{
  size_t before = map.slices.size();
  map.slices.erase(std::remove_if(map.slices.begin(), map.slices.end(),
                                  [](const std::vector<Entry>& slice) {
                                    return std::all_of(slice.begin(), slice.end(),
                                                       [](const Entry& e) { return e.free(); });
                                  }),
                   map.slices.end());
  return static_cast<int>(before - map.slices.size());
}

void remove_job_record(AllocationMap& map, int id)
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
  std::vector<Rational> capacities;
  std::vector<std::string> archs;
  for (int p : subset) {
    capacities.push_back(map.processors[static_cast<size_t>(p)].capacity);
    archs.push_back(map.processors[static_cast<size_t>(p)].arch);
  }
  auto local = allocate_job(demand, capacities, archs, options.allocation);
  if (!local) return std::nullopt;
  JobAllocation out = *local;
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
PlacementDecision place_job(AllocationMap& map, const JobRecord& job, const SchedulerOptions& options)
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
    write_job(map, job.id, d.slices, in_pattern->vps);
  } else {
    map.slices.emplace_back(map.processors.size());
    d.slices = {static_cast<int>(map.slices.size() - 1)};
    d.turnaround = whole.turnaround;
    write_job(map, job.id, d.slices, whole.vps);
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
bool reallocate_in_place(AllocationMap& map, int id, const std::vector<int>& held, const SchedulerOptions& options)
{
  const JobRecord job = *map.job(id);
  std::optional<JobAllocation> a;
  if (!held.empty()) a = allocate_on(map, job.vps, available_processors(map, job, held), options);
  clear_job(map, id);
  if (!a) return false;
  write_job(map, id, held, a->vps);
  return true;
}

/* Every job's slices (AllocationMap::slices_of for all of them), in one pass over the map. */
std::unordered_map<int, std::vector<int>> slices_by_job(const AllocationMap& map)
{
  std::unordered_map<int, std::vector<int>> out;
  for (size_t s = 0; s < map.slices.size(); s++) {
    int last = kFreeEntry; // a job's entries are often side by side: look it up once per run of them
    for (const Entry& e : map.slices[s]) {
      if (e.free() || e.job == last) continue;
      last = e.job;
      auto& held = out[e.job];
      if (held.empty() || held.back() != static_cast<int>(s)) held.push_back(static_cast<int>(s));
    }
  }
  return out;
}

/* One job's turn in an Expansion round, the job holding `held` (its slices); true if it moved or was placed (false:
 * the map is unchanged). */
bool expand_job(AllocationMap& map, const JobRecord& job, const std::vector<int>& held, const SchedulerOptions& options,
                EventResult& result)
{
  const int id = job.id;
  if (held.empty()) {
    if (!has_every_arch(map, job.vps)) return false;
    result.placements.push_back(place_job(map, job, options));
    return true;
  }
  Pattern pattern = find_free_pattern(map, job.vps, id, options);
  if (pattern.empty()) return false;
  auto a = allocate_on(map, job.vps, pattern.processors, options);
  if (!a) return false;
  // Time-shared turnarounds with the same slice count tau on both sides: T / slices held. Its allocation is the same in
  // every slice it holds: read from the first (as AllocationMap::turnaround_of does).
  std::vector<int> current(map.processors.size(), 0);
  const auto& first = map.slices[static_cast<size_t>(held.front())];
  for (size_t p = 0; p < first.size(); p++)
    if (first[p].job == id) current[p] = first[p].vps;
  Rational now = turnaround_of(current, map.capacities()) / Rational(static_cast<long long>(held.size()));
  Rational then = a->turnaround / Rational(static_cast<long long>(pattern.slices.size()));
  if (then >= now) return false;
  clear_job(map, id);
  write_job(map, id, pattern.slices, a->vps);
  result.removed_slices += remove_empty_slices(map);
  return true;
}

void expansion_round(AllocationMap& map, const std::set<int>& excluded, const SchedulerOptions& options,
                     EventResult& result)
{
  if (map.jobs.empty()) return;
  const size_t start = map.next_job % map.jobs.size();
  std::vector<int> order;
  for (size_t k = 0; k < map.jobs.size(); k++)
    order.push_back(map.jobs[(start + k) % map.jobs.size()].id);
  // The free entries, counted again only when a job's turn changed the map; every job's slices from one pass over
  // the map. A job's turn changes only its own entries, and adds a slice at the end if any: the others' slices stay
  // where they were unless an emptied slice was removed (then all are found again).
  long long free_entries = map.free_entries();
  auto index = slices_by_job(map);
  // An Expansion round neither adds nor removes jobs: each one's record stays at its place in the queue.
  for (size_t k = 0; k < order.size(); k++) {
    const int id = order[k];
    if (excluded.count(id)) continue;
    const JobRecord* job = &map.jobs[(start + k) % map.jobs.size()];
    std::vector<int> held;
    if (auto it = index.find(id); it != index.end()) held = it->second;
    bool waiting = job && held.empty();
    // "until no free entries remain": a waiting job may still take a new slice.
    if (!job || (!waiting && free_entries == 0)) continue;
    const int removed_before = result.removed_slices;
    if (expand_job(map, *job, held, options, result)) {
      result.expanded_jobs.push_back(id);
      free_entries = map.free_entries();
      if (result.removed_slices != removed_before)
        index = slices_by_job(map);
      else
        index[id] = map.slices_of(id);
    }
  }
  map.next_job = (start + 1) % map.jobs.size();
}

/* Job -> processor name -> VPs. */
using Holdings = std::map<int, std::map<std::string, int>>;

Holdings holdings_of(const AllocationMap& map)
{
  // Each job's first slice, in one pass over the map (AllocationMap::allocation_of reads a job's entries there).
  std::unordered_map<int, size_t> first_slice;
  for (size_t s = 0; s < map.slices.size(); s++) {
    int last = kFreeEntry; // a job's entries are often side by side: look it up once per run of them
    for (const Entry& e : map.slices[s])
      if (!e.free() && e.job != last) {
        last = e.job;
        first_slice.emplace(e.job, s);
      }
  }
  Holdings out;
  for (const auto& job : map.jobs) {
    auto it = first_slice.find(job.id);
    if (it == first_slice.end()) continue;
    const auto& slice = map.slices[it->second];
    for (size_t p = 0; p < slice.size(); p++)
      if (slice[p].job == job.id && slice[p].vps > 0) out[job.id][map.processors[p].name] = slice[p].vps;
  }
  return out;
}

/* The net moves between `before` (on the processors of `old_map`) and the result's map. */
void record_moves(const Holdings& before, const AllocationMap& old_map, EventResult& result)
{
  std::vector<Processor> rows = old_map.processors;
  std::unordered_set<std::string> old_names;
  for (const auto& p : old_map.processors)
    old_names.insert(p.name);
  for (const auto& p : result.map.processors)
    if (old_names.count(p.name) == 0) rows.push_back(p);
  Holdings after = holdings_of(result.map);
  std::set<int> jobs;
  for (const auto& [id, h] : before)
    jobs.insert(id);
  for (const auto& [id, h] : after)
    jobs.insert(id);
  std::set<std::string> archs;
  for (const auto& p : rows)
    archs.insert(p.arch);
  for (int id : jobs) {
    const auto& was = before.count(id) ? before.at(id) : std::map<std::string, int>{};
    const auto& is = after.count(id) ? after.at(id) : std::map<std::string, int>{};
    if (was == is) continue; // nothing lost, nothing gained
    for (const auto& arch : archs) {
      std::vector<VpCount> losses;
      std::vector<VpCount> gains;
      for (const auto& p : rows) {
        if (p.arch != arch) continue;
        int old_count = was.count(p.name) ? was.at(p.name) : 0;
        int new_count = is.count(p.name) ? is.at(p.name) : 0;
        if (old_count > new_count) losses.push_back({id, p.name, old_count - new_count});
        if (new_count > old_count) gains.push_back({id, p.name, new_count - old_count});
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
}

void check_result(const EventResult& result, const SchedulerOptions& options)
{
  if (!options.validate) return;
  auto problems = validate(result.map);
  if (!problems.empty()) throw PolicyError("gang scheduler produced an invalid allocation map: " + problems.front());
}

void check_demand(const VpCounts& vps, int id)
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
EventResult after_departure(const AllocationMap& after_exit, const SchedulerOptions& options)
{
  EventResult result{after_exit, {}, {}, {}, {}, {}, 0};
  result.removed_slices += remove_empty_slices(result.map);
  expansion_round(result.map, {}, options, result);
  record_moves(holdings_of(after_exit), after_exit, result);
  check_result(result, options);
  return result;
}

} // namespace

Pattern find_free_pattern(const AllocationMap& map, const VpCounts& demand, int as_free,
                          const SchedulerOptions& options)
{
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
  ExpansionSearch search = options.expansion;
  if (search == ExpansionSearch::exhaustive && options.exhaustive_falls_back) {
    long with_free = 0;
    for (size_t s = 0; s < free.slices; s++)
      with_free += free.row_empty(s) ? 0 : 1;
    if (with_free > options.max_exhaustive_slices) search = ExpansionSearch::column;
  }
  return find_pattern(free, map.capacities(), search, options.max_exhaustive_slices);
}

EventResult submit_job(const AllocationMap& map, int job, const VpCounts& vps, const SchedulerOptions& options)
{
  check_map(map, options);
  if (job < 0) throw InputError(job_name(job) + ": job ids are >= 0");
  if (map.job(job)) throw InputError(job_name(job) + " is already in the allocation map");
  check_demand(vps, job);
  EventResult result{map, {}, {}, {}, {}, {}, 0};
  JobRecord record{job, {}};
  for (const auto& [arch, count] : vps)
    if (count > 0) record.vps[arch] = count;
  result.map.jobs.push_back(record);
  result.placements.push_back(place_job(result.map, record, options));
  record_moves(holdings_of(map), map, result);
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
  EventResult result{map, {}, {}, {}, {}, {}, 0};
  result.map.processors.push_back(processor);
  for (auto& slice : result.map.slices)
    slice.emplace_back();
  expansion_round(result.map, {}, options, result);
  record_moves(holdings_of(map), map, result);
  check_result(result, options);
  return result;
}

EventResult vp_exit(const AllocationMap& map, int job, const std::string& processor, const SchedulerOptions& options)
{
  check_map(map, options);
  queue_position(map, job);
  int p = map.processor_index(processor);
  if (p < 0) throw InputError("VP_exit: no processor '" + processor + "' in the allocation map");
  if (map.allocation_of(job)[static_cast<size_t>(p)] == 0)
    throw InputError("VP_exit: " + job_name(job) + " has no VP on processor '" + processor + "'");
  AllocationMap after_exit = map;
  for (auto& slice : after_exit.slices) {
    Entry& e = slice[static_cast<size_t>(p)];
    if (e.job == job && --e.vps == 0) e = Entry{};
  }
  JobRecord& record = after_exit.jobs[queue_position(after_exit, job)];
  int& count = record.vps[map.processors[static_cast<size_t>(p)].arch];
  count--;
  if (count == 0) record.vps.erase(map.processors[static_cast<size_t>(p)].arch);
  if (record.total_vps() == 0) remove_job_record(after_exit, job);
  return after_departure(after_exit, options);
}

EventResult job_exit(const AllocationMap& map, int job, const SchedulerOptions& options)
{
  check_map(map, options);
  queue_position(map, job);
  AllocationMap after_exit = map;
  clear_job(after_exit, job);
  remove_job_record(after_exit, job);
  return after_departure(after_exit, options);
}

EventResult new_vp(const AllocationMap& map, int job, const std::string& arch, const SchedulerOptions& options)
{
  check_map(map, options);
  queue_position(map, job);
  if (arch.empty()) throw InputError("new_VP: " + job_name(job) + "'s new VP has no architecture");
  EventResult result{map, {}, {}, {}, {}, {}, 0};
  const long long free_before = map.free_entries();
  result.map.jobs[queue_position(result.map, job)].vps[arch]++;
  const auto held = map.slices_of(job);
  if (!held.empty() && !reallocate_in_place(result.map, job, held, options)) {
    result.removed_slices += remove_empty_slices(result.map);
    result.placements.push_back(place_job(result.map, *result.map.job(job), options));
  }
  result.removed_slices += remove_empty_slices(result.map);
  if (result.map.free_entries() > free_before) expansion_round(result.map, {job}, options, result);
  record_moves(holdings_of(map), map, result);
  check_result(result, options);
  return result;
}

EventResult processor_exit(const AllocationMap& map, const std::string& processor, const SchedulerOptions& options)
{
  check_map(map, options);
  int p = map.processor_index(processor);
  if (p < 0) throw InputError("processor_exit: no processor '" + processor + "' in the allocation map");
  std::set<int> affected;
  std::vector<std::pair<int, std::vector<int>>> held; // affected jobs in queue order, with the slices they hold
  // The jobs with VPs on the processor: its column's entries (a job is placed the same way in all its slices).
  std::unordered_set<int> on_processor;
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
  EventResult result{map, {}, {}, {}, {}, {}, 0};
  result.map.processors.erase(result.map.processors.begin() + p);
  for (auto& slice : result.map.slices)
    slice.erase(slice.begin() + p);
  // Free entries the other jobs could already use: those of slices that still hold some VP.
  long long free_before = 0;
  for (const auto& slice : result.map.slices)
    if (std::any_of(slice.begin(), slice.end(), [](const Entry& e) { return !e.free(); }))
      free_before += std::count_if(slice.begin(), slice.end(), [](const Entry& e) { return e.free(); });
  // First every affected job in its own slices (a slice the leaving processor emptied stays until then), then the
  // ones that did not fit there, as submissions.
  std::vector<int> to_place;
  for (const auto& [id, slices] : held)
    if (!reallocate_in_place(result.map, id, slices, options)) to_place.push_back(id);
  result.removed_slices += remove_empty_slices(result.map);
  for (int id : to_place) {
    result.placements.push_back(place_job(result.map, *result.map.job(id), options));
    result.removed_slices += remove_empty_slices(result.map);
  }
  if (result.map.free_entries() > free_before) expansion_round(result.map, affected, options, result);
  record_moves(holdings_of(map), map, result);
  check_result(result, options);
  return result;
}

} // namespace jobsched::gang_now
