/* How fast a job progresses on n processors, relative to one: the speedup models the time-sharing papers use.
 *
 * Work is given at one processor (W seconds at the reference speed); on n processors a job progresses at S(n) times
 * the rate of one, so it lasts W / S(n) on dedicated processors.
 *   linear  S(n) = n                                   (rigid trace jobs: W = run time x size)
 *   downey  Downey's model (A = average parallelism, sigma = its variance), Downey 1997, "A parallel workload model
 *           and its implications for processor allocation"
 *   beta    S(n) = (1 + beta) n / (beta + n)           (Setia; McCann & Zahorjan: beta drawn uniform in a range)
 * The model is part of a job's hidden truth: policies do not see it (they are non-clairvoyant). */
#pragma once

#include <string>

namespace jobsched {

struct Speedup {
  enum class Model { linear, downey, beta };
  Model model = Model::linear;
  double A = 1;     // downey: average parallelism (>= 1)
  double sigma = 0; // downey: variance of parallelism (>= 0)
  double beta = 0;  // beta: S(n) = (1 + beta) n / (beta + n), beta >= 0

  /* S(n) for n >= 1 processors (n may be fractional for time-shared allotments). */
  double operator()(double n) const;
  static Speedup linear() { return {}; }
  static Speedup downey(double A, double sigma) { return {Model::downey, A, sigma, 0}; }
  static Speedup with_beta(double beta) { return {Model::beta, 1, 0, beta}; }
};

const char* to_string(Speedup::Model m);

} // namespace jobsched
