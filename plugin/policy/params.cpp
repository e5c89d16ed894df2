#include "policy/params.hpp"

#include "core/errors.hpp"

#include <cstdlib>

namespace jobsched {

Params::Params(const std::vector<ParamSpec>& specs, const std::map<std::string, std::string>& values, std::string where)
    : where_(std::move(where))
{
  for (const auto& s : specs)
    values_[s.name] = s.default_value;
  for (const auto& [name, value] : values) {
    if (values_.count(name) == 0) {
      std::string known;
      for (const auto& s : specs)
        known += (known.empty() ? "" : ", ") + s.name;
      throw InputError(where_ + "." + name + ": unknown parameter (known: " + (known.empty() ? "none" : known) + ")");
    }
    values_[name] = value;
  }
  // Type-check every value now, so a typo fails before the simulation starts.
  for (const auto& s : specs) {
    const std::string& d = s.default_value;
    char* end = nullptr;
    std::strtod(d.c_str(), &end);
    bool numeric_default = !d.empty() && *end == '\0';
    if (d == "true" || d == "false")
      get_bool(s.name);
    else if (numeric_default && d.find_first_of(".eE") == std::string::npos)
      get_int(s.name);
    else if (numeric_default)
      get_double(s.name);
  }
}

const std::string& Params::get_string(const std::string& name) const
{
  auto it = values_.find(name);
  if (it == values_.end()) throw PolicyError("parameter '" + name + "' was never declared");
  return it->second;
}

double Params::get_double(const std::string& name) const
{
  const std::string& v = get_string(name);
  char* end = nullptr;
  double d = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0') throw InputError(where_ + "." + name + ": expected a number, got '" + v + "'");
  return d;
}

long Params::get_int(const std::string& name) const
{
  const std::string& v = get_string(name);
  char* end = nullptr;
  long i = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0') throw InputError(where_ + "." + name + ": expected an integer, got '" + v + "'");
  return i;
}

bool Params::get_bool(const std::string& name) const
{
  const std::string& v = get_string(name);
  if (v == "true") return true;
  if (v == "false") return false;
  throw InputError(where_ + "." + name + ": expected true or false, got '" + v + "'");
}

} // namespace jobsched
