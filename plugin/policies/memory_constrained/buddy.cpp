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
  return height == 0 ? 0 : log_jobs - __builtin_ctzll(static_cast<unsigned long long>(height));
}

/* What a schedule's BUDDY parts reuse from one part to the next (a schedule was three allocations a part: the
 * frontier, the jobs' order and the list of pieces). */
struct BuddyScratch {
  std::vector<Segment> frontier;
  std::vector<int> order; // the part's jobs by non-increasing M_j
};

/* The jobs [first, last), in non-decreasing M_j with ties in their order there (a slice of jobs_by_increasing_min()),
 * by non-increasing M_j with ties still in that order: jobs_by_decreasing_min()'s stable sort of them, found by
 * taking their runs of equal M_j from the last (the insertion sort took such a slice, its worst case, in n^2 steps). */
void by_decreasing_min(const std::vector<int>& mins, const int* first, const int* last, std::vector<int>& order)
{
  order.clear();
  const int* run_end = last;
  while (run_end != first) {
    const int m = mins[static_cast<size_t>(run_end[-1])];
    const int* run_begin = run_end - 1;
    while (run_begin != first && mins[static_cast<size_t>(run_begin[-1])] == m)
      run_begin--;
    order.insert(order.end(), run_begin, run_end);
    run_end = run_begin;
  }
}

/* Appends BUDDY's pieces for the jobs [first, last) (a power-of-two number J of indices into mins, by non-decreasing
 * M_j), squeezed into [offset / total, (offset + J) / total) (total: the schedule's job count). Heights are counted in
 * units of 1/J of the part's own quantum: a piece at height h lasting d starts at offset / total + (h / J) (J / total)
 * = (offset + h) / total and lasts d / total. */
void append_buddy(QuantumSchedule& schedule, const std::vector<int>& mins, const int* first, const int* last,
                  long long offset, long long total, BuddyScratch& scratch)
{
  const int nodes = schedule.nodes;
  const long long job_count = static_cast<long long>(last - first);
  // N x 2^x below stays within 64 bits: x <= log2 J, N < 2^31.
  if (job_count > (1LL << 31)) throw PolicyError("buddy: more than 2^31 jobs");
  int log_jobs = 0;
  while ((1LL << log_jobs) < job_count)
    log_jobs++;
  std::vector<Segment>& frontier = scratch.frontier;
  frontier.assign(1, Segment{0, nodes, 0});
  by_decreasing_min(mins, first, last, scratch.order);
  long long start_units = -1, duration_units = -1; // the last piece's start and duration, in units of 1 / total,
  Fraction start, duration;                        // and as fractions
  for (const int job : scratch.order) {
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
    const size_t at = static_cast<size_t>(min_seg);
    const Segment seg = frontier[at];
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
    // A Fraction reduces itself by a gcd: pieces side by side share their start, pieces of one width their duration.
    if (offset + seg.height != start_units) start = Fraction(start_units = offset + seg.height, total);
    if (height != duration_units) duration = Fraction(duration_units = height, total);
    schedule.pieces.push_back(Piece{job, seg.first_node, w, start, duration});
    // The piece raises the left part of the min-seg; the right part keeps its height. Adjacent segments of equal
    // height merge, so that a filled region reads as one segment. No two neighbours had equal heights before (one
    // segment at first, merged after every piece since), and the right part keeps the min-seg's height, which its
    // right neighbour did not have: only the raised part can now equal a neighbour, on its left, or on its right when
    // there is no right part.
    frontier[at].width = w;
    frontier[at].height += height; // height >= 1: no longer the right part's
    if (seg.width > w) {
      frontier.insert(frontier.begin() + static_cast<long>(at) + 1,
                      Segment{seg.first_node + w, seg.width - w, seg.height});
    } else if (at + 1 < frontier.size() && frontier[at + 1].height == frontier[at].height) {
      frontier[at].width += frontier[at + 1].width;
      frontier.erase(frontier.begin() + static_cast<long>(at) + 1);
    }
    if (at > 0 && frontier[at - 1].height == frontier[at].height) {
      frontier[at - 1].width += frontier[at].width;
      frontier.erase(frontier.begin() + static_cast<long>(at));
    }
  }
}

void require_power_of_two_nodes(const std::string& policy, int nodes)
{
  if (!is_power_of_two(nodes))
    throw InputError(policy + ": needs N a power of two (N = " + std::to_string(nodes) +
                     "); equi-epoch, opt-epoch and heuristic-epoch take any N");
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
  const std::vector<int> increasing = detail::jobs_by_increasing_min(mins, detail::all_jobs(mins));
  BuddyScratch scratch;
  append_buddy(schedule, mins, increasing.data(), increasing.data() + increasing.size(), 0,
               static_cast<long long>(mins.size()), scratch);
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
  const std::vector<int> increasing = detail::jobs_by_increasing_min(mins, detail::all_jobs(mins));
  BuddyScratch scratch;
  // The bits of J from the highest: the largest subset takes the smallest jobs and runs first.
  const int* next = increasing.data();
  long long start = 0; // in units of 1/J
  for (int bit = 62; bit >= 0; bit--) {
    long long subset_size = 1LL << bit;
    if ((job_count & subset_size) == 0) continue;
    append_buddy(schedule, mins, next, next + subset_size, start, job_count, scratch);
    next += subset_size;
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
  std::vector<int> others(increasing.begin() + static_cast<long>(buddy_count), increasing.end());
  BuddyScratch scratch;
  append_buddy(schedule, mins, increasing.data(), increasing.data() + buddy_count, 0, job_count, scratch);
  if (!others.empty())
    detail::append_epochs(schedule, detail::heuristic_epochs(nodes, mins, others, k), Fraction(buddy_count, job_count),
                          static_cast<int>(job_count));
  return schedule;
}

} // namespace jobsched::memory_constrained
