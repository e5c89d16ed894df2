#include "allocation/cost_aware_placement.hpp"

#include "core/errors.hpp"
#include "core/time.hpp"
#include "model/job_model.hpp"

#include <algorithm>
#include <cmath>

namespace jobsched {

PlacementChoice earliest_expected_finish(const std::vector<PlacementOption>& options, double estimate,
                                         const std::function<double(int)>& stretch)
{
  if (options.empty()) throw PolicyError("cost-aware placement: no option to choose from");
  PlacementChoice best{options.front(), options.front().start + estimate * stretch(options.front().nodes)};
  for (size_t i = 1; i < options.size(); i++) {
    const PlacementOption& o = options[i];
    const double finish = o.start + estimate * stretch(o.nodes);
    const bool earlier = finish < best.finish - kTimeEpsilon;
    const bool tie = !earlier && finish <= best.finish + kTimeEpsilon;
    if (earlier ||
        (tie && (o.nodes < best.option.nodes || (o.nodes == best.option.nodes && o.start < best.option.start))))
      best = {o, finish};
  }
  return best;
}

PlacementChoice compact_within_tolerance(const std::vector<PlacementOption>& options, double estimate,
                                         const std::function<double(int)>& stretch, double tolerance)
{
  PlacementChoice best = earliest_expected_finish(options, estimate, stretch);
  if (tolerance <= 0) return best;
  const double latest = best.finish + tolerance * estimate + kTimeEpsilon;
  for (const PlacementOption& o : options) {
    const double finish = o.start + estimate * stretch(o.nodes);
    if (finish <= latest &&
        (o.nodes < best.option.nodes || (o.nodes == best.option.nodes && o.start < best.option.start)))
      best = {o, finish};
  }
  return best;
}

double formula_stretch(double base, int level, int nodes)
{
  return 1.0 + communication_cost(base, nodes, level);
}

double network_stretch(double base, int level, int nodes, double network_load, double contention_weight)
{
  const double load = std::clamp(network_load, 0.0, 1.0);
  const double contention = nodes > 1 ? 1.0 + contention_weight * (1.0 - std::pow(1.0 - load, nodes)) : 1.0;
  return formula_stretch(base, level, nodes) * contention;
}

int fewest_nodes(std::vector<int> free_per_node, int size)
{
  std::sort(free_per_node.rbegin(), free_per_node.rend());
  int held = 0;
  for (size_t k = 0; k < free_per_node.size() && free_per_node[k] > 0; k++) {
    held += free_per_node[k];
    if (held >= size) return static_cast<int>(k) + 1;
  }
  return -1;
}

} // namespace jobsched
