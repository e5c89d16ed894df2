/* MTAT, section 4.1 of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems": the
 * published five steps (`paper`) and the exact greedy (`optimal`), both in exact rationals, and the per-pool call of
 * the architecture extension. Readings and tie rules are in mtat.hpp. */
#include "policies/gang_now/mtat.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <numeric>
#include <queue>
#include <tuple>

namespace jobsched::gang_now {

std::string mtat_variant_name(MtatVariant variant)
{
  return variant == MtatVariant::paper ? "paper" : "optimal";
}

MtatVariant parse_mtat_variant(const std::string& name)
{
  if (name == "paper") return MtatVariant::paper;
  if (name == "optimal") return MtatVariant::optimal;
  throw InputError("unknown MTAT variant '" + name + "' (known: paper, optimal)");
}

Rational turnaround_of(const std::vector<int>& vps, const std::vector<Rational>& capacities)
{
  // The most VPs on a processor of each capacity, then one division per capacity: a platform has few distinct
  // speeds, and 10,000 workstations would otherwise cost 10,000 rational divisions and comparisons.
  std::vector<std::pair<Rational, int>> most; // (capacity, most VPs on one processor of it)
  for (size_t i = 0; i < vps.size(); i++) {
    if (vps[i] <= 0) continue;
    auto it = std::find_if(most.begin(), most.end(), [&](const auto& m) { return m.first == capacities[i]; });
    if (it == most.end())
      most.emplace_back(capacities[i], vps[i]);
    else
      it->second = std::max(it->second, vps[i]);
  }
  Rational worst(0);
  for (const auto& [capacity, count] : most)
    worst = std::max(worst, Rational(count) / capacity);
  return worst;
}

namespace {

void check_input(int vps, const std::vector<Rational>& capacities)
{
  if (vps < 0) throw InputError("MTAT: a job cannot have " + std::to_string(vps) + " VPs");
  if (capacities.empty()) throw InputError("MTAT: no processor to run " + std::to_string(vps) + " VPs on");
  for (size_t i = 0; i < capacities.size(); i++)
    if (capacities[i] <= 0)
      throw InputError("MTAT: processor " + std::to_string(i) + " has capacity " + fraction_string(capacities[i]) +
                       " (must be positive)");
}

/* The distinct capacities (classes[i]: processor i's index in `distinct`): processors of equal capacity share every
 * quantity derived from it, computed once per class. A platform has few distinct speeds. */
std::vector<size_t> capacity_classes(const std::vector<Rational>& capacities, std::vector<Rational>& distinct)
{
  std::vector<size_t> classes(capacities.size());
  size_t last = 0;
  for (size_t i = 0; i < capacities.size(); i++) {
    if (last < distinct.size() && distinct[last] == capacities[i]) {
      classes[i] = last;
      continue;
    }
    last = static_cast<size_t>(std::find(distinct.begin(), distinct.end(), capacities[i]) - distinct.begin());
    if (last == distinct.size()) distinct.push_back(capacities[i]);
    classes[i] = last;
  }
  return classes;
}

/* Steps 1 to 5 as published. */
void paper_steps(int vps, const std::vector<Rational>& capacities, MtatResult& out)
{
  const size_t n = capacities.size();
  out.floors.resize(n);
  out.ideal.resize(n);
  out.drags.resize(n);
  long long placed = 0;
  for (size_t i = 0; i < n; i++) {
    out.ideal[i] = capacities[i] * out.alpha;                                        // equation (1)
    out.floors[i] = static_cast<int>(floor_of(out.ideal[i]));                        // step 1, equation (2)
    out.drags[i] = (Rational(ceil_of(out.ideal[i])) - out.ideal[i]) / capacities[i]; // step 3, equation (3)
    placed += out.floors[i];
  }
  out.diff = static_cast<int>(vps - placed); // step 2; 0 <= Diff < n since each floor loses less than one VP
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  // Step 4 orders by Drag; step 5 prefers processors holding VPs; then fewer VPs, then the lower index.
  std::stable_sort(order.begin(), order.end(), [&out](size_t a, size_t b) {
    return std::make_tuple(out.drags[a], out.floors[a] == 0, out.floors[a]) <
           std::make_tuple(out.drags[b], out.floors[b] == 0, out.floors[b]);
  });
  out.vps = out.floors;
  for (int k = 0; k < out.diff; k++)
    out.vps[order[static_cast<size_t>(k)]]++;
}

/* One VP at a time to the smallest (n_i + 1) / a_i; a priority queue keyed as documented in mtat.hpp. The greedy
 * picks the X smallest values k / a_i; every value k / a_i <= alpha is among them (there are at most X such values,
 * and the X-th smallest is at least alpha), so the floors of x_i = a_i alpha are handed out at once, and fewer than
 * one VP per processor is left to the queue. Ties at the last value are met in the same state as one VP at a time
 * from zero, so the result is the same. */
void optimal_greedy(int vps, const std::vector<Rational>& capacities, const Rational& alpha, MtatResult& out,
                    const std::vector<size_t>& classes, const std::vector<Rational>& distinct)
{
  const size_t n = capacities.size();
  std::vector<int> class_floor(distinct.size());
  for (size_t c = 0; c < distinct.size(); c++)
    class_floor[c] = static_cast<int>(floor_of(distinct[c] * alpha));
  out.vps.assign(n, 0);
  int left = vps;
  for (size_t i = 0; i < n; i++) {
    out.vps[i] = class_floor[classes[i]];
    left -= out.vps[i];
  }
  // (next completion time, holds no VP yet, -capacity, index): the smallest key receives the next VP.
  // A processor's keys increase VP after VP, so the VPs left go to the smallest `left` keys of all: a processor whose
  // first key is not among the `left` smallest first keys receives none, and the queue starts with those only. The
  // processors of one capacity have the same first key but for their index: taken by class, then by index.
  using Key = std::tuple<Rational, bool, Rational, size_t>;
  if (left <= 0) return;
  std::vector<Key> class_keys;
  for (size_t c = 0; c < distinct.size(); c++)
    class_keys.emplace_back(Rational(class_floor[c] + 1) / distinct[c], class_floor[c] == 0, -distinct[c], c);
  std::sort(class_keys.begin(), class_keys.end());
  std::vector<size_t> rank(distinct.size()); // a class's place in key order
  for (size_t k = 0; k < class_keys.size(); k++)
    rank[std::get<3>(class_keys[k])] = k;
  std::vector<std::vector<size_t>> members(distinct.size()); // by rank, in index order
  for (size_t i = 0; i < n; i++)
    members[rank[classes[i]]].push_back(i);
  std::vector<Key> first;
  for (size_t k = 0; k < members.size() && first.size() < static_cast<size_t>(left); k++)
    for (size_t i : members[k]) {
      if (first.size() == static_cast<size_t>(left)) break;
      first.emplace_back(std::get<0>(class_keys[k]), std::get<1>(class_keys[k]), std::get<2>(class_keys[k]), i);
    }
  // `first` is in increasing key order already (classes by key, a class's processors by index, and distinct
  // capacities never tie on the first three fields), so it is read in order and merged with a queue of the keys of
  // processors that received a VP; every live key belongs to a different processor, so the order is strict and the
  // same as one queue of all of them, without heaping up to `left` (10,000 workstations: most of MTAT's time).
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> next;
  size_t taken = 0;
  for (; left > 0; left--) {
    size_t i;
    if (taken < first.size() && (next.empty() || first[taken] < next.top())) {
      i = std::get<3>(first[taken++]);
    } else {
      i = std::get<3>(next.top());
      next.pop();
    }
    out.vps[i]++;
    next.emplace(Rational(out.vps[i] + 1) / capacities[i], false, -capacities[i], i);
  }
}

} // namespace

MtatResult mtat(int vps, const std::vector<Rational>& capacities, MtatVariant variant)
{
  check_input(vps, capacities);
  MtatResult out;
  std::vector<Rational> distinct;
  const std::vector<size_t> classes = capacity_classes(capacities, distinct);
  std::vector<long long> counts(distinct.size(), 0);
  for (size_t c : classes)
    counts[c]++;
  Rational total(0);
  for (size_t c = 0; c < distinct.size(); c++)
    total += distinct[c] * Rational(counts[c]);
  out.alpha = Rational(vps) / total;
  if (variant == MtatVariant::paper)
    paper_steps(vps, capacities, out);
  else
    optimal_greedy(vps, capacities, out.alpha, out, classes, distinct);
  out.turnaround = turnaround_of(out.vps, capacities);
  return out;
}

std::vector<size_t> pool_of(const std::vector<std::string>& archs, const std::string& arch)
{
  std::vector<size_t> out;
  for (size_t i = 0; i < archs.size(); i++)
    if (archs[i] == arch) out.push_back(i);
  return out;
}

PooledMtatResult pooled_mtat(const VpCounts& demand, const std::vector<Rational>& capacities,
                             const std::vector<std::string>& archs, MtatVariant variant)
{
  PooledMtatResult out;
  out.vps.assign(capacities.size(), 0);
  for (const auto& [arch, count] : demand) {
    if (count <= 0) continue;
    const std::vector<size_t> pool = pool_of(archs, arch);
    std::vector<Rational> pool_capacities;
    for (size_t i : pool)
      pool_capacities.push_back(capacities[i]);
    if (pool.empty())
      throw InputError("MTAT: " + std::to_string(count) + " VPs of architecture '" + arch +
                       "' and no processor of that architecture");
    MtatResult r = mtat(count, pool_capacities, variant);
    for (size_t k = 0; k < pool.size(); k++)
      out.vps[pool[k]] = r.vps[k];
    out.pool_turnarounds[arch] = r.turnaround;
    out.turnaround = std::max(out.turnaround, r.turnaround);
  }
  return out;
}

} // namespace jobsched::gang_now
