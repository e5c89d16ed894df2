/* A job's placement in the scheduling events of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous
 * Distributed Systems" (sections 4.4.1 and 4.4.3), and the free space it searches (find_free_pattern, events.hpp). */
#include "policies/gang_now/placement.hpp"

#include "core/errors.hpp"
#include "policies/gang_now/events.hpp"
#include "policies/gang_now/shared_rows.hpp"

#include <algorithm>

namespace jobsched::gang_now {

namespace {

bool uses_arch(const VpCounts& demand, const std::string& arch)
{
  auto it = demand.find(arch);
  return it != demand.end() && it->second > 0;
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

} // namespace

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

} // namespace jobsched::gang_now
