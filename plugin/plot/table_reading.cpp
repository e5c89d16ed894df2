/* Reading what runs and sweeps wrote: numbers in CSV cells, whole files. */
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

} // namespace jobsched::plot
