/* One quantum of a memory-constrained time/space-sharing schedule, and the validator every policy's output passes.
 *
 * McCann & Zahorjan 1994, "Scheduling memory constrained jobs on distributed memory parallel computers", section 2.3:
 * N nodes, J jobs, job j needs at least M_j nodes (its memory does not fit on fewer). Every job runs exactly once per
 * scheduling quantum T, on a fixed number of nodes, so a quantum's schedule cuts the N x T rectangle into one
 * rectangular piece per job. Time is normalized: T = 1, and starts and durations are fractions of the quantum.
 * The overhead of a schedule is the sum of the pieces' widths (node reallocations per quantum); the normalized
 * overhead divides it by N (reallocations per node per quantum).
 *
 * Times are exact rationals (boost::rational<long long>), not doubles: the validator checks that pieces tile the
 * rectangle without overlap and that areas are exactly N/J, and BUDDY's min-seg rule reads the power of two in the
 * denominator of a frontier height. Both are equality tests that a floating-point tolerance would make fragile (1/3
 * and 1/7 shares do not round-trip). The denominators stay small (products of J and powers of two up to N), far
 * from overflowing 64 bits for any machine the simulator models. */
#pragma once

#include <boost/rational.hpp>

#include <optional>
#include <string>
#include <vector>

namespace jobsched::memory_constrained {

/* A fraction of the quantum (T = 1). */
using Fraction = boost::rational<long long>;

/* One job's rectangle: nodes [first_node, first_node + width) during [start, start + duration). `job` is the job's
 * index in the requirement vector the policy was given. */
struct Piece {
  int job = 0;
  int first_node = 0;
  int width = 0;
  Fraction start{0};
  Fraction duration{0};
};

/* An interval of the quantum at whose start every node is reallocated (section 4): its pieces all start at `start`,
 * last `duration`, and their widths sum to N. `pieces` are indices into QuantumSchedule::pieces. */
struct Epoch {
  Fraction start{0};
  Fraction duration{0};
  std::vector<int> pieces;
};

struct QuantumSchedule {
  int nodes = 0;
  /* One piece per job, in the order the policy placed them. */
  std::vector<Piece> pieces;
  /* The epochs, in time order. Empty for BUDDY and BUDDY*, whose pieces do not form epochs; HYBRID lists the epochs
   * of its HEURISTIC-EPOCH part only. */
  std::vector<Epoch> epochs;
  /* OPT-EPOCH only (0 for the other policies): the epoch assignments the search evaluated (a partition of N filled
   * with the largest remaining jobs that fit, kept by the pruning, whose remaining job set was then solved or looked
   * up). The paper reports this count divided by the number of epochs of the final schedule. */
  long long assignments_tested = 0;

  /* Sum of the widths of all pieces: node reallocations per quantum. */
  long long overhead() const;
  /* overhead() / N: reallocations per node per quantum. */
  double normalized_overhead() const;
  /* assignments_tested / number of epochs (0 when there are no epochs). */
  double assignments_tested_per_epoch() const;
};

/* What a policy promises about its schedules, which the validator checks on top of the rules every schedule obeys. */
struct SchedulePromises {
  /* Every job gets the same area, N/J node-quanta (BUDDY, BUDDY*, EQUI-EPOCH, OPT-EPOCH(0)). */
  bool equal_areas = false;
  /* Inside an epoch, no two widths differ by more than this (the k-policies). */
  std::optional<int> inequity;
  /* The epochs tile [0, 1) and every piece belongs to one (the epoch policies; not BUDDY, BUDDY*, HYBRID). */
  bool all_in_epochs = false;
};

/* Every rule `schedule` breaks, one sentence each; empty when it is valid. Always checked: N > 0 and schedule.nodes
 * == N; each piece has width >= 1, duration > 0 and lies inside [0, N) x [0, 1); no two pieces overlap; the pieces
 * cover the whole rectangle (their areas sum to N, so no node is idle); each job of `mins` has exactly one piece
 * (runs once per quantum) whose width is at least its M_j; each epoch's pieces start at its start and last its
 * duration, its widths sum to N, epochs do not overlap and no piece is in two. Then the promises. */
std::vector<std::string> validate(const QuantumSchedule& schedule, int nodes, const std::vector<int>& mins,
                                  const SchedulePromises& promises);

/* The smallest power of two >= value (value >= 1). */
long long ceil_power_of_two(long long value);
bool is_power_of_two(long long value);

} // namespace jobsched::memory_constrained
