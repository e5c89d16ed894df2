/* std::round (halfway cases away from zero) inline: the same double for every input, without libm's call. On baseline
 * x86-64 (no SSE4.1 rounding instruction) std::round is a call into libm, and around it the caller spills its floating
 * point registers; the runtime rounds every rescaled segment length (dedicated_length()), millions of times in a
 * replayed cycle's boundaries. */
#pragma once

#include <cmath>

namespace jobsched {

inline double round_half_away(double x)
{
  // From 2^52 up every double is an integer (and infinities and NaN are their own round): x itself.
  if (!(std::fabs(x) < 4503599627370496.0)) return x;
  // Below 2^52 the conversion truncates exactly and x - t (the fraction, of x's sign) is exact too.
  const double t = static_cast<double>(static_cast<long long>(x));
  const double r = std::fabs(x - t) >= 0.5 ? t + std::copysign(1.0, x) : t;
  return std::copysign(r, x); // -0.3 rounds to -0.0, as std::round gives it
}

} // namespace jobsched
