/* Numbers in output files: shortest text that reads back to 6 decimals, so outputs are stable and readable. */
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

namespace jobsched {

/* The longest text of a number in output files: "%.6f" of the largest double is 309 digits, the point and 6 decimals,
 * after a sign. */
constexpr std::size_t kNumberTextMax = 352;
/* Writes the decimal text of `value` at `out` (room for 20 characters: a sign and 19 digits), the same characters as
 * std::to_chars, and returns its end. Inline, the digits two at a time from a table after a count by comparisons:
 * std::to_chars's call, its count by divisions and its checks were a twentieth of a run writing trace.csv and
 * segments.csv (job numbers, sizes, whole times). */
inline char* write_integer(char* out, long long value)
{
  static constexpr char kPairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                   "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                   "8081828384858687888990919293949596979899";
  unsigned long long v = static_cast<unsigned long long>(value);
  if (value < 0) {
    *out++ = '-';
    v = 0 - v; // (LLONG_MIN's magnitude too)
  }
  int digits = 1;
  for (unsigned long long bound = 10; digits < 20 && v >= bound; bound *= 10)
    digits++;
  char* const end = out + digits;
  char* p = end;
  while (v >= 100) {
    const unsigned pair = static_cast<unsigned>(v % 100) * 2;
    v /= 100;
    p -= 2;
    p[0] = kPairs[pair];
    p[1] = kPairs[pair + 1];
  }
  if (v >= 10) {
    p[-2] = kPairs[v * 2];
    p[-1] = kPairs[v * 2 + 1];
  } else {
    p[-1] = static_cast<char>('0' + v);
  }
  return end;
}

/* Writes the text of `value` as in output files at `out`, which has room for kNumberTextMax characters (all of which
 * it may use on the way), and returns its end: rows are assembled in place, without a copy of each number. */
char* write_number(char* out, double value);

/* A number formatted as in output files, held in place (no allocation): what jobs.csv and trace.csv write millions
 * of. `out << FormattedNumber(x)`. */
class FormattedNumber {
 public:
  explicit FormattedNumber(double value) : length_(static_cast<int>(write_number(text_, value) - text_)) {}
  std::string str() const { return std::string(text_, static_cast<size_t>(length_)); }
  std::string_view view() const { return {text_, static_cast<size_t>(length_)}; }
  friend std::ostream& operator<<(std::ostream& out, const FormattedNumber& n) { return out.write(n.text_, n.length_); }

 private:
  char text_[kNumberTextMax];
  int length_ = 0;
};

std::string format_number(double value);
/* The shortest text that reads back to exactly `value` ("1e+300", "4.7", "3000000000"): for messages. */
std::string format_exact(double value);
} // namespace jobsched
