/* One run of the fork-join paging study (model/fork_join.hpp): one SimGrid actor per thread, one thread per compute
 * host, phases ended by an s4u::Barrier. Writes summary.json (the slowdown, and the completion time computed directly
 * from the same faults, which must agree) and performance.json. One engine per process, so one call per process. */
#pragma once

#include "output/reports.hpp"
#include "run/simulation.hpp"
#include "scenario/scenario.hpp"

namespace jobsched {

struct ForkJoinReport {
  ForkJoinResult result;
  PerformanceFigures performance;
  std::filesystem::path out_dir;
};

/* `scenario.fork_join` must be set. */
ForkJoinReport run_fork_join(const Scenario& scenario, const RunOptions& options);

} // namespace jobsched
