#include "experiment/check_policy_params.hpp"

#include "core/errors.hpp"
#include "core/params.hpp"
#include "scenario/scenario.hpp"
#include "scenario/scenario_tree.hpp"

#include <filesystem>
#include <yaml-cpp/yaml.h>

namespace fs = std::filesystem;

namespace jobsched {

namespace {
/* Removes the tags of `node`'s scalars, at any depth. The emitter quotes a text that would otherwise read as another
 * value (null, ~, an empty text); a tagged text such as !!str 600 reads back as 600, the same value. */
void drop_tags(YAML::Node node)
{
  if (node.IsScalar()) {
    if (node.Tag() != "?" && node.Tag() != "!") node.SetTag("?");
  } else if (node.IsSequence()) {
    for (auto item : node)
      drop_tags(item);
  } else if (node.IsMap()) {
    for (auto kv : node)
      drop_tags(kv.second);
  }
}
} // namespace

CheckedPolicyParams check_policy_params(const std::vector<std::string>& sets, const PolicyInfo& policy)
{
  const std::string prefix = "policy.params.";
  YAML::Node root(YAML::NodeType::Map);
  for (const auto& set : sets) {
    const std::string key = set.substr(0, set.find('='));
    // The cases make the platform, the workload and the rest of the scenario: only the policy's parameters are free.
    if (key.compare(0, prefix.size(), prefix) != 0 || key.size() == prefix.size())
      throw InputError("--set " + key + ": only policy.params.KEY=VALUE is taken (the cases make the rest)");
    apply_override(root, set); // InputError naming --set and the key: not KEY=VALUE, not YAML
  }
  CheckedPolicyParams checked;
  YAML::Node params = root["policy"]["params"];
  if (!params || params.IsNull() || params.size() == 0) return checked;
  for (auto kv : params) {
    const std::string& name = kv.first.Scalar();
    if (name.size() > 5 && name.compare(name.size() - 5, 5, "_file") == 0 && kv.second.IsScalar() &&
        !kv.second.Scalar().empty() && fs::path(kv.second.Scalar()).is_relative())
      kv.second = fs::absolute(kv.second.Scalar()).lexically_normal().string();
  }
  YAML::Emitter flow;
  flow << YAML::Flow << params;
  checked.yaml = flow.c_str();
  // The text the cases' runs will read, read as they read it (the scenario reader, its errors naming --set), then
  // checked against the policy's declared parameters (unknown names, types, choices, ranges).
  const Scenario sc = parse_scenario("platform: platform.xml\nworkload: {generator: {jobs: 1}}\n", "check-policy.yaml",
                                     {"policy.params=" + checked.yaml});
  checked.values = sc.policy.params;
  checked.tags = sc.policy.param_tags;
  try {
    Params(policy.params, checked.values, "policy.params", checked.tags);
  } catch (const InputError& e) {
    throw InputError(std::string("--set: ") + e.what());
  }
  // The tags have been checked against the declared types: case.yaml gets the values as plain YAML, which read back
  // the same (the emitter would write a tag out in full, !<tag:yaml.org,2002:float> 1).
  drop_tags(params);
  YAML::Emitter plain;
  plain << YAML::Flow << params;
  checked.yaml = plain.c_str();
  return checked;
}

} // namespace jobsched
