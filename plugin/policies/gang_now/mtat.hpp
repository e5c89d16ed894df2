/* The Minimum Turn Around Time (MTAT) algorithm of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous
 * Distributed Systems" (section 4.1), with its architecture-pool extension.
 *
 * A job of X virtual processors (VPs, identical units of work) runs in one time slice on processors of relative
 * capacities a_i (a_i = capacity / capacity of the slowest processor of the whole network). n_i VPs on processor i
 * finish at n_i / a_i, so the job's turnaround is T = max_i n_i / a_i (processors without VPs count 0). The ideal,
 * fractional distribution x_i = a_i alpha with alpha = X / sum a_i is the lower bound (Lemma 1).
 *
 * Two variants:
 *   - `paper`, as published: n_i = floor(x_i), then the Diff = X - sum floor(x_i) processors with the lowest
 *     Drag_i = (ceil(x_i) - x_i) / a_i get one more VP each (step 4). Ties on Drag (step 5 and beyond): first the
 *     processors that already hold VPs after step 1 (the paper's bias toward fewer processors), then the one holding
 *     fewer VPs after step 1 (this reproduces Figure 4-a, where Drag_1 = Drag_2 = 3/14 and the VP goes to the
 *     processor with 2 VPs, not 5; it also leaves fewer VPs to evict when an owner returns), then the lower index.
 *     Ties never change T: a processor's completion time after step 4 is alpha + Drag_i. Taken literally, a
 *     processor whose x_i is whole has Drag 0 and is chosen first; we keep that.
 *     The paper's Theorem 1 (this is optimal) is false: step 4 gives at most one extra VP per processor, so X = 18
 *     on a = {10, 1, 1, 1} gives n = {14, 2, 1, 1}, T = 2, where {15, 1, 1, 1} gives 3/2.
 *   - `optimal` (the default): VPs given one at a time to the processor with the smallest (n_i + 1) / a_i. The X
 *     values chosen are then the X smallest of the multiset {k / a_i : k >= 1}, so T is minimal for whole VPs.
 *     Ties: first a processor that already holds VPs (fewer processors), then the larger capacity, then the lower
 *     index. Same T as `paper` whenever `paper` is optimal (the paper's Examples 1 to 3 included). The floors of x_i
 *     are handed out first (they are always part of the result), so it costs O(n log n), not O(X log n).
 *
 * Architecture pools: a job's VPs of architecture z run only on processors of architecture z. MTAT runs once per pool
 * (X_z VPs on the pool's processors, turnaround T_z) and the job's turnaround is T_min = max_z T_z. */
#pragma once

#include "policies/gang_now/rational.hpp"

#include <map>
#include <string>
#include <vector>

namespace jobsched::gang_now {

enum class MtatVariant { paper, optimal };

/* "paper" or "optimal". */
std::string mtat_variant_name(MtatVariant variant);
/* Throws InputError naming the variants if `name` is neither. */
MtatVariant parse_mtat_variant(const std::string& name);

struct MtatResult {
  /* n_i: the VPs on each processor, in the order of the capacities given. */
  std::vector<int> vps;
  /* T = max n_i / a_i (0 for a job without VPs). */
  Rational turnaround{0};
  /* alpha = X / sum a_i: the fractional lower bound on T (Lemma 1). */
  Rational alpha{0};
  /* The published steps, filled by the `paper` variant only: x_i, floor(x_i), Diff and Drag_i. */
  std::vector<Rational> ideal;
  std::vector<int> floors;
  int diff = 0;
  std::vector<Rational> drags;
};

/* T = max_i vps[i] / capacities[i], 0 when no processor holds VPs. Sizes must match. */
Rational turnaround_of(const std::vector<int>& vps, const std::vector<Rational>& capacities);

/* MTAT for `vps` (X >= 0) VPs on processors of the given positive capacities (at least one). Throws InputError on
 * X < 0, no processor, or a capacity <= 0. */
MtatResult mtat(int vps, const std::vector<Rational>& capacities, MtatVariant variant);

/* VP counts of a job by architecture (architecture name -> X_z). Architectures with 0 VPs are ignored. */
using VpCounts = std::map<std::string, int>;

struct PooledMtatResult {
  /* n_i on every processor given (0 on processors of architectures the job does not use). */
  std::vector<int> vps;
  /* T_z for each architecture the job has VPs of. */
  std::map<std::string, Rational> pool_turnarounds;
  /* T_min = max_z T_z. */
  Rational turnaround{0};
};

/* The pool of architecture `arch`: the indices i, in order, with archs[i] == arch. */
std::vector<size_t> pool_of(const std::vector<std::string>& archs, const std::string& arch);

/* MTAT once per architecture pool: processor i has capacity capacities[i] and architecture archs[i]. Throws
 * InputError when the job has VPs of an architecture no processor given has. */
PooledMtatResult pooled_mtat(const VpCounts& demand, const std::vector<Rational>& capacities,
                             const std::vector<std::string>& archs, MtatVariant variant);

} // namespace jobsched::gang_now
