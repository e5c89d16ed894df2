/* One whole run of a scenario file for the runtime tests: outputs under `out_dir`, only SimGrid's critical log lines,
 * the trace and the jobs' records kept in memory. One engine per process: call it inside jobsched::testing::in_child. */
#pragma once

#include "run/simulation.hpp"

#include <filesystem>

namespace jobsched::testing {

/* The scenario in `scenario_file`, writing its outputs under `out_dir`. */
inline Scenario load_scenario_into(const std::filesystem::path& scenario_file, const std::filesystem::path& out_dir)
{
  Scenario sc = load_scenario(scenario_file);
  sc.output_dir = out_dir;
  return sc;
}

/* Options that let only SimGrid's critical log lines through. */
inline RunOptions quiet_options()
{
  RunOptions opt;
  opt.simgrid_args = {"--log=root.thres:critical"};
  return opt;
}

inline RunReport run_quietly(const std::filesystem::path& scenario_file, const std::filesystem::path& out_dir)
{
  RunOptions opt = quiet_options();
  opt.keep_trace = true;
  opt.keep_states = true;
  return run_scenario(load_scenario_into(scenario_file, out_dir), opt);
}

} // namespace jobsched::testing
