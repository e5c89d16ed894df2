/* The malleable parallel job model of Cao, Sun, Qian and Wu, "Scalable Hierarchical Scheduling for Malleable Parallel
 * Jobs on Multiprocessor-based Systems", section 4.1 (Figures 2 and 3), with the execution rate of section 2 and the
 * per-quantum measures of section 3.1.
 *
 * A job is a sequence of phases, each of span length `phase_length` (10 L in the paper) except the last, which holds
 * the remainder of the job's span. Every phase has the job's average parallelism A, so the same work A x length
 * whatever its curve; the curve is one of the seven of Figure 2, ordered from the most concave to the most convex:
 *   Step (constant A: a parallel FOR, Figure 3's F1), Log, Poly(II) (square root), Ramp (linear: F2), Poly(I)
 *   (quadratic: F3), Exp (doubling: F4), Impulse (a spike).
 * Readings, where the paper's figure was lost to OCR:
 *  - a phase is one "basic parallelism variation block": the curve rises over the phase's first half and its mirror
 *    image falls over the second half, so a phase starts and ends at its lowest parallelism and each half has the
 *    phase's average;
 *  - a rising curve is h(x) = 1 + (A - 1) g(x) / mean(g), x in [0, 1] across the half, g from 0 to 1: parallelism
 *    never falls below one thread and averages A; Log and Exp span m = 8 doublings (g = log2(1 + (2^m - 1) x) / m and
 *    its inverse), Impulse is 0 except its last tenth (a spike of L for a phase of 10 L);
 *  - the curve is held as 100 segments per phase, each at the curve's exact mean over the segment, so a phase keeps
 *    its work and average parallelism exactly (the integrals of g are closed forms).
 * Parallelism follows the job's progress along its span, not wall time: with allotment a the job runs at
 * min(a, h) work per unit of time and advances its span at min(a, h) / h; the work done between two points of the
 * span is the integral of h over them, whatever the allotment (section 3.1's w(q) and l(q)). */
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace jobsched::hierarchical {

enum class ParallelismShape : std::uint8_t { step, log, poly2, ramp, poly1, exp, impulse };
constexpr int kShapeCount = 7;
constexpr int kSegmentsPerPhase = 100; // 50 per half: Impulse's spike is 5 of them
const char* to_string(ParallelismShape shape);

/* g on a rising half, x in [0, 1], and its integral from 0 to x (closed forms). */
double rising_curve(ParallelismShape shape, double x);
double rising_curve_integral(ParallelismShape shape, double x);
/* Parallelism at relative position u in [0, 1] of a phase of average parallelism A (the continuous curve). */
double phase_parallelism(ParallelismShape shape, double A, double u);

struct QuantumProgress {
  double work = 0;    // w(q): work done
  double span = 0;    // l(q): span covered
  double elapsed = 0; // time used (less than the quantum only when the job finished)
  bool finished = false;
};

class MalleableJob {
 public:
  /* `work` > 0 and `average_parallelism` >= 1; phase_shapes.size() must be phase_count(work / A, phase_length). */
  MalleableJob(double work, double average_parallelism, double phase_length, std::vector<ParallelismShape> shapes);
  static long phase_count(double span, double phase_length);

  double work() const { return work_; }
  double span() const { return span_; }
  double average_parallelism() const { return A_; }
  const std::vector<ParallelismShape>& shapes() const { return shapes_; }
  /* Span length of phase p (the last one may be shorter). */
  double phase_span(long p) const;
  /* Parallelism of segment k of phase p (the curve's mean over the segment). */
  double segment_parallelism(long p, int k) const;
  bool finished() const { return phase_ >= static_cast<long>(shapes_.size()); }

  /* Runs for `duration` on `allotment` processors (fractional allowed; 0: nothing happens). */
  QuantumProgress run(double allotment, double duration);

 private:
  double work_;
  double A_;
  double span_;
  double phase_length_;
  std::vector<ParallelismShape> shapes_;
  long phase_ = 0;
  int segment_ = 0;
  double offset_ = 0; // span covered inside the current segment
};

/* Downey's moldable job model ("A parallel workload model and its implications for processor allocation", Cluster
 * Computing 1, 1998; HPDC 1997), with the parameters of Cao et al.'s Table 1, and how its numbers become jobs here:
 *  - work ("job size", Downey's cumulative lifetime, processor-time): log-uniform, cdf(t) = beta1 + beta2 ln t, with
 *    beta1 = -0.14 and beta2 = 0.073, so t in [e^(0.14/0.073), e^(1.14/0.073)] = [6.8, 6.1e6] Downey units; one unit
 *    is `work_unit` processor-seconds (the paper does not say: see docs/reproduction/hierarchical.md);
 *  - average parallelism A: log-uniform in [A_min, A_max] = [1, 256] (Downey: the probability that a job uses fewer
 *    than n processors is proportional to log n);
 *  - arrivals: Poisson, at rate offered load x P / mean work, the offered load being jobs / 160 (Table 1: n = 160 rho),
 *    so that the arrivals span about 160 mean works / P whatever the number of jobs;
 *  - each job released at a leaf drawn uniformly; each phase's curve drawn uniformly among the seven. */
struct DowneyWorkloadSpec {
  long jobs = 300;
  double beta1 = -0.14;
  double beta2 = 0.073;
  double A_min = 1;
  double A_max = 256;
  double work_unit = 1e-6; // processor-seconds per Downey unit (docs/reproduction/hierarchical.md)
  double jobs_per_unit_load = 160;
  double phase_length = 0.01; // 10 L, L = 1 ms
  std::vector<ParallelismShape> shapes{ParallelismShape::step,   ParallelismShape::log,   ParallelismShape::poly2,
                                       ParallelismShape::ramp,   ParallelismShape::poly1, ParallelismShape::exp,
                                       ParallelismShape::impulse};
  double mean_work() const; // processor-seconds, of the log-uniform distribution
  double offered_load() const { return static_cast<double>(jobs) / jobs_per_unit_load; }
};

struct GeneratedJob {
  double release = 0;
  int leaf = 0; // index among the tree's leaves
  MalleableJob job;
};

std::vector<GeneratedJob> generate_downey_jobs(const DowneyWorkloadSpec& spec, int processors, int leaves,
                                               std::uint64_t seed);

} // namespace jobsched::hierarchical
