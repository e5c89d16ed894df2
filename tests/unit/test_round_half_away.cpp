/* round_half_away() (the runtime's inline rounding of rescaled segment lengths), and round_scaled_length() (its
 * shortcut for numbers above 0 and below 2^52, work_account.hpp), against libm's std::round, bit for bit: the halfway
 * cases and their two neighbours from 0 to 2^53 and below 0, the largest doubles below one half, signed zeros, the
 * values that round to -0.0, infinities and NaN, and 2 million random doubles over every exponent of either sign
 * (random bits), as well as products like those the runtime rounds (a length times a rate times 1e9). */
#include "core/round_half_away.hpp"
#include "runtime/execution/work_account.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace jobsched;

namespace {

std::uint64_t bits_of(double x)
{
  std::uint64_t b = 0;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

double from_bits(std::uint64_t b)
{
  double x = 0;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

// The inputs whose round_half_away() or round_scaled_length() is not std::round()'s, bits compared (NaN: both NaN).
long differences(const std::vector<double>& inputs)
{
  long wrong = 0;
  for (const double x : inputs) {
    const double want = std::round(x);
    for (const double got : {round_half_away(x), round_scaled_length(x)})
      if (std::isnan(want) ? !std::isnan(got) : bits_of(got) != bits_of(want)) wrong++;
  }
  return wrong;
}

} // namespace

TEST(RoundHalfAway, HalvesAndTheirNeighbours)
{
  std::vector<double> inputs;
  const double inf = std::numeric_limits<double>::infinity();
  for (double k : {0.0, 1.0, 2.0, 3.0, 7.0, 1e3, 123456789.0, 4503599627370494.0, 4503599627370495.0,
                   4503599627370496.0, 9007199254740990.0}) {
    for (double sign : {1.0, -1.0}) {
      const double half = sign * (k + 0.5);
      inputs.push_back(half);
      inputs.push_back(std::nextafter(half, inf));
      inputs.push_back(std::nextafter(half, -inf));
      inputs.push_back(sign * k);
    }
  }
  for (double x :
       {0.49999999999999994, -0.49999999999999994, 0.0, -0.0, -0.3, -1e-300, 1e-300, -0.5, 0.5, 4503599627370496.0,
        -4503599627370496.0, 1e300, -1e300, inf, -inf, std::numeric_limits<double>::quiet_NaN(),
        std::numeric_limits<double>::denorm_min(), -std::numeric_limits<double>::denorm_min()})
    inputs.push_back(x);
  EXPECT_EQ(differences(inputs), 0);
  // The cases a shortcut gets wrong: floor(x + 0.5), rounding half to even, a zero without its sign.
  EXPECT_EQ(bits_of(round_half_away(0.49999999999999994)), bits_of(0.0));
  EXPECT_EQ(round_half_away(2.5), 3.0);
  EXPECT_EQ(round_half_away(-2.5), -3.0);
  EXPECT_EQ(round_half_away(4503599627370495.5), 4503599627370496.0);
  EXPECT_EQ(bits_of(round_half_away(-0.3)), bits_of(-0.0));
  // And round_scaled_length()'s: its shortcut's edges (a half, the largest double below one half, 2^52 and the double
  // below it, the smallest above 0) and the zeros it leaves to round_half_away().
  EXPECT_EQ(round_scaled_length(0.5), 1.0);
  EXPECT_EQ(round_scaled_length(2.5), 3.0);
  EXPECT_EQ(bits_of(round_scaled_length(0.49999999999999994)), bits_of(0.0));
  EXPECT_EQ(round_scaled_length(4503599627370495.5), 4503599627370496.0);
  EXPECT_EQ(round_scaled_length(4503599627370497.0), 4503599627370497.0);
  EXPECT_EQ(bits_of(round_scaled_length(std::numeric_limits<double>::denorm_min())), bits_of(0.0));
  EXPECT_EQ(bits_of(round_scaled_length(-0.0)), bits_of(-0.0));
  EXPECT_EQ(bits_of(round_scaled_length(-0.3)), bits_of(-0.0));
}

TEST(RoundHalfAway, RandomDoublesOfEveryExponent)
{
  std::mt19937_64 random(5);
  std::vector<double> inputs;
  for (int i = 0; i < 1000000; i++)
    inputs.push_back(from_bits(random())); // every exponent and sign, NaN and infinities included
  std::uniform_real_distribution<double> seconds(0, 1e6), rate(0, 4);
  for (int i = 0; i < 1000000; i++)
    inputs.push_back(seconds(random) * rate(random) * 1e9);
  EXPECT_EQ(differences(inputs), 0);
}
