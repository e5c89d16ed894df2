/* The arithmetic of the scheduler's virtual clock (SchedulerActor::set_virtual_wakeups): the clock SimGrid reaches
 * after a wait, the timeout that lands it on a given instant, and the instant the scheduler reaches for the policy's
 * next wake-up while nothing else can happen (what a driver's replay of cycles asks at every boundary). Inline: the
 * replay asks it several million times in a long run, and a call through a std::function or an exported function
 * (-fPIC lets another library interpose it, so it is never inlined) cost more than the arithmetic. */
#pragma once

#include "core/time.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace jobsched {

/* SimGrid's clock after a wait with `timeout` begun at `clock`, when nothing else ends first: the wait's timer is set
 * at clock + timeout, and the engine moves its clock by that date minus its clock (SimGrid 3.32:
 * ActivityImpl::wait_any_for sets Timer::set(get_clock() + timeout); EngineImpl::solve(max_date) takes time_delta =
 * max_date - now_, then now_ += time_delta). Not always clock + timeout, nor the date itself. */
inline double simgrid_clock_after_wait(double clock, double timeout)
{
  const double date = clock + timeout;
  return clock + (date - clock);
}

/* timeout_landing_on()'s search a few units in the last place around target - clock, out of line: reached only when
 * the plain difference does not land, and its calls (nextafter) would otherwise have the callers keep their values in
 * memory across them on every boundary. */
[[gnu::noinline]] inline double timeout_landing_near(double clock, double target)
{
  double above = target - clock;
  double below = above;
  for (int tries = 0; tries < 8; tries++) {
    if (simgrid_clock_after_wait(clock, above) == target) return above;
    if (below > 0 && simgrid_clock_after_wait(clock, below) == target) return below;
    above = std::nextafter(above, std::numeric_limits<double>::infinity());
    below = std::nextafter(below, 0.0);
  }
  return -1;
}

/* A timeout whose wait takes SimGrid's clock from `clock` to `target` (> clock) exactly, or -1 when none within a few
 * units in the last place of target - clock does. The difference itself most often lands. */
inline double timeout_landing_on(double clock, double target)
{
  const double timeout = target - clock;
  return simgrid_clock_after_wait(clock, timeout) == target ? timeout : timeout_landing_near(clock, target);
}

/* The instant the scheduler's loop would reach on its virtual clock for the policy's wake-up `until` after deciding at
 * `clock` (operator()), or -1 when it would not reach it virtually (something else may come first), as long as
 * nothing happens: what bounds it is fixed when a replay begins (SchedulerActor::advance_cycles()). */
struct NextVirtualInstant {
  double others = std::numeric_limits<double>::infinity(); // the earliest deadline or source event due
  double simgrid_clock = 0; // SimGrid's own clock, which one wait must bring to the instant reached
  bool requeued = false;    // jobs were requeued since the last job ended (the progress limit counts from it)
  double last_end = 0;      // when the last job ended
  double max_without_progress = std::numeric_limits<double>::infinity(); // SchedulerActor::kMaxWithoutProgress

  double operator()(double clock, double until) const
  {
    if (!(until > clock + kTimeEpsilon)) return -1.0; // policy_wakeup(): not a wake-up after the decision at clock
    if (!(until < others)) return -1.0;
    // The progress limit would come first: jobs compute, so it is counted from `clock`.
    if (!(until < (requeued ? std::min(last_end, clock) : clock) + max_without_progress)) return -1.0;
    const double next = simgrid_clock_after_wait(clock, std::max(0.0, until - clock));
    if (next < until - kTimeEpsilon) return -1.0;     // the loop would not decide there
    if (!(others > next + kTimeEpsilon)) return -1.0; // gather() would take a source's events due that close
    if (timeout_landing_on(simgrid_clock, next) < 0) return -1.0; // SimGrid could not be brought there
    return next;
  }
};

} // namespace jobsched
