#include "core/json.hpp"

#include "core/errors.hpp"
#include "core/time_format.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace jobsched {

Json json_number(double value)
{
  if (!std::isfinite(value)) return nullptr;
  // The text FormattedNumber writes in CSV files, read back: the same rounding in every output file.
  return json_decimal(FormattedNumber(value).view());
}

Json json_decimal(std::string_view text)
{
  const char* end = text.data() + text.size();
  long long whole = 0;
  if (auto [ptr, ec] = std::from_chars(text.data(), end, whole); ec == std::errc() && ptr == end) return whole;
  double value = 0;
  if (auto [ptr, ec] = std::from_chars(text.data(), end, value); ec != std::errc() || ptr != end)
    throw std::invalid_argument("json_decimal: '" + std::string(text) + "' is not a decimal number");
  return value;
}

namespace {

constexpr size_t kColumns = 120;

/* A scalar as nlohmann writes it (a string escaped, an integer, true, null), but a double in fixed notation: nlohmann
 * would write 0.00005 as 5e-05, where jobs.csv and every summary before it wrote 0.00005. Both are the shortest text
 * that reads back to the same double. */
std::string scalar_text(const Json& value)
{
  if (value.is_number_float()) {
    const double v = value.get<double>();
    if (!std::isfinite(v)) return "null"; // as nlohmann writes it
    char buf[400]; // the longest fixed text of a double: DBL_MAX has 309 digits, 5e-324 is 0. and 324 decimals
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed).ptr);
  }
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string one_line(const Json& value)
{
  if (!value.is_structured()) return scalar_text(value);
  const bool object = value.is_object();
  std::string out = object ? "{" : "[";
  for (auto it = value.begin(); it != value.end(); ++it) {
    if (it != value.begin()) out += ", ";
    if (object) out += scalar_text(Json(it.key())) + ": ";
    out += one_line(it.value());
  }
  return out + (object ? "}" : "]");
}

/* 0 for a scalar, 1 for a container of scalars, 2 for a container of those... */
int height(const Json& value)
{
  int most = 0;
  if (value.is_structured())
    for (const auto& member : value)
      most = std::max(most, height(member));
  return value.is_structured() ? most + 1 : 0;
}

/* A list of records is written one record per line when it does not fit on one; a record (an object whose values are
 * at most lists or records of scalars: a job, a piece of a schedule, a row of a table) or a list of scalars is never
 * broken. */
bool may_break(const Json& value)
{
  return value.is_array() ? height(value) >= 2 : height(value) >= 3;
}

/* `value` at `column` of a line whose members are indented by `indent`. */
void write(std::string& out, const Json& value, size_t indent, size_t column)
{
  if (!value.is_structured() || value.empty()) {
    out += one_line(value);
    return;
  }
  if (indent > 0) {
    std::string line = one_line(value);
    if (!may_break(value) || column + line.size() + 1 <= kColumns) { // + 1: the comma that may follow
      out += line;
      return;
    }
  }
  const bool object = value.is_object();
  const std::string pad(indent + 2, ' ');
  out += object ? "{" : "[";
  for (auto it = value.begin(); it != value.end(); ++it) {
    out += it == value.begin() ? "\n" : ",\n";
    out += pad;
    std::string head = object ? scalar_text(Json(it.key())) + ": " : "";
    out += head;
    write(out, it.value(), indent + 2, pad.size() + head.size());
  }
  out += "\n" + std::string(indent, ' ') + (object ? "}" : "]");
}

} // namespace

std::string json_text(const Json& document)
{
  std::string out;
  write(out, document, 0, 0);
  return out + "\n";
}

Json parse_json(const std::string& text, const std::string& source)
{
  // nlohmann keeps the last of two equal keys without a word: the callback refuses them instead.
  std::vector<std::set<std::string>> keys; // of each object being read
  auto refuse_duplicates = [&](int, Json::parse_event_t event, Json& parsed) {
    if (event == Json::parse_event_t::object_start) {
      keys.emplace_back();
    } else if (event == Json::parse_event_t::object_end) {
      keys.pop_back();
    } else if (event == Json::parse_event_t::key) {
      const auto& key = parsed.get_ref<const std::string&>();
      if (!keys.back().insert(key).second)
        throw InputError(source + ": malformed JSON: the key " + scalar_text(parsed) + " is given twice in an object");
    }
    return true;
  };
  try {
    return Json::parse(text, refuse_duplicates);
  } catch (const Json::exception& e) {
    // "[json.exception.parse_error.101] parse error at line 1, column 5: ..." (or out_of_range.406, a number too
    // large for a double): the part after the bracket.
    std::string what = e.what();
    size_t bracket = what.find("] ");
    throw InputError(source + ": malformed JSON: " + (bracket == std::string::npos ? what : what.substr(bracket + 2)));
  }
}

Json read_json_file(const std::filesystem::path& file)
{
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in || in.bad()) throw InputError(file.string() + ": cannot read");
  return parse_json(text.str(), file.string());
}

} // namespace jobsched
