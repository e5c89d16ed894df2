/* Cao, Sun, Qian and Wu, section 4.1: the malleable job model (see malleable_job.hpp for the readings), and Downey's
 * moldable model with the parameters of their Table 1 (section 4.2). */
#include "model/malleable_job.hpp"

#include "core/random.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace jobsched::hierarchical {

namespace {

constexpr double kDoublings = 8;      // Log and Exp: parallelism grows 2^8-fold
constexpr double kDoublingSpan = 255; // 2^kDoublings - 1
constexpr double kImpulseWidth = 0.1; // of a rising half
constexpr int kSegmentsPerHalf = kSegmentsPerPhase / 2;
constexpr double kSpanTolerance = 1e-12; // relative: what is left of a segment is "nothing"

/* Per shape, the mean of g over each segment of a phase divided by the mean of g over the half: h = 1 + (A - 1) t. */
using SegmentTable = std::array<std::array<double, kSegmentsPerPhase>, kShapeCount>;

SegmentTable make_segment_table()
{
  SegmentTable table{};
  for (int s = 0; s < kShapeCount; s++) {
    const auto shape = static_cast<ParallelismShape>(s);
    const double mean = rising_curve_integral(shape, 1.0);
    for (int k = 0; k < kSegmentsPerHalf; k++) {
      const double x0 = static_cast<double>(k) / kSegmentsPerHalf;
      const double x1 = static_cast<double>(k + 1) / kSegmentsPerHalf;
      const double segment_mean =
          (rising_curve_integral(shape, x1) - rising_curve_integral(shape, x0)) * kSegmentsPerHalf;
      table[s][k] = segment_mean / mean;
      table[s][kSegmentsPerPhase - 1 - k] = segment_mean / mean; // the falling half mirrors the rising one
    }
  }
  return table;
}

const SegmentTable& segment_table()
{
  static const SegmentTable table = make_segment_table();
  return table;
}

} // namespace

const char* to_string(ParallelismShape shape)
{
  switch (shape) {
  case ParallelismShape::step:
    return "step";
  case ParallelismShape::log:
    return "log";
  case ParallelismShape::poly2:
    return "poly2";
  case ParallelismShape::ramp:
    return "ramp";
  case ParallelismShape::poly1:
    return "poly1";
  case ParallelismShape::exp:
    return "exp";
  case ParallelismShape::impulse:
    return "impulse";
  }
  return "?";
}

double rising_curve(ParallelismShape shape, double x)
{
  switch (shape) {
  case ParallelismShape::step:
    return 1;
  case ParallelismShape::log:
    return std::log2(1 + kDoublingSpan * x) / kDoublings;
  case ParallelismShape::poly2:
    return std::sqrt(x);
  case ParallelismShape::ramp:
    return x;
  case ParallelismShape::poly1:
    return x * x;
  case ParallelismShape::exp:
    return (std::exp2(kDoublings * x) - 1) / kDoublingSpan;
  case ParallelismShape::impulse:
    return x >= 1 - kImpulseWidth ? 1 : 0;
  }
  return 0;
}

double rising_curve_integral(ParallelismShape shape, double x)
{
  const double ln2 = std::log(2.0);
  switch (shape) {
  case ParallelismShape::step:
    return x;
  case ParallelismShape::log: {
    const double y = 1 + kDoublingSpan * x;
    return (y * std::log(y) - kDoublingSpan * x) / (kDoublingSpan * kDoublings * ln2);
  }
  case ParallelismShape::poly2:
    return 2.0 / 3.0 * x * std::sqrt(x);
  case ParallelismShape::ramp:
    return x * x / 2;
  case ParallelismShape::poly1:
    return x * x * x / 3;
  case ParallelismShape::exp:
    return ((std::exp2(kDoublings * x) - 1) / (kDoublings * ln2) - x) / kDoublingSpan;
  case ParallelismShape::impulse:
    return std::max(0.0, x - (1 - kImpulseWidth));
  }
  return 0;
}

double phase_parallelism(ParallelismShape shape, double A, double u)
{
  const double x = u <= 0.5 ? 2 * u : 2 * (1 - u);
  return 1 + (A - 1) * rising_curve(shape, x) / rising_curve_integral(shape, 1.0);
}

MalleableJob::MalleableJob(double work, double average_parallelism, double phase_length,
                           std::vector<ParallelismShape> shapes)
    : work_(work), A_(average_parallelism), span_(work / average_parallelism), phase_length_(phase_length),
      shapes_(std::move(shapes))
{
  if (!(work > 0) || !(average_parallelism >= 1) || !(phase_length > 0))
    throw std::invalid_argument("MalleableJob: work > 0, average parallelism >= 1 and phase length > 0");
  if (static_cast<long>(shapes_.size()) != phase_count(span_, phase_length_))
    throw std::invalid_argument("MalleableJob: one shape per phase");
}

long MalleableJob::phase_count(double span, double phase_length)
{
  // The tolerance keeps a span of exactly k phases (up to rounding) at k phases, not k + 1 with an empty last one.
  return std::max(1L, static_cast<long>(std::ceil(span / phase_length * (1 - 1e-12))));
}

double MalleableJob::phase_span(long p) const
{
  const long last = static_cast<long>(shapes_.size()) - 1;
  return p < last ? phase_length_ : span_ - static_cast<double>(last) * phase_length_;
}

double MalleableJob::segment_parallelism(long p, int k) const
{
  const auto s = static_cast<size_t>(shapes_[static_cast<size_t>(p)]);
  return 1 + (A_ - 1) * segment_table()[s][static_cast<size_t>(k)];
}

QuantumProgress MalleableJob::run(double allotment, double duration)
{
  QuantumProgress out;
  if (!(allotment > 0) || finished()) {
    out.elapsed = finished() ? 0 : duration;
    out.finished = finished();
    return out;
  }
  double left = duration;
  while (!finished()) {
    const double segment_span = phase_span(phase_) / kSegmentsPerPhase;
    const double remaining = segment_span - offset_;
    const double h = segment_parallelism(phase_, segment_);
    // Span advances at min(a, h) / h: one unit of span costs max(1, h / a) time.
    const double time_per_span = std::max(1.0, h / allotment);
    const double needed = remaining * time_per_span;
    if (needed <= left) {
      left -= needed;
      out.work += h * remaining;
      out.span += remaining;
      offset_ = 0;
      if (++segment_ == kSegmentsPerPhase) {
        segment_ = 0;
        phase_++;
      }
      continue;
    }
    const double advanced = left / time_per_span;
    out.work += h * advanced;
    out.span += advanced;
    offset_ += advanced;
    left = 0;
    if (segment_span - offset_ <= kSpanTolerance * segment_span) { // rounding left a sliver: the segment is done
      offset_ = 0;
      if (++segment_ == kSegmentsPerPhase) {
        segment_ = 0;
        phase_++;
      }
    }
    break;
  }
  out.finished = finished();
  out.elapsed = duration - left;
  return out;
}

double DowneyWorkloadSpec::mean_work() const
{
  // Log-uniform on [lo, hi]: mean (hi - lo) / ln(hi / lo).
  const double lo = std::exp(-beta1 / beta2);
  const double hi = std::exp((1 - beta1) / beta2);
  return (hi - lo) / std::log(hi / lo) * work_unit;
}

std::vector<GeneratedJob> generate_downey_jobs(const DowneyWorkloadSpec& spec, int processors, int leaves,
                                               std::uint64_t seed)
{
  // Separate streams per purpose (core/random.hpp): changing one distribution leaves the others' numbers unchanged.
  RandomStream arrivals(seed, "hierarchy arrivals");
  RandomStream sizes(seed, "hierarchy work");
  RandomStream parallelism(seed, "hierarchy parallelism");
  RandomStream places(seed, "hierarchy leaves");
  RandomStream curves(seed, "hierarchy phase shapes");
  const double rate = spec.offered_load() * processors / spec.mean_work();
  std::vector<GeneratedJob> jobs;
  jobs.reserve(static_cast<size_t>(spec.jobs));
  double t = 0;
  for (long i = 0; i < spec.jobs; i++) {
    if (i > 0) t += arrivals.exponential(1 / rate); // the first job at 0: the makespan is measured from it
    // Inverse of cdf(t) = beta1 + beta2 ln t.
    const double work = std::exp((sizes.uniform() - spec.beta1) / spec.beta2) * spec.work_unit;
    const double A = parallelism.log_uniform(spec.A_min, spec.A_max);
    const int leaf = places.uniform_int(0, leaves - 1);
    const long phases = MalleableJob::phase_count(work / A, spec.phase_length);
    std::vector<ParallelismShape> shapes;
    shapes.reserve(static_cast<size_t>(phases));
    for (long p = 0; p < phases; p++)
      shapes.push_back(
          spec.shapes[static_cast<size_t>(curves.uniform_int(0, static_cast<int>(spec.shapes.size()) - 1))]);
    jobs.push_back({t, leaf, MalleableJob(work, A, spec.phase_length, std::move(shapes))});
  }
  return jobs;
}

} // namespace jobsched::hierarchical
