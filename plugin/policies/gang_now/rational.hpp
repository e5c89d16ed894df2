/* Exact arithmetic for gang scheduling on heterogeneous networks of workstations (Al-Saqabi, Otto & Walpole, "Gang
 * Scheduling in Heterogeneous Distributed Systems", section 4).
 *
 * Capacities a_i, turnaround times n_i / a_i and the Drag values of MTAT are compared for equality and order: the
 * algorithms break ties (Drag_i = Drag_j, (n_i + 1)/a_i = (n_j + 1)/a_j, floor(T a_i)) and a floating-point value is
 * wrong exactly there. With doubles, a = {1.1, 3.3} and X = 4 puts the fourth VP on the wrong side (3/3.3 and 1/1.1
 * are equal, but not as doubles). So every quantity is a boost::rational<long long>, and decimal capacities are read
 * into rationals exactly.
 *
 * Overflow: boost::rational does not detect it, so inputs are bounded. parse_capacity reads decimals only (a "p/q"
 * per processor would make the common denominator of a sum grow with every prime q), at most 4 decimal places and
 * at most 1000: every capacity is p / 10^4 with p <= 10^7. With at most 10^4 processors and 10^6 VPs (the command
 * line's limits), the largest intermediate values are the denominators of MTAT's Drag (sum of p, times p_i: at most
 * 10^11 x 10^7 = 10^18 < 2^63) and the products c x sum p of its rounding (10^6 x 10^11); the others are smaller.
 * Callers of the algorithms with other rationals keep within the same bounds. */
#pragma once

#include <boost/rational.hpp>

#include <string>

namespace jobsched::gang_now {

using Rational = boost::rational<long long>;

/* The largest whole number <= value, and the smallest >= value. */
long long floor_of(const Rational& value);
long long ceil_of(const Rational& value);

/* A capacity written in decimal ("1.1", "3", "0.25", ".5", "2."), read exactly (1.1 is 11/10). Throws InputError
 * naming `what` when the text is not such a number, is not positive, has more than 4 decimal places, or exceeds
 * 1000. */
Rational parse_capacity(const std::string& text, const std::string& what);

/* The capacity a_i of a processor of speed `speed` relative to the slowest processor of the whole network (section
 * 4.1), from the platform's speeds (flop/s, doubles): speed / slowest rounded to the nearest 1/10000, exactly as
 * parse_capacity would read it with 4 decimal places (platforms give speeds whose ratios are exact in 4 places, e.g.
 * 50, 75, 100 and 200 Mflop/s: 1, 1.5, 2, 4). Throws InputError naming `what` when the ratio exceeds 1000. */
Rational capacity_from_speeds(double speed, double slowest, const std::string& what);

/* "p/q", or "p" when the value is whole: exact, for JSON and messages. */
std::string fraction_string(const Rational& value);

/* The value as a decimal: exact when the denominator has no prime factor other than 2 and 5 ("1.1", "0.125"), else
 * rounded to 12 significant digits. */
std::string decimal_string(const Rational& value);

/* decimal_string when it is exact, else fraction_string: "1.1", "0.125", "1/3". */
std::string exact_string(const Rational& value);

} // namespace jobsched::gang_now
