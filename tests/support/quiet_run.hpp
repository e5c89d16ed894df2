/* One whole run of a scenario file for the runtime tests: outputs under `out_dir`, only SimGrid's critical log lines,
 * the trace kept in memory. One engine per process: call it inside jobsched::testing::in_child. */
#pragma once

#include "run/simulation.hpp"

#include <filesystem>

namespace jobsched::testing {

inline RunReport run_quietly(const std::filesystem::path& scenario_file, const std::filesystem::path& out_dir)
{
  Scenario sc = load_scenario(scenario_file);
  sc.output_dir = out_dir;
  RunOptions opt;
  opt.simgrid_args = {"--log=root.thres:critical"};
  opt.keep_trace = true;
  return run_scenario(sc, opt);
}

} // namespace jobsched::testing
