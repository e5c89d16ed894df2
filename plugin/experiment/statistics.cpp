#include "experiment/statistics.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace jobsched {

namespace {

/* Continued fraction of the regularized incomplete beta function (modified Lentz's method). */
double beta_continued_fraction(double a, double b, double x)
{
  const double tiny = 1e-300;
  double c = 1.0;
  double d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::fabs(d) < tiny) d = tiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m <= 10000; m++) {
    double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
    d = 1.0 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
    d = 1.0 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    double del = d * c;
    h *= del;
    if (std::fabs(del - 1.0) < 1e-15) break;
  }
  return h;
}

/* I_x(a, b), the regularized incomplete beta function. */
double incomplete_beta(double a, double b, double x)
{
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  double log_front = std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  if (x < (a + 1.0) / (a + b + 2.0)) return std::exp(log_front) * beta_continued_fraction(a, b, x) / a;
  return 1.0 - std::exp(log_front) * beta_continued_fraction(b, a, 1.0 - x) / b;
}

} // namespace

double student_t_cdf(double t, double df)
{
  double tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t));
  return t >= 0 ? 1.0 - tail : tail;
}

double student_t_quantile(double p, double df)
{
  if (!(p > 0 && p < 1) || !(df > 0)) throw std::invalid_argument("student_t_quantile: need 0 < p < 1 and df > 0");
  if (p < 0.5) return -student_t_quantile(1.0 - p, df);
  double lo = 0;
  double hi = 1;
  while (student_t_cdf(hi, df) < p)
    hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-13 * std::max(1.0, hi); i++) {
    double mid = 0.5 * (lo + hi);
    (student_t_cdf(mid, df) < p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

Estimate estimate(const std::vector<double>& samples, double confidence)
{
  Estimate e;
  e.n = static_cast<long>(samples.size());
  if (e.n == 0) return e;
  double sum = 0;
  for (double x : samples)
    sum += x;
  e.mean = sum / static_cast<double>(e.n);
  if (e.n < 2) return e;
  double squares = 0;
  for (double x : samples)
    squares += (x - e.mean) * (x - e.mean);
  e.std = std::sqrt(squares / static_cast<double>(e.n - 1));
  e.half_width = student_t_quantile(0.5 + confidence / 2.0, static_cast<double>(e.n - 1)) * e.std /
                 std::sqrt(static_cast<double>(e.n));
  return e;
}

} // namespace jobsched
