/* Named, typed parameters of a policy or allocator, checked against what the component declares. */
#pragma once

#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace jobsched {

/* The numbers a numeric parameter allows: from low to high, each end included unless it is open. */
struct ParamRange {
  double low = -std::numeric_limits<double>::infinity();
  double high = std::numeric_limits<double>::infinity();
  bool low_open = false;  // low itself is refused
  bool high_open = false; // high itself is refused

  static ParamRange at_least(double low) { return {low, std::numeric_limits<double>::infinity(), false, false}; }
  static ParamRange above(double low) { return {low, std::numeric_limits<double>::infinity(), true, false}; }
  static ParamRange between(double low, double high) { return {low, high, false, false}; }

  bool contains(double value) const;
  /* What it allows, in words: "at least 0", "above 0", "at most 1", "in [1, 64]", "in (0, 1]". */
  std::string text() const;
};

struct ParamSpec {
  std::string name;
  std::string default_value; // as text; its form gives the type: "3" integer, "0.5" number, "true" boolean,
                             // "[1, 2]" list, "{a: 1}" mapping, anything else text
  std::string description;
  // Optional, checked by Params: a text parameter's only allowed values, and a numeric one's range. A value outside
  // them is an InputError naming the key, the value and what is allowed.
  std::vector<std::string> choices = {};
  std::optional<ParamRange> range = {};

  /* What the parameter allows beyond its type, in words ("one of fcfs, sjf", "in (0, 1]"); empty if anything. */
  std::string allowed_text() const;
};

class Params {
 public:
  Params() = default;
  /* `values` come from the scenario (text form); `where` names them in errors, e.g. "policy.params". `tags`: the YAML
   * tags of the values given with one (!!int 600), which must fit the declared type (core/yaml_tags.hpp).
   * Unknown names and values of the wrong type are InputErrors naming `where.name`. */
  Params(const std::vector<ParamSpec>& specs, const std::map<std::string, std::string>& values, std::string where,
         const std::map<std::string, std::string>& tags = {});

  const std::string& get_string(const std::string& name) const;
  double get_double(const std::string& name) const;
  /* A duration such as a quantum: a number of seconds of at least `low` (an InputError otherwise). */
  double get_seconds_at_least(const std::string& name, double low) const;
  long get_int(const std::string& name) const;
  bool get_bool(const std::string& name) const;
  /* Parameters whose default is a YAML list ("[...]") or mapping ("{...}"); their scenario values keep that shape. */
  std::vector<std::string> get_list(const std::string& name) const;
  std::map<std::string, std::string> get_map(const std::string& name) const;
  /* The scenario gave `name` a value (its default included): a policy refuses a parameter its variant does not read. */
  bool given(const std::string& name) const { return given_.count(name) != 0; }
  /* Integers larger than this are refused: they overflow the int counts policies compute with. */
  static constexpr long kMaxInt = 1000000000;

 private:
  /* The value of `spec` against its choices and range (an InputError naming the key, the value and what is allowed). */
  void check_allowed(const ParamSpec& spec) const;
  static bool looks_numeric(const std::string& text);

  std::map<std::string, std::string> values_;
  std::set<std::string> given_;
  std::string where_;
};

} // namespace jobsched
