/* The checks of platform_values.hpp: a small reader of XML start tags, and the rules for values and profiles. */
#include "platform/platform_values.hpp"

#include "core/errors.hpp"
#include "core/input_file.hpp"

#include <xbt/parse_units.hpp>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>
#include <sstream>

namespace jobsched {

namespace {

bool is_space(char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool is_name_char(char c)
{
  return !is_space(c) && c != '=' && c != '>' && c != '/' && c != '<' && c != '"' && c != '\'';
}

/* &lt; &gt; &amp; &quot; &apos; and character references; anything else is kept as written. */
std::string decode_entities(const std::string& raw)
{
  std::string out;
  for (size_t i = 0; i < raw.size(); ++i) {
    size_t end = raw[i] == '&' ? raw.find(';', i) : std::string::npos;
    if (end == std::string::npos) {
      out += raw[i];
      continue;
    }
    const std::string entity = raw.substr(i + 1, end - i - 1);
    static const std::map<std::string, char> named{
        {"lt", '<'}, {"gt", '>'}, {"amp", '&'}, {"quot", '"'}, {"apos", '\''}};
    if (auto it = named.find(entity); it != named.end()) {
      out += it->second;
    } else if (entity.size() > 1 && entity[0] == '#') {
      const bool hex = entity[1] == 'x';
      const long code = std::strtol(entity.c_str() + (hex ? 2 : 1), nullptr, hex ? 16 : 10);
      if (code <= 0 || code > 127) { // numbers and units are ASCII: other characters are kept as written
        out += raw.substr(i, end - i + 1);
      } else {
        out += static_cast<char>(code);
      }
    } else {
      out += raw.substr(i, end - i + 1);
    }
    i = end;
  }
  return out;
}

/* A profile line's number: the whole field, as std::strtod reads it (SimGrid's std::stod ignores what follows one, and
 * aborts the run on a number out of a double's range). */
bool read_number(const std::string& field, double& value)
{
  if (field.empty()) return false;
  char* end = nullptr;
  errno = 0;
  value = std::strtod(field.c_str(), &end);
  return end == field.c_str() + field.size() && errno != ERANGE;
}

/* The number after `keyword` at the start of `line`, as SimGrid's sscanf("KEYWORD %lg") reads it: spaces between them
 * optional, what follows the number ignored. False when the line does not read so. */
bool read_keyword_number(const std::string& line, const std::string& keyword, double& value)
{
  if (line.rfind(keyword, 0) != 0) return false;
  const char* start = line.c_str() + keyword.size();
  char* end = nullptr;
  value = std::strtod(start, &end);
  return end != start;
}

std::string element_label(const XmlElement& e)
{
  auto id = e.attributes.find("id");
  return "line " + std::to_string(e.line) + ": " + e.name + (id != e.attributes.end() ? " '" + id->second + "'" : "");
}

const char* kind_word(ProfileKind kind)
{
  switch (kind) {
  case ProfileKind::kSpeed:
    return "speed";
  case ProfileKind::kBandwidth:
    return "bandwidth";
  case ProfileKind::kLatency:
    return "latency";
  case ProfileKind::kState:
    return "state";
  }
  return "";
}

/* Why `value` cannot be a `kind` profile's value; "" when it can. */
std::string value_problem(double value, ProfileKind kind)
{
  switch (kind) {
  case ProfileKind::kSpeed: // a factor of the host's speed: 0 is an owner taking all of it
    return std::isfinite(value) && value >= 0 ? "" : "a speed factor must be finite and 0 or more";
  case ProfileKind::kBandwidth: // the link's bandwidth itself, in bytes per second: at 0 a link's messages wait for it
    return std::isfinite(value) && value >= 0 ? "" : "a bandwidth must be finite and 0 or more";
  case ProfileKind::kLatency: // the link's latency itself, in seconds
    return std::isfinite(value) && value >= 0 ? "" : "a latency must be finite and 0 or more";
  case ProfileKind::kState: // SimGrid turns the resource on for a value above 0, off otherwise
    return value == 0 || value == 1 ? "" : "a state must be 0 (off) or 1 (on)";
  }
  return "";
}

std::string format_number(double v)
{
  std::ostringstream out;
  out << v;
  return out.str();
}

/* Where SimGrid 3.32 opens a profile file (surf_ifsopen): a relative name in the folders of its search path in order:
 * the working folder ("./", the path option's default), each --cfg=path:DIR, then the platform file's folder. (An
 * absolute name is refused before: check_profile_files.) */
std::filesystem::path resolve_profile(const std::filesystem::path& platform,
                                      const std::vector<std::string>& search_path, const std::string& name)
{
  std::filesystem::path p(name);
  std::error_code ec;
  std::vector<std::filesystem::path> folders{"."};
  folders.insert(folders.end(), search_path.begin(), search_path.end());
  folders.push_back(platform.parent_path().empty() ? std::filesystem::path(".") : platform.parent_path());
  for (const auto& folder : folders)
    if (std::filesystem::is_regular_file(folder / p, ec)) return folder / p;
  return {};
}

void check_profile_file(const std::filesystem::path& platform, const std::vector<std::string>& search_path,
                        const std::string& name, ProfileKind kind)
{
  const std::filesystem::path path = resolve_profile(platform, search_path, name);
  if (path.empty()) return; // SimGrid names a missing file
  check_profile_text(name, file_text(path), kind); // unopenable: "", no event to refuse (SimGrid names it)
}

} // namespace

std::vector<XmlElement> read_platform_elements(const std::string& text)
{
  std::vector<XmlElement> elements;
  int line = 1;
  size_t i = 0;
  auto advance_to = [&](size_t to) { // moves i to `to`, counting lines
    for (; i < to && i < text.size(); ++i)
      if (text[i] == '\n') ++line;
  };
  auto skip_past = [&](const char* closing) { // false when the file ends first
    size_t end = text.find(closing, i);
    if (end == std::string::npos) return false;
    advance_to(end + std::char_traits<char>::length(closing));
    return true;
  };
  while (i < text.size()) {
    size_t open = text.find('<', i);
    if (open == std::string::npos) break;
    advance_to(open);
    if (text.compare(i, 4, "<!--") == 0) {
      if (!skip_past("-->")) break;
    } else if (text.compare(i, 9, "<![CDATA[") == 0) {
      if (!skip_past("]]>")) break;
    } else if (text.compare(i, 2, "<?") == 0) {
      if (!skip_past("?>")) break;
    } else if (text.compare(i, 2, "<!") == 0) { // the DOCTYPE, perhaps with an internal subset in brackets
      size_t close = text.find('>', i);
      size_t bracket = text.find('[', i);
      if (bracket != std::string::npos && bracket < close) {
        advance_to(bracket);
        if (!skip_past("]")) break;
      }
      if (!skip_past(">")) break;
    } else if (text.compare(i, 2, "</") == 0) {
      if (!skip_past(">")) break;
    } else {
      XmlElement e;
      e.line = line;
      advance_to(i + 1);
      size_t start = i;
      while (i < text.size() && is_name_char(text[i]))
        ++i;
      e.name = text.substr(start, i - start);
      if (e.name.empty()) break;
      bool closed = false;
      while (i < text.size()) {
        while (i < text.size() && is_space(text[i]))
          advance_to(i + 1);
        if (i >= text.size()) break;
        if (text[i] == '>' || text.compare(i, 2, "/>") == 0) {
          advance_to(text[i] == '>' ? i + 1 : i + 2);
          closed = true;
          break;
        }
        start = i;
        while (i < text.size() && is_name_char(text[i]))
          ++i;
        const std::string key = text.substr(start, i - start);
        while (i < text.size() && is_space(text[i]))
          advance_to(i + 1);
        if (key.empty() || i >= text.size() || text[i] != '=') break;
        ++i;
        while (i < text.size() && is_space(text[i]))
          advance_to(i + 1);
        if (i >= text.size() || (text[i] != '"' && text[i] != '\'')) break;
        const char quote = text[i];
        size_t end = text.find(quote, i + 1);
        if (end == std::string::npos) break;
        e.attributes[key] = decode_entities(text.substr(i + 1, end - i - 1));
        advance_to(end + 1);
      }
      if (!closed) break;
      elements.push_back(std::move(e));
    }
  }
  return elements;
}

void check_cluster_links(const std::filesystem::path& platform, const std::vector<XmlElement>& elements)
{
  // SimGrid makes each of these links only when its bandwidth (or latency) is above 0, and otherwise leaves it out.
  static const std::vector<std::string> bandwidths{"bb_bw", "loopback_bw", "limiter_link"};
  static const std::vector<std::string> latencies{"bb_lat", "loopback_lat"};
  const std::string file = platform.string();
  for (const auto& e : elements) {
    if (e.name != "cluster") continue;
    for (const auto& key : bandwidths) {
      auto a = e.attributes.find(key);
      if (a == e.attributes.end() || a->second.empty()) continue;
      const double bw = xbt_parse_get_bandwidth(file, e.line, a->second, key + " of cluster");
      if (!(std::isfinite(bw) && bw > 0))
        throw InputError(element_label(e) + ": " + key + "=" + quoted_value(a->second) +
                         " is not a bandwidth above 0 and finite");
    }
    for (const auto& key : latencies) {
      auto a = e.attributes.find(key);
      if (a == e.attributes.end() || a->second.empty()) continue;
      const double lat = xbt_parse_get_time(file, e.line, a->second, key + " of cluster");
      if (!(std::isfinite(lat) && lat >= 0))
        throw InputError(element_label(e) + ": " + key + "=" + quoted_value(a->second) +
                         " is not a latency of 0 or more and finite");
    }
  }
}

void check_core_counts(const std::vector<XmlElement>& elements)
{
  for (const auto& e : elements) {
    if (e.name != "host" && e.name != "cluster") continue;
    auto core = e.attributes.find("core");
    if (core == e.attributes.end()) continue;
    const std::string& text = core->second;
    const size_t first = text.find_first_not_of(" \t\n\r");
    const size_t last = text.find_last_not_of(" \t\n\r");
    long long count = 0;
    const char* end = nullptr;
    if (first != std::string::npos) {
      const auto [ptr, error] = std::from_chars(text.data() + first, text.data() + last + 1, count);
      end = error == std::errc() ? ptr : nullptr;
    }
    if (end != text.data() + last + 1 || count < 1 || count > std::numeric_limits<int>::max())
      throw InputError(element_label(e) + ": core=" + quoted_value(text) +
                       " is not a number of cores (a whole number from 1 to 2147483647)");
  }
}

void check_profile_files(const std::filesystem::path& platform, const std::vector<XmlElement>& elements,
                         const std::vector<std::string>& search_path)
{
  static const std::map<std::string, ProfileKind> file_keys{{"speed_file", ProfileKind::kSpeed},
                                                            {"availability_file", ProfileKind::kSpeed},
                                                            {"state_file", ProfileKind::kState},
                                                            {"bandwidth_file", ProfileKind::kBandwidth},
                                                            {"latency_file", ProfileKind::kLatency}};
  static const std::map<std::string, ProfileKind> connect_kinds{{"HOST_AVAIL", ProfileKind::kState},
                                                                {"SPEED", ProfileKind::kSpeed},
                                                                {"LINK_AVAIL", ProfileKind::kState},
                                                                {"BANDWIDTH", ProfileKind::kBandwidth},
                                                                {"LATENCY", ProfileKind::kLatency}};
  std::map<std::string, std::string> trace_files; // <trace id=... file=...>: its file, checked when connected
  // SimGrid 3.32 names each profile it reads by its file name as written (an inline <trace> by its id), and aborts on
  // a second profile of the same name ("Refusing to define trace p.txt twice", with no line): the first use of each.
  std::map<std::string, std::string> first_use;
  auto define = [&first_use](const std::string& name, const std::string& use) {
    auto [first, fresh] = first_use.try_emplace(name, use);
    if (!fresh)
      throw InputError(quoted_value(name) + " is read twice, by " + first->second + " and by " + use +
                       ": SimGrid 3.32 reads a profile file once (connect one <trace> to several resources with "
                       "<trace_connect>, or give each use its own file)");
  };
  // surf_ifsopen opens an absolute name, then opens it again along the search path on the same stream, which fails
  // and leaves the stream failed: SimGrid 3.32 reads no profile given by an absolute name ("Cannot open file").
  auto require_relative = [](const std::string& name, const std::string& use) {
    if (std::filesystem::path(name).is_absolute())
      throw InputError(use + ": " + quoted_value(name) + ": SimGrid 3.32 cannot open a profile file by an absolute " +
                       "name; give it relative to the platform's folder (or to a folder given as --cfg=path:DIR)");
  };
  for (const auto& e : elements) {
    if (e.name == "host" || e.name == "peer" || e.name == "link") {
      for (const auto& [key, kind] : file_keys)
        if (auto a = e.attributes.find(key); a != e.attributes.end() && !a->second.empty()) {
          const std::string use = element_label(e) + " (" + key + ")";
          require_relative(a->second, use);
          check_profile_file(platform, search_path, a->second, kind);
          define(a->second, use);
        }
    } else if (e.name == "trace") {
      auto id = e.attributes.find("id");
      auto file = e.attributes.find("file");
      const bool from_file = file != e.attributes.end() && !file->second.empty();
      if (from_file) require_relative(file->second, element_label(e) + " (file)");
      if (from_file || id != e.attributes.end()) define(from_file ? file->second : id->second, element_label(e));
      if (id != e.attributes.end() && from_file) trace_files[id->second] = file->second;
    } else if (e.name == "trace_connect") {
      auto trace = e.attributes.find("trace");
      auto kind = e.attributes.find("kind");
      auto connected = connect_kinds.find(kind == e.attributes.end() ? "HOST_AVAIL" : kind->second);
      if (trace == e.attributes.end() || connected == connect_kinds.end()) continue;
      if (auto file = trace_files.find(trace->second); file != trace_files.end())
        check_profile_file(platform, search_path, file->second, connected->second);
    }
  }
}

void check_profile_text(const std::string& name, const std::string& text, ProfileKind kind)
{
  static const std::set<std::string> laws{"DET", "NORM",        "NORMAL", "GAUSS",  "GAUSSIAN",
                                          "EXP", "EXPONENTIAL", "UNIF",   "UNIFORM"};
  int line_number = 0;
  int events = 0;
  double last_date = 0;
  double periodicity = -1; // PERIODICITY: the length of one round (SimGrid: 0 or less is a round of the last date)
  double loop_after = 0;   // LOOPAFTER: the time from the last date to the next round
  bool loops = false;      // either was given: the events repeat
  // SimGrid splits the text at every '\n' or '\r' and trims each piece; lines are counted as an editor does.
  for (size_t begin = 0; begin < text.size();) {
    size_t end = text.find_first_of("\r\n", begin);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(begin, end - begin);
    begin = end + (text.compare(end, 2, "\r\n") == 0 ? 2 : 1);
    ++line_number;
    const size_t first = line.find_first_not_of(" \t\v\f");
    if (first == std::string::npos || line[first] == '#' || line[first] == '%') continue;
    line = line.substr(first, line.find_last_not_of(" \t\v\f") + 1 - first);
    const std::string where = name + ":" + std::to_string(line_number) + ": ";
    if (line == "STOCHASTIC" || line == "STOCHASTIC LOOP") return; // values drawn at random: left to SimGrid
    double v = 0;
    for (const char* keyword : {"PERIODICITY", "LOOPAFTER"}) {
      if (line.rfind(keyword, 0) != 0) continue;
      if (!read_keyword_number(line, keyword, v) || !std::isfinite(v) || v < 0)
        throw InputError(where + keyword + " takes one number of seconds, finite and 0 or more");
      (keyword[0] == 'P' ? periodicity : loop_after) = v;
      loops = true;
      break;
    }
    if (line.rfind("PERIODICITY", 0) == 0 || line.rfind("LOOPAFTER", 0) == 0) continue;
    std::istringstream words(line);
    std::vector<std::string> fields;
    for (std::string w; words >> w;)
      fields.push_back(w);
    if (laws.count(fields[0]) != 0 || (fields.size() > 1 && laws.count(fields[1]) != 0))
      return; // a law (NORM, UNIF...) draws values at random: left to SimGrid
    // SimGrid reads the first two fields and ignores the rest: a comment ('#' to the line's end) after them is taken.
    for (size_t f = 0; f < fields.size(); f++)
      if (const size_t hash = fields[f].find('#'); hash != std::string::npos) {
        fields.resize(hash == 0 ? f : f + 1);
        if (hash > 0) fields.back().resize(hash);
        break;
      }
    if (fields.size() != 2)
      throw InputError(where + std::to_string(fields.size()) + (fields.size() == 1 ? " field" : " fields") +
                       ": a profile line is a date and a " + kind_word(kind) + " value");
    double date = 0;
    double value = 0;
    if (!read_number(fields[0], date) || !std::isfinite(date) || date < 0)
      throw InputError(where + "date " + quoted_value(fields[0]) + " is not a number of seconds, finite and 0 or more");
    if (date < last_date)
      throw InputError(where + "date " + format_number(date) + " comes before the previous line's " +
                       format_number(last_date) + ": the dates must not decrease");
    if (!read_number(fields[1], value)) throw InputError(where + quoted_value(fields[1]) + " is not a number");
    if (std::string problem = value_problem(value, kind); !problem.empty())
      throw InputError(where + problem + ", not " + fields[1]);
    last_date = date;
    ++events;
  }
  // SimGrid's own assertions on a repeating profile, and a round of 0 s, which would repeat its events forever at one
  // date.
  if (periodicity > 0 && loop_after != 0)
    throw InputError(name + ": PERIODICITY " + format_number(periodicity) + " with LOOPAFTER " +
                     format_number(loop_after) + " (SimGrid takes one or the other; LOOPAFTER 0 only with it)");
  if (periodicity > 0 && periodicity < last_date)
    throw InputError(name + ": PERIODICITY " + format_number(periodicity) + " must be at least the last date, " +
                     format_number(last_date));
  if (loops && events > 0 && !(periodicity > 0) && !(last_date + loop_after > 0))
    throw InputError(name + ": a round of 0 s (events all at date 0, LOOPAFTER 0) would repeat them forever");
}

} // namespace jobsched
