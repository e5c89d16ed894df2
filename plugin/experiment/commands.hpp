/* The experiment commands of the launcher: jobsched sweep and jobsched collect. */
#pragma once

#include <string>
#include <vector>

namespace jobsched {

/* jobsched sweep SCENARIO [--out DIR] [-j N] [--shard I/N] [--slurm [--shards N]] [--set K=V]... [--quiet]
 * Returns the exit status: 0 all runs succeeded, 1 some failed (tables still written), 2 bad input. */
int sweep_main(const std::vector<std::string>& args);
/* jobsched collect DIR: results.csv and aggregate.csv from the runs found in DIR. */
int collect_main(const std::vector<std::string>& args);

extern const char* const kSweepUsage;

} // namespace jobsched
