/* The tables of a sweep, built from its plan and the summaries of its runs: results.csv (one row per run) and
 * aggregate.csv (per point and metric: n, mean, std, 95% half-width). See docs/experiments-format.md. */
#pragma once

#include "experiment/sweep_plan.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace jobsched {

/* plan.csv text for `runs` (in plan order). */
std::string plan_csv(const SweepPlan& plan, const std::vector<SweepRun>& runs);

/* The numeric top-level fields of a summary.json, in file order (text, booleans, objects and arrays left out). Throws
 * InputError naming the file when it is not a JSON object (malformed JSON, NaN included), when a field is null (what a
 * run writes for a NaN or an infinite value), or when a field named in `numeric` is there but is not a number. */
std::vector<std::pair<std::string, double>> read_summary_numbers(const std::filesystem::path& summary,
                                                                 const std::vector<std::string>& numeric = {});
/* Same, of summary.json text. */
std::vector<std::pair<std::string, double>> summary_numbers(const std::string& json_text);

struct SweepTables {
  std::string results_csv;
  std::string aggregate_csv;
  long ok = 0;
  long failed = 0;
  long missing = 0;
};

/* Build both tables from `sweep_dir`/plan.csv and `sweep_dir`/runs/. */
/* `confidence`: the level of aggregate.csv's ci_half_width column (ci95_half_width is always 95%). */
SweepTables build_tables(const std::filesystem::path& sweep_dir, double confidence = 0.95);

/* Per point, the samples of one metric over the finished runs (for the stopping rule). */
std::map<long, std::vector<double>> metric_samples(const std::filesystem::path& sweep_dir,
                                                   const std::vector<SweepRun>& runs, const std::string& metric);

} // namespace jobsched
