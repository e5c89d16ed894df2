/* timer_fraction_left() (work_account.hpp: the fraction of a timer's work not done, with no test of its own for an
 * infinite end) against the formula with that test, written out here, bit for bit over its domain: finite starts and
 * clocks, ends finite (before, at and after the start), +infinity and NaN; and values worked out by hand. */
#include "runtime/execution/work_account.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

using namespace jobsched;

namespace {

// The fraction as it was written before: an infinite end tested first (its hosts had no speed, no progress).
double fraction_with_infinity_test(double start, double end, double now)
{
  if (std::isinf(end)) return 1.0;
  const double length = end - start;
  return length > 0 ? std::max(0.0, 1 - (now - start) / length) : 0.0;
}

void expect_same(double start, double end, double now)
{
  const double want = fraction_with_infinity_test(start, end, now);
  const double got = timer_fraction_left(start, end, now);
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << start << " " << end << " " << now;
    return;
  }
  // The same double: equal, and of the same sign where both are zero.
  EXPECT_TRUE(got == want && std::signbit(got) == std::signbit(want))
      << "start " << start << " end " << end << " now " << now << ": " << got << " against " << want;
}

} // namespace

TEST(TimerFraction, ByHand)
{
  EXPECT_EQ(timer_fraction_left(10, 30, 15), 0.75);
  EXPECT_EQ(timer_fraction_left(10, 30, 10), 1.0);
  EXPECT_EQ(timer_fraction_left(10, 30, 30), 0.0);
  EXPECT_EQ(timer_fraction_left(10, 30, 40), 0.0); // past its end: nothing left, not less
  EXPECT_EQ(timer_fraction_left(10, 30, 5), 1.25); // before its start (not a replay's case, the formula's)
  EXPECT_EQ(timer_fraction_left(10, 10, 10), 0.0); // a timer of no length: done
  EXPECT_EQ(timer_fraction_left(10, 5, 7), 0.0);   // an end before the start: done
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(timer_fraction_left(10, inf, 1e9), 1.0); // a host without speed: no progress
  EXPECT_EQ(timer_fraction_left(10, inf, 10), 1.0);
  EXPECT_EQ(timer_fraction_left(10, inf, 0), 1.0);       // (now - start) / +inf = -0: 1 - -0 = 1
  EXPECT_EQ(timer_fraction_left(-1e308, 1e308, 0), 1.0); // a finite end whose length overflows
}

TEST(TimerFraction, IsTheFormulaWithItsInfinityTestOnItsDomain)
{
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double clocks[] = {0.0, -0.0, 1e-300, 1e-9, 0.5, 1.0, 3.0, 1e6, 123456.789, 4503599627370496.0, 1e300};
  for (const double start : clocks)
    for (const double end : {start, start + 1e-9, start + 1, start * 2 + 1, start - 1, inf, nan})
      for (const double now : clocks)
        expect_same(start, end, now);
  std::mt19937_64 random(20261127);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<int> exponent(-40, 40);
  for (int i = 0; i < 1000000; i++) {
    const double start = unit(random) * std::ldexp(1.0, exponent(random));
    const int kind = i % 8;
    const double end = kind == 0 ? inf : kind == 1 ? start : start + unit(random) * std::ldexp(1.0, exponent(random));
    // Mostly within the timer (as the replay stops them), some before its start and some after its end.
    const double now = kind == 0   ? start + unit(random) * std::ldexp(1.0, exponent(random)) // any clock after start
                       : kind == 2 ? end + unit(random)
                       : kind == 3 ? start - unit(random)
                                   : start + (end - start) * unit(random);
    expect_same(start, end, now);
  }
}
