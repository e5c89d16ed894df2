/* Axes of the figures: what an axis is called (a short name for every metric summary.json writes and the common swept
 * keys, so that a reader sees "mean bounded slowdown", not "mean_bounded_slowdown") and the y range where gnuplot's
 * autoscale misleads (slowdowns below 1, log axes extended to whole decades with no data). */
#include "plot/figures.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace jobsched::plot {

namespace {
/* A name for the reader and, for quantities with a unit, that unit. */
struct KeyName {
  const char* name;
  const char* unit; // "" when dimensionless or a count
};

const std::map<std::string, KeyName>& key_names()
{
  static const std::map<std::string, KeyName> names{
      // summary.json, hence the metrics of aggregate.csv
      {"hosts", {"hosts", ""}},
      {"processors", {"processors", ""}},
      {"records_read", {"records read", ""}},
      {"jobs_simulated", {"jobs simulated", ""}},
      {"jobs_skipped", {"jobs skipped", ""}},
      {"jobs_rejected", {"jobs rejected", ""}},
      {"jobs_over_estimate", {"jobs over their estimate", ""}},
      {"offered_load", {"offered load", ""}},
      {"jobs_completed", {"jobs completed", ""}},
      {"jobs_walltime_reached", {"jobs stopped at their walltime", ""}},
      {"jobs_killed", {"jobs killed", ""}},
      {"jobs_failed", {"jobs failed", ""}},
      {"jobs_unfinished", {"jobs unfinished", ""}},
      {"first_submission", {"first submission", "s"}},
      {"last_finish", {"last finish", "s"}},
      {"makespan", {"makespan", "s"}},
      {"utilization", {"utilization", ""}},
      {"work_utilization", {"work utilization", ""}},
      {"mean_waiting_time", {"mean waiting time", "s"}},
      {"median_waiting_time", {"median waiting time", "s"}},
      {"max_waiting_time", {"maximum waiting time", "s"}},
      {"mean_turnaround_time", {"mean turnaround time", "s"}},
      {"mean_slowdown", {"mean slowdown", ""}},
      {"mean_bounded_slowdown", {"mean bounded slowdown", ""}},
      {"mean_nodes_used", {"mean nodes used", ""}},
      {"mean_communication_cost", {"mean communication cost", "s"}},
      {"mean_page_fault_cost", {"mean page fault cost", "s"}},
      {"jobs_measured", {"jobs measured", ""}},
      {"jobs_with_recorded_start", {"jobs with a recorded start", ""}},
      {"site_mean_waiting_time", {"site's mean waiting time", "s"}},
      {"jobs_started_late", {"jobs started late", ""}},
      {"warmup", {"warm-up", "s"}},
      {"preemptions", {"preemptions", ""}},
      {"resizes", {"resizes", ""}},
      {"migrations", {"migrations", ""}},
      {"bytes_moved", {"bytes moved", ""}},
      {"switching_time", {"switching time", "s"}},
      {"transfer_time", {"transfer time", "s"}},
      {"requeues", {"requeues", ""}},
      {"work_lost", {"work lost", "s"}},
      {"jobs_in_system_middle_third", {"jobs in the system (middle third)", ""}},
      {"jobs_in_system_last_third", {"jobs in the system (last third)", ""}},
      {"saturated", {"saturated", ""}},
      {"backlog_stop_time", {"backlog stop time", "s"}},
      {"stall_stop_time", {"stall stop time", "s"}},
      {"no_progress_stop_time", {"no-progress stop time", "s"}},
      {"bounded_slowdown_tau", {"bounded slowdown threshold", "s"}},
      {"fairness", {"fairness (Jain's index of slowdowns)", ""}},
      {"max_slowdown", {"maximum slowdown", ""}},
      {"owner_returns", {"owners' returns", ""}},
      // a fork-join run's summary.json (model/fork_join.hpp)
      {"slowdown", {"slowdown", ""}},
      {"threads", {"threads", ""}},
      {"granularity", {"synchronization granularity", "s"}},
      {"fault_rate", {"page fault rate", "1/s"}},
      {"fault_service", {"page fault service time", "s"}},
      {"correlation", {"correlation factor", ""}},
      {"barrier_cost", {"barrier cost", "s"}},
      {"phases", {"phases", ""}},
      {"faults_per_thread", {"page faults per thread", ""}},
      {"computation_time", {"computation time", "s"}},
      {"completion_time", {"completion time", "s"}},
      {"expected_completion_time", {"completion time computed directly", "s"}},
      // swept keys
      {"seed", {"seed", ""}},
      {"platform", {"platform", ""}},
      {"policy.name", {"policy", ""}},
      {"policy.allocation", {"allocation", ""}},
      {"simulation.seed", {"seed", ""}},
      {"simulation.reference_speed", {"reference speed", "flop/s"}},
      {"simulation.execution", {"execution", ""}},
      {"simulation.host_model", {"host model", ""}},
      {"workload.trace", {"trace", ""}},
      {"workload.load_factor", {"load factor", ""}},
      {"workload.max_jobs", {"jobs", ""}},
      {"workload.max_size", {"largest job size", ""}},
      {"workload.start_time", {"start time", "s"}},
      {"workload.size_field", {"job size field", ""}},
      {"workload.generator.jobs", {"jobs", ""}},
      {"workload.generator.seed", {"workload seed", ""}},
      {"workload.generator.mean_interarrival", {"mean interarrival time", "s"}},
      {"workload.generator.min_run_time", {"shortest run time", "s"}},
      {"workload.generator.max_run_time", {"longest run time", "s"}},
      {"workload.generator.max_size", {"largest job size", ""}},
      {"workload.generator.serial_fraction", {"serial fraction", ""}},
      {"workload.generator.power_of_two_fraction", {"power-of-two fraction", ""}},
      {"workload.generator.max_estimate_factor", {"largest estimate factor", ""}},
      {"workload.generator.time_resolution", {"time resolution", "s"}},
      {"workload.closed.jobs", {"jobs in the system", ""}},
      {"workload.closed.warmup", {"warm-up", "s"}},
      {"workload.communication.level", {"communication level", ""}},
      {"workload.communication.base", {"communication base", ""}},
      {"workload.communication.bytes_per_flop", {"bytes per flop", ""}},
      {"workload.communication.pattern", {"communication pattern", ""}},
      {"workload.communication.model", {"communication model", ""}},
      {"workload.memory.model", {"memory model", ""}},
      {"workload.memory.node_memory_mb", {"node memory", "MB"}},
      {"workload.memory.min_mb", {"smallest job memory", "MB"}},
      {"workload.memory.threshold", {"memory threshold", ""}},
      {"workload.memory.page_fault_penalty", {"page fault penalty", ""}},
      {"workload.jobs.memory_mb", {"job memory", "MB"}},
      {"workload.jobs.min_size", {"smallest job size", ""}},
      {"fork_join.threads", {"threads", ""}},
      {"fork_join.granularity", {"synchronization granularity", "s"}},
      {"fork_join.fault_rate", {"page fault rate", "1/s"}},
      {"fork_join.correlation", {"correlation factor", ""}},
      {"fork_join.offsets", {"fault offsets", ""}},
  };
  return names;
}

std::string last_component(const std::string& key)
{
  size_t dot = key.rfind('.');
  return dot == std::string::npos ? key : key.substr(dot + 1);
}

/* A policy's or allocator's parameter is named by its last component, as list-policies prints it. */
std::optional<std::string> parameter_name(const std::string& key)
{
  for (const char* prefix : {"policy.params.", "policy.allocation_params."}) {
    std::string p = prefix;
    if (key.size() > p.size() && key.compare(0, p.size(), p) == 0 && key.find('.', p.size()) == std::string::npos) {
      std::string name = key.substr(p.size());
      std::replace(name.begin(), name.end(), '_', ' ');
      return name;
    }
  }
  return std::nullopt;
}
} // namespace

std::string short_name(const std::string& key, const LabelNames& names)
{
  if (auto it = names.find(key); it != names.end()) return it->second;
  if (auto it = key_names().find(key); it != key_names().end()) return it->second.name;
  if (auto p = parameter_name(key)) return *p;
  return key;
}

/* Where a name is a time, its unit. */
std::string unit_suffix(const std::string& key)
{
  if (auto it = key_names().find(key); it != key_names().end())
    return *it->second.unit ? std::string(" (") + it->second.unit + ")" : "";
  // Not in the table: going by the name, as the runs' tables do (..._time is in seconds).
  std::string last = last_component(key);
  auto ends_with = [&last](const std::string& tail) {
    return last.size() >= tail.size() && last.compare(last.size() - tail.size(), tail.size(), tail) == 0;
  };
  static const std::set<std::string> times{"makespan", "first_submission", "last_finish", "mean_interarrival",
                                           "time_resolution"};
  if (ends_with("_time") || ends_with("_time_s") || times.count(last)) return " (s)";
  return "";
}

std::string axis_label(const std::string& key, const LabelNames& names)
{
  // A name the user gave is the whole label: they may have written the unit their own way.
  if (auto it = names.find(key); it != names.end()) return it->second;
  return short_name(key) + unit_suffix(key);
}

bool is_slowdown(const std::string& metric)
{
  std::string last = last_component(metric);
  return last.find("slowdown") != std::string::npos || last.find("stretch") != std::string::npos;
}

namespace {
/* The 1-2-5 values nearest below and above v > 0 (v itself when it is one). */
double nice_floor(double v)
{
  double decade = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {5.0, 2.0, 1.0})
    if (m * decade <= v * (1 + 1e-12)) return m * decade;
  return decade / 2; // rounding put v just below its decade
}
double nice_ceil(double v)
{
  double decade = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * decade >= v * (1 - 1e-12)) return m * decade;
  return 20 * decade;
}
} // namespace

AxisRange log_axis_range(double lowest, double highest, bool slowdown)
{
  // 5% beyond the data on either side, widened to the nearest 1, 2 or 5 times a power of ten: at most a factor 2.5
  // without data at either end, never a whole decade.
  AxisRange r{nice_floor(lowest / 1.05), nice_ceil(highest * 1.05)};
  // A slowdown is at least 1, the ideal: start there unless that would add a decade without data.
  if (slowdown && lowest >= 1 && lowest < 10) r.lo = 1;
  return r;
}

std::vector<double> log_axis_tics(const AxisRange& range)
{
  // gnuplot labels only the powers of ten, which leaves a range of one or two decades with one label or none.
  if (range.hi / range.lo > 1000) return {};
  std::vector<double> tics;
  for (double decade = std::pow(10.0, std::floor(std::log10(range.lo))); decade <= range.hi; decade *= 10)
    for (double m : {1.0, 2.0, 5.0}) {
      double v = m * decade;
      if (v >= range.lo * (1 - 1e-12) && v <= range.hi * (1 + 1e-12)) tics.push_back(v);
    }
  return tics;
}

LinearAxis linear_axis_from(double lo, double highest)
{
  if (!(highest > lo)) highest = lo + 1; // every value at lo: an axis of one unit above it
  const double top = highest + 0.06 * (highest - lo);
  const double step = nice_ceil((top - lo) / 10); // the 1-2-5 step of at most 10 intervals (at least 4)
  LinearAxis axis;
  axis.range = {lo, std::ceil(top / step - 1e-9) * step};
  axis.tics.push_back(lo);
  for (double k = std::ceil(lo / step); k * step <= axis.range.hi * (1 + 1e-12); k++)
    if (k * step - lo >= step / 2 * (1 - 1e-9)) axis.tics.push_back(k * step);
  return axis;
}

namespace {
/* Characters of a label as drawn (UTF-8 continuation bytes are not characters of their own). */
double label_width(const std::string& label)
{
  const auto chars = std::count_if(label.begin(), label.end(), [](char c) { return (c & 0xC0) != 0x80; });
  return static_cast<double>(chars) * kLabelCharWidth;
}
} // namespace

CategoryLabels category_labels(const std::vector<std::string>& labels, double figure_width)
{
  CategoryLabels layout;
  if (labels.empty()) return layout;
  // gnuplot's left margin in these figures (y tic labels and y label), measured on their SVGs, and the space kept
  // between two labels.
  constexpr double kLeftMargin = 80;
  constexpr double kGap = 8;
  const auto n = static_cast<double>(labels.size());
  const double slot = (figure_width - kLeftMargin - kRightMargin) / n;
  double widest = 0;
  for (const auto& label : labels)
    widest = std::max(widest, label_width(label));
  if (widest + kGap <= slot) return layout;
  layout.rotated = true;
  // Label i ends under its tic, at left + (i + 1/2) of the graph's width / n, and reaches cos 45 of its width to the
  // left: the left margin is the smallest that keeps every label in the figure.
  double left = kLeftMargin;
  for (size_t i = 0; i < labels.size(); i++) {
    const double reach = label_width(labels[i]) * std::cos(M_PI / 4) + kGap;
    const double at = (static_cast<double>(i) + 0.5) / n; // the tic's place in the graph's width
    left = std::max(left, (reach - at * (figure_width - kRightMargin)) / (1 - at));
  }
  if (left > kLeftMargin) layout.left_margin = left / figure_width;
  return layout;
}

} // namespace jobsched::plot
