/* Reader for the Standard Workload Format of the Parallel Workloads Archive (18 numeric fields a line, ';' header
 * comments), plain or gzip-compressed. */
#pragma once

#include "workload/workload.hpp"

#include <string>
#include <vector>

namespace jobsched {

struct SwfFile {
  std::vector<JobRecord> records;
  int max_procs = 0; // header MaxProcs, else MaxNodes, else 0
};

/* Which SWF field gives a job's size: requested processors (field 8, else allocated when missing) or allocated
 * processors (field 5, else requested), as the site's scheduler gave them. */
enum class SizeField { requested, allocated };

/* Job size: see SizeField. Estimate: requested time (field 9), else the run time. Memory: used memory per processor
 * (field 7, KB), else requested memory per processor (field 10, KB), else none (-1). A malformed line is an InputError
 * "file:line: ...". */
SwfFile read_swf(const std::string& path, SizeField size_field = SizeField::requested);

/* The same, from text already in memory (`origin` names it in errors). */
SwfFile parse_swf(const std::string& text, const std::string& origin, SizeField size_field = SizeField::requested);

} // namespace jobsched
