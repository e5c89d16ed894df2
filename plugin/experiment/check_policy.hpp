/* jobsched check-policy NAME: a registered policy run through the runtime's invariants on generated workloads. */
#pragma once

#include <string>
#include <vector>

namespace jobsched {

class CommandLine;
/* jobsched check-policy NAME [--seed S] [--keep DIR] [--plugin PATH]...: its exit status is 0 every case passed, 1 a
 * violation (printed with the folder of its reproducing scenario), 2 bad input. */
void add_check_policy_command(CommandLine& cli);

} // namespace jobsched
