/* gang-now's rotations replayed by the runtime (Plan::rotation, JobRuntime::replay_rotation()): a run whose finish
 * times and replayed instants were computed by hand, and runs on platforms where the replay's per-process bookkeeping
 * is at work (workstations of different speeds, processes doubled up on a host and sharing its CPU, a host of two
 * cores, stalls at every resumption) compared with the same runs stepped boundary by boundary (simulation.cycles
 * false): every job's record and every trace segment the same, to the bit. Every simulation runs in its own process. */
#include "run/simulation.hpp"
#include "support/child_process.hpp"
#include "support/four_node_machine.hpp"
#include "support/quiet_run.hpp"
#include "support/scratch_folder.hpp"
#include "support/trace_checks.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace jobsched;
using jobsched::testing::in_child;
using jobsched::testing::ScratchFolder;
using jobsched::testing::swf_record;

namespace {

/* Workstations w0.. at `speeds` (SimGrid speed strings; "2Gf:2" for two cores), one architecture, and ctl (role
 * master). */
std::string workstations(const std::vector<std::string>& speeds)
{
  std::string hosts;
  for (size_t i = 0; i < speeds.size(); i++) {
    const std::string& s = speeds[i];
    const auto colon = s.find(':');
    hosts += "<host id=\"w" + std::to_string(i) + "\" speed=\"" + s.substr(0, colon) + "\"" +
             (colon == std::string::npos ? "" : " core=\"" + s.substr(colon + 1) + "\"") + "/>";
  }
  return R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1"><zone id="z" routing="Full">)" +
         hosts + R"(<host id="ctl" speed="1Gf"><prop id="role" value="master"/></host></zone></platform>
)";
}

/* A run's figures: per job (workload order) its finish time, start time, service, preemptions, switching time,
 * dedicated time, then every trace segment (job, start, end, status, first processor, processors); the decision
 * instants and the instants replayed last (the vector's last two). */
std::vector<double> outcome(const ScratchFolder& f, const std::string& scenario, const std::string& out)
{
  auto file = f.write(out + ".yaml", scenario);
  return in_child([&] {
    RunReport r = jobsched::testing::run_quietly(file, f.dir / out);
    std::vector<double> v;
    for (const auto& s : r.states)
      v.insert(v.end(), {s.finish_time, s.start_time, s.service, static_cast<double>(s.counters.preemptions),
                         s.counters.switching_time, s.account.dedicated_time});
    for (const auto& t : r.trace) {
      int first = -1;
      t.processors.for_each_until([&](int p) {
        first = p;
        return false;
      });
      v.insert(v.end(), {static_cast<double>(t.job), t.start, t.end, static_cast<double>(static_cast<int>(t.status)),
                         static_cast<double>(first), static_cast<double>(t.processors.count())});
    }
    v.push_back(static_cast<double>(jobsched::testing::computing_overlaps(r.trace)));
    v.push_back(static_cast<double>(r.performance.instants));
    v.push_back(static_cast<double>(r.performance.cycle_instants));
    return v;
  });
}

/* The run with its rotations replayed and stepped: the same figures to the bit, and the instants replayed make up the
 * difference in decision instants. Returns how many were replayed. */
long replayed_as_stepped(const std::string& platform, const std::string& rest, int seed)
{
  ScratchFolder f;
  f.write("p.xml", platform);
  const std::string scenario = "platform: p.xml\npolicy:\n  name: gang-now\n" + rest;
  const std::string simulation = "simulation: {seed: " + std::to_string(seed);
  const std::vector<double> replayed = outcome(f, scenario + simulation + "}\n", "replayed");
  const std::vector<double> stepped = outcome(f, scenario + simulation + ", cycles: false}\n", "stepped");
  if (replayed.size() < 3 || stepped.size() < 3) {
    ADD_FAILURE() << "a run failed";
    return 0;
  }
  const size_t n = replayed.size();
  EXPECT_EQ(replayed[n - 3], 0) << "two processes computed on one processor at once";
  EXPECT_EQ(stepped.back(), 0) << "instants replayed with simulation.cycles false";
  EXPECT_EQ(replayed[n - 2] + replayed[n - 1], stepped[stepped.size() - 2]) << "decision instants";
  EXPECT_EQ(replayed.size(), stepped.size()) << "jobs and trace segments";
  if (replayed.size() == stepped.size())
    for (size_t i = 0; i + 2 < n; i++) // bit for bit (memcmp: NaN or -0 would not slip through ==)
      if (std::memcmp(&replayed[i], &stepped[i], sizeof(double)) != 0) {
        ADD_FAILURE() << "figure " << i << ": " << replayed[i] << " replayed, " << stepped[i] << " stepped";
        break;
      }
  return static_cast<long>(replayed[n - 1]);
}

} // namespace

/* One workstation of 1 Gflop/s, quantum 10 s, switch cost 1 s; jobs 1 and 2 of one VP each, 25 s of work, both at
 * time 0: MTAT puts them in slices 0 and 1. Job 1 computes [0, 10] (a first start pays no switch), job 2 [10, 20],
 * job 1 [21, 30] after its stall (19 s done), job 2 [31, 40] (19 done), job 1 [41, 47]: it ends at 47. Job 2, alone,
 * resumes at 47 and computes [48, 54]: it ends at 54. Stepped, the decision instants are 0, 10, 20, 30, 40, 47, 54.
 * Replayed: the decision at 0 cannot replay (job 2's VP has not started: its plan starts it); the one at 10 replays
 * the boundaries 20, 30, 40 and stops before 50 (job 1's work ends at 47, before it): 4 decision instants, 3 replayed.
 */
TEST(GangNowRotation, TwoSlicesOnOneWorkstationByHand)
{
  ScratchFolder f;
  f.write("p.xml", workstations({"1Gf"}));
  f.write("w.swf", swf_record(1, 0, 25, 1) + swf_record(2, 0, 25, 1));
  const std::string scenario = "platform: p.xml\nworkload: {trace: w.swf}\npolicy:\n  name: gang-now\n"
                               "  params: {quantum: 10, switch_cost: 1, validate_map: true}\n";
  const std::vector<double> got = outcome(f, scenario, "replayed");
  const std::vector<double> stepped = outcome(f, scenario + "simulation: {cycles: false}\n", "stepped");
  ASSERT_GE(got.size(), 12U);
  ASSERT_EQ(got.size(), stepped.size());
  EXPECT_NEAR(got[0], 47, 1e-9) << "job 1's finish";
  EXPECT_NEAR(got[6], 54, 1e-9) << "job 2's finish";
  EXPECT_NEAR(got[2], 25, 1e-9) << "job 1's service";
  EXPECT_EQ(got[3], 2) << "job 1's preemptions";
  EXPECT_NEAR(got[4], 2, 1e-9) << "job 1's switching time";
  EXPECT_EQ(got[9], 2) << "job 2's preemptions";
  EXPECT_NEAR(got[10], 2, 1e-9) << "job 2's switching time";
  EXPECT_EQ(got[got.size() - 2], 4) << "decision instants";
  EXPECT_EQ(got[got.size() - 1], 3) << "instants replayed";
  EXPECT_EQ(stepped[stepped.size() - 2], 7) << "decision instants stepped";
  for (size_t i = 0; i + 2 < got.size(); i++)
    EXPECT_EQ(got[i], stepped[i]) << "figure " << i;
}

/* Workstations of three speeds, jobs of up to twice as many VPs as workstations (doubled up, sharing a host's CPU:
 * re-timed as others join and leave), arrivals close together (many slices). */
TEST(GangNowRotation, HeterogeneousDoubledUpAsStepped)
{
  const long replayed =
      replayed_as_stepped(workstations({"1Gf", "2Gf", "3Gf", "1Gf"}),
                          "  params: {quantum: 20, switch_cost: 0.5}\nworkload:\n  generator: {model: vp, jobs: 40, "
                          "mean_interarrival: 40, min_vps: 1, max_vps: 8, min_work: 30, max_work: 400, image_mb: 0, "
                          "new_vp_per_hour: 0, vp_exit_per_hour: 0}\n",
                          3);
  EXPECT_GT(replayed, 50);
}

/* A host of two cores among one-core ones (two of its processes compute at full speed, a third shares), a large
 * switch cost, eviction `restart` (no owner: nothing is restarted, the plans say so all the same). */
TEST(GangNowRotation, TwoCoreHostAsStepped)
{
  const long replayed = replayed_as_stepped(
      workstations({"2Gf:2", "1Gf", "1.5Gf"}),
      "  params: {quantum: 30, switch_cost: 7, eviction: restart}\nworkload:\n  generator: {model: vp, jobs: 30, "
      "mean_interarrival: 60, min_vps: 1, max_vps: 6, min_work: 20, max_work: 600, image_mb: 0, new_vp_per_hour: 0, "
      "vp_exit_per_hour: 0}\n",
      11);
  EXPECT_GT(replayed, 20);
}
