#include "core/time_format.hpp"

#include <charconv>
#include <cmath>
#include <cstring>

namespace jobsched {

char* write_number(char* out, double value)
{
  char* const limit = out + kNumberTextMax;
  auto put = [out](const char* s) {
    const size_t length = std::strlen(s);
    std::memcpy(out, s, length);
    return out + length;
  };
  if (!std::isfinite(value)) return put(std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf");
  // Whole numbers (most times in a trace) as integers: the same text, without the fixed-point conversion.
  if (std::abs(value) < 9.0e15 && value == std::trunc(value))
    return std::to_chars(out, limit, static_cast<long long>(value)).ptr;
  // Below 10^8, value x 10^6 rounded to an integer gives the six decimals directly, unless the product sits near a
  // half: its rounding error is under 2^-13 below a million (a margin of 10^-3 is safe there) and under 2^-7 below
  // 2^27 (a margin of 2^-6; 10^8 s are three years, the times of long generated runs). Then, and above 10^8,
  // std::to_chars decides.
  if (std::abs(value) < 1.0e8) {
    const double scaled = value * 1.0e6;
    const double rounded = std::nearbyint(scaled);
    const double margin = std::abs(value) < 1.0e6 ? 1.0e-3 : 1.0 / 64;
    if (std::abs(std::abs(scaled - rounded) - 0.5) > margin) {
      long long micro = static_cast<long long>(rounded);
      char* p = out;
      if (micro < 0) {
        *p++ = '-';
        micro = -micro;
      }
      long long whole = micro / 1000000;
      long long fraction = micro % 1000000;
      if (whole == 0 && fraction == 0) return put("0"); // "-0"
      p = std::to_chars(p, limit, whole).ptr;
      if (fraction != 0) {
        // The six decimals from the last (divisions by the constant 10), then without their trailing zeros.
        char decimals[6];
        for (int d = 5; d >= 0; d--) {
          decimals[d] = static_cast<char>('0' + fraction % 10);
          fraction /= 10;
        }
        int kept = 6;
        while (decimals[kept - 1] == '0')
          kept--;
        *p++ = '.';
        std::memcpy(p, decimals, static_cast<size_t>(kept));
        p += kept;
      }
      return p;
    }
  }
  // std::to_chars with a precision prints exactly what printf's "%.6f" does, several times faster; then the trailing
  // zeros and point go, and "-0" is "0".
  char* end = std::to_chars(out, limit, value, std::chars_format::fixed, 6).ptr;
  while (end > out && end[-1] == '0')
    end--;
  if (end > out && end[-1] == '.') end--;
  if (end - out == 2 && out[0] == '-' && out[1] == '0') return put("0");
  return end;
}

std::string format_number(double value)
{
  return FormattedNumber(value).str();
}

std::string format_exact(double value)
{
  char buf[64];
  auto end = std::to_chars(buf, buf + sizeof buf, value).ptr;
  return std::string(buf, end);
}

} // namespace jobsched
