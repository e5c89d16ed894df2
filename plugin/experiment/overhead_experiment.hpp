/* The Monte Carlo overhead experiment of McCann & Zahorjan 1994, "Scheduling memory constrained jobs on distributed
 * memory parallel computers", section 5.1 (Figures 9, 10 and 11, Table 3's defaults).
 *
 * One point is (N, J, load factor L, k). A trial draws the J minimum node counts M_j, schedules them under every
 * policy of the point (common random numbers: all policies see the same M) and records each schedule's normalized
 * overhead (sum of widths / N). Trials run in batches until, for every policy of the point, the confidence interval
 * of the mean (Student's t, 90% by default, the paper's footnote 4) is no wider than 1% of the mean on each side.
 *
 * Readings (documented in docs/reproduction/memory-constrained.md):
 *   - Load factor = J x mean M_j / N (the paper's "number of jobs times the average minimum node requirement",
 *     relative to N). Table 3's M_j ~ Uniform(1 .. 2LN/J - 1) has mean LN/J, which gives exactly that load.
 *   - When u = 2LN/J - 1 is not an integer, the upper end is rounded per job: floor(u) + 1 with probability
 *     u - floor(u), else floor(u) (rounding "mix"), which keeps the mean at LN/J exactly; "floor" and "nearest" are
 *     there to show how much the choice moves the results.
 *   - A point whose upper end can exceed N (ceil(u) > N) is left out, not capped; so is one with floor(u) < 1.
 *   - The "BUDDY" series is BUDDY when J is a power of two and BUDDY* otherwise; BUDDY and HYBRID exist only when N
 *     is a power of two, OPT-EPOCH only for k <= 1 (as in the paper). */
#pragma once

#include "core/random.hpp"
#include "experiment/statistics.hpp"
#include "workload/generator.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jobsched::memory_constrained {

/* RangeRounding, MinsDistribution, mins_distribution and draw_mins, Table 3's draw of M_j, live in
 * workload/generator.hpp, where the generator's min_nodes (section 5.2's workload) draws from them too. */
RangeRounding parse_range_rounding(const std::string& text); // InputError naming --rounding
std::string to_string(RangeRounding rounding);

/* One point of a figure. */
struct OverheadPoint {
  int nodes = 128;
  int jobs = 8;
  int load_percent = 100;
  int k = 1;
};

/* A series of the figures and the policy that computes it at a point. */
struct SeriesPolicy {
  std::string series; // "buddy", "hybrid", "equi-epoch", "opt-epoch", "heuristic-epoch"
  std::string policy; // the scheduler actually run: "buddy-star" for the "buddy" series when J is not a power of two
};
/* The series the paper plots at this point, in its order (Table 2). */
std::vector<SeriesPolicy> series_at(const OverheadPoint& point);

struct StoppingRule {
  double confidence = 0.90;         // the paper's footnote 4
  double relative_precision = 0.01; // half-width / mean
  long batch = 1000;                // trials between two checks (also the fewest trials)
  long max_trials = 2'000'000;      // a point that has not converged by then is reported as such
  /* Every schedule of the first batch goes through the validator with its policy's promises. */
  bool validate_first_batch = true;
};

struct SeriesResult {
  SeriesPolicy which;
  Estimate estimate; // of the normalized overhead, at the rule's confidence
  /* OPT-EPOCH only: the mean over trials of (assignments tested / epochs), and of epochs. */
  double assignments_tested_per_epoch = 0;
  double mean_epochs = 0;
};

struct PointResult {
  OverheadPoint point;
  MinsDistribution distribution;
  long trials = 0;
  double confidence = 0; // the level of every estimate's interval
  bool converged = false;
  std::vector<SeriesResult> series;
};

/* The stream of a point's M_j: named by N, J and the load only, so that the points of Figure 11 (k varies) and the
 * roundings share their random numbers. */
RandomStream point_stream(std::uint64_t seed, const OverheadPoint& point);

/* Runs one point; nullopt when the point is left out. `series` empty: series_at(point). PolicyError if a schedule of
 * the first batch fails the validator. */
std::optional<PointResult> run_point(const OverheadPoint& point, std::uint64_t seed, const StoppingRule& rule,
                                     RangeRounding rounding = RangeRounding::mix,
                                     const std::vector<SeriesPolicy>& series = {});

/* A figure: its points, grouped in panels (one plot each), and the swept parameter. */
struct FigurePanel {
  std::string name;  // file name stem: "figure9-load100"
  std::string title; // "Figure 9: N = 128, k = 1, load 100%"
  std::string x;     // "jobs", "nodes" or "k"
  std::vector<OverheadPoint> points;
};
struct FigureSpec {
  std::string id; // "9", "10", "11"
  std::string caption;
  std::vector<FigurePanel> panels;
};
/* Figure 9 (J = 1..32 at loads 100% and 200%), 10 (N = 16..256 step 8, loads 100% and 200%), 11 (k = 0..8 at
 * J = 7 and 8, load 100%, and J = 15 and 16, load 200%), all at Table 3's other defaults. */
std::vector<FigureSpec> overhead_figures();

} // namespace jobsched::memory_constrained
