/* The workload of McCann & Zahorjan 1994, section 5.2: the static speedup S_static(n) = S(n) N / (n ceil(N/n)), the
 * two-class hyperexponential service demands (means 400 and 4000, equally likely), Table 3's minimum node counts
 * drawn per job, and the scenario keys that select them. Speedups are checked against fractions worked out by hand
 * and against the paper's own form of the formula (floor, ceil and mod), evaluated here independently; the
 * distributions against their exact moments and tail probabilities, with tolerances of about five standard errors. */
#include "core/errors.hpp"
#include "model/job_shapes.hpp"
#include "model/speedup.hpp"
#include "scenario/scenario.hpp"
#include "support/input_error.hpp"
#include "workload/generator.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

using namespace jobsched;
using jobsched::testing::input_error_of;

namespace {

bool contains(const std::string& text, const std::string& part)
{
  return text.find(part) != std::string::npos;
}

/* The paper's form: S(n) (floor(N/n) / ceil(N/n) (n - N mod n) + N mod n) / n, in integers where it can be. */
double paper_static_speedup(double beta, int threads, int n)
{
  const int q = threads / n;
  const int r = threads % n;
  const int c = (threads + n - 1) / n;
  const double dynamic = (1 + beta) * n / (beta + n);
  return dynamic * (static_cast<double>(q) / c * (n - r) + r) / n;
}

GeneratorSpec section_5_2_spec(long jobs, int population, int load_percent)
{
  GeneratorSpec s;
  s.jobs = jobs;
  s.seed = 11;
  s.time_resolution = 0;
  s.run_time_distribution = RunTimeDistribution::two_class;
  s.min_nodes.enabled = true;
  s.min_nodes.jobs = population;
  s.min_nodes.load_percent = load_percent;
  s.min_nodes.node_memory_mb = 32;
  return s;
}

/* M_j of every generated job, read back from its memory (size 1, memory M_j x 32 MB). */
std::vector<int> mins_of(const std::vector<JobRecord>& jobs)
{
  std::vector<int> out;
  for (const auto& r : jobs) {
    EXPECT_EQ(r.job.size, 1);
    const double m = r.job.memory_kb / (32 * 1024.0);
    EXPECT_EQ(m, std::round(m)) << "memory is not a whole number of nodes";
    out.push_back(static_cast<int>(m));
  }
  return out;
}

const std::string kResponseScenario = "platform: p.xml\n"
                                      "workload:\n"
                                      "  generator:\n"
                                      "    run_time_distribution: two-class\n"
                                      "    min_nodes: {load_percent: 200, node_memory_mb: 32}\n"
                                      "  closed: {jobs: 15}\n"
                                      "  jobs:\n"
                                      "    speedup: {model: beta-static, beta_min: 30, beta_max: 300, threads: 64}\n";

std::string scenario_error(const std::string& yaml)
{
  return input_error_of([&] { parse_scenario(yaml, "/proj/s.yaml", {}); });
}

} // namespace

/* N = 128, beta = 30. S(48) = 31 x 48 / 78 = 1488 / 78; the busiest of 48 nodes holds ceil(128 / 48) = 3 threads, so
 * S_static(48) = 1488 / 78 x 128 / 144 = 1984 / 117. 64 divides 128: S_static(64) = S(64) = 31 x 64 / 94 = 992 / 47.
 * 127 nodes: 2 threads on the busiest, S(127) x 128 / 254 = 31 x 64 / 157 = 1984 / 157, less than on 64 nodes. */
TEST(StaticSpeedup, ByHandAtN128)
{
  Speedup s = Speedup::with_beta_static(30, 128);
  EXPECT_NEAR(s(48), 1984.0 / 117.0, 1e-12);
  EXPECT_NEAR(s(64), 992.0 / 47.0, 1e-12);
  EXPECT_NEAR(Speedup::with_beta(30)(64), 992.0 / 47.0, 1e-12);
  EXPECT_NEAR(s(127), 1984.0 / 157.0, 1e-12);
  EXPECT_LT(s(127), s(64));
  EXPECT_DOUBLE_EQ(s(1), 1);                    // one node holds every thread: no loss
  EXPECT_NEAR(s(128), 31.0 * 128 / 158, 1e-12); // one thread a node
  EXPECT_STREQ(to_string(s.model), "beta-static");
}

/* More nodes than threads: N = 4 threads on 6 nodes use 4 of them. beta = 2: S(6) = 3 x 6 / 8 = 2.25, x 4 / 6 = 1.5. */
TEST(StaticSpeedup, MoreNodesThanThreads)
{
  EXPECT_NEAR(Speedup::with_beta_static(2, 4)(6), 1.5, 1e-12);
}

/* The README's form S(n) N / (n ceil(N/n)) against the paper's form, for every n of three machine sizes. */
TEST(StaticSpeedup, EqualsThePapersFormEverywhere)
{
  for (int threads : {7, 128, 140})
    for (double beta : {30.0, 165.0, 300.0})
      for (int n = 1; n <= threads; n++)
        EXPECT_NEAR(Speedup::with_beta_static(beta, threads)(n), paper_static_speedup(beta, threads, n), 1e-9)
            << "N = " << threads << ", beta = " << beta << ", n = " << n;
}

/* apply_job_shapes draws the same betas for beta and beta-static (stream "speedup") and gives N = the machine size
 * unless threads is set. */
TEST(StaticSpeedup, JobShapesDrawTheSameBetas)
{
  JobList dynamic_jobs(20), static_jobs(20), sixty_four(20);
  JobShapeSpec spec;
  spec.speedup = Speedup::Model::beta;
  spec.beta_min = 30;
  spec.beta_max = 300;
  apply_job_shapes(dynamic_jobs, spec, 128, 5);
  spec.speedup = Speedup::Model::beta_static;
  apply_job_shapes(static_jobs, spec, 128, 5);
  spec.static_threads = 64;
  apply_job_shapes(sixty_four, spec, 128, 5);
  for (size_t i = 0; i < dynamic_jobs.size(); i++) {
    EXPECT_EQ(static_jobs[i].speedup.beta, dynamic_jobs[i].speedup.beta);
    EXPECT_GE(static_jobs[i].speedup.beta, 30);
    EXPECT_LE(static_jobs[i].speedup.beta, 300);
    EXPECT_EQ(static_jobs[i].speedup.model, Speedup::Model::beta_static);
    EXPECT_EQ(static_jobs[i].speedup.threads, 128);
    EXPECT_EQ(sixty_four[i].speedup.threads, 64);
  }
}

/* Means 400 and 4000, equally likely: mean 2200; P(X > 4000) = (e^-10 + e^-1) / 2 = 0.183962 (a single exponential
 * of mean 2200 would give e^-1.818 = 0.1623). 40,000 draws: standard errors 17 s and 0.0019. */
TEST(TwoClassRunTimes, MomentsAndTail)
{
  GeneratorSpec s = section_5_2_spec(40000, 8, 100);
  auto jobs = generate_jobs(s, 128);
  double sum = 0;
  long above = 0;
  for (const auto& r : jobs) {
    sum += r.job.run_time;
    above += r.job.run_time > 4000;
    EXPECT_GT(r.job.run_time, 0);
    EXPECT_GE(r.job.estimate, r.job.run_time);
  }
  EXPECT_NEAR(sum / jobs.size(), 2200, 5 * 3365 / std::sqrt(40000.0));
  EXPECT_NEAR(static_cast<double>(above) / jobs.size(), 0.183962, 0.01);
}

/* long_fraction 0: one exponential of mean short_mean = 400: P(X > 400) = e^-1. */
TEST(TwoClassRunTimes, OnlyShortJobs)
{
  GeneratorSpec s = section_5_2_spec(40000, 8, 100);
  s.long_fraction = 0;
  auto jobs = generate_jobs(s, 128);
  double sum = 0;
  long above = 0;
  for (const auto& r : jobs) {
    sum += r.job.run_time;
    above += r.job.run_time > 400;
  }
  EXPECT_NEAR(sum / jobs.size(), 400, 5 * 400 / std::sqrt(40000.0));
  EXPECT_NEAR(static_cast<double>(above) / jobs.size(), std::exp(-1.0), 0.0125);
}

/* Table 3 at N = 128, J = 8, load 100%: M_j uniform on 1 .. 31, mean 16 (= LN/J), every value drawn. */
TEST(MinNodes, UniformAtTheDefaults)
{
  auto mins = mins_of(generate_jobs(section_5_2_spec(20000, 8, 100), 128));
  std::map<int, long> counts;
  double sum = 0;
  for (int m : mins) {
    counts[m]++;
    sum += m;
  }
  EXPECT_EQ(counts.begin()->first, 1);
  EXPECT_EQ(counts.rbegin()->first, 31);
  EXPECT_EQ(counts.size(), 31u);
  EXPECT_NEAR(sum / mins.size(), 16, 5 * 8.94 / std::sqrt(20000.0));
}

/* J = 7: 2LN/J - 1 = 256/7 - 1 = 35.571. "mix" draws 1..36 with probability 4/7, else 1..35: mean LN/J = 128/7, and
 * P(M = 36) = 4/7 / 36 = 0.015873 (317 of 20,000, sd 18). "floor": 1..35, mean 18. "nearest": 1..36, mean 18.5. */
TEST(MinNodes, RoundingOfAFractionalRange)
{
  GeneratorSpec s = section_5_2_spec(20000, 7, 100);
  auto mean_and_top = [&](memory_constrained::RangeRounding rounding) {
    s.min_nodes.rounding = rounding;
    auto mins = mins_of(generate_jobs(s, 128));
    double sum = 0;
    long top = 0;
    int largest = 0;
    for (int m : mins) {
      sum += m;
      top += m == 36;
      largest = std::max(largest, m);
    }
    return std::vector<double>{sum / mins.size(), static_cast<double>(top), static_cast<double>(largest)};
  };
  const double tolerance = 5 * 10.4 / std::sqrt(20000.0);
  auto mix = mean_and_top(memory_constrained::RangeRounding::mix);
  EXPECT_NEAR(mix[0], 128.0 / 7, tolerance);
  EXPECT_NEAR(mix[1], 317.5, 90);
  EXPECT_EQ(mix[2], 36);
  auto floor = mean_and_top(memory_constrained::RangeRounding::floor);
  EXPECT_NEAR(floor[0], 18, tolerance);
  EXPECT_EQ(floor[2], 35);
  auto nearest = mean_and_top(memory_constrained::RangeRounding::nearest);
  EXPECT_NEAR(nearest[0], 18.5, tolerance);
  EXPECT_EQ(nearest[2], 36);
}

/* Each quantity has its own stream: turning M_j on changes neither arrivals nor run times; the same seed gives the same
 * jobs. */
TEST(MinNodes, OwnStreamAndDeterminism)
{
  GeneratorSpec with = section_5_2_spec(500, 8, 100);
  GeneratorSpec without = with;
  without.min_nodes.enabled = false;
  auto a = generate_jobs(with, 128);
  auto b = generate_jobs(without, 128);
  auto again = generate_jobs(with, 128);
  for (size_t i = 0; i < a.size(); i++) {
    EXPECT_EQ(a[i].job.run_time, b[i].job.run_time);
    EXPECT_EQ(a[i].job.submit_time, b[i].job.submit_time);
    EXPECT_EQ(a[i].job.run_time, again[i].job.run_time);
    EXPECT_EQ(a[i].job.memory_kb, again[i].job.memory_kb);
  }
}

/* The range can exceed N (J = 1 at load 100%: 1 .. 255 on 128 nodes) or be empty (J = 300): one line naming the key. */
TEST(MinNodes, RangesThatDoNotFitAreRefused)
{
  auto e = input_error_of([] { generate_jobs(section_5_2_spec(10, 1, 100), 128); });
  EXPECT_TRUE(contains(e, "workload.generator.min_nodes")) << e;
  EXPECT_TRUE(contains(e, "can exceed N")) << e;
  e = input_error_of([] { generate_jobs(section_5_2_spec(10, 300, 100), 128); });
  EXPECT_TRUE(contains(e, "is empty")) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos);
}

TEST(ResponseScenarioKeys, AreRead)
{
  Scenario sc = parse_scenario(kResponseScenario, "/proj/s.yaml", {});
  const GeneratorSpec& g = *sc.workload.generator;
  EXPECT_EQ(g.run_time_distribution, RunTimeDistribution::two_class);
  EXPECT_EQ(g.short_mean, 400);
  EXPECT_EQ(g.long_mean, 4000);
  EXPECT_EQ(g.long_fraction, 0.5);
  EXPECT_TRUE(g.min_nodes.enabled);
  EXPECT_EQ(g.min_nodes.jobs, 15); // workload.closed.jobs
  EXPECT_EQ(g.min_nodes.load_percent, 200);
  EXPECT_EQ(g.min_nodes.node_memory_mb, 32);
  EXPECT_EQ(g.min_nodes.rounding, memory_constrained::RangeRounding::mix);
  EXPECT_EQ(sc.workload.jobs.speedup, Speedup::Model::beta_static);
  EXPECT_EQ(sc.workload.jobs.static_threads, 64);
  Scenario given = parse_scenario(kResponseScenario, "/proj/s.yaml",
                                  {"workload.generator.min_nodes.jobs=7", "workload.generator.min_nodes.rounding=floor",
                                   "workload.generator.short_mean=10", "workload.generator.long_fraction=0.25"});
  EXPECT_EQ(given.workload.generator->min_nodes.jobs, 7);
  EXPECT_EQ(given.workload.generator->min_nodes.rounding, memory_constrained::RangeRounding::floor);
  EXPECT_EQ(given.workload.generator->short_mean, 10);
  EXPECT_EQ(given.workload.generator->long_fraction, 0.25);
  Scenario plain = parse_scenario("platform: p.xml\nworkload: {generator: {}}\n", "/proj/s.yaml", {});
  EXPECT_EQ(plain.workload.generator->run_time_distribution, RunTimeDistribution::log_uniform);
  EXPECT_FALSE(plain.workload.generator->min_nodes.enabled);
}

/* Every new key's bad values: one line, naming the file and the dotted key. */
TEST(ResponseScenarioKeys, BadValuesNameTheKey)
{
  const std::vector<std::pair<std::string, std::string>> cases{
      {"run_time_distribution: pareto", "workload.generator.run_time_distribution: expected one of"},
      {"short_mean: 0", "workload.generator.short_mean: must be above 0"},
      {"long_mean: -3", "workload.generator.long_mean: must be above 0"},
      {"long_fraction: 1.5", "workload.generator.long_fraction: must be at least 0 and at most 1"},
      {"min_nodes: {node_memory_mb: 32, load_percent: 0}", "workload.generator.min_nodes.load_percent: must be"},
      {"min_nodes: {node_memory_mb: 32, jobs: 0}", "workload.generator.min_nodes.jobs: must be at least 1"},
      {"min_nodes: {node_memory_mb: 32, rounding: up}", "workload.generator.min_nodes.rounding: expected one of"},
      {"min_nodes: {node_memory_mb: 0}", "workload.generator.min_nodes.node_memory_mb: must be above 0"},
      {"min_nodes: {load_percent: 100}", "workload.generator.min_nodes: node_memory_mb: missing"},
      {"min_nodes: {node_memory_mb: 32, load: 100}", "workload.generator.min_nodes.load: unknown key"},
  };
  for (const auto& [line, want] : cases) {
    std::string yaml = "platform: p.xml\nworkload:\n  closed: {jobs: 8}\n  generator:\n    run_time_distribution: "
                       "two-class\n    " +
                       line + "\n";
    if (line.rfind("run_time_distribution", 0) == 0)
      yaml = "platform: p.xml\nworkload:\n  closed: {jobs: 8}\n  generator:\n    " + line + "\n";
    std::string e = scenario_error(yaml);
    EXPECT_TRUE(contains(e, want)) << line << " -> " << e;
    EXPECT_TRUE(contains(e, "/proj/s.yaml")) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
  // Keys of the other distribution are refused rather than ignored.
  EXPECT_TRUE(contains(scenario_error("platform: p.xml\nworkload: {generator: {short_mean: 400}}\n"),
                       "workload.generator.short_mean: only run_time_distribution: two-class has it"));
  EXPECT_TRUE(contains(
      scenario_error("platform: p.xml\nworkload: {generator: {run_time_distribution: two-class, max_run_time: 9}}\n"),
      "workload.generator.max_run_time: only run_time_distribution: log-uniform has it"));
  // J of 2LN/J: from workload.closed.jobs, or given.
  EXPECT_TRUE(contains(scenario_error("platform: p.xml\nworkload: {generator: {min_nodes: {node_memory_mb: 32}}}\n"),
                       "workload.generator.min_nodes.jobs: missing"));
  // threads belongs to beta-static only.
  EXPECT_TRUE(contains(scenario_error("platform: p.xml\nworkload: {generator: {}, jobs: {speedup: {model: beta, "
                                      "threads: 4}}}\n"),
                       "workload.jobs.speedup.threads: only the beta-static model has threads"));
  EXPECT_TRUE(contains(scenario_error("platform: p.xml\nworkload: {generator: {}, jobs: {speedup: {model: "
                                      "beta-static, threads: -1}}}\n"),
                       "workload.jobs.speedup.threads: must be between 0 and"));
}
