/* Invariants of a run's trace that every time-sharing test checks. */
#pragma once

#include "model/job_state.hpp"

#include <vector>

namespace jobsched::testing {

/* Pairs of segments of two different jobs computing (running or switching in) on one processor at the same time:
 * 0 in every correct run. */
inline int computing_overlaps(const std::vector<TraceSegment>& trace)
{
  auto computing = [](const TraceSegment& t) {
    return t.status == JobStatus::running || t.status == JobStatus::switching;
  };
  int overlaps = 0;
  for (size_t a = 0; a < trace.size(); a++)
    for (size_t b = a + 1; b < trace.size(); b++) {
      const TraceSegment& x = trace[a];
      const TraceSegment& y = trace[b];
      if (computing(x) && computing(y) && x.job != y.job && x.processors.intersects(y.processors) &&
          x.start < y.end - 1e-9 && y.start < x.end - 1e-9)
        overlaps++;
    }
  return overlaps;
}

} // namespace jobsched::testing
