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
