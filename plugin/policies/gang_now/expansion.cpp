/* Expansion, section 4.3 of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems": the
 * paper's column-oriented search for regular patterns of free space and an exhaustive one (expansion.hpp). */
#include "policies/gang_now/expansion.hpp"

#include "core/errors.hpp"

#include <set>

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

/* The column search on bit rows. A slice whose free entries equal an earlier slice's gives the same candidate (the
 * same processors, and the same slices: every j whose free entries contain them), which cannot be strictly larger
 * than the best so far: each distinct row is tried once, at its first slice, as the search by slices would. */
Pattern column_search(const FreeRows& free, const std::vector<Rational>& capacities)
{
  Pattern best;
  const size_t words = free.words;
  std::set<std::vector<std::uint64_t>> tried;
  for (size_t i = 0; i < free.slices; i++) {
    if (free.row_empty(i)) continue;
    const auto row = free.bits.begin() + static_cast<long>(i * words);
    if (!tried.emplace(row, row + static_cast<long>(words)).second) continue;
    Pattern candidate;
    for (size_t p = 0; p < free.processors; p++) // E_i
      if (free.test(i, p)) candidate.processors.push_back(static_cast<int>(p));
    for (size_t j = 0; j < free.slices; j++) { // width_i: slice i and every slice j whose free entries contain E_i
      const auto other = free.bits.begin() + static_cast<long>(j * words);
      bool contains = true;
      for (size_t w = 0; w < words && contains; w++)
        contains = (row[static_cast<long>(w)] & ~other[static_cast<long>(w)]) == 0;
      if (j == i || contains) candidate.slices.push_back(static_cast<int>(j));
    }
    candidate.size =
        capacity_of(candidate.processors, capacities) * Rational(static_cast<long long>(candidate.slices.size()));
    if (candidate.size > best.size) best = candidate;
  }
  return best;
}

} // namespace

FreeRows::FreeRows(size_t slice_count, size_t processor_count)
    : slices(slice_count), processors(processor_count), words((processor_count + 63) / 64), bits(slice_count * words, 0)
{
}

bool FreeRows::row_empty(size_t slice) const
{
  for (size_t w = 0; w < words; w++)
    if (bits[slice * words + w] != 0) return false;
  return true;
}

Pattern find_pattern(const std::vector<std::vector<bool>>& free, const std::vector<Rational>& capacities,
                     ExpansionSearch search, int max_slices)
{
  for (const auto& slice : free)
    if (slice.size() != capacities.size()) throw InputError("expansion: a slice has the wrong number of processors");
  if (search == ExpansionSearch::exhaustive) return exhaustive_search(free, capacities, max_slices);
  FreeRows rows(free.size(), capacities.size());
  for (size_t s = 0; s < free.size(); s++)
    for (size_t p = 0; p < capacities.size(); p++)
      if (free[s][p]) rows.set(s, p);
  return column_search(rows, capacities);
}

Pattern find_pattern(const FreeRows& free, const std::vector<Rational>& capacities, ExpansionSearch search,
                     int max_slices)
{
  if (free.processors != capacities.size()) throw InputError("expansion: a slice has the wrong number of processors");
  if (search == ExpansionSearch::column) return column_search(free, capacities);
  std::vector<std::vector<bool>> rows(free.slices, std::vector<bool>(free.processors, false));
  for (size_t s = 0; s < free.slices; s++)
    for (size_t p = 0; p < free.processors; p++)
      rows[s][p] = free.test(s, p);
  return exhaustive_search(rows, capacities, max_slices);
}

} // namespace jobsched::gang_now
