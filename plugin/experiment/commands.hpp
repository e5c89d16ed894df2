/* The experiment commands of the launcher: jobsched sweep and jobsched collect. */
#pragma once

#include "core/command_line.hpp"

#include <string>
#include <vector>

namespace jobsched {

/* The options of the commands that simulate a scenario (run, fork-join, sweep). */
struct ScenarioOptions {
  std::string scenario;               // the scenario file, the command's one positional argument
  std::vector<std::string> overrides; // --set KEY=VALUE, in order
  std::string out_dir;                // --out DIR (empty: the scenario's output.dir)
  bool quiet = false;                 // --quiet, -q
  std::vector<std::string> plugins;   // --plugin PATH, in order (libraries of policies: policy/plugin_loader.hpp)
};
/* Declares SCENARIO.yaml, --set, --out and --quiet on `command`, stored in `o`: one place for the options that every
 * simulating command shares (add one here and run, fork-join and sweep all take it). */
void add_scenario_options(CLI::App& command, ScenarioOptions& o);

/* jobsched sweep SCENARIO [--out DIR] [-j N] [--shard I/N] [--slurm [--shards N]] [--set K=V]... [--quiet]
 * Its exit status: 0 all runs succeeded, 1 some failed (tables still written), 2 bad input. */
void add_sweep_command(CommandLine& cli);
/* jobsched collect DIR: results.csv and aggregate.csv from the runs found in DIR. */
void add_collect_command(CommandLine& cli);

extern const char* const kSweepUsage;

} // namespace jobsched
