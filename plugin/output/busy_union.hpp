/* The busy processor-seconds of a run whose processes may double up on a processor (a policy that places processes:
 * two segments of the same processor at once count it busy once): the union of each processor's running intervals.
 *
 * The sum is defined as it was first computed, at the end of the run: from the area of the other segments, processor
 * by processor, each processor's intervals sorted (by start, then end), each adding what it covers beyond the ones
 * before it, max(0, end - max(start, covered)), in that order and with those roundings (summary.json's utilization
 * must not change in its last digits). That chain cannot be summed before the end (it begins with the other
 * segments' area and goes processor by processor), but each term can be worked out as soon as no interval still to
 * come can sort before its interval: settle(bound), given that every interval still to come starts at `bound` or
 * later, turns the intervals that start before it into their terms (a float where the term is one exactly, most are
 * whole or half seconds; a term of 0, an interval covered already, adds nothing and is dropped), and finish() sums
 * the terms in order, then the intervals left. Memory: 4 bytes a term instead of 16 an interval, and no sort of all
 * of them at the end. */
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <utility>
#include <vector>

namespace jobsched {

class BusyUnion {
 public:
  explicit BusyUnion(std::size_t processors) : pending_(processors), terms_(processors), covered_(processors, kNone) {}
  void add(int processor, double start, double end)
  {
    pending_[static_cast<std::size_t>(processor)].emplace_back(start, end);
    pending_count_++;
  }
  /* Intervals added since the last settle() and not settled by it. */
  std::size_t pending() const { return pending_count_; }
  /* Every interval added from now on starts at `bound` or later: the ones that start before it are settled. */
  void settle(double bound);
  /* `area` plus every processor's busy time, in the order and with the roundings described above. */
  double finish(double area);

 private:
  static constexpr double kNone = -std::numeric_limits<double>::infinity(); // nothing covered yet
  /* Each processor's terms, in order: a float's bits, or kDouble followed by a double's (low word first). */
  static constexpr std::uint32_t kDouble = 0xffffffffU; // a NaN's bits: never a term's float
  void add_term(std::size_t processor, double term);
  /* Settles processor p's intervals that start before `bound`, or all of them (`all`). */
  void settle(std::size_t p, double bound, bool all);
  std::vector<std::vector<std::pair<double, double>>> pending_;
  std::vector<std::deque<std::uint32_t>> terms_;
  std::vector<double> covered_; // per processor, the end of its settled intervals' union
  std::size_t pending_count_ = 0;
};

} // namespace jobsched
