/* A job's account of the work it did (JobAccount), as JobRuntime::account() and the replays of repeating schedules
 * (cycles, gang rotations of processes) add to it: one arithmetic for all, so that a replay's figures are the stepping
 * run's to the bit. */
#pragma once

#include "core/round_half_away.hpp"
#include "model/job_state.hpp"

#include <algorithm>
#include <cmath>

namespace jobsched {

/* Timers end when the clock reaches their end; SimGrid's clock may stop a rounding error short of it. */
constexpr double kTimerSlack = 1e-9;

/* The fraction of a timer's work not done at `now`: the timer runs from `start` to `end` at an even pace. Its start
 * and `now` are clocks (finite); its end is at or after its start, or +infinity when its hosts had no speed: then
 * length = +infinity, (now - start) / length = +-0 and the fraction 1 - +-0 = 1, no progress, with no test of its own
 * (the cycle replay's sure loop stops a timer per suspension: the test was five of its sixty instructions).
 * timer_left(), stop_exec() and the replays all read it so. */
inline double timer_fraction_left(double start, double end, double now)
{
  const double length = end - start;
  return length > 0 ? std::max(0.0, 1 - (now - start) / length) : 0.0;
}
/* round_half_away() of a rescaled segment length, most often above 0 and below 2^52: there it is the truncation, plus
 * one when the fraction cut off is a half or more (round_half_away()'s own steps, whose signs are then all +: half of
 * its instructions, and the cycle replay rounds once per job and boundary). The one is added as the comparison's 0 or
 * 1 (t + 0 is t: t is not -0), without a branch: which way the fraction goes is a coin toss, and a branch on it was
 * mispredicted for about every other length. Zero (whose sign round_half_away() keeps), negative numbers, larger ones
 * and NaN are round_half_away()'s. */
inline double round_scaled_length(double x)
{
  if (x > 0 && x < 4503599627370496.0) {
    const double t = static_cast<double>(static_cast<long long>(x));
    return t + static_cast<double>(x - t >= 0.5);
  }
  return round_half_away(x);
}
/* A running segment's length at the rate the job would have progressed on its requested processors (account()). */
inline double dedicated_length(double length, double dedicated_rate)
{
  return dedicated_rate != 1.0 ? round_scaled_length(length * dedicated_rate * 1e9) / 1e9 : length;
}
/* The work done since the segment began (the fraction `left` now), at its run time stretched by paging: the run time's
 * two factors given (run_time x (1 + paging), run_time x paging; cycle_close() computes them once per set). */
inline void add_work_done_by(JobAccount& account, double& remaining_at_segment, double left, double paged_run_time,
                             double page_fault_time)
{
  const double done = remaining_at_segment - left;
  remaining_at_segment = left;
  account.paged_run_time += done * paged_run_time;
  account.page_fault_time += done * page_fault_time;
}
/* The same at run time `run_time` stretched by `paging`. */
inline void add_work_done(JobAccount& account, double& remaining_at_segment, double left, double run_time,
                          double paging)
{
  add_work_done_by(account, remaining_at_segment, left, run_time * (1.0 + paging), run_time * paging);
}

} // namespace jobsched
