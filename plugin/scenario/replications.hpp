/* `replications:` of a scenario: how many runs of each point of a sweep, and with which seeds. jobsched sweep plans its
 * runs with it; jobsched run reads it too, so that a scenario with a bad value is refused wherever it is run. */
#pragma once

#include "scenario/value_origins.hpp"

#include <cstdint>
#include <string>
#include <vector>
#include <yaml-cpp/yaml.h>

namespace jobsched {

struct ReplicationRule {
  std::vector<std::uint64_t> seeds; // fixed replications: one seed each
  bool adaptive = false;            // replicate until the confidence interval is narrow enough:
  long min = 3;
  long max = 30;
  std::string metric = "mean_bounded_slowdown"; // a numeric field of summary.json
  double relative_half_width = 0.05;            // stop when the half-width <= this x |mean|
  double confidence = 0.95;                     // of that interval (and of aggregate.csv's ci_half_width)
  std::string stop_when;                        // a numeric field of summary.json: a point whose runs all have it
                                                // above 0 (e.g. `saturated`) gets no more runs ("": none)
  std::uint64_t base_seed = 1;                  // adaptive: replication r uses base_seed + r
  std::uint64_t seed_of(long replication) const;
};

/* Each replication is a process and a folder: a million of them is a typo, not an experiment. */
constexpr long kMaxReplications = 100000;

/* `reps` (absent or null: one run of seed `base_seed`): a count, a list of seeds or a stopping rule. InputError
 * "WHERE:LINE: replications...: what" otherwise, WHERE being the file, or "--set" (no line) for a key --set gave
 * (`origins`). Whether the rule's metrics are fields of the runs' summary.json is the sweep's to check. */
ReplicationRule read_replications(const YAML::Node& reps, const ValueOrigins& origins, std::uint64_t base_seed);

} // namespace jobsched
