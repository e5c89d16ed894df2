/* `jobsched plan-sweep`: the Monte Carlo overhead experiment of McCann & Zahorjan 1994 (section 5.1, Figures 9-11)
 * as tables (CSV and markdown) and figures. The experiment itself is in overhead_experiment.hpp. */
#pragma once

#include "core/command_line.hpp"
#include "experiment/overhead_experiment.hpp"

#include <string>
#include <vector>

namespace jobsched::memory_constrained {

extern const char* const kPlanSweepUsage;

/* The CSV header and one row per series of a point (the format is documented in kPlanSweepUsage). */
std::string overhead_csv_header();
std::string overhead_csv_rows(const std::string& panel, const PointResult& result);

/* The body of `jobsched plan-sweep [options]`; args excludes "plan-sweep". Returns 0, or 1 when some point did not
 * converge within --max-trials (the tables are still written). InputError (one line naming the option) on bad
 * arguments. */
/* Declares `jobsched plan-sweep [options]` on `cli`. */
void add_plan_sweep_command(CommandLine& cli);
/* `jobsched plan-sweep ARGS...`: its exit status; bad arguments are InputErrors. */
int plan_sweep_main(const std::vector<std::string>& args);

} // namespace jobsched::memory_constrained
