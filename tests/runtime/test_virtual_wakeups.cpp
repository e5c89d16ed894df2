/* Virtual wake-ups (SchedulerActor::set_virtual_wakeups): a policy whose plans repeat (Plan::repeats, the
 * memory-constrained policy's quantum of pieces) has the instants between arrivals and departures replayed on the
 * scheduler's own clock instead of SimGrid's. Checked here: the clock formula against SimGrid 3.32 itself, completion
 * times and instant counts computed by hand, and whole runs giving exactly the same trace, finish times and counts on
 * the virtual clock as on SimGrid's (a platform file mentioning a profile turns virtual wake-ups off). Every
 * simulation runs in its own process. */
#include "run/simulation.hpp"
#include "runtime/core/scheduler_actor.hpp"
#include "support/child_process.hpp"
#include "support/four_node_machine.hpp"
#include "support/quiet_run.hpp"
#include "support/scratch_folder.hpp"
#include "support/test_engine.hpp"
#include "support/trace_checks.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>

using namespace jobsched;
using jobsched::testing::four_node_platform;
using jobsched::testing::in_child;
using jobsched::testing::swf_record;

namespace {

const char* const kEquiEpoch =
    "{name: memory-constrained, params: {policy: equi-epoch, quantum: 10, min_nodes: memory, node_memory_mb: 1}}";

/* One run: finish times in workload order, then decision instants, virtual instants and decisions, then each trace
 * segment's job, status, start, end and processors. */
std::vector<double> run(const jobsched::testing::ScratchFolder& f, const std::string& platform_xml,
                        const std::string& workload, const std::string& policy)
{
  f.write("p.xml", platform_xml);
  f.write("w.swf", workload);
  // Cycles off: each boundary is an instant of its own here (test_cycles.cpp advances them by whole cycles).
  auto file =
      f.write("s.yaml", "platform: p.xml\nworkload: {trace: w.swf, jobs: {shape: malleable}}\npolicy: " + policy +
                            "\nsimulation: {cycles: false}\n");
  return in_child([&] {
    RunReport r = jobsched::testing::run_quietly(file, f.dir / "out");
    std::vector<double> out;
    for (const auto& s : r.states)
      out.push_back(s.finish_time);
    out.push_back(static_cast<double>(r.performance.instants));
    out.push_back(static_cast<double>(r.performance.virtual_instants));
    out.push_back(static_cast<double>(r.performance.decisions));
    out.push_back(jobsched::testing::computing_overlaps(r.trace));
    for (const auto& t : r.trace) {
      out.push_back(static_cast<double>(t.job));
      out.push_back(static_cast<double>(static_cast<int>(t.status)));
      out.push_back(t.start);
      out.push_back(t.end);
      out.push_back(static_cast<double>(t.processors.word(0)));
    }
    return out;
  });
}

/* `body` run in a child process by an actor of four_node_platform() that waits on a receive nobody sends: each wait
 * on `activities` ends by its timeout, SimGrid's timer. Returns the `n` values `body` wrote in `result`. */
std::vector<double> waits_in_child(size_t n,
                                   const std::function<void(const std::vector<simgrid::s4u::ActivityPtr>& activities,
                                                            std::vector<double>& result)>& body)
{
  jobsched::testing::ScratchFolder f;
  auto file = f.write("p.xml", four_node_platform());
  return in_child([&] {
    auto engine = jobsched::testing::quiet_l07_engine(file.string());
    std::vector<double> result(n, 0);
    simgrid::s4u::Actor::create("waiter", engine->host_by_name("frontend"), [&result, &body] {
      int* message = nullptr;
      auto receive = simgrid::s4u::Mailbox::by_name("nobody-sends")->get_async<int>(&message);
      body({receive}, result);
      receive->cancel();
    });
    engine->run();
    return result;
  });
}

} // namespace

/* The clock a wait takes SimGrid to, as simgrid_clock_after_wait() says (a wait by SimGrid's timer, not a sleep action,
 * whose end the CPU model would compute with its own precision), and the timeouts timeout_landing_on() finds land
 * exactly on their target: an actor waits on a receive that never comes, 3,000 times with a timeout of every
 * magnitude below and above the clock (and thirds of a 10-s quantum, the policy's usual fractions), then 3,000 times
 * on a target as far as 100 times the clock ahead (a long virtual span), the clock kept below 1e9 s. */
TEST(VirtualWakeups, ClockFormulaIsSimGrids)
{
  auto got =
      waits_in_child(4, [](const std::vector<simgrid::s4u::ActivityPtr>& activities, std::vector<double>& result) {
        std::mt19937_64 random(7);
        std::uniform_real_distribution<double> unit(0, 1);
        // How far ahead: up to 100 times the clock (at least 1e-3 s), or up to 1e3 s once the clock is past 1e9 s.
        auto ahead = [&](double clock) {
          return clock < 1e9 ? std::max(clock, 1e-3) * std::pow(10.0, unit(random) * 6 - 4) : unit(random) * 1e3;
        };
        for (int i = 0; i < 3000; i++) {
          const double before = simgrid::s4u::Engine::get_clock();
          const double timeout = i % 5 == 0 ? (i % 9 + 1) * 10.0 / 3 : ahead(before);
          const double expected = simgrid_clock_after_wait(before, timeout);
          simgrid::s4u::Activity::wait_any_for(activities, timeout);
          const double after = simgrid::s4u::Engine::get_clock();
          result[0] += after != expected ? 1 : 0;
        }
        for (int i = 0; i < 3000; i++) {
          const double before = simgrid::s4u::Engine::get_clock();
          const double target = before + ahead(before);
          const double timeout = timeout_landing_on(before, target);
          if (timeout < 0) {
            result[1]++;
            continue;
          }
          simgrid::s4u::Activity::wait_any_for(activities, timeout);
          result[2] += simgrid::s4u::Engine::get_clock() != target ? 1 : 0;
        }
        result[3] = simgrid::s4u::Engine::get_clock();
      });
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0], 0) << "waits whose clock the formula does not give";
  EXPECT_EQ(got[1], 0) << "targets no timeout lands on";
  EXPECT_EQ(got[2], 0) << "landings that missed their target";
  EXPECT_GT(got[3], 1e5);
}

/* The rule of a virtual wake-up (virtual_wakeup_instant(), which the scheduler's loop applies at every instant), from
 * values worked out by hand: the wake-up must come strictly before the others (a deadline, a timer, a source's event:
 * on a tie SimGrid's wait takes them) and may reach the latest of the scheduler's own looks (the progress limit, the
 * poll for hosts: the instant serves them too); what a wait from SimGrid's clock cannot land on is not virtual. */
TEST(VirtualWakeups, RuleOfAVirtualWakeup)
{
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(virtual_wakeup_instant(100, 150, inf, inf, 100), 150.0);
  EXPECT_EQ(virtual_wakeup_instant(100, 150, 150, inf, 100), -1.0);
  EXPECT_EQ(virtual_wakeup_instant(100, 150, 150.0000001, inf, 100), 150.0);
  EXPECT_EQ(virtual_wakeup_instant(100, 150, inf, 150, 100), 150.0);
  EXPECT_EQ(virtual_wakeup_instant(100, 150, inf, 149.999, 100), -1.0);
  EXPECT_EQ(virtual_wakeup_instant(100, inf, inf, inf, 100), -1.0); // no wake-up
  // From SimGrid's clock at 0 (a virtual spell since) a wait lands on 2^53 + 2; from 1 s, no wait does (units in the
  // last place of 2 there: the date 1 + timeout rounds past it either way).
  EXPECT_EQ(virtual_wakeup_instant(100, 150, inf, inf, 0), 150.0);
  EXPECT_EQ(virtual_wakeup_instant(0, 9007199254740994.0, inf, inf, 0), 9007199254740994.0);
  EXPECT_EQ(virtual_wakeup_instant(0, 9007199254740994.0, inf, inf, 1), -1.0);
  // The progress limit's look: 30 days after the last computing instant (50 here), kTimeEpsilon later.
  EXPECT_EQ(progress_limit_wakeup(false, 0, 100, 50, SchedulerActor::kMaxWithoutProgress), 2592050 + kTimeEpsilon);
  EXPECT_EQ(progress_limit_wakeup(true, 20, 100, 50, SchedulerActor::kMaxWithoutProgress), 2592020 + kTimeEpsilon);
  EXPECT_EQ(progress_limit_wakeup(true, 80, 100, 50, SchedulerActor::kMaxWithoutProgress), 2592050 + kTimeEpsilon);
}

/* What a replay of cycles asks at every boundary (NextVirtualInstant): the rule above with what a replay knows, and
 * only instants where the loop would decide and nothing else happen. From values worked out by hand: a wake-up within
 * kTimeEpsilon of the decision is none; another event due at the wake-up refuses it, and one within kTimeEpsilon after
 * it too (the loop reaches that instant virtually, but gathers the event there); the progress limit counts from the
 * decision (jobs compute), and the loop reaches a wake-up on it (2,592,100 = 100 + 30 days: a replay refused it before
 * the rule was stated once); with jobs requeued since the last job's end, the run stops 30 days after that end, which
 * the rule reaches but a replay refuses. Then the instant given is where SimGrid's clock goes when the scheduler waits
 * for the wake-up for real (3,000 waits from SimGrid's own clock, wake-ups from a microsecond to 100 times the clock
 * (at most 1e6 s) ahead, nothing else due). */
TEST(VirtualWakeups, NextVirtualInstantIsWhereTheLoopGoes)
{
  const double inf = std::numeric_limits<double>::infinity();
  NextVirtualInstant rule;
  rule.max_without_progress = SchedulerActor::kMaxWithoutProgress;
  rule.simgrid_clock = 100;
  EXPECT_EQ(rule(100, 100.0000005), -1.0);
  EXPECT_EQ(rule(100, 100.000002), 100.000002);
  rule.others = 200;
  EXPECT_EQ(rule(100, 200), -1.0);
  EXPECT_EQ(virtual_wakeup_instant(100, 199.9999995, 200, inf, 100), 199.9999995); // the loop goes there...
  EXPECT_EQ(rule(100, 199.9999995), -1.0); // ...and gathers the event 0.5 us after the wake-up with it
  EXPECT_EQ(rule(100, 199.999998), 199.999998);
  rule.others = inf;
  EXPECT_EQ(rule(100, 2592099), 2592099.0);
  EXPECT_EQ(rule(100, 2592100), 2592100.0);
  EXPECT_EQ(rule(100, 2592100.000002), -1.0); // past the limit's look: the loop wakes there first
  rule.requeued = true;
  rule.last_end = 50;
  const double latest = progress_limit_wakeup(true, 50, 100, 100, SchedulerActor::kMaxWithoutProgress);
  EXPECT_EQ(virtual_wakeup_instant(100, 2592050, inf, latest, 100), 2592050.0); // the loop goes there and stops
  EXPECT_EQ(rule(100, 2592050), -1.0);
  EXPECT_EQ(rule(100, 2592049), 2592049.0);
  EXPECT_TRUE(evicted_too_long(true, 50, 2592050, SchedulerActor::kMaxWithoutProgress));
  EXPECT_FALSE(evicted_too_long(true, 50, 2592049, SchedulerActor::kMaxWithoutProgress));
  EXPECT_FALSE(evicted_too_long(false, 50, 2592050, SchedulerActor::kMaxWithoutProgress));

  auto got =
      waits_in_child(3, [](const std::vector<simgrid::s4u::ActivityPtr>& activities, std::vector<double>& result) {
        std::mt19937_64 random(11);
        std::uniform_real_distribution<double> unit(0, 1);
        NextVirtualInstant rule;
        rule.max_without_progress = SchedulerActor::kMaxWithoutProgress;
        for (int i = 0; i < 3000; i++) {
          const double clock = simgrid::s4u::Engine::get_clock();
          rule.simgrid_clock = clock;
          // (At most 1e6 s ahead: below the progress limit.)
          const double until =
              clock + std::min(1e6, std::max(clock, 1e-3) * std::pow(10.0, unit(random) * 6 - 4)) + 1e-6;
          const double next = rule(clock, until);
          simgrid::s4u::Activity::wait_any_for(activities, std::max(0.0, until - clock)); // the loop's wait
          if (next < 0)
            result[0]++;
          else
            result[1] += simgrid::s4u::Engine::get_clock() != next ? 1 : 0;
        }
        result[2] = simgrid::s4u::Engine::get_clock();
      });
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0], 0) << "wake-ups refused with nothing else due";
  EXPECT_EQ(got[1], 0) << "instants that are not where SimGrid's clock went";
  EXPECT_GT(got[2], 1e5);
}

/* EQUI-EPOCH, three jobs of 40 processor-seconds at time 0 on N = 4 (M = 2, 1, 1; see test_memory_constrained_runtime
 * .cpp): epoch 1 holds jobs 2 and 3 (2 nodes each) for 2/3 of the 10-s quantum, epoch 2 job 1 (4 nodes) for 1/3. Jobs
 * 2 and 3 end at 80/3, job 1 at 30. Decision instants: 0 (the arrivals), the piece boundaries 20/3, 10, 50/3 and 20,
 * 80/3 (jobs 2 and 3 end: job 1 alone, whole-quantum pieces, no more wake-ups), 30 (job 1 ends): 7. Virtual: the 4
 * boundaries before 80/3, where nothing else can happen, and 80/3 itself: the policy's wake-up, 0 + (2 + 2/3) x 10,
 * comes first there, and the jobs' timers (80/3 exactly in real arithmetic, a few units in the last place later in
 * floating point) end within the runtime's tolerance (kTimeEpsilon) of it, collected at that instant as SimGrid's
 * wake-up would. */
TEST(VirtualWakeups, EquiEpochBoundariesAreVirtual)
{
  jobsched::testing::ScratchFolder f;
  auto got =
      run(f, four_node_platform(),
          swf_record(1, 0, 10, 4, 512) + swf_record(2, 0, 10, 4, 256) + swf_record(3, 0, 10, 4, 256), kEquiEpoch);
  ASSERT_GT(got.size(), 7u);
  EXPECT_NEAR(got[0], 30, 1e-9);
  EXPECT_NEAR(got[1], 80.0 / 3, 1e-9);
  EXPECT_NEAR(got[2], 80.0 / 3, 1e-9);
  EXPECT_EQ(got[3], 7) << "decision instants";
  EXPECT_EQ(got[4], 5) << "virtual instants";
  EXPECT_EQ(got[6], 0) << "two jobs computed on one processor at once";
}

/* Arrivals inside a quantum and at a piece boundary, departures inside and at boundaries, five jobs: the same run on
 * the virtual clock and on SimGrid's (the same platform, whose file mentions a profile in a property, which turns
 * virtual wake-ups off) gives exactly the same finish times, trace segments (times compared as doubles, not printed)
 * and counts, and most instants are virtual. */
TEST(VirtualWakeups, SameRunOnTheVirtualClockAsOnSimGrids)
{
  const std::string workload = swf_record(1, 0, 37, 4, 512) + swf_record(2, 0, 11, 4, 256) +
                               swf_record(3, 3.7, 23, 2, 256) + swf_record(4, 20.0 / 3, 5, 1, 256) +
                               swf_record(5, 41.3, 17, 4, 768);
  jobsched::testing::ScratchFolder virtual_folder;
  auto on_virtual = run(virtual_folder, four_node_platform(), workload, kEquiEpoch);
  jobsched::testing::ScratchFolder simgrid_folder;
  auto on_simgrid =
      run(simgrid_folder, four_node_platform(R"(<prop id="note" value="no profile here"/>)"), workload, kEquiEpoch);
  ASSERT_GT(on_virtual.size(), 9u);
  ASSERT_EQ(on_virtual.size(), on_simgrid.size());
  EXPECT_EQ(on_simgrid[5 + 1], 0) << "virtual instants with a platform that may have profiles";
  EXPECT_GT(on_virtual[5 + 1], on_virtual[5] / 2) << "virtual instants out of " << on_virtual[5];
  for (size_t i = 0; i < on_virtual.size(); i++) {
    if (i == 5 + 1) continue; // virtual instants
    EXPECT_EQ(on_virtual[i], on_simgrid[i]) << "value " << i;
  }
  EXPECT_EQ(on_virtual[5 + 3], 0) << "two jobs computed on one processor at once";
}
