/* `jobsched plan mtat|compress|expand`: the gang-scheduling algorithms of Al-Saqabi, Otto & Walpole, "Gang Scheduling
 * in Heterogeneous Distributed Systems" (section 4: MTAT, Compression, Expansion, job submission) on the command
 * line, as JSON on stdout. The formats are documented in README.md ("Gang scheduling on networks of workstations")
 * and below. */
#pragma once

#include "core/command_line.hpp"
#include "core/json.hpp"
#include "policies/gang_now/allocation_map.hpp"

#include <string>
#include <vector>

namespace jobsched::gang_now {

/* The help of `jobsched plan mtat|compress|expand` (printed by `jobsched plan mtat --help` and the others). */
extern const char* const kGangPlanUsage;

/* The allocation map as a JSON document:
 *   {"processors": [{"name": "P1", "capacity": "1.1", "arch": "x86"}, ...],
 *    "jobs": [{"id": 1, "vps": {"x86": 6}}, ...],
 *    "next_job": 0,
 *    "slices": [[{"job": 1, "vps": 1}, null, ...], ...]}
 * A slice lists one entry per processor, in the order of "processors"; null is a free entry. Capacities are exact
 * decimal strings. */
Json map_document(const AllocationMap& map);
/* map_document as text (core/json.hpp's json_text), ending with a newline. */
std::string map_json(const AllocationMap& map);

/* The map in `text` (JSON, from the file `source`), in the format map_document writes, with relaxations: a capacity may
 * be a JSON number or a string, as parse_capacity reads them (a number is read as the shortest decimal that gives the
 * same double, which is its digits as written for any capacity parse_capacity accepts); "arch" defaults to "any";
 * "jobs" may be left out (then the jobs are those of the slices, in order of first appearance, each with the VPs of its
 * first slice), and a job's "vps" may be a whole number (VPs of the architecture of the processors it is on, or "any");
 * "next_job" defaults to 0. Throws InputError naming the source, the value at fault (its JSON pointer,
 * "/processors/0/capacity") and the key on malformed input, and the first rule the map breaks (validate). */
AllocationMap read_map_json(const std::string& text, const std::string& source);

/* The body of `jobsched plan mtat|compress|expand ...`; args starts with the command word. Prints the JSON and
 * returns 0; throws InputError (one line) on bad arguments. */
/* Declares `jobsched plan mtat|compress|expand` as sub-commands of `plan` (the app of `jobsched plan`). */
void add_gang_plan_commands(CommandLine& cli, CLI::App& plan);

} // namespace jobsched::gang_now
