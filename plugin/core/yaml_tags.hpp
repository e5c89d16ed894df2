/* Which YAML tags a scalar may carry where the scenario asks for a value of a given type: the scenario's own keys
 * (scenario/scenario.cpp, scenario/replications.cpp) and the parameters of policies and allocators, whose type their
 * declaration gives (core/params.cpp).
 *
 * yaml-cpp reads `!!str 20` and `!foo 20` as the number 20 without a word: a tag that says the value is something else
 * than what is asked is refused. Plain scalars carry the tag "?", quoted ones "!" (a quoted "20" is read as 20, as it
 * always was); the YAML core schema's own tags are taken where they name the type asked: !!int for an integer, !!int
 * or !!float for a number, !!bool for true or false. Text takes any tag (!!str included): it is read as written. */
#pragma once

#include <string>

namespace jobsched {

enum class ScalarType { kInteger, kNumber, kBoolean };

inline bool tag_fits(const std::string& tag, ScalarType type)
{
  if (tag == "?" || tag == "!") return true;
  const std::string core = "tag:yaml.org,2002:";
  if (tag.rfind(core, 0) != 0) return false;
  const std::string name = tag.substr(core.size());
  switch (type) {
  case ScalarType::kInteger:
    return name == "int";
  case ScalarType::kNumber:
    return name == "int" || name == "float";
  case ScalarType::kBoolean:
    return name == "bool";
  }
  return false;
}

/* `!!null` (with no text, `~` or `null`): the core schema's null, read as the key being empty. yaml-cpp gives such a
 * tagged scalar as text, not as a null node. */
inline bool is_tagged_null(const std::string& tag, const std::string& text)
{
  return tag == "tag:yaml.org,2002:null" &&
         (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL");
}

} // namespace jobsched
