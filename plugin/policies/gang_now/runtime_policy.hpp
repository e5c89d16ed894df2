/* The run-time choices of gang scheduling on networks of workstations (Al-Saqabi, Otto & Walpole, "Gang Scheduling
 * in Heterogeneous Distributed Systems"): the paper's algorithms with their variants (events.hpp), what an owner's
 * return does to the guests, and the time slices' quantum and context switch (the paper gives neither). The policy
 * gang-now (gang_now_policy.cpp) applies them; its parameters (policy.params) set them. */
#pragma once

#include "policies/gang_now/events.hpp"

namespace jobsched {

/* What happens to the VPs of a workstation whose owner comes back (processor_exit):
 *   - migrate (the paper): the scheduler reallocates them (MTAT, Compression, Expansion) and their images cross the
 *     network to their new hosts, where they go on with the work they had left;
 *   - wait (baseline, no migration on eviction): the workstation stays in the allocation map and its VPs are
 *     suspended until the owner leaves again (Expansion still moves VPs when free space appears, with their images);
 *   - restart (baseline, no migration mechanism): the scheduler decides as under migrate, but every VP it moves (after
 *     an eviction or by Expansion) is killed and starts again from the beginning on its new host (its work so far is
 *     lost, no image moves). */
enum class Eviction { migrate, wait, restart };

struct GangNowPolicySpec {
  gang_now::SchedulerOptions options;
  Eviction eviction = Eviction::migrate;
  double quantum = 60;      // seconds a time slice runs before the next one
  double switch_cost = 0.5; // seconds a VP stalls when its slice starts again
};

} // namespace jobsched
