/* The figure of a sweep: a metric against a swept key, one line per series, confidence intervals as error bars (at
 * aggregate.csv's level: replications.confidence or collect --confidence, 95% by default). */
#include "plot/figures.hpp"

#include "core/errors.hpp"
#include "core/json.hpp"
#include "plot/plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace jobsched::plot {

// ---------------------------------------------------------------------------------------------------------------
// Sweeps: a metric against a swept key

namespace {
/* One point of one series. */
struct SweepPoint {
  std::string x;
  double mean = 0;
  std::optional<double> ci;
  bool saturated = false; // most of its runs were saturated (metric `saturated`): its mean is no steady state
};

/* The metric whose mean at a point says that the point's runs did not reach a steady state (summary.json). */
constexpr const char* kSaturatedMetric = "saturated";
} // namespace

/* The last component of a folder's path, also for "." and "runs/abc/". */
std::string folder_name(const fs::path& dir)
{
  fs::path p = fs::absolute(dir).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  return p.filename().string();
}

namespace {
/* The name of the sweep's scenario, as its runs' summary.json give it (plan.csv lists the runs, runs/HASH/ holds
 * them); the folder's name when no run has one (a folder of tables only, or no run finished yet). */
std::string sweep_name(const fs::path& sweep_dir)
{
  std::error_code ec;
  if (!fs::exists(sweep_dir / "plan.csv", ec)) return folder_name(sweep_dir);
  const Table plan = read_csv(sweep_dir / "plan.csv");
  const int hash_col = plan.column("hash");
  if (hash_col < 0) return folder_name(sweep_dir);
  for (const auto& row : plan.rows) {
    const fs::path summary_file = sweep_dir / "runs" / row[static_cast<size_t>(hash_col)] / "summary.json";
    if (row[static_cast<size_t>(hash_col)].empty() || !fs::exists(summary_file, ec)) continue;
    const Json summary = read_json_file(summary_file);
    if (!summary.is_object()) continue;
    if (auto name = summary.find("scenario"); name != summary.end() && name->is_string() && !name->empty())
      return name->get<std::string>();
  }
  return folder_name(sweep_dir);
}

std::string file_safe(std::string name)
{
  for (char& c : name)
    if (c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x20) c = '_';
  return name;
}
/* A series' value of one key in its legend entry: "policy=easy", "mean interarrival time=300 s". */
std::string series_part(const std::string& key, const std::string& value, const LabelNames& names)
{
  auto named_value = names.find(key + ":" + value); // --label KEY:VALUE=TEXT names one value of a key
  if (named_value != names.end()) return named_value->second;
  std::string unit = names.count(key) || !parse_number(value) ? "" : unit_suffix(key);
  if (unit.size() > 3) unit = " " + unit.substr(2, unit.size() - 3); // " (s)" -> " s"
  return short_name(key, names) + "=" + value + unit;
}

/* gnuplot's command labelling the y axis at `tics` and nowhere else. */
std::string ytics_command(const std::vector<double>& tics)
{
  std::string command = "set ytics (";
  for (size_t i = 0; i < tics.size(); i++)
    command += (i ? ", " : "") + num(tics[i]);
  return command + ")\n";
}

/* The y range where gnuplot's autoscale would mislead: a slowdown starts at 1 (its ideal; below is impossible); a
 * quantity whose means are all >= 0 (times, counts, utilizations) starts at 0 when an error bar reaches below it (a
 * turnaround axis used to run down to -500); a log axis spans the data, not whole decades. Empty: gnuplot's
 * autoscale. */
std::string y_range_commands(const std::map<std::string, std::vector<SweepPoint>>& series, const std::string& metric,
                             bool log_y)
{
  bool slowdown = is_slowdown(metric);
  double lowest_mean = INFINITY;
  for (const auto& [label, points] : series)
    for (const auto& p : points)
      lowest_mean = std::min(lowest_mean, p.mean);
  // An error bar reaching below 1 says nothing about a slowdown: the range ignores it (unless the data are odd).
  double floor = slowdown && lowest_mean >= 1 ? 1 : -INFINITY;
  std::ostringstream c;
  if (!log_y) {
    if (floor == 1) { // from the ideal, labelled, with tics of our own (gnuplot's drew a 0 beside the 1)
      double highest = 1;
      for (const auto& [label, points] : series)
        for (const auto& p : points)
          highest = std::max(highest, p.mean + p.ci.value_or(0));
      const LinearAxis axis = linear_axis_from(1, highest);
      c << "set yrange [1:" << num(axis.range.hi) << "]\n" << ytics_command(axis.tics);
    } else if (lowest_mean >= 0) {
      bool below_zero = false; // an interval's lower end, or gnuplot's margin under a mean of 0
      for (const auto& [label, points] : series)
        for (const auto& p : points)
          below_zero = below_zero || p.mean - p.ci.value_or(0) <= 0;
      if (below_zero) c << "set yrange [0:*]\n";
    }
    return c.str();
  }
  double lowest = INFINITY;
  double highest = -INFINITY;
  for (const auto& [label, points] : series)
    for (const auto& p : points) {
      if (p.mean <= 0) continue; // not on a log axis (gnuplot skips it)
      double ci = p.ci.value_or(0);
      lowest = std::min(lowest, std::max(p.mean - ci > 0 ? p.mean - ci : p.mean, floor));
      highest = std::max(highest, p.mean + ci);
    }
  if (!std::isfinite(lowest))
    throw InputError("--log-y: metric '" + metric + "' has no value above 0 to draw on a logarithmic axis");
  AxisRange r = log_axis_range(lowest, highest, slowdown);
  c << "set yrange [" << num(r.lo) << ":" << num(r.hi) << "]\n";
  std::vector<double> tics = log_axis_tics(r);
  if (!tics.empty()) c << ytics_command(tics);
  return c.str();
}
} // namespace

PlotJob sweep_figure(const fs::path& sweep_dir, const SweepRequest& req)
{
  Table t = read_csv(sweep_dir / "aggregate.csv");
  const std::string file = t.file.string();
  if (t.header.empty() || t.header[0] != "point")
    throw InputError(file + ": the header must start with 'point' (point,<swept keys...>,metric,n,mean,...)");
  size_t metric_col = t.required_column("metric");
  size_t mean_col = t.required_column("mean");
  // The intervals at the sweep's level (aggregate.csv's confidence and ci_half_width: replications.confidence, or
  // collect --confidence), which the label names; a table written before those columns has the 95% ones only.
  const bool at_level = t.column("confidence") >= 0 && t.column("ci_half_width") >= 0;
  const size_t ci_col = t.required_column(at_level ? "ci_half_width" : "ci95_half_width");
  const int level_col = at_level ? t.column("confidence") : -1;
  // The swept keys and their columns. The columns that aggregate.csv adds after a key swept over mappings, one per
  // leaf (policy.name after policy: experiment/tables.cpp), are left out: the figure names the mapping's values.
  std::vector<std::string> keys;
  std::vector<size_t> key_column;
  for (size_t c = 1; c < metric_col; c++) {
    const std::string& name = t.header[c];
    const bool leaf_of_earlier = std::any_of(keys.begin(), keys.end(), [&](const std::string& k) {
      return name.size() > k.size() && name.compare(0, k.size() + 1, k + ".") == 0;
    });
    if (leaf_of_earlier) continue;
    keys.push_back(name);
    key_column.push_back(c);
  }
  if (keys.empty()) throw InputError(file + ": no swept key (no column between point and metric): nothing to plot");

  std::vector<std::string> metrics;
  std::vector<size_t> rows;
  for (size_t r = 0; r < t.rows.size(); r++) {
    const std::string& m = t.rows[r][metric_col];
    if (std::find(metrics.begin(), metrics.end(), m) == metrics.end()) metrics.push_back(m);
    if (m == req.metric) rows.push_back(r);
  }
  if (rows.empty())
    throw InputError("unknown metric '" + req.metric + "' in " + file +
                     "; known metrics: " + (metrics.empty() ? "(none: the file has no rows)" : join(metrics)));

  // A key, or a leaf of a key swept over mappings (policy.name for policy), which then stands for its mapping when
  // it tells the mapping's values apart (short labels: "easy" rather than "{name: easy}").
  auto key_index = [&](const std::string& key, const char* option) {
    auto it = std::find(keys.begin(), keys.end(), key);
    if (it != keys.end()) return static_cast<size_t>(it - keys.begin());
    const auto leaf = std::find(t.header.begin() + 1, t.header.begin() + static_cast<long>(metric_col), key);
    for (size_t k = 0; k < keys.size() && leaf != t.header.begin() + static_cast<long>(metric_col); k++) {
      if (key.compare(0, keys[k].size() + 1, keys[k] + ".") != 0) continue;
      const auto column = static_cast<size_t>(leaf - t.header.begin());
      std::map<std::string, std::string> mapping_of; // leaf value -> the mapping it comes from
      for (const auto& row : t.rows) {
        const auto [known, fresh] = mapping_of.emplace(row[column], row[key_column[k]]);
        if (!fresh && known->second != row[key_column[k]])
          throw InputError(std::string(option) + " '" + key + "': points of '" + keys[k] + "' with different values (" +
                           known->second + ", " + row[key_column[k]] + ") have the same " + key + " '" + row[column] +
                           "': use " + option + " " + keys[k]);
      }
      keys[k] = key;
      key_column[k] = column;
      return k;
    }
    throw InputError(std::string(option) + " '" + key + "' is not a swept key of " + file +
                     "; swept keys: " + join(keys));
  };
  size_t x = req.x ? key_index(*req.x, "--x") : 0;
  std::vector<size_t> series_keys;
  if (req.series) {
    std::istringstream items(*req.series);
    for (std::string item; std::getline(items, item, ',');) {
      if (item.empty()) throw InputError("--series '" + *req.series + "': empty key");
      size_t k = key_index(item, "--series");
      if (k == x) throw InputError("--series '" + item + "' is also the --x key");
      if (std::find(series_keys.begin(), series_keys.end(), k) == series_keys.end()) series_keys.push_back(k);
    }
  }

  // Values each key takes (in order of appearance) among the metric's rows.
  std::vector<std::vector<std::string>> values(keys.size());
  for (size_t r : rows)
    for (size_t k = 0; k < keys.size(); k++)
      if (std::find(values[k].begin(), values[k].end(), t.rows[r][key_column[k]]) == values[k].end())
        values[k].push_back(t.rows[r][key_column[k]]);

  if (req.series) {
    // A key left out must follow the points: one value per series and x, as a key swept together with a series key
    // or the x key does (policy.name beside workload.generator.memory_distribution in Setia's Figure 3).
    auto follows_points = [&](size_t k) {
      std::map<std::vector<std::string>, std::string> value_of;
      for (size_t r : rows) {
        std::vector<std::string> at{t.rows[r][key_column[x]]};
        for (size_t s : series_keys)
          at.push_back(t.rows[r][key_column[s]]);
        const auto [known, fresh] = value_of.emplace(at, t.rows[r][key_column[k]]);
        if (!fresh && known->second != t.rows[r][key_column[k]]) return false;
      }
      return true;
    };
    for (size_t k = 0; k < keys.size(); k++)
      if (k != x && values[k].size() > 1 && std::find(series_keys.begin(), series_keys.end(), k) == series_keys.end() &&
          !follows_points(k))
        throw InputError("swept key '" + keys[k] + "' takes " + std::to_string(values[k].size()) +
                         " values but is neither --x nor in --series: add it, e.g. --series " + *req.series + "," +
                         keys[k]);
  } else {
    for (size_t k = 0; k < keys.size(); k++)
      if (k != x && values[k].size() > 1) series_keys.push_back(k);
  }

  // Points by series, series in order of appearance.
  std::vector<std::string> series_labels;
  std::map<std::string, std::vector<SweepPoint>> series;
  auto label_of = [&](size_t r) {
    std::vector<std::string> parts;
    for (size_t k : series_keys)
      parts.push_back(series_part(keys[k], t.rows[r][key_column[k]], req.names));
    return join(parts);
  };
  std::set<std::pair<std::string, std::string>> saturated; // (series, x) of the points most of whose runs saturated
  if (req.metric != kSaturatedMetric)
    for (size_t r = 0; r < t.rows.size(); r++)
      if (t.rows[r][metric_col] == kSaturatedMetric && !t.rows[r][mean_col].empty() && number_at(t, r, mean_col) >= 0.5)
        saturated.emplace(label_of(r), t.rows[r][key_column[x]]);
  size_t missing = 0;
  for (size_t r : rows) {
    std::string label = label_of(r);
    if (!series.count(label)) series_labels.push_back(label);
    auto& points = series[label];
    if (t.rows[r][mean_col].empty()) {
      missing++;
      continue;
    }
    SweepPoint p;
    p.x = t.rows[r][key_column[x]];
    p.mean = number_at(t, r, mean_col);
    p.saturated = saturated.count({label, p.x}) != 0;
    if (!t.rows[r][ci_col].empty()) p.ci = number_at(t, r, ci_col);
    points.push_back(p);
  }
  if (missing == rows.size())
    throw InputError(file + ": metric '" + req.metric + "' has no value (every mean is empty: did all runs fail?)");
  double confidence = 0.95;
  if (level_col >= 0) {
    const auto column = static_cast<size_t>(level_col);
    for (size_t i = 0; i < rows.size(); i++) {
      const double level = number_at(t, rows[i], column);
      if (!(level > 0 && level < 1))
        throw InputError(t.where(rows[i]) + ": confidence: expected a level between 0 and 1, got " +
                         quoted_value(t.rows[rows[i]][column]));
      if (i > 0 && level != confidence)
        throw InputError(t.where(rows[i]) + ": confidence: the rows of metric '" + req.metric +
                         "' have different levels (" + t.rows[rows[0]][column] + ", " + t.rows[rows[i]][column] +
                         "): one figure has one");
      confidence = level;
    }
  }
  char percent[32];
  std::snprintf(percent, sizeof percent, "%.10g%%", confidence * 100);
  // With one run per point there is neither a mean over replications nor an interval to speak of.
  const int n_col = t.column("n");
  const bool replicated = n_col < 0 || std::any_of(rows.begin(), rows.end(), [&](size_t r) {
                            const std::string& n = t.rows[r][static_cast<size_t>(n_col)];
                            return !n.empty() && number_at(t, r, static_cast<size_t>(n_col)) > 1;
                          });

  bool numeric =
      std::all_of(values[x].begin(), values[x].end(), [](const std::string& v) { return parse_number(v).has_value(); });
  std::map<std::string, size_t> category; // categorical x: position of each value
  for (size_t i = 0; i < values[x].size(); i++)
    category[values[x][i]] = i;
  auto position = [&](const std::string& v) { return numeric ? *parse_number(v) : double(category[v]); };

  PlotJob job;
  std::ostringstream c;
  const std::string& xkey = keys[x];
  // Categories have no unit: the key's name alone.
  std::string xlabel = req.xlabel ? *req.xlabel : numeric ? axis_label(xkey, req.names) : short_name(xkey, req.names);
  std::string ylabel = req.ylabel ? *req.ylabel : axis_label(req.metric, req.names) + (req.log_y ? " (log scale)" : "");
  c << "set xlabel " << gp_str(xlabel) << "\n";
  c << "set ylabel " << gp_str(ylabel) << "\n";
  if (req.log_y) c << "set logscale y\n";
  c << "set grid\n";
  c << "set key outside below center horizontal samplen 3 width 2 height 1\n";
  // gnuplot widens even a set range by its offsets: none at an end we set.
  const std::string y_range = y_range_commands(series, req.metric, req.log_y);
  const std::string y_offsets = y_range.empty()                            ? "graph 0.06, graph 0.06"
                                : y_range.find(":*]") != std::string::npos ? "graph 0.06, 0"
                                                                           : "0, 0";
  // Series drawn side by side around each x value ("dodged") so that their error bars do not hide each other:
  // over a fraction of a category, or of the smallest gap between numeric x values.
  double unit = 1;
  if (numeric) {
    std::vector<double> xs;
    for (const auto& v : values[x])
      xs.push_back(*parse_number(v));
    std::sort(xs.begin(), xs.end());
    unit = 0;
    for (size_t i = 1; i < xs.size(); i++)
      if (xs[i] > xs[i - 1] && (unit == 0 || xs[i] - xs[i - 1] < unit)) unit = xs[i] - xs[i - 1];
    c << "set offsets graph 0.04, graph 0.04, " << y_offsets << "\n";
  } else {
    c << "set xrange [-0.5:" << num(double(values[x].size()) - 0.5) << "]\n";
    c << "set offsets 0, 0, " << y_offsets << "\n";
    const CategoryLabels labels = category_labels(values[x], kFigureWidth);
    if (labels.left_margin > 0) c << "set lmargin at screen " << num(labels.left_margin) << "\n";
    // gnuplot widens the right margin as if turned labels reached right of their tic (they end there): it is kept.
    if (labels.rotated) c << "set rmargin at screen " << num(1 - kRightMargin / kFigureWidth) << "\n";
    c << "set xtics " << (labels.rotated ? "rotate by 45 right " : "") << "(";
    for (size_t i = 0; i < values[x].size(); i++)
      c << (i ? ", " : "") << gp_str(values[x][i]) << " " << i;
    c << ")\n";
  }
  double spread =
      series_labels.size() > 1 ? unit * std::min(numeric ? 0.1 : 0.5, 0.06 * double(series_labels.size() - 1)) : 0;
  c << "set title " << gp_str(short_name(req.metric, req.names) + " vs " + short_name(xkey, req.names))
    << " . \"\\n\" . "
    << gp_str("sweep " + sweep_name(sweep_dir) + ": " +
              (replicated ? "mean over the replications, error bars = " + std::string(percent) + " confidence interval"
                          : "one run per point") +
              (numeric && spread > 0 ? " (series shifted apart along x)" : ""))
    << "\n";
  std::vector<std::string> plots;
  bool saturated_drawn = false;
  for (size_t i = 0; i < series_labels.size(); i++) {
    auto points = series[series_labels[i]];
    if (points.empty()) continue;
    double shift = series_labels.size() > 1 ? spread * (double(i) / double(series_labels.size() - 1) - 0.5) : 0;
    std::stable_sort(points.begin(), points.end(),
                     [&](const SweepPoint& a, const SweepPoint& b) { return position(a.x) < position(b.x); });
    std::string means = "# " + xkey + "\t" + req.metric + "\n";
    std::string errors = "# " + xkey + "\t" + req.metric + "\t" + t.header[ci_col] + "\n";
    std::string saturated_means = "# " + xkey + "\t" + req.metric + " (saturated)\n";
    bool any_error = false;
    bool any_saturated = false;
    bool any_steady = false; // a point not saturated: on the series' line
    for (const auto& p : points) {
      std::string xs = num(position(p.x) + shift);
      if (p.saturated) { // drawn apart, unconnected and without an interval: its value depends on the run's length
        saturated_means += xs + "\t" + num(p.mean) + "\n";
        any_saturated = true;
        continue;
      }
      means += xs + "\t" + num(p.mean) + "\n";
      any_steady = true;
      if (p.ci) {
        errors += xs + "\t" + num(p.mean) + "\t" + num(*p.ci) + "\n";
        any_error = true;
      }
    }
    std::string mean_file = "series-" + std::to_string(i) + ".dat";
    std::string error_file = "errors-" + std::to_string(i) + ".dat";
    std::string title = series_keys.empty() ? short_name(req.metric, req.names) : series_labels[i];
    // gnuplot has 8 line colours: series 9 to 16 take them again, dashed, with squares instead of circles.
    const bool second_round = i >= 8;
    std::string style = " lt " + std::to_string(i + 1) + " lw 2 pt " + (second_round ? "5" : "7") + " ps 1.2" +
                        (second_round ? " dt 2" : "");
    if (any_error) { // first, so that the means are drawn over the error bars
      job.data_files.emplace_back(error_file, errors);
      plots.push_back(gp_str(error_file) + " using 1:2:3 with yerrorbars" + style + " notitle");
    }
    // A series whose every point saturated has no line: gnuplot skips a data file without points, and its legend
    // entry with it, so the entry is drawn from NaN (nothing on the graph) in the series' style.
    if (any_steady) job.data_files.emplace_back(mean_file, means);
    plots.push_back((any_steady ? gp_str(mean_file) + " using 1:2" : std::string("NaN")) + " with " +
                    (numeric ? "linespoints" : "points") + style + " title " + gp_str(title));
    if (any_saturated) {
      std::string saturated_file = "saturated-" + std::to_string(i) + ".dat";
      job.data_files.emplace_back(saturated_file, saturated_means);
      plots.push_back(gp_str(saturated_file) + " using 1:2 with points lt " + std::to_string(i + 1) + " pt " +
                      (second_round ? "4" : "6") + " ps 1.6 notitle");
      saturated_drawn = true;
    }
  }
  if (saturated_drawn)
    plots.push_back("NaN with points lt -1 pt 6 ps 1.6 title " +
                    gp_str(series_labels.size() > 8 ? "open circle or square: saturated (no steady state)"
                                                    : "open circle: saturated (no steady state)"));
  c << y_range;
  c << "set datafile separator tab\n";
  c << "plot " << join(plots, ", \\\n     ") << "\n";
  job.figures.push_back({file_safe(req.metric + "-vs-" + xkey), c.str()});
  return job;
}

} // namespace jobsched::plot
