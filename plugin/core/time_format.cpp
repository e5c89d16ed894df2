#include "core/time_format.hpp"

#include <charconv>
#include <cmath>

namespace jobsched {

std::string format_number(double value)
{
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  // std::to_chars with a precision prints exactly what printf's "%.6f" does, several times faster.
  char buf[400];
  auto end = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, 6).ptr;
  std::string s(buf, end);
  while (!s.empty() && s.back() == '0')
    s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

std::string format_exact(double value)
{
  char buf[64];
  auto end = std::to_chars(buf, buf + sizeof buf, value).ptr;
  return std::string(buf, end);
}

} // namespace jobsched
