/* Exact arithmetic for gang scheduling on heterogeneous networks of workstations (Al-Saqabi, Otto & Walpole, "Gang
 * Scheduling in Heterogeneous Distributed Systems", section 4).
 *
 * Capacities a_i, turnaround times n_i / a_i and the Drag values of MTAT are compared for equality and order: the
 * algorithms break ties (Drag_i = Drag_j, (n_i + 1)/a_i = (n_j + 1)/a_j, floor(T a_i)) and a floating-point value is
 * wrong exactly there. With doubles, a = {1.1, 3.3} and X = 4 puts the fourth VP on the wrong side (3/3.3 and 1/1.1
 * are equal, but not as doubles). So every quantity is a boost::rational<long long>, and decimal capacities are read
 * into rationals exactly.
 *
 * Overflow: boost::rational does not detect it. Capacities read by parse_capacity have at most 6 decimal places and
 * are at most 10^6, so all their denominators divide 10^6 and sums and products with VP counts stay far below 2^63. */
#pragma once

#include <boost/rational.hpp>

#include <string>

namespace jobsched::gang_now {

using Rational = boost::rational<long long>;

/* The largest whole number <= value, and the smallest >= value. */
long long floor_of(const Rational& value);
long long ceil_of(const Rational& value);

/* A capacity or any other positive quantity written in decimal ("1.1", "3", "0.25", "2.") or as a fraction
 * ("11/10"), read exactly. Throws InputError naming `what` when the text is not such a number, is not positive, has
 * more than 6 decimal places, or exceeds 10^6 (numerator and denominator of a fraction alike). */
Rational parse_capacity(const std::string& text, const std::string& what);

/* "p/q", or "p" when the value is whole: exact, for JSON and messages. */
std::string fraction_string(const Rational& value);

/* The value as a decimal: exact when the denominator has no prime factor other than 2 and 5 ("1.1", "0.125"), else
 * rounded to 12 significant digits. */
std::string decimal_string(const Rational& value);

/* decimal_string when it is exact, else fraction_string: "1.1", "0.125", "1/3". */
std::string exact_string(const Rational& value);

} // namespace jobsched::gang_now
