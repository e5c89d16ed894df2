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

/* Job size: requested processors (field 8), else allocated (field 5). Estimate: requested time (field 9), else the
 * run time. Memory: used memory per processor (field 7, KB). A malformed line is an InputError "file:line: ...". */
SwfFile read_swf(const std::string& path);

/* The same, from text already in memory (`origin` names it in errors). */
SwfFile parse_swf(const std::string& text, const std::string& origin);

} // namespace jobsched
