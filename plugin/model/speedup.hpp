/* How fast a job progresses on n processors, relative to one: the speedup models the time-sharing papers use.
 *
 * Work is given at one processor (W seconds at the reference speed); on n processors a job progresses at S(n) times
 * the rate of one, so it lasts W / S(n) on dedicated processors.
 *   linear  S(n) = n                                   (rigid trace jobs: W = run time x size)
 *   downey  Downey's model (A = average parallelism, sigma = its variance), Downey 1997, "A parallel workload model
 *           and its implications for processor allocation"
 *   beta    S(n) = (1 + beta) n / (beta + n)           (Setia; McCann & Zahorjan: beta drawn uniform in a range)
 *   beta-static  S(n) = S_beta(n) N / (n ceil(N/n))    (McCann & Zahorjan 1994, sec. 5.2: a job cut into N threads
 *           when it is loaded, N = `threads`; on n nodes the busiest node holds ceil(N/n) threads and sets the pace, so
 *           widths that do not divide N waste processors. The paper writes the factor as
 *           (floor(N/n) / ceil(N/n) (n - N mod n) + N mod n) / n, which is the same number: with N = qn + r,
 *           (q (n - r) + (q + 1) r) / ((q + 1) n) = N / (n ceil(N/n)).)
 * The model is part of a job's hidden truth: policies do not see it (they are non-clairvoyant). */
#pragma once

#include <string>

namespace jobsched {

struct Speedup {
  enum class Model { linear, downey, beta, beta_static };
  Model model = Model::linear;
  double A = 1;     // downey: average parallelism (>= 1)
  double sigma = 0; // downey: variance of parallelism (>= 0)
  double beta = 0;  // beta, beta_static: S(n) = (1 + beta) n / (beta + n), beta >= 0
  int threads = 0;  // beta_static: the N threads the job was cut into when it was loaded (>= 1)

  /* S(n) for n >= 1 processors (n may be fractional for time-shared allotments). */
  double operator()(double n) const;
  static Speedup linear() { return {}; }
  static Speedup downey(double A, double sigma) { return {Model::downey, A, sigma, 0}; }
  static Speedup with_beta(double beta) { return {Model::beta, 1, 0, beta, 0}; }
  static Speedup with_beta_static(double beta, int threads) { return {Model::beta_static, 1, 0, beta, threads}; }
};

const char* to_string(Speedup::Model m);

} // namespace jobsched
