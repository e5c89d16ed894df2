/* The VP moves of an event of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems"
 * (section 4.4): from the jobs' holdings before and after it (vp_moves.hpp). */
#include "policies/gang_now/vp_moves.hpp"

#include "core/errors.hpp"

#include <algorithm>

namespace jobsched::gang_now {

namespace {

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

} // namespace

void record_moves(const std::vector<Processor>& old_processors, ChangeLog& log, EventResult& result,
                  const SchedulerOptions& options, const AllocationMap* old_map)
{
  if (log.changes.empty() && (!options.validate || !old_map)) return; // no job's entries changed: no move
  record_moves(processor_rows(old_processors, result.map.processors, nullptr), log, result, options, old_map);
}

void record_moves(const std::vector<const Processor*>& rows, ChangeLog& log, EventResult& result,
                  const SchedulerOptions& options, const AllocationMap* old_map)
{
  if (log.changes.empty() && (!options.validate || !old_map)) return; // no job's entries changed: no move
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

} // namespace jobsched::gang_now
