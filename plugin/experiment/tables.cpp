#include "experiment/tables.hpp"

#include "core/errors.hpp"
#include "core/json.hpp"
#include "core/time_format.hpp"
#include "experiment/csv.hpp"
#include "experiment/statistics.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>

namespace fs = std::filesystem;

namespace jobsched {

std::string plan_csv(const SweepPlan& plan, const std::vector<SweepRun>& runs)
{
  std::vector<std::string> header{"run", "point", "replication", "seed"};
  for (const auto& a : plan.axes())
    header.push_back(a.key);
  header.push_back("hash");
  std::string out = csv_row(header);
  long index = 0;
  for (const auto& r : runs) {
    std::vector<std::string> row{std::to_string(++index), std::to_string(r.point), std::to_string(r.replication),
                                 std::to_string(r.seed)};
    for (const auto& v : plan.point_values(r.point))
      row.push_back(v);
    row.push_back(r.hash);
    out += csv_row(row);
  }
  return out;
}

std::vector<std::pair<std::string, double>> read_summary_numbers(const fs::path& summary,
                                                                 const std::vector<std::string>& numeric)
{
  const Json doc = read_json_file(summary);
  if (!doc.is_object()) throw InputError(summary.string() + ": a summary is a JSON object");
  std::vector<std::pair<std::string, double>> out;
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    const Json& value = it.value();
    const std::string quoted = "\"" + it.key() + "\"";
    if (value.is_number()) {
      out.emplace_back(it.key(), value.get<double>());
    } else if (value.is_null()) {
      // What a run writes for a NaN or an infinite value: no number to put in a table.
      throw InputError(summary.string() + ": " + quoted + " is null, not a number");
    } else if (std::find(numeric.begin(), numeric.end(), it.key()) != numeric.end()) {
      throw InputError(summary.string() + ": " + quoted + " is " + value.type_name() + " (" +
                       value.dump(-1, ' ', false, Json::error_handler_t::replace) + "), not a number");
    }
  }
  return out;
}

namespace {

struct PlanTable {
  CsvTable table;
  std::vector<std::string> axes; // columns between seed and hash
  int hash_column = -1;
};

PlanTable read_plan(const fs::path& sweep_dir)
{
  PlanTable p;
  p.table = read_csv(sweep_dir / "plan.csv");
  const auto& h = p.table.header;
  p.hash_column = p.table.column("hash");
  int seed_column = p.table.column("seed");
  if (p.hash_column < 0 || seed_column < 0 || p.table.column("point") != 1)
    throw InputError((sweep_dir / "plan.csv").string() +
                     ": not a sweep plan (expected run,point,replication,seed,...,hash)");
  for (int c = seed_column + 1; c < p.hash_column; c++)
    p.axes.push_back(h[c]);
  return p;
}

} // namespace

SweepTables build_tables(const fs::path& sweep_dir, double confidence)
{
  PlanTable plan = read_plan(sweep_dir);
  SweepTables t;
  // First pass: statuses and metrics of every run.
  std::vector<std::vector<std::pair<std::string, double>>> metrics(plan.table.rows.size());
  std::vector<std::string> status(plan.table.rows.size());
  std::vector<std::string> metric_names; // every run's numeric fields, in order of first appearance
  std::set<std::string> known;
  for (size_t i = 0; i < plan.table.rows.size(); i++) {
    fs::path dir = sweep_dir / "runs" / plan.table.rows[i][plan.hash_column];
    if (fs::exists(dir / "summary.json")) {
      status[i] = "ok";
      metrics[i] = read_summary_numbers(dir / "summary.json", metric_names);
      for (const auto& [name, v] : metrics[i])
        if (plan.table.column(name) < 0 && known.insert(name).second) // `seed` is already a column of the plan
          metric_names.push_back(name);
      t.ok++;
    } else if (fs::exists(dir / "error.txt")) {
      status[i] = "failed";
      t.failed++;
    } else {
      status[i] = "missing";
      t.missing++;
    }
  }

  // A metric a run lacks is an empty cell, unless the run has the field but not as a number: read again, to say so.
  for (size_t i = 0; i < plan.table.rows.size(); i++) {
    if (status[i] != "ok") continue;
    std::set<std::string> present;
    for (const auto& [name, v] : metrics[i])
      present.insert(name);
    std::vector<std::string> lacking;
    for (const auto& name : metric_names)
      if (!present.count(name)) lacking.push_back(name);
    if (!lacking.empty())
      read_summary_numbers(sweep_dir / "runs" / plan.table.rows[i][plan.hash_column] / "summary.json", lacking);
  }

  std::vector<std::string> header{"run", "point", "replication", "seed"};
  header.insert(header.end(), plan.axes.begin(), plan.axes.end());
  header.push_back("status");
  header.insert(header.end(), metric_names.begin(), metric_names.end());
  t.results_csv = csv_row(header);
  // point -> metric -> samples, and the point's axis values
  std::map<long, std::map<std::string, std::vector<double>>> samples;
  std::map<long, std::vector<std::string>> point_values;
  for (size_t i = 0; i < plan.table.rows.size(); i++) {
    const auto& row = plan.table.rows[i];
    std::vector<std::string> out(row.begin(), row.begin() + plan.hash_column);
    out.push_back(status[i]);
    std::map<std::string, double> by_name(metrics[i].begin(), metrics[i].end());
    long point = std::strtol(row[1].c_str(), nullptr, 10);
    point_values[point].assign(row.begin() + 4, row.begin() + plan.hash_column);
    for (const auto& name : metric_names) {
      auto it = by_name.find(name);
      out.push_back(it == by_name.end() ? "" : format_number(it->second));
      if (it != by_name.end()) samples[point][name].push_back(it->second);
    }
    t.results_csv += csv_row(out);
  }

  std::vector<std::string> agg_header{"point"};
  agg_header.insert(agg_header.end(), plan.axes.begin(), plan.axes.end());
  for (const char* c : {"metric", "n", "mean", "std", "ci95_half_width", "confidence", "ci_half_width"})
    agg_header.emplace_back(c);
  t.aggregate_csv = csv_row(agg_header);
  for (const auto& [point, values] : point_values) {
    for (const auto& name : metric_names) {
      Estimate e = estimate(samples[point][name]);
      std::vector<std::string> row{std::to_string(point)};
      row.insert(row.end(), values.begin(), values.end());
      row.push_back(name);
      row.push_back(std::to_string(e.n));
      row.push_back(e.n > 0 ? format_number(e.mean) : "");
      row.push_back(e.has_interval() ? format_number(e.std) : "");
      row.push_back(e.has_interval() ? format_number(e.half_width) : "");
      Estimate at_level = estimate(samples[point][name], confidence);
      row.push_back(format_number(confidence));
      row.push_back(at_level.has_interval() ? format_number(at_level.half_width) : "");
      t.aggregate_csv += csv_row(row);
    }
  }
  return t;
}

std::map<long, std::vector<double>> metric_samples(const fs::path& sweep_dir, const std::vector<SweepRun>& runs,
                                                   const std::string& metric)
{
  std::map<long, std::vector<double>> out;
  for (const auto& r : runs) {
    fs::path summary = sweep_dir / "runs" / r.hash / "summary.json";
    if (!fs::exists(summary)) continue;
    bool found = false;
    for (const auto& [name, v] : read_summary_numbers(summary, {metric}))
      if (name == metric) {
        out[r.point].push_back(v);
        found = true;
      }
    if (!found) throw InputError("replications.metric: '" + metric + "' is not a numeric field of summary.json");
  }
  return out;
}

} // namespace jobsched
