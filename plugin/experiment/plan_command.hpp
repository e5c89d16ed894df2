/* `jobsched plan`: one quantum's schedule under one of the memory-constrained policies (McCann & Zahorjan 1994), as
 * JSON on stdout. The format is documented in README.md ("Memory-constrained schedules") and in schedule_json. */
#pragma once

#include "core/command_line.hpp"
#include "policies/memory_constrained/quantum_schedule.hpp"

#include <optional>
#include <string>
#include <vector>

namespace jobsched::memory_constrained {

/* The help of `jobsched plan` (printed by `jobsched plan --help`). */
extern const char* const kPlanUsage;

/* The schedule as a JSON object: policy, nodes, k (null for policies without one), mins, overhead,
 * normalized_overhead, epoch_count, assignments_tested, assignments_tested_per_epoch, pieces (job, min, first_node,
 * width, start, duration, start_fraction, duration_fraction) and epochs (start, duration, start_fraction,
 * duration_fraction, widths, pieces: indices into "pieces"). Times are fractions of the quantum, as decimals and as
 * exact "p/q" strings. Ends with a newline. */
std::string schedule_json(const QuantumSchedule& schedule, const std::string& policy, const std::vector<int>& mins,
                          std::optional<int> k);

/* Declares `jobsched plan POLICY --nodes N --mins M1,M2,... [--k K] [--max-partitions P]` on `cli`, with its
 * sub-commands `plan mtat`, `plan compress` and `plan expand` (gang_now::add_gang_plan_commands). The command prints
 * the JSON and returns 0; it throws InputError (one line) on bad arguments and when the policy cannot schedule the
 * input, PolicyError if the schedule fails the validator (a bug). */
void add_plan_command(CommandLine& cli);

} // namespace jobsched::memory_constrained
