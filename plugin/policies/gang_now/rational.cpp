/* Exact numbers for the gang scheduler of Al-Saqabi, Otto & Walpole (heterogeneous networks of workstations,
 * section 4): reading decimal capacities without rounding, and printing rationals. */
#include "policies/gang_now/rational.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace jobsched::gang_now {

long long floor_of(const Rational& value)
{
  long long q = value.numerator() / value.denominator(); // truncates toward zero; the denominator is positive
  if (value.numerator() < 0 && q * value.denominator() != value.numerator()) q--;
  return q;
}

long long ceil_of(const Rational& value)
{
  return -floor_of(-value);
}

namespace {

constexpr long long kLargest = 1000;
constexpr size_t kMostDecimals = 4;

/* Digits only, at most 7 of them: the whole number, or -1 if the text is not one. */
long long whole_number(const std::string& digits)
{
  if (digits.empty() || digits.size() > 7) return -1;
  long long value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return -1;
    value = value * 10 + (c - '0');
  }
  return value;
}

} // namespace

Rational parse_capacity(const std::string& text, const std::string& what)
{
  const std::string bad = what + ": '" + text + "' is not a positive decimal number";
  auto dot = text.find('.');
  std::string whole = text.substr(0, dot);
  std::string decimals = dot == std::string::npos ? "" : text.substr(dot + 1);
  if (whole.empty() && decimals.empty()) throw InputError(bad);
  if (decimals.size() > kMostDecimals && decimals.find_first_not_of("0123456789") == std::string::npos)
    throw InputError(what + ": '" + text + "' has more than 4 decimal places");
  long long w = whole.empty() ? 0 : whole_number(whole);
  long long d = decimals.empty() ? 0 : whole_number(decimals);
  if (w < 0 || d < 0) throw InputError(bad);
  long long scale = 1;
  for (size_t i = 0; i < decimals.size(); i++)
    scale *= 10;
  Rational value = Rational(w) + Rational(d, scale);
  if (value <= 0) throw InputError(what + ": '" + text + "' is not positive");
  if (value > kLargest) throw InputError(what + ": '" + text + "' is above 1000");
  return value;
}

Rational capacity_from_speeds(double speed, double slowest, const std::string& what)
{
  const double ratio = speed / slowest;
  if (!(ratio >= 1 - 1e-12) || ratio > static_cast<double>(kLargest))
    throw InputError(what + ": speed " + std::to_string(speed) + " flop/s is more than 1000 times (or less than) the " +
                     "slowest processor's " + std::to_string(slowest) + ": capacities are kept within 1 and 1000");
  return Rational(std::llround(ratio * 10000), 10000);
}

std::string fraction_string(const Rational& value)
{
  std::string s = std::to_string(value.numerator());
  if (value.denominator() != 1) s += "/" + std::to_string(value.denominator());
  return s;
}

namespace {

/* The number of decimal places of value, or -1 if its decimal expansion does not terminate (within 12 places). */
int decimal_places(const Rational& value)
{
  long long q = value.denominator();
  int twos = 0;
  int fives = 0;
  while (q % 2 == 0) {
    q /= 2;
    twos++;
  }
  while (q % 5 == 0) {
    q /= 5;
    fives++;
  }
  int places = std::max(twos, fives);
  return q != 1 || places > 12 ? -1 : places;
}

} // namespace

std::string exact_string(const Rational& value)
{
  return decimal_places(value) < 0 ? fraction_string(value) : decimal_string(value);
}

std::string decimal_string(const Rational& value)
{
  int places = decimal_places(value);
  if (places < 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.12g", boost::rational_cast<double>(value));
    return buf;
  }
  // value = n / (2^twos 5^fives) = n * 2^(places - twos) * 5^(places - fives) / 10^places, exactly.
  long long scale = 1;
  for (int i = 0; i < places; i++)
    scale *= 10;
  Rational scaled = value * Rational(scale);
  long long digits = scaled.numerator(); // whole, by construction
  std::string sign = digits < 0 ? "-" : "";
  if (digits < 0) digits = -digits;
  std::string whole = std::to_string(digits / scale);
  if (places == 0) return sign + whole;
  std::string fraction = std::to_string(digits % scale);
  fraction = std::string(static_cast<size_t>(places) - fraction.size(), '0') + fraction;
  while (!fraction.empty() && fraction.back() == '0')
    fraction.pop_back();
  return sign + whole + (fraction.empty() ? "" : "." + fraction);
}

} // namespace jobsched::gang_now
