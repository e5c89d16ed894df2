/* Expansion, section 4.3 of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems": the
 * paper's column-oriented search for regular patterns of free space and an exhaustive one (expansion.hpp). */
#include "policies/gang_now/expansion.hpp"

#include "core/errors.hpp"

namespace jobsched::gang_now {

std::string expansion_search_name(ExpansionSearch search)
{
  return search == ExpansionSearch::column ? "column" : "exhaustive";
}

ExpansionSearch parse_expansion_search(const std::string& name)
{
  if (name == "column") return ExpansionSearch::column;
  if (name == "exhaustive") return ExpansionSearch::exhaustive;
  throw InputError("unknown expansion search '" + name + "' (known: column, exhaustive)");
}

namespace {

Rational capacity_of(const std::vector<int>& processors, const std::vector<Rational>& capacities)
{
  Rational sum(0);
  for (int p : processors)
    sum += capacities[static_cast<size_t>(p)];
  return sum;
}

std::vector<int> free_processors(const std::vector<bool>& slice)
{
  std::vector<int> out;
  for (size_t p = 0; p < slice.size(); p++)
    if (slice[p]) out.push_back(static_cast<int>(p));
  return out;
}

bool subset_of(const std::vector<int>& processors, const std::vector<bool>& slice)
{
  for (int p : processors)
    if (!slice[static_cast<size_t>(p)]) return false;
  return true;
}

Pattern column_search(const std::vector<std::vector<bool>>& free, const std::vector<Rational>& capacities)
{
  Pattern best;
  for (size_t i = 0; i < free.size(); i++) {
    std::vector<int> entries = free_processors(free[i]); // E_i
    if (entries.empty()) continue;
    Pattern candidate;
    candidate.processors = entries;
    for (size_t j = 0; j < free.size(); j++) // width_i: slice i and every slice j whose free entries contain E_i
      if (j == i || subset_of(entries, free[j])) candidate.slices.push_back(static_cast<int>(j));
    candidate.size = capacity_of(entries, capacities) * Rational(static_cast<long long>(candidate.slices.size()));
    if (candidate.size > best.size) best = candidate;
  }
  return best;
}

Pattern exhaustive_search(const std::vector<std::vector<bool>>& free, const std::vector<Rational>& capacities,
                          int max_slices)
{
  std::vector<int> with_free; // the set E of slices with free entries
  for (size_t s = 0; s < free.size(); s++)
    if (!free_processors(free[s]).empty()) with_free.push_back(static_cast<int>(s));
  const int m = static_cast<int>(with_free.size());
  if (m > max_slices)
    throw InputError("exhaustive expansion: " + std::to_string(m) + " slices have free entries, more than the " +
                     std::to_string(max_slices) + " it searches (use the column search)");
  Pattern best;
  Rational best_capacity(0);
  const size_t processors = capacities.size();
  for (unsigned long long set = 1; set < (1ULL << m); set++) {
    std::vector<int> slices;
    std::vector<bool> common(processors, true);
    for (int k = 0; k < m; k++)
      if (set & (1ULL << k)) {
        int s = with_free[static_cast<size_t>(k)];
        slices.push_back(s);
        for (size_t p = 0; p < processors; p++)
          common[p] = common[p] && free[static_cast<size_t>(s)][p];
      }
    std::vector<int> shared = free_processors(common);
    if (shared.empty()) continue;
    Rational capacity = capacity_of(shared, capacities);
    Rational size = capacity * Rational(static_cast<long long>(slices.size()));
    // Larger size, then smaller capacity sum (more slices), then the slice set that comes first.
    if (best.empty() || size > best.size || (size == best.size && capacity < best_capacity) ||
        (size == best.size && capacity == best_capacity && slices < best.slices)) {
      best.processors = shared;
      best.slices = slices;
      best.size = size;
      best_capacity = capacity;
    }
  }
  return best;
}

} // namespace

Pattern find_pattern(const std::vector<std::vector<bool>>& free, const std::vector<Rational>& capacities,
                     ExpansionSearch search, int max_slices)
{
  for (const auto& slice : free)
    if (slice.size() != capacities.size()) throw InputError("expansion: a slice has the wrong number of processors");
  return search == ExpansionSearch::column ? column_search(free, capacities)
                                           : exhaustive_search(free, capacities, max_slices);
}

} // namespace jobsched::gang_now
