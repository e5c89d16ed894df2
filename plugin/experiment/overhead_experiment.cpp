/* The Monte Carlo overhead experiment of McCann & Zahorjan 1994, "Scheduling memory constrained jobs on distributed
 * memory parallel computers", section 5.1 and Table 3: random minimum node counts, every policy on the same draws,
 * sequential stopping on a 90% confidence interval within 1% of the mean. The readings are in the header. */
#include "experiment/overhead_experiment.hpp"

#include "core/errors.hpp"
#include "policies/memory_constrained/policies.hpp"

#include <cmath>
#include <numeric>

namespace jobsched::memory_constrained {

RangeRounding parse_range_rounding(const std::string& text)
{
  if (text == "mix") return RangeRounding::mix;
  if (text == "floor") return RangeRounding::floor;
  if (text == "nearest") return RangeRounding::nearest;
  throw InputError("--rounding: " + quoted_value(text) + " is not one of mix, floor, nearest");
}

std::string to_string(RangeRounding rounding)
{
  switch (rounding) {
  case RangeRounding::mix:
    return "mix";
  case RangeRounding::floor:
    return "floor";
  case RangeRounding::nearest:
    return "nearest";
  }
  return "?";
}

std::vector<SeriesPolicy> series_at(const OverheadPoint& point)
{
  std::vector<SeriesPolicy> out;
  const bool nodes_power_of_two = is_power_of_two(point.nodes);
  if (nodes_power_of_two) {
    out.push_back({"buddy", is_power_of_two(point.jobs) ? "buddy" : "buddy-star"});
    out.push_back({"hybrid", "hybrid"});
  }
  out.push_back({"equi-epoch", "equi-epoch"});
  if (point.k <= 1) out.push_back({"opt-epoch", "opt-epoch"});
  out.push_back({"heuristic-epoch", "heuristic-epoch"});
  return out;
}

RandomStream point_stream(std::uint64_t seed, const OverheadPoint& point)
{
  return RandomStream(seed, "plan-sweep mins N=" + std::to_string(point.nodes) + " J=" + std::to_string(point.jobs) +
                                " load=" + std::to_string(point.load_percent));
}

std::optional<PointResult> run_point(const OverheadPoint& point, std::uint64_t seed, const StoppingRule& rule,
                                     RangeRounding rounding, const std::vector<SeriesPolicy>& series)
{
  if (point.k < 0) throw InputError("k: " + std::to_string(point.k) + " must be at least 0");
  if (!(rule.confidence > 0 && rule.confidence < 1)) throw InputError("--confidence: must be strictly between 0 and 1");
  if (!(rule.relative_precision > 0)) throw InputError("--precision: must be positive");
  if (rule.batch < 2) throw InputError("--batch: must be at least 2");
  if (rule.max_trials < rule.batch) throw InputError("--max-trials: must be at least the batch size");
  auto distribution = mins_distribution(point.nodes, point.jobs, point.load_percent, rounding);
  if (!distribution) return std::nullopt;

  PointResult result;
  result.point = point;
  result.distribution = *distribution;
  result.confidence = rule.confidence;
  std::vector<SeriesPolicy> which = series.empty() ? series_at(point) : series;
  std::vector<const MemoryConstrainedPolicy*> policies;
  for (const auto& s : which)
    policies.push_back(&memory_constrained_policy(s.policy));
  PlanOptions options;
  options.k = point.k;

  RandomStream stream = point_stream(seed, point);
  std::vector<std::vector<double>> overheads(which.size());
  std::vector<double> tested_per_epoch_sum(which.size(), 0.0);
  std::vector<double> epochs_sum(which.size(), 0.0);
  std::vector<Estimate> estimates(which.size());
  while (true) {
    const bool validate_now = rule.validate_first_batch && result.trials == 0;
    for (long t = 0; t < rule.batch; t++) {
      std::vector<int> mins = draw_mins(*distribution, point.jobs, stream);
      for (size_t p = 0; p < policies.size(); p++) {
        QuantumSchedule schedule = policies[p]->plan(point.nodes, mins, options);
        if (validate_now) {
          auto problems = validate(schedule, point.nodes, mins, policies[p]->promises(point.k));
          if (!problems.empty())
            throw PolicyError(policies[p]->name + " produced an invalid schedule: " + problems.front());
        }
        overheads[p].push_back(schedule.normalized_overhead());
        tested_per_epoch_sum[p] += schedule.assignments_tested_per_epoch();
        epochs_sum[p] += static_cast<double>(schedule.epochs.size());
      }
    }
    result.trials += rule.batch;
    bool all_within = true;
    for (size_t p = 0; p < which.size(); p++) {
      estimates[p] = estimate(overheads[p], rule.confidence);
      if (estimates[p].half_width > rule.relative_precision * std::fabs(estimates[p].mean)) all_within = false;
    }
    result.converged = all_within;
    if (all_within || result.trials + rule.batch > rule.max_trials) break;
  }
  for (size_t p = 0; p < which.size(); p++) {
    SeriesResult r;
    r.which = which[p];
    r.estimate = estimates[p];
    r.assignments_tested_per_epoch = tested_per_epoch_sum[p] / static_cast<double>(result.trials);
    r.mean_epochs = epochs_sum[p] / static_cast<double>(result.trials);
    result.series.push_back(r);
  }
  return result;
}

std::vector<FigureSpec> overhead_figures()
{
  std::vector<FigureSpec> figures;
  {
    FigureSpec f{"9", "Normalized overhead versus number of jobs (N = 128, k = 1)", {}};
    for (int load : {100, 200}) {
      FigurePanel panel{"figure9-load" + std::to_string(load),
                        "Figure 9: normalized overhead vs J (N = 128, k = 1, load " + std::to_string(load) + "%)",
                        "jobs",
                        {}};
      for (int jobs = 1; jobs <= 32; jobs++)
        panel.points.push_back({128, jobs, load, 1});
      f.panels.push_back(panel);
    }
    figures.push_back(f);
  }
  {
    FigureSpec f{"10", "Normalized overhead versus number of nodes (J = 8, k = 1)", {}};
    for (int load : {100, 200}) {
      FigurePanel panel{"figure10-load" + std::to_string(load),
                        "Figure 10: normalized overhead vs N (J = 8, k = 1, load " + std::to_string(load) + "%)",
                        "nodes",
                        {}};
      for (int nodes = 16; nodes <= 256; nodes += 8)
        panel.points.push_back({nodes, 8, load, 1});
      f.panels.push_back(panel);
    }
    figures.push_back(f);
  }
  {
    FigureSpec f{"11", "Normalized overhead versus allowed inequity k (N = 128)", {}};
    for (auto [jobs, load] : std::vector<std::pair<int, int>>{{7, 100}, {8, 100}, {15, 200}, {16, 200}}) {
      FigurePanel panel{"figure11-J" + std::to_string(jobs) + "-load" + std::to_string(load),
                        "Figure 11: normalized overhead vs k (N = 128, J = " + std::to_string(jobs) + ", load " +
                            std::to_string(load) + "%)",
                        "k",
                        {}};
      for (int k = 0; k <= 8; k++)
        panel.points.push_back({128, jobs, load, k});
      f.panels.push_back(panel);
    }
    figures.push_back(f);
  }
  return figures;
}

} // namespace jobsched::memory_constrained
