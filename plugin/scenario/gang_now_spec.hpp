/* The `gang_now:` section of a scenario: gang scheduling on a heterogeneous network of workstations whose owners
 * come and go (Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems"). run/gang_now.hpp
 * runs it; docs/reproduction/gang-now.md describes every key. */
#pragma once

#include "model/owner_activity.hpp"
#include "policies/gang_now/events.hpp"
#include "workload/gang_now_workload.hpp"

namespace jobsched {

/* What happens to the VPs of a workstation whose owner comes back (processor_exit):
 *   - migrate (the paper): the scheduler reallocates them (MTAT, Compression, Expansion) and their images cross the
 *     network to their new hosts, where they go on with the work they had left;
 *   - wait (baseline, no migration on eviction): the workstation stays in the allocation map and its VPs are
 *     suspended until the owner leaves again;
 *   - restart (baseline): the scheduler reallocates them as under migrate, but they are killed and start again from
 *     the beginning on their new hosts (their work so far is lost, no image moves). */
enum class Eviction { migrate, wait, restart };

struct GangNowPolicySpec {
  gang_now::SchedulerOptions options;
  Eviction eviction = Eviction::migrate;
  double quantum = 60;      // seconds a time slice runs before the next one
  double switch_cost = 0.5; // seconds a VP stalls when its slice starts again
};

struct GangNowSpec {
  GangNowPolicySpec policy;
  OwnerSpec owners;
  GangWorkloadSpec workload;
};

} // namespace jobsched
