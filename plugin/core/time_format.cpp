#include "core/time_format.hpp"

#include <cmath>
#include <cstdio>

namespace jobsched {

std::string format_number(double value)
{
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", value);
  std::string s(buf);
  while (!s.empty() && s.back() == '0')
    s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

} // namespace jobsched
