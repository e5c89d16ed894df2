/* The allocation map of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems" (section 3):
 * accessors and the validator of its rules (allocation_map.hpp). */
#include "policies/gang_now/allocation_map.hpp"

#include <algorithm>
#include <functional>
#include <set>
#include <unordered_map>

namespace jobsched::gang_now {

int JobRecord::total_vps() const
{
  int total = 0;
  for (const auto& [arch, count] : vps)
    total += count;
  return total;
}

int AllocationMap::processor_index(const std::string& name) const
{
  for (size_t p = 0; p < processors.size(); p++)
    if (processors[p].name == name) return static_cast<int>(p);
  return -1;
}

int AllocationMap::row_of(const std::string& name) const
{
  if (!index.built) return processor_index(name);
  const std::size_t hash = std::hash<std::string>{}(name);
  // The processors whose names have this hash, by increasing index: the first called `name` (as processor_index).
  for (auto it = std::lower_bound(index.rows.begin(), index.rows.end(), std::make_pair(hash, -1));
       it != index.rows.end() && it->first == hash; ++it)
    if (processors[static_cast<size_t>(it->second)].name == name) return it->second;
  return -1;
}

const JobRecord* AllocationMap::job(JobId id) const
{
  for (const auto& j : jobs)
    if (j.id == id) return &j;
  return nullptr;
}

std::vector<int> AllocationMap::slices_of(JobId id) const
{
  std::vector<int> out;
  for (size_t s = 0; s < slices.size(); s++)
    for (const auto& e : slices[s])
      if (e.job == id) {
        out.push_back(static_cast<int>(s));
        break;
      }
  return out;
}

std::vector<int> AllocationMap::allocation_of(JobId id) const
{
  std::vector<int> out(processors.size(), 0);
  auto held = slices_of(id);
  if (held.empty()) return out;
  const auto& slice = slices[static_cast<size_t>(held.front())];
  for (size_t p = 0; p < processors.size(); p++)
    if (slice[p].job == id) out[p] = slice[p].vps;
  return out;
}

Rational AllocationMap::turnaround_of(JobId id) const
{
  return gang_now::turnaround_of(allocation_of(id), capacities());
}

Rational AllocationMap::shared_turnaround_of(JobId id) const
{
  auto held = slices_of(id);
  if (held.empty()) return Rational(0);
  return turnaround_of(id) * Rational(static_cast<long long>(slices.size()), static_cast<long long>(held.size()));
}

std::vector<Rational> AllocationMap::capacities() const
{
  std::vector<Rational> out;
  for (const auto& p : processors)
    out.push_back(p.capacity);
  return out;
}

std::vector<std::string> AllocationMap::archs() const
{
  std::vector<std::string> out;
  for (const auto& p : processors)
    out.push_back(p.arch);
  return out;
}

long long AllocationMap::free_entries() const
{
  long long count = 0;
  for (const auto& slice : slices)
    for (const auto& e : slice)
      count += e.free() ? 1 : 0;
  return count;
}

std::vector<std::string> validate(const AllocationMap& map)
{
  std::vector<std::string> problems;
  std::set<std::string> names;
  for (const auto& p : map.processors) {
    if (p.name.empty()) problems.push_back("a processor has no name");
    if (!names.insert(p.name).second) problems.push_back("processor '" + p.name + "' appears twice");
    if (p.capacity <= 0) problems.push_back("processor '" + p.name + "' has capacity " + fraction_string(p.capacity));
    if (p.arch.empty()) problems.push_back("processor '" + p.name + "' has no architecture");
  }
  std::set<JobId> ids;
  for (const auto& j : map.jobs) {
    if (j.id < 0) problems.push_back("job " + std::to_string(j.id) + " has a negative id");
    if (!ids.insert(j.id).second) problems.push_back("job " + std::to_string(j.id) + " appears twice");
    if (j.total_vps() <= 0) problems.push_back("job " + std::to_string(j.id) + " has no VP");
    for (const auto& [arch, count] : j.vps)
      if (count < 0) problems.push_back("job " + std::to_string(j.id) + " has a negative VP count for " + arch);
  }
  if (!map.jobs.empty() && map.next_job >= map.jobs.size())
    problems.push_back("next_job " + std::to_string(map.next_job) + " is past the job queue");
  for (size_t s = 0; s < map.slices.size(); s++) {
    const auto& slice = map.slices[s];
    const std::string where = "slice " + std::to_string(s);
    if (slice.size() != map.processors.size()) {
      problems.push_back(where + " has " + std::to_string(slice.size()) + " entries for " +
                         std::to_string(map.processors.size()) + " processors");
      continue;
    }
    bool any = false;
    std::map<JobId, VpCounts> held; // VPs per job and architecture in this slice
    for (size_t p = 0; p < slice.size(); p++) {
      const Entry& e = slice[p];
      if (e.free()) continue;
      any = true;
      const std::string entry = where + ", processor '" + map.processors[p].name + "'";
      if (!ids.count(e.job)) problems.push_back(entry + ": job " + std::to_string(e.job) + " is not in the job list");
      if (e.vps <= 0) problems.push_back(entry + ": job " + std::to_string(e.job) + " with no VP");
      held[e.job][map.processors[p].arch] += e.vps;
    }
    if (!any) problems.push_back(where + " is entirely free (an emptied slice is removed)");
    for (const auto& [id, counts] : held) {
      const JobRecord* j = map.job(id);
      if (!j) continue;
      VpCounts wanted;
      for (const auto& [arch, count] : j->vps)
        if (count > 0) wanted[arch] = count;
      if (counts != wanted)
        problems.push_back(where + " does not hold all of job " + std::to_string(id) +
                           "'s VPs on processors of their architectures (gang scheduling)");
    }
  }
  for (const auto& j : map.jobs) {
    auto held = map.slices_of(j.id);
    for (size_t k = 1; k < held.size(); k++)
      for (size_t p = 0; p < map.processors.size(); p++) {
        const Entry& first = map.slices[static_cast<size_t>(held[0])][p];
        const Entry& other = map.slices[static_cast<size_t>(held[k])][p];
        bool mine_first = first.job == j.id;
        bool mine_other = other.job == j.id;
        if (mine_first != mine_other || (mine_first && first.vps != other.vps)) {
          problems.push_back("job " + std::to_string(j.id) + " is not placed the same way in slices " +
                             std::to_string(held[0]) + " and " + std::to_string(held[k]));
          p = map.processors.size();
        }
      }
  }
  return problems;
}

void build_index(AllocationMap& map)
{
  MapIndex& index = map.index;
  const size_t processors = map.processors.size();
  const size_t words = (processors + 63) / 64;
  index.words = words;
  index.free.assign(map.slices.size() * words, 0);
  index.held.assign(map.slices.size(), 0);
  index.free_entries = 0;
  index.arch_masks.clear();
  index.rows.clear();
  index.mask_units.clear();
  for (size_t p = 0; p < processors; p++) {
    auto& mask = index.arch_masks[map.processors[p].arch];
    mask.resize(words, 0);
    mask[p / 64] |= std::uint64_t{1} << (p % 64);
    index.rows.emplace_back(std::hash<std::string>{}(map.processors[p].name), static_cast<int>(p));
  }
  std::sort(index.rows.begin(), index.rows.end());
  std::unordered_map<JobId, JobRecord*> records;
  for (auto& job : map.jobs) {
    job.held_slices.clear();
    job.held_entries.clear();
    job.held_found = false;
    records.emplace(job.id, &job);
  }
  for (size_t s = 0; s < map.slices.size(); s++) {
    const auto& slice = map.slices[s];
    const int here = static_cast<int>(s);
    JobId last = kFreeEntry; // a job's entries are often side by side: look it up once per run of them
    JobRecord* record = nullptr;
    for (size_t p = 0; p < slice.size() && p < processors; p++) {
      const Entry& e = slice[p];
      if (e.free()) {
        index.free[s * words + p / 64] |= std::uint64_t{1} << (p % 64);
        index.free_entries++;
        continue;
      }
      index.held[s]++;
      if (e.job != last) {
        last = e.job;
        auto it = records.find(e.job);
        record = it == records.end() ? nullptr : it->second;
        if (record && (record->held_slices.empty() || record->held_slices.back() != here))
          record->held_slices.push_back(here);
      }
      // Its entries from the first slice it holds.
      if (record && record->held_slices.size() == 1) record->held_entries.emplace_back(static_cast<int>(p), e.vps);
    }
  }
  index.built = true;
}

std::vector<std::string> index_problems(const AllocationMap& map)
{
  std::vector<std::string> problems;
  if (!map.index.built) return problems;
  AllocationMap fresh = map;
  build_index(fresh);
  const MapIndex& is = map.index;
  const MapIndex& should = fresh.index;
  if (is.words != should.words || is.free != should.free) problems.push_back("its free entries are not the map's");
  if (is.held != should.held) problems.push_back("its counts of held entries per slice are not the map's");
  if (is.free_entries != should.free_entries)
    problems.push_back("it counts " + std::to_string(is.free_entries) + " free entries, the map has " +
                       std::to_string(should.free_entries));
  if (is.arch_masks != should.arch_masks) problems.push_back("its architectures' processors are not the map's");
  if (is.rows != should.rows) problems.push_back("its processors' rows are not the map's");
  for (size_t k = 0; k < map.jobs.size(); k++) {
    if (map.jobs[k].held_slices != fresh.jobs[k].held_slices)
      problems.push_back("job " + std::to_string(map.jobs[k].id) + "'s slices are not those it holds");
    if (map.jobs[k].held_entries != fresh.jobs[k].held_entries)
      problems.push_back("job " + std::to_string(map.jobs[k].id) + "'s entries are not those it holds");
  }
  return problems;
}

} // namespace jobsched::gang_now
