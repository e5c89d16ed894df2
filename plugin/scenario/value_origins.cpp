#include "scenario/value_origins.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>

namespace jobsched {

ValueOrigins::ValueOrigins(std::string file, const std::vector<std::string>& overrides) : file_(std::move(file))
{
  for (const auto& o : overrides)
    overridden_.insert(o.substr(0, o.find('=')));
}

bool ValueOrigins::set_by_override(const std::string& key) const
{
  return std::any_of(overridden_.begin(), overridden_.end(),
                     [&key](const std::string& o) { return key == o || key.rfind(o + ".", 0) == 0; });
}

bool ValueOrigins::shaped_by_override(const std::string& key) const
{
  return set_by_override(key) || std::any_of(overridden_.begin(), overridden_.end(),
                                             [&key](const std::string& o) { return o.rfind(key + ".", 0) == 0; });
}

std::string ValueOrigins::where(const std::string& key, int line) const
{
  if (set_by_override(key)) return "--set";
  return line > 0 ? file_ + ":" + std::to_string(line) : file_;
}

std::string ValueOrigins::where_read(const std::string& key, const YAML::Node& at) const
{
  if (shaped_by_override(key)) return "--set";
  return where(key, at && at.Mark().line >= 0 ? at.Mark().line + 1 : 0);
}

std::string ValueOrigins::error(const std::string& message) const
{
  // The key ends at the first ": " (a message about keys read together, "a, b: what", is named by the first).
  const std::string key = message.substr(0, std::min(message.find(": "), message.find(',')));
  return where(key) + ": " + message;
}

} // namespace jobsched
