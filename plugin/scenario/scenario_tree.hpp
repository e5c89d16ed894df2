/* The scenario as a YAML tree, before it is read into a Scenario: what sweeps need to expand a grid, apply --set
 * overrides and name each run by its resolved text. */
#pragma once

#include <filesystem>
#include <string>
#include <yaml-cpp/yaml.h>

namespace jobsched {

/* The YAML in `file` (an empty file is an empty mapping); InputError "file:line: malformed YAML: ..." */
YAML::Node load_yaml_file(const std::filesystem::path& file);
YAML::Node parse_yaml(const std::string& yaml_text, const std::string& file);
/* Apply "dotted.key=value" (value read as YAML; null removes the key). InputError naming --set on bad input. */
void apply_override(YAML::Node& root, const std::string& assignment);

} // namespace jobsched
