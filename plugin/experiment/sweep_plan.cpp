#include "experiment/sweep_plan.hpp"

#include "core/errors.hpp"
#include "core/fnv1a.hpp"
#include "core/input_file.hpp"
#include "core/time_format.hpp"
#include "core/yaml_tags.hpp"
#include "experiment/tables.hpp"
#include "output/reports.hpp"
#include "run/fork_join.hpp"
#include "scenario/scenario.hpp"
#include "scenario/scenario_tree.hpp"
#include "scenario/value_origins.hpp"

#include <algorithm>
#include <set>

namespace fs = std::filesystem;

namespace jobsched {

namespace {

std::string yaml_text(const YAML::Node& n)
{
  YAML::Emitter out;
  out.SetMapFormat(YAML::Flow);
  out.SetSeqFormat(YAML::Flow);
  out << n;
  return out.c_str();
}

constexpr long kMaxPoints = 1000000;

[[noreturn]] void fail(const ValueOrigins& origins, const YAML::Node& at, const std::string& key,
                       const std::string& what)
{
  throw InputError(origins.where_read(key, at) + ": " + (key.empty() ? "" : key + ": ") + what);
}

template <class T>
T as_scalar(const ValueOrigins& origins, const YAML::Node& n, const std::string& key, const std::string& expected)
{
  if (!n.IsScalar()) fail(origins, n, key, "expected " + expected);
  try {
    return n.as<T>();
  } catch (const YAML::Exception&) {
    fail(origins, n, key, "expected " + expected + ", got " + quoted_value(n.Scalar()));
  }
}

long as_long(const ValueOrigins& origins, const YAML::Node& n, const std::string& key)
{
  return as_scalar<long>(origins, n, key, "an integer");
}

/* A key given twice in `sweep:` (YAML keeps both; the second would silently win). */
void reject_duplicate_keys(const ValueOrigins& origins, const YAML::Node& map, const std::string& prefix)
{
  std::set<std::string> keys;
  for (const auto& kv : map)
    if (!keys.insert(kv.first.Scalar()).second) fail(origins, kv.first, prefix + kv.first.Scalar(), "duplicate key");
}

/* The stopping rule's `key` (metric or stop_when) must name a numeric field that the runs of every point write. */
void check_rule_metric(const ValueOrigins& origins, const YAML::Node& reps, const std::string& key,
                       const std::string& metric, const std::vector<std::string>& written)
{
  if (written.empty() || std::find(written.begin(), written.end(), metric) != written.end()) return;
  std::string list;
  for (const auto& name : written)
    list += (list.empty() ? "" : ", ") + name;
  const YAML::Node at = reps[key] ? reps[key] : reps;
  fail(origins, at, "replications." + key,
       quoted_value(metric) + " is not a numeric field of the summary.json these runs write (" + list + ")");
}

/* Why `key` cannot be swept, or nullptr. */
const char* unsweepable(const std::string& key)
{
  auto under = [&key](const std::string& section) { return key == section || key.rfind(section + ".", 0) == 0; };
  if (key == "simulation.seed") return "seeds are set by 'replications', not swept";
  if (under("replications")) return "the replications of every point are set by 'replications', not swept";
  if (under("sweep")) return "a sweep's grid is not swept (list the keys in one sweep:)";
  if (key == "output" || under("output.dir"))
    return "every run of a sweep writes into the sweep's folder (runs/<hash>/, from --out or output.dir), not swept";
  // The run's name (its hash) leaves output: out, so every point would be one run, reused: and an output switch only
  // chooses which files a run writes, never its results, which are what a sweep compares.
  if (under("output"))
    return "output switches choose which files every run writes, not its results: set them once, outside sweep:";
  return nullptr;
}

/* Null as the scenario file reads it: a null node (~, null, nothing), or a scalar tagged !!null (core/yaml_tags.hpp).
 */
bool is_null(const YAML::Node& n)
{
  return n.IsNull() || (n.IsScalar() && is_tagged_null(n.Tag(), n.Scalar()));
}

/* A null swept value would remove `key` (a run reads the point as --set KEY=null) and run its default: it is refused
 * where the scenario file refuses `key: null`, with the file's reason. */
void refuse_null_where_the_file_does(const ValueOrigins& origins, const YAML::Node& tree, const std::string& key,
                                     const YAML::Node& value)
{
  if (!is_null(value)) return;
  YAML::Node copy = YAML::Clone(tree);
  for (const char* k : {"sweep", "replications", "output"})
    copy.remove(k);
  YAML::Node cur = copy;
  std::string rest = key;
  for (size_t dot; (dot = rest.find('.')) != std::string::npos; rest.erase(0, dot + 1)) {
    const std::string part = rest.substr(0, dot);
    if (!cur[part] || !cur[part].IsMap()) cur[part] = YAML::Node(YAML::NodeType::Map);
    YAML::Node next = cur[part];
    cur.reset(next);
  }
  cur[rest] = YAML::Node(YAML::NodeType::Null);
  YAML::Emitter out;
  out << copy;
  try {
    parse_scenario(std::string(out.c_str()) + "\n", origins.file(), {});
  } catch (const InputError& e) {
    std::string why = e.what(); // its line is that of a copy of the file: left out
    const std::string& file = origins.file();
    if (why.rfind(file + ":", 0) == 0) why.erase(0, why.find(": ", file.size()) + 2);
    fail(origins, value, "sweep." + key, "null is refused, as in the file: " + why);
  }
}

/* The keys whose values are files, which a scenario file resolves against its own folder (scenario/scenario.hpp). */
bool is_path_key(const std::string& key)
{
  return key == "platform" || key == "deployment" || key == "plugins" || key == "workload.trace" ||
         key == "owners.trace";
}

/* `value` swept under `key` with every relative file name in it (at `key` or under it, for a swept section) made
 * absolute against `dir`, the scenario's folder: a run reads the point's values as --set assignments, which resolve
 * against the current folder, while a scenario file's values, its sweep's included, resolve against its folder. */
void resolve_paths(YAML::Node value, const std::string& key, const fs::path& dir)
{
  auto absolute = [&dir](YAML::Node text) {
    if (!text.IsScalar() || text.Scalar().empty() || is_null(text)) return;
    const fs::path path(text.Scalar());
    if (path.is_relative()) text = (dir / path).lexically_normal().string();
  };
  if (is_path_key(key)) {
    if (value.IsSequence())
      for (YAML::Node item : value)
        absolute(item);
    else
      absolute(value);
    return;
  }
  if (!value.IsMap()) return;
  for (auto kv : value)
    if (kv.first.IsScalar()) resolve_paths(kv.second, (key.empty() ? "" : key + ".") + kv.first.Scalar(), dir);
}

/* A policy parameter naming a file (its name ends in _file), which a run resolves against the scenario's folder (the
 * current folder when --set gave it). */
bool is_policy_file_key(const std::string& key)
{
  const std::string params = "policy.params.";
  return key.rfind(params, 0) == 0 && key.size() > params.size() + 5 &&
         key.find('.', params.size()) == std::string::npos && key.compare(key.size() - 5, 5, "_file") == 0;
}

/* `value`, set at `key` of a run's settings, with every relative file name in it made absolute against `dir`: those of
 * resolve_paths and a policy's *_file parameters. */
void absolute_file_names(YAML::Node value, const std::string& key, const fs::path& dir)
{
  resolve_paths(value, key, dir);
  if (is_policy_file_key(key) && value.IsScalar() && !value.Scalar().empty() && !is_null(value) &&
      fs::path(value.Scalar()).is_relative())
    value = (dir / value.Scalar()).lexically_normal().string();
  if (!value.IsMap() || is_path_key(key)) return;
  for (auto kv : value)
    if (kv.first.IsScalar() && !is_path_key((key.empty() ? "" : key + ".") + kv.first.Scalar()))
      absolute_file_names(kv.second, (key.empty() ? "" : key + ".") + kv.first.Scalar(), dir);
}

std::string run_assignment(const std::string& key, const std::string& text, const fs::path& dir)
{
  bool paths = is_path_key(key); // most keys hold no file name: their text goes as it is
  for (const std::string path_key : {"workload.trace", "owners.trace"}) // or a section holding one
    paths = paths || path_key.rfind(key + ".", 0) == 0;
  // A policy's *_file parameter, or a section that may hold one: written again only when it had a relative file name.
  const bool policy_files = is_policy_file_key(key) || key == "policy" || key == "policy.params";
  if (!paths && !policy_files) return key + "=" + text;
  YAML::Node value = YAML::Load(text);
  const std::string as_read = yaml_text(value);
  absolute_file_names(value, key, dir);
  const std::string absolute = yaml_text(value);
  return key + "=" + (paths || absolute != as_read ? absolute : text);
}

/* `assignment` ("key=value", as --set takes it) applied to a run's settings with its file names made absolute. */
void apply_setting(YAML::Node& settings, const std::string& assignment, const fs::path& dir)
{
  const size_t eq = assignment.find('=');
  const std::string key = assignment.substr(0, eq);
  YAML::Node value = YAML::Load(assignment.substr(eq + 1));
  absolute_file_names(value, key, dir);
  apply_override(settings, key + "=" + yaml_text(value));
}

/* `n` in YAML with every mapping's keys in order: the same settings give the same text, in whatever order the scenario
 * file, --set and the sweep's points wrote them. */
void emit_sorted(YAML::Emitter& out, const YAML::Node& n)
{
  if (n.IsMap()) {
    std::vector<std::pair<std::string, YAML::const_iterator>> items; // each key's text, to order them by
    for (auto it = n.begin(); it != n.end(); ++it)
      items.emplace_back(yaml_text(it->first), it);
    std::stable_sort(items.begin(), items.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    out << YAML::BeginMap;
    for (const auto& item : items) {
      out << YAML::Key << item.second->first << YAML::Value;
      emit_sorted(out, item.second->second);
    }
    out << YAML::EndMap;
  } else if (n.IsSequence()) {
    out << YAML::BeginSeq;
    for (const auto& item : n)
      emit_sorted(out, item);
    out << YAML::EndSeq;
  } else {
    out << n;
  }
}

} // namespace

std::vector<std::string> summary_metrics(const Scenario& scenario)
{
  std::string text;
  if (scenario.fork_join)
    text = fork_join_summary_json(ForkJoinResult{});
  else
    text = summary_json(RunDescription{}, Workload{}, RunMetrics{});
  std::vector<std::string> names;
  for (const auto& [name, value] : summary_numbers(text))
    names.push_back(name);
  return names;
}

SweepPlan SweepPlan::load(const fs::path& scenario, const std::vector<std::string>& overrides,
                          const std::function<void(long point, const Scenario&)>& check_point)
{
  // The sweep and its runs read the file again for every point: a pipe gives its text once (the second point read an
  // empty scenario, "platform: missing").
  if (pipe_kind(scenario) == PipeKind::open)
    throw InputError(scenario.string() +
                     ": a pipe, which a sweep cannot read again for each point and run: give a file");
  SweepPlan plan;
  plan.scenario_ = fs::absolute(scenario).lexically_normal();
  plan.cli_overrides_ = overrides;
  plan.tree_ = load_yaml_file(scenario);
  plan.settings_ = YAML::Clone(plan.tree_);
  for (const auto& o : overrides) {
    // --set reads a key's dots as nesting, and swept keys hold dots: sweep.policy.name=[...] made a swept key
    // sweep.policy whose value is not a list, refused naming the file. Named here as typed, with the form that works.
    const std::string key = o.substr(0, o.find('='));
    if (key.rfind("sweep.", 0) == 0 && key.find('.', 6) != std::string::npos)
      throw InputError("--set " + key +
                       ": --set reads the dots of a swept key as nesting; set the whole grid: --set 'sweep={" +
                       key.substr(6) + ": [...]}'");
    apply_override(plan.tree_, o);
  }
  // A run's settings as it reads them, what its name hashes: the file's file names against its folder, --set's against
  // the current folder (as a run reads them).
  const fs::path folder = plan.scenario_.parent_path();
  absolute_file_names(plan.settings_, "", folder);
  for (const auto& o : overrides)
    apply_setting(plan.settings_, o, fs::current_path());
  const ValueOrigins origins(scenario.string(), overrides); // what the errors below name, key by key
  const YAML::Node& tree = plan.tree_;
  if (!tree.IsMap()) fail(origins, tree, "", "expected a mapping (a scenario)");
  // The sections read here must be mappings before they are looked into (the whole scenario is checked per run).
  for (const char* section : {"simulation", "output"})
    if (tree[section] && !tree[section].IsMap() && !tree[section].IsNull())
      fail(origins, tree[section], section, "expected a mapping");

  std::uint64_t base_seed = 1;
  if (tree["simulation"] && tree["simulation"]["seed"])
    base_seed = static_cast<std::uint64_t>(as_long(origins, tree["simulation"]["seed"], "simulation.seed"));
  if (tree["output"] && tree["output"]["dir"])
    plan.output_dir_ = as_scalar<std::string>(origins, tree["output"]["dir"], "output.dir", "a folder name");

  const YAML::Node sweep = tree["sweep"];
  if (sweep && !sweep.IsNull()) {
    if (!sweep.IsMap()) fail(origins, sweep, "sweep", "expected a mapping of dotted keys to lists of values");
    reject_duplicate_keys(origins, sweep, "sweep.");
    std::set<std::string> swept;
    for (const auto& kv : sweep) {
      // "a.b, c.d: [[1, x], [2, y]]" sweeps its keys together: each value lists one value per key, in order.
      const std::string name = kv.first.Scalar();
      std::vector<std::string> keys;
      for (size_t begin = 0;;) {
        const size_t comma = std::min(name.find(',', begin), name.size());
        std::string key = name.substr(begin, comma - begin);
        key.erase(0, key.find_first_not_of(" \t"));
        key.erase(key.find_last_not_of(" \t") + 1);
        if (key.empty()) fail(origins, kv.first, "sweep." + name, "an empty key in a list of keys swept together");
        if (const char* why = unsweepable(key)) fail(origins, kv.first, "sweep." + key, why);
        if (!swept.insert(key).second) fail(origins, kv.first, "sweep." + key, "swept twice");
        keys.push_back(key);
        if (comma == name.size()) break;
        begin = comma + 1;
      }
      // The points: a list of values; keys swept together: a list of lists, or one list (one point).
      const YAML::Node& listed = kv.second;
      if (!listed.IsSequence())
        fail(origins, listed, "sweep." + name,
             "expected a list of values, one per point (a single point: [" + yaml_text(listed) + "])");
      const bool several = listed.IsSequence() && (keys.size() == 1 || listed.size() == 0 || listed[0].IsSequence());
      std::vector<YAML::Node> points;
      if (several) {
        for (const auto& v : listed)
          points.push_back(v);
      } else {
        points.push_back(listed);
      }
      if (points.empty()) fail(origins, listed, "sweep." + name, "no value to sweep over");
      const size_t group = plan.axes_.size();
      for (const auto& key : keys)
        plan.axes_.push_back(SweepAxis{key, {}, group, origins.where_read("sweep." + name, listed)});
      for (const auto& v : points) {
        if (keys.size() == 1) {
          refuse_null_where_the_file_does(origins, tree, keys[0], v);
          plan.axes_[group].values.push_back(yaml_text(v));
          continue;
        }
        if (!v.IsSequence() || v.size() != keys.size())
          fail(origins, v, "sweep." + name,
               "keys swept together take a list of " + std::to_string(keys.size()) +
                   " values per point, one per key in order (as [a, b])");
        for (size_t i = 0; i < keys.size(); i++) {
          refuse_null_where_the_file_does(origins, tree, keys[i], v[i]);
          plan.axes_[group + i].values.push_back(yaml_text(v[i]));
        }
      }
    }
    // Refuse a grid too large to plan before planning it (10^10 points would take minutes to expand).
    double points = 1;
    for (size_t i = 0; i < plan.axes_.size(); i++)
      if (plan.axes_[i].group == i) points *= static_cast<double>(plan.axes_[i].values.size());
    if (points > kMaxPoints)
      fail(origins, sweep, "sweep",
           "the grid has " + format_exact(points) + " points; at most " + std::to_string(kMaxPoints));
  }

  const YAML::Node reps = tree["replications"];
  plan.rule_ = read_replications(reps, origins, base_seed);
  const ReplicationRule& rule = plan.rule_;

  // Check every point now, so that a typo in a swept key fails before any simulation starts: first its resolved
  // scenario (errors name the key in the sweep), then as its runs will read it, the scenario file with the run's --set
  // assignments (a key given twice in a section the resolved scenario leaves out, such as output:, used to fail every
  // run one by one); and check that the stopping rule names fields these runs write.
  for (long p = 0; p < plan.point_count(); p++) {
    SweepRun run = plan.make_run(p, 0);
    Scenario sc;
    try {
      sc = load_scenario(scenario, run.overrides);
      parse_scenario(run.resolved_yaml, plan.scenario_, {});
      if (check_point) check_point(p, sc);
    } catch (const InputError& e) {
      throw InputError(plan.point_error(p, e.what()));
    }
    if (p == 0) plan.fork_join_ = sc.fork_join.has_value();
    if (sc.fork_join.has_value() != plan.fork_join_)
      throw InputError(origins.where("sweep") +
                       ": sweep: some points are fork_join studies and others scheduling runs");
    if (rule.adaptive) {
      const std::vector<std::string> written = summary_metrics(sc);
      check_rule_metric(origins, reps, "metric", rule.metric, written);
      if (!rule.stop_when.empty()) check_rule_metric(origins, reps, "stop_when", rule.stop_when, written);
    }
  }
  return plan;
}

std::string SweepPlan::point_error(long point, std::string message) const
{
  if (axes_.empty()) return message; // one point: the scenario itself
  // An error under a swept key names it as the run's --set assignment would: it came from the sweep's list of that
  // key (in the file, or --set sweep=...), named instead, with the point.
  std::string where;
  const std::string set = "--set: ";
  if (message.rfind(set, 0) == 0) {
    std::string key = message.substr(set.size(), message.find(':', set.size()) - set.size());
    key = key.substr(0, key.find_first_of("[,"));
    const auto axis = std::find_if(axes_.begin(), axes_.end(), [&key](const SweepAxis& a) {
      return key == a.key || key.rfind(a.key + ".", 0) == 0;
    });
    if (axis != axes_.end()) {
      message.erase(0, set.size());
      where = axis->origin + ": ";
    }
  }
  std::string name;
  const std::vector<std::string> values = point_values(point);
  for (size_t i = 0; i < values.size(); i++)
    name += (name.empty() ? "" : ", ") + axes_[i].key + "=" + values[i];
  return where + "sweep point " + std::to_string(point) + " (" + name + "): " + message;
}

long SweepPlan::point_count() const
{
  long n = 1;
  for (size_t i = 0; i < axes_.size(); i++)
    if (axes_[i].group == i) n *= static_cast<long>(axes_[i].values.size());
  return n;
}

std::vector<std::string> SweepPlan::point_values(long point) const
{
  std::vector<std::string> values(axes_.size());
  for (size_t end = axes_.size(); end > 0;) {
    const size_t group = axes_[end - 1].group; // keys swept together take the same index
    const long n = static_cast<long>(axes_[group].values.size());
    for (size_t i = group; i < end; i++)
      values[i] = axes_[i].values[point % n];
    point /= n;
    end = group;
  }
  return values;
}

SweepRun SweepPlan::make_run(long point, long replication) const
{
  SweepRun run;
  run.point = point;
  run.replication = replication;
  run.seed = rule_.seed_of(replication);
  run.overrides = cli_overrides_;
  auto values = point_values(point);
  YAML::Node resolved = YAML::Clone(tree_); // the file's values as written: the run's name hashes them
  for (size_t i = 0; i < axes_.size(); i++) {
    apply_override(resolved, axes_[i].key + "=" + values[i]);
    run.overrides.push_back(run_assignment(axes_[i].key, values[i], scenario_.parent_path()));
  }
  run.overrides.push_back("simulation.seed=" + std::to_string(run.seed));
  apply_override(resolved, run.overrides.back());
  for (const char* k : {"sweep", "replications", "output"})
    resolved.remove(k);
  YAML::Emitter out;
  out << resolved;
  run.resolved_yaml = std::string(out.c_str()) + "\n";
  // The run's name: its own settings, not the file that gave them (the same run of two sweeps, whose files differ in
  // their sweep: or replications: or lie in other folders, is one run, shared and resumed by either).
  YAML::Node settings = YAML::Clone(settings_);
  const fs::path folder = scenario_.parent_path();
  for (size_t i = 0; i < axes_.size(); i++)
    apply_setting(settings, axes_[i].key + "=" + values[i], folder);
  apply_override(settings, run.overrides.back());
  for (const char* k : {"sweep", "replications", "output"})
    settings.remove(k);
  YAML::Emitter text;
  emit_sorted(text, settings);
  run.hash = hex16(fnv1a(std::string(text.c_str()) + "\n"));
  return run;
}

std::vector<SweepRun> SweepPlan::initial_runs() const
{
  long reps = rule_.adaptive ? rule_.min : static_cast<long>(rule_.seeds.size());
  std::vector<SweepRun> runs;
  for (long p = 0; p < point_count(); p++)
    for (long r = 0; r < reps; r++)
      runs.push_back(make_run(p, r));
  return runs;
}

} // namespace jobsched
