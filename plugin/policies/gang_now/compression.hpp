/* The Compression algorithm of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems"
 * (section 4.2), with its architecture-pool extension, and MTAT followed by Compression: the allocation a job gets on
 * a set of processors (section 4, Figure 2).
 *
 * Compression keeps a turnaround target T (MTAT's T_min) and frees processors: processor i may hold at most
 * floor(T a_i) VPs (steps 1 and 2), and VPs are gathered on fewer processors. Two variants:
 *   - `exact` (the default): keep the processors with the largest floor(T a_i) until their bounds cover X; no set of
 *     fewer processors can (any k processors hold at most the k largest bounds), so the count is minimal. Ties between
 *     equal bounds: the processor holding more VPs now (fewer migrations), then the lower index. The X VPs are then
 *     spread over the kept processors by `optimal` MTAT, whose turnaround is at most T (the bounds cover X).
 *   - `paper`: the published pseudocode of step 3, literally: free = sum floor(T a_i) - X; Phi_T = the processors
 *     with T a_i - n_i >= 1, fixed at the start; the processors of Phi_min are visited by increasing VP count, and a
 *     processor with n_i <= free is emptied into Phi_T and free decreases by n_i. The pseudocode leaves choices open;
 *     ours, which make it terminate and keep every allocation valid:
 *       * "reinsert P_j in Phi_sorted": before each visit the processors not yet visited are sorted again by their
 *         current VP count (ties: the smaller capacity, then the lower index); each processor is visited once, and a
 *         visit to a processor holding no VP does nothing (there is nothing to free);
 *       * free counts the VPs moved against the removed processor's own spare capacity, as written (free -= n_i
 *         whenever n_i <= free), so the test can pass while the other processors lack the room: then no VP moves
 *         (moving some would free nothing), and the visit goes on. Each such visit still lowers free, which can stop
 *         later, feasible visits;
 *       * targets P_j: Phi_T as computed before the visits, never the visited processor itself, never a processor
 *         emptied by this compression ("removed from Phi_min": refilling it would undo the freeing), and never a
 *         processor holding no VP (moving VPs there frees nothing; read literally, one processor's VPs could be
 *         spread over several empty ones, using more processors than before). Among the targets, the one with the
 *         most room (floor(T a_j) - n_j) first, then the lower index; a target takes VPs only up to floor(T a_j).
 *         So the turnaround never exceeds T, and each visit either frees its processor or changes nothing: the
 *         processor count never grows. On MTAT's allocations we found `paper` minimal on every random instance we
 *         tried; on others it is not (a = {1, 1, 1, 3}, T = 1, {1, 1, 1, 0}: P4 is no target, three processors stay
 *         where one suffices).
 *     It reproduces the paper's Examples 2 and 3.
 *
 * Pools: compression runs once per architecture pool. The paper compresses pool z to its own T_z (`per-pool`); since
 * the job's turnaround is T_min = max_z T_z anyway, compressing every pool to T_min (`common`, the default) frees at
 * least as many processors, often more, for the same turnaround. */
#pragma once

#include "policies/gang_now/mtat.hpp"

#include <optional>

namespace jobsched::gang_now {

enum class CompressionVariant { paper, exact };
enum class PoolTarget { common, per_pool };

std::string compression_variant_name(CompressionVariant variant); // "paper", "exact"
CompressionVariant parse_compression_variant(const std::string& name);
std::string pool_target_name(PoolTarget target); // "common", "per-pool"
PoolTarget parse_pool_target(const std::string& name);

struct CompressionResult {
  /* The new VP count on each processor; the processors kept are those with VPs. */
  std::vector<int> vps;
  /* max n_i / a_i after compression: at most the target. */
  Rational turnaround{0};
  /* floor(T a_i): the most VPs each processor may hold at the target (steps 1 and 2). */
  std::vector<int> bounds;
};

/* Compression of the allocation `vps` (n_i on processor i) to the target turnaround T. The allocation must meet the
 * target (max n_i / a_i <= T), else InputError; capacities positive and as many as `vps`. */
CompressionResult compress(const std::vector<int>& vps, const std::vector<Rational>& capacities, const Rational& target,
                           CompressionVariant variant);

struct PooledCompressionResult {
  std::vector<int> vps;
  Rational turnaround{0};
  /* The target each pool was compressed to. */
  std::map<std::string, Rational> pool_targets;
};

/* Compression per architecture pool: pool z (the processors i with archs[i] == z) is compressed to
 * pool_turnarounds[z] (`per-pool`) or to the largest of them (`common`). Processors of architectures not in
 * pool_turnarounds must hold no VPs. */
PooledCompressionResult compress_pools(const std::vector<int>& vps, const std::vector<Rational>& capacities,
                                       const std::vector<std::string>& archs,
                                       const std::map<std::string, Rational>& pool_turnarounds, PoolTarget target,
                                       CompressionVariant variant);

/* The variants used when a job is allocated: MTAT, then Compression, per pool. */
struct AllocationOptions {
  MtatVariant mtat = MtatVariant::optimal;
  CompressionVariant compression = CompressionVariant::exact;
  PoolTarget pool_target = PoolTarget::common;
};

struct JobAllocation {
  /* MTAT's result before compression: its T_min is the job's best turnaround on these processors. */
  PooledMtatResult mtat;
  /* After compression: the allocation the job gets, and its turnaround (<= mtat.turnaround). */
  std::vector<int> vps;
  Rational turnaround{0};
};

/* MTAT then Compression for a job of `demand` VPs on the processors given (capacities[i], archs[i]). Empty when the
 * job has VPs of an architecture none of them has. */
std::optional<JobAllocation> allocate_job(const VpCounts& demand, const std::vector<Rational>& capacities,
                                          const std::vector<std::string>& archs, const AllocationOptions& options);

/* allocate_job for `vps` (> 0) VPs of one architecture `arch` on `processors` (> 0) processors of that architecture
 * and one capacity, with `optimal` MTAT and `exact` Compression, in closed form (what allocate_job computes in
 * rationals, processor by processor): with q = vps / processors and r its remainder, MTAT gives q + 1 VPs to the
 * first r processors and q to the others, T = ceil(vps / processors) / capacity; every processor's bound is then
 * m = ceil(vps / processors) and the ones with more VPs come first in index order, so Compression keeps the first
 * k = ceil(vps / m) processors and spreads the VPs over them the same way (T = ceil(vps / k) / capacity). */
JobAllocation allocate_on_equal_capacities(const std::string& arch, int vps, size_t processors,
                                           const Rational& capacity);

} // namespace jobsched::gang_now
