#include "policy/policy.hpp"

namespace jobsched {

Registry<PolicyInfo>& policy_registry()
{
  static Registry<PolicyInfo> registry("policy.name");
  return registry;
}

const char* to_string(Decision::Kind kind)
{
  switch (kind) {
  case Decision::Kind::start:
    return "start";
  case Decision::Kind::kill:
    return "kill";
  case Decision::Kind::suspend:
    return "suspend";
  case Decision::Kind::resume:
    return "resume";
  case Decision::Kind::resize:
    return "resize";
  case Decision::Kind::migrate:
    return "migrate";
  }
  return "?";
}

} // namespace jobsched
