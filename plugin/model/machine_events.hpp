/* What policies are told has happened, in the words both kinds of policy (policy/policy.hpp, policy/time_sharing.hpp)
 * and the runtime that tells them (runtime/core/driver.hpp) share: how a job left the machine, and what changed on a
 * host. */
#pragma once

namespace jobsched {

enum class JobEnd { completed, killed, failed };

struct HostChange {
  int host = 0;
  bool up = true;     // false: failed, or reclaimed by its owner
  double speed = 1.0; // fraction of peak speed left to guest jobs
  bool owner = false; // the change is the workstation's owner coming back or leaving (the host itself stays on)
};

} // namespace jobsched
