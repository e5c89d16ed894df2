/* Named, typed parameters of a policy or allocator, checked against what the component declares. */
#pragma once

#include <map>
#include <string>
#include <vector>

namespace jobsched {

struct ParamSpec {
  std::string name;
  std::string default_value; // as text; its form gives the type: "3" integer, "0.5" number, "true" boolean,
                             // "[1, 2]" list, "{a: 1}" mapping, anything else text
  std::string description;
};

class Params {
 public:
  Params() = default;
  /* `values` come from the scenario (text form); `where` names them in errors, e.g. "policy.params".
   * Unknown names and values of the wrong type are InputErrors naming `where.name`. */
  Params(const std::vector<ParamSpec>& specs, const std::map<std::string, std::string>& values, std::string where);

  const std::string& get_string(const std::string& name) const;
  double get_double(const std::string& name) const;
  /* A duration such as a quantum: a number of seconds of at least `low` (an InputError otherwise). */
  double get_seconds_at_least(const std::string& name, double low) const;
  long get_int(const std::string& name) const;
  bool get_bool(const std::string& name) const;
  /* Parameters whose default is a YAML list ("[...]") or mapping ("{...}"); their scenario values keep that shape. */
  std::vector<std::string> get_list(const std::string& name) const;
  std::map<std::string, std::string> get_map(const std::string& name) const;
  /* Integers larger than this are refused: they overflow the int counts policies compute with. */
  static constexpr long kMaxInt = 1000000000;

 private:
  std::map<std::string, std::string> values_;
  std::string where_;
};

} // namespace jobsched
