/* The one way a CSV file is written here (jobs.csv, trace.csv, the sweep tables, plans...): comma-separated, a field
 * quoted per RFC 4180 when it needs it (it holds a comma, a double quote, a carriage return or a newline), a double
 * quote doubled inside. Fields that hold user text (a workload's name, an architecture, a swept value) go through
 * csv_field; numbers written directly need no quoting. */
#pragma once

#include <string>
#include <vector>

namespace jobsched {

std::string csv_field(const std::string& value);
/* The fields, each through csv_field, joined by commas, ending in a newline. */
std::string csv_row(const std::vector<std::string>& fields);

} // namespace jobsched
