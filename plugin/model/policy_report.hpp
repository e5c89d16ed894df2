/* What a policy adds to the one output schema: per-job columns after jobs.csv's common ones (empty where they do not
 * apply), summary.json keys after the common ones, and the outcome of the checks of its paper's analysis. */
#pragma once

#include "model/job.hpp"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace jobsched {

struct PolicyReport {
  std::vector<std::string> job_columns;                        // names, in order
  std::map<JobId, std::vector<double>> job_values;             // per job that has them, one value per column
  std::vector<std::pair<std::string, double>> summary_numbers; // summary.json keys, in order
  std::vector<std::pair<std::string, std::string>> summary_texts;
  std::vector<std::pair<std::string, bool>> summary_flags;
  /* Not empty: a check of the analysis failed (one line); the run exits with kExitInvariantViolated. */
  std::string invariant_violation;
};

} // namespace jobsched
