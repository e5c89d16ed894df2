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

/* A frontier segment: nodes [first_node, first_node + width) filled up to height / J of the quantum, J the number of
 * jobs being placed (a power of two). Every height BUDDY reaches is a multiple of 1/J (a piece's height is N/J over
 * its power-of-two width, at most N, so it is (N / width) / J), so heights are counted in units of 1/J, exactly, in
 * integers: the rational form (boost::rational) computed the same values with a gcd per operation, which made this
 * function a tenth of a 100,000-job run (tests/unit/test_memory_constrained.cpp checks the two against each other). */
struct Segment {
  int first_node;
  int width;
  long long height; // in units of 1/J
};

/* The exponent x of the power of two 2^x in the denominator of height / jobs in lowest terms (jobs = 2^log_jobs): 0
 * for height 0, else log_jobs less the trailing zero bits of height (0 < height < jobs). */
int denominator_exponent(long long height, int log_jobs)
{
  if (height == 0) return 0;
  int zeros = 0;
  for (long long h = height; (h & 1) == 0; h >>= 1)
    zeros++;
  return log_jobs - zeros;
}

/* A BUDDY piece as integers: its job, nodes [first_node, first_node + width), time [start, start + duration) in units
 * of 1/J. */
struct BuddyPiece {
  int job;
  int first_node;
  int width;
  long long start;
  long long duration;
};

/* BUDDY's pieces for `jobs` (a power-of-two number of indices into mins) over the whole quantum [0, 1), times in
 * units of 1/J (J = jobs.size()). */
std::vector<BuddyPiece> buddy_pieces(int nodes, const std::vector<int>& mins, const std::vector<int>& jobs)
{
  const long long job_count = static_cast<long long>(jobs.size());
  // N x 2^x below stays within 64 bits: x <= log2 J, N < 2^31.
  if (job_count > (1LL << 31)) throw PolicyError("buddy: more than 2^31 jobs");
  int log_jobs = 0;
  while ((1LL << log_jobs) < job_count)
    log_jobs++;
  std::vector<Segment> frontier{{0, nodes, 0}};
  std::vector<BuddyPiece> pieces;
  pieces.reserve(jobs.size());
  for (int job : detail::jobs_by_decreasing_min(mins, jobs)) {
    // The min-seg: the non-full segment whose height has the largest power of two in its denominator. Height 0 is
    // 0/2^0, so it is chosen only when every other segment is full. The paper proves it unique; a tie would mean
    // this code broke the invariant, not bad input.
    int min_seg = -1;
    int min_seg_exponent = -1;
    bool tie = false;
    for (size_t i = 0; i < frontier.size(); i++) {
      if (frontier[i].height >= job_count) continue;
      const int exponent = denominator_exponent(frontier[i].height, log_jobs);
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
    // The width: max(ceilpow2(M_j), (N/J) 2^x). The forced width is N 2^x / J, a whole power of two when N 2^x >= J,
    // else below 1 and so below any ceilpow2(M_j).
    const long long scaled = static_cast<long long>(nodes) << min_seg_exponent; // N 2^x
    const long long forced = scaled >= job_count ? scaled / job_count : 0;
    const long long width = std::max(ceil_power_of_two(mins[static_cast<size_t>(job)]), forced);
    if (width > seg.width)
      throw PolicyError("buddy: job " + std::to_string(job) + "'s piece does not fit above the min-seg");
    const long long height = nodes / width; // (N/J) / width, in units of 1/J: N and width are powers of two
    if (seg.height + height > job_count)
      throw PolicyError("buddy: job " + std::to_string(job) + "'s piece does not fit above the min-seg");
    const int w = static_cast<int>(width);
    pieces.push_back(BuddyPiece{job, seg.first_node, w, seg.height, height});
    // The piece raises the left part of the min-seg; the right part keeps its height. Adjacent segments of equal
    // height merge, so that a filled region reads as one segment.
    const size_t at = static_cast<size_t>(min_seg);
    const Segment rest{seg.first_node + w, seg.width - w, seg.height};
    seg.width = w;
    seg.height += height;
    if (rest.width > 0) frontier.insert(frontier.begin() + static_cast<long>(at) + 1, rest);
    size_t kept = 0; // the merge, in place
    for (size_t i = 1; i < frontier.size(); i++)
      if (frontier[kept].height == frontier[i].height)
        frontier[kept].width += frontier[i].width;
      else
        frontier[++kept] = frontier[i];
    frontier.resize(kept + 1);
  }
  return pieces;
}

void require_power_of_two_nodes(const std::string& policy, int nodes)
{
  if (!is_power_of_two(nodes))
    throw InputError(policy + ": needs N a power of two (N = " + std::to_string(nodes) +
                     "); equi-epoch, opt-epoch and heuristic-epoch take any N");
}

/* Appends BUDDY's pieces for `jobs`, squeezed into [offset / total, (offset + jobs.size()) / total) (total: the
 * schedule's job count): a piece at height h / J of its own quantum (J = jobs.size()) starts at offset / total + (h /
 * J) (J / total) = (offset + h) / total, and one of duration d / J lasts d / total. */
void append_buddy(QuantumSchedule& schedule, const std::vector<int>& mins, const std::vector<int>& jobs,
                  long long offset, long long total)
{
  for (const BuddyPiece& p : buddy_pieces(schedule.nodes, mins, jobs))
    schedule.pieces.push_back(
        Piece{p.job, p.first_node, p.width, Fraction(offset + p.start, total), Fraction(p.duration, total)});
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
  schedule.pieces.reserve(mins.size()); // a piece per job
  append_buddy(schedule, mins, detail::all_jobs(mins), 0, static_cast<long long>(mins.size()));
  return schedule;
}

QuantumSchedule buddy_star_schedule(int nodes, const std::vector<int>& mins)
{
  detail::check_input("buddy-star", nodes, mins);
  require_power_of_two_nodes("buddy-star", nodes);
  QuantumSchedule schedule;
  schedule.nodes = nodes;
  const long long job_count = static_cast<long long>(mins.size());
  schedule.pieces.reserve(mins.size()); // a piece per job (grown one at a time, reallocated as it went)
  std::vector<int> increasing = detail::jobs_by_increasing_min(mins, detail::all_jobs(mins));
  // The bits of J from the highest: the largest subset takes the smallest jobs and runs first.
  size_t next = 0;
  long long start = 0; // in units of 1/J
  for (int bit = 62; bit >= 0; bit--) {
    long long subset_size = 1LL << bit;
    if ((job_count & subset_size) == 0) continue;
    std::vector<int> subset(increasing.begin() + static_cast<long>(next),
                            increasing.begin() + static_cast<long>(next + static_cast<size_t>(subset_size)));
    next += static_cast<size_t>(subset_size);
    append_buddy(schedule, mins, subset, start, job_count);
    start += subset_size;
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
  append_buddy(schedule, mins, smallest, 0, job_count);
  if (!others.empty())
    detail::append_epochs(schedule, detail::heuristic_epochs(nodes, mins, others, k), Fraction(buddy_count, job_count),
                          static_cast<int>(job_count));
  return schedule;
}

} // namespace jobsched::memory_constrained
