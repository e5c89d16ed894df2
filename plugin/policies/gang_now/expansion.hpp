/* The Expansion algorithm of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems"
 * (section 4.3): find a regular pattern of free entries in the allocation map.
 *
 * A regular pattern is a processor set Phi_p and a slice set tau whose cross product Phi_p x tau is free; a job
 * placed there runs on Phi_p in each slice of tau (its VPs replicated in each, section 3). Its size is weighted by
 * capacity: (sum of a_k over Phi_p) x |tau|. Two searches, selected by name:
 *   - `column` (the paper's, the default): for each slice i with free entries E_i, the pattern E_i x (i and every
 *     other slice j with E_i a subset of E_j); the largest wins, ties to the first slice. It only finds patterns that
 *     use all the free entries of one slice, so it misses, e.g., {P1, P2} x {t1, t2, t3} when t1, t2, t3 have free
 *     entries {P1, P2, P3}, {P1, P2, P4}, {P1, P2, P5} (it returns a pattern of size 3 instead of 6), as the paper
 *     says of it.
 *   - `exhaustive` (for small systems, the paper's footnote 5): every non-empty set S of slices with free entries,
 *     with the processors free in all of them; this covers every maximal regular pattern. The largest wins; ties to
 *     the smaller capacity sum, i.e. more slices on fewer processors (the paper's bias toward fewer processors; whole
 *     VPs also round better on fewer, larger shares), then to the slice set that comes first (lexicographically
 *     smallest slice indices). It examines 2^m - 1 sets for m slices with free entries, and
 *     refuses (InputError) more than `max_slices` of them.
 * Both return an empty pattern when nothing is free. */
#pragma once

#include "policies/gang_now/rational.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace jobsched::gang_now {

enum class ExpansionSearch { column, exhaustive };

std::string expansion_search_name(ExpansionSearch search); // "column", "exhaustive"
ExpansionSearch parse_expansion_search(const std::string& name);

struct Pattern {
  /* Processor indices (rows) and slice indices (columns), increasing. */
  std::vector<int> processors;
  std::vector<int> slices;
  /* (sum of a_k over processors) x slices.size(); 0 for the empty pattern. */
  Rational size{0};
  bool empty() const { return processors.empty() || slices.empty(); }
};

/* The most slices with free entries the exhaustive search accepts by default (2^20 sets). */
constexpr int kExhaustiveSlicesLimit = 20;

/* The pattern found by `search` in a grid where free[s][p] says whether processor p is free in slice s; capacities[p]
 * is processor p's capacity. Every row of `free` has capacities.size() entries. */
Pattern find_pattern(const std::vector<std::vector<bool>>& free, const std::vector<Rational>& capacities,
                     ExpansionSearch search, int max_slices = kExhaustiveSlicesLimit);

/* The free entries as bit rows, one per slice: processor p is bit p % 64 of word p / 64 of its slice's row (the
 * scheduler's maps build them directly; a row of 1,000 processors is 16 words instead of 1,000 bools). */
struct FreeRows {
  size_t slices = 0;
  size_t processors = 0;
  size_t words = 0; // per row: (processors + 63) / 64
  std::vector<std::uint64_t> bits;
  FreeRows(size_t slice_count, size_t processor_count);
  void set(size_t slice, size_t processor)
  {
    bits[slice * words + processor / 64] |= std::uint64_t{1} << (processor % 64);
  }
  bool test(size_t slice, size_t processor) const
  {
    return (bits[slice * words + processor / 64] >> (processor % 64)) & 1;
  }
  bool row_empty(size_t slice) const;
};

/* The same search on bit rows (the same pattern as find_pattern on the same entries). */
Pattern find_pattern(const FreeRows& free, const std::vector<Rational>& capacities, ExpansionSearch search,
                     int max_slices = kExhaustiveSlicesLimit);

} // namespace jobsched::gang_now
