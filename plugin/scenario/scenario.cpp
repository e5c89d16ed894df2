#include "scenario/scenario.hpp"

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/time.hpp"
#include "core/time_format.hpp"
#include "core/yaml_tags.hpp"
#include "scenario/replications.hpp"
#include "scenario/scenario_tree.hpp"
#include "workload/trace_search.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <type_traits>
#include <yaml-cpp/yaml.h>

namespace fs = std::filesystem;

namespace jobsched {

namespace {

/* Reads one YAML mapping, checking types and that every key present is known. */
class Section {
 public:
  /* `origins`: errors under a key that --set gave name --set instead of a line of the file. */
  Section(const YAML::Node& node, std::string key, const ValueOrigins& origins, bool present = true)
      : node_(node), key_(std::move(key)), origins_(origins), present_(present && node.IsDefined() && !node.IsNull())
  {
    if (present_ && !node_.IsMap()) fail(node_, "expected a mapping");
    if (present_) reject_duplicates(node_, "");
  }
  bool has(const std::string& k) const { return present_ && node_[k]; }
  std::string key(const std::string& k) const { return key_.empty() ? k : key_ + "." + k; }

  [[noreturn]] void fail(const YAML::Node& at, const std::string& what, const std::string& k = "") const
  {
    std::string name = k.empty() ? key_ : key(k);
    throw InputError(origins_.where_read(name, at) + ": " + (name.empty() ? "" : name + ": ") + what);
  }

  template <class T>
  static ScalarType scalar_type()
  {
    if constexpr (std::is_same_v<T, bool>)
      return ScalarType::kBoolean;
    else if constexpr (std::is_integral_v<T>)
      return ScalarType::kInteger;
    else
      return ScalarType::kNumber;
  }

  template <class T>
  T get(const std::string& k, T fallback, const char* type_name)
  {
    seen_.insert(k);
    if (!has(k)) return fallback;
    const YAML::Node n = node_[k];
    if (!n.IsScalar()) fail(n, std::string("expected ") + type_name, k);
    // A tag must name the type asked (core/yaml_tags.hpp): yaml-cpp would read `!!str 20` as the number 20.
    if (!std::is_same_v<T, std::string> && !tag_fits(n.Tag(), scalar_type<T>()))
      fail(n,
           std::string("expected ") + type_name + ", got " + quoted_value(n.Scalar()) + " tagged " +
               quoted_value(n.Tag()),
           k);
    try {
      return n.as<T>();
    } catch (const YAML::Exception&) {
      fail(n, std::string("expected ") + type_name + ", got " + quoted_value(n.Scalar()), k);
    }
  }
  std::string str(const std::string& k, const std::string& fallback) { return get<std::string>(k, fallback, "text"); }
  /* Every number read is finite: NaN and infinity are refused where they are read, whatever the key. */
  double num(const std::string& k, double fallback)
  {
    double v = get<double>(k, fallback, "a number");
    if (!std::isfinite(v)) fail(node_[k], "expected a finite number, got " + quoted_value(node_[k].Scalar()), k);
    return v;
  }
  /* A number in [lo, hi] (`above` true: in (lo, hi]). */
  double num(const std::string& k, double fallback, double lo, double hi, bool above = false)
  {
    double v = num(k, fallback);
    // A subnormal "positive" number (1e-320) is as good as 0 to the simulation: divided by, it overflows, and durations
    // of it never add up (a generated VP of work 1e-320 s never ended).
    if (above && lo == 0 && v > 0 && v < std::numeric_limits<double>::min())
      fail(node_[k], "must be above 0, got " + format_exact(v) + ", too small to compute with (a subnormal number)", k);
    if (v < lo || v > hi || (above && v == lo))
      fail(node_[k],
           "must be " + std::string(above ? "above " : "at least ") + format_exact(lo) + " and at most " +
               format_exact(hi) + ", got " + format_exact(v),
           k);
    return v;
  }
  long integer(const std::string& k, long fallback) { return get<long>(k, fallback, "an integer"); }
  /* An integer in [lo, hi]: counts and levels that the simulator keeps in an int. */
  long integer(const std::string& k, long fallback, long lo, long hi)
  {
    long v = integer(k, fallback);
    if (v < lo || v > hi)
      fail(node_[k],
           "must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " + std::to_string(v), k);
    return v;
  }
  bool boolean(const std::string& k, bool fallback) { return get<bool>(k, fallback, "true or false"); }
  std::string choice(const std::string& k, const std::string& fallback, const std::vector<std::string>& allowed)
  {
    std::string v = str(k, fallback);
    for (const auto& a : allowed)
      if (v == a) return v;
    std::string list;
    for (const auto& a : allowed)
      list += (list.empty() ? "" : ", ") + a;
    fail(node_[k], "expected one of " + list + ", got " + quoted_value(v), k);
  }
  Section sub(const std::string& k)
  {
    seen_.insert(k);
    return has(k) ? Section(node_[k], key(k), origins_) : Section(YAML::Node(), key(k), origins_, false);
  }
  /* A mapping of component parameters, as text (lists and mappings in YAML flow form, e.g. "[1, 2]"); the tags of
   * the single values given with one go to `tags`, for the component's declared types to judge (core/params.hpp). */
  std::map<std::string, std::string> scalars(const std::string& k, std::map<std::string, std::string>& tags)
  {
    seen_.insert(k);
    std::map<std::string, std::string> out;
    if (!has(k) || node_[k].IsNull()) return out;
    const YAML::Node n = node_[k];
    if (!n.IsMap()) fail(n, "expected a mapping", k);
    reject_duplicates(n, k + ".");
    for (const auto& kv : n) {
      if (kv.second.IsScalar()) {
        if (kv.second.Tag() != "?" && kv.second.Tag() != "!") tags[kv.first.Scalar()] = kv.second.Tag();
        out[kv.first.Scalar()] = kv.second.Scalar();
      } else { // a list or a mapping keeps its YAML form; the component's declared parameter says what it expects
        YAML::Emitter text;
        text << YAML::Flow << kv.second;
        out[kv.first.Scalar()] = text.c_str();
      }
    }
    return out;
  }
  /* Every key present must have been asked for. */
  void finish() const
  {
    if (!present_) return;
    for (const auto& kv : node_) {
      const std::string k = kv.first.Scalar();
      if (seen_.count(k) == 0) {
        std::string known;
        for (const auto& s : seen_)
          known += (known.empty() ? "" : ", ") + s;
        fail(kv.first, "unknown key (known here: " + known + ")", k);
      }
    }
  }
  const YAML::Node& node() const { return node_; }
  void ignore(const std::string& k) { seen_.insert(k); }

 private:
  /* yaml-cpp keeps the first of two equal keys without a word: refuse them. `prefix` is relative to this section. */
  void reject_duplicates(const YAML::Node& map, const std::string& prefix) const
  {
    std::set<std::string> keys;
    for (const auto& kv : map)
      if (!keys.insert(kv.first.Scalar()).second) fail(kv.first, "duplicate key", prefix + kv.first.Scalar());
  }

  YAML::Node node_;
  std::string key_;
  const ValueOrigins& origins_;
  bool present_;
  std::set<std::string> seen_;
};

constexpr long kMaxJobs = 100000000;   // a workload of more jobs would not fit in memory (about 1 KiB each)
constexpr long kMaxCount = 1000000000; // processors, sizes: kept in an int
constexpr double kMaxSeconds = 1e12;   // about 31,700 years: longer times lose the simulator's precision

fs::path resolve(const fs::path& dir, const std::string& p)
{
  fs::path path(p);
  return (path.is_absolute() ? path : dir / path).lexically_normal();
}

/* Makes every `!!null` scalar under `node` a null node, as an untagged `~` is: yaml-cpp gives it as text. */
void read_tagged_nulls(YAML::Node node)
{
  if (node.IsMap()) {
    for (auto kv : node) {
      YAML::Node value = kv.second;
      if (value.IsScalar() && is_tagged_null(value.Tag(), value.Scalar()))
        value = YAML::Node(YAML::NodeType::Null);
      else
        read_tagged_nulls(value);
    }
  } else if (node.IsSequence()) {
    for (auto item : node) {
      YAML::Node value = item;
      if (value.IsScalar() && is_tagged_null(value.Tag(), value.Scalar()))
        value = YAML::Node(YAML::NodeType::Null);
      else
        read_tagged_nulls(value);
    }
  }
}
} // namespace

void apply_override(YAML::Node& root, const std::string& assignment)
{
  auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError("--set " + assignment + ": expected KEY=VALUE, e.g. --set policy.name=fcfs");
  std::string path = assignment.substr(0, eq);
  // An empty value read as YAML is null, which removes the key: `--set workload.generator.jobs=` ran the default.
  const std::string text = assignment.substr(eq + 1);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError("--set " + path + ": empty value (" + path + "=null removes the key, " + path +
                     "=\"''\" is empty text)");
  YAML::Node value;
  try {
    value = YAML::Load(text);
    if (value.IsScalar() && is_tagged_null(value.Tag(), value.Scalar())) value = YAML::Node();
    read_tagged_nulls(value);
  } catch (const YAML::Exception& e) {
    throw InputError("--set " + path + ": value is not valid YAML (" + e.msg + ")");
  }
  std::vector<std::string> parts;
  std::stringstream ss(path);
  for (std::string p; std::getline(ss, p, '.');) {
    if (p.empty()) throw InputError("--set " + path + ": empty key component");
    parts.push_back(p);
  }
  // The scenario must be a mapping to hold the key (a fuzzer found a document that is a plain scalar).
  if (root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  if (!root.IsMap()) throw InputError("--set " + path + ": the scenario is not a mapping of keys");
  // yaml-cpp nodes are handles: walk down by reassigning a copy of the handle with reset().
  YAML::Node cur = root;
  for (size_t i = 0; i + 1 < parts.size(); i++) {
    if (cur[parts[i]] && !cur[parts[i]].IsMap() && !cur[parts[i]].IsNull())
      throw InputError("--set " + path + ": " + quoted_value(parts[i]) + " is not a mapping");
    if (!cur[parts[i]] || cur[parts[i]].IsNull()) cur[parts[i]] = YAML::Node(YAML::NodeType::Map);
    YAML::Node next = cur[parts[i]];
    cur.reset(next);
  }
  if (value.IsNull())
    cur.remove(parts.back()); // --set KEY=null removes KEY, e.g. to swap workload.generator for workload.trace
  else
    cur[parts.back()] = value;
}

namespace {
/* The 1-based line of the marker ('---' at a line's start) that opens document `document` (0-based, at least 1) of
 * `yaml_text`, as YAML::LoadAll numbers them: the first marker opens document 0 when no content (a line other than a
 * comment, a blank or a directive) came before it, else document 1; each further marker opens the next. The empty
 * documents before the one named (a '---' followed by comments alone) are skipped: the line is that of the content.
 * After '...' (a document's end) content opens the next document without a marker: its line is named. */
long document_marker_line(const std::string& yaml_text, size_t document)
{
  std::istringstream in(yaml_text);
  long line_number = 0;
  long opened = -1;   // the document the lines read so far belong to (-1: none yet)
  bool ended = false; // after '...': content opens the next document without a marker
  auto is_marker = [](const std::string& line, const char* marker) {
    return line.rfind(marker, 0) == 0 && (line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r');
  };
  for (std::string line; std::getline(in, line);) {
    line_number++;
    if (is_marker(line, "---")) {
      ended = false;
      if (++opened == static_cast<long>(document)) return line_number;
      continue;
    }
    if (is_marker(line, "...")) {
      ended = true;
      continue;
    }
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#' || line[0] == '%') continue;
    if (opened < 0) opened = 0;
    if (ended) {
      ended = false;
      if (++opened == static_cast<long>(document)) return line_number;
    }
  }
  return line_number;
}
} // namespace

YAML::Node parse_yaml(const std::string& yaml_text, const std::string& file)
{
  try {
    // A scenario is one document: yaml-cpp's Load reads the first and drops the rest without a word.
    // An empty document after the first (a file ending in '---', or '---' and comments) drops nothing: it is taken.
    std::vector<YAML::Node> documents = YAML::LoadAll(yaml_text);
    for (size_t d = 1; d < documents.size(); d++)
      if (!documents[d].IsNull())
        throw InputError(file + ":" + std::to_string(document_marker_line(yaml_text, d)) +
                         ": a second YAML document (after '---'): a scenario is one document");
    YAML::Node root = documents.empty() ? YAML::Node() : documents.front();
    if (root.IsScalar() && is_tagged_null(root.Tag(), root.Scalar())) root = YAML::Node();
    read_tagged_nulls(root);
    return root.IsNull() ? YAML::Node(YAML::NodeType::Map) : root;
  } catch (const YAML::ParserException& e) {
    // yaml-cpp's words, then what they usually mean in a scenario.
    std::string hint;
    if (e.msg.find("end of map not found") != std::string::npos)
      hint = " (check the indentation: the keys of one mapping must start in the same column)";
    else if (e.msg.find("end of sequence not found") != std::string::npos)
      hint = " (a list opened with '[' is not closed, or its items are indented differently)";
    else if (e.msg.find("illegal map value") != std::string::npos)
      hint = " (a value contains ': ': quote it)";
    throw InputError(file + ":" + std::to_string(e.mark.line + 1) + ": malformed YAML: " + e.msg + hint);
  }
}

namespace {

/* Every byte of a scenario file. A folder opens as a file of no text (Linux), which read as a scenario without its
 * platform ("run: platform: missing" for `jobsched run run`, a run's folder). */
std::string scenario_file_text(const fs::path& file)
{
  std::error_code ec;
  if (fs::is_directory(file, ec)) throw InputError(file.string() + ": a folder, not a scenario file (a YAML file)");
  // Opening a FIFO waits for a writer: with none, the run waited forever, deaf to SIGTERM.
  if (pipe_kind(file) == PipeKind::named)
    throw InputError(file.string() + ": a named pipe (FIFO), not a scenario file (a YAML file)");
  std::ifstream in(file);
  if (!in) throw InputError(file.string() + ": cannot open scenario file");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

} // namespace

YAML::Node load_yaml_file(const fs::path& file)
{
  return parse_yaml(scenario_file_text(file), file.string());
}

/* Workstation owners (model/owner_activity.hpp): the `owners` section of a scenario. */
OwnerSpec read_owners(Section& ow, const fs::path& trace_dir)
{
  OwnerSpec owners;
  const std::string model = ow.choice("model", "none", {"none", "alternating", "trace"});
  owners.model = model == "alternating" ? OwnerSpec::Model::alternating
                 : model == "trace"     ? OwnerSpec::Model::trace
                                        : OwnerSpec::Model::none;
  for (const char* k : {"mean_idle", "mean_busy", "idle_cv", "busy_cv"})
    if (model != "alternating" && ow.has(k)) ow.fail(ow.node()[k], "only model: alternating has it", k);
  if (model != "trace" && ow.has("trace")) ow.fail(ow.node()["trace"], "only model: trace has it", "trace");
  if (model == "none" && ow.has("grace")) ow.fail(ow.node()["grace"], "owners of model none never come back", "grace");
  // Owners' periods last minutes in the availability studies; a mean below a second only makes events (and at 1e-300
  // s the clock would not move).
  owners.mean_idle = ow.num("mean_idle", owners.mean_idle, 1, kMaxSeconds);
  owners.mean_busy = ow.num("mean_busy", owners.mean_busy, 1, kMaxSeconds);
  // The owners' activity level busy / (busy + idle), instead of mean_busy: what the experiments sweep. 0: no owner.
  if (ow.has("activity")) {
    if (model != "alternating") ow.fail(ow.node()["activity"], "only model: alternating has it", "activity");
    if (ow.has("mean_busy")) ow.fail(ow.node()["activity"], "give activity or mean_busy, not both", "activity");
    const double activity = ow.num("activity", 0, 0, 0.95);
    if (activity == 0)
      owners.model = OwnerSpec::Model::none;
    else
      owners.mean_busy = owners.mean_idle * activity / (1 - activity);
  }
  ow.ignore("activity");
  owners.idle_cv = ow.num("idle_cv", owners.idle_cv, 1, 100);
  owners.busy_cv = ow.num("busy_cv", owners.busy_cv, 1, 100);
  owners.grace = ow.num("grace", owners.grace, 0, kMaxSeconds);
  if (model == "trace") {
    if (!ow.has("trace")) ow.fail(ow.node(), "trace: missing (a file of TIME,HOST,STATE lines)");
    owners.trace = resolve(trace_dir, ow.str("trace", ""));
    if (!is_input_file(owners.trace, ow.key("trace")))
      ow.fail(ow.node()["trace"], "file '" + owners.trace.string() + "' does not exist", "trace");
  }
  ow.ignore("trace");
  return owners;
}

namespace {
/* `program_platform`: the scenario of a program that loads its own platform and deployment (load_program_scenario). */
Scenario parse_scenario_text(const std::string& yaml_text, const fs::path& file,
                             const std::vector<std::string>& overrides, bool program_platform)
{
  const std::string fname = file.string();
  YAML::Node root = parse_yaml(yaml_text, fname);
  for (const auto& o : overrides)
    apply_override(root, o);

  Scenario sc;
  sc.file = file;
  sc.origins = ValueOrigins(fname, overrides);
  fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  bool generator_seed_given = false;
  Section top(root, "", sc.origins);
  sc.name = top.str("name", file.stem().string());
  // Without output.dir the run writes into results/NAME: '' wrote into results/ itself, '../x' outside it.
  if (sc.name.empty() || sc.name == "." || sc.name == ".." ||
      sc.name.find_first_of(std::string("/\0", 2)) != std::string::npos) {
    const std::string what = "must be one folder name (not empty, '.' or '..', no '/'), got " + quoted_value(sc.name);
    if (!top.has("name")) // a file named ..yaml
      throw InputError(fname + ": name: not given, and the file's name gives " + quoted_value(sc.name) +
                       ", not one folder name: give name:");
    top.fail(top.node()["name"], what, "name");
  }
  if (program_platform) // two platforms would be ambiguous: the program's is the one simulated
    for (const char* key : {"platform", "deployment"})
      if (top.has(key))
        top.fail(top.node()[key],
                 "not read in a program that loads its own platform and deployment (jobsched::plugin_init): remove "
                 "it",
                 key);
  if (!top.has("platform") && !program_platform)
    throw InputError(sc.origins.error("platform: missing (the SimGrid platform XML file)"));
  // Paths in the file are relative to the file; paths given with --set (the key, or a section holding it: --set
  // 'owners={model: trace, trace: x.csv}'), to the current folder, as on any command line.
  auto base_of = [&](const std::string& key) { return sc.origins.set_by_override(key) ? fs::current_path() : dir; };
  if (!program_platform) sc.platform = resolve(base_of("platform"), top.str("platform", ""));
  std::string deployment = top.str("deployment", ""); // none: jobsched places its actors (platform/host_roles.hpp)
  sc.deployment = deployment.empty() ? fs::path() : resolve(base_of("deployment"), deployment);
  // Shared libraries of policies and allocators (policy/plugin_loader.hpp), loaded when the scenario is run.
  if (top.has("plugins") && !top.node()["plugins"].IsNull()) {
    const YAML::Node list = top.node()["plugins"];
    if (!list.IsSequence()) top.fail(list, "expected a list of shared library files", "plugins");
    for (std::size_t i = 0; i < list.size(); i++) {
      const std::string key = "plugins[" + std::to_string(i) + "]";
      const std::string origin = sc.origins.where("plugins", list[i].Mark().line + 1) + ": " + key;
      if (!list[i].IsScalar() || list[i].Scalar().empty()) throw InputError(origin + ": expected a file name");
      sc.plugins.push_back({resolve(base_of("plugins"), list[i].Scalar()), origin});
    }
  }
  top.ignore("plugins");

  // Gang scheduling on networks of workstations had a simulator of its own: it is the policy gang-now now.
  if (top.has("gang_now")) {
    top.fail(top.node()["gang_now"],
             "this section is gone: write policy.name: gang-now with its settings in policy.params (mtat, compression, "
             "pool_target, expansion, max_exhaustive_slices, new_slice_rule, eviction, quantum, switch_cost), the "
             "owners in a top-level owners: section, and the jobs as workload.generator.model: vp (its keys in "
             "workload.generator)",
             "gang_now");
  } else if (top.has("hierarchy")) { // hierarchical scheduling had a simulator of its own: the policies ac-ds... now
    top.fail(top.node()["hierarchy"],
             "this section is gone: write policy.name: ac-ds (or ag-ds, equi-equi, ac-equi, ag-equi, equi-ds) with its "
             "settings in policy.params (quantum, quantum_factor, cost_factor, allotments, levels, min_children, "
             "max_children, tree_seed, tree, tree_file, tree_hosts, messages, message_bytes, convergence_rate, "
             "utilization_threshold, responsiveness, invariants), the jobs as workload.generator.model: downey (its "
             "keys in workload.generator) and P as the platform's processors",
             "hierarchy");
  } else if (top.has("fork_join")) { // the fork-join paging study: a program of threads, not a workload under a policy
    for (const char* other : {"workload", "policy"})
      if (top.has(other))
        top.fail(top.node()[other], "a fork_join scenario has no workload or policy (its program is fork_join)", other);
    Section f = top.sub("fork_join");
    ForkJoinSpec fj;
    fj.threads = static_cast<int>(f.integer("threads", fj.threads, 1, kMaxCount));
    fj.granularity = f.num("granularity", fj.granularity, 0, kMaxSeconds, true);
    fj.computation = f.num("computation", fj.computation, 0, kMaxSeconds, true);
    fj.fault_rate = f.num("fault_rate", fj.fault_rate, 0, 1e9, true);
    fj.fault_service = f.num("fault_service", fj.fault_service, 0, kMaxSeconds);
    fj.correlation = f.num("correlation", fj.correlation, 0, 1);
    fj.offsets = f.choice("offsets", "plus-minus", {"plus-minus", "window"}) == "window" ? FaultOffsets::window
                                                                                         : FaultOffsets::plus_minus;
    fj.barrier_cost = f.num("barrier_cost", fj.barrier_cost, 0, kMaxSeconds);
    // Every thread is an actor that goes through every phase: bound the work so that a typo cannot run for days.
    const double phases = fj.computation / fj.granularity;
    if (phases < 0.5 || phases * fj.threads > 1e9)
      f.fail(f.node(), "computation / granularity x threads must be between 1 and 1e9 phase steps, got " +
                           format_exact(phases * fj.threads));
    if (fj.fault_rate * fj.computation * fj.threads > 1e9)
      f.fail(f.node()["fault_rate"], "fault_rate x computation x threads must be at most 1e9 faults", "fault_rate");
    f.finish();
    sc.fork_join = fj;
  } else {
    Section w = top.sub("workload");
    if (w.has("trace") == w.has("generator"))
      w.fail(w.node(), "give exactly one of 'trace' (an SWF file) or 'generator'");
    if (w.has("trace")) sc.workload.trace = w.str("trace", "");
    sc.workload.trace_dir = base_of("workload.trace");
    Section g = w.sub("generator");
    // One branch per model (workload.generator.model); a key of another model is refused, naming the key and the model.
    const std::string generator_model =
        w.has("generator") ? g.choice("model", "batch", {"batch", "vp", "downey"}) : "batch";
    if (generator_model == "downey") { // the Downey phased generator of Cao et al.'s study: its keys only
      static const char* const batch_keys[] = {"mean_interarrival",
                                               "max_size",
                                               "serial_fraction",
                                               "power_of_two_fraction",
                                               "min_run_time",
                                               "max_run_time",
                                               "max_estimate_factor",
                                               "time_resolution",
                                               "run_time_distribution",
                                               "short_mean",
                                               "long_mean",
                                               "long_fraction",
                                               "memory_distribution",
                                               "node_memory_mb",
                                               "min_nodes"};
      for (const char* k : batch_keys)
        if (g.has(k)) g.fail(g.node()[k], std::string("a key of model batch, not of model downey"), k);
      for (const char* k :
           {"min_vps", "max_vps", "min_work", "max_work", "image_mb", "new_vp_per_hour", "vp_exit_per_hour", "archs"})
        if (g.has(k)) g.fail(g.node()[k], std::string("a key of model vp, not of model downey"), k);
      GeneratorSpec gs;
      gs.model = GeneratorModel::downey;
      DowneyGeneratorSpec& d = gs.downey;
      if (g.has("jobs") && g.has("load")) g.fail(g.node()["load"], "give jobs or load, not both", "load");
      gs.jobs = g.integer("jobs", 300, 1, 1000000);
      if (g.has("load")) {
        const double load = g.num("load", 1, 0, 1e6, true);
        const double jobs = std::max(1.0, std::round(load * d.jobs_per_unit_load));
        if (jobs > 1e6)
          g.fail(g.node()["load"], "load " + format_exact(load) + " makes more than 1000000 jobs", "load");
        gs.jobs = static_cast<long>(jobs);
      }
      g.ignore("load");
      d.work_unit = g.num("work_unit", d.work_unit, 0, 1e6, true);
      d.beta1 = g.num("beta1", d.beta1, -1e3, 1e3);
      d.beta2 = g.num("beta2", d.beta2, 0, 1e3, true);
      d.min_parallelism = g.num("min_parallelism", d.min_parallelism, 1, 1e6);
      d.max_parallelism = g.num("max_parallelism", d.max_parallelism, 1, 1e6);
      if (d.max_parallelism < d.min_parallelism)
        g.fail(g.node()["max_parallelism"], "must be at least min_parallelism", "max_parallelism");
      d.phase_length = g.num("phase_length", d.phase_length, 0, 1e6, true);
      if (g.has("shapes")) {
        const YAML::Node list = g.node()["shapes"];
        if (!list.IsSequence() || list.size() == 0) g.fail(list, "expected a non-empty list of curve names", "shapes");
        for (const auto& item : list) {
          static const std::set<std::string> names{"step", "log", "poly2", "ramp", "poly1", "exp", "impulse"};
          if (!item.IsScalar() || names.count(item.Scalar()) == 0)
            g.fail(item,
                   "expected one of step, log, poly2, ramp, poly1, exp, impulse, got " +
                       (item.IsScalar() ? quoted_value(item.Scalar()) : std::string("a non-scalar")),
                   "shapes");
          d.shapes.push_back(item.Scalar());
        }
      }
      g.ignore("shapes");
      // Bound the largest job's span, so that a typo cannot run for days (1e8 quanta of the default 1 ms).
      // The key blamed is the cause: the distribution (beta1, else beta2) when its largest job at the default
      // work_unit is already too long, else work_unit (min_parallelism, at least 1, only shortens it).
      const DowneyGeneratorSpec defaults;
      const double largest_span = std::exp((1 - d.beta1) / d.beta2) * d.work_unit / d.min_parallelism;
      const auto span_at_default_unit = [&defaults](double beta1, double beta2) {
        return std::exp((1 - beta1) / beta2) * defaults.work_unit / defaults.min_parallelism;
      };
      if (!(largest_span <= 1e5)) {
        const char* key = "work_unit";
        if (!(span_at_default_unit(d.beta1, d.beta2) <= 1e5))
          key = g.has("beta1") && (!g.has("beta2") || !(span_at_default_unit(d.beta1, defaults.beta2) <= 1e5))
                    ? "beta1"
                    : "beta2";
        g.fail(g.node()[key], "the largest job's span would be " + format_exact(largest_span) + " s (at most 1e5)",
               key);
      }
      long seed = g.integer("seed", 0);
      if (seed < 0) g.fail(g.node()["seed"], "must be >= 0", "seed");
      gs.seed = static_cast<std::uint64_t>(seed);
      generator_seed_given = g.has("seed");
      g.finish();
      sc.workload.generator = gs;
    } else if (w.has("generator")) {
      for (const char* k :
           {"load", "work_unit", "beta1", "beta2", "min_parallelism", "max_parallelism", "phase_length", "shapes"})
        if (g.has(k)) g.fail(g.node()[k], "a key of model downey, not of model " + generator_model, k);
      GeneratorSpec gs;
      gs.model = generator_model == "vp" ? GeneratorModel::vp : GeneratorModel::batch;
      static const std::vector<std::string> kVpKeys = {"min_vps",  "max_vps",         "min_work",         "max_work",
                                                       "image_mb", "new_vp_per_hour", "vp_exit_per_hour", "archs"};
      static const std::vector<std::string> kBatchKeys = {"max_size",
                                                          "serial_fraction",
                                                          "power_of_two_fraction",
                                                          "min_run_time",
                                                          "max_run_time",
                                                          "short_mean",
                                                          "long_mean",
                                                          "long_fraction",
                                                          "max_estimate_factor",
                                                          "time_resolution",
                                                          "run_time_distribution",
                                                          "memory_distribution",
                                                          "node_memory_mb",
                                                          "min_nodes"};
      for (const auto& k : gs.model == GeneratorModel::vp ? kBatchKeys : kVpKeys)
        if (g.has(k))
          g.fail(g.node()[k],
                 "model " + generator_model + " has no such key (it belongs to model " +
                     (gs.model == GeneratorModel::vp ? "batch" : "vp") + ")",
                 k);
      if (gs.model == GeneratorModel::vp) {
        VpGeneratorSpec& vp = gs.vp;
        gs.jobs = 20;
        gs.mean_interarrival = 600;
        vp.min_vps = static_cast<int>(g.integer("min_vps", vp.min_vps, 1, 10000));
        vp.max_vps = static_cast<int>(g.integer("max_vps", std::max(vp.max_vps, vp.min_vps), 1, 10000));
        if (vp.max_vps < vp.min_vps) g.fail(g.node()["max_vps"], "must be at least min_vps", "max_vps");
        vp.min_work = g.num("min_work", vp.min_work, 0, kMaxSeconds, true);
        vp.max_work = g.num("max_work", std::max(vp.max_work, vp.min_work), 0, kMaxSeconds, true);
        if (vp.max_work < vp.min_work) g.fail(g.node()["max_work"], "must be at least min_work", "max_work");
        vp.image_mb = g.num("image_mb", vp.image_mb, 0, 1e6);
        vp.new_vp_per_hour = g.num("new_vp_per_hour", vp.new_vp_per_hour, 0, 1e4);
        vp.vp_exit_per_hour = g.num("vp_exit_per_hour", vp.vp_exit_per_hour, 0, 1e4);
        g.ignore("archs");
        if (g.has("archs")) {
          const YAML::Node list = g.node()["archs"];
          if (!list.IsSequence() || list.size() == 0)
            g.fail(list, "expected a non-empty list of architecture names", "archs");
          for (const auto& item : list) {
            if (!item.IsScalar() || item.Scalar().empty()) g.fail(item, "expected an architecture name", "archs");
            if (std::find(vp.archs.begin(), vp.archs.end(), item.Scalar()) != vp.archs.end())
              g.fail(item, quoted_value(item.Scalar()) + " is listed twice", "archs");
            vp.archs.push_back(item.Scalar());
          }
        }
      }
      gs.jobs = g.integer("jobs", gs.jobs, 1, kMaxJobs);
      gs.mean_interarrival = g.num("mean_interarrival", gs.mean_interarrival, 0, kMaxSeconds, true);
      gs.max_size = static_cast<int>(g.integer("max_size", gs.max_size, 0, kMaxCount));
      gs.serial_fraction = g.num("serial_fraction", gs.serial_fraction, 0, 1);
      gs.power_of_two_fraction = g.num("power_of_two_fraction", gs.power_of_two_fraction, 0, 1);
      gs.min_run_time = g.num("min_run_time", gs.min_run_time, 0, kMaxSeconds, true);
      gs.max_run_time = g.num("max_run_time", gs.max_run_time, 0, kMaxSeconds, true);
      gs.max_estimate_factor = g.num("max_estimate_factor", gs.max_estimate_factor, 1, 1e6);
      gs.time_resolution = g.num("time_resolution", gs.time_resolution, 0, 1e6);
      const bool two_class =
          g.choice("run_time_distribution", "log-uniform", {"log-uniform", "two-class"}) == "two-class";
      gs.run_time_distribution = two_class ? RunTimeDistribution::two_class : RunTimeDistribution::log_uniform;
      gs.short_mean = g.num("short_mean", gs.short_mean, 0, kMaxSeconds, true);
      gs.long_mean = g.num("long_mean", gs.long_mean, 0, kMaxSeconds, true);
      gs.long_fraction = g.num("long_fraction", gs.long_fraction, 0, 1);
      // A key of the other distribution would be silently ignored: refuse it instead.
      for (const char* k : {"short_mean", "long_mean", "long_fraction"})
        if (!two_class && g.has(k)) g.fail(g.node()[k], "only run_time_distribution: two-class has it", k);
      for (const char* k : {"min_run_time", "max_run_time"})
        if (two_class && g.has(k)) g.fail(g.node()[k], "only run_time_distribution: log-uniform has it", k);
      const std::string memory = g.choice("memory_distribution", "none", {"none", "A", "B", "C"});
      gs.memory_distribution = memory == "A"   ? MemoryDistribution::setia_a
                               : memory == "B" ? MemoryDistribution::setia_b
                               : memory == "C" ? MemoryDistribution::setia_c
                                               : MemoryDistribution::none;
      gs.node_memory_mb = g.num("node_memory_mb", gs.node_memory_mb, 0, 1e12, true);
      if (memory == "none" && g.has("node_memory_mb"))
        g.fail(g.node()["node_memory_mb"], "only a memory_distribution (A, B or C) uses it", "node_memory_mb");
      Section mn = g.sub("min_nodes");
      if (g.has("min_nodes")) {
        MinNodesSpec& m = gs.min_nodes;
        m.enabled = true;
        m.load_percent = static_cast<int>(mn.integer("load_percent", m.load_percent, 1, 1000000));
        m.jobs = static_cast<int>(mn.integer("jobs", 0, 0, kMaxCount));
        if (mn.has("jobs") && m.jobs < 1) mn.fail(mn.node()["jobs"], "must be at least 1", "jobs");
        const std::string rounding = mn.choice("rounding", "mix", {"mix", "floor", "nearest"});
        m.rounding = rounding == "floor"     ? memory_constrained::RangeRounding::floor
                     : rounding == "nearest" ? memory_constrained::RangeRounding::nearest
                                             : memory_constrained::RangeRounding::mix;
        if (!mn.has("node_memory_mb"))
          mn.fail(mn.node(), "node_memory_mb: missing (the memory of a node, MB: a job's memory is M_j x it)");
        m.node_memory_mb = mn.num("node_memory_mb", 0, 0, 1e12, true);
        mn.finish();
      }
      if (memory != "none" && g.has("min_nodes"))
        g.fail(g.node()["min_nodes"], "memory_distribution and min_nodes both give jobs their memory: set one",
               "min_nodes");
      long seed = g.integer("seed", 0);
      if (seed < 0) g.fail(g.node()["seed"], "must be >= 0", "seed");
      gs.seed = static_cast<std::uint64_t>(seed);
      generator_seed_given = g.has("seed");
      if (gs.jobs <= 0) g.fail(g.node()["jobs"], "must be positive", "jobs");
      g.finish();
      sc.workload.generator = gs;
    }
    WorkloadFilter& f = sc.workload.filter;
    f.max_jobs = w.integer("max_jobs", 0, 0, kMaxJobs);
    // -1 (not given) keeps every job: a -1 given kept them all too, where the user meant some cut.
    f.start_time = w.has("start_time") ? w.num("start_time", 0, 0, kMaxSeconds) : -1;
    f.end_time = w.has("end_time") ? w.num("end_time", 0, 0, kMaxSeconds) : -1;
    f.max_size = static_cast<int>(w.integer("max_size", 0, 0, kMaxCount));
    f.reject_invalid = w.choice("invalid_jobs", "skip", {"skip", "error"}) == "error";
    f.reject_oversize = w.choice("oversize_jobs", "skip", {"skip", "error"}) == "error";
    f.overrun = w.choice("overrun", "extend", {"extend", "kill"}) == "kill" ? Overrun::kill : Overrun::extend;
    f.load_factor = w.num("load_factor", 1, 0, 1e6, true);
    f.shake = w.num("shake", 0, 0, kMaxSeconds);
    sc.workload.size_field = w.choice("size_field", "requested", {"requested", "allocated"}) == "allocated"
                                 ? SizeField::allocated
                                 : SizeField::requested;
    if (f.max_jobs < 0) w.fail(w.node()["max_jobs"], "must be >= 0", "max_jobs");
    Section c = w.sub("communication");
    std::string pattern = c.choice("pattern", "none", {"none", "ring", "neighbours", "all-to-all", "mesh"});
    sc.workload.communication.pattern = pattern == "ring"         ? CommPattern::ring
                                        : pattern == "neighbours" ? CommPattern::neighbours
                                        : pattern == "all-to-all" ? CommPattern::all_to_all
                                        : pattern == "mesh"       ? CommPattern::mesh
                                                                  : CommPattern::none;
    sc.workload.communication.bytes_per_flop = c.num("bytes_per_flop", 0, 0, 1e6);
    std::string cost_model = c.choice("model", "traffic", {"traffic", "formula", "network"});
    sc.workload.communication.model = cost_model == "formula"   ? CommCostModel::formula
                                      : cost_model == "network" ? CommCostModel::network
                                                                : CommCostModel::traffic;
    long level = c.integer("level", 0, 0, 1000);
    sc.workload.communication.level = static_cast<int>(level);
    sc.workload.communication.base = c.num("base", 0.05, 0, 1e6);
    if (sc.workload.communication.base < 0) c.fail(c.node()["base"], "must be >= 0", "base");
    if (sc.workload.communication.bytes_per_flop < 0)
      c.fail(c.node()["bytes_per_flop"], "must be >= 0", "bytes_per_flop");
    c.finish();
    Section m = w.sub("memory");
    MemorySpec& mem = sc.workload.memory;
    mem.paging = m.choice("model", "none", {"none", "paging"}) == "paging";
    // Memory per processor is bounded as workload.jobs.memory_mb (a petabyte), a node's by node_memory_mb (1e12 MB);
    // a threshold of 1e6 lets a node's processes use a million times its memory before paging, no paging at all for
    // any job and node within those bounds that a run could meet.
    mem.min_mb = m.num("min_mb", mem.min_mb, 0, 1e9, true);
    mem.max_mb = m.num("max_mb", mem.max_mb, 0, 1e9, true);
    mem.threshold = m.num("threshold", mem.threshold, 0, 1e6, true);
    // At most a million times longer per unit of memory short: a job of a day then ends within about 1e11 s, inside
    // the simulator's horizon (1e12 s); far beyond it a run never ended (its clock lost the seconds it added).
    mem.page_fault_penalty = m.num("page_fault_penalty", mem.page_fault_penalty, 0, 1e6);
    mem.node_memory_mb = m.num("node_memory_mb", 0, 0, 1e12);
    if (mem.max_mb < mem.min_mb)
      m.fail(m.node()[m.has("max_mb") ? "max_mb" : "min_mb"],
             "need min_mb <= max_mb, got min_mb " + format_exact(mem.min_mb) + " and max_mb " +
                 format_exact(mem.max_mb),
             m.has("max_mb") ? "max_mb" : "min_mb");
    m.finish();
    Section js = w.sub("jobs");
    JobShapeSpec& shape = sc.workload.jobs;
    std::string shape_name = js.choice("shape", "rigid", {"rigid", "moldable", "malleable"});
    shape.shape = shape_name == "moldable"    ? JobShape::moldable
                  : shape_name == "malleable" ? JobShape::malleable
                                              : JobShape::rigid;
    long min_size = js.integer("min_size", 1, 1, kMaxCount);
    long max_size = js.integer("max_size", 0, 0, kMaxCount);
    if (max_size > 0 && max_size < min_size) js.fail(js.node()["max_size"], "must be >= min_size", "max_size");
    shape.min_size = static_cast<int>(min_size);
    shape.max_size = static_cast<int>(max_size);
    // At most a petabyte per processor: a job's image (memory x processors, in bytes) must stay a finite number.
    shape.memory_mb = js.num("memory_mb", 0, 0, 1e9);
    if (!(shape.memory_mb >= 0) || std::isinf(shape.memory_mb))
      js.fail(js.node()["memory_mb"], "must be a finite number >= 0", "memory_mb");
    Section sp = js.sub("speedup");
    std::string model = sp.choice("model", "linear", {"linear", "downey", "beta", "beta-static"});
    shape.speedup = model == "downey"        ? Speedup::Model::downey
                    : model == "beta"        ? Speedup::Model::beta
                    : model == "beta-static" ? Speedup::Model::beta_static
                                             : Speedup::Model::linear;
    // The speedup parameters are at most 1e15 (below 2^53): with n <= 1e9 processors the products the models form
    // ((1 + beta) n, A n, n A (sigma + 1)) stay below 1e40, far from overflow (1.8e308, where beta = 1e308 gave
    // run times of 0), and each step rounds by 2^-53 relative. A larger value would change nothing a run can see:
    // beta's S(n) = (1 + beta) n / (beta + n) is then linear to within (n - 1) / beta < 1e-6, A exceeds every job's
    // size, and sigma's S(n) is n A / (n + A - 1) to within 1 / sigma.
    shape.downey_A = sp.num("A", 0, 0, 1e15);
    shape.downey_sigma = sp.num("sigma", 0, 0, 1e15);
    shape.beta_min = sp.num("beta_min", 0, 0, 1e15);
    shape.beta_max = sp.num("beta_max", shape.beta_min, 0, 1e15);
    shape.static_threads = static_cast<int>(sp.integer("threads", 0, 0, kMaxCount));
    if (sp.has("threads") && model != "beta-static")
      sp.fail(sp.node()["threads"], "only the beta-static model has threads (the N its jobs are cut into)", "threads");
    if (!(shape.downey_A == 0 || (shape.downey_A >= 1 && std::isfinite(shape.downey_A))))
      sp.fail(sp.node()["A"], "must be >= 1 (or 0: the job's size)", "A");
    if (shape.beta_max < shape.beta_min)
      sp.fail(sp.node()["beta_max"],
              "need beta_min <= beta_max, got beta_min " + format_exact(shape.beta_min) + " and beta_max " +
                  format_exact(shape.beta_max),
              "beta_max");
    sp.finish();
    js.finish();
    Section cl = w.sub("closed");
    sc.workload.closed.jobs = cl.integer("jobs", 0, 0, kMaxJobs);
    sc.workload.closed.warmup = cl.num("warmup", 0);
    if (w.has("closed") && sc.workload.closed.jobs < 1) cl.fail(cl.node()["jobs"], "must be a positive count", "jobs");
    if (!(sc.workload.closed.warmup >= 0) || std::isinf(sc.workload.closed.warmup))
      cl.fail(cl.node()["warmup"], "must be a finite number of seconds >= 0", "warmup");
    cl.finish();
    if (sc.workload.generator && sc.workload.generator->min_nodes.enabled &&
        sc.workload.generator->min_nodes.jobs == 0) {
      // J of Table 3's 2LN/J is the multiprogramming level: the closed population's, unless given.
      if (sc.workload.closed.jobs < 1)
        throw InputError(sc.origins.error("workload.generator.min_nodes.jobs: missing (J in 2LN/J; it defaults to "
                                          "workload.closed.jobs, which is not set)"));
      sc.workload.generator->min_nodes.jobs = static_cast<int>(std::min<long>(sc.workload.closed.jobs, kMaxCount));
    }
    w.finish();

    Section p = top.sub("policy");
    sc.policy.name = p.str("name", sc.policy.name);
    sc.policy.params = p.scalars("params", sc.policy.param_tags);
    sc.policy.allocation = p.str("allocation", sc.policy.allocation);
    sc.policy.allocation_params = p.scalars("allocation_params", sc.policy.allocation_param_tags);
    p.finish();
  }

  // Owners of the compute hosts, on any platform and under any policy.
  Section ow = top.sub("owners");
  if (top.has("owners") && sc.fork_join) top.fail(top.node()["owners"], "fork_join scenarios have no owners", "owners");
  sc.owners = read_owners(ow, base_of("owners.trace"));
  sc.eviction =
      ow.choice("eviction", "requeue", {"requeue", "kill"}) == "kill" ? GuestEviction::kill : GuestEviction::requeue;
  ow.finish();

  Section s = top.sub("simulation");
  long seed = s.integer("seed", 1);
  if (seed < 0) s.fail(s.node()["seed"], "must be >= 0", "seed");
  sc.simulation.seed = static_cast<std::uint64_t>(seed);
  sc.simulation.host_model = s.choice("host_model", "ptask_L07", {"ptask_L07"});
  // A reference speed far from any real processor's makes every job last nothing or forever (1e-300 or 1e300 flop/s).
  sc.simulation.reference_speed = s.num("reference_speed", 0, 0, 1e18);
  if (s.has("reference_speed") && sc.simulation.reference_speed < 1e3)
    s.fail(s.node()["reference_speed"], "must be at least 1000 flop/s per core (or 0: the first compute host's speed)",
           "reference_speed");
  sc.simulation.execution = s.choice("execution", "auto", {"auto", "ptask", "timer"});
  sc.simulation.max_backlog = s.integer("max_backlog", 0, 0, kMaxJobs);
  sc.simulation.virtual_wakeups = s.boolean("virtual_wakeups", true);
  sc.simulation.cycles = s.boolean("cycles", true);
  Section im = s.sub("images");
  std::string store = im.choice("store", "none", {"none", "local-disk", "host"});
  sc.simulation.images.kind = store == "local-disk" ? ImageStoreSpec::Kind::local_disk
                              : store == "host"     ? ImageStoreSpec::Kind::host
                                                    : ImageStoreSpec::Kind::none;
  sc.simulation.images.host = im.str("host", "");
  if (store == "host" && sc.simulation.images.host.empty())
    im.fail(im.node(), "store: host needs host: NAME (the host that keeps the images)");
  im.finish();
  s.finish();
  if (sc.workload.generator && !generator_seed_given) sc.workload.generator->seed = sc.simulation.seed;
  sc.workload.filter.shake_seed = sc.simulation.seed;

  Section o = top.sub("output");
  sc.output_dir = resolve(fs::current_path(), o.str("dir", "results/" + sc.name));
  sc.write_trace = o.boolean("trace", true);
  sc.write_jobs = o.boolean("jobs", true);
  o.finish();
  // How the outputs measure the jobs. Not under output:, which a sweep leaves out of its runs' names (the folder and
  // which files: not the results), since it changes the results.
  Section metrics = top.sub("metrics");
  if (sc.fork_join && metrics.has("bounded_slowdown_tau")) // refused rather than read and ignored
    metrics.fail(metrics.node()["bounded_slowdown_tau"],
                 "a fork_join scenario has no bounded slowdown (its slowdown is completion time over computation time)",
                 "bounded_slowdown_tau");
  sc.bounded_slowdown_tau = metrics.num("bounded_slowdown_tau", sc.bounded_slowdown_tau, 0, kMaxSeconds, true);
  metrics.finish();
  top.ignore("sweep"); // read by jobsched sweep (experiment/sweep_plan.cpp); a single run ignores it
  // Planned by jobsched sweep; read here too, so that a bad value is refused by a single run of the scenario as well.
  read_replications(top.node()["replications"], sc.origins, sc.simulation.seed);
  top.ignore("replications");
  top.finish();
  return sc;
}
} // namespace

Scenario parse_scenario(const std::string& yaml_text, const fs::path& file, const std::vector<std::string>& overrides)
{
  return parse_scenario_text(yaml_text, file, overrides, false);
}

fs::path trace_path(const Scenario& sc)
{
  const fs::path dir = !sc.workload.trace_dir.empty() ? sc.workload.trace_dir
                       : sc.file.has_parent_path()    ? sc.file.parent_path()
                                                      : fs::path(".");
  return find_trace(*sc.workload.trace, dir, sc.origins.where("workload.trace") + ": workload.trace");
}

void check_input_files(const Scenario& sc)
{
  auto require_file = [&sc](const fs::path& p, const char* key) {
    const std::string where = sc.origins.where(key) + ": " + key;
    if (!is_input_file(p, where)) throw InputError(where + ": file '" + p.string() + "' does not exist");
  };
  require_file(sc.platform, "platform");
  if (!sc.deployment.empty()) require_file(sc.deployment, "deployment");
  if (sc.workload.trace && !sc.fork_join) trace_path(sc);
}

Scenario load_scenario(const fs::path& file, const std::vector<std::string>& overrides)
{
  return parse_scenario(scenario_file_text(file), file, overrides);
}

Scenario load_program_scenario(const fs::path& file, const std::vector<std::string>& overrides)
{
  return parse_scenario_text(scenario_file_text(file), file, overrides, true);
}

} // namespace jobsched
