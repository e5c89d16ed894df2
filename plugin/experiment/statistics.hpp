/* Replication statistics: sample mean, standard deviation and the 95% confidence half-width of the mean with
 * Student's t, as simulation studies report them (the papers replicate until that half-width is within 1% or 5% of
 * the mean). */
#pragma once

#include <vector>

namespace jobsched {

struct Estimate {
  long n = 0;
  double mean = 0;
  double std = 0;        // sample standard deviation (n - 1); 0 when n < 2
  double half_width = 0; // t(0.975, n-1) * std / sqrt(n); valid only when n >= 2
  bool has_interval() const { return n >= 2; }
};

Estimate estimate(const std::vector<double>& samples, double confidence = 0.95);

/* The p-quantile of Student's t distribution with `df` degrees of freedom (df > 0, 0 < p < 1). */
double student_t_quantile(double p, double df);
/* Its cumulative distribution function. */
double student_t_cdf(double t, double df);

} // namespace jobsched
