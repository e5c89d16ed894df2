/* The `gang_now:` section of a scenario: gang scheduling on a heterogeneous network of workstations whose owners
 * come and go (Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems"). run/gang_now.hpp
 * runs it; docs/reproduction/gang-now.md describes every key. */
#pragma once

#include "model/owner_activity.hpp"
#include "policies/gang_now/runtime_policy.hpp"
#include "workload/gang_now_workload.hpp"

namespace jobsched {

struct GangNowSpec {
  GangNowPolicySpec policy;
  OwnerSpec owners;
  GangWorkloadSpec workload;
};

} // namespace jobsched
