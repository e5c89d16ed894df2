/* Reading the options of jobsched's subcommands. */
#pragma once

#include "core/errors.hpp"

#include <charconv>
#include <string>
#include <vector>

namespace jobsched {

/* When args[i] is the option `name`, "--name VALUE" (i moves to the value) or "--name=VALUE": true, with its value.
 * InputError when the value is missing. */
inline bool option_with_value(const std::vector<std::string>& args, size_t& i, const std::string& name,
                              std::string& value)
{
  const std::string& a = args[i];
  if (a == name) {
    if (i + 1 >= args.size()) throw InputError(name + " needs a value");
    value = args[++i];
    return true;
  }
  if (a.rfind(name + "=", 0) == 0) {
    value = a.substr(name.size() + 1);
    return true;
  }
  return false;
}

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
