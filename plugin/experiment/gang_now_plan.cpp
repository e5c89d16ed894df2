/* `jobsched plan mtat|compress|expand`: MTAT, Compression and Expansion of Al-Saqabi, Otto & Walpole, "Gang
 * Scheduling in Heterogeneous Distributed Systems" (sections 4.1 to 4.4.1), on the command line, as JSON
 * (nlohmann-json, laid out by core/json.hpp); and the allocation map's JSON form. */
#include "experiment/gang_now_plan.hpp"

#include "core/command_line.hpp"
#include "core/errors.hpp"
#include "core/json.hpp"
#include "policies/gang_now/events.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace jobsched::gang_now {

const char* const kGangPlanUsage =
    R"(Usage: jobsched plan mtat     --capacities A1,A2,... --vps X [--archs Z1,Z2,...] [--variant optimal|paper]
       jobsched plan compress --capacities A1,A2,... --vps X [--archs Z1,Z2,...] [--variant exact|paper]
                              [--mtat optimal|paper] [--pool-target common|per-pool]
       jobsched plan expand   --map FILE.json [--search column|exhaustive] [--max-slices N]
                              [--vps X [--job ID] [--rule turnaround|time-share] [--mtat ...] [--compression ...]
                               [--pool-target ...]]

Gang scheduling on heterogeneous workstations (Al-Saqabi, Otto & Walpole, section 4), as JSON on stdout.
  mtat        the VPs of one job on processors of relative capacities a_i (MTAT, 4.1): allocation and turnaround
  compress    MTAT, then the fewest processors that keep its turnaround (Compression, 4.2)
  expand      the regular pattern of free entries in an allocation map (Expansion, 4.3); with --vps, the
              submission of a job of X VPs to that map (4.4.1) and the map after it
  --capacities A1,...   relative capacities, decimals read exactly (1.1 is 11/10), up to 1000, 4 decimal places
  --archs Z1,...        each processor's architecture (default: one architecture, "any")
  --vps X | Z=X,...     the job's VPs, or its VPs per architecture
  --variant             mtat: optimal (default) or paper; compress: exact (default) or paper
  --mtat, --compression the variants used by compress and expand (defaults optimal, exact)
  --pool-target         compress each architecture pool to the job's T_min (common, default) or to its own T_z
  --search              expansion search: column (the paper's, default) or exhaustive (slices with free entries
                        at most --max-slices, default 20)
  --rule                new slice or free space: turnaround (T_free <= T_min, 4.4.1, default) or time-share (4.3)
  --job ID              the submitted job's id (default: one more than the largest in the map)
Exit status: 0 success, 2 bad arguments or input.
)";

namespace {

// ---- JSON writing ----

/* A rational as an exact JSON string: a decimal when it has one ("1.1"), else "p/q". */
Json exact(const Rational& value)
{
  return exact_string(value);
}

Json fraction(const Rational& value)
{
  return fraction_string(value);
}

/* A rational as a JSON number: exact when it has a decimal form, else to 12 significant digits. */
Json decimal(const Rational& value)
{
  return json_decimal(decimal_string(value));
}

Json fractions(const std::vector<Rational>& values)
{
  Json out = Json::array();
  for (const auto& v : values)
    out.push_back(fraction(v));
  return out;
}

Json vp_counts(const VpCounts& vps)
{
  Json out = Json::object();
  for (const auto& [arch, count] : vps)
    out[arch] = count;
  return out;
}

Json names(const AllocationMap& map, const std::vector<int>& processors)
{
  Json out = Json::array();
  for (int p : processors)
    out.push_back(map.processors[static_cast<size_t>(p)].name);
  return out;
}

// ---- reading the map ----

/* The largest job id, as a trace may give it (2^53, swf_reader.cpp: every whole number up to it is exact in a
 * double). */
constexpr JobId kLargestJobId = 9'007'199'254'740'992;

/* Messages name the value at fault by its JSON pointer ("/processors/2/capacity"). */
[[noreturn]] void bad_map(const std::string& source, const std::string& at, const std::string& what)
{
  throw InputError(source + ": " + (at.empty() ? "" : at + ": ") + what);
}

/* The pointer to member `key` of the object at `at` ("~" and "/" in the key escaped as RFC 6901 says). */
std::string pointer(const std::string& at, const std::string& key)
{
  return (Json::json_pointer(at) / key).to_string();
}

/* "a number", "an object", "null"... */
std::string kind_name(const Json& v)
{
  if (v.is_null()) return "null";
  return std::string(v.is_object() || v.is_array() ? "an " : "a ") + v.type_name();
}

const Json& member(const std::string& source, const Json& object, const std::string& at, const std::string& key)
{
  auto it = object.find(key);
  if (it == object.end()) bad_map(source, at, "missing key \"" + key + "\"");
  return *it;
}

void only_keys(const std::string& source, const Json& object, const std::string& at, const std::set<std::string>& keys,
               const std::string& where)
{
  for (auto it = object.begin(); it != object.end(); ++it)
    if (!keys.count(it.key())) bad_map(source, pointer(at, it.key()), "unknown key \"" + it.key() + "\" in " + where);
}

long long whole(const std::string& source, const Json& v, const std::string& at, const std::string& key,
                long long lowest, long long highest)
{
  if (!v.is_number()) bad_map(source, at, "\"" + key + "\" must be a number, not " + kind_name(v));
  // Whole numbers only (1.0 and 1e3 are doubles in JSON's reading, as they were refused before); a non-negative one is
  // unsigned, checked before it is read as signed.
  bool fits = v.is_number_integer() &&
              (!v.is_number_unsigned() || v.get<unsigned long long>() <= static_cast<unsigned long long>(highest));
  long long value = fits ? v.get<long long>() : 0;
  if (!fits || value < lowest || value > highest)
    bad_map(source, at,
            "\"" + key + "\" must be a whole number from " + std::to_string(lowest) + " to " + std::to_string(highest) +
                ", not " + v.dump());
  return value;
}

} // namespace

Json map_document(const AllocationMap& map)
{
  Json processors = Json::array();
  for (const Processor& proc : map.processors)
    processors.push_back(Json{{"name", proc.name}, {"capacity", exact(proc.capacity)}, {"arch", proc.arch}});
  Json jobs = Json::array();
  for (const JobRecord& job : map.jobs)
    jobs.push_back(Json{{"id", job.id}, {"vps", vp_counts(job.vps)}});
  Json slices = Json::array();
  for (const auto& slice : map.slices) {
    Json entries = Json::array();
    for (const Entry& e : slice)
      entries.push_back(e.free() ? Json(nullptr) : Json{{"job", e.job}, {"vps", e.vps}});
    slices.push_back(entries);
  }
  return Json{{"processors", processors}, {"jobs", jobs}, {"next_job", map.next_job}, {"slices", slices}};
}

std::string map_json(const AllocationMap& map)
{
  return json_text(map_document(map));
}

AllocationMap read_map_json(const std::string& text, const std::string& source)
{
  const Json doc = parse_json(text, source);
  if (!doc.is_object()) bad_map(source, "", "an allocation map is a JSON object");
  only_keys(source, doc, "", {"processors", "jobs", "next_job", "slices"}, "the allocation map");
  AllocationMap map;
  const Json& processors = member(source, doc, "", "processors");
  if (!processors.is_array()) bad_map(source, "/processors", "\"processors\" must be an array");
  for (size_t i = 0; i < processors.size(); i++) {
    const Json& p = processors[i];
    const std::string at = "/processors/" + std::to_string(i);
    if (!p.is_object()) bad_map(source, at, "each processor is an object");
    only_keys(source, p, at, {"name", "capacity", "arch"}, "a processor");
    Processor proc;
    const Json& name = member(source, p, at, "name");
    if (!name.is_string() || name.get_ref<const std::string&>().empty())
      bad_map(source, at + "/name", "\"name\" must be a non-empty string");
    proc.name = name.get<std::string>();
    const Json& capacity = member(source, p, at, "capacity");
    if (!capacity.is_string() && !capacity.is_number())
      bad_map(source, at + "/capacity", "\"capacity\" must be a number or a string");
    // A number's text is the shortest that reads back to the same double: the digits as written for any capacity
    // parse_capacity accepts (at most 4 decimal places, up to 1000).
    proc.capacity = parse_capacity(capacity.is_string() ? capacity.get<std::string>() : capacity.dump(),
                                   source + ": " + at + "/capacity: processor '" + proc.name + "' capacity");
    if (auto arch = p.find("arch"); arch != p.end()) {
      if (!arch->is_string() || arch->get_ref<const std::string&>().empty())
        bad_map(source, at + "/arch", "\"arch\" must be a non-empty string");
      proc.arch = arch->get<std::string>();
    }
    map.processors.push_back(proc);
  }
  if (map.processors.size() > 10'000) bad_map(source, "/processors", "more than 10000 processors");
  const Json& slices = member(source, doc, "", "slices");
  if (!slices.is_array()) bad_map(source, "/slices", "\"slices\" must be an array");
  for (size_t k = 0; k < slices.size(); k++) {
    const Json& s = slices[k];
    const std::string at = "/slices/" + std::to_string(k);
    if (!s.is_array()) bad_map(source, at, "each slice is an array of entries, one per processor");
    if (s.size() != map.processors.size())
      bad_map(source, at,
              "a slice has " + std::to_string(s.size()) + " entries for " + std::to_string(map.processors.size()) +
                  " processors");
    std::vector<Entry> slice;
    for (size_t i = 0; i < s.size(); i++) {
      const Json& e = s[i];
      const std::string entry_at = at + "/" + std::to_string(i);
      if (e.is_null()) {
        slice.emplace_back();
        continue;
      }
      if (!e.is_object()) bad_map(source, entry_at, "an entry is null (free) or {\"job\": ID, \"vps\": N}");
      only_keys(source, e, entry_at, {"job", "vps"}, "an entry");
      slice.push_back(Entry{
          static_cast<JobId>(
              whole(source, member(source, e, entry_at, "job"), entry_at + "/job", "job", 0, kLargestJobId)),
          static_cast<int>(whole(source, member(source, e, entry_at, "vps"), entry_at + "/vps", "vps", 1, 1'000'000))});
    }
    map.slices.push_back(slice);
  }
  if (auto jobs = doc.find("jobs"); jobs != doc.end()) {
    if (!jobs->is_array()) bad_map(source, "/jobs", "\"jobs\" must be an array");
    for (size_t k = 0; k < jobs->size(); k++) {
      const Json& j = (*jobs)[k];
      const std::string at = "/jobs/" + std::to_string(k);
      if (!j.is_object()) bad_map(source, at, "each job is an object");
      only_keys(source, j, at, {"id", "vps"}, "a job");
      JobRecord record;
      record.id = static_cast<JobId>(whole(source, member(source, j, at, "id"), at + "/id", "id", 0, kLargestJobId));
      const Json& vps = member(source, j, at, "vps");
      if (vps.is_object()) {
        for (auto it = vps.begin(); it != vps.end(); ++it)
          record.vps[it.key()] =
              static_cast<int>(whole(source, it.value(), pointer(at + "/vps", it.key()), "vps", 0, 1'000'000));
      } else {
        int count = static_cast<int>(whole(source, vps, at + "/vps", "vps", 1, 1'000'000));
        // A plain count: the architecture of the processors the job is on (or "any" if it is on none).
        std::set<std::string> archs;
        for (const auto& slice : map.slices)
          for (size_t p = 0; p < slice.size(); p++)
            if (slice[p].job == record.id) archs.insert(map.processors[p].arch);
        if (archs.size() > 1)
          bad_map(source, at + "/vps",
                  "job " + std::to_string(record.id) +
                      " is on several architectures: give its \"vps\" per architecture");
        record.vps[archs.empty() ? "any" : *archs.begin()] = count;
      }
      map.jobs.push_back(record);
    }
  } else {
    // The jobs of the slices, in order of first appearance, with the VPs of the first slice each one is in.
    std::set<JobId> seen;
    for (const auto& slice : map.slices)
      for (const auto& e : slice)
        if (!e.free() && seen.insert(e.job).second) {
          JobRecord record;
          record.id = e.job;
          for (size_t p = 0; p < slice.size(); p++)
            if (slice[p].job == e.job) record.vps[map.processors[p].arch] += slice[p].vps;
          map.jobs.push_back(record);
        }
  }
  for (const auto& slice : map.slices) {
    std::map<JobId, long long> vps; // a job's VPs in this slice, bounded like --vps
    for (const auto& e : slice)
      if (!e.free() && (vps[e.job] += e.vps) > 1'000'000)
        bad_map(source, "/slices", "job " + std::to_string(e.job) + " has more than 1000000 VPs in a slice");
  }
  for (const auto& job : map.jobs) {
    long long total = 0;
    for (const auto& [arch, count] : job.vps)
      total += count;
    if (total > 1'000'000) bad_map(source, "", "job " + std::to_string(job.id) + " has more than 1000000 VPs");
  }
  // A job may need VPs of an architecture no processor of the map has: it is waiting (allocation_map.hpp), as a map
  // exported from a simulation after processor_exit holds it, and is carried into the output map as it is.
  if (auto next = doc.find("next_job"); next != doc.end())
    map.next_job = static_cast<size_t>(whole(source, *next, "/next_job", "next_job", 0, 1'000'000'000));
  auto problems = validate(map);
  if (!problems.empty()) throw InputError(source + ": invalid allocation map: " + problems.front());
  return map;
}

namespace {

// ---- command-line arguments ----

struct Arguments {
  std::string command;
  std::map<std::string, std::string> values; // the options given, by name

  bool has(const std::string& option) const { return values.count(option) > 0; }
  const std::string& get(const std::string& option) const { return values.at(option); }
  std::string get_or(const std::string& option, const std::string& fallback) const
  {
    return has(option) ? get(option) : fallback;
  }
};

std::vector<std::string> split(const std::string& text)
{
  std::vector<std::string> items;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, ','))
    items.push_back(item);
  if (!text.empty() && text.back() == ',') items.push_back("");
  return items;
}

/* parse(value of `option`), its InputError prefixed with the option's name. */
template <class Parse>
auto option_value(const Arguments& a, const std::string& option, const std::string& fallback, Parse parse)
{
  try {
    return parse(a.get_or(option, fallback));
  } catch (const InputError& e) {
    throw InputError(option + ": " + e.what());
  }
}

constexpr long long kMostProcessors = 10'000;
constexpr long long kMostVps = 1'000'000;

struct Machine {
  std::vector<Rational> capacities;
  std::vector<std::string> archs;
  bool archs_given = false;
};

Machine read_machine(const Arguments& a)
{
  if (!a.has("--capacities")) throw InputError("plan " + a.command + ": --capacities A1,A2,... is required");
  Machine m;
  for (const auto& item : split(a.get("--capacities")))
    m.capacities.push_back(parse_capacity(item, "--capacities"));
  if (m.capacities.empty()) throw InputError("--capacities: expected A1,A2,... (at least one processor)");
  if (static_cast<long long>(m.capacities.size()) > kMostProcessors)
    throw InputError("--capacities: more than 10000 processors");
  if (a.has("--archs")) {
    m.archs = split(a.get("--archs"));
    m.archs_given = true;
    if (m.archs.size() != m.capacities.size())
      throw InputError("--archs: " + std::to_string(m.archs.size()) + " architectures for " +
                       std::to_string(m.capacities.size()) + " capacities");
    for (const auto& z : m.archs)
      if (z.empty() || z.find('=') != std::string::npos)
        throw InputError("--archs: '" + z + "' is not an architecture name");
  } else {
    m.archs.assign(m.capacities.size(), "any");
  }
  return m;
}

/* --vps X (one architecture: "any", or the only one --archs names) or --vps Z=X,... */
VpCounts read_vps(const Arguments& a, const std::set<std::string>& known_archs)
{
  const std::string& text = a.get("--vps");
  VpCounts out;
  if (text.find('=') == std::string::npos) {
    if (known_archs.size() != 1)
      throw InputError("--vps: the processors have several architectures: give Z=X,... per architecture");
    out[*known_archs.begin()] = static_cast<int>(parse_whole("--vps", text, 1, kMostVps));
    return out;
  }
  long long total = 0;
  for (const auto& item : split(text)) {
    auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0) throw InputError("--vps: '" + item + "' is not ARCH=COUNT");
    std::string arch = item.substr(0, eq);
    if (out.count(arch)) throw InputError("--vps: architecture '" + arch + "' is given twice");
    if (!known_archs.count(arch)) throw InputError("--vps: no processor has architecture '" + arch + "'");
    out[arch] = static_cast<int>(parse_whole("--vps", item.substr(eq + 1), 0, kMostVps));
    total += out[arch];
  }
  if (total < 1 || total > kMostVps) throw InputError("--vps: the job needs 1 to 1000000 VPs in all");
  return out;
}

std::set<std::string> arch_set(const std::vector<std::string>& archs)
{
  return std::set<std::string>(archs.begin(), archs.end());
}

void put_machine(Json& out, const Machine& m)
{
  Json capacities = Json::array();
  for (const auto& a : m.capacities)
    capacities.push_back(exact(a));
  out["capacities"] = capacities;
  out["archs"] = m.archs;
}

int mtat_command(const Arguments& a)
{
  Machine m = read_machine(a);
  if (!a.has("--vps")) throw InputError("plan mtat: --vps X is required");
  VpCounts demand = read_vps(a, arch_set(m.archs));
  MtatVariant variant = option_value(a, "--variant", "optimal", parse_mtat_variant);
  PooledMtatResult r = pooled_mtat(demand, m.capacities, m.archs, variant);
  std::vector<Rational> completion;
  for (size_t i = 0; i < m.capacities.size(); i++)
    completion.push_back(Rational(r.vps[i]) / m.capacities[i]);
  Json out;
  out["command"] = "mtat";
  out["variant"] = mtat_variant_name(variant);
  out["vps"] = vp_counts(demand);
  put_machine(out, m);
  out["turnaround"] = fraction(r.turnaround);
  out["turnaround_decimal"] = decimal(r.turnaround);
  out["allocation"] = r.vps;
  out["completion_times"] = fractions(completion);
  Json pools = Json::array();
  for (const auto& [arch, count] : demand) {
    if (count == 0) continue;
    auto pool = pool_of(m.archs, arch);
    std::vector<Rational> capacities;
    std::vector<int> processors;
    for (size_t i : pool) {
      capacities.push_back(m.capacities[i]);
      processors.push_back(static_cast<int>(i));
    }
    MtatResult p = mtat(count, capacities, variant);
    Json entry{{"arch", arch},
               {"vps", count},
               {"processors", processors},
               {"alpha", fraction(p.alpha)},
               {"turnaround", fraction(p.turnaround)},
               {"allocation", p.vps}};
    if (variant == MtatVariant::paper) {
      entry["ideal"] = fractions(p.ideal);
      entry["floors"] = p.floors;
      entry["diff"] = p.diff;
      entry["drags"] = fractions(p.drags);
    }
    pools.push_back(entry);
  }
  out["pools"] = pools;
  std::fputs(json_text(out).c_str(), stdout);
  return 0;
}

int compress_command(const Arguments& a)
{
  Machine m = read_machine(a);
  if (!a.has("--vps")) throw InputError("plan compress: --vps X is required");
  VpCounts demand = read_vps(a, arch_set(m.archs));
  CompressionVariant variant = option_value(a, "--variant", "exact", parse_compression_variant);
  MtatVariant mtat_variant = option_value(a, "--mtat", "optimal", parse_mtat_variant);
  PoolTarget target = option_value(a, "--pool-target", "common", parse_pool_target);
  PooledMtatResult before = pooled_mtat(demand, m.capacities, m.archs, mtat_variant);
  PooledCompressionResult after =
      compress_pools(before.vps, m.capacities, m.archs, before.pool_turnarounds, target, variant);
  std::vector<int> kept;
  std::vector<int> freed;
  for (size_t i = 0; i < m.capacities.size(); i++) {
    if (after.vps[i] > 0) kept.push_back(static_cast<int>(i));
    if (before.vps[i] > 0 && after.vps[i] == 0) freed.push_back(static_cast<int>(i));
  }
  Json out;
  out["command"] = "compress";
  out["variant"] = compression_variant_name(variant);
  out["mtat"] = mtat_variant_name(mtat_variant);
  out["pool_target"] = pool_target_name(target);
  out["vps"] = vp_counts(demand);
  put_machine(out, m);
  out["mtat_turnaround"] = fraction(before.turnaround);
  out["mtat_allocation"] = before.vps;
  out["turnaround"] = fraction(after.turnaround);
  out["turnaround_decimal"] = decimal(after.turnaround);
  out["allocation"] = after.vps;
  out["processors_kept"] = kept;
  out["processors_freed"] = freed;
  Json pools = Json::array();
  for (const auto& [arch, pool_target] : after.pool_targets) {
    std::vector<int> processors;
    std::vector<int> bounds;
    for (size_t i : pool_of(m.archs, arch)) {
      processors.push_back(static_cast<int>(i));
      bounds.push_back(static_cast<int>(floor_of(pool_target * m.capacities[i])));
    }
    pools.push_back(Json{{"arch", arch},
                         {"mtat_turnaround", fraction(before.pool_turnarounds.at(arch))},
                         {"target", fraction(pool_target)},
                         {"processors", processors},
                         {"bounds", bounds}});
  }
  out["pools"] = pools;
  std::fputs(json_text(out).c_str(), stdout);
  return 0;
}

std::string read_file(const std::string& path)
{
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("--map: cannot read '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError("--map: cannot read '" + path + "'");
  return text.str();
}

Json pattern_document(const AllocationMap& map, const Pattern& p)
{
  return Json{{"processors", names(map, p.processors)}, {"slices", p.slices}, {"size", fraction(p.size)}};
}

int expand_command(const Arguments& a)
{
  if (!a.has("--map")) throw InputError("plan expand: --map FILE.json is required");
  const std::string path = a.get("--map");
  AllocationMap map = read_map_json(read_file(path), path);
  SchedulerOptions options;
  options.expansion = option_value(a, "--search", "column", parse_expansion_search);
  options.max_exhaustive_slices = static_cast<int>(parse_whole("--max-slices", a.get_or("--max-slices", "20"), 1, 30));
  options.new_slice_rule = option_value(a, "--rule", "turnaround", parse_new_slice_rule);
  options.allocation.mtat = option_value(a, "--mtat", "optimal", parse_mtat_variant);
  options.allocation.compression = option_value(a, "--compression", "exact", parse_compression_variant);
  options.allocation.pool_target = option_value(a, "--pool-target", "common", parse_pool_target);
  if (!a.has("--vps"))
    for (const char* option : {"--job", "--rule", "--mtat", "--compression", "--pool-target"})
      if (a.has(option)) throw InputError(std::string(option) + " applies to a submission: give --vps too");
  VpCounts every_arch;
  for (const auto& p : map.processors)
    every_arch[p.arch] = 1;
  Pattern pattern = find_free_pattern(map, every_arch, kFreeEntry, options);
  Json out;
  out["command"] = "expand";
  out["search"] = expansion_search_name(options.expansion);
  out["slices"] = map.slices.size();
  out["free_entries"] = map.free_entries();
  out["pattern"] = pattern_document(map, pattern);
  if (a.has("--vps")) {
    std::set<std::string> archs;
    for (const auto& p : map.processors)
      archs.insert(p.arch);
    if (archs.empty()) archs.insert("any");
    VpCounts demand = read_vps(a, archs);
    JobId largest = -1;
    for (const auto& j : map.jobs)
      largest = std::max(largest, j.id);
    const JobId id = a.has("--job") ? parse_whole("--job", a.get("--job"), 0, kLargestJobId) : largest + 1;
    if (map.job(id)) throw InputError("--job: job " + std::to_string(id) + " is already in the map");
    EventResult r = submit_job(map, id, demand, options);
    const PlacementDecision& d = r.placements.front();
    Json allocation = Json::array();
    for (const VpCount& c : r.placed)
      allocation.push_back(Json{{"processor", c.processor}, {"vps", c.vps}});
    Json submission;
    submission["job"] = id;
    submission["vps"] = vp_counts(demand);
    submission["rule"] = new_slice_rule_name(options.new_slice_rule);
    submission["mtat"] = mtat_variant_name(options.allocation.mtat);
    submission["compression"] = compression_variant_name(options.allocation.compression);
    submission["pool_target"] = pool_target_name(options.allocation.pool_target);
    submission["new_slice_turnaround"] = fraction(d.new_slice_turnaround);
    submission["pattern"] = pattern_document(map, d.pattern);
    submission["free_turnaround"] = d.free_turnaround ? fraction(*d.free_turnaround) : Json(nullptr);
    submission["uses_free_space"] = d.uses_free_space;
    submission["waits"] = d.waits;
    submission["slices"] = d.slices;
    submission["turnaround"] = fraction(d.turnaround);
    submission["allocation"] = allocation;
    out["submission"] = submission;
    out["map"] = map_document(r.map);
  }
  std::fputs(json_text(out).c_str(), stdout);
  return 0;
}

} // namespace

void add_gang_plan_commands(CommandLine& cli, CLI::App& plan)
{
  const std::map<std::string, std::vector<std::string>> options{
      {"mtat", {"--capacities", "--archs", "--vps", "--variant"}},
      {"compress", {"--capacities", "--archs", "--vps", "--variant", "--mtat", "--pool-target"}},
      {"expand",
       {"--map", "--search", "--max-slices", "--vps", "--job", "--rule", "--mtat", "--compression", "--pool-target"}}};
  for (const auto& [name, names] : options) {
    // Every option is text, read by the command itself: Arguments keeps those given.
    auto values = std::make_shared<std::map<std::string, std::string>>();
    CLI::App* command = cli.add_command(plan, name, kGangPlanUsage, [name, values](const CLI::App& parsed) {
      Arguments a;
      a.command = name;
      for (const auto& [option, value] : *values)
        if (parsed.count(option) > 0) a.values[option] = value;
      if (name == "mtat") return mtat_command(a);
      if (name == "compress") return compress_command(a);
      return expand_command(a);
    });
    for (const auto& option : names)
      command->add_option(option, (*values)[option]);
  }
}

} // namespace jobsched::gang_now
