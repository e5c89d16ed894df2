/* The arithmetic of the scheduler's virtual clock (SchedulerActor::set_virtual_wakeups): the clock SimGrid reaches
 * after a wait, the timeout that lands it on a given instant, and the rule of a virtual wake-up, which the scheduler's
 * loop applies at every instant and a driver's replay of cycles at every boundary (NextVirtualInstant). Inline: the
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

/* Whether the policy's wake-up `t` was served by the decision at `decided_at`: asking for it again would have the
 * scheduler decide at the same instant forever (SchedulerActor::policy_wakeup() drops it; a replay's boundary, decided
 * at its clock, has no wake-up there either). */
inline bool wakeup_served(double t, double decided_at)
{
  return t <= decided_at + kTimeEpsilon;
}

/* When the scheduler looks again whether the run goes on without progress (SchedulerActor::kMaxWithoutProgress), as
 * seen at `clock`: that long after the last instant some job computed, or after the last job's end when jobs were
 * requeued since (kTimeEpsilon later: the limit is reached at that instant, whatever its rounding). */
inline double progress_limit_wakeup(bool requeued, double last_end, double clock, double last_computing,
                                    double max_without_progress)
{
  return std::min(requeued ? last_end : clock, last_computing) + max_without_progress + kTimeEpsilon;
}

/* Whether jobs were evicted again and again for too long at `now`: jobs were requeued since the last job ended, at
 * `last_end`, and that is max_without_progress ago (one of kMaxWithoutProgress's two stops). */
inline bool evicted_too_long(bool requeued, double last_end, double now, double max_without_progress)
{
  return requeued && now - last_end >= max_without_progress;
}

/* The rule of a virtual wake-up (SchedulerActor::set_virtual_wakeups), stated once: the instant the scheduler reaches
 * on its virtual clock for the policy's wake-up `until`, deciding at `clock`, or -1 when it waits for it with SimGrid.
 * The wake-up must come strictly before `others`, the earliest of the things SimGrid or a source would bring (a
 * deadline, a job's timer, a source's event: on a tie, the wait is SimGrid's); it may reach `latest`, the earliest of
 * the scheduler's own looks (the progress limit, the poll for hosts: the instant reached serves them too). The instant
 * is where SimGrid's clock would go, and one wait from `simgrid_clock` must be able to land there later (catch_up()).
 * The loop's own conditions before it (nothing in flight, hosts, the driver's word, no source pending) are the
 * caller's. */
inline double virtual_wakeup_instant(double clock, double until, double others, double latest, double simgrid_clock)
{
  if (!(until < others) || !(until <= latest)) return -1.0;
  const double next = simgrid_clock_after_wait(clock, std::max(0.0, until - clock));
  return timeout_landing_on(simgrid_clock, next) >= 0 ? next : -1.0;
}

/* The instant the scheduler reaches on its virtual clock for the policy's wake-up `until` after deciding at `clock`,
 * when that instant may be replayed: -1 when the scheduler would not reach it virtually or when something besides the
 * decision would happen there, as long as nothing happens in between (what a driver's replay of cycles asks at every
 * boundary; what bounds it is fixed when a replay begins, SchedulerActor::advance_cycles()). The rule is
 * virtual_wakeup_instant()'s; a replay differs from the scheduler's loop in what it knows: the jobs' timers are its own
 * to check (JobRuntime::cycle_step), not in `others`; jobs compute at every boundary, so the progress limit counts from
 * `clock`; every host is up (no poll). And the loop, reaching an instant, may gather an event there or stop the run,
 * which a replay cannot: those instants are refused. */
struct NextVirtualInstant {
  double others = std::numeric_limits<double>::infinity(); // the earliest deadline or source event due
  double simgrid_clock = 0; // SimGrid's own clock, which one wait must bring to the instant reached
  bool requeued = false;    // jobs were requeued since the last job ended (the progress limit counts from it)
  double last_end = 0;      // when the last job ended
  double max_without_progress = std::numeric_limits<double>::infinity(); // SchedulerActor::kMaxWithoutProgress

  double operator()(double clock, double until) const
  {
    if (wakeup_served(until, clock)) return -1.0; // the boundary at `clock` was a decision
    const double latest = progress_limit_wakeup(requeued, last_end, clock, clock, max_without_progress);
    const double next = virtual_wakeup_instant(clock, until, others, latest, simgrid_clock);
    if (next < 0) return -1.0;
    if (next < until - kTimeEpsilon) return -1.0;     // the loop would not decide there (it would wait on)
    if (!(others > next + kTimeEpsilon)) return -1.0; // gather() would take a source's events due that close
    if (evicted_too_long(requeued, last_end, next, max_without_progress)) return -1.0; // no_progress() would stop
    return next;
  }
};

} // namespace jobsched
