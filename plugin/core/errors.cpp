#include "core/errors.hpp"

#include <cstdio>

namespace jobsched {

namespace {
bool is_control(unsigned char c)
{
  return c < 0x20 || c == 0x7f;
}
} // namespace

std::string one_line(std::string_view text)
{
  std::string out;
  out.reserve(text.size() + 8);
  for (unsigned char c : text) {
    if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (c == '\r')
      out += "\\r";
    else if (is_control(c)) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string quoted_value(std::string_view value)
{
  if (value.size() <= kQuotedLength) return "'" + one_line(value) + "'";
  std::size_t cut = kQuotedLength;
  while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80)
    cut--; // not inside a UTF-8 character
  return "'" + one_line(value.substr(0, cut)) + "...' (" + std::to_string(value.size()) + " characters)";
}

} // namespace jobsched
