/* Compression, section 4.2 of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems":
 * the exact minimal processor set and the published pseudocode with its open choices made (see compression.hpp),
 * per architecture pool; and MTAT followed by Compression, the allocation step every event handler uses. */
#include "policies/gang_now/compression.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace jobsched::gang_now {

std::string compression_variant_name(CompressionVariant variant)
{
  return variant == CompressionVariant::paper ? "paper" : "exact";
}

CompressionVariant parse_compression_variant(const std::string& name)
{
  if (name == "paper") return CompressionVariant::paper;
  if (name == "exact") return CompressionVariant::exact;
  throw InputError("unknown compression variant '" + name + "' (known: paper, exact)");
}

std::string pool_target_name(PoolTarget target)
{
  return target == PoolTarget::common ? "common" : "per-pool";
}

PoolTarget parse_pool_target(const std::string& name)
{
  if (name == "common") return PoolTarget::common;
  if (name == "per-pool") return PoolTarget::per_pool;
  throw InputError("unknown pool target '" + name + "' (known: common, per-pool)");
}

namespace {

/* The published step 3 (steps 1 and 2 are the bounds), with the choices documented in compression.hpp. */
std::vector<int> paper_compression(std::vector<int> vps, const std::vector<Rational>& capacities,
                                   const Rational& target, const std::vector<int>& bounds)
{
  const size_t n = vps.size();
  long long total_vps = std::accumulate(vps.begin(), vps.end(), 0LL);
  std::vector<bool> in_min(n);
  long long capacity = 0;
  for (size_t i = 0; i < n; i++) {
    in_min[i] = bounds[i] > 0; // step 2: Phi_min drops the processors that cannot hold one whole VP
    if (in_min[i]) capacity += bounds[i];
  }
  if (capacity <= total_vps) return vps;
  long long free = capacity - total_vps;
  std::vector<bool> emptied(n, false);
  std::vector<bool> in_targets(n); // Phi_T, fixed before the visits as in the pseudocode
  for (size_t i = 0; i < n; i++)
    in_targets[i] = in_min[i] && target * capacities[i] - Rational(vps[i]) >= Rational(1);
  std::vector<size_t> unvisited;
  for (size_t i = 0; i < n; i++)
    if (in_min[i]) unvisited.push_back(i);
  while (!unvisited.empty()) {
    // Phi_sorted, sorted again before each visit ("reinsert P_j"): fewest VPs, then smaller capacity, lower index.
    auto next = std::min_element(unvisited.begin(), unvisited.end(), [&](size_t a, size_t b) {
      return std::make_tuple(vps[a], capacities[a], a) < std::make_tuple(vps[b], capacities[b], b);
    });
    size_t i = *next;
    unvisited.erase(next);
    if (vps[i] == 0 || vps[i] > free) continue;
    free -= vps[i];
    std::vector<size_t> targets;
    int room = 0;
    for (size_t j = 0; j < n; j++)
      if (j != i && in_targets[j] && !emptied[j] && vps[j] > 0) {
        targets.push_back(j);
        room += std::max(0, bounds[j] - vps[j]);
      }
    if (room < vps[i]) continue; // free overestimated the room (it counts P_i's own): nothing to free here
    std::stable_sort(targets.begin(), targets.end(),
                     [&](size_t a, size_t b) { return bounds[a] - vps[a] > bounds[b] - vps[b]; });
    for (size_t j : targets) {
      int moved = std::min(vps[i], std::max(0, bounds[j] - vps[j]));
      vps[i] -= moved;
      vps[j] += moved;
      if (vps[i] == 0) break;
    }
    emptied[i] = true; // "remove P_i from Phi_min": no longer a target
  }
  return vps;
}

std::vector<int> exact_compression(const std::vector<int>& vps, const std::vector<Rational>& capacities,
                                   const std::vector<int>& bounds)
{
  const size_t n = vps.size();
  long long total_vps = std::accumulate(vps.begin(), vps.end(), 0LL);
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::make_tuple(-bounds[a], -vps[a]) < std::make_tuple(-bounds[b], -vps[b]);
  });
  std::vector<size_t> kept;
  long long covered = 0;
  for (size_t i : order) {
    if (covered >= total_vps) break;
    kept.push_back(i);
    covered += bounds[i];
  }
  std::sort(kept.begin(), kept.end());
  std::vector<Rational> kept_capacities;
  for (size_t i : kept)
    kept_capacities.push_back(capacities[i]);
  std::vector<int> out(n, 0);
  if (kept.empty()) return out;
  MtatResult spread = mtat(static_cast<int>(total_vps), kept_capacities, MtatVariant::optimal);
  for (size_t k = 0; k < kept.size(); k++)
    out[kept[k]] = spread.vps[k];
  return out;
}

} // namespace

CompressionResult compress(const std::vector<int>& vps, const std::vector<Rational>& capacities, const Rational& target,
                           CompressionVariant variant)
{
  if (vps.size() != capacities.size()) throw InputError("compression: as many VP counts as capacities are needed");
  for (size_t i = 0; i < vps.size(); i++) {
    if (capacities[i] <= 0) throw InputError("compression: processor " + std::to_string(i) + " has capacity <= 0");
    if (vps[i] < 0) throw InputError("compression: processor " + std::to_string(i) + " has a negative VP count");
  }
  if (turnaround_of(vps, capacities) > target)
    throw InputError("compression: the allocation's turnaround " + fraction_string(turnaround_of(vps, capacities)) +
                     " exceeds the target " + fraction_string(target));
  CompressionResult out;
  std::vector<std::pair<Rational, int>> known; // the bound of each capacity met so far (platforms have few)
  for (const auto& a : capacities) {
    auto it = std::find_if(known.begin(), known.end(), [&a](const auto& k) { return k.first == a; });
    if (it == known.end()) {
      known.emplace_back(a, static_cast<int>(floor_of(target * a))); // step 1: x_imax = T a_i, whole VPs only
      it = known.end() - 1;
    }
    out.bounds.push_back(it->second);
  }
  out.vps = variant == CompressionVariant::paper ? paper_compression(vps, capacities, target, out.bounds)
                                                 : exact_compression(vps, capacities, out.bounds);
  out.turnaround = turnaround_of(out.vps, capacities);
  return out;
}

PooledCompressionResult compress_pools(const std::vector<int>& vps, const std::vector<Rational>& capacities,
                                       const std::vector<std::string>& archs,
                                       const std::map<std::string, Rational>& pool_turnarounds, PoolTarget target,
                                       CompressionVariant variant)
{
  PooledCompressionResult out;
  out.vps = vps;
  Rational common(0);
  for (const auto& [arch, t] : pool_turnarounds)
    common = std::max(common, t);
  for (const auto& [arch, t] : pool_turnarounds) {
    const std::vector<size_t> pool = pool_of(archs, arch);
    std::vector<int> pool_vps;
    std::vector<Rational> pool_capacities;
    for (size_t i : pool) {
      pool_vps.push_back(vps[i]);
      pool_capacities.push_back(capacities[i]);
    }
    Rational pool_target = target == PoolTarget::common ? common : t;
    out.pool_targets[arch] = pool_target;
    if (pool.empty()) continue;
    CompressionResult r = compress(pool_vps, pool_capacities, pool_target, variant);
    for (size_t k = 0; k < pool.size(); k++)
      out.vps[pool[k]] = r.vps[k];
  }
  out.turnaround = turnaround_of(out.vps, capacities);
  return out;
}

std::optional<JobAllocation> allocate_job(const VpCounts& demand, const std::vector<Rational>& capacities,
                                          const std::vector<std::string>& archs, const AllocationOptions& options)
{
  for (const auto& [arch, count] : demand)
    if (count > 0 && std::find(archs.begin(), archs.end(), arch) == archs.end()) return std::nullopt;
  JobAllocation out;
  out.mtat = pooled_mtat(demand, capacities, archs, options.mtat);
  PooledCompressionResult c = compress_pools(out.mtat.vps, capacities, archs, out.mtat.pool_turnarounds,
                                             options.pool_target, options.compression);
  out.vps = c.vps;
  out.turnaround = c.turnaround;
  return out;
}

JobAllocation allocate_on_equal_capacities(const std::string& arch, int vps, size_t processors,
                                           const Rational& capacity)
{
  if (vps <= 0 || processors == 0 || capacity <= 0)
    throw InputError("allocation on equal capacities: needs VPs, processors and a positive capacity");
  const auto n = static_cast<long long>(processors);
  const long long x = vps;
  // Up to `n` processors, the first `x % n` with one VP more than the others.
  const auto spread = [x](long long n_kept, std::vector<int>& out) {
    const long long each = x / n_kept;
    const long long more = x % n_kept;
    for (long long i = 0; i < n_kept; i++)
      out[static_cast<size_t>(i)] = static_cast<int>(each + (i < more ? 1 : 0));
  };
  JobAllocation out;
  out.mtat.vps.assign(processors, 0);
  spread(n, out.mtat.vps);
  const long long bound = (x + n - 1) / n; // m: MTAT's most VPs on one processor, and every processor's bound
  out.mtat.turnaround = Rational(bound) / capacity;
  out.mtat.pool_turnarounds.emplace(arch, out.mtat.turnaround);
  const long long kept = (x + bound - 1) / bound;
  out.vps.assign(processors, 0);
  spread(kept, out.vps);
  out.turnaround = Rational((x + kept - 1) / kept) / capacity;
  return out;
}

} // namespace jobsched::gang_now
