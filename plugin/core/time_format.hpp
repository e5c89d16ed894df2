/* Numbers in output files: shortest text that reads back to 6 decimals, so outputs are stable and readable. */
#pragma once

#include <string>

namespace jobsched {
std::string format_number(double value);
/* The shortest text that reads back to exactly `value` ("1e+300", "4.7", "3000000000"): for messages. */
std::string format_exact(double value);
} // namespace jobsched
