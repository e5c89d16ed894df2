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
