/* Event handling, section 4.4 of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems":
 * job submission, new_processor, VP_exit, new_VP and processor_exit on the allocation map, built from MTAT,
 * Compression and Expansion. The readings of the paper are in events.hpp; the map's edits (map_edits.hpp), a job's
 * placement (placement.hpp), the Expansion round (expansion_round.hpp, shared_rows.hpp) and the VP moves
 * (vp_moves.hpp) are files of their own. */
#include "policies/gang_now/events.hpp"

#include "core/errors.hpp"
#include "policies/gang_now/expansion_round.hpp"
#include "policies/gang_now/map_edits.hpp"
#include "policies/gang_now/placement.hpp"
#include "policies/gang_now/vp_moves.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace jobsched::gang_now {

namespace {

void check_map(const AllocationMap& map, const SchedulerOptions& options)
{
  if (!options.validate) return;
  auto problems = validate(map);
  if (!problems.empty())
    throw InputError("invalid allocation map: " + problems.front() +
                     (problems.size() > 1 ? " (and " + std::to_string(problems.size() - 1) + " more problems)" : ""));
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
  return new_processor(AllocationMap(map), processor, options);
}

EventResult new_processor(AllocationMap&& map, const Processor& processor, const SchedulerOptions& options)
{
  check_map(map, options);
  prepare_index(map, options);
  if (processor.name.empty()) throw InputError("new_processor: the processor has no name");
  if (map.row_of(processor.name) >= 0)
    throw InputError("new_processor: processor '" + processor.name + "' is already in the allocation map");
  if (processor.capacity <= 0)
    throw InputError("new_processor: processor '" + processor.name + "' has capacity " +
                     fraction_string(processor.capacity));
  if (processor.arch.empty()) throw InputError("new_processor: processor '" + processor.name + "' has no architecture");
  std::optional<AllocationMap> before; // for the check of the moves (options.validate)
  if (options.validate) before = map;
  EventResult result{std::move(map), {}, {}, {}, {}, {}, 0};
  result.map.processors.push_back(processor);
  for (auto& slice : result.map.slices)
    slice.emplace_back();
  processor_changed(result.map, result.map.processors.size() - 1);
  // A new row after the others: the index follows it (on a network whose owners come and go most events are theirs;
  // building the index again at the next other event read every entry of the map).
  if (result.map.index.built) index_processor_added(result.map);
  ChangeLog log; // the new processor's row follows the others': the rows are the processors' indices
  expansion_round(result.map, {}, options, result, &log);
  record_moves(result.map.processors, log, result, options, before ? &*before : nullptr);
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
  return processor_exit(AllocationMap(map), processor, options);
}

EventResult processor_exit(AllocationMap&& map, const std::string& processor, const SchedulerOptions& options)
{
  check_map(map, options);
  prepare_index(map, options);
  int p = map.row_of(processor);
  if (p < 0) throw InputError("processor_exit: no processor '" + processor + "' in the allocation map");
  std::optional<AllocationMap> before; // for the check of the moves (options.validate)
  if (options.validate) before = map;
  std::set<JobId> affected;
  std::vector<std::pair<JobId, std::vector<int>>> held; // affected jobs in queue order, with the slices they hold
  // The jobs with VPs on the processor: its column's entries (a job is placed the same way in all its slices).
  std::unordered_set<JobId> on_processor;
  for (const auto& slice : map.slices)
    if (!slice[static_cast<size_t>(p)].free()) on_processor.insert(slice[static_cast<size_t>(p)].job);
  if (!on_processor.empty()) {
    std::unordered_map<JobId, std::vector<int>> slices; // without the index: from one pass over the map
    if (!map.index.built) slices = slices_by_job(map);
    for (const auto& job : map.jobs)
      if (on_processor.count(job.id) != 0) {
        affected.insert(job.id);
        held.emplace_back(job.id, map.index.built ? job.held_slices : slices[job.id]);
      }
  }
  // The affected jobs' holdings before the processor leaves (rows: the processors' indices now); afterwards the
  // processors past it keep their rows, one more than their index.
  ChangeLog log;
  for (const auto& [id, slices] : held) {
    Holding was;
    if (map.index.built) {
      for (const auto& [q, vps] : map.jobs[queue_position(map, id)].held_entries)
        if (vps > 0) was.emplace_back(q, vps);
    } else {
      const auto& first = map.slices[static_cast<size_t>(slices.front())];
      for (size_t q = 0; q < first.size(); q++)
        if (first[q].job == id && first[q].vps > 0) was.emplace_back(static_cast<int>(q), first[q].vps);
    }
    log.of(id, std::move(was));
  }
  log.remove_row(static_cast<size_t>(p));
  EventResult result{std::move(map), {}, {}, {}, {}, {}, 0};
  AllocationMap& after = result.map;
  processor_changed(after, static_cast<size_t>(p));
  // The rows before the event, for the moves: the processor that leaves, kept here, at its row.
  const Processor gone = after.processors[static_cast<size_t>(p)];
  after.processors.erase(after.processors.begin() + p);
  for (auto& slice : after.slices)
    slice.erase(slice.begin() + p);
  // The rows past p shift: the index follows them.
  if (after.index.built) index_processor_removed(after, static_cast<size_t>(p), gone.arch);
  // Free entries the other jobs could already use: those of slices that still hold some VP.
  long long free_before = 0;
  if (after.index.built) {
    for (int count : after.index.held)
      if (count > 0) free_before += static_cast<long long>(after.processors.size()) - count;
  } else {
    for (const auto& slice : after.slices)
      if (std::any_of(slice.begin(), slice.end(), [](const Entry& e) { return !e.free(); }))
        free_before += std::count_if(slice.begin(), slice.end(), [](const Entry& e) { return e.free(); });
  }
  // First every affected job in its own slices (a slice the leaving processor emptied stays until then), then the
  // ones that did not fit there, as submissions.
  std::vector<JobId> to_place;
  for (const auto& [id, slices] : held)
    if (!reallocate_in_place(after, id, slices, options, &log)) to_place.push_back(id);
  result.removed_slices += remove_empty_slices(after);
  for (JobId id : to_place) {
    result.placements.push_back(place_job(after, *after.job(id), options, &log));
    result.removed_slices += remove_empty_slices(after);
  }
  if (free_entries_of(after) > free_before) expansion_round(after, affected, options, result, &log);
  std::vector<const Processor*> rows; // the processors' rows before the event
  rows.reserve(after.processors.size() + 1);
  for (size_t q = 0; q <= after.processors.size(); q++)
    rows.push_back(q < static_cast<size_t>(p)    ? &after.processors[q]
                   : q == static_cast<size_t>(p) ? &gone
                                                 : &after.processors[q - 1]);
  record_moves(rows, log, result, options, before ? &*before : nullptr);
  check_result(result, options);
  return result;
}

} // namespace jobsched::gang_now
