/* How far a time-sharing policy looks ahead (Plan::lookahead), and when it stops trying for a while: the pace of
 * QuantaAhead (quanta_ahead.hpp). A phase that the scheduler does not replay is a step worked out in vain, which costs
 * more than the plan() and lookahead a shorter lookahead adds; so a lookahead has as many phases as the last ones had
 * replayed on average, and 8 more (whole KTH log under AP: 4.7 s against 5.9 s for twice the mean and 5.1 s for a
 * fixed 32); QuantaAhead starts a plan's lookahead at half that length and extends it by the whole of it each time the
 * scheduler replays it whole (each extension counted here as a lookahead of its own). A lookahead that nothing
 * interrupted and the scheduler still did not replay (an execution it does not replay: a stall, an image, a job killed
 * at its estimate) would be worked out in vain at every plan: after four in a row, lookaheads pause for 16 plans, then
 * twice as many after each further one, up to 1024. */
#pragma once

#include <cstddef>

namespace jobsched {

class LookaheadPace {
 public:
  /* The most phases a lookahead may have, phase 0 included. */
  static constexpr size_t kMostPhases = 256;
  /* Whether to work out a lookahead at this plan: false while lookaheads pause (each call is one plan of the pause). */
  bool try_now();
  /* The most phases the next lookahead has: the mean replayed + 8, at least 4, at most kMostPhases. */
  size_t most_phases() const;
  /* The last lookahead's outcome, at the next plan: `replayed` of its phases' boundaries replayed; `reached`: that
   * plan came at or after its first boundary (nothing interrupted it before). */
  void record(size_t replayed, bool reached);

 private:
  double replayed_mean_ = 16; // phases replayed per lookahead, a moving mean (weight 1/8 to the last)
  long fruitless_ = 0;        // lookaheads in a row that were reached and not replayed
  long pause_ = 0;            // plans left without a lookahead
};

} // namespace jobsched
