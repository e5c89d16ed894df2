/* Gang scheduling on a network of workstations (Al-Saqabi, Otto & Walpole) as the policy `gang-now` of the one
 * runtime: jobs made of processes (VPs) placed one by one, doubled up on a workstation, migrated with their images,
 * restarted, created and ended by their application. Every expected time is computed by hand from the platform's
 * figures (the comments say how); every run's trace is checked: no processor computes for two jobs at once, and the
 * flops the workstations computed (speed x the time some process ran there) are the jobs' work.
 *
 * Platform of the owner tests: workstations a1 (x86, 1 Gflop/s), a2 (x86, 2 Gflop/s), b1 (sparc, 4 Gflop/s), so the
 * capacities are a = {1, 2, 4} (relative to a1, the slowest, which is the reference speed under workload model vp);
 * every route between two workstations is the one link `lan` of 25,000,000 B/s and 1 ms latency; ctl (role master)
 * runs the scheduler. */
#include "core/random.hpp"
#include "run/simulation.hpp"
#include "support/child_process.hpp"
#include "support/quiet_run.hpp"
#include "support/scratch_folder.hpp"
#include "support/trace_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

using namespace jobsched;
using jobsched::testing::in_child;
using jobsched::testing::ScratchFolder;

namespace {

const char* const kThree = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="a1" speed="1Gf"><prop id="arch" value="x86"/></host>
    <host id="a2" speed="2Gf"><prop id="arch" value="x86"/></host>
    <host id="b1" speed="4Gf"><prop id="arch" value="sparc"/></host>
    <host id="ctl" speed="1Gf"><prop id="role" value="master"/></host>
    <link id="lan" bandwidth="25000000Bps" latency="1ms" sharing_policy="SHARED"/>
    <route src="a1" dst="a2"><link_ctn id="lan"/></route>
    <route src="a1" dst="b1"><link_ctn id="lan"/></route>
    <route src="a2" dst="b1"><link_ctn id="lan"/></route>
  </zone>
</platform>
)";

const char* const kOne = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="w0" speed="1Gf"/>
    <host id="ctl" speed="1Gf"><prop id="role" value="master"/></host>
  </zone>
</platform>
)";

/* Three workstations a1, a2, a3 of one architecture at `speeds` (SimGrid speed strings) behind the link `lan` of
 * 25,000,000 B/s and 1 ms, and ctl (role master). */
std::string one_lan(const std::string& a1, const std::string& a2, const std::string& a3)
{
  return R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="a1" speed=")" +
         a1 + R"("/> <host id="a2" speed=")" + a2 + R"("/> <host id="a3" speed=")" + a3 + R"("/>
    <host id="ctl" speed="1Gf"><prop id="role" value="master"/></host>
    <link id="lan" bandwidth="25000000Bps" latency="1ms" sharing_policy="SHARED"/>
    <route src="a1" dst="a2"><link_ctn id="lan"/></route>
    <route src="a1" dst="a3"><link_ctn id="lan"/></route>
    <route src="a2" dst="a3"><link_ctn id="lan"/></route>
  </zone>
</platform>
)";
}

/* Per job (workload order): finish, migrations, bytes moved, work lost, preemptions; then the trace's overlaps and
 * the flops computed over the flops of the jobs' work (`work_flops`, given by the test: it knows what was dropped). */
struct Outcome {
  std::vector<std::vector<double>> jobs;
  double overlaps = -1;
  double flops = -1;
  double utilization = -1;
  double makespan = -1;
};

/* `speeds`: each processor's (one per workstation, in host order), flop/s. */
Outcome run(const ScratchFolder& f, const std::string& platform, const std::string& rest,
            const std::vector<double>& speeds)
{
  f.write("p.xml", platform);
  // Every run checks the allocation map's rules before and after each event (policy.params.validate_map).
  std::string checked = rest;
  const std::string params = "  params: {";
  if (auto at = checked.find(params); at != std::string::npos)
    checked.insert(at + params.size(), "validate_map: true, ");
  else
    checked = "  params: {validate_map: true}\n" + checked;
  auto file = f.write("s.yaml", "platform: p.xml\npolicy:\n  name: gang-now\n" + checked);
  auto v = in_child([&] {
    RunReport r = jobsched::testing::run_quietly(file, f.dir / "out");
    std::vector<double> out{static_cast<double>(r.states.size())};
    for (const auto& s : r.states)
      out.insert(out.end(), {s.finish_time, static_cast<double>(s.counters.migrations), s.counters.bytes_moved,
                             s.counters.work_lost, static_cast<double>(s.counters.preemptions)});
    // Flops: on each processor, the union of the intervals in which some process ran, at the host's speed.
    std::map<int, std::vector<std::pair<double, double>>> busy;
    for (const auto& t : r.trace)
      if (t.status == JobStatus::running) t.processors.for_each([&](int p) { busy[p].emplace_back(t.start, t.end); });
    double flops = 0;
    for (auto& [p, intervals] : busy) {
      std::sort(intervals.begin(), intervals.end());
      double covered = -1;
      for (const auto& [a, b] : intervals) {
        flops += std::max(0.0, b - std::max(a, covered)) * speeds.at(static_cast<size_t>(p));
        covered = std::max(covered, b);
      }
    }
    out.insert(out.end(), {static_cast<double>(jobsched::testing::computing_overlaps(r.trace)), flops,
                           r.metrics.utilization, r.metrics.makespan});
    return out;
  });
  Outcome o;
  if (v.empty()) {
    ADD_FAILURE() << "the run failed";
    return o;
  }
  const auto n = static_cast<size_t>(v[0]);
  for (size_t j = 0; j < n; j++)
    o.jobs.emplace_back(v.begin() + static_cast<long>(1 + 5 * j), v.begin() + static_cast<long>(6 + 5 * j));
  o.overlaps = v[1 + 5 * n];
  o.flops = v[2 + 5 * n];
  o.utilization = v[3 + 5 * n];
  o.makespan = v[4 + 5 * n];
  EXPECT_EQ(o.overlaps, 0) << "two jobs computed on one processor at once";
  return o;
}

/* One job of one x86 VP, work 10 s at a1's speed (1e10 flops), image 50 MB (5e7 bytes). MTAT puts it on a2 (1/2 <
 * 1/1), where it would take 5 s. The owner of a2 comes back at t = 2: by then the VP has done 4e9 flops. */
Outcome evicted(const std::string& eviction, const std::string& owners, const std::string& grace = "0")
{
  ScratchFolder f;
  f.write("owners.csv", owners);
  return run(f, kThree,
             "  params: {eviction: " + eviction +
                 ", switch_cost: 0}\nowners: {model: trace, trace: owners.csv, grace: " + grace +
                 "}\nworkload:\n  generator: {model: vp, jobs: 1, min_vps: 1, max_vps: 1, min_work: 10, max_work: 10, "
                 "image_mb: 50, archs: [x86]}\n",
             {1e9, 2e9, 4e9});
}

TEST(GangNowProcesses, EvictedVpMigratesWithItsWorkAfterItsImageTransfer)
{
  // At t = 2 processor_exit(a2): the only other x86 workstation is a1. The image crosses `lan`: 0.001 s + 5e7 / 2.5e7
  // = 2.001 s, so the VP resumes on a1 at 4.001 with its 6e9 flops left: 6 s at 1 Gflop/s, done at 10.001. One
  // migration, 5e7 bytes, no work lost. Flops: 4e9 on a2, 6e9 on a1.
  Outcome o = evicted("migrate", "2,a2,busy\n30,a2,idle\n");
  ASSERT_EQ(o.jobs.size(), 1U);
  EXPECT_NEAR(o.jobs[0][0], 10.001, 1e-6);
  EXPECT_EQ(o.jobs[0][1], 1);
  EXPECT_EQ(o.jobs[0][2], 5e7);
  EXPECT_EQ(o.jobs[0][3], 0);
  EXPECT_NEAR(o.flops, 1e10, 1);
}

TEST(GangNowProcesses, WaitingVpResumesOnItsHostWhenTheOwnerLeaves)
{
  // `wait`: the VP is suspended on a2 from 2 to 8 (its resumption pays switch_cost 0), then does its 6e9 flops left
  // at 2 Gflop/s: done at 11, never moved.
  Outcome o = evicted("wait", "2,a2,busy\n8,a2,idle\n");
  ASSERT_EQ(o.jobs.size(), 1U);
  EXPECT_NEAR(o.jobs[0][0], 11.0, 1e-6);
  EXPECT_EQ(o.jobs[0][1], 0);
  EXPECT_EQ(o.jobs[0][2], 0);
  EXPECT_EQ(o.jobs[0][4], 1); // one suspension
  EXPECT_NEAR(o.flops, 1e10, 1);
}

TEST(GangNowProcesses, RestartedVpLosesItsWork)
{
  // `restart`: at 2 the VP is killed (4 s of its work at the reference speed lost, counted in work_lost) and starts
  // again on a1 with no image to move: 10 s at 1 Gflop/s, done at 12. Flops: 4e9 lost on a2, then 1e10 on a1.
  Outcome o = evicted("restart", "2,a2,busy\n30,a2,idle\n");
  ASSERT_EQ(o.jobs.size(), 1U);
  EXPECT_NEAR(o.jobs[0][0], 12.0, 1e-6);
  EXPECT_EQ(o.jobs[0][1], 0);
  EXPECT_EQ(o.jobs[0][2], 0);
  EXPECT_NEAR(o.jobs[0][3], 4.0, 1e-6);
  EXPECT_NEAR(o.flops, 1.4e10, 1);
}

TEST(GangNowProcesses, GraceTimeLetsTheGuestStay)
{
  // Grace 3 s: the owner of a2 is back from 2 to 4, less than the grace time: never seen; the VP ends on a2 at 5.
  Outcome o = evicted("migrate", "2,a2,busy\n4,a2,idle\n", "3");
  ASSERT_EQ(o.jobs.size(), 1U);
  EXPECT_NEAR(o.jobs[0][0], 5.0, 1e-6);
  EXPECT_EQ(o.jobs[0][1], 0);
}

TEST(GangNowProcesses, TwoVpsOnOneWorkstationShareItsCpu)
{
  // An SWF job of size 2 and run time 10 s is 2 VPs of 10 s each at the reference speed (w0's, 1 Gflop/s). One
  // workstation: both VPs on w0, each computing at half its speed: both end at 2 x 10 / 1 = 20 s. The trace has one
  // running segment per VP, both on processor 0, under job 1.
  ScratchFolder f;
  f.write("w.swf", "1 0 -1 10 2 -1 -1 2 10 -1 1 1 1 1 1 1 -1 -1\n");
  Outcome o = run(f, kOne, "workload: {trace: w.swf}\n", {1e9});
  ASSERT_EQ(o.jobs.size(), 1U);
  EXPECT_NEAR(o.jobs[0][0], 20.0, 1e-6);
  EXPECT_NEAR(o.flops, 2e10, 1);
  // Utilization counts the processor once while both VPs run on it: 1 over the 20 s.
  EXPECT_NEAR(o.utilization, 1.0, 1e-9);
}

TEST(GangNowProcesses, EvictedVpsShareTheLinkTheirImagesCross)
{
  // a1 and a3 at 1 Gflop/s, a2 at 2 Gflop/s (a = {1, 2, 1}), all of one architecture, one link of 25 MB/s and 1 ms.
  // One job of 2 VPs of 10 s (1e10 flops each), 50 MB each. Optimal MTAT: the first VP to a2 (1/2), the second ties
  // at 1 between a2 (doubled up, each VP at 1 Gflop/s) and a1, a3: a2. The owner of a2 comes back at 2: each VP has
  // 8e9 flops left; MTAT on {a1, a3} gives one each, and both images (1e8 bytes) cross the link together: 0.001 +
  // 1e8 / 2.5e7 = 4.001 s. Both resume at 6.001 and end at 14.001.
  ScratchFolder f;
  f.write("owners.csv", "2,a2,busy\n");
  const std::string platform = one_lan("1Gf", "2Gf", "1Gf");
  Outcome o = run(f, platform,
                  "  params: {switch_cost: 0}\nowners: {model: trace, trace: owners.csv}\nworkload:\n  generator: "
                  "{model: vp, jobs: 1, min_vps: 2, max_vps: 2, min_work: 10, max_work: 10, image_mb: 50}\n",
                  {1e9, 2e9, 1e9});
  ASSERT_EQ(o.jobs.size(), 1U);
  EXPECT_NEAR(o.jobs[0][0], 14.001, 1e-6);
  EXPECT_EQ(o.jobs[0][1], 2);
  EXPECT_EQ(o.jobs[0][2], 1e8);
}

TEST(GangNowProcesses, TwoWorkstationsReclaimedAtOneInstant)
{
  // a1, a2, a3 at 1 Gflop/s (one architecture), one link of 25 MB/s and 1 ms. One job of 3 VPs of 10 s, 25 MB each:
  // one VP per workstation. The owners of a1 and a2 come back together at 5: both VPs (5e9 flops left each) go to a3
  // (the map's last workstation), their images (5e7 bytes) sharing the link: 0.001 + 5e7 / 2.5e7 = 2.001 s, in at
  // 7.001. Meanwhile a3's own VP computes alone: 2.999 s left at 7.001. Then three VPs share a3 (1/3 each): its own
  // ends at 7.001 + 3 x 2.999 = 15.998, the two others have 5 - 2.999 = 2.001 s left, at 1/2 each: done at 20.
  // Flops: 5e9 on a1, 5e9 on a2, 2e10 on a3 = the 3e10 of work.
  ScratchFolder f;
  f.write("owners.csv", "5,a1,busy\n5,a2,busy\n");
  const std::string platform = one_lan("1Gf", "1Gf", "1Gf");
  Outcome o = run(f, platform,
                  "  params: {switch_cost: 0}\nowners: {model: trace, trace: owners.csv}\nworkload:\n  generator: "
                  "{model: vp, jobs: 1, min_vps: 3, max_vps: 3, min_work: 10, max_work: 10, image_mb: 25}\n",
                  {1e9, 1e9, 1e9});
  ASSERT_EQ(o.jobs.size(), 1U);
  EXPECT_NEAR(o.jobs[0][0], 20.0, 1e-6);
  EXPECT_EQ(o.jobs[0][1], 2);
  EXPECT_EQ(o.jobs[0][2], 5e7);
  EXPECT_NEAR(o.flops, 3e10, 1);
}

/* The same host sharing on both execution paths: SimGrid's ptasks share a host's CPU through its solver (L07: a host
 * of c cores gives each execution one core at most), timers compute each process's share (min(1, c / k) of a core
 * for k processes) and re-time the others whenever k changes. */
TEST(GangNowProcesses, ProcessesShareAHostAlikeOnTimersAndPtasks)
{
  for (const std::string mode : {"timer", "ptask"}) {
    SCOPED_TRACE(mode);
    { // TwoWorkstationsReclaimedAtOneInstant above: three VPs on a3 at 1/3 each, then two at 1/2: 15.998 and 20.
      ScratchFolder f;
      f.write("owners.csv", "5,a1,busy\n5,a2,busy\n");
      Outcome o = run(f, one_lan("1Gf", "1Gf", "1Gf"),
                      "  params: {switch_cost: 0}\nowners: {model: trace, trace: owners.csv}\nworkload:\n  generator: "
                      "{model: vp, jobs: 1, min_vps: 3, max_vps: 3, min_work: 10, max_work: 10, image_mb: 25}\n"
                      "simulation: {execution: " +
                          mode + "}\n",
                      {1e9, 1e9, 1e9});
      ASSERT_EQ(o.jobs.size(), 1U);
      EXPECT_NEAR(o.jobs[0][0], 20.0, 1e-6);
      EXPECT_NEAR(o.flops, 3e10, 1);
    }
    { // One workstation of 2 cores at 1 Gflop/s each (the reference speed), one job of 3 VPs of 10 s (1e10 flops
      // each), all on w0's first core: 3e10 flops at the host's 2e9 flop/s, shared evenly (2/3 Gflop/s each, under
      // one core's 1 Gflop/s): all three end at 15 s.
      ScratchFolder f;
      const std::string two_cores = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="w0" speed="1Gf" core="2"/>
    <host id="ctl" speed="1Gf"><prop id="role" value="master"/></host>
  </zone>
</platform>
)";
      Outcome o =
          run(f, two_cores,
              "  params: {switch_cost: 0}\nworkload:\n  generator: {model: vp, jobs: 1, min_vps: 3, max_vps: 3, "
              "min_work: 10, max_work: 10, image_mb: 1}\nsimulation: {execution: " +
                  mode + "}\n",
              {1e9, 1e9});
      ASSERT_EQ(o.jobs.size(), 1U);
      EXPECT_NEAR(o.jobs[0][0], 15.0, 1e-6);
      EXPECT_NEAR(o.makespan, 15.0, 1e-6);
    }
  }
}

/* Two jobs of 1 VP (10 s of work each) on one workstation: they get a slice each, which alternate every `quantum`
 * seconds; a VP that computes again after another slice first stalls `switch_cost` seconds. The expected end times
 * come from a direct walk through the turns (below), not from the simulator. */
TEST(GangNowProcesses, SlicesRotateWithTheQuantumAndTheContextSwitch)
{
  ScratchFolder f;
  Outcome o = run(f, kOne,
                  "  params: {quantum: 3, switch_cost: 0.5}\nworkload:\n  generator: {model: vp, jobs: 2, "
                  "mean_interarrival: 2, min_vps: 1, max_vps: 1, min_work: 10, max_work: 10, image_mb: 1}\n",
                  {1e9});
  ASSERT_EQ(o.jobs.size(), 2U);
  // The second arrival: the generator's stream "gang-arrivals" of seed 1, drawn here independently.
  RandomStream arrivals(1, "gang-arrivals");
  const double t1 = arrivals.exponential(2);
  ASSERT_GT(t1, 0);
  ASSERT_LT(t1, 7) << "the walk below assumes job 1 comes while job 0 has more than a quantum of work left";
  // Job 0 computes alone until t1; then slice 0 (job 0, already computing: no stall) runs until t1 + 3, slice 1
  // (job 1, its first start: no stall) until t1 + 6, and so on. When one job ends, its slice goes and the other
  // job computes again at once, after its context switch.
  const double q = 3;
  const double c = 0.5;
  double remaining[2] = {10 - t1, 10};
  bool computed_before[2] = {true, false};
  double end[2] = {-1, -1};
  double t = t1;
  int turn = 0;
  while (end[0] < 0 && end[1] < 0) {
    const double stall = computed_before[turn] && turn == 0 && t == t1 ? 0 : (computed_before[turn] ? c : 0);
    computed_before[turn] = true;
    const double window = q - stall;
    if (remaining[turn] <= window) {
      end[turn] = t + stall + remaining[turn];
    } else {
      remaining[turn] -= window;
      t += q;
      turn = 1 - turn;
    }
  }
  const int other = end[0] < 0 ? 0 : 1;
  end[other] = end[1 - other] + c + remaining[other];
  EXPECT_NEAR(o.jobs[0][0], end[0], 1e-6);
  EXPECT_NEAR(o.jobs[1][0], end[1], 1e-6);
  EXPECT_EQ(o.jobs[0][1] + o.jobs[1][1], 0);
  EXPECT_NEAR(o.flops, 2e10, 1);
}

TEST(GangNowProcesses, NewVpsAddWorkToTheJob)
{
  // One VP of 100 s on w0 (1 Gflop/s), new_VP at 24 per hour (mean 150 s), no VP_exit. Each new VP (a whole VP's
  // work, placed at once on w0, the only workstation, in the job's slice: its first start, no stall) shares w0,
  // which never idles: the job ends when 100 x (1 + k) s of work are done, k the new VPs before that. The event
  // times come from the job's stream "gang-dynamics-0" of seed 8, drawn here (5 new VPs: the job ends at 600).
  ScratchFolder f;
  Outcome o = run(f, kOne,
                  "  params: {switch_cost: 0}\nworkload:\n  generator: {model: vp, jobs: 1, min_vps: 1, max_vps: 1, "
                  "min_work: 100, max_work: 100, image_mb: 1, new_vp_per_hour: 24}\nsimulation: {seed: 8}\n",
                  {1e9});
  RandomStream dynamics(8, "gang-dynamics-0");
  double t = dynamics.exponential(150);
  int k = 0;
  while (t < 100.0 * (1 + k)) {
    k++;
    t += dynamics.exponential(150);
  }
  ASSERT_GE(k, 1) << "no new VP came before the job ended: the test shows nothing";
  ASSERT_EQ(o.jobs.size(), 1U);
  EXPECT_NEAR(o.jobs[0][0], 100.0 * (1 + k), 1e-6);
  EXPECT_NEAR(o.flops, 1e11 * (1 + k), 1e3);
}

TEST(GangNowProcesses, VpExitDropsTheRestOfItsWork)
{
  // Two VPs of 100 s on w0 (1 Gflop/s), sharing it; VP_exit at 18 per hour (mean 200 s). The first exit at t1 ends
  // one of the two (each has done t1 / 2): the other, alone, has 100 - t1 / 2 left and ends at 100 + t1 / 2. A later
  // exit would end the job's last VP: ignored. Without an exit before 200 both end at 200.
  ScratchFolder f;
  Outcome o = run(f, kOne,
                  "  params: {switch_cost: 0}\nworkload:\n  generator: {model: vp, jobs: 1, min_vps: 2, max_vps: 2, "
                  "min_work: 100, max_work: 100, image_mb: 1, vp_exit_per_hour: 18}\nsimulation: {seed: 3}\n",
                  {1e9});
  RandomStream dynamics(3, "gang-dynamics-0"); // seed 3: t1 = 52.4 s
  const double t1 = dynamics.exponential(200);
  ASSERT_LT(t1, 200) << "no VP_exit before the job ended: the test shows nothing";
  ASSERT_EQ(o.jobs.size(), 1U);
  EXPECT_NEAR(o.jobs[0][0], 100 + t1 / 2, 1e-6);
  EXPECT_NEAR(o.flops, 1e9 * (100 + t1 / 2), 1e3); // w0 never idles until the end
  EXPECT_EQ(o.jobs[0][3], 0);                      // dropped work is not lost work
}

} // namespace
