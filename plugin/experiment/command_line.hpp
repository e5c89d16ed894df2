/* Reading the options of jobsched's subcommands. */
#pragma once

#include "core/errors.hpp"

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

} // namespace jobsched
