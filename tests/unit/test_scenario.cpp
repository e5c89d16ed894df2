/* Scenario YAML parsing (defaults, key-naming errors with file:line, --set overrides, path resolution) and typed
 * policy parameters. Line numbers in expected messages are counted by hand in the YAML texts below. */
#include "core/errors.hpp"
#include "core/params.hpp"
#include "scenario/scenario.hpp"
#include "support/input_error.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using jobsched::CommPattern;
using jobsched::InputError;
using jobsched::Overrun;
using jobsched::Params;
using jobsched::ParamSpec;
using jobsched::parse_scenario;
using jobsched::PolicyError;
using jobsched::Scenario;

namespace {

const fs::path scenario_file = "/proj/scenarios/s.yaml";
using jobsched::testing::input_error_of;

std::string parse_error(const std::string& yaml, const std::vector<std::string>& overrides = {})
{
  return input_error_of([&] { parse_scenario(yaml, scenario_file, overrides); });
}

bool contains(const std::string& text, const std::string& part)
{
  return text.find(part) != std::string::npos;
}

const std::string minimal = "platform: p.xml\n"
                            "workload:\n"
                            "  generator: {}\n";

} // namespace

TEST(Scenario, Defaults)
{
  Scenario sc = parse_scenario(minimal, scenario_file);
  EXPECT_EQ(sc.file, scenario_file);
  EXPECT_EQ(sc.name, "s"); // the file's stem
  EXPECT_EQ(sc.platform, fs::path("/proj/scenarios/p.xml"));
  EXPECT_TRUE(sc.deployment.empty()); // no deployment: jobsched places its own actors
  EXPECT_FALSE(sc.workload.trace.has_value());
  ASSERT_TRUE(sc.workload.generator.has_value());
  const auto& g = *sc.workload.generator;
  EXPECT_EQ(g.jobs, 200);
  EXPECT_EQ(g.seed, 1u); // simulation.seed's default
  EXPECT_DOUBLE_EQ(g.mean_interarrival, 60);
  EXPECT_EQ(g.max_size, 0);
  EXPECT_DOUBLE_EQ(g.serial_fraction, 0.25);
  EXPECT_DOUBLE_EQ(g.power_of_two_fraction, 0.75);
  EXPECT_DOUBLE_EQ(g.min_run_time, 10);
  EXPECT_DOUBLE_EQ(g.max_run_time, 7200);
  EXPECT_DOUBLE_EQ(g.max_estimate_factor, 3);
  EXPECT_DOUBLE_EQ(g.time_resolution, 1);
  const auto& f = sc.workload.filter;
  EXPECT_EQ(f.max_jobs, 0);
  EXPECT_DOUBLE_EQ(f.start_time, -1);
  EXPECT_DOUBLE_EQ(f.end_time, -1);
  EXPECT_EQ(f.max_size, 0);
  EXPECT_FALSE(f.reject_invalid);
  EXPECT_FALSE(f.reject_oversize);
  EXPECT_EQ(f.overrun, Overrun::extend);
  EXPECT_EQ(sc.workload.communication.pattern, CommPattern::none);
  EXPECT_DOUBLE_EQ(sc.workload.communication.bytes_per_flop, 0);
  EXPECT_EQ(sc.policy.name, "easy");
  EXPECT_TRUE(sc.policy.params.empty());
  EXPECT_EQ(sc.policy.allocation, "first-fit");
  EXPECT_TRUE(sc.policy.allocation_params.empty());
  EXPECT_EQ(sc.simulation.seed, 1u);
  EXPECT_EQ(sc.simulation.host_model, "ptask_L07");
  EXPECT_DOUBLE_EQ(sc.simulation.reference_speed, 0);
  EXPECT_EQ(sc.output_dir, (fs::current_path() / "results" / "s").lexically_normal());
}

TEST(Scenario, NullGeneratorSectionMeansDefaults)
{
  Scenario sc = parse_scenario("platform: p.xml\nworkload:\n  generator:\n", scenario_file);
  ASSERT_TRUE(sc.workload.generator.has_value());
  EXPECT_EQ(sc.workload.generator->jobs, 200);
}

TEST(Scenario, EveryKeyRead)
{
  const std::string yaml = "name: full\n"
                           "platform: /abs/platform.xml\n"
                           "deployment: dep/d.xml\n"
                           "workload:\n"
                           "  trace: KTH.swf.gz\n"
                           "  max_jobs: 500\n"
                           "  start_time: 100\n"
                           "  end_time: 5000.5\n"
                           "  max_size: 64\n"
                           "  invalid_jobs: error\n"
                           "  oversize_jobs: error\n"
                           "  overrun: kill\n"
                           "  communication:\n"
                           "    pattern: all-to-all\n"
                           "    bytes_per_flop: 0.25\n"
                           "policy:\n"
                           "  name: conservative\n"
                           "  allocation: first-fit\n"
                           "  allocation_params: {a: b}\n"
                           "simulation:\n"
                           "  seed: 99\n"
                           "  host_model: ptask_L07\n"
                           "  reference_speed: 2e9\n"
                           "output:\n"
                           "  dir: /abs/out\n";
  Scenario sc = parse_scenario(yaml, scenario_file);
  EXPECT_EQ(sc.name, "full");
  EXPECT_EQ(sc.platform, fs::path("/abs/platform.xml"));
  EXPECT_EQ(sc.deployment, fs::path("/proj/scenarios/dep/d.xml"));
  EXPECT_EQ(sc.workload.trace, std::optional<std::string>("KTH.swf.gz"));
  EXPECT_FALSE(sc.workload.generator.has_value());
  const auto& f = sc.workload.filter;
  EXPECT_EQ(f.max_jobs, 500);
  EXPECT_DOUBLE_EQ(f.start_time, 100);
  EXPECT_DOUBLE_EQ(f.end_time, 5000.5);
  EXPECT_EQ(f.max_size, 64);
  EXPECT_TRUE(f.reject_invalid);
  EXPECT_TRUE(f.reject_oversize);
  EXPECT_EQ(f.overrun, Overrun::kill);
  EXPECT_EQ(sc.workload.communication.pattern, CommPattern::all_to_all);
  EXPECT_DOUBLE_EQ(sc.workload.communication.bytes_per_flop, 0.25);
  EXPECT_EQ(sc.policy.name, "conservative");
  EXPECT_EQ(sc.policy.allocation_params, (std::map<std::string, std::string>{{"a", "b"}}));
  EXPECT_EQ(sc.simulation.seed, 99u);
  EXPECT_DOUBLE_EQ(sc.simulation.reference_speed, 2e9);
  EXPECT_EQ(sc.output_dir, fs::path("/abs/out"));
}

TEST(Scenario, GeneratorKeysAndSeeds)
{
  const std::string yaml = "platform: p.xml\n"
                           "workload:\n"
                           "  generator:\n"
                           "    jobs: 50\n"
                           "    mean_interarrival: 900\n"
                           "    max_size: 8\n"
                           "    serial_fraction: 0.5\n"
                           "    power_of_two_fraction: 0.1\n"
                           "    min_run_time: 5\n"
                           "    max_run_time: 14400\n"
                           "    max_estimate_factor: 2\n"
                           "    time_resolution: 0\n"
                           "simulation:\n"
                           "  seed: 42\n";
  Scenario sc = parse_scenario(yaml, scenario_file);
  ASSERT_TRUE(sc.workload.generator.has_value());
  const auto& g = *sc.workload.generator;
  EXPECT_EQ(g.jobs, 50);
  EXPECT_DOUBLE_EQ(g.mean_interarrival, 900);
  EXPECT_EQ(g.max_size, 8);
  EXPECT_DOUBLE_EQ(g.serial_fraction, 0.5);
  EXPECT_DOUBLE_EQ(g.power_of_two_fraction, 0.1);
  EXPECT_DOUBLE_EQ(g.min_run_time, 5);
  EXPECT_DOUBLE_EQ(g.max_run_time, 14400);
  EXPECT_DOUBLE_EQ(g.max_estimate_factor, 2);
  EXPECT_DOUBLE_EQ(g.time_resolution, 0);
  EXPECT_EQ(g.seed, 42u); // no seed of its own: the simulation's

  Scenario own = parse_scenario(yaml, scenario_file, {"workload.generator.seed=7"});
  EXPECT_EQ(own.workload.generator->seed, 7u);
  EXPECT_EQ(own.simulation.seed, 42u);
}

TEST(Scenario, UnknownTopLevelKeyNamesFileLineAndKey)
{
  const std::string yaml = "name: x\n"         // 1
                           "platform: p.xml\n" // 2
                           "workload:\n"       // 3
                           "  generator: {}\n" // 4
                           "polcy:\n"          // 5
                           "  name: fcfs\n";   // 6
  std::string msg = parse_error(yaml);
  EXPECT_TRUE(contains(msg, scenario_file.string() + ":5: polcy: unknown key")) << msg;
  EXPECT_TRUE(contains(msg, "policy")) << msg; // the known keys are listed
}

TEST(Scenario, UnknownNestedKeyNamesTheDottedKey)
{
  const std::string yaml = "platform: p.xml\n"  // 1
                           "workload:\n"        // 2
                           "  generator: {}\n"  // 3
                           "  max_jobs: 10\n"   // 4
                           "  max_jobz: 500\n"; // 5
  std::string msg = parse_error(yaml);
  EXPECT_TRUE(contains(msg, scenario_file.string() + ":5: workload.max_jobz: unknown key")) << msg;
  EXPECT_TRUE(contains(msg, "max_jobs")) << msg;
}

TEST(Scenario, UnknownKeyTwoLevelsDown)
{
  const std::string yaml = "platform: p.xml\n"  // 1
                           "workload:\n"        // 2
                           "  generator:\n"     // 3
                           "    jobs: 10\n"     // 4
                           "    job_count: 5\n" // 5
                           "simulation:\n"      // 6
                           "  seed: 3\n";       // 7
  std::string msg = parse_error(yaml);
  EXPECT_TRUE(contains(msg, scenario_file.string() + ":5: workload.generator.job_count: unknown key")) << msg;

  msg = parse_error(minimal + "simulation:\n  sed: 3\n"); // line 5
  EXPECT_TRUE(contains(msg, scenario_file.string() + ":5: simulation.sed: unknown key")) << msg;
  msg = parse_error(minimal + "output:\n  folder: x\n"); // line 5
  EXPECT_TRUE(contains(msg, scenario_file.string() + ":5: output.folder: unknown key")) << msg;
  msg = parse_error("platform: p.xml\nworkload:\n  generator: {}\n  communication:\n    patern: ring\n");
  EXPECT_TRUE(contains(msg, scenario_file.string() + ":5: workload.communication.patern: unknown key")) << msg;
}

TEST(Scenario, WrongTypeNamesFileLineKeyAndValue)
{
  const std::string yaml = "platform: p.xml\n"  // 1
                           "workload:\n"        // 2
                           "  generator: {}\n"  // 3
                           "  max_jobs: abc\n"; // 4
  std::string msg = parse_error(yaml);
  EXPECT_TRUE(contains(msg, scenario_file.string() + ":4: workload.max_jobs: expected an integer")) << msg;
  EXPECT_TRUE(contains(msg, "'abc'")) << msg;

  msg = parse_error("platform: p.xml\nworkload:\n  generator: {}\n  max_jobs: 2.5\n");
  EXPECT_TRUE(contains(msg, ":4: workload.max_jobs: expected an integer")) << msg;
  msg = parse_error("platform: p.xml\nworkload:\n  generator:\n    mean_interarrival: soon\n");
  EXPECT_TRUE(contains(msg, ":4: workload.generator.mean_interarrival: expected a number")) << msg;
  msg = parse_error(minimal + "policy:\n  name: [a, b]\n"); // line 5
  EXPECT_TRUE(contains(msg, ":5: policy.name: expected text")) << msg;
  msg = parse_error(minimal + "simulation: 3\n"); // line 4
  EXPECT_TRUE(contains(msg, ":4: simulation: expected a mapping")) << msg;
}

TEST(Scenario, ChoicesListTheAllowedValues)
{
  std::string msg = parse_error("platform: p.xml\nworkload:\n  generator: {}\n  overrun: truncate\n");
  EXPECT_TRUE(contains(msg, ":4: workload.overrun: expected one of extend, kill, got 'truncate'")) << msg;
  msg = parse_error("platform: p.xml\nworkload:\n  generator: {}\n  oversize_jobs: maybe\n");
  EXPECT_TRUE(contains(msg, ":4: workload.oversize_jobs: expected one of skip, error")) << msg;
  msg = parse_error(minimal + "simulation:\n  host_model: default\n");
  EXPECT_TRUE(contains(msg, ":5: simulation.host_model: expected one of ptask_L07")) << msg;
}

TEST(Scenario, RangeChecks)
{
  std::string msg = parse_error("platform: p.xml\nworkload:\n  generator:\n    jobs: 0\n");
  EXPECT_TRUE(contains(msg, ":4: workload.generator.jobs: must be between 1 and 100000000, got 0")) << msg;
  msg = parse_error("platform: p.xml\nworkload:\n  generator: {}\n  max_jobs: -1\n");
  EXPECT_TRUE(contains(msg, ":4: workload.max_jobs: must be between 0 and 100000000, got -1")) << msg;
  msg = parse_error("platform: p.xml\nworkload:\n  generator: {}\n  communication:\n    bytes_per_flop: -2\n");
  EXPECT_TRUE(contains(msg, ":5: workload.communication.bytes_per_flop: must be at least 0")) << msg;
}

/* Every number is checked where it is read (issue: hangs, aborts and silently wrong results from NaN, infinity and
 * out-of-range values). Each case names the key and its line. */
TEST(Scenario, NonFiniteAndOutOfRangeNumbersNameTheirKey)
{
  const std::string gen = "platform: p.xml\nworkload:\n  generator:\n";
  struct Case {
    std::string yaml, expected;
  };
  std::vector<Case> cases{
      {gen + "    mean_interarrival: .nan\n", ":4: workload.generator.mean_interarrival: expected a finite number"},
      {gen + "    mean_interarrival: .inf\n", ":4: workload.generator.mean_interarrival: expected a finite number"},
      {gen + "    time_resolution: .nan\n", ":4: workload.generator.time_resolution: expected a finite number"},
      {gen + "    time_resolution: 1e300\n", ":4: workload.generator.time_resolution: must be"},
      {gen + "    max_run_time: .inf\n", ":4: workload.generator.max_run_time: expected a finite number"},
      {gen + "    min_run_time: .nan\n", ":4: workload.generator.min_run_time: expected a finite number"},
      {gen + "    max_estimate_factor: .inf\n", ":4: workload.generator.max_estimate_factor: expected a finite"},
      {gen + "    serial_fraction: .nan\n", ":4: workload.generator.serial_fraction: expected a finite number"},
      {gen + "    serial_fraction: 2\n", ":4: workload.generator.serial_fraction: must be"},
      {gen + "    jobs: 2147483648\n", ":4: workload.generator.jobs: must be between 1 and 100000000"},
      {gen + "    max_size: 4294967296\n", ":4: workload.generator.max_size: must be between"},
      {"platform: p.xml\nworkload:\n  generator: {}\n  communication:\n    level: 2147483648\n",
       ":5: workload.communication.level: must be between 0 and 1000"},
      {"platform: p.xml\nworkload:\n  generator: {}\n  communication:\n    level: 4294967295\n",
       ":5: workload.communication.level: must be between 0 and 1000"},
      {"platform: p.xml\nworkload:\n  generator: {}\n  communication:\n    base: .nan\n",
       ":5: workload.communication.base: expected a finite number"},
      {"platform: p.xml\nworkload:\n  generator: {}\n  communication:\n    bytes_per_flop: 1e300\n",
       ":5: workload.communication.bytes_per_flop: must be"},
      {"platform: p.xml\nworkload: {generator: {}}\nsimulation:\n  reference_speed: 1e-300\n",
       ":4: simulation.reference_speed: must be at least 1000"},
      {"platform: p.xml\nworkload: {generator: {}}\nsimulation:\n  reference_speed: -1\n",
       ":4: simulation.reference_speed: must be"},
      {"platform: p.xml\nworkload: {generator: {}}\nsimulation:\n  reference_speed: .nan\n",
       ":4: simulation.reference_speed: expected a finite number"},
      {"platform: p.xml\nworkload: {generator: {}}\nsimulation:\n  reference_speed: 1e300\n",
       ":4: simulation.reference_speed: must be"},
      // 1e12 ran forever: the jobs' times went so far past the simulator's horizon that its clock stopped advancing.
      {"platform: p.xml\nworkload:\n  generator: {}\n  memory:\n    page_fault_penalty: 1e12\n",
       ":5: workload.memory.page_fault_penalty: must be at least 0 and at most 1e+06, got 1e+12"},
      {"platform: p.xml\nworkload:\n  generator: {}\n  memory:\n    page_fault_penalty: -1\n",
       ":5: workload.memory.page_fault_penalty: must be at least 0 and at most 1e+06, got -1"},
      // Memory per processor is capped as workload.jobs.memory_mb (1e9 MB), the key and value named: 1e308 ran.
      {"platform: p.xml\nworkload:\n  generator: {}\n  memory:\n    max_mb: 1e308\n",
       ":5: workload.memory.max_mb: must be above 0 and at most 1e+09, got 1e+308"},
      {"platform: p.xml\nworkload:\n  generator: {}\n  memory:\n    min_mb: -1\n",
       ":5: workload.memory.min_mb: must be above 0 and at most 1e+09, got -1"},
      {"platform: p.xml\nworkload:\n  generator: {}\n  memory:\n    min_mb: 300\n",
       ":5: workload.memory.min_mb: need min_mb <= max_mb, got min_mb 300 and max_mb 256"},
      {"platform: p.xml\nworkload:\n  generator: {}\n  memory:\n    min_mb: 30\n    max_mb: 20\n",
       ":6: workload.memory.max_mb: need min_mb <= max_mb, got min_mb 30 and max_mb 20"},
      {"platform: p.xml\nworkload:\n  generator: {}\n  memory:\n    threshold: 1e308\n",
       ":5: workload.memory.threshold: must be above 0 and at most 1e+06, got 1e+308"},
      {"platform: p.xml\nworkload:\n  generator: {}\n  memory:\n    threshold: 0\n",
       ":5: workload.memory.threshold: must be above 0 and at most 1e+06, got 0"},
      // (1 + beta) n overflowed at beta 1e308: jobs of run time 0.
      {"platform: p.xml\nworkload:\n  generator: {}\n  jobs:\n    speedup: {model: beta, beta_min: 1e308, beta_max: "
       "1e308}\n",
       ":5: workload.jobs.speedup.beta_min: must be at least 0 and at most 1e+15, got 1e+308"},
      {"platform: p.xml\nworkload:\n  generator: {}\n  jobs:\n    speedup: {model: beta, beta_max: 2e15}\n",
       ":5: workload.jobs.speedup.beta_max: must be at least 0 and at most 1e+15, got 2e+15"},
      {"platform: p.xml\nworkload:\n  generator: {}\n  jobs:\n    speedup: {model: beta, beta_min: 3, beta_max: 2}\n",
       ":5: workload.jobs.speedup.beta_max: need beta_min <= beta_max, got beta_min 3 and beta_max 2"},
      {"platform: p.xml\nworkload:\n  generator: {}\n  jobs:\n    speedup: {model: downey, A: 1e308}\n",
       ":5: workload.jobs.speedup.A: must be at least 0 and at most 1e+15, got 1e+308"},
      {"platform: p.xml\nworkload:\n  generator: {}\n  jobs:\n    speedup: {model: downey, sigma: 1e308}\n",
       ":5: workload.jobs.speedup.sigma: must be at least 0 and at most 1e+15, got 1e+308"},
      // -1 is how the scenario says "not given": given, it kept every job.
      {"platform: p.xml\nworkload:\n  generator: {}\n  end_time: -1\n",
       ":4: workload.end_time: must be at least 0 and at most 1e+12, got -1"},
      {"platform: p.xml\nworkload:\n  generator: {}\n  start_time: -5\n",
       ":4: workload.start_time: must be at least 0 and at most 1e+12, got -5"},
  };
  for (const auto& c : cases) {
    std::string msg = parse_error(c.yaml);
    EXPECT_TRUE(contains(msg, c.expected)) << c.yaml << "\n -> " << msg;
  }
}

/* The Downey model's largest job: exp((1 - beta1) / beta2) x work_unit / min_parallelism s, at most 1e5. The key named
 * is the one at fault: beta1 -1 gives exp(2 / 0.073) x 1e-6 = 7.9e5 s at the default work_unit, so beta1, not
 * work_unit (which it was); work_unit 1 with the default betas gives exp(1.14 / 0.073) = 6.1e6 s. */
TEST(Scenario, DowneySpanNamesTheKeyAtFault)
{
  const std::string gen = "platform: p.xml\nworkload:\n  generator:\n    model: downey\n";
  EXPECT_TRUE(contains(parse_error(gen + "    beta1: -1\n"), ":5: workload.generator.beta1: the largest job's span"));
  EXPECT_TRUE(contains(parse_error(gen + "    work_unit: 1.0e-6\n    beta2: 0.01\n"),
                       ":6: workload.generator.beta2: the largest job's span"));
  EXPECT_TRUE(contains(parse_error(gen + "    work_unit: 1\n"), ":5: workload.generator.work_unit: the largest job's"));
}

TEST(Scenario, MalformedYamlGivesFileAndLine)
{
  // An unterminated flow sequence opened on line 3: the parser reports where it gave up (line 3 or later), never 1.
  std::string msg = parse_error("platform: p.xml\n"
                                "name: x\n"
                                "workload: {generator: {}\n");
  EXPECT_TRUE(contains(msg, scenario_file.string() + ":")) << msg;
  EXPECT_TRUE(contains(msg, "malformed YAML")) << msg;
  EXPECT_FALSE(contains(msg, scenario_file.string() + ":1:")) << msg;
  EXPECT_FALSE(contains(msg, scenario_file.string() + ":2:")) << msg;

  // A mapping value where a plain scalar continues, on line 4 exactly.
  msg = parse_error("platform: p.xml\n"
                    "workload:\n"
                    "  generator: {}\n"
                    "policy: name: easy\n");
  EXPECT_TRUE(contains(msg, scenario_file.string() + ":4: malformed YAML")) << msg;

  // A key indented less than its siblings, on line 3.
  msg = parse_error("workload:\n"
                    "    generator: {}\n"
                    "  max_jobs: 3\n");
  EXPECT_TRUE(contains(msg, scenario_file.string() + ":3: malformed YAML")) << msg;
}

TEST(Scenario, TraceAndGeneratorAreExclusive)
{
  std::string both = parse_error("platform: p.xml\n"   // 1
                                 "workload:\n"         // 2
                                 "  trace: a.swf\n"    // 3
                                 "  generator: {}\n"); // 4
  EXPECT_TRUE(contains(both, scenario_file.string() + ":3: workload: give exactly one of")) << both;
  std::string neither = parse_error("platform: p.xml\nworkload:\n  max_jobs: 4\n");
  EXPECT_TRUE(contains(neither, scenario_file.string() + ":3: workload: give exactly one of")) << neither;
  std::string absent = parse_error("platform: p.xml\nname: x\n");
  EXPECT_TRUE(contains(absent, "workload: give exactly one of")) << absent;
  EXPECT_TRUE(contains(absent, scenario_file.string())) << absent;
}

TEST(Scenario, PlatformIsRequired)
{
  std::string msg = parse_error("workload:\n  generator: {}\n");
  EXPECT_TRUE(contains(msg, scenario_file.string() + ": platform: missing")) << msg;
  msg = parse_error("");
  EXPECT_TRUE(contains(msg, "platform: missing")) << msg;
}

TEST(Scenario, TopLevelMustBeAMapping)
{
  std::string msg = parse_error("- a\n- b\n");
  EXPECT_TRUE(contains(msg, scenario_file.string() + ":1: expected a mapping")) << msg;
}

TEST(Scenario, SetOverridesExistingValues)
{
  const std::string yaml = minimal + "policy:\n  name: easy\n";
  Scenario sc = parse_scenario(yaml, scenario_file, {"policy.name=fcfs", "workload.max_jobs=500"});
  EXPECT_EQ(sc.policy.name, "fcfs");
  EXPECT_EQ(sc.workload.filter.max_jobs, 500);
  Scenario later_wins = parse_scenario(yaml, scenario_file, {"policy.name=fcfs", "policy.name=conservative"});
  EXPECT_EQ(later_wins.policy.name, "conservative");
}

TEST(Scenario, SetCreatesNestedMappings)
{
  Scenario sc = parse_scenario(minimal, scenario_file, {"policy.params.x=3", "policy.params.y=abc"});
  EXPECT_EQ(sc.policy.params, (std::map<std::string, std::string>{{"x", "3"}, {"y", "abc"}}));
  EXPECT_EQ(sc.policy.name, "easy"); // the rest of the new mapping keeps its defaults

  // A null section is replaced by a mapping.
  Scenario null_section = parse_scenario(minimal + "policy:\n", scenario_file, {"policy.name=fcfs"});
  EXPECT_EQ(null_section.policy.name, "fcfs");

  // Deep creation under an existing mapping keeps its siblings.
  Scenario deep = parse_scenario(minimal + "simulation:\n  seed: 5\n", scenario_file,
                                 {"workload.communication.pattern=ring", "simulation.reference_speed=1e9"});
  EXPECT_EQ(deep.workload.communication.pattern, CommPattern::ring);
  EXPECT_EQ(deep.simulation.seed, 5u);
  EXPECT_DOUBLE_EQ(deep.simulation.reference_speed, 1e9);
  ASSERT_TRUE(deep.workload.generator.has_value()); // workload.generator untouched
}

TEST(Scenario, SetValueIsReadAsYaml)
{
  Scenario sc = parse_scenario(minimal, scenario_file, {"policy.params={a: 1, b: two}"});
  EXPECT_EQ(sc.policy.params, (std::map<std::string, std::string>{{"a", "1"}, {"b", "two"}}));
  // An equals sign inside the value belongs to the value.
  Scenario eq = parse_scenario(minimal, scenario_file, {"name=a=b"});
  EXPECT_EQ(eq.name, "a=b");
}

TEST(Scenario, SetOfASecondWorkloadSourceIsAnError)
{
  std::string msg = parse_error(minimal, {"workload.trace=KTH.swf"});
  EXPECT_TRUE(contains(msg, "workload: give exactly one of")) << msg;
}

TEST(Scenario, BadSetOverrides)
{
  std::string msg = parse_error(minimal, {"policy.name"});
  EXPECT_TRUE(contains(msg, "--set policy.name")) << msg;
  EXPECT_TRUE(contains(msg, "KEY=VALUE")) << msg;
  msg = parse_error(minimal, {"=fcfs"});
  EXPECT_TRUE(contains(msg, "KEY=VALUE")) << msg;
  msg = parse_error(minimal, {"policy..name=fcfs"});
  EXPECT_TRUE(contains(msg, "--set policy..name: empty key component")) << msg;
  msg = parse_error(minimal, {"platform.file=x.xml"}); // platform is a scalar
  EXPECT_TRUE(contains(msg, "--set platform.file: 'platform' is not a mapping")) << msg;
  msg = parse_error(minimal, {"policy.name=[unclosed"});
  EXPECT_TRUE(contains(msg, "--set policy.name: value is not valid YAML")) << msg;
}

TEST(Scenario, SetOfAnUnknownOrMistypedKeyIsReported)
{
  std::string msg = parse_error(minimal, {"workload.max_jobz=5"});
  EXPECT_TRUE(contains(msg, "workload.max_jobz: unknown key")) << msg;
  msg = parse_error(minimal, {"workload.max_jobs=abc"});
  EXPECT_TRUE(contains(msg, "workload.max_jobs: expected an integer, got 'abc'")) << msg;
}

TEST(Scenario, SetValueErrorDoesNotBlameALineOfTheFile)
{
  // The bad value came from the command line: line 1 of the file ("platform: p.xml") has nothing to do with it.
  std::string msg = parse_error(minimal, {"workload.max_jobs=abc"});
  EXPECT_FALSE(contains(msg, scenario_file.string() + ":1:")) << msg;
  msg = parse_error(minimal, {"policy.name=[a, b]"});
  EXPECT_FALSE(contains(msg, scenario_file.string() + ":1:")) << msg;
}

TEST(Scenario, DuplicateKeyIsAnError)
{
  // YAML requires unique keys in a mapping; silently keeping the first would run fcfs here without a word.
  const std::string yaml = minimal + "policy:\n"               // 4
                                     "  name: fcfs\n"          // 5
                                     "policy:\n"               // 6
                                     "  name: conservative\n"; // 7
  std::string msg = parse_error(yaml);
  EXPECT_TRUE(contains(msg, scenario_file.string() + ":6:")) << msg;
  EXPECT_TRUE(contains(msg, "policy")) << msg;
  msg = parse_error(minimal + "  max_jobs: 3\n  max_jobs: 7\n"); // lines 4 and 5, under workload
  EXPECT_TRUE(contains(msg, scenario_file.string() + ":5:")) << msg;
  EXPECT_TRUE(contains(msg, "workload.max_jobs")) << msg;
}

TEST(Scenario, PolicyParamsAreTextMaps)
{
  const std::string yaml = minimal + "policy:\n"      // 4
                                     "  name: easy\n" // 5
                                     "  params:\n"    // 6
                                     "    depth: 2\n"
                                     "    ratio: 0.5\n"
                                     "    strict: true\n"
                                     "    label: fair share\n";
  Scenario sc = parse_scenario(yaml, scenario_file);
  EXPECT_EQ(sc.policy.params, (std::map<std::string, std::string>{
                                  {"depth", "2"}, {"ratio", "0.5"}, {"strict", "true"}, {"label", "fair share"}}));
  Scenario empty = parse_scenario(minimal + "policy:\n  params:\n", scenario_file);
  EXPECT_TRUE(empty.policy.params.empty());
}

TEST(Scenario, PolicyParamsAreAMappingWhoseListsKeepTheirShape)
{
  std::string msg = parse_error(minimal + "policy:\n  params: 5\n"); // line 5
  EXPECT_TRUE(contains(msg, ":5: policy.params: expected a mapping")) << msg;
  // A list or a mapping is kept as YAML text; the policy's declared parameter type-checks it (Params).
  Scenario sc = parse_scenario(minimal + "policy:\n  params:\n    depth: [1, 2]\n    w: {a: 1}\n", "s.yaml");
  EXPECT_EQ(sc.policy.params.at("depth"), "[1, 2]");
  EXPECT_EQ(sc.policy.params.at("w"), "{a: 1}");
}

TEST(Scenario, RelativePathsResolveAgainstTheScenarioFolder)
{
  Scenario sc = parse_scenario("platform: ../platforms/cluster-16.xml\n"
                               "deployment: ../deployments/d.xml\n"
                               "workload:\n  generator: {}\n",
                               "/work/x/scenarios/run.yaml");
  EXPECT_EQ(sc.platform, fs::path("/work/x/platforms/cluster-16.xml"));
  EXPECT_EQ(sc.deployment, fs::path("/work/x/deployments/d.xml"));
  EXPECT_EQ(sc.name, "run");

  Scenario abs = parse_scenario("platform: /etc/p.xml\nworkload:\n  generator: {}\n", "/work/x/scenarios/run.yaml");
  EXPECT_EQ(abs.platform, fs::path("/etc/p.xml"));

  // A scenario named without a folder: paths stay relative to the current folder.
  Scenario bare = parse_scenario("platform: p.xml\nworkload:\n  generator: {}\n", "run.yaml");
  EXPECT_EQ(bare.platform, fs::path("p.xml"));
  EXPECT_TRUE(bare.deployment.empty());
  Scenario none = parse_scenario("platform: p.xml\ndeployment: ''\nworkload:\n  generator: {}\n", "run.yaml");
  EXPECT_TRUE(none.deployment.empty());
}

/* Every key naming a file is resolved against the current folder when --set gave it, as the key or inside a mapping
 * (--set 'owners={model: trace, trace: x.csv}'), else against the scenario's folder. A file of the same name in both
 * folders tells them apart (owners.trace must exist). */
TEST(Scenario, FileNamesGivenWithSetAreRelativeToTheCurrentFolder)
{
  std::string tmpl = (fs::temp_directory_path() / "jobsched-scenario-test-XXXXXX").string();
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  const fs::path root = tmpl;
  fs::create_directories(root / "scenarios");
  fs::create_directories(root / "here");
  for (const fs::path& folder : {root / "scenarios", root / "here"})
    std::ofstream(folder / "own.csv") << "0,h,busy\n";
  const fs::path saved = fs::current_path();
  fs::current_path(root / "here");
  const fs::path file = root / "scenarios" / "s.yaml";
  const fs::path here = fs::current_path(); // root/here as the system names it
  const std::string text = "platform: p.xml\ndeployment: d.xml\nplugins: [l.so]\nworkload:\n  trace: t.swf\n"
                           "owners: {model: trace, trace: own.csv}\n";
  auto parse = [&](const std::vector<std::string>& sets) { return parse_scenario(text, file, sets); };

  const Scenario from_file = parse({});
  EXPECT_EQ(from_file.platform, root / "scenarios" / "p.xml");
  EXPECT_EQ(from_file.deployment, root / "scenarios" / "d.xml");
  ASSERT_EQ(from_file.plugins.size(), 1u);
  EXPECT_EQ(from_file.plugins[0].path, root / "scenarios" / "l.so");
  EXPECT_EQ(from_file.workload.trace_dir, root / "scenarios");
  EXPECT_EQ(from_file.owners.trace, root / "scenarios" / "own.csv");

  const Scenario keys =
      parse({"platform=p.xml", "deployment=d.xml", "plugins=[l.so]", "workload.trace=t.swf", "owners.trace=own.csv"});
  EXPECT_EQ(keys.platform, here / "p.xml");
  EXPECT_EQ(keys.deployment, here / "d.xml");
  ASSERT_EQ(keys.plugins.size(), 1u);
  EXPECT_EQ(keys.plugins[0].path, here / "l.so");
  EXPECT_EQ(keys.workload.trace_dir, here);
  EXPECT_EQ(keys.owners.trace, here / "own.csv");

  // The mapping forms: a section holding the key (the file's other sections keep the file's folder).
  const Scenario owners = parse({"owners={model: trace, trace: own.csv}"});
  EXPECT_EQ(owners.owners.trace, here / "own.csv"); // was the scenario's folder
  EXPECT_EQ(owners.workload.trace_dir, root / "scenarios");
  const Scenario workload = parse({"workload={trace: t.swf}"});
  EXPECT_EQ(workload.workload.trace_dir, here);
  EXPECT_EQ(workload.owners.trace, root / "scenarios" / "own.csv");
  EXPECT_EQ(workload.platform, root / "scenarios" / "p.xml");

  fs::current_path(saved);
  fs::remove_all(root);
}

TEST(Scenario, OutputDirIsRelativeToTheCurrentFolder)
{
  Scenario sc = parse_scenario(minimal + "output:\n  dir: out/a/../b\n", scenario_file);
  EXPECT_EQ(sc.output_dir, fs::current_path() / "out" / "b");
  Scenario named = parse_scenario("name: quick\n" + minimal, scenario_file);
  EXPECT_EQ(named.output_dir, fs::current_path() / "results" / "quick");
}

TEST(Scenario, LoadScenarioFromTheRepository)
{
  Scenario sc = jobsched::load_scenario(SOURCE_DIR "/scenarios/quickstart.yaml");
  EXPECT_EQ(sc.name, "quickstart");
  EXPECT_EQ(sc.platform, fs::path(SOURCE_DIR "/platforms/cluster-16.xml").lexically_normal());
  EXPECT_TRUE(sc.deployment.empty()); // the platform's roles place the actors
  ASSERT_TRUE(sc.workload.generator.has_value());
  EXPECT_EQ(sc.workload.generator->jobs, 500);
  EXPECT_EQ(sc.workload.generator->seed, 42u);
  EXPECT_DOUBLE_EQ(sc.workload.generator->mean_interarrival, 900);
  EXPECT_DOUBLE_EQ(sc.workload.generator->max_run_time, 14400);
  EXPECT_EQ(sc.policy.name, "easy");
  EXPECT_TRUE(fs::is_regular_file(sc.platform));
  // The bundled scenario that shows a deployment: its path is relative to the scenario file.
  Scenario deployed = jobsched::load_scenario(SOURCE_DIR "/scenarios/kth-sp2-easy.yaml");
  EXPECT_EQ(deployed.deployment, fs::path(SOURCE_DIR "/deployments/single-scheduler.xml").lexically_normal());
  EXPECT_TRUE(fs::is_regular_file(deployed.deployment));

  std::string msg = input_error_of([] { jobsched::load_scenario("/nonexistent/dir/s.yaml"); });
  EXPECT_TRUE(contains(msg, "/nonexistent/dir/s.yaml: cannot open")) << msg;
}

// ---- Params ----

namespace {
const std::vector<ParamSpec> specs{{"depth", "1", "reservations"},
                                   {"ratio", "0.5", "a fraction"},
                                   {"strict", "false", "a switch"},
                                   {"label", "abc", "free text"}};
}

TEST(Params, Defaults)
{
  Params p(specs, {}, "policy.params");
  EXPECT_EQ(p.get_int("depth"), 1);
  EXPECT_DOUBLE_EQ(p.get_double("ratio"), 0.5);
  EXPECT_FALSE(p.get_bool("strict"));
  EXPECT_EQ(p.get_string("label"), "abc");
  EXPECT_DOUBLE_EQ(p.get_double("depth"), 1.0); // an integer is also a number
}

TEST(Params, GivenValuesWin)
{
  Params p(specs, {{"depth", "-4"}, {"ratio", "2.5e-1"}, {"strict", "true"}, {"label", "x y"}}, "policy.params");
  EXPECT_EQ(p.get_int("depth"), -4);
  EXPECT_DOUBLE_EQ(p.get_double("ratio"), 0.25);
  EXPECT_TRUE(p.get_bool("strict"));
  EXPECT_EQ(p.get_string("label"), "x y");
}

TEST(Params, UnknownParameterNamesTheKeyAndTheKnownOnes)
{
  std::string msg = input_error_of([] { Params(specs, {{"dept", "3"}}, "policy.params"); });
  EXPECT_EQ(msg.rfind("policy.params.dept: unknown parameter", 0), 0u) << msg;
  EXPECT_TRUE(contains(msg, "depth, ratio, strict, label")) << msg;
  msg = input_error_of([] { Params({}, {{"foo", "1"}}, "policy.params"); });
  EXPECT_TRUE(contains(msg, "policy.params.foo: unknown parameter (known: none)")) << msg;
  msg = input_error_of([] { Params({}, {{"x", "1"}}, "policy.allocation_params"); });
  EXPECT_TRUE(contains(msg, "policy.allocation_params.x")) << msg;
}

TEST(Params, TypeErrorsAtConstruction)
{
  std::string msg = input_error_of([] { Params(specs, {{"depth", "two"}}, "policy.params"); });
  EXPECT_TRUE(contains(msg, "policy.params.depth: expected an integer, got 'two'")) << msg;
  msg = input_error_of([] { Params(specs, {{"depth", "2.5"}}, "policy.params"); });
  EXPECT_TRUE(contains(msg, "policy.params.depth: expected an integer, got '2.5'")) << msg;
  msg = input_error_of([] { Params(specs, {{"ratio", "half"}}, "policy.params"); });
  EXPECT_TRUE(contains(msg, "policy.params.ratio: expected a finite number, got 'half'")) << msg;
  msg = input_error_of([] { Params(specs, {{"ratio", ""}}, "policy.params"); });
  EXPECT_TRUE(contains(msg, "policy.params.ratio: expected a finite number")) << msg;
  msg = input_error_of([] { Params(specs, {{"strict", "yes"}}, "policy.params"); });
  EXPECT_TRUE(contains(msg, "policy.params.strict: expected true or false, got 'yes'")) << msg;
}

TEST(Params, TextParametersTakeAnything)
{
  Params p(specs, {{"label", "42"}}, "policy.params");
  EXPECT_EQ(p.get_string("label"), "42");
}

TEST(Params, UndeclaredNameIsAPolicyBug)
{
  Params p(specs, {}, "policy.params");
  EXPECT_THROW(p.get_int("nope"), PolicyError);
  EXPECT_THROW(p.get_string("nope"), PolicyError);
}

TEST(Params, ReadingAsTheWrongTypeLater)
{
  Params p(specs, {}, "policy.params");
  std::string msg = input_error_of([&] { p.get_int("label"); });
  EXPECT_TRUE(contains(msg, "policy.params.label: expected an integer, got 'abc'")) << msg;
}
