/* Expansion, section 4.3 of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems": the
 * paper's column-oriented search for regular patterns of free space and an exhaustive one (expansion.hpp). */
#include "policies/gang_now/expansion.hpp"

#include "core/errors.hpp"
#include "core/fnv1a.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_map>

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

/* Capacities as whole multiples of 1 / denominator, to add and compare a pattern's capacities in integers; false when
 * the common denominator of those used would exceed 10^9 (then Rational arithmetic is used). Only the processors
 * free in some slice are read. */
bool capacity_units(const FreeRows& free, const std::vector<Rational>& capacities, std::vector<long long>& units,
                    long long& denominator)
{
  std::vector<std::uint64_t> any(free.words, 0);
  for (size_t s = 0; s < free.slices; s++)
    for (size_t w = 0; w < free.words; w++)
      any[w] |= free.bits[s * free.words + w];
  std::vector<size_t> used;
  for (size_t w = 0; w < free.words; w++)
    for (std::uint64_t bits = any[w]; bits != 0; bits &= bits - 1)
      used.push_back(w * 64 + static_cast<size_t>(__builtin_ctzll(bits)));
  denominator = 1;
  for (size_t p : used) {
    long long d = capacities[p].denominator();
    if (denominator % d == 0) continue;
    denominator = denominator / std::gcd(denominator, d) * d;
    if (denominator > 1000000000LL) return false;
  }
  units.assign(free.processors, 0);
  for (size_t p : used) {
    const __int128 unit =
        static_cast<__int128>(capacities[p].numerator()) * (denominator / capacities[p].denominator());
    if (unit > (static_cast<__int128>(1) << 40)) return false;
    units[p] = static_cast<long long>(unit);
  }
  return true;
}

/* The column search on bit rows. A slice whose free entries equal an earlier slice's gives the same candidate (the
 * same processors, and the same slices: every j whose free entries contain them), which cannot be strictly larger
 * than the best so far: each distinct row is tried once, at its first slice, as the search by slices would. A
 * candidate's size is its capacity sum times its slice count, the first largest winning. */
Pattern column_search(const FreeRows& free, const std::vector<Rational>& capacities)
{
  Pattern best;
  const size_t words = free.words;
  std::vector<long long> units;
  long long denominator = 1;
  const bool whole = capacity_units(free, capacities, units, denominator);
  std::unordered_map<std::uint64_t, std::vector<size_t>> tried; // row hash -> the first slices of distinct rows
  size_t best_row = free.slices;
  size_t best_width = 0;
  __int128 best_units = 0; // capacity units x width of the best, when `whole`
  long long best_sum = 0;  // its capacity units
  auto row_of = [&](size_t i) { return free.bits.begin() + static_cast<long>(i * words); };
  for (size_t i = 0; i < free.slices; i++) {
    if (free.row_empty(i)) continue;
    const auto row = row_of(i);
    auto& same_hash = tried[fnv1a_words(free.bits.data() + i * words, words)];
    if (std::any_of(same_hash.begin(), same_hash.end(),
                    [&](size_t k) { return std::equal(row, row + static_cast<long>(words), row_of(k)); }))
      continue;
    same_hash.push_back(i);
    size_t width = 0; // slice i and every slice j whose free entries contain E_i
    for (size_t j = 0; j < free.slices; j++) {
      const auto other = row_of(j);
      bool contains = true;
      for (size_t w = 0; w < words && contains; w++)
        contains = (row[static_cast<long>(w)] & ~other[static_cast<long>(w)]) == 0;
      if (j == i || contains) width++;
    }
    if (whole) {
      long long sum = 0;
      for (size_t w = 0; w < words; w++)
        for (std::uint64_t bits = row[static_cast<long>(w)]; bits != 0; bits &= bits - 1)
          sum += units[w * 64 + static_cast<size_t>(__builtin_ctzll(bits))];
      const __int128 size = static_cast<__int128>(sum) * static_cast<__int128>(width);
      if (size > best_units) {
        best_units = size;
        best_sum = sum;
        best_row = i;
        best_width = width;
      }
    } else {
      std::vector<int> processors;
      for (size_t p = 0; p < free.processors; p++)
        if (free.test(i, p)) processors.push_back(static_cast<int>(p));
      const Rational size = capacity_of(processors, capacities) * Rational(static_cast<long long>(width));
      if (size > best.size) {
        best.size = size;
        best_row = i;
        best_width = width;
      }
    }
  }
  if (best_row == free.slices) return best;
  for (size_t p = 0; p < free.processors; p++) // E_i
    if (free.test(best_row, p)) best.processors.push_back(static_cast<int>(p));
  const auto row = row_of(best_row);
  for (size_t j = 0; j < free.slices; j++) {
    const auto other = row_of(j);
    bool contains = true;
    for (size_t w = 0; w < words && contains; w++)
      contains = (row[static_cast<long>(w)] & ~other[static_cast<long>(w)]) == 0;
    if (j == best_row || contains) best.slices.push_back(static_cast<int>(j));
  }
  best.size = (whole ? Rational(best_sum, denominator) : capacity_of(best.processors, capacities)) *
              Rational(static_cast<long long>(best_width));
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
