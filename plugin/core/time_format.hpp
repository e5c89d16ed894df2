/* Numbers in output files: shortest text that reads back to 6 decimals, so outputs are stable and readable. */
#pragma once

#include <string>

namespace jobsched {
std::string format_number(double value);
} // namespace jobsched
