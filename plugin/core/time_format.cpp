#include "core/time_format.hpp"

#include <charconv>
#include <cmath>
#include <cstring>

namespace jobsched {

FormattedNumber::FormattedNumber(double value)
{
  auto put = [this](const char* s) {
    length_ = static_cast<int>(std::strlen(s));
    std::memcpy(text_, s, static_cast<size_t>(length_));
  };
  if (!std::isfinite(value)) {
    put(std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf");
    return;
  }
  // Whole numbers (most times in a trace) as integers: the same text, without the fixed-point conversion.
  if (std::abs(value) < 9.0e15 && value == std::trunc(value)) {
    length_ = static_cast<int>(std::to_chars(text_, text_ + sizeof text_, static_cast<long long>(value)).ptr - text_);
    return;
  }
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
      char* p = text_;
      if (micro < 0) {
        *p++ = '-';
        micro = -micro;
      }
      long long whole = micro / 1000000;
      long long fraction = micro % 1000000;
      p = std::to_chars(p, text_ + sizeof text_, whole).ptr;
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
      length_ = static_cast<int>(p - text_);
      if (length_ == 2 && text_[0] == '-' && text_[1] == '0') put("0");
      return;
    }
  }
  // std::to_chars with a precision prints exactly what printf's "%.6f" does, several times faster; then the trailing
  // zeros and point go, and "-0" is "0".
  char* end = std::to_chars(text_, text_ + sizeof text_, value, std::chars_format::fixed, 6).ptr;
  while (end > text_ && end[-1] == '0')
    end--;
  if (end > text_ && end[-1] == '.') end--;
  length_ = static_cast<int>(end - text_);
  if (length_ == 2 && text_[0] == '-' && text_[1] == '0') put("0");
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
