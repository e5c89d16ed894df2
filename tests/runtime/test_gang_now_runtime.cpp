/* Gang scheduling on a network of workstations (Al-Saqabi, Otto & Walpole) on SimGrid: owners evicting a VP, with
 * every expected time computed by hand from the platform's figures.
 *
 * Platform: workstations a1 (x86, 1 Gflop/s), a2 (x86, 2 Gflop/s), b1 (sparc, 4 Gflop/s), so the capacities are
 * a = {1, 2, 4} (relative to a1, the slowest); every route between two workstations is the one link `lan` of
 * 25,000,000 B/s and 1 ms latency (SimGrid bounds a flow's rate by its TCP window, 4 MiB / (2 x latency): 2 GB/s
 * here, no bound); ctl (role master) runs the scheduler. One job: 1 VP of architecture x86, work 10 s
 * on the slowest workstation (10^10 flops), image 50 MB (5 x 10^7 bytes). MTAT puts it on a2 (1/2 < 1/1), where it
 * would take 5 s. The owner of a2 comes back at t = 2: by then the VP has done 4 x 10^9 flops. */
#include "run/gang_now.hpp"
#include "support/child_process.hpp"
#include "support/quiet_run.hpp"
#include "support/scratch_folder.hpp"

#include <gtest/gtest.h>

using namespace jobsched;
using jobsched::testing::in_child;
using jobsched::testing::ScratchFolder;

namespace {

const char* const kPlatform = R"(<?xml version='1.0'?>
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

/* The job's finish time, migrations, bytes moved, restarts and work lost under `eviction`, with the owner trace
 * `owners`. */
std::vector<double> evicted_run(const std::string& eviction, const std::string& owners, const std::string& grace = "0")
{
  ScratchFolder scratch;
  scratch.write("now.xml", kPlatform);
  scratch.write("owners.csv", owners);
  auto scenario = scratch.write("s.yaml", R"(platform: now.xml
gang_now:
  policy: {eviction: )" + eviction + R"(, switch_cost: 0}
  owners: {model: trace, trace: owners.csv, grace: )" +
                                              grace + R"(}
  workload: {jobs: 1, min_vps: 1, max_vps: 1, min_work: 10, max_work: 10, image_mb: 50, archs: [x86]}
)");
  return in_child([&] {
    GangNowReport r = run_gang_now(jobsched::testing::load_scenario_into(scenario, scratch.dir / "out"),
                                   jobsched::testing::quiet_options());
    const GangNowJobResult& j = r.jobs.at(0);
    return std::vector<double>{j.finish, static_cast<double>(j.migrations), j.bytes_moved,
                               static_cast<double>(j.restarts), j.work_lost};
  });
}

TEST(GangNowRuntime, EvictedVpMigratesWithItsWorkAfterItsImageTransfer)
{
  // At t = 2 processor_exit(a2): the only other x86 workstation is a1 (b1 is sparc). The image crosses `lan`:
  // 0.001 s + 5e7 / 2.5e7 = 2.001 s, so the VP resumes on a1 at 4.001 with its 6e9 flops left: 6 s at 1 Gflop/s,
  // done at 10.001. One migration, 5e7 bytes, no work lost.
  auto r = evicted_run("migrate", "2,a2,busy\n30,a2,idle\n");
  ASSERT_EQ(r.size(), 5U);
  EXPECT_NEAR(r[0], 10.001, 1e-6);
  EXPECT_EQ(r[1], 1);
  EXPECT_EQ(r[2], 5e7);
  EXPECT_EQ(r[3], 0);
  EXPECT_EQ(r[4], 0);
}

TEST(GangNowRuntime, WaitingVpResumesOnItsHostWhenTheOwnerLeaves)
{
  // Baseline `wait`: the VP is suspended on a2 from 2 to 8, then does its 6e9 flops left at 2 Gflop/s: done at 11.
  auto r = evicted_run("wait", "2,a2,busy\n8,a2,idle\n");
  ASSERT_EQ(r.size(), 5U);
  EXPECT_NEAR(r[0], 11.0, 1e-6);
  EXPECT_EQ(r[1], 0);
  EXPECT_EQ(r[2], 0);
}

TEST(GangNowRuntime, RestartedVpLosesItsWork)
{
  // Baseline `restart`: at 2 the VP is killed (4 s of work on the slowest workstation lost) and starts again on a1
  // with no image to move: 10 s at 1 Gflop/s, done at 12.
  auto r = evicted_run("restart", "2,a2,busy\n30,a2,idle\n");
  ASSERT_EQ(r.size(), 5U);
  EXPECT_NEAR(r[0], 12.0, 1e-6);
  EXPECT_EQ(r[1], 0);
  EXPECT_EQ(r[3], 1);
  EXPECT_NEAR(r[4], 4.0, 1e-6);
}

TEST(GangNowRuntime, GraceTimeLetsTheGuestStay)
{
  // Grace 3 s: the owner of a2 is back from 2 to 4, less than the grace time: never seen, no migration; the VP ends
  // on a2 at 5.
  auto r = evicted_run("migrate", "2,a2,busy\n4,a2,idle\n", "3");
  ASSERT_EQ(r.size(), 5U);
  EXPECT_NEAR(r[0], 5.0, 1e-6);
  EXPECT_EQ(r[1], 0);
}

} // namespace

namespace {

/* Two jobs of 1 VP (10 s of work each) on one workstation: they get a slice each, which alternate every `quantum`
 * seconds; a VP that computes again after another slice first stalls `switch_cost` seconds. The expected end times
 * come from a direct walk through the turns (below), not from the simulator. */
TEST(GangNowRuntime, SlicesRotateWithTheQuantumAndTheContextSwitch)
{
  ScratchFolder scratch;
  scratch.write("one.xml", R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="w0" speed="1Gf"/>
    <host id="ctl" speed="1Gf"><prop id="role" value="master"/></host>
  </zone>
</platform>
)");
  auto scenario = scratch.write("s.yaml", R"(platform: one.xml
gang_now:
  policy: {quantum: 3, switch_cost: 0.5}
  workload: {jobs: 2, mean_interarrival: 2, min_vps: 1, max_vps: 1, min_work: 10, max_work: 10, image_mb: 1}
)");
  auto r = in_child([&] {
    GangNowReport g = run_gang_now(jobsched::testing::load_scenario_into(scenario, scratch.dir / "out"),
                                   jobsched::testing::quiet_options());
    return std::vector<double>{g.jobs.at(1).submit, g.jobs.at(0).finish, g.jobs.at(1).finish,
                               static_cast<double>(g.migrations)};
  });
  ASSERT_EQ(r.size(), 4U);
  const double t1 = r[0];
  ASSERT_GT(t1, 0);
  ASSERT_LT(t1, 7) << "the walk below assumes job 1 comes while job 0 has more than a quantum of work left";
  // Job 0 computes alone until t1; then slice 0 (job 0, already computing: no stall) runs until t1 + 3, slice 1
  // (job 1, its first start: no stall) until t1 + 6, and so on. When one job ends, its slice goes and the other
  // job computes again at once, after its context switch.
  const double q = 3;
  const double c = 0.5;
  double remaining[2] = {10 - t1, 10};
  bool computed_before[2] = {true, false}; // a VP computing when its turn starts, or never started: no stall
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
  EXPECT_NEAR(r[1], end[0], 1e-6);
  EXPECT_NEAR(r[2], end[1], 1e-6);
  EXPECT_EQ(r[3], 0);
}

} // namespace

namespace {

/* Two VPs evicted at once share the link: SimGrid gives each half of it. */
TEST(GangNowRuntime, EvictedVpsShareTheLinkTheirImagesCross)
{
  // a1 and a3 at 1 Gflop/s, a2 at 2 Gflop/s (a = {1, 2, 1}), all x86, one link of 25 MB/s and 1 ms. One job of 2 VPs
  // of 10 s (1e10 flops each), 50 MB each. Optimal MTAT: the first VP to a2 (1/2), the second ties at 1 between a2,
  // which already holds one, and a1, a3: a2 (doubled up, each VP at 1 Gflop/s). The owner of a2 comes back at 2:
  // each VP has 8e9 flops left; MTAT on {a1, a3} gives one each, and both images (1e8 bytes) cross the link together:
  // 0.001 + 1e8 / 2.5e7 = 4.001 s. Both resume at 6.001 and end at 14.001.
  ScratchFolder scratch;
  scratch.write("three.xml", R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="a1" speed="1Gf"/> <host id="a2" speed="2Gf"/> <host id="a3" speed="1Gf"/>
    <host id="ctl" speed="1Gf"><prop id="role" value="master"/></host>
    <link id="lan" bandwidth="25000000Bps" latency="1ms" sharing_policy="SHARED"/>
    <route src="a1" dst="a2"><link_ctn id="lan"/></route>
    <route src="a1" dst="a3"><link_ctn id="lan"/></route>
    <route src="a2" dst="a3"><link_ctn id="lan"/></route>
  </zone>
</platform>
)");
  scratch.write("owners.csv", "2,a2,busy\n");
  auto scenario = scratch.write("s.yaml", R"(platform: three.xml
gang_now:
  policy: {switch_cost: 0}
  owners: {model: trace, trace: owners.csv}
  workload: {jobs: 1, min_vps: 2, max_vps: 2, min_work: 10, max_work: 10, image_mb: 50}
)");
  auto r = in_child([&] {
    GangNowReport g = run_gang_now(jobsched::testing::load_scenario_into(scenario, scratch.dir / "out"),
                                   jobsched::testing::quiet_options());
    return std::vector<double>{g.jobs.at(0).finish, static_cast<double>(g.migrations), g.bytes_moved};
  });
  ASSERT_EQ(r.size(), 3U);
  EXPECT_NEAR(r[0], 14.001, 1e-6);
  EXPECT_EQ(r[1], 2);
  EXPECT_EQ(r[2], 1e8);
}

} // namespace
