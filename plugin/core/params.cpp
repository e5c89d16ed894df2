#include "core/params.hpp"

#include "core/errors.hpp"
#include "core/time_format.hpp"
#include "core/yaml_tags.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <yaml-cpp/yaml.h>

namespace jobsched {

namespace {
/* A bound as people write it: 1000000 and 0.0001 rather than 1e+06 and 1e-04. */
std::string bound_text(double value)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.15g", value);
  return buf;
}
} // namespace

bool ParamRange::contains(double value) const
{
  const bool above_low = low_open ? value > low : value >= low;
  const bool below_high = high_open ? value < high : value <= high;
  return above_low && below_high;
}

std::string ParamRange::text() const
{
  const bool has_low = std::isfinite(low);
  const bool has_high = std::isfinite(high);
  if (has_low && has_high)
    return std::string("in ") + (low_open ? "(" : "[") + bound_text(low) + ", " + bound_text(high) +
           (high_open ? ")" : "]");
  if (has_low) return (low_open ? "above " : "at least ") + bound_text(low);
  if (has_high) return (high_open ? "below " : "at most ") + bound_text(high);
  return "any number";
}

std::string ParamSpec::allowed_text() const
{
  std::string text;
  if (!choices.empty()) {
    text = "one of ";
    for (size_t i = 0; i < choices.size(); i++)
      text += (i == 0 ? "" : ", ") + choices[i];
  }
  if (range) text += (text.empty() ? "" : ", or a number ") + range->text();
  return text;
}

Params::Params(const std::vector<ParamSpec>& specs, const std::map<std::string, std::string>& values, std::string where,
               const std::map<std::string, std::string>& tags)
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
    given_.insert(name);
  }
  // A tag must name the declared type (core/yaml_tags.hpp): yaml-cpp gives `!!str 600` as the text 600, which would be
  // read as the number. Text, lists and mappings take any tag.
  auto require_fitting_tag = [&](const std::string& name, ScalarType type, const char* expected) {
    auto tag = tags.find(name);
    if (tag != tags.end() && !tag_fits(tag->second, type))
      throw InputError(where_ + "." + name + ": expected " + expected + ", got " + quoted_value(get_string(name)) +
                       " tagged " + quoted_value(tag->second));
  };
  // Type-check every value now, so a typo fails before the simulation starts.
  for (const auto& s : specs) {
    const std::string& d = s.default_value;
    char* end = nullptr;
    std::strtod(d.c_str(), &end);
    bool numeric_default = !d.empty() && *end == '\0';
    if (d == "true" || d == "false") {
      require_fitting_tag(s.name, ScalarType::kBoolean, "true or false");
      get_bool(s.name);
    } else if (!d.empty() && d.front() == '[') {
      get_list(s.name);
    } else if (!d.empty() && d.front() == '{') {
      get_map(s.name);
    } else if (numeric_default && d.find_first_of(".eE") == std::string::npos) {
      require_fitting_tag(s.name, ScalarType::kInteger, "an integer");
      get_int(s.name);
    } else if (numeric_default) {
      require_fitting_tag(s.name, ScalarType::kNumber, "a number");
      get_double(s.name);
    }
    check_allowed(s);
  }
}

void Params::check_allowed(const ParamSpec& spec) const
{
  if (spec.choices.empty() && !spec.range) return;
  const std::string& v = get_string(spec.name);
  for (const auto& choice : spec.choices)
    if (v == choice) return;
  if (spec.range && (spec.choices.empty() || looks_numeric(v)) && spec.range->contains(get_double(spec.name))) return;
  throw InputError(where_ + "." + spec.name + ": " + quoted_value(v) + " is not " + spec.allowed_text());
}

bool Params::looks_numeric(const std::string& text)
{
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return !text.empty() && *end == '\0';
}

const std::string& Params::get_string(const std::string& name) const
{
  auto it = values_.find(name);
  if (it == values_.end()) throw PolicyError("parameter " + quoted_value(name) + " was never declared");
  return it->second;
}

double Params::get_double(const std::string& name) const
{
  const std::string& v = get_string(name);
  char* end = nullptr;
  double d = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0' || !std::isfinite(d))
    throw InputError(where_ + "." + name + ": expected a finite number, got " + quoted_value(v));
  return d;
}

double Params::get_seconds_at_least(const std::string& name, double low) const
{
  const double seconds = get_double(name);
  if (!(seconds >= low))
    throw InputError(where_ + "." + name + ": must be a number of seconds, at least " + format_exact(low));
  return seconds;
}

long Params::get_int(const std::string& name) const
{
  const std::string& v = get_string(name);
  char* end = nullptr;
  errno = 0;
  long i = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0')
    throw InputError(where_ + "." + name + ": expected an integer, got " + quoted_value(v));
  if (errno == ERANGE || i > kMaxInt || i < -kMaxInt)
    throw InputError(where_ + "." + name + ": " + v + " is out of range (at most " + std::to_string(kMaxInt) + ")");
  return i;
}

namespace {
YAML::Node parse_value(const std::string& where, const std::string& text)
{
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InputError(where + ": not valid YAML (" + e.msg + ")");
  }
}
} // namespace

std::vector<std::string> Params::get_list(const std::string& name) const
{
  YAML::Node n = parse_value(where_ + "." + name, get_string(name));
  if (!n.IsSequence())
    throw InputError(where_ + "." + name + ": expected a list, e.g. [1, 2], got " + quoted_value(get_string(name)));
  std::vector<std::string> out;
  for (const auto& item : n) {
    if (!item.IsScalar()) throw InputError(where_ + "." + name + ": expected a list of single values");
    out.push_back(item.Scalar());
  }
  return out;
}

std::map<std::string, std::string> Params::get_map(const std::string& name) const
{
  YAML::Node n = parse_value(where_ + "." + name, get_string(name));
  if (!n.IsMap())
    throw InputError(where_ + "." + name + ": expected a mapping, e.g. {a: 1}, got " + quoted_value(get_string(name)));
  std::map<std::string, std::string> out;
  for (const auto& kv : n) {
    if (!kv.second.IsScalar())
      throw InputError(where_ + "." + name + "." + kv.first.Scalar() + ": expected a single value");
    out[kv.first.Scalar()] = kv.second.Scalar();
  }
  return out;
}

bool Params::get_bool(const std::string& name) const
{
  const std::string& v = get_string(name);
  if (v == "true") return true;
  if (v == "false") return false;
  throw InputError(where_ + "." + name + ": expected true or false, got " + quoted_value(v));
}

} // namespace jobsched
