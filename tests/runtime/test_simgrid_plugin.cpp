/* jobsched inside a user's own s4u program (run/simgrid_plugin.hpp): the program makes the engine, loads the platform,
 * calls jobsched::plugin_init() (or passes --cfg=plugin:jobsched), places jobsched's actors and its own with its
 * deployment, and runs. Each program runs in its own child process; the outcomes were computed by hand. */
#include "core/errors.hpp"
#include "policy/policy.hpp"
#include "run/simgrid_plugin.hpp"
#include "support/child_process.hpp"
#include "support/scratch_folder.hpp"

#include <gtest/gtest.h>
#include <simgrid/s4u.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace jobsched;
using jobsched::testing::in_child;
namespace fs = std::filesystem;
namespace sg4 = simgrid::s4u;

namespace {

using Folder = jobsched::testing::ScratchFolder;

/* A broken policy: every waiting job starts on processor 0, busy or not. */
class EverythingOnProcessorZero : public Policy {
 public:
  explicit EverythingOnProcessorZero(const PolicyEnv&) {}
  void job_submitted(const Job& job, double) override { waiting_.push_back(job.id); }
  void job_ended(const Job&, JobEnd, double) override {}
  size_t waiting_count() const override { return waiting_.size(); }
  Decisions decide(const ClusterState& state) override
  {
    Decisions out;
    for (JobId id : waiting_)
      out.push_back(Decision::start(id, ResourceSet::range(state.machine->resource_count(), 0, 1)));
    waiting_.clear();
    return out;
  }

 private:
  std::vector<JobId> waiting_;
};

PolicyRegistration broken{
    {"test-everything-on-processor-0", "starts every job on processor 0 (tests only)", {}, [](const PolicyEnv& env) {
       return std::make_unique<EverythingOnProcessorZero>(env);
     }}};

/* Two 1 Gflop/s workstations w1 and w2 and a front end, on a switch. */
const char* const kPlatform = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="w1" speed="1Gf"/>
    <host id="w2" speed="1Gf"/>
    <host id="frontend" speed="1Gf"/>
    <link id="l1" bandwidth="1GBps" latency="0"/>
    <link id="l2" bandwidth="1GBps" latency="0"/>
    <link id="lf" bandwidth="1GBps" latency="0"/>
    <route src="w1" dst="w2"><link_ctn id="l1"/><link_ctn id="l2"/></route>
    <route src="w1" dst="frontend"><link_ctn id="l1"/><link_ctn id="lf"/></route>
    <route src="w2" dst="frontend"><link_ctn id="l2"/><link_ctn id="lf"/></route>
  </zone>
</platform>
)";

/* Two one-host jobs of 20 s submitted at 0: FCFS puts J1 on w1 and J2 on w2. */
const char* const kTrace = "1 0 -1 20 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n"
                           "2 0 -1 20 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n";

/* The program's own actor: from w1 (a compute host, where J1 runs), it switches w2 off at 10 and on again at 15. */
void switch_w2_off_at_10(std::vector<std::string>)
{
  sg4::this_actor::sleep_until(10);
  sg4::Host::by_name("w2")->turn_off();
  sg4::this_actor::sleep_until(15);
  sg4::Host::by_name("w2")->turn_on();
}

/* The deployment: jobsched's two actors on the front end (the scheduler's argument, when given, names the scenario)
 * and, when `injector`, the program's actor on w1. */
std::string deployment(const std::string& scheduler_argument, bool injector)
{
  std::string xml = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <actor host="frontend" function="jobsched_scheduler">)";
  if (!scheduler_argument.empty()) xml += "<argument value=\"" + scheduler_argument + "\"/>";
  xml += "</actor>\n  <actor host=\"frontend\" function=\"jobsched_submitter\"/>\n";
  if (injector) xml += "  <actor host=\"w1\" function=\"switch-w2-off\"/>\n";
  return xml + "</platform>\n";
}

/* Column `name` of every row of a CSV file, as numbers (strings that are not numbers give NaN). */
std::vector<std::string> csv_column(const fs::path& file, const std::string& name)
{
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  std::stringstream hs(line);
  for (std::string cell; std::getline(hs, cell, ',');)
    header.push_back(cell);
  size_t column = header.size();
  for (size_t c = 0; c < header.size(); c++)
    if (header[c] == name) column = c;
  std::vector<std::string> out;
  while (std::getline(in, line)) {
    std::stringstream ls(line);
    std::vector<std::string> cells;
    for (std::string cell; std::getline(ls, cell, ',');)
      cells.push_back(cell);
    out.push_back(column < cells.size() ? cells[column] : "?");
  }
  return out;
}

/* The program: engine (with `args` on its command line, and the L07 host model unless `keep_default_model`),
 * platform, plugin_init unless `args` enable the plugin, its actor, the deployment, run. Returns, per job: start,
 * finish, requeues; then the engine's clock at the end. An exception leaving run() is written into `error`. */
std::vector<double> program(const Folder& f, std::vector<std::string> args, bool call_init, const std::string& deploy,
                            bool keep_default_model = false)
{
  return in_child([&] {
    fs::current_path(f.dir); // the scenario's output.dir is relative to the current folder, as for the launcher
    args.insert(args.begin(), {"program", "--log=root.thres:critical"});
    std::vector<char*> argv;
    for (auto& a : args)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    int argc = static_cast<int>(args.size());
    sg4::Engine engine(&argc, argv.data());
    if (!keep_default_model) engine.set_config("host/model:ptask_L07");
    engine.load_platform((f.dir / "p.xml").string());
    if (call_init) jobsched::plugin_init();
    engine.register_function("switch-w2-off", &switch_w2_off_at_10);
    engine.load_deployment((f.dir / deploy).string());
    try {
      engine.run();
    } catch (const std::exception& e) {
      std::ofstream(f.dir / "error") << e.what();
      return std::vector<double>{sg4::Engine::get_clock()};
    }
    std::vector<double> out;
    const fs::path jobs = f.dir / "out" / "jobs.csv";
    auto start = csv_column(jobs, "starting_time");
    auto finish = csv_column(jobs, "finish_time");
    auto requeues = csv_column(jobs, "requeues");
    for (size_t j = 0; j < start.size(); j++)
      out.insert(out.end(), {std::stod(start[j]), std::stod(finish[j]), std::stod(requeues[j])});
    out.push_back(sg4::Engine::get_clock());
    return out;
  });
}

const std::string kScenario = "workload: {trace: w.swf}\npolicy: {name: fcfs}\noutput: {dir: out}\n";

void write_inputs(const Folder& f, const std::string& scenario = kScenario)
{
  f.write("p.xml", kPlatform);
  f.write("w.swf", kTrace);
  f.write("scenario.yaml", scenario);
  f.write("with-injector.xml", deployment("", true));
  f.write("without-injector.xml", deployment("", false));
  f.write("named-scenario.xml", deployment((f.dir / "scenario.yaml").string(), true));
}

std::string error_of(const Folder& f)
{
  std::ifstream in(f.dir / "error");
  std::string line;
  std::getline(in, line);
  return line;
}

TEST(SimgridPlugin, WithoutTheProgramsActorBothJobsRunFrom0To20)
{
  Folder f;
  write_inputs(f);
  auto r = program(f, {"--cfg=jobsched/scenario:" + (f.dir / "scenario.yaml").string()}, true, "without-injector.xml");
  ASSERT_EQ(r.size(), 7U) << error_of(f);
  EXPECT_DOUBLE_EQ(r[0], 0); // J1 on w1
  EXPECT_DOUBLE_EQ(r[1], 20);
  EXPECT_DOUBLE_EQ(r[2], 0);
  EXPECT_DOUBLE_EQ(r[3], 0); // J2 on w2
  EXPECT_DOUBLE_EQ(r[4], 20);
  EXPECT_DOUBLE_EQ(r[5], 0);
  EXPECT_DOUBLE_EQ(r[6], 20); // the simulation ends with the jobs
}

TEST(SimgridPlugin, TheProgramsActorSwitchingAHostOffRequeuesTheJobThere)
{
  // The program's actor runs on w1, which still computes (only jobsched's actors' hosts are the front end): J1 runs
  // there from 0 to 20 untouched. w2 goes off at 10: J2 loses its 10 s of work and is requeued; w2 is back at 15 and
  // J2, alone in the queue, starts again there at 15, ending at 35.
  Folder f;
  write_inputs(f);
  auto r = program(f, {"--cfg=jobsched/scenario:" + (f.dir / "scenario.yaml").string()}, true, "with-injector.xml");
  ASSERT_EQ(r.size(), 7U) << error_of(f);
  EXPECT_DOUBLE_EQ(r[0], 0);
  EXPECT_DOUBLE_EQ(r[1], 20);
  EXPECT_DOUBLE_EQ(r[2], 0);
  EXPECT_DOUBLE_EQ(r[3], 15);
  EXPECT_DOUBLE_EQ(r[4], 35);
  EXPECT_DOUBLE_EQ(r[5], 1);
  EXPECT_DOUBLE_EQ(r[6], 35);
}

TEST(SimgridPlugin, EnabledFromTheCommandLineWithTheScenarioInTheDeployment)
{
  // --cfg=plugin:jobsched calls plugin_init as the engine reads its options; the scheduler actor's argument names the
  // scenario. Same case as above, same outcome.
  Folder f;
  write_inputs(f);
  auto r = program(f, {"--cfg=plugin:jobsched"}, false, "named-scenario.xml");
  ASSERT_EQ(r.size(), 7U) << error_of(f);
  EXPECT_DOUBLE_EQ(r[3], 15);
  EXPECT_DOUBLE_EQ(r[4], 35);
  EXPECT_DOUBLE_EQ(r[5], 1);
}

TEST(SimgridPlugin, AScenarioWithItsOwnPlatformStopsTheProgramAndRunThrowsOneLine)
{
  // Two platforms would be ambiguous. The program's actor, which would switch w2 off at 10, is stopped at 0 with
  // jobsched's, and run() throws the one line naming the file and the key.
  Folder f;
  write_inputs(f, "platform: p.xml\n" + kScenario);
  const std::string scenario = (f.dir / "scenario.yaml").string();
  auto r = program(f, {"--cfg=jobsched/scenario:" + scenario}, true, "with-injector.xml");
  ASSERT_EQ(r.size(), 1U);
  EXPECT_DOUBLE_EQ(r[0], 0);
  EXPECT_EQ(error_of(f), scenario + ":1: platform: not read in a program that loads its own platform and deployment "
                                    "(jobsched::plugin_init): remove it");
  EXPECT_FALSE(fs::exists(f.dir / "out"));
}

TEST(SimgridPlugin, ErrorsOfTheProgramsSetUp)
{
  Folder f;
  write_inputs(f);
  const std::string scenario = (f.dir / "scenario.yaml").string();
  // No scenario at all.
  auto r = program(f, {}, true, "with-injector.xml");
  ASSERT_EQ(r.size(), 1U);
  EXPECT_EQ(error_of(f), "jobsched: no scenario: give --cfg=jobsched/scenario:FILE, or the file as the argument of the "
                         "jobsched_scheduler actor in the deployment");
  // Two different scenarios.
  f.write("other.yaml", kScenario);
  r = program(f, {"--cfg=jobsched/scenario:" + (f.dir / "other.yaml").string()}, true, "named-scenario.xml");
  ASSERT_EQ(r.size(), 1U);
  EXPECT_EQ(error_of(f).rfind("jobsched: two scenarios: --cfg=jobsched/scenario:", 0), 0U) << error_of(f);
  // SimGrid's default host model cannot run a job spanning hosts.
  r = program(f, {"--cfg=jobsched/scenario:" + scenario}, true, "with-injector.xml", true);
  ASSERT_EQ(r.size(), 1U);
  EXPECT_EQ(error_of(f).rfind("the program's engine: host/model is default, jobsched's jobs need ptask_L07", 0), 0U)
      << error_of(f);
  // No jobsched_scheduler actor in the deployment.
  f.write("no-scheduler.xml", R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1"><actor host="w1" function="switch-w2-off"/></platform>
)");
  r = program(f, {"--cfg=jobsched/scenario:" + scenario}, true, "no-scheduler.xml");
  ASSERT_EQ(r.size(), 1U);
  EXPECT_EQ(error_of(f), "the program's deployment: must place one actor with function=\"jobsched_scheduler\" and one "
                         "with function=\"jobsched_submitter\"");
  EXPECT_FALSE(fs::exists(f.dir / "out"));
}

TEST(SimgridPlugin, APolicysErrorDuringTheRunStopsEveryActorAndLeavesRun)
{
  // J1 and J2 both start on processor 0 at 0: the runtime refuses the second start (a PolicyError, a logic_error),
  // jobsched stops every actor, the program's too (w2 is never switched off), and run() throws it at 0 s.
  Folder f;
  write_inputs(f, "workload: {trace: w.swf}\npolicy: {name: test-everything-on-processor-0}\noutput: {dir: out}\n");
  auto r = program(f, {"--cfg=jobsched/scenario:" + (f.dir / "scenario.yaml").string()}, true, "with-injector.xml");
  ASSERT_EQ(r.size(), 1U);
  EXPECT_DOUBLE_EQ(r[0], 0);
  EXPECT_NE(error_of(f).find("that are busy or down"), std::string::npos) << error_of(f);
  EXPECT_FALSE(fs::exists(f.dir / "out"));
}

TEST(SimgridPlugin, InitBeforeTheEngineIsALogicError)
{
  auto r = in_child([] {
    try {
      jobsched::plugin_init();
    } catch (const std::logic_error& e) {
      return std::vector<double>{
          std::string(e.what()) == "jobsched::plugin_init: make the simgrid::s4u::Engine first" ? 1.0 : 0.0};
    }
    return std::vector<double>{};
  });
  ASSERT_EQ(r.size(), 1U);
  EXPECT_EQ(r[0], 1.0);
}

} // namespace
