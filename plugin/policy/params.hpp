/* Named, typed parameters of a policy or allocator, checked against what the component declares. */
#pragma once

#include <map>
#include <string>
#include <vector>

namespace jobsched {

struct ParamSpec {
  std::string name;
  std::string default_value; // as text, e.g. "3", "0.5", "true"
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
  long get_int(const std::string& name) const;
  bool get_bool(const std::string& name) const;

 private:
  std::map<std::string, std::string> values_;
  std::string where_;
};

} // namespace jobsched
