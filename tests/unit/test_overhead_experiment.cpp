/* The Monte Carlo overhead experiment (plugin/experiment/overhead_experiment.hpp, `jobsched plan-sweep`) of McCann &
 * Zahorjan 1994, section 5.1: the M_j distribution of Table 3 and its rounding (means computed by hand), the series
 * the paper plots at a point, a whole Monte Carlo point against its exact expectation enumerated by hand (N = 4,
 * J = 3), the confidence interval against Boost.Math's Student t, the stopping rule, the paper's N = 160 explanation
 * of EQUI-EPOCH's spike on a concrete instance, reproducibility, and the command's one-line refusals. */
#include "core/errors.hpp"
#include "experiment/overhead_experiment.hpp"
#include "experiment/plan_sweep_command.hpp"
#include "policies/memory_constrained/policies.hpp"
#include "support/input_error.hpp"
#include "support/scratch_folder.hpp"

#include <boost/math/distributions/students_t.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

using namespace jobsched;
using namespace jobsched::memory_constrained;
using jobsched::testing::input_error_of;

namespace {

std::string slurp(const std::filesystem::path& file)
{
  std::ifstream in(file, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

const SeriesResult& series_named(const PointResult& r, const std::string& name)
{
  for (const auto& s : r.series)
    if (s.which.series == name) return s;
  throw std::runtime_error("no series " + name);
}

} // namespace

TEST(OverheadExperiment, Table3RangeAndItsRounding)
{
  // Table 3's defaults: 2LN/J - 1 = 2 x 128 / 8 - 1 = 31, an integer: M_j uniform on 1..31, mean 16 = LN/J.
  auto d = mins_distribution(128, 8, 100, RangeRounding::mix);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->low, 31);
  EXPECT_EQ(d->p_high_numerator, 0);
  EXPECT_EQ(d->largest(), 31);
  EXPECT_DOUBLE_EQ(d->mean(), 16.0);
  // J = 7: 256/7 - 1 = 35 + 4/7. mix: 1..36 with probability 4/7, else 1..35: mean 18 + 2/7 = 128/7 = LN/J.
  d = mins_distribution(128, 7, 100, RangeRounding::mix);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->low, 35);
  EXPECT_EQ(d->p_high_numerator, 4);
  EXPECT_EQ(d->p_high_denominator, 7);
  EXPECT_NEAR(d->mean(), 128.0 / 7.0, 1e-12);
  EXPECT_NEAR(7 * d->mean() / 128, 1.0, 1e-12); // load factor exactly 100%
  // floor: 1..35, mean 18 (load 98.4%); nearest: 35.57 -> 36, mean 18.5 (load 101.2%).
  d = mins_distribution(128, 7, 100, RangeRounding::floor);
  EXPECT_EQ(d->largest(), 35);
  EXPECT_DOUBLE_EQ(d->mean(), 18.0);
  d = mins_distribution(128, 7, 100, RangeRounding::nearest);
  EXPECT_EQ(d->largest(), 36);
  EXPECT_DOUBLE_EQ(d->mean(), 18.5);
  // J = 5 at 200%: 512/5 - 1 = 101.4 -> nearest 101.
  EXPECT_EQ(mins_distribution(128, 5, 200, RangeRounding::nearest)->largest(), 101);
  // Every mix distribution has the exact load factor.
  for (int nodes : {16, 100, 128, 160, 256})
    for (int jobs = 1; jobs <= 40; jobs++)
      for (int load : {50, 100, 200})
        if (auto m = mins_distribution(nodes, jobs, load, RangeRounding::mix)) {
          EXPECT_NEAR(jobs * m->mean() / nodes, load / 100.0, 1e-12) << nodes << " " << jobs << " " << load;
        }
}

TEST(OverheadExperiment, PointsWhoseRangeExceedsNAreLeftOut)
{
  // Load 100%: J = 1 gives 1..255 > 128; J = 2 gives 1..127.
  EXPECT_FALSE(mins_distribution(128, 1, 100, RangeRounding::mix));
  EXPECT_TRUE(mins_distribution(128, 2, 100, RangeRounding::mix));
  // Load 200%: J = 3 gives 1..169.67; J = 4 gives 1..127. The rounding does not change which points are left out.
  for (auto rounding : {RangeRounding::mix, RangeRounding::floor, RangeRounding::nearest}) {
    EXPECT_FALSE(mins_distribution(128, 3, 200, rounding));
    EXPECT_TRUE(mins_distribution(128, 4, 200, rounding));
  }
  // 2 x 128.5% of 128 / 2 - 1 = 163.48: left out even with floor.
  EXPECT_FALSE(mins_distribution(128, 2, 129, RangeRounding::floor));
  // An empty range: LN/J < 1.
  EXPECT_FALSE(mins_distribution(16, 40, 100, RangeRounding::mix));
  auto figures = overhead_figures();
  ASSERT_EQ(figures.size(), 3u);
  int left_out_100 = 0;
  int left_out_200 = 0;
  for (const auto& p : figures[0].panels[0].points)
    left_out_100 += !mins_distribution(p.nodes, p.jobs, p.load_percent, RangeRounding::mix);
  for (const auto& p : figures[0].panels[1].points)
    left_out_200 += !mins_distribution(p.nodes, p.jobs, p.load_percent, RangeRounding::mix);
  EXPECT_EQ(left_out_100, 1);
  EXPECT_EQ(left_out_200, 3);
  EXPECT_THROW(mins_distribution(0, 8, 100, RangeRounding::mix), InputError);
}

TEST(OverheadExperiment, DrawsFollowTheMixture)
{
  // N = 4, J = 3, load 100%: 8/3 - 1 = 5/3, so the upper end is 1 with probability 1/3 and 2 with probability 2/3:
  // P(M = 1) = 1/3 + 2/3 x 1/2 = 2/3, P(M = 2) = 1/3.
  auto d = mins_distribution(4, 3, 100, RangeRounding::mix);
  ASSERT_TRUE(d);
  RandomStream stream(7, "test");
  long ones = 0;
  long total = 0;
  for (int i = 0; i < 100000; i++)
    for (int m : draw_mins(*d, 3, stream)) {
      ASSERT_TRUE(m == 1 || m == 2);
      ones += m == 1;
      total++;
    }
  EXPECT_NEAR(static_cast<double>(ones) / static_cast<double>(total), 2.0 / 3.0, 0.005);
  // Uniform on 1..31: each value about 1/31 of the draws.
  auto d31 = mins_distribution(128, 8, 100, RangeRounding::mix);
  std::vector<long> count(32, 0);
  for (int i = 0; i < 40000; i++)
    for (int m : draw_mins(*d31, 8, stream)) {
      ASSERT_GE(m, 1);
      ASSERT_LE(m, 31);
      count[static_cast<size_t>(m)]++;
    }
  for (int m = 1; m <= 31; m++)
    EXPECT_NEAR(count[static_cast<size_t>(m)] / 320000.0, 1.0 / 31, 0.002) << m;
}

TEST(OverheadExperiment, SeriesFollowThePaper)
{
  auto names = [](const OverheadPoint& p) {
    std::string out;
    for (const auto& s : series_at(p))
      out += s.series + "=" + s.policy + " ";
    return out;
  };
  EXPECT_EQ(names({128, 8, 100, 1}),
            "buddy=buddy hybrid=hybrid equi-epoch=equi-epoch opt-epoch=opt-epoch heuristic-epoch=heuristic-epoch ");
  EXPECT_EQ(names({128, 7, 100, 1}), "buddy=buddy-star hybrid=hybrid equi-epoch=equi-epoch opt-epoch=opt-epoch "
                                     "heuristic-epoch=heuristic-epoch ");
  EXPECT_EQ(names({160, 8, 100, 1}), "equi-epoch=equi-epoch opt-epoch=opt-epoch heuristic-epoch=heuristic-epoch ");
  EXPECT_EQ(names({128, 8, 100, 2}),
            "buddy=buddy hybrid=hybrid equi-epoch=equi-epoch heuristic-epoch=heuristic-epoch ");
}

/* N = 4, J = 3, load 100%: every M_j is 1 (probability 2/3) or 2 (1/3), by hand above. A partition of 4 into 3 parts
 * within k = 1 is {2, 1, 1}, so OPT-EPOCH(1) and HEURISTIC-EPOCH(1) need one epoch when at most one job has M = 2
 * (probability (2/3)^3 + 3 (1/3)(2/3)^2 = 20/27) and two otherwise: expected normalized overhead 20/27 + 2 x 7/27 =
 * 34/27. 3 does not divide 4, so EQUI-EPOCH always needs 2 epochs (2 jobs at width 2, then 1 at 4): overhead 2.
 * BUDDY* (subsets 2 and 1) and HYBRID(1) (BUDDY for 2, the third alone) use widths 2, 2 and 4: overhead 2. */
TEST(OverheadExperiment, SmallPointMatchesItsExactExpectation)
{
  StoppingRule rule;
  auto r = run_point({4, 3, 100, 1}, 42, rule);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->converged);
  EXPECT_EQ(r->trials % rule.batch, 0);
  for (const char* constant : {"buddy", "hybrid", "equi-epoch"}) {
    const auto& s = series_named(*r, constant);
    EXPECT_DOUBLE_EQ(s.estimate.mean, 2.0) << constant;
    EXPECT_DOUBLE_EQ(s.estimate.half_width, 0.0) << constant;
  }
  EXPECT_EQ(series_named(*r, "buddy").which.policy, "buddy-star");
  for (const char* varying : {"opt-epoch", "heuristic-epoch"}) {
    const auto& s = series_named(*r, varying);
    EXPECT_LE(s.estimate.half_width, 0.01 * s.estimate.mean) << varying;
    EXPECT_NEAR(s.estimate.mean, 34.0 / 27.0, 3 * s.estimate.half_width) << varying;
    // The estimate's interval is Student's t at 90% (checked against Boost.Math).
    boost::math::students_t t(static_cast<double>(s.estimate.n - 1));
    double expected = boost::math::quantile(t, 0.95) * s.estimate.std / std::sqrt(static_cast<double>(s.estimate.n));
    EXPECT_NEAR(s.estimate.half_width, expected, 1e-9 * expected) << varying;
  }
  // The stopping rule stopped at the first batch where every interval was narrow enough, not later.
  StoppingRule shorter = rule;
  shorter.max_trials = r->trials - rule.batch;
  if (shorter.max_trials >= rule.batch) {
    auto earlier = run_point({4, 3, 100, 1}, 42, shorter);
    EXPECT_FALSE(earlier->converged);
    EXPECT_EQ(earlier->trials, shorter.max_trials);
  }
}

TEST(OverheadExperiment, StudentQuantileAgreesWithBoost)
{
  for (double df : {1.0, 2.0, 5.0, 30.0, 999.0, 99999.0})
    for (double p : {0.9, 0.95, 0.975, 0.995}) {
      boost::math::students_t t(df);
      EXPECT_NEAR(student_t_quantile(p, df), boost::math::quantile(t, p), 1e-9) << df << " " << p;
    }
}

/* Section 5.1's explanation of EQUI-EPOCH's spike at N = 160 (J = 8): it puts the five smallest jobs in the first
 * epoch (5 divides 160, 8 jobs cannot share it), leaving three, which need two more epochs since 3 does not divide
 * 160; four and four would do with two epochs. */
TEST(OverheadExperiment, EquiEpochSpikeAt160)
{
  std::vector<int> mins{10, 10, 10, 10, 10, 30, 30, 30};
  EXPECT_EQ(equi_epoch_schedule(160, mins).epochs.size(), 3u);
  EXPECT_EQ(opt_epoch_schedule(160, mins, 0).epochs.size(), 2u);
  EXPECT_EQ(equi_epoch_schedule(128, mins).epochs.size(), 2u); // N a power of two: optimal
  // And in the Monte Carlo: the spike is there at 160 and not at 152 or 168.
  StoppingRule rule;
  auto at = [&](int nodes) {
    return series_named(*run_point({nodes, 8, 100, 1}, 1, rule), "equi-epoch").estimate.mean;
  };
  double spike = at(160);
  EXPECT_GT(spike, at(152) + 0.5);
  EXPECT_GT(spike, at(168) + 0.5);
  EXPECT_LT(series_named(*run_point({160, 8, 100, 1}, 1, rule), "opt-epoch").estimate.mean, 2.05);
}

TEST(OverheadExperiment, SameSeedSameTables)
{
  StoppingRule rule;
  auto a = run_point({128, 7, 200, 1}, 5, rule);
  auto b = run_point({128, 7, 200, 1}, 5, rule);
  auto c = run_point({128, 7, 200, 1}, 6, rule);
  EXPECT_EQ(overhead_csv_rows("p", *a), overhead_csv_rows("p", *b));
  EXPECT_NE(overhead_csv_rows("p", *a), overhead_csv_rows("p", *c));
  // The command's files, twice.
  jobsched::testing::ScratchFolder scratch;
  for (const char* run : {"one", "two"})
    EXPECT_EQ(plan_sweep_main({"--figure", "11", "--no-plot", "--quiet", "--out", (scratch.dir / run).string()}), 0);
  for (const char* file : {"figure11.csv", "figure11.md"}) {
    std::string one = slurp(scratch.dir / "one" / file);
    EXPECT_FALSE(one.empty());
    EXPECT_EQ(one, slurp(scratch.dir / "two" / file)) << file;
  }
}

TEST(OverheadExperiment, CommandRefusesBadArgumentsInOneLine)
{
  auto refusal = [](std::vector<std::string> args) { return input_error_of([&] { plan_sweep_main(args); }); };
  EXPECT_NE(refusal({"--rounding", "up"}).find("--rounding"), std::string::npos);
  EXPECT_NE(refusal({"--figure", "12"}).find("--figure"), std::string::npos);
  EXPECT_NE(refusal({"--confidence", "1.5"}).find("--confidence"), std::string::npos);
  EXPECT_NE(refusal({"--precision", "x"}).find("--precision"), std::string::npos);
  EXPECT_NE(refusal({"--batch", "1"}).find("--batch"), std::string::npos);
  EXPECT_NE(refusal({"--jobs", "1"}).find("--jobs"), std::string::npos); // J = 1: range 1..255 > N
  EXPECT_NE(refusal({"--jobs", "8", "--figure", "9"}).find("--figure"), std::string::npos);
  EXPECT_NE(refusal({"--bogus"}).find("--bogus"), std::string::npos);
  EXPECT_NE(refusal({"--k"}).find("--k"), std::string::npos);
  for (const auto& message : {refusal({"--rounding", "up"}), refusal({"--jobs", "1"})})
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}
