/* Sweeps without simulating: Student t against published table values, confidence intervals by hand, grid expansion
 * and --set interplay, replication seeds (common random numbers), run identity, CSV quoting, and the tables built
 * from hand-made run folders. */
#include "core/csv.hpp"
#include "experiment/statistics.hpp"
#include "experiment/sweep_plan.hpp"
#include "experiment/tables.hpp"
#include "support/input_error.hpp"

#include "support/scratch_folder.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <unistd.h>

using namespace jobsched;
using jobsched::testing::input_error_of;
namespace fs = std::filesystem;

namespace {

TEST(StudentT, QuantilesMatchPublishedTables)
{
  // Two-sided 95% critical values (e.g. any statistics textbook's t table).
  EXPECT_NEAR(student_t_quantile(0.975, 1), 12.7062, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.975, 2), 4.3027, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.975, 4), 2.7764, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.975, 10), 2.2281, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.975, 30), 2.0423, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.975, 1e6), 1.9600, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.995, 5), 4.0321, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.025, 10), -2.2281, 1e-4);
  EXPECT_NEAR(student_t_cdf(0, 7), 0.5, 1e-12);
}

TEST(Estimate, MeanStdAndHalfWidthByHand)
{
  // Samples 2, 4, 4, 4, 5, 5, 7, 9: mean 5, squares 32, sample variance 32/7, std 2.13809;
  // half-width = t(0.975, 7) = 2.36462 x 2.13809 / sqrt(8) = 1.78749.
  Estimate e = estimate({2, 4, 4, 4, 5, 5, 7, 9});
  EXPECT_EQ(e.n, 8);
  EXPECT_DOUBLE_EQ(e.mean, 5);
  EXPECT_NEAR(e.std, std::sqrt(32.0 / 7.0), 1e-12);
  EXPECT_NEAR(e.half_width, 1.78749, 1e-4);
  Estimate one = estimate({3});
  EXPECT_EQ(one.n, 1);
  EXPECT_FALSE(one.has_interval());
}

TEST(Csv, QuotingRoundTrips)
{
  std::vector<std::string> fields{"plain", "a,b", "say \"hi\"", "", "[1, 2]"};
  std::string row = csv_row(fields);
  EXPECT_EQ(row, "plain,\"a,b\",\"say \"\"hi\"\"\",,\"[1, 2]\"\n");
  row.pop_back();
  EXPECT_EQ(csv_split(row), fields);
}

using Folder = jobsched::testing::ScratchFolder;

// A field holding a line break is written quoted on two lines; read_csv reads it back as one field of one row (it
// used to split the row there and report a wrong field count), and a row's line is the line it starts on.
TEST(Csv, QuotedLineBreaksRoundTripThroughAFile)
{
  Folder f;
  const std::vector<std::string> header{"job_id", "workload_name", "arch"};
  const std::vector<std::string> row{"1", "two\nlines", "x86,64"};
  auto file = f.write("t.csv", csv_row(header) + csv_row(row) + csv_row({"2", "plain", "\"q\""}));
  CsvTable t = read_csv(file);
  EXPECT_EQ(t.header, header);
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[0], row);
  EXPECT_EQ(t.rows[1], (std::vector<std::string>{"2", "plain", "\"q\""}));
  EXPECT_EQ(t.lines, (std::vector<size_t>{2, 4}));
  auto open = f.write("u.csv", "a,b\n1,\"never closed\n2,3\n");
  EXPECT_NE(input_error_of([&] { read_csv(open); }).find("u.csv:2: a quoted field is not closed"), std::string::npos);
}

const std::string kBase = "platform: p.xml\nworkload: {generator: {jobs: 10}}\nsimulation: {seed: 7}\n";

TEST(SweepPlan, GridOrderLastAxisFastest)
{
  Folder f;
  auto file = f.write("s.yaml", kBase + "sweep:\n  policy.name: [fcfs, easy]\n  workload.generator.jobs: [5, 6, 7]\n");
  SweepPlan plan = SweepPlan::load(file, {});
  ASSERT_EQ(plan.point_count(), 6);
  EXPECT_EQ(plan.point_values(0), (std::vector<std::string>{"fcfs", "5"}));
  EXPECT_EQ(plan.point_values(2), (std::vector<std::string>{"fcfs", "7"}));
  EXPECT_EQ(plan.point_values(3), (std::vector<std::string>{"easy", "5"}));
  EXPECT_EQ(plan.point_values(5), (std::vector<std::string>{"easy", "7"}));
  // No replications given: one run per point with the scenario's seed.
  auto runs = plan.initial_runs();
  ASSERT_EQ(runs.size(), 6U);
  for (const auto& r : runs)
    EXPECT_EQ(r.seed, 7U);
  EXPECT_EQ(runs[4].overrides,
            (std::vector<std::string>{"policy.name=easy", "workload.generator.jobs=6", "simulation.seed=7"}));
}

// Keys swept together take their values in step: 3 pairs x 2 sizes = 6 points, not 3 x 3 x 2.
TEST(SweepPlan, KeysSweptTogetherTakeTheirValuesInStep)
{
  Folder f;
  auto file = f.write("s.yaml", kBase + "sweep:\n  policy.name, workload.generator.jobs: [[fcfs, 5], [easy, 6], "
                                        "[fcfs, 8]]\n  workload.generator.max_run_time: [100, 200]\n");
  SweepPlan plan = SweepPlan::load(file, {});
  ASSERT_EQ(plan.axes().size(), 3U);
  EXPECT_EQ(plan.axes()[1].key, "workload.generator.jobs");
  ASSERT_EQ(plan.point_count(), 6);
  EXPECT_EQ(plan.point_values(0), (std::vector<std::string>{"fcfs", "5", "100"}));
  EXPECT_EQ(plan.point_values(1), (std::vector<std::string>{"fcfs", "5", "200"}));
  EXPECT_EQ(plan.point_values(2), (std::vector<std::string>{"easy", "6", "100"}));
  EXPECT_EQ(plan.point_values(5), (std::vector<std::string>{"fcfs", "8", "200"}));
  EXPECT_EQ(plan.make_run(3, 0).overrides,
            (std::vector<std::string>{"policy.name=easy", "workload.generator.jobs=6",
                                      "workload.generator.max_run_time=200", "simulation.seed=7"}));
  // One pair alone is one point; the last group may be the one swept together.
  auto one = f.write("o.yaml", kBase + "sweep:\n  workload.generator.max_run_time: [100, 200]\n"
                                       "  policy.name , workload.generator.jobs: [easy, 9]\n");
  SweepPlan single = SweepPlan::load(one, {});
  ASSERT_EQ(single.point_count(), 2);
  EXPECT_EQ(single.point_values(1), (std::vector<std::string>{"200", "easy", "9"}));
  // A point with the wrong count of values, an empty key, a key swept twice: errors naming the line and keys.
  auto short_pair = f.write("a.yaml", kBase + "sweep:\n  policy.name, workload.generator.jobs: [[fcfs, 5], [easy]]\n");
  EXPECT_NE(input_error_of([&] {
              SweepPlan::load(short_pair, {});
            }).find("a.yaml:5: sweep.policy.name, workload.generator.jobs: keys swept together take a list of 2"),
            std::string::npos);
  auto empty_key = f.write("b.yaml", kBase + "sweep:\n  policy.name,: [[fcfs, 5]]\n");
  EXPECT_NE(input_error_of([&] { SweepPlan::load(empty_key, {}); }).find("b.yaml:5: sweep.policy.name,: an empty key"),
            std::string::npos);
  auto twice = f.write("c.yaml", kBase + "sweep:\n  policy.name: [fcfs]\n  workload.generator.jobs, policy.name: "
                                         "[[5, easy]]\n");
  EXPECT_NE(input_error_of([&] { SweepPlan::load(twice, {}); }).find("c.yaml:6: sweep.policy.name: swept twice"),
            std::string::npos);
  auto none = f.write("d.yaml", kBase + "sweep:\n  policy.name, workload.generator.jobs: []\n");
  EXPECT_NE(input_error_of([&] { SweepPlan::load(none, {}); }).find("no value to sweep over"), std::string::npos);
}

TEST(SweepPlan, SetOverridesApplyToEveryRunAndToTheSweepItself)
{
  Folder f;
  auto file = f.write("s.yaml", kBase + "sweep: {policy.name: [fcfs, easy]}\nreplications: 2\n");
  // --set sweep=... replaces the grid; --set on a value reaches every run.
  SweepPlan plan = SweepPlan::load(file, {"sweep={policy.name: [conservative, easy, fcfs]}"});
  ASSERT_EQ(plan.point_count(), 3);
  EXPECT_EQ(plan.point_values(0), (std::vector<std::string>{"conservative"}));
  SweepPlan p2 = SweepPlan::load(file, {"workload.max_jobs=3", "replications=3"});
  auto runs = p2.initial_runs();
  ASSERT_EQ(runs.size(), 6U);
  EXPECT_EQ(runs[0].overrides.front(), "workload.max_jobs=3");
  EXPECT_NE(runs[0].resolved_yaml.find("max_jobs: 3"), std::string::npos) << runs[0].resolved_yaml;
}

TEST(SweepPlan, ReplicationSeedsAreCommonToEveryPoint)
{
  Folder f;
  auto file = f.write("s.yaml", kBase + "sweep: {policy.name: [fcfs, easy]}\nreplications: 3\n");
  SweepPlan plan = SweepPlan::load(file, {});
  // Same replication -> same seed for both policies; seeds 7, 8, 9 from the scenario's seed 7.
  for (long r = 0; r < 3; r++) {
    EXPECT_EQ(plan.make_run(0, r).seed, 7U + r);
    EXPECT_EQ(plan.make_run(1, r).seed, 7U + r);
  }
  auto listed = f.write("l.yaml", kBase + "replications: [11, 42]\n");
  SweepPlan lp = SweepPlan::load(listed, {});
  auto runs = lp.initial_runs();
  ASSERT_EQ(runs.size(), 2U);
  EXPECT_EQ(runs[0].seed, 11U);
  EXPECT_EQ(runs[1].seed, 42U);
}

TEST(SweepPlan, RunsAreNamedByTheirResolvedScenario)
{
  Folder f;
  auto file = f.write("s.yaml", kBase + "sweep: {policy.name: [fcfs, easy]}\nreplications: 2\n");
  SweepPlan plan = SweepPlan::load(file, {});
  std::set<std::string> hashes;
  for (const auto& r : plan.initial_runs())
    hashes.insert(r.hash);
  EXPECT_EQ(hashes.size(), 4U);
  // Same resolved scenario, same name: output.dir and the sweep keys are not part of it.
  auto other = f.write("s.yaml", kBase + "sweep: {policy.name: [fcfs]}\nreplications: 1\noutput: {dir: elsewhere}\n");
  EXPECT_EQ(SweepPlan::load(other, {}).make_run(0, 0).hash, plan.make_run(0, 0).hash);
  EXPECT_EQ(plan.make_run(0, 0).hash.size(), 16U);
}

TEST(SweepPlan, BadSweepsAreInputErrors)
{
  Folder f;
  auto typo = f.write("t.yaml", kBase + "sweep: {policy.nmae: [fcfs]}\n");
  EXPECT_NE(input_error_of([&] { SweepPlan::load(typo, {}); }).find("policy.nmae"), std::string::npos);
  auto seed = f.write("u.yaml", kBase + "sweep: {simulation.seed: [1, 2]}\n");
  EXPECT_NE(input_error_of([&] { SweepPlan::load(seed, {}); }).find("replications"), std::string::npos);
  auto zero = f.write("v.yaml", kBase + "replications: 0\n");
  EXPECT_NE(input_error_of([&] { SweepPlan::load(zero, {}); }).find("v.yaml:4: replications"), std::string::npos);
  auto rule = f.write("w.yaml", kBase + "replications: {min: 3, max: 2}\n");
  EXPECT_NE(input_error_of([&] { SweepPlan::load(rule, {}); }).find("min <= max"), std::string::npos);
  auto level = f.write("x.yaml", kBase + "replications: {confidence: 1.5}\n");
  EXPECT_NE(input_error_of([&] { SweepPlan::load(level, {}); }).find("replications.confidence: must be"),
            std::string::npos);
  auto ninety = f.write("y.yaml", kBase + "replications: {confidence: 0.9}\n");
  EXPECT_DOUBLE_EQ(SweepPlan::load(ninety, {}).replications().confidence, 0.9);
  // {} is refused, in the file and from --set: one run (the key's absence) or a rule of defaults, no telling which.
  auto empty = f.write("z.yaml", kBase + "replications: {}\n");
  EXPECT_NE(input_error_of([&] { SweepPlan::load(empty, {}); }).find("z.yaml:4: replications: an empty stopping rule"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] {
              SweepPlan::load(ninety, {"replications={}"});
            }).find("--set: replications: an empty stopping rule"),
            std::string::npos);
  EXPECT_EQ(SweepPlan::load(ninety, {"replications=null"}).replications().seeds.size(), 1u); // the way to one run
}

// A sweep is checked whole before its first run: its stopping rule against the fields its runs write (these used to
// be found after the first runs), and keys given twice (these used to pass the plan and fail every run).
TEST(SweepPlan, StoppingRuleAndDuplicateKeysFailBeforeAnyRun)
{
  Folder f;
  auto metric = f.write("m.yaml", kBase + "replications: {min: 2, max: 4, metric: mean_slowdwon}\n");
  EXPECT_NE(input_error_of([&] {
              SweepPlan::load(metric, {});
            }).find("m.yaml:4: replications.metric: 'mean_slowdwon' is not a numeric field"),
            std::string::npos);
  auto stop = f.write("s.yaml", kBase + "replications: {min: 2, max: 4,\n  stop_when: saturatd}\n");
  EXPECT_NE(input_error_of([&] { SweepPlan::load(stop, {}); }).find("s.yaml:5: replications.stop_when: 'saturatd'"),
            std::string::npos);
  // The same rule with fields a simulation run writes (text fields such as `policy` are not metrics).
  auto good = f.write("g.yaml", kBase + "replications: {min: 2, max: 4, metric: mean_turnaround_time, "
                                        "stop_when: saturated}\n");
  EXPECT_EQ(SweepPlan::load(good, {}).replications().stop_when, "saturated");
  auto text = f.write("t.yaml", kBase + "replications: {min: 2, max: 4, metric: policy}\n");
  EXPECT_NE(input_error_of([&] { SweepPlan::load(text, {}); }).find("'policy' is not a numeric field"),
            std::string::npos);
  // A fork-join run writes its own summary: its slowdown is a metric, mean_bounded_slowdown (the default) is not.
  const fs::path fork_join = fs::path(SOURCE_DIR) / "scenarios/adaptive-partitioning/fork-join.yaml";
  EXPECT_NE(input_error_of([&] {
              SweepPlan::load(fork_join, {"replications={min: 2, max: 3}"});
            }).find("replications.metric: 'mean_bounded_slowdown' is not a numeric field"),
            std::string::npos);
  EXPECT_EQ(SweepPlan::load(fork_join, {"replications={min: 2, max: 3, metric: slowdown}"}).replications().metric,
            "slowdown");

  // output: is not part of a run's resolved scenario, but each run reads it from the file.
  auto twice = f.write("d.yaml", kBase + "output:\n  trace: false\n  trace: true\nsweep: {workload.shake: [0, 1]}\n");
  EXPECT_NE(input_error_of([&] { SweepPlan::load(twice, {}); }).find("d.yaml:6: output.trace: duplicate key"),
            std::string::npos);
  auto axis = f.write("a.yaml", kBase + "sweep:\n  policy.name: [fcfs]\n  policy.name: [easy]\n");
  EXPECT_NE(input_error_of([&] { SweepPlan::load(axis, {}); }).find("a.yaml:6: sweep.policy.name: duplicate key"),
            std::string::npos);
  auto rule = f.write("r.yaml", kBase + "replications:\n  min: 2\n  min: 3\n");
  EXPECT_NE(input_error_of([&] { SweepPlan::load(rule, {}); }).find("r.yaml:6: replications.min: duplicate key"),
            std::string::npos);
}

TEST(SweepTables, ResultsAndAggregateFromRunFolders)
{
  Folder f;
  auto file = f.write("s.yaml", kBase + "sweep: {policy.name: [fcfs, easy]}\nreplications: 3\n");
  SweepPlan plan = SweepPlan::load(file, {});
  auto runs = plan.initial_runs();
  f.write("out/plan.csv", plan_csv(plan, runs));
  // fcfs: slowdowns 2, 4, 6 (mean 4, std 2, half-width 4.30265 x 2 / sqrt 3 = 4.96828); easy: 1, 1 and one failure.
  double values[] = {2, 4, 6, 1, 1};
  for (size_t i = 0; i < 5; i++)
    f.write("out/runs/" + runs[i].hash + "/summary.json",
            "{\n  \"policy\": \"x\",\n  \"seed\": " + std::to_string(runs[i].seed) +
                ",\n  \"mean_slowdown\": " + std::to_string(values[i]) + ",\n  \"by\": {\"a\": 1}\n}\n");
  f.write("out/runs/" + runs[5].hash + "/error.txt", "boom\n");
  SweepTables t = build_tables(f.dir / "out");
  EXPECT_EQ(t.ok, 5);
  EXPECT_EQ(t.failed, 1);
  EXPECT_EQ(t.results_csv.substr(0, t.results_csv.find('\n')),
            "run,point,replication,seed,policy.name,status,mean_slowdown");
  EXPECT_NE(t.results_csv.find("\n6,1,2,9,easy,failed,\n"), std::string::npos) << t.results_csv;
  EXPECT_NE(t.aggregate_csv.find("\n0,fcfs,mean_slowdown,3,4,2,4.968"), std::string::npos) << t.aggregate_csv;
  // easy: two samples equal: std 0, half-width 0.
  EXPECT_NE(t.aggregate_csv.find("\n1,easy,mean_slowdown,2,1,0,0,0.95,0\n"), std::string::npos) << t.aggregate_csv;
  // At 90%: t(0.95, 2 degrees of freedom) = 2.919986 (published tables): 2.919986 x 2 / sqrt 3 = 3.371709.
  SweepTables t90 = build_tables(f.dir / "out", 0.90);
  EXPECT_NE(t90.aggregate_csv.find("\n0,fcfs,mean_slowdown,3,4,2,4.968275,0.9,3.3717"), std::string::npos)
      << t90.aggregate_csv;
}

/* summary.json is read with nlohmann-json: numbers in file order, text, booleans and objects left out; a NaN (not
 * JSON), a null (what a run writes for a NaN), a string where a number is expected, truncated text: one InputError,
 * one line naming the file, never a NaN in a table. */
TEST(SweepTables, SummaryReaderRefusesWhatIsNotANumber)
{
  Folder f;
  auto good = f.write("good.json", "{\"scenario\": \"7\", \"makespan\": 12.5, \"jobs\": 3, \"by\": {\"a\": 1}, "
                                   "\"checked\": true, \"levels\": [2, 4]}\n");
  EXPECT_EQ(read_summary_numbers(good, {"makespan", "jobs"}),
            (std::vector<std::pair<std::string, double>>{{"makespan", 12.5}, {"jobs", 3}}));
  auto error = [&f](const std::string& name, const std::string& text, const std::vector<std::string>& numeric) {
    auto file = f.write(name, text);
    std::string what = input_error_of([&] { read_summary_numbers(file, numeric); });
    EXPECT_EQ(what.rfind(file.string() + ": ", 0), 0u) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    return what.substr(std::min(what.size(), file.string().size() + 2));
  };
  EXPECT_EQ(error("nan.json", "{\"makespan\": NaN}\n", {}).rfind("malformed JSON: parse error at line 1, column 14", 0),
            0u);
  EXPECT_EQ(error("null.json", "{\"makespan\": null}\n", {}), "\"makespan\" is null, not a number");
  EXPECT_EQ(error("string.json", "{\"makespan\": \"12\"}\n", {"makespan"}),
            "\"makespan\" is string (\"12\"), not a number");
  EXPECT_EQ(error("truncated.json", "{\"makespan\": 12.5,\n  \"jobs\": ", {})
                .rfind("malformed JSON: parse error at line 2, column 11", 0),
            0u);
  EXPECT_EQ(error("list.json", "[1, 2]\n", {}), "a summary is a JSON object");
}

/* The sweep tables (jobsched collect) stop on such a summary instead of writing NaN or an empty cell. */
TEST(SweepTables, TablesRefuseASummaryWithoutItsNumbers)
{
  Folder f;
  auto file = f.write("s.yaml", kBase + "sweep: {policy.name: [fcfs, easy]}\n");
  SweepPlan plan = SweepPlan::load(file, {});
  auto runs = plan.initial_runs();
  f.write("out/plan.csv", plan_csv(plan, runs));
  f.write("out/runs/" + runs[0].hash + "/summary.json", "{\"makespan\": 10}\n");
  auto second = f.write("out/runs/" + runs[1].hash + "/summary.json", "{\"makespan\": \"nan\"}\n");
  EXPECT_EQ(input_error_of([&] { build_tables(f.dir / "out"); }),
            second.string() + ": \"makespan\" is string (\"nan\"), not a number");
  // The same when the run without the number comes first.
  auto first = f.write("out/runs/" + runs[0].hash + "/summary.json", "{\"makespan\": \"12\"}\n");
  f.write("out/runs/" + runs[1].hash + "/summary.json", "{\"makespan\": 20}\n");
  EXPECT_EQ(input_error_of([&] { build_tables(f.dir / "out"); }),
            first.string() + ": \"makespan\" is string (\"12\"), not a number");
  f.write("out/runs/" + runs[0].hash + "/summary.json", "{\"makespan\": 10}\n");
  f.write("out/runs/" + runs[1].hash + "/summary.json", "{\"makespan\": \"nan\"}\n");
  EXPECT_EQ(input_error_of([&] { metric_samples(f.dir / "out", runs, "makespan"); }),
            second.string() + ": \"makespan\" is string (\"nan\"), not a number");
  f.write("out/runs/" + runs[1].hash + "/summary.json", "{\"makespan\": nan}\n");
  EXPECT_EQ(input_error_of([&] { build_tables(f.dir / "out"); }).rfind(second.string() + ": malformed JSON: ", 0), 0u);
  f.write("out/runs/" + runs[1].hash + "/summary.json", "{\"makespan\": 20}\n");
  SweepTables t = build_tables(f.dir / "out");
  EXPECT_NE(t.aggregate_csv.find("\n0,fcfs,makespan,1,10,"), std::string::npos) << t.aggregate_csv;
  EXPECT_NE(t.aggregate_csv.find("\n1,easy,makespan,1,20,"), std::string::npos) << t.aggregate_csv;
}

// A key swept over mappings keeps its column (the YAML text) and gets one plain column per leaf key, empty where a
// point's mapping lacks it (these mappings used to reach a table reader only as quoted YAML).
TEST(SweepTables, SweptMappingsGetAColumnPerLeafKey)
{
  Folder f;
  auto file = f.write("m.yaml", kBase + "sweep:\n  policy:\n    - {name: fcfs}\n"
                                        "    - {name: gang, params: {quantum: 60, partition_size: 4}}\n"
                                        "  workload.shake: [0, 5]\n");
  SweepPlan plan = SweepPlan::load(file, {});
  auto runs = plan.initial_runs();
  ASSERT_EQ(runs.size(), 4u);
  f.write("out/plan.csv", plan_csv(plan, runs));
  for (size_t i = 0; i < runs.size(); i++)
    f.write("out/runs/" + runs[i].hash + "/summary.json", "{\n  \"mean_slowdown\": " + std::to_string(i + 1) + "\n}\n");
  SweepTables t = build_tables(f.dir / "out");
  const CsvTable results = [&] {
    f.write("out/results.csv", t.results_csv);
    return read_csv(f.dir / "out/results.csv");
  }();
  EXPECT_EQ(results.header, (std::vector<std::string>{"run", "point", "replication", "seed", "policy", "policy.name",
                                                      "policy.params.quantum", "policy.params.partition_size",
                                                      "workload.shake", "status", "mean_slowdown"}));
  ASSERT_EQ(results.rows.size(), 4u);
  EXPECT_EQ(results.rows[0],
            (std::vector<std::string>{"1", "0", "0", "7", "{name: fcfs}", "fcfs", "", "", "0", "ok", "1"}));
  EXPECT_EQ(results.rows[3],
            (std::vector<std::string>{"4", "3", "0", "7", "{name: gang, params: {quantum: 60, partition_size: 4}}",
                                      "gang", "60", "4", "5", "ok", "4"}));
  f.write("out/aggregate.csv", t.aggregate_csv);
  const CsvTable aggregate = read_csv(f.dir / "out/aggregate.csv");
  EXPECT_EQ(std::vector<std::string>(aggregate.header.begin(), aggregate.header.begin() + 7),
            (std::vector<std::string>{"point", "policy", "policy.name", "policy.params.quantum",
                                      "policy.params.partition_size", "workload.shake", "metric"}));
  EXPECT_EQ(std::vector<std::string>(aggregate.rows[2].begin(), aggregate.rows[2].begin() + 8),
            (std::vector<std::string>{"2", "{name: gang, params: {quantum: 60, partition_size: 4}}", "gang", "60", "4",
                                      "0", "mean_slowdown", "1"}));
}

} // namespace
