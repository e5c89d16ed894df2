#include "experiment/tables.hpp"

#include "core/csv.hpp"
#include "core/errors.hpp"
#include "core/json.hpp"
#include "core/time_format.hpp"
#include "experiment/statistics.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <yaml-cpp/yaml.h>

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

namespace {
/* The numeric top-level fields of `doc`, read from `source` (see read_summary_numbers). */
std::vector<std::pair<std::string, double>> numbers_of(const Json& doc, const std::string& source,
                                                       const std::vector<std::string>& numeric)
{
  if (!doc.is_object()) throw InputError(source + ": a summary is a JSON object");
  std::vector<std::pair<std::string, double>> out;
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    const Json& value = it.value();
    const std::string quoted = "\"" + it.key() + "\"";
    if (value.is_number()) {
      out.emplace_back(it.key(), value.get<double>());
    } else if (value.is_null()) {
      // What a run writes for a NaN or an infinite value: no number to put in a table.
      throw InputError(source + ": " + quoted + " is null, not a number");
    } else if (std::find(numeric.begin(), numeric.end(), it.key()) != numeric.end()) {
      throw InputError(source + ": " + quoted + " is " + value.type_name() + " (" +
                       value.dump(-1, ' ', false, Json::error_handler_t::replace) + "), not a number");
    }
  }
  return out;
}
} // namespace

std::vector<std::pair<std::string, double>> read_summary_numbers(const fs::path& summary,
                                                                 const std::vector<std::string>& numeric)
{
  return numbers_of(read_json_file(summary), summary.string(), numeric);
}

std::vector<std::pair<std::string, double>> summary_numbers(const std::string& json_text)
{
  return numbers_of(parse_json(json_text, "summary"), "summary", {});
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

/* The leaves of a YAML mapping by dotted path, in file order: scalars as they are, lists in flow form. */
void mapping_leaves(const YAML::Node& map, const std::string& prefix,
                    std::vector<std::pair<std::string, std::string>>& out)
{
  for (const auto& kv : map) {
    const std::string path = prefix + kv.first.Scalar();
    if (kv.second.IsMap()) {
      mapping_leaves(kv.second, path + ".", out);
    } else if (kv.second.IsScalar()) {
      out.emplace_back(path, kv.second.Scalar());
    } else if (kv.second.IsNull()) {
      out.emplace_back(path, "");
    } else {
      YAML::Emitter text;
      text << YAML::Flow << kv.second;
      out.emplace_back(path, text.c_str());
    }
  }
}

/* The swept keys' columns of the tables. A key swept over mappings (policy: {name: apvm, params: {fraction: 0.5}})
 * keeps its column (the YAML text: plot labels name it) and is followed by one column per leaf key, named by its
 * dotted path (policy.name, policy.params.fraction), empty where a point's mapping lacks it: plain values that a table
 * reader (pandas) loads without parsing YAML. */
class AxisColumns {
 public:
  explicit AxisColumns(const PlanTable& plan)
  {
    for (size_t a = 0; a < plan.axes.size(); a++) {
      names_.push_back(plan.axes[a]);
      std::vector<std::string> leaves;
      for (const auto& row : plan.table.rows) {
        const std::string& text = row[4 + a];
        if (leaves_of_.count({a, text}) != 0) continue;
        std::vector<std::pair<std::string, std::string>> found;
        try {
          const YAML::Node n = YAML::Load(text);
          if (n.IsMap()) mapping_leaves(n, "", found);
        } catch (const YAML::Exception&) {
        } // not YAML: a plain value
        for (const auto& [path, value] : found)
          if (std::find(leaves.begin(), leaves.end(), path) == leaves.end()) leaves.push_back(path);
        leaves_of_[{a, text}] = std::map<std::string, std::string>(found.begin(), found.end());
      }
      for (const auto& path : leaves)
        names_.push_back(plan.axes[a] + "." + path);
      leaf_names_.push_back(leaves);
    }
  }
  const std::vector<std::string>& names() const { return names_; }
  /* The columns' values for a plan row's swept values (`values`: one per swept key). */
  std::vector<std::string> values(const std::vector<std::string>& swept) const
  {
    std::vector<std::string> out;
    for (size_t a = 0; a < swept.size(); a++) {
      out.push_back(swept[a]);
      const auto& leaves = leaves_of_.at({a, swept[a]});
      for (const auto& path : leaf_names_[a]) {
        auto it = leaves.find(path);
        out.push_back(it == leaves.end() ? "" : it->second);
      }
    }
    return out;
  }

 private:
  std::vector<std::string> names_;
  std::vector<std::vector<std::string>> leaf_names_;                                       // per swept key
  std::map<std::pair<size_t, std::string>, std::map<std::string, std::string>> leaves_of_; // (key, value) -> leaves
};

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

  const AxisColumns axis_columns(plan);
  std::vector<std::string> header{"run", "point", "replication", "seed"};
  header.insert(header.end(), axis_columns.names().begin(), axis_columns.names().end());
  header.push_back("status");
  header.insert(header.end(), metric_names.begin(), metric_names.end());
  t.results_csv = csv_row(header);
  // point -> metric -> samples, and the point's axis values
  std::map<long, std::map<std::string, std::vector<double>>> samples;
  std::map<long, std::vector<std::string>> point_values;
  for (size_t i = 0; i < plan.table.rows.size(); i++) {
    const auto& row = plan.table.rows[i];
    const std::vector<std::string> swept(row.begin() + 4, row.begin() + plan.hash_column);
    std::vector<std::string> out(row.begin(), row.begin() + 4);
    const std::vector<std::string> columns = axis_columns.values(swept);
    out.insert(out.end(), columns.begin(), columns.end());
    out.push_back(status[i]);
    std::map<std::string, double> by_name(metrics[i].begin(), metrics[i].end());
    long point = std::strtol(row[1].c_str(), nullptr, 10);
    point_values[point] = columns;
    for (const auto& name : metric_names) {
      auto it = by_name.find(name);
      out.push_back(it == by_name.end() ? "" : format_number(it->second));
      if (it != by_name.end()) samples[point][name].push_back(it->second);
    }
    t.results_csv += csv_row(out);
  }

  std::vector<std::string> agg_header{"point"};
  agg_header.insert(agg_header.end(), axis_columns.names().begin(), axis_columns.names().end());
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
