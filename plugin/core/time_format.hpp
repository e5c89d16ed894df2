/* Numbers in output files: shortest text that reads back to 6 decimals, so outputs are stable and readable. */
#pragma once

#include <ostream>
#include <string>
#include <string_view>

namespace jobsched {

/* A number formatted as in output files, held in place (no allocation): what jobs.csv and trace.csv write millions
 * of. `out << FormattedNumber(x)`. */
class FormattedNumber {
 public:
  explicit FormattedNumber(double value);
  std::string str() const { return std::string(text_, static_cast<size_t>(length_)); }
  std::string_view view() const { return {text_, static_cast<size_t>(length_)}; }
  friend std::ostream& operator<<(std::ostream& out, const FormattedNumber& n) { return out.write(n.text_, n.length_); }

 private:
  char text_[352]; // "%.6f" of the largest double: 309 digits, the point and 6 decimals
  int length_ = 0;
};

std::string format_number(double value);
/* The shortest text that reads back to exactly `value` ("1e+300", "4.7", "3000000000"): for messages. */
std::string format_exact(double value);
} // namespace jobsched
