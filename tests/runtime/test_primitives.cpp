/* The runtime primitives on SimGrid with exact completion times, computed by hand from the platform's figures:
 * hosts of 1 Gflop/s, one link of 100 MB/s with no latency. Jobs of run time R do R x 1e9 flops per process. */
#include "core/errors.hpp"
#include "runtime/execution/job_runtime.hpp"
#include "support/child_process.hpp"
#include "support/test_engine.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace jobsched;
using jobsched::testing::in_child;
namespace fs = std::filesystem;

namespace {

/* a1, a2 on one side, b1, b2 on the other; every a-b route crosses the one shared link `wire` (100 MB/s, shared
 * by both directions). */
const char* const kPlatform = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="a1" speed="1Gf"/> <host id="a2" speed="1Gf"/> <host id="b1" speed="1Gf"/> <host id="b2" speed="1Gf"/>
    <host id="ctl" speed="1Gf"/>
    <link id="wire" bandwidth="100MBps" latency="0" sharing_policy="SHARED"/>
    <route src="a1" dst="b1"><link_ctn id="wire"/></route>
    <route src="a2" dst="b2"><link_ctn id="wire"/></route>
    <route src="a1" dst="b2"><link_ctn id="wire"/></route>
    <route src="a2" dst="b1"><link_ctn id="wire"/></route>
  </zone>
</platform>
)";

/* kPlatform with b1 and b2 at half the speed of a1 and a2 (and of the reference speed, 1 Gflop/s). */
std::string mixed_speed_platform()
{
  std::string text = kPlatform;
  const std::string one_speed = R"(<host id="b1" speed="1Gf"/> <host id="b2" speed="1Gf"/>)";
  return text.replace(text.find(one_speed), one_speed.size(),
                      R"(<host id="b1" speed="0.5Gf"/> <host id="b2" speed="0.5Gf"/>)");
}

WorkloadJob make_job(JobId id, int size, double run_time)
{
  WorkloadJob j;
  j.id = id;
  j.size = size;
  j.run_time = run_time;
  j.estimate = run_time;
  return j;
}

/* Builds an engine on kPlatform and runs `script` in an actor on host ctl, with a JobRuntime over a1, a2, b1, b2
 * (processors 0..3 in that order). The script returns the numbers to check. */
std::vector<double> simulate(CommSpec comm, std::function<std::vector<double>(JobRuntime&)> script,
                             ExecutionMode mode = ExecutionMode::automatic, const char* platform = kPlatform)
{
  return in_child([&] {
    fs::path dir = fs::temp_directory_path() / ("jobsched-rt-" + std::to_string(getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "p.xml") << platform;
    auto engine_holder = jobsched::testing::quiet_l07_engine((dir / "p.xml").string());
    sg4::Engine& engine = *engine_holder;
    std::vector<sg4::Host*> hosts;
    Machine machine;
    for (const char* name : {"a1", "a2", "b1", "b2"}) {
      hosts.push_back(engine.host_by_name(name));
      machine.add_host(name, 1, 1e9);
    }
    std::vector<double> result;
    sg4::Actor::create("script", engine.host_by_name("ctl"), [&] {
      JobRuntime runtime(machine, hosts, 1e9, comm, {}, {}, mode);
      result = script(runtime);
    });
    engine.run();
    fs::remove_all(dir);
    return result;
  });
}

/* The same script on either execution path: ptasks, or timers (the fast path, used when jobs do not communicate). */
std::vector<double> simulate_on(ExecutionMode mode, std::function<std::vector<double>(JobRuntime&)> script)
{
  return simulate({}, std::move(script), mode);
}

class BothPaths : public ::testing::TestWithParam<ExecutionMode> {};
INSTANTIATE_TEST_SUITE_P(Runtime, BothPaths, ::testing::Values(ExecutionMode::ptask, ExecutionMode::timer),
                         [](const auto& info) { return info.param == ExecutionMode::ptask ? "ptask" : "timer"; });

ResourceSet procs(std::initializer_list<int> members)
{
  ResourceSet r(4);
  for (int m : members)
    r.set(m);
  return r;
}

/* Wait until every job has ended; return the end time of each, in the order they ended. */
std::vector<double> wait_all(JobRuntime& rt)
{
  std::vector<double> ends;
  while (rt.size() > 0) {
    auto activities = rt.activities();
    double next = rt.next_timer();
    double now = sg4::Engine::get_clock();
    if (activities.empty())
      sg4::this_actor::sleep_until(next);
    else
      sg4::Activity::wait_any_for(activities, std::isinf(next) ? -1.0 : next - now);
    for (const auto& [id, fate] : rt.collect_ended()) {
      ends.push_back(static_cast<double>(id));
      ends.push_back(sg4::Engine::get_clock());
    }
  }
  return ends;
}

TEST_P(BothPaths, RigidJobLastsItsRunTime)
{
  WorkloadJob j = make_job(1, 2, 10);
  auto r = simulate_on(GetParam(), [&](JobRuntime& rt) {
    rt.start(j, procs({0, 1}));
    return wait_all(rt);
  });
  ASSERT_EQ(r.size(), 2U);
  EXPECT_NEAR(r[1], 10.0, 1e-9);
}

TEST_P(BothPaths, SuspendResumeShiftsTheEndByTheSuspendedTime)
{
  // 10 s of work; suspended from t=3 to t=8: ends at 15.
  WorkloadJob j = make_job(1, 2, 10);
  auto r = simulate_on(GetParam(), [&](JobRuntime& rt) {
    rt.start(j, procs({0, 1}));
    sg4::this_actor::sleep_until(3);
    rt.suspend(1);
    sg4::this_actor::sleep_until(8);
    double left = rt.remaining_fraction(1);
    rt.resume(1);
    auto ends = wait_all(rt);
    ends.push_back(left);
    return ends;
  });
  ASSERT_EQ(r.size(), 3U);
  EXPECT_NEAR(r[1], 15.0, 1e-6);
  EXPECT_NEAR(r[2], 0.7, 1e-9); // 7 of 10 s left while suspended
}

TEST_P(BothPaths, ResizeSharesTheRemainingWork)
{
  // 2 processes x 10 s. At t=4, 60% is left: 2 x 6e9 flops = 12e9 on 4 processors = 3 s: ends at 7.
  WorkloadJob j = make_job(1, 2, 10);
  auto r = simulate_on(GetParam(), [&](JobRuntime& rt) {
    rt.start(j, procs({0, 1}));
    sg4::this_actor::sleep_until(4);
    rt.resize(1, procs({0, 1, 2, 3}));
    return wait_all(rt);
  });
  ASSERT_EQ(r.size(), 2U);
  EXPECT_NEAR(r[1], 7.0, 1e-6);
}

TEST_P(BothPaths, MigrationPaysTheImageTransfer)
{
  // 1 process, 10 s, on a1. At t=2 it moves to b1 with a 100 MB image over the 100 MB/s wire: 1 s of transfer,
  // then the 8 s left: ends at 11.
  WorkloadJob j = make_job(1, 1, 10);
  auto r = simulate_on(GetParam(), [&](JobRuntime& rt) {
    rt.start(j, procs({0}));
    sg4::this_actor::sleep_until(2);
    rt.migrate(1, procs({2}), 1e8);
    return wait_all(rt);
  });
  ASSERT_EQ(r.size(), 2U);
  EXPECT_NEAR(r[1], 11.0, 1e-6);
}

TEST_P(BothPaths, MigrationOfAnImageBelowOneByteStillMovesIt)
{
  // The same move with an image of 0.4 byte: it crosses the wire as one whole byte (1e-8 s), not as a message of 0
  // bytes, which SimGrid's L07 model never completes (the job then never computed again). Ends at 2 + 1e-8 + 8.
  WorkloadJob j = make_job(1, 1, 10);
  auto r = simulate_on(GetParam(), [&](JobRuntime& rt) {
    rt.start(j, procs({0}));
    sg4::this_actor::sleep_until(2);
    rt.migrate(1, procs({2}), 0.4);
    return wait_all(rt);
  });
  ASSERT_EQ(r.size(), 2U);
  EXPECT_NEAR(r[1], 10.0 + 1e-8, 1e-9);
}

TEST(Runtime, TwoJobsContendForOneLink)
{
  // Ring of 2 processes across the wire, 1 s of compute each, 0.5 byte/flop: each direction carries 5e8 bytes, 1e9
  // in all on the shared wire: 10 s alone (L07: the slowest resource sets the pace). Two such jobs share the wire:
  // 20 s each.
  CommSpec ring{CommPattern::ring, 0.5};
  WorkloadJob x = make_job(1, 2, 1);
  WorkloadJob y = make_job(2, 2, 1);
  auto alone = simulate(ring, [&](JobRuntime& rt) {
    rt.start(x, procs({0, 2}));
    return wait_all(rt);
  });
  auto both = simulate(ring, [&](JobRuntime& rt) {
    rt.start(x, procs({0, 2}));
    rt.start(y, procs({1, 3}));
    return wait_all(rt);
  });
  ASSERT_EQ(alone.size(), 2U);
  EXPECT_NEAR(alone[1], 10.0, 1e-6);
  ASSERT_EQ(both.size(), 4U);
  EXPECT_NEAR(both[1], 20.0, 1e-6);
  EXPECT_NEAR(both[3], 20.0, 1e-6);
}

TEST_P(BothPaths, KillStopsTheJobAndFreesItsProcessors)
{
  WorkloadJob j = make_job(1, 2, 10);
  WorkloadJob k = make_job(2, 2, 4);
  auto r = simulate_on(GetParam(), [&](JobRuntime& rt) {
    rt.start(j, procs({0, 1}));
    sg4::this_actor::sleep_until(5);
    rt.kill(1);
    std::vector<double> out{static_cast<double>(rt.size())};
    rt.start(k, procs({0, 1}));
    auto ends = wait_all(rt);
    out.insert(out.end(), ends.begin(), ends.end());
    return out;
  });
  ASSERT_EQ(r.size(), 3U);
  EXPECT_EQ(r[0], 0.0);
  EXPECT_NEAR(r[2], 9.0, 1e-6); // k runs [5, 9) on the freed processors
}

/* A job of two phases, Cao et al.'s model: 1 s of span at parallelism 4 (4 processor-seconds), then 2 s at
 * parallelism 1 (2 processor-seconds). */
WorkloadJob two_phase_job(JobId id)
{
  WorkloadJob j = make_job(id, 2, 4);
  j.shape = JobShape::malleable;
  j.max_size = 4;
  j.profile.span = {1, 2};
  j.profile.parallelism = {4, 1};
  return j;
}

// On 2 whole processors: phase 1 at min(2, 4) = 2 work per second, 4 / 2 = 2 s (span at 2 / 4 = 0.5 per second);
// phase 2 at min(2, 1) = 1, its 2 s of span in 2 s: ends at 4. At t = 1 it reports 2 of work done and 0.5 of span.
TEST(Runtime, PhaseBoundaryRetimesTheJob)
{
  WorkloadJob j = two_phase_job(1);
  auto r = simulate_on(ExecutionMode::timer, [&](JobRuntime& rt) {
    rt.start(j, procs({0, 1}));
    sg4::this_actor::sleep_until(1);
    rt.measure_progress();
    const JobState& s = rt.table().at(1);
    std::vector<double> out{s.work_done, s.span_done};
    for (double v : wait_all(rt))
      out.push_back(v);
    out.push_back(rt.table().at(1).work_done);
    out.push_back(rt.table().at(1).span_done);
    return out;
  });
  ASSERT_EQ(r.size(), 6U);
  EXPECT_NEAR(r[0], 2, 1e-9);
  EXPECT_NEAR(r[1], 0.5, 1e-9);
  EXPECT_NEAR(r[3], 4, 1e-9);
  EXPECT_NEAR(r[4], 6, 1e-9); // all its work, and all its span, once finished
  EXPECT_NEAR(r[5], 3, 1e-9);
}

// A fractional share of 1.5 processors on the same two: phase 1 at 1.5, 4 / 1.5 = 8/3 s; phase 2 at min(1.5, 1) = 1,
// 2 s: ends at 14/3. Its running segment held 1.5 x 14/3 = 7 processor-seconds, not 2 x 14/3.
TEST(Runtime, FractionalShareSetsTheRate)
{
  WorkloadJob j = two_phase_job(1);
  auto r = simulate_on(ExecutionMode::timer, [&](JobRuntime& rt) {
    double area = 0;
    rt.set_trace_sink([&area](const TraceSegment& s) {
      if (s.status == JobStatus::running) area += s.area;
    });
    Preparation prep;
    prep.share = 1.5;
    rt.start(j, procs({0, 1}), prep);
    std::vector<double> out = wait_all(rt);
    out.push_back(area);
    return out;
  });
  ASSERT_EQ(r.size(), 3U);
  EXPECT_NEAR(r[1], 14.0 / 3, 1e-9);
  EXPECT_NEAR(r[2], 7, 1e-9);
}

// A computing job moved to other processors with a new share and no stall (reallot()'s direct path, Cao's layouts):
// on {0, 1} at 1.5 until 1 (phase 1 at 1.5 work and 0.375 span a second: 1.5 and 0.375 done), on {1, 2} at 2 until 2
// (0.5 span a second: 3.5 and 0.875), on {2, 3} at 1: the last 0.125 of phase 1's span at 0.25 a second until 2.5,
// phase 2's 2 s of span at min(1, 1) = 1 a second: ends at 4.5. One running segment per placement, each holding its
// share's processor-seconds (1.5, 2, 1 x 2.5), two resizes, 4.5 s of service. The first move comes after the
// progress was measured at that instant (as the driver does before a plan), the second without.
TEST(Runtime, AComputingJobMovedWithoutStallClosesOneSegmentPerPlacement)
{
  WorkloadJob j = two_phase_job(1);
  auto r = simulate_on(ExecutionMode::timer, [&](JobRuntime& rt) {
    std::vector<double> out;
    rt.set_trace_sink([&out](const TraceSegment& s) {
      out.insert(out.end(), {s.start, s.end, static_cast<double>(s.status == JobStatus::running),
                             static_cast<double>(s.processors.members().front()),
                             static_cast<double>(s.processors.count()), s.area});
    });
    Preparation prep;
    prep.share = 1.5;
    rt.start(j, procs({0, 1}), prep);
    sg4::this_actor::sleep_until(1);
    rt.collect_ended();
    rt.measure_progress();
    rt.reallot(1, procs({1, 2}), 2, 0);
    sg4::this_actor::sleep_until(2);
    rt.collect_ended();
    rt.reallot(1, procs({2, 3}), 1, 0);
    const JobState& s = rt.table().at(1);
    out.insert(out.end(), {s.work_done, s.span_done});
    for (double v : wait_all(rt))
      out.push_back(v);
    const JobState& done = rt.table().at(1);
    out.insert(out.end(), {static_cast<double>(done.counters.resizes), done.service, done.work_done, done.span_done});
    return out;
  });
  const std::vector<double> expected{0,   1,     1, 0, 2, 1.5, // start, end, running, first processor, count, area
                                     1,   2,     1, 1, 2, 2,   //
                                     3.5, 0.875,               // work and span done at 2
                                     2,   4.5,   1, 2, 2, 2.5, // (closed as the job ends)
                                     1,   4.5,                 // job 1 ends at 4.5
                                     2,   4.5,   6, 3};        // resizes, service, all its work and span
  ASSERT_EQ(r.size(), expected.size());
  for (size_t i = 0; i < expected.size(); i++)
    EXPECT_NEAR(r[i], expected[i], 1e-9) << "value " << i;
}

// A job moved between hosts of different speeds computes at its new hosts' speed (a move keeps the speed it knew only
// where every host runs at one speed). Two processors' share (2) of the two-phase job, phase 1 at 2 / 4 of the hosts'
// speed in span a second, phase 2 at min(2, 1) / 1: from the fast a1, a2 to the half-speed b1, b2 at 1 (0.5 of
// phase 1's span done, the other 0.5 at 0.25 a second until 3, phase 2's 2 at 0.5 until 7); the other way (0.25 done
// at 1, 0.75 at 0.5 until 2.5, phase 2 at 1 until 4.5).
TEST(Runtime, AJobMovedToSlowerOrFasterHostsTakesTheirSpeed)
{
  for (const bool to_slower : {true, false}) {
    WorkloadJob j = two_phase_job(1);
    auto r = simulate(
        {},
        [&](JobRuntime& rt) {
          Preparation prep;
          prep.share = 2;
          rt.start(j, to_slower ? procs({0, 1}) : procs({2, 3}), prep);
          sg4::this_actor::sleep_until(1);
          rt.collect_ended();
          rt.measure_progress();
          rt.reallot(1, to_slower ? procs({2, 3}) : procs({0, 1}), 2, 0);
          return wait_all(rt);
        },
        ExecutionMode::timer, mixed_speed_platform().c_str());
    ASSERT_EQ(r.size(), 2U);
    EXPECT_NEAR(r[1], to_slower ? 7 : 4.5, 1e-9) << (to_slower ? "to slower hosts" : "to faster hosts");
  }
}

// Phase-varying jobs execute on timers only: on the ptask path the start is one line naming the job.
TEST(Runtime, PhasedJobOnPtasksIsAnInputError)
{
  WorkloadJob j = two_phase_job(7);
  auto r = simulate_on(ExecutionMode::ptask, [&](JobRuntime& rt) {
    try {
      rt.start(j, procs({0, 1}));
    } catch (const InputError& e) {
      return std::vector<double>{
          std::string(e.what()).find("job 7 has a parallelism profile") != std::string::npos ? 1.0 : 0.0};
    }
    return std::vector<double>{-1};
  });
  ASSERT_EQ(r.size(), 1U);
  EXPECT_EQ(r[0], 1.0);
}

// A reallocation stall: one phase of 4 s of span at parallelism 4 (16 processor-seconds). On 2 processors until 1
// (2 done), then given all 4 with a stall of 0.5 s: computes again at 1.5, 14 / 4 = 3.5 s: ends at 5. A second
// allotment at 1.25 with 0.5 s more stall adds to the 0.25 s left: computes again at 2, ends at 5.5; it stalled
// 0.25 + 0.75 = 1 s in all.
TEST(Runtime, ReallocationStallDelaysTheJob)
{
  for (bool again : {false, true}) {
    WorkloadJob j = make_job(1, 4, 4);
    j.shape = JobShape::malleable;
    j.max_size = 4;
    j.profile.span = {4};
    j.profile.parallelism = {4};
    auto r = simulate_on(ExecutionMode::timer, [&](JobRuntime& rt) {
      rt.start(j, procs({0, 1}));
      sg4::this_actor::sleep_until(1);
      rt.collect_ended();
      rt.reallot(1, procs({0, 1, 2, 3}), -1, 0.5);
      if (again) {
        sg4::this_actor::sleep_until(1.25);
        rt.collect_ended();
        rt.reallot(1, procs({0, 1, 2, 3}), -1, 0.5);
      }
      std::vector<double> out = wait_all(rt);
      out.push_back(rt.table().at(1).counters.switching_time);
      return out;
    });
    ASSERT_EQ(r.size(), 3U);
    EXPECT_NEAR(r[1], again ? 5.5 : 5, 1e-9);
    EXPECT_NEAR(r[2], again ? 1 : 0.5, 1e-9);
  }
}

} // namespace
