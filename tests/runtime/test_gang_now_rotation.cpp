/* gang-now's rotations replayed by the runtime (Plan::rotation, JobRuntime::replay_rotation()): a run whose finish
 * times and replayed instants were computed by hand, and runs on platforms where the replay's per-process bookkeeping
 * is at work (workstations of different speeds, processes doubled up on a host and sharing its CPU, a host of two
 * cores, stalls at every resumption) compared with the same runs stepped boundary by boundary (simulation.cycles
 * false): every job's record and every trace segment the same, to the bit; and the runtime alone, driven as the driver
 * drives it, for the record a replay leaves each job (JobRuntime::rotation_sync()), which the next decision overwrites
 * before any output reads it. Every simulation runs in its own process. */
#include "run/simulation.hpp"
#include "runtime/execution/job_runtime.hpp"
#include "support/child_process.hpp"
#include "support/four_node_machine.hpp"
#include "support/quiet_run.hpp"
#include "support/scratch_folder.hpp"
#include "support/test_engine.hpp"
#include "support/trace_checks.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <tuple>
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

namespace {

/* The figures of jobs 1 and 2's records (JobTable): status, preemptions, switching time, migrations, service,
 * dedicated time, paged run time, page-fault time; 8 per job. */
std::vector<double> records(JobRuntime& rt)
{
  std::vector<double> v;
  for (JobId id : {1, 2}) {
    const JobState& s = rt.table().at(id);
    v.insert(v.end(), {static_cast<double>(static_cast<int>(s.status)), static_cast<double>(s.counters.preemptions),
                       s.counters.switching_time, static_cast<double>(s.counters.migrations), s.service,
                       s.account.dedicated_time, s.account.paged_run_time, s.account.page_fault_time});
  }
  return v;
}

/* On one workstation w0 of 1 Gflop/s (timers), jobs 1 and 2 of one process each and 25 s of work, placed as gang-now's
 * plans place them with quantum 10 s and switch cost 1 s (TwoSlicesOnOneWorkstationByHand's run): job 1 computes from
 * 0, job 2 from 10 (job 1 suspended then). `replayed`: from 10, the rest by JobRuntime::replay_rotation() (phase 1,
 * job 2's, in force; phase 0 is job 1's), returning its boundaries, last boundary, clock and decisions, then the
 * records. Otherwise the boundaries at 20, 30 and 40 stepped with place_process(), suspension first, as the driver
 * applies a plan (each stall's end by collect_ended()), and the records read at 40, the last boundary, alone. */
std::vector<double> two_jobs_rotated(bool replayed)
{
  return in_child([replayed] {
    ScratchFolder f;
    const auto platform = f.write("p.xml", workstations({"1Gf"}));
    auto engine_holder = jobsched::testing::quiet_l07_engine(platform.string());
    sg4::Engine& engine = *engine_holder;
    std::vector<sg4::Host*> hosts{engine.host_by_name("w0")};
    Machine machine;
    machine.add_host("w0", 1, 1e9);
    std::vector<WorkloadJob> jobs(2);
    for (JobId id : {1, 2}) {
      WorkloadJob& j = jobs[static_cast<size_t>(id - 1)];
      j.id = id;
      j.size = 1;
      j.run_time = 25;
      j.estimate = 1000;
    }
    std::vector<double> result;
    sg4::Actor::create("driver", engine.host_by_name("ctl"), [&] {
      JobRuntime rt(machine, hosts, 1e9, {}, {}, {}, ExecutionMode::timer);
      for (const WorkloadJob& j : jobs)
        rt.admit(j);
      // One boundary: `out` suspended, then `in` resumed after the switch.
      const auto boundary = [&rt](JobId out, JobId in) {
        rt.place_process(out, 0, 0, false, 0, 1);
        rt.place_process(in, 0, 0, true, 0, 1);
      };
      rt.place_process(1, 0, 0, true, 0, 1);
      sg4::this_actor::sleep_until(10);
      boundary(1, 2); // job 2's first start: no stall
      if (replayed) {
        const std::vector<int> on_w0{0};
        const JobRuntime::RotationPhase phase0{{1, &on_w0}};
        const JobRuntime::RotationPhase phase1{{2, &on_w0}};
        const std::function<const JobRuntime::RotationPhase&(size_t)> phase_jobs =
            [&](size_t phase) -> const JobRuntime::RotationPhase& { return phase == 0 ? phase0 : phase1; };
        ResourceSet up(1);
        up.set(0);
        JobRuntime::RotationRequest request;
        request.phases = 2;
        request.phase_jobs = &phase_jobs;
        request.phase = 1;
        request.until = 20;
        request.quantum = 10;
        request.switch_cost = 1;
        request.up = &up;
        // Nothing but the policy's wake-ups and the stalls' ends comes: every instant asked for is reached.
        const JobRuntime::RotationReplay replay =
            rt.replay_rotation(request, 10, [](double, double until) { return until; });
        result = {static_cast<double>(replay.boundaries), replay.last_boundary, replay.clock,
                  static_cast<double>(replay.decisions)};
      } else {
        for (const auto& [t, out, in] : {std::tuple{20.0, JobId{2}, JobId{1}}, std::tuple{30.0, JobId{1}, JobId{2}},
                                         std::tuple{40.0, JobId{2}, JobId{1}}}) {
          sg4::this_actor::sleep_until(t);
          boundary(out, in);
          if (t == 40) break;
          sg4::this_actor::sleep_until(t + 1); // the stall's end: the process resumed computes
          if (!rt.collect_ended().empty()) throw std::logic_error("a job ended before 40");
        }
      }
      const std::vector<double> r = records(rt);
      result.insert(result.end(), r.begin(), r.end());
    });
    engine.run();
    return result;
  });
}

} // namespace

/* The record a rotation replay leaves each job is its record at the job's last boundary, as stepping leaves it there.
 * Replayed from 10: the boundaries at 20 (job 2 suspended, job 1 resumed: it stalls to 21), 30 (job 1 suspended, 19 s
 * done; job 2 resumed, stalls to 31) and 40 (job 2 suspended, 19 s done; job 1 resumed, stalls to 41); not 50, as job
 * 1's work ends at 47. The replay ends at 41 after 6 processes placed. Both records are as the boundary at 40 left
 * them: job 1 switching (its stall to 41 not over), preempted at 10 and 30, 1 s of switching ([20, 21]; [40, 41] not
 * closed), served 10 + 9 = 19 s ([0, 10], [21, 30]), 19 s of its 25 done (dedicated time = paged run time = 19, no page
 * fault); job 2 suspended, preempted at 20 and 40, 1 s of switching ([30, 31]), served 10 + 9 = 19 s ([10, 20], [31,
 * 40]), 19 s done. */
TEST(GangNowRotation, RecordsAfterAReplayByHand)
{
  const std::vector<double> replayed = two_jobs_rotated(true);
  const std::vector<double> stepped = two_jobs_rotated(false);
  ASSERT_EQ(replayed.size(), 20U);
  ASSERT_EQ(stepped.size(), 16U);
  EXPECT_EQ(replayed[0], 3) << "boundaries";
  EXPECT_EQ(replayed[1], 40) << "last boundary";
  EXPECT_NEAR(replayed[2], 41, 1e-9) << "the replay's clock";
  EXPECT_EQ(replayed[3], 6) << "decisions";
  const double switching = static_cast<int>(JobStatus::switching);
  const double suspended = static_cast<int>(JobStatus::suspended);
  const std::vector<double> by_hand{switching, 2, 1, 0, 19, 19, 19, 0, suspended, 2, 1, 0, 19, 19, 19, 0};
  const char* const names[] = {"status",  "preemptions",    "switching time", "migrations",
                               "service", "dedicated time", "paged run time", "page-fault time"};
  for (size_t i = 0; i < by_hand.size(); i++) {
    EXPECT_NEAR(replayed[4 + i], by_hand[i], 1e-9) << "job " << 1 + i / 8 << "'s " << names[i % 8] << " replayed";
    EXPECT_NEAR(stepped[i], by_hand[i], 1e-9) << "job " << 1 + i / 8 << "'s " << names[i % 8] << " stepped";
  }
}

/* jobs.csv's nodes_used for jobs made of processes: the most hosts their VPs were on at once, not 0 (the job's own
 * record holds no placement of its own; its processes' do). Three workstations, jobs of 3, 2 and 5 VPs at time 0: a
 * gang's VPs go to different workstations while there are enough (MTAT: one VP of a job per workstation, then doubled
 * up over all of them), so the jobs used 3, 2 and 3 hosts. */
TEST(GangNowRotation, NodesUsedAreTheHostsOfTheProcesses)
{
  ScratchFolder f;
  f.write("p.xml", workstations({"1Gf", "1Gf", "1Gf"}));
  f.write("w.swf", swf_record(1, 0, 25, 3) + swf_record(2, 0, 25, 2) + swf_record(3, 0, 25, 5));
  auto file = f.write("s.yaml", "platform: p.xml\nworkload: {trace: w.swf}\npolicy:\n  name: gang-now\n"
                                "  params: {quantum: 10, validate_map: true}\n");
  const std::vector<double> nodes = in_child([&] {
    RunReport r = jobsched::testing::run_quietly(file, f.dir / "out");
    std::vector<double> v;
    for (const auto& s : r.states)
      v.push_back(s.cost.nodes_used);
    return v;
  });
  EXPECT_EQ(nodes, (std::vector<double>{3, 2, 3}));
}
