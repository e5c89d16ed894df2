/* The six policies of McCann & Zahorjan 1994, "Scheduling memory constrained jobs on distributed memory parallel
 * computers" (Table 2), by name, with what each promises to the validator. */
#include "core/errors.hpp"
#include "policies/memory_constrained/policies.hpp"

namespace jobsched::memory_constrained {

const std::vector<MemoryConstrainedPolicy>& memory_constrained_policies()
{
  static const std::vector<MemoryConstrainedPolicy> policies{
      {"buddy", "BUDDY (sec. 3): equal areas, power-of-two widths, optimal among those; N and J powers of two", false,
       [](int nodes, const std::vector<int>& mins, const PlanOptions&) { return buddy_schedule(nodes, mins); },
       [](int) {
         return SchedulePromises{true, {}, false};
       }},
      {"buddy-star", "BUDDY* (sec. 3.2): BUDDY on the power-of-two subsets of J, concatenated; N a power of two", false,
       [](int nodes, const std::vector<int>& mins, const PlanOptions&) { return buddy_star_schedule(nodes, mins); },
       [](int) {
         return SchedulePromises{true, {}, false};
       }},
      {"hybrid",
       "HYBRID(k) (sec. 3.2): BUDDY for the largest power of two of smallest jobs, HEURISTIC-EPOCH(k) for "
       "the rest; N a power of two",
       true,
       [](int nodes, const std::vector<int>& mins, const PlanOptions& o) { return hybrid_schedule(nodes, mins, o.k); },
       [](int k) {
         return SchedulePromises{false, k, false};
       }},
      {"equi-epoch", "EQUI-EPOCH (sec. 4.1): equal widths per epoch, greedy from the smallest jobs; any N", false,
       [](int nodes, const std::vector<int>& mins, const PlanOptions&) { return equi_epoch_schedule(nodes, mins); },
       [](int) {
         return SchedulePromises{true, 0, true};
       }},
      {"opt-epoch", "OPT-EPOCH(k) (sec. 4.2): fewest epochs with widths within k per epoch, by search; k <= 1", true,
       [](int nodes, const std::vector<int>& mins, const PlanOptions& o) {
         return opt_epoch_schedule(nodes, mins, o.k, o.opt_epoch);
       },
       [](int k) {
         return SchedulePromises{k == 0, k, true};
       }},
      {"heuristic-epoch", "HEURISTIC-EPOCH(k) (sec. 4.3): greedy OPT-EPOCH(k), largest jobs first; any N", true,
       [](int nodes, const std::vector<int>& mins, const PlanOptions& o) {
         return heuristic_epoch_schedule(nodes, mins, o.k);
       },
       [](int k) {
         return SchedulePromises{k == 0, k, true};
       }},
  };
  return policies;
}

const MemoryConstrainedPolicy& memory_constrained_policy(const std::string& name)
{
  std::string known;
  for (const auto& p : memory_constrained_policies()) {
    if (p.name == name) return p;
    known += (known.empty() ? "" : ", ") + p.name;
  }
  throw InputError("unknown memory-constrained policy '" + name + "' (known: " + known + ")");
}

} // namespace jobsched::memory_constrained
