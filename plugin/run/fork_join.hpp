/* One run of the fork-join paging study (model/fork_join.hpp): one SimGrid actor per thread, one thread per compute
 * host, phases ended by an s4u::Barrier. Writes summary.json (the slowdown, and the completion time computed directly
 * from the same faults, which must agree) and performance.json. One engine per process, so one call per process. */
#pragma once

#include "model/fork_join.hpp"
#include "output/reports.hpp"
#include "run/simulation.hpp"
#include "scenario/scenario.hpp"

namespace jobsched {

/* summary.json of a fork-join run. */
struct ForkJoinResult {
  std::string scenario;
  std::string platform;
  std::uint64_t seed = 0;
  ForkJoinSpec spec;
  long phases = 0;
  long faults_per_thread = 0;
  double completion_time = 0;          // simulated
  double expected_completion_time = 0; // computed directly from the same faults: the two must agree
  double slowdown = 0;                 // completion time / (phases x granularity)
};
std::string fork_join_summary_json(const ForkJoinResult& r);

struct ForkJoinReport {
  ForkJoinResult result;
  PerformanceFigures performance;
  std::filesystem::path out_dir;
};

/* `scenario.fork_join` must be set. */
ForkJoinReport run_fork_join(const Scenario& scenario, const RunOptions& options);

} // namespace jobsched
