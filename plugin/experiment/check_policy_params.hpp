/* The policy parameters of `jobsched check-policy --set policy.params.KEY=VALUE`: read as `jobsched run --set` reads
 * them, checked against the policy's declared parameters before any case runs, and written into every case. */
#pragma once

#include "policy/policy.hpp"

#include <map>
#include <string>
#include <vector>

namespace jobsched {

struct CheckedPolicyParams {
  std::map<std::string, std::string> values; // as the scenario reader gives them (Scenario::policy.params)
  std::map<std::string, std::string> tags;   // their YAML tags, where given (Scenario::policy.param_tags)
  std::string yaml;                          // the mapping on one line ({quantum: 100}) for case.yaml; empty if none
};

/* `sets` are the KEY=VALUE of the --set options, in order. A key outside policy.params, a value that is not YAML, an
 * unknown parameter, a value of the wrong type or out of range: an InputError naming --set and the key. A relative
 * value of a parameter whose name ends in _file is made absolute (the cases run in folders of their own). */
CheckedPolicyParams check_policy_params(const std::vector<std::string>& sets, const PolicyInfo& policy);

} // namespace jobsched
