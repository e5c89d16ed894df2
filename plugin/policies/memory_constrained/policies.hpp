/* The six quantum schedulers of McCann & Zahorjan 1994, "Scheduling memory constrained jobs on distributed memory
 * parallel computers" (sections 3 and 4), as pure functions: N nodes and the jobs' minimum node counts M_j in, one
 * quantum's QuantumSchedule out. No SimGrid; the dynamic scheduler calls these at each arrival and departure.
 *
 * Common rules:
 *   - `mins[j]` is job j's minimum node count M_j; pieces name jobs by their index in `mins`.
 *   - An empty `mins` gives an empty schedule (overhead 0) under every policy.
 *   - A policy that cannot schedule its input throws InputError with a one-line message: N < 1, a job with M_j < 1
 *     or M_j > N, k < 0, or the policy's own restriction (BUDDY: N and J powers of two; BUDDY* and HYBRID: N a power
 *     of two; OPT-EPOCH: k > 1 without an explicit search bound, or a search that exceeds its bound).
 *   - Ties between jobs of equal M_j go to the lower index (all sorts are stable).
 *   - Epoch policies give each epoch a duration proportional to the number of jobs it holds (e/J), so every job runs
 *     for 1/J of the quantum; with k > 0 areas are then unequal by at most k/J node-quanta between jobs of an epoch.
 *
 * Readings of the paper where its text (or its OCR) is ambiguous; each is tested in tests/unit/test_memory_constrained:
 *   - BUDDY: a piece's width is the MAXIMUM of ceilpow2(M_j) and (N/J) 2^x, x the exponent of the min-seg's height
 *     denominator. The OCR says "minimum", which contradicts the paper's own Figure 3 walk-through (a job with M = 3
 *     gets 8 nodes). The min-seg is the non-full frontier segment whose height C/2^x has the largest x (height 0 counts
 *     as x = 0); the paper proves it unique, and the code checks that.
 *   - BUDDY*: J's binary representation gives the subset sizes (J = 7: 4, 2, 1); the smallest jobs go to the largest
 *     subset; the subsets run in that order, each BUDDY schedule squeezed into s/J of the quantum.
 *   - HYBRID(k): the P = largest power of two <= J jobs with the smallest M_j run under BUDDY during [0, P/J), the
 *     others under HEURISTIC-EPOCH(k) during [P/J, 1).
 *   - EQUI-EPOCH: jobs in non-decreasing M_j; each epoch takes the largest c that divides N, is at most the number of
 *     jobs left, and for which the c-th smallest remaining job has M_j <= N/c; those c jobs get N/c nodes each.
 *   - OPT-EPOCH(k): see opt_epoch_schedule below.
 *   - HEURISTIC-EPOCH(k): see heuristic_epoch_schedule below. */
#pragma once

#include "core/errors.hpp"
#include "policies/memory_constrained/quantum_schedule.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace jobsched::memory_constrained {

/* BUDDY (section 3): optimal among equal-area schedules whose widths are powers of two. N and J powers of two. */
QuantumSchedule buddy_schedule(int nodes, const std::vector<int>& mins);

/* BUDDY* (section 3.2): BUDDY on power-of-two subsets of the jobs, concatenated in time. N a power of two. */
QuantumSchedule buddy_star_schedule(int nodes, const std::vector<int>& mins);

/* HYBRID(k) (section 3.2): BUDDY for the largest power of two of jobs with the smallest M_j, HEURISTIC-EPOCH(k) for
 * the rest. N a power of two. */
QuantumSchedule hybrid_schedule(int nodes, const std::vector<int>& mins, int k);

/* EQUI-EPOCH (section 4.1): equal widths in each epoch, greedy from the smallest jobs. Any N. Optimal among
 * equal-allocation epoch schedules when N is a power of two (Theorem 2). */
QuantumSchedule equi_epoch_schedule(int nodes, const std::vector<int>& mins);

/* OPT-EPOCH(k)'s solved remaining sets, kept from one call to the next (the dynamic scheduler plans again at every
 * arrival and departure, and consecutive quanta share most of their remaining sets). A remaining set's best first
 * epoch depends on N, k and the multiset of M_j alone, so an entry stays valid across calls with the same N and k; a
 * call with another N or k empties the memo first. Bounded: a call that finds more than max_entries sets in it
 * empties it first (never during a search, whose entries it holds), so it holds at most max_entries plus one search's
 * sets. */
class OptEpochMemo {
 public:
  static constexpr size_t kDefaultMaxEntries = 200'000;
  explicit OptEpochMemo(size_t max_entries = kDefaultMaxEntries);
  ~OptEpochMemo();
  OptEpochMemo(const OptEpochMemo&) = delete;
  OptEpochMemo& operator=(const OptEpochMemo&) = delete;
  size_t size() const;
  struct Sets; // the map, defined with the search (epoch_policies.cpp)
  Sets& sets_for(int nodes, int k);

 private:
  size_t max_entries_;
  int nodes_ = 0;
  int k_ = -1;
  std::unique_ptr<Sets> sets_;
};

/* OPT-EPOCH(k)'s search examined more partitions than OptEpochOptions::max_partitions_examined allows. */
class SearchBoundExceeded : public InputError {
 public:
  using InputError::InputError;
};

struct OptEpochOptions {
  /* The most filled partitions the search may examine before it gives up with an InputError. Unset: 10,000,000 for
   * k <= 1, and k > 1 is refused (the paper implements OPT-EPOCH only for k <= 1 and uses HEURISTIC-EPOCH beyond,
   * because the number of valid partitions explodes: Table 1). Set it to run k > 1 exactly within that bound. */
  std::optional<long long> max_partitions_examined;
  /* Given, the search reads and fills this memo instead of one of its own, and it also skips a candidate whose
   * remaining set cannot, by a lower bound on its epochs, beat the best candidate so far (nor can it then be chosen:
   * only a strictly better candidate replaces the best). The schedule is the same; assignments_tested then counts
   * the candidates this call evaluated, which is no longer the paper's statistic. */
  std::shared_ptr<OptEpochMemo> memo;
};

/* OPT-EPOCH(k) (section 4.2): an epoch schedule with the fewest epochs (hence the least overhead, N per epoch) among
 * those whose epochs are partitions of N into widths that differ by at most k. The search, for a set R of remaining
 * jobs (M_j non-increasing):
 *   1. candidates, from the most jobs per epoch to the fewest: every partition of N into h parts within k, filled with
 *      the largest jobs that fit (largest part first, each part the largest unassigned job with M_j <= part); a
 *      partition that cannot take h jobs is dropped;
 *   2. for k >= 1 only, the paper's early stop: candidate generation ends at the first candidate whose jobs are the
 *      h largest of R (a consecutive run from the largest). At k = 0 it would lose the optimum (N = 140, ten jobs of
 *      M = 20: it gives 3 epochs where 2 suffice), because fewer jobs per epoch can leave a count dividing N;
 *   3. pruning: a candidate whose remaining set is pairwise no smaller than another candidate's is dropped (same
 *      size at k = 0; at k >= 1 also a larger remaining set, which covers "a subset of an already examined
 *      assignment", since at k >= 1 removing a job from an epoch keeps its widths within k);
 *   4. each surviving candidate is an assignment tested: the search solves its remaining set (memoized by the
 *      multiset of M_j) and keeps the fewest epochs; it stops at a level once a candidate reaches the lower bound
 *      ceil(sum M_j / N).
 * assignments_tested counts step 4 over the whole search, memo hits included; the paper's 1.08 per epoch average
 * cannot be compared exactly since it does not say which candidates it counts (ours: about 1.5 per epoch at the
 * Table 3 defaults, N = 128, J = 8, k = 1, M_j uniform on 1 .. 31; about 4.8 at k = 0, where there is no early stop).
 * Epochs are listed in the order the search chose them: first the best first epoch for all the jobs, and so on. Among
 * optimal candidates the search keeps the first generated (the most jobs per epoch). */
QuantumSchedule opt_epoch_schedule(int nodes, const std::vector<int>& mins, int k, const OptEpochOptions& options = {});

/* HEURISTIC-EPOCH(k) (section 4.3), a greedy OPT-EPOCH(k). Each epoch, in order:
 *   1. the largest unscheduled job opens the epoch with width M_j; its width L is the epoch's largest;
 *   2. every other unscheduled job, largest M_j first, is placed if max(M_j, L - k) nodes are left, with that width
 *      (a job never gets fewer than L - k nodes: "respecting the inequity limit k"); a job that does not fit is
 *      skipped and the scan goes on, which places "the largest job that will fit". When fewer than L - k nodes are
 *      left no job can fit and the scan ends (the paper does not say what happens then: we treat it like "no such
 *      job can be found");
 *   3. the u nodes left are spread as evenly as possible: every job of the epoch gets floor(u/e) more, and the
 *      u mod e extra nodes go one each to the jobs with the smallest width ("smallest total allocation": within the
 *      epoch and over the quantum are the same here, since each job is in exactly one epoch and all jobs of an epoch
 *      run equally long), ties to the job placed last (the smaller M_j);
 *   4. only at k = 0 can step 3 break the limit (u not a multiple of e): the job placed last goes back to the
 *      unscheduled set and step 3 is redone, until the widths are equal (a lone job always is).
 * Never refuses an input with every M_j <= N. */
QuantumSchedule heuristic_epoch_schedule(int nodes, const std::vector<int>& mins, int k);

/* The parameters of a policy called by name. */
struct PlanOptions {
  /* The allowed inequity, for the k-policies (hybrid, opt-epoch, heuristic-epoch). Default 1, the paper's (Table 3). */
  int k = 1;
  OptEpochOptions opt_epoch;
};

/* A policy by name, for the command line and the experiments. */
struct MemoryConstrainedPolicy {
  std::string name;        // "buddy", "buddy-star", "hybrid", "equi-epoch", "opt-epoch", "heuristic-epoch"
  std::string description; // one line
  bool takes_k = false;
  std::function<QuantumSchedule(int nodes, const std::vector<int>& mins, const PlanOptions& options)> plan;
  /* What the validator may check on this policy's schedules, at inequity k. */
  std::function<SchedulePromises(int k)> promises;
};

/* All six, in the paper's order (Table 2). */
const std::vector<MemoryConstrainedPolicy>& memory_constrained_policies();
/* Throws InputError naming the known policies if there is none called `name`. */
const MemoryConstrainedPolicy& memory_constrained_policy(const std::string& name);

} // namespace jobsched::memory_constrained
