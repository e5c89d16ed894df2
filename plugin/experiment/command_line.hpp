/* Reading the options of jobsched's subcommands. */
#pragma once

#include "core/errors.hpp"

#include <charconv>
#include <string>
#include <vector>

namespace jobsched {

/* `text` as a whole number from `lowest` to `highest` (decimal digits, an optional '-', nothing else). InputError
 * "OPTION: 'TEXT' is not a whole number" or "OPTION: TEXT is out of range (LOWEST to HIGHEST)". */
inline long long parse_whole(const std::string& option, const std::string& text, long long lowest, long long highest)
{
  long long value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size())
    throw InputError(option + ": '" + text + "' is not a whole number");
  if (value < lowest || value > highest)
    throw InputError(option + ": " + text + " is out of range (" + std::to_string(lowest) + " to " +
                     std::to_string(highest) + ")");
  return value;
}

} // namespace jobsched
