/* The new-slice rule's names, as the policy's parameter new_slice_rule and `jobsched plan`'s --rule give them. */
#include "policies/gang_now/event_decisions.hpp"

#include "core/errors.hpp"

namespace jobsched::gang_now {

std::string new_slice_rule_name(NewSliceRule rule)
{
  return rule == NewSliceRule::turnaround ? "turnaround" : "time-share";
}

NewSliceRule parse_new_slice_rule(const std::string& name)
{
  if (name == "turnaround") return NewSliceRule::turnaround;
  if (name == "time-share") return NewSliceRule::time_share;
  throw InputError("unknown new-slice rule '" + name + "' (known: turnaround, time-share)");
}

} // namespace jobsched::gang_now
