/* BUDDY, BUDDY* and HYBRID(k): McCann & Zahorjan 1994, "Scheduling memory constrained jobs on distributed memory
 * parallel computers", section 3 (BUDDY, Lemma 1, Theorem 1, Figure 3) and section 3.2 (BUDDY* and HYBRID,
 * Figure 5).
 *
 * BUDDY fills the N x 1 rectangle from the bottom. Every job gets area N/J; a piece's width is a power of two, so its
 * height is a power of two too, and every frontier segment's height is C/2^x with C odd (or 0). Lemma 1: something
 * above a segment of height C/2^x is at most 1/2^x tall, i.e. at least (N/J) 2^x wide. BUDDY takes the jobs by
 * non-increasing M_j and puts each above the min-seg (the non-full segment with the largest x), at its left edge,
 * with width max(ceilpow2(M_j), (N/J) 2^x). The OCR of the paper says "minimum" here; the maximum is what the
 * Figure 3 walk-through does (M = 3 gets 8 nodes, forced by a min-seg at height 1/4) and what Lemma 1 requires. */
#include "core/errors.hpp"
#include "policies/memory_constrained/policies.hpp"
#include "policies/memory_constrained/schedule_building.hpp"

#include <algorithm>

namespace jobsched::memory_constrained {
namespace {

struct Segment {
  int first_node;
  int width;
  Fraction height;
};

/* BUDDY's pieces for `jobs` (a power-of-two number of indices into mins) over the whole quantum [0, 1). */
std::vector<Piece> buddy_pieces(int nodes, const std::vector<int>& mins, const std::vector<int>& jobs)
{
  const Fraction share(nodes, static_cast<long long>(jobs.size()));
  std::vector<Segment> frontier{{0, nodes, Fraction(0)}};
  std::vector<Piece> pieces;
  for (int job : detail::jobs_by_decreasing_min(mins, jobs)) {
    // The min-seg: the non-full segment whose height has the largest power of two in its denominator. Height 0 is
    // 0/2^0, so it is chosen only when every other segment is full. The paper proves it unique; a tie would mean
    // this code broke the invariant, not bad input.
    int min_seg = -1;
    int min_seg_exponent = -1;
    bool tie = false;
    for (size_t i = 0; i < frontier.size(); i++) {
      if (frontier[i].height >= Fraction(1)) continue;
      int exponent = 0; // heights have power-of-two denominators: the denominator is 2^exponent
      for (long long d = frontier[i].height.denominator(); d > 1; d /= 2)
        exponent++;
      if (exponent > min_seg_exponent) {
        min_seg = static_cast<int>(i);
        min_seg_exponent = exponent;
        tie = false;
      } else if (exponent == min_seg_exponent) {
        tie = true;
      }
    }
    if (min_seg < 0 || tie) throw PolicyError("buddy: no unique min-seg on the frontier");
    Segment& seg = frontier[static_cast<size_t>(min_seg)];
    Fraction forced = share * Fraction(1LL << min_seg_exponent);
    Fraction width = std::max(Fraction(ceil_power_of_two(mins[static_cast<size_t>(job)])), forced);
    Fraction height = share / width;
    if (width.denominator() != 1 || width > Fraction(seg.width) || seg.height + height > Fraction(1))
      throw PolicyError("buddy: job " + std::to_string(job) + "'s piece does not fit above the min-seg");
    int w = static_cast<int>(width.numerator());
    pieces.push_back(Piece{job, seg.first_node, w, seg.height, height});
    // The piece raises the left part of the min-seg; the right part keeps its height. Adjacent segments of equal
    // height merge, so that a filled region reads as one segment.
    Segment raised{seg.first_node, w, seg.height + height};
    Segment rest{seg.first_node + w, seg.width - w, seg.height};
    auto at = frontier.begin() + min_seg;
    at = frontier.erase(at);
    if (rest.width > 0) at = frontier.insert(at, rest);
    frontier.insert(at, raised);
    std::vector<Segment> merged;
    for (const auto& s : frontier)
      if (!merged.empty() && merged.back().height == s.height)
        merged.back().width += s.width;
      else
        merged.push_back(s);
    frontier = std::move(merged);
  }
  return pieces;
}

void require_power_of_two_nodes(const std::string& policy, int nodes)
{
  if (!is_power_of_two(nodes))
    throw InputError(policy + ": needs N a power of two (N = " + std::to_string(nodes) +
                     "); equi-epoch, opt-epoch and heuristic-epoch take any N");
}

/* Appends BUDDY's pieces for `jobs`, squeezed into [start, start + length). */
void append_buddy(QuantumSchedule& schedule, const std::vector<int>& mins, const std::vector<int>& jobs, Fraction start,
                  Fraction length)
{
  for (Piece p : buddy_pieces(schedule.nodes, mins, jobs)) {
    p.start = start + p.start * length;
    p.duration *= length;
    schedule.pieces.push_back(p);
  }
}

} // namespace

QuantumSchedule buddy_schedule(int nodes, const std::vector<int>& mins)
{
  detail::check_input("buddy", nodes, mins);
  require_power_of_two_nodes("buddy", nodes);
  QuantumSchedule schedule;
  schedule.nodes = nodes;
  if (mins.empty()) return schedule;
  if (!is_power_of_two(static_cast<long long>(mins.size())))
    throw InputError("buddy: needs J a power of two (J = " + std::to_string(mins.size()) +
                     "); buddy-star and hybrid take any J");
  append_buddy(schedule, mins, detail::all_jobs(mins), Fraction(0), Fraction(1));
  return schedule;
}

QuantumSchedule buddy_star_schedule(int nodes, const std::vector<int>& mins)
{
  detail::check_input("buddy-star", nodes, mins);
  require_power_of_two_nodes("buddy-star", nodes);
  QuantumSchedule schedule;
  schedule.nodes = nodes;
  const long long job_count = static_cast<long long>(mins.size());
  std::vector<int> increasing = detail::jobs_by_increasing_min(mins, detail::all_jobs(mins));
  // The bits of J from the highest: the largest subset takes the smallest jobs and runs first.
  size_t next = 0;
  Fraction start(0);
  for (int bit = 62; bit >= 0; bit--) {
    long long subset_size = 1LL << bit;
    if ((job_count & subset_size) == 0) continue;
    std::vector<int> subset(increasing.begin() + static_cast<long>(next),
                            increasing.begin() + static_cast<long>(next + static_cast<size_t>(subset_size)));
    next += static_cast<size_t>(subset_size);
    Fraction length(subset_size, job_count);
    append_buddy(schedule, mins, subset, start, length);
    start += length;
  }
  return schedule;
}

QuantumSchedule hybrid_schedule(int nodes, const std::vector<int>& mins, int k)
{
  detail::check_input("hybrid", nodes, mins, k);
  require_power_of_two_nodes("hybrid", nodes);
  QuantumSchedule schedule;
  schedule.nodes = nodes;
  if (mins.empty()) return schedule;
  const long long job_count = static_cast<long long>(mins.size());
  long long buddy_count = 1; // the largest power of two <= J
  while (buddy_count * 2 <= job_count)
    buddy_count *= 2;
  std::vector<int> increasing = detail::jobs_by_increasing_min(mins, detail::all_jobs(mins));
  std::vector<int> smallest(increasing.begin(), increasing.begin() + static_cast<long>(buddy_count));
  std::vector<int> others(increasing.begin() + static_cast<long>(buddy_count), increasing.end());
  Fraction buddy_length(buddy_count, job_count);
  append_buddy(schedule, mins, smallest, Fraction(0), buddy_length);
  if (!others.empty())
    detail::append_epochs(schedule, detail::heuristic_epochs(nodes, mins, others, k), buddy_length,
                          static_cast<int>(job_count));
  return schedule;
}

} // namespace jobsched::memory_constrained
