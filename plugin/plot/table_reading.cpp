/* Reading what runs and sweeps wrote: numbers in CSV cells, fields of summary.json, whole files. */
#include "plot/figures.hpp"

#include "core/errors.hpp"

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
// Tables

std::optional<double> parse_number(const std::string& text)
{
  size_t b = text.find_first_not_of(" \t");
  size_t e = text.find_last_not_of(" \t");
  if (b == std::string::npos) return std::nullopt;
  std::string s = text.substr(b, e - b + 1);
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
  return v;
}

double number_at(const Table& t, size_t row, size_t col)
{
  auto v = parse_number(t.rows[row][col]);
  if (!v) throw InputError(t.where(row) + ": " + t.header[col] + " '" + t.rows[row][col] + "' is not a number");
  return *v;
}

std::string join(const std::vector<std::string>& items, const std::string& sep)
{
  std::string out;
  for (const auto& s : items)
    out += (out.empty() ? "" : sep) + s;
  return out;
}

/* A flat field of a JSON object as text (strings unquoted, simple escapes undone); nullopt when absent. Enough for
 * summary.json, whose fields we look up are top-level scalars. */
std::optional<std::string> json_field(const std::string& json, const std::string& key)
{
  std::string quoted = "\"" + key + "\"";
  for (size_t pos = json.find(quoted); pos != std::string::npos; pos = json.find(quoted, pos + 1)) {
    size_t i = json.find_first_not_of(" \t\r\n", pos + quoted.size());
    if (i == std::string::npos || json[i] != ':') continue;
    i = json.find_first_not_of(" \t\r\n", i + 1);
    if (i == std::string::npos) return std::nullopt;
    if (json[i] == '"') {
      std::string out;
      for (size_t j = i + 1; j < json.size() && json[j] != '"'; j++) {
        if (json[j] == '\\' && j + 1 < json.size()) j++;
        out += json[j];
      }
      return out;
    }
    size_t end = json.find_first_of(",}\r\n", i);
    std::string raw = json.substr(i, end == std::string::npos ? std::string::npos : end - i);
    while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\t'))
      raw.pop_back();
    return raw;
  }
  return std::nullopt;
}

} // namespace jobsched::plot
