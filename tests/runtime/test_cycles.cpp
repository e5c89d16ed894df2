/* Repeating schedules advanced by whole cycles (Plan::cycle, SchedulerActor::set_cycles, JobRuntime::cycle_step): a
 * whole run whose completion times, counts and aggregated trace rows were computed by hand, and the runtime's replay
 * of random cycles against the same cycles stepped boundary by boundary with suspend(), resume() and resize(): the
 * same bits. Every simulation runs in its own process. */
#include "core/errors.hpp"
#include "policy/policy.hpp"
#include "policy/time_sharing.hpp"
#include "run/simulation.hpp"
#include "runtime/core/scheduler_actor.hpp"
#include "runtime/execution/job_runtime.hpp"
#include "support/child_process.hpp"
#include "support/four_node_machine.hpp"
#include "support/quiet_run.hpp"
#include "support/scratch_folder.hpp"
#include "support/test_engine.hpp"
#include "support/trace_checks.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <unistd.h>

using namespace jobsched;
using jobsched::testing::four_node_platform;
using jobsched::testing::in_child;
using jobsched::testing::swf_record;

/* EQUI-EPOCH, quantum 10 s, on N = 4 nodes of 1 MB: job 1 (M = 2, 400 processor-seconds: 100 s on 4), jobs 2 and 3
 * (M = 1, 390 each: 97.5 s on 4), all at time 0, linear speedup. Epoch 1 holds jobs 2 and 3 (2 nodes each) for the
 * first 2/3 of each quantum, epoch 2 job 1 (4 nodes) for the last 1/3: each job gets 40/3 processor-seconds a quantum.
 *   jobs 2 and 3: after 29 quanta 386.67 done, their last 3.33 at rate 2 take 5/3 s: they end at 290 + 5/3 = 875/3;
 *   job 1: 386.67 done by then (it waits in quantum 29's first epoch), alone on 4 nodes its last 13.33 take 10/3 s:
 *          it ends at 875/3 + 10/3 = 295.
 * Stepped, the decision instants are 0 (arrivals), every piece boundary 20/3, 10, 50/3, ..., 290 (58 of them), 875/3
 * and 295: 61. Cycles: job 1 starts at 20/3, from where every job has started; the advance after the decision at 0
 * replays that boundary (job 1's first start, as decided there), then whole cycles from it: each cycle runs from a
 * quantum's 2/3 to the next one's (boundaries at 10q and 10q + 20/3), and the cycle from 286.67 would see jobs 2 and
 * 3 end inside it: 28 cycles (20/3 to 286.67) of 2 instants each are advanced, then that cycle's boundary 290 (its
 * next, 296.67, comes after jobs 2 and 3 end): 58 instants replayed, 3 decided (0, 875/3, 295). The
 * trace: each job's first row of the first cycle (20/3 to 50/3) as it is (it began before the advance), its other rows
 * with period 10 and 28 repeats, its first row of the second cycle (from its last change of the first) with 27: 18
 * rows where stepping writes 177. segments.csv: job 1's aggregated row [50/3, 20) is ready at 10 (its
 * stretch 295 / 100), and its row after the advance at the end of that row's last repetition, 20 + 26 x 10 = 280. */
TEST(Cycles, EquiEpochAdvancedByHand)
{
  jobsched::testing::ScratchFolder f;
  f.write("p.xml", four_node_platform());
  f.write("w.swf", swf_record(1, 0, 100, 4, 512) + swf_record(2, 0, 97.5, 4, 256) + swf_record(3, 0, 97.5, 4, 256));
  const std::string scenario =
      "platform: p.xml\nworkload: {trace: w.swf, jobs: {shape: malleable}}\npolicy: {name: memory-constrained, params: "
      "{policy: equi-epoch, quantum: 10, min_nodes: memory, node_memory_mb: 1}}\n";
  auto file = f.write("s.yaml", scenario);
  auto stepped_file = f.write("stepped.yaml", scenario + "simulation: {cycles: false}\n");
  auto run = [&](const std::filesystem::path& scenario_file, const std::string& out) {
    return in_child([&] {
      RunReport r = jobsched::testing::run_quietly(scenario_file, f.dir / out);
      std::vector<double> v;
      for (const auto& s : r.states)
        v.push_back(s.finish_time);
      v.push_back(static_cast<double>(r.performance.instants));
      v.push_back(static_cast<double>(r.performance.cycles));
      v.push_back(static_cast<double>(r.performance.cycle_instants));
      v.push_back(jobsched::testing::computing_overlaps(r.trace)); // the trace kept in memory is expanded
      double work = 0;
      for (const auto& t : r.trace)
        if (t.status == JobStatus::running) work += t.processors.count() * (t.end - t.start);
      v.push_back(work);
      return v;
    });
  };
  auto got = run(file, "out");
  auto stepped = run(stepped_file, "stepped");
  ASSERT_EQ(got.size(), 8u);
  ASSERT_EQ(stepped.size(), 8u);
  EXPECT_NEAR(got[0], 295, 1e-9);
  EXPECT_NEAR(got[1], 875.0 / 3, 1e-9);
  EXPECT_NEAR(got[2], 875.0 / 3, 1e-9);
  EXPECT_EQ(got[3], 3) << "decision instants";
  EXPECT_EQ(got[4], 28) << "cycles";
  EXPECT_EQ(got[5], 58) << "instants replayed: job 1's start, the cycles and the boundary after them";
  EXPECT_EQ(got[6], 0) << "two jobs computed on one processor at once";
  EXPECT_NEAR(got[7], 400 + 390 + 390, 1e-6) << "processor-seconds of computing";
  // Stepped: the same finish times to the bit, every instant decided.
  for (size_t i = 0; i < 3; i++)
    EXPECT_EQ(got[i], stepped[i]) << "job " << i + 1;
  EXPECT_EQ(stepped[3], 61);
  EXPECT_EQ(stepped[4], 0);
  EXPECT_NEAR(stepped[7], got[7], 1e-9);

  std::ifstream trace(f.dir / "out" / "trace.csv");
  std::stringstream text;
  text << trace.rdbuf();
  const std::string csv = text.str();
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "job_id,start,end,processors,state,period,repeats");
  for (const char* row :
       {"\n2,0,6.666667,0-1,running,,\n", "\n1,6.666667,10,0-3,running,,\n", "\n2,6.666667,10,0-1,suspended,,\n",
        "\n1,10,16.666667,0-3,suspended,10,28\n", "\n2,10,16.666667,0-1,running,10,28\n",
        "\n3,10,16.666667,2-3,running,10,28\n", "\n1,16.666667,20,0-3,running,10,27\n",
        "\n2,16.666667,20,0-1,suspended,10,27\n", "\n3,16.666667,20,2-3,suspended,10,27\n",
        "\n1,286.666667,290,0-3,running,,\n", "\n1,291.666667,295,0-3,running,,\n"})
    EXPECT_NE(csv.find(row), std::string::npos) << "no row " << row;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 19) << csv;
  std::ifstream segments(f.dir / "out" / "segments.csv");
  std::stringstream segments_text;
  segments_text << segments.rdbuf();
  const std::string rows = segments_text.str();
  EXPECT_NE(
      rows.find("\n1,w.swf,malleable,10,4,100,1,COMPLETED_SUCCESSFULLY,16.666667,3.333333,20,6.666667,10,2.95,0-3,-1,"
                "repeats=27;period=10\n"),
      std::string::npos)
      << rows;
  EXPECT_NE(rows.find("\n1,w.swf,malleable,280,4,100,1,COMPLETED_SUCCESSFULLY,286.666667,"), std::string::npos) << rows;
}

namespace {

/* Eight 1-Gflop/s hosts p0..p7 and a front end. */
std::string eight_host_platform()
{
  std::string hosts;
  for (int i = 0; i < 8; i++)
    hosts += "<host id=\"p" + std::to_string(i) + "\" speed=\"1Gf\"/>";
  return R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1"><zone id="z" routing="Full">)" +
         hosts + R"(<host id="ctl" speed="1Gf"/></zone></platform>
)";
}

/* An engine on eight_host_platform()'s `file` (in a child process: one engine per process), its hosts p0..p7 and the
 * machine they make. */
struct EightHosts {
  std::unique_ptr<sg4::Engine> engine;
  std::vector<sg4::Host*> hosts;
  Machine machine;
};
/* A runtime's trace sink that appends each row to `rows`, a repeated row (TraceSegment::repeats) expanded: job, status,
 * start, end and the processors' first word (the eight hosts'). */
std::function<void(const TraceSegment&)> expanded_rows(std::vector<std::vector<double>>& rows)
{
  return [&rows](const TraceSegment& t) {
    for (long i = 0; i < t.repeats; i++)
      rows.push_back({static_cast<double>(t.job), static_cast<double>(static_cast<int>(t.status)),
                      t.start + static_cast<double>(i) * t.period, t.end + static_cast<double>(i) * t.period,
                      static_cast<double>(t.processors.word(0))});
  };
}

EightHosts eight_hosts(const std::filesystem::path& file)
{
  EightHosts rig{jobsched::testing::quiet_l07_engine(file.string()), {}, {}};
  for (int i = 0; i < 8; i++) {
    rig.hosts.push_back(rig.engine->host_by_name("p" + std::to_string(i)));
    rig.machine.add_host("p" + std::to_string(i), 1, 1e9);
  }
  return rig;
}

/* Runs `script(hosts, machine, figures)` as an actor on an engine of eight_host_platform() in a child process (one
 * engine per process) and returns the figures it wrote. */
std::vector<double> figures_of_script(
    const std::function<void(const std::vector<sg4::Host*>&, const Machine&, std::vector<double>&)>& script)
{
  jobsched::testing::ScratchFolder f;
  auto file = f.write("p.xml", eight_host_platform());
  return in_child([&] {
    EightHosts rig = eight_hosts(file);
    std::vector<double> figures;
    sg4::Actor::create("script", rig.engine->host_by_name("ctl"), [&] { script(rig.hosts, rig.machine, figures); });
    rig.engine->run();
    return figures;
  });
}

/* Brings each job where the phase says (`where[j]`, nullptr: not computing), as TimeSharingDriver::decide() does:
 * suspensions (and the first half of moves of jobs that cannot be resized), resizes, then resumptions and starts. */
void apply(JobRuntime& runtime, const std::vector<WorkloadJob>& jobs, const std::vector<const ResourceSet*>& where)
{
  for (size_t j = 0; j < jobs.size(); j++) {
    const JobState* s = runtime.table().find(jobs[j].id);
    if (s == nullptr || s->status != JobStatus::running) continue;
    if (where[j] == nullptr)
      runtime.suspend(jobs[j].id);
    else if (jobs[j].shape != JobShape::malleable && *where[j] != s->processors)
      runtime.suspend(jobs[j].id, false, false);
  }
  for (size_t j = 0; j < jobs.size(); j++) {
    const JobState* s = runtime.table().find(jobs[j].id);
    if (s != nullptr && s->status == JobStatus::running && where[j] != nullptr && *where[j] != s->processors)
      runtime.resize(jobs[j].id, *where[j]);
  }
  for (size_t j = 0; j < jobs.size(); j++) {
    if (where[j] == nullptr) continue;
    const JobState* s = runtime.table().find(jobs[j].id);
    if (s == nullptr || s->status == JobStatus::pending || s->status == JobStatus::waiting)
      runtime.start(jobs[j], *where[j]);
    else if (s->status == JobStatus::suspended)
      runtime.resume(jobs[j].id, *where[j]);
  }
}

/* Random jobs for the replay tests: 2 to 1 + `most_extra` jobs (ids 1, 2, ...), sizes 1 to 8, run times base + scale x
 * u^3, seven in ten malleable (1 to 8 processors) and the others rigid, half of them with a beta speedup. */
std::vector<WorkloadJob> random_jobs(std::mt19937_64& random, int most_extra, double base, double scale)
{
  std::uniform_real_distribution<double> unit(0, 1);
  const int count = 2 + static_cast<int>(unit(random) * most_extra);
  std::vector<WorkloadJob> jobs(static_cast<size_t>(count));
  for (int j = 0; j < count; j++) {
    WorkloadJob& job = jobs[static_cast<size_t>(j)];
    job.id = j + 1;
    job.size = 1 + static_cast<int>(unit(random) * 8);
    job.run_time = base + std::pow(unit(random), 3) * scale;
    job.estimate = job.run_time;
    job.shape = unit(random) < 0.7 ? JobShape::malleable : JobShape::rigid;
    job.min_size = 1;
    job.max_size = 8;
    if (unit(random) < 0.5) job.speedup = Speedup::with_beta(1 + unit(random) * 300);
  }
  return jobs;
}

/* A random cycle of period 10 s from 0 (its phases left for the test to list): 2 to 4 phases at fractions rounded to
 * 1/1000; `where[p][j]`, per phase and one more (empty) at the end, the range of the 8 processors job j computes on
 * (nullptr: none), pieces side by side, a rigid job's as wide as its size; the ranges kept in `sets`. */
Cycle random_cycle(std::mt19937_64& random, const std::vector<WorkloadJob>& jobs, std::deque<ResourceSet>& sets,
                   std::vector<std::vector<const ResourceSet*>>& where)
{
  std::uniform_real_distribution<double> unit(0, 1);
  Cycle cycle;
  cycle.origin = 0;
  cycle.period = 10;
  cycle.epsilon = 1e-6 / cycle.period;
  const int phases = 2 + static_cast<int>(unit(random) * 3);
  cycle.boundaries.push_back(0.0); // (an assignment from a list here set off a false -Wnonnull)
  cycle.boundaries.push_back(1.0);
  while (static_cast<int>(cycle.boundaries.size()) < phases + 1) {
    const double b = std::round((0.05 + unit(random) * 0.9) * 1000) / 1000;
    if (std::find(cycle.boundaries.begin(), cycle.boundaries.end(), b) == cycle.boundaries.end())
      cycle.boundaries.push_back(b);
  }
  std::sort(cycle.boundaries.begin(), cycle.boundaries.end());
  where.assign(static_cast<size_t>(phases) + 1, std::vector<const ResourceSet*>(jobs.size(), nullptr));
  for (int p = 0; p < phases; p++) {
    int next = 0; // pieces side by side
    for (size_t j = 0; j < jobs.size() && next < 8; j++) {
      if (unit(random) < 0.35) continue;
      const int width = jobs[j].shape == JobShape::rigid ? jobs[j].size : 1 + static_cast<int>(unit(random) * 4);
      if (next + width > 8) continue;
      sets.emplace_back(8);
      sets.back().add_range(next, width);
      next += width;
      where[static_cast<size_t>(p)][j] = &sets.back();
    }
  }
  return cycle;
}

/* The trace rows of a replay against the stepped ones (job, status, start, end, processors' first word), both put in
 * order by job, start and status: counts the rows that differ (all of them as one when their numbers differ) in
 * `mismatches`, keeps the largest difference of a row's times in `largest`; returns the number of rows stepped. */
double compare_rows(std::vector<std::vector<double>>& replayed, std::vector<std::vector<double>>& stepped,
                    double& mismatches, double& largest)
{
  auto order = [](std::vector<std::vector<double>>& rows) {
    std::sort(rows.begin(), rows.end(),
              [](const auto& x, const auto& y) { return std::tie(x[0], x[2], x[1]) < std::tie(y[0], y[2], y[1]); });
  };
  order(replayed);
  order(stepped);
  if (replayed.size() != stepped.size()) {
    mismatches++;
    return static_cast<double>(stepped.size());
  }
  for (size_t i = 0; i < stepped.size(); i++) {
    const auto& x = replayed[i];
    const auto& y = stepped[i];
    if (x[0] != y[0] || x[1] != y[1] || x[4] != y[4]) mismatches++;
    largest = std::max({largest, std::fabs(x[2] - y[2]), std::fabs(x[3] - y[3])});
  }
  return static_cast<double>(stepped.size());
}

} // namespace

/* Random cycles (2 to 4 jobs, rigid or malleable, linear or beta speedups, 2 to 4 phases at random fractions of a
 * 10-s period, each job on a random range of the 8 processors in the phases it computes in) are advanced by the
 * runtime's replay (JobRuntime::cycle_begin, cycle_step, cycle_end) in one runtime, and stepped boundary by boundary
 * with suspend(), resume() and resize() in another, on the same virtual clock (the scheduler's formula, from the
 * cycle's own boundaries). After one stepped cycle (every job started) and up to 30 replayed ones (fewer when a job
 * would end: the replay refuses that cycle, and the stepped runtime stops before it too; every other trial then the
 * boundaries of that cycle before the end, one by one with cycle_partial()), the jobs' remaining
 * work, timer ends, service, counters and account are the same doubles and integers in both, and the trace rows of the
 * replay, expanded, are the stepped ones (times within 1e-9 s: start + i x period against the clock's own sums). */
TEST(Cycles, ReplayIsSteppingBitForBit)
{
  // mismatches, row mismatches, trials with cycles, cycles, largest time error, rows, boundaries replayed one by one,
  // phases skipped
  // trials after the first two cycles found sure to be kept, and not
  auto got =
      figures_of_script([&](const std::vector<sg4::Host*>& hosts, const Machine& machine, std::vector<double>& result) {
        result.assign(10, 0);
        std::mt19937_64 random(11);
        std::uniform_real_distribution<double> unit(0, 1);
        for (int trial = 0; trial < 40; trial++) {
          std::vector<WorkloadJob> jobs = random_jobs(random, 3, 50, 10000); // some end within 30 cycles
          // The cycle: boundaries, and per phase each job's range (or none).
          std::deque<ResourceSet> sets;
          std::vector<std::vector<const ResourceSet*>> where;
          Cycle cycle = random_cycle(random, jobs, sets, where);
          for (size_t p = 0; p < where.size(); p++) {
            cycle.phases.emplace_back();
            for (size_t j = 0; j < jobs.size(); j++)
              if (where[p][j] != nullptr) cycle.phases.back().emplace_back(jobs[j].id, where[p][j]);
          }
          JobRuntime replayed(machine, hosts, 1e9, {}, {}, {}, ExecutionMode::timer);
          JobRuntime stepped(machine, hosts, 1e9, {}, {}, {}, ExecutionMode::timer);
          std::vector<std::vector<double>> rows_replayed, rows_stepped;
          replayed.set_trace_sink(expanded_rows(rows_replayed));
          stepped.set_trace_sink(expanded_rows(rows_stepped));
          // One cycle stepped in both from a start at 0.5 s into the first phase: every job that computes has started.
          double clock = 0.5;
          auto both = [&](double t, size_t phase) {
            replayed.set_virtual_clock(t);
            stepped.set_virtual_clock(t);
            apply(replayed, jobs, where[phase]);
            apply(stepped, jobs, where[phase]);
          };
          both(clock, cycle.position(clock).phase);
          const size_t start_phase = cycle.position(clock).phase;
          std::vector<std::pair<double, size_t>> clocks; // each boundary replayed, with the phase put in force there
          auto next_clock = [&](double t) { return simgrid_clock_after_wait(t, std::max(0.0, cycle.until(t) - t)); };
          do {
            clock = next_clock(clock);
            both(clock, cycle.position(clock).phase);
          } while (cycle.position(clock).phase != start_phase);
          // Jobs that never compute are left out (the policy names only jobs it gives pieces).
          std::vector<JobId> ids;
          std::vector<const ResourceSet*> flat;
          std::vector<size_t> named;
          for (size_t j = 0; j < jobs.size(); j++) {
            bool computes = false;
            for (const auto& w : where)
              computes = computes || w[j] != nullptr;
            if (!computes) continue;
            ids.push_back(jobs[j].id);
            named.push_back(j);
          }
          for (size_t j : named)
            for (const auto& w : where)
              flat.push_back(w[j]);
          long cycles = 0;
          if (!ids.empty() && replayed.cycle_begin(ids, flat, where.size(), start_phase)) {
            // As the driver does, every other trial: how long each phase lasts (a job's duty bounds how soon it ends).
            if (trial % 2 == 1) {
              std::vector<double> seconds;
              for (size_t p = 0; p < where.size(); p++)
                seconds.push_back(p + 1 < cycle.boundaries.size()
                                      ? (cycle.boundaries[p + 1] - cycle.boundaries[p]) * cycle.period
                                      : 0);
              replayed.cycle_durations(seconds, cycle.period);
            }
            for (; cycles < 30; cycles++) {
              // As the driver does: the cycle's clocks first, the runtime told by when they come (cycle_trial_until:
              // a trial it finds sure to be kept saves nothing, and would throw if a step were refused), then the
              // steps.
              double t = clock;
              bool whole = false;
              bool refused = false;
              std::vector<std::pair<double, size_t>> these;
              std::vector<double> untils;
              for (size_t steps = 0; steps <= where.size() && !whole; steps++) {
                const double until = cycle.until(t);
                const double next = simgrid_clock_after_wait(t, std::max(0.0, until - t));
                const size_t phase = cycle.position(next).phase;
                these.emplace_back(next, phase);
                untils.push_back(until);
                t = next;
                whole = phase == start_phase;
              }
              replayed.cycle_trial_until(std::max(untils.back(), t));
              if (cycles >= 2) result[replayed.cycle_trial_sure() ? 8 : 9]++; // (the first two record rows)
              for (size_t i = 0; i < these.size() && !refused; i++)
                refused = !replayed.cycle_step(these[i].first, untils[i], these[i].second);
              if (refused || !whole) break;
              replayed.cycle_commit();
              clocks.insert(clocks.end(), these.begin(), these.end());
              clock = t;
            }
            // Every other trial, as the driver does: the boundaries of the cycle that was refused (its trial dropped),
            // one at a time and each kept, up to the last before a job's end. Every fourth, the first of them puts the
            // phase after the next in force (a phase skipped: the replay follows any sequence of phases).
            if (trial % 2 == 0) {
              replayed.cycle_partial();
              for (size_t steps = 0; steps <= where.size(); steps++) {
                const double until = cycle.until(clock);
                const double next = simgrid_clock_after_wait(clock, std::max(0.0, until - clock));
                size_t phase = cycle.position(next).phase;
                if (trial % 4 == 0 && steps == 0 && phase + 2 < where.size()) {
                  phase++;
                  result[7]++;
                }
                if (!replayed.cycle_step(next, until, phase)) break;
                replayed.cycle_commit_boundary();
                clocks.emplace_back(next, phase);
                clock = next;
                result[6]++;
              }
            }
            replayed.cycle_end(cycle.period);
          } else {
            replayed.cycle_end(cycle.period);
          }
          replayed.set_virtual_clock(clock);
          for (const auto& [t, phase] : clocks) {
            stepped.set_virtual_clock(t);
            apply(stepped, jobs, where[phase]);
          }
          stepped.set_virtual_clock(clock);
          if (cycles > 0) result[2]++;
          result[3] += static_cast<double>(cycles);
          // The state: the same bits.
          for (const auto& job : jobs) {
            const JobState* a = replayed.table().find(job.id);
            const JobState* b = stepped.table().find(job.id);
            if ((a == nullptr) != (b == nullptr)) {
              result[0]++;
              continue;
            }
            if (a == nullptr || !a->started()) continue;
            if (replayed.remaining_fraction(job.id) != stepped.remaining_fraction(job.id)) result[0]++;
            if (a->service != b->service || a->status != b->status || a->processors != b->processors) result[0]++;
            if (a->counters.preemptions != b->counters.preemptions || a->counters.resizes != b->counters.resizes ||
                a->counters.migrations != b->counters.migrations)
              result[0]++;
          }
          if (replayed.next_timer() != stepped.next_timer()) result[0]++;
          replayed.close_trace();
          stepped.close_trace();
          for (const auto& job : jobs) {
            const JobState* a = replayed.table().find(job.id);
            const JobState* b = stepped.table().find(job.id);
            if (a == nullptr || b == nullptr) continue;
            if (a->account.dedicated_time != b->account.dedicated_time ||
                a->account.paged_run_time != b->account.paged_run_time ||
                a->account.page_fault_time != b->account.page_fault_time || a->service != b->service)
              result[0]++;
          }
          result[5] += compare_rows(rows_replayed, rows_stepped, result[1], result[4]);
        }
      });
  ASSERT_EQ(got.size(), 10u);
  EXPECT_EQ(got[0], 0) << "figures of the replay that differ from stepping's";
  EXPECT_EQ(got[1], 0) << "trace rows of the replay that differ from stepping's";
  EXPECT_GE(got[2], 30) << "trials in which cycles were advanced";
  EXPECT_GE(got[3], 700) << "cycles advanced";
  EXPECT_LT(got[3], 40 * 30) << "no trial stopped on a job's end";
  EXPECT_LT(got[4], 1e-9) << "largest difference of a row's times";
  EXPECT_GT(got[5], 1000) << "rows compared";
  EXPECT_GE(got[6], 40) << "boundaries replayed one by one (cycle_partial) after a refused cycle";
  EXPECT_GE(got[7], 4) << "phases skipped";
  // After the first two cycles, a trial whose jobs all last past it is sure to be kept; those near a job's end
  // (among them every refused one) are not. A refused step in a sure trial throws (the child fails).
  EXPECT_GE(got[8], 800) << "trials found sure to be kept (their states not saved)";
  EXPECT_GE(got[9], 10) << "trials not found sure";
}

/* A dropped trial puts back the timers of the jobs it stopped, and with them the bound the replay keeps below the
 * running jobs' timer ends (JobRuntime::cycle_step reads their timers only when a boundary reaches that bound). Two
 * rigid jobs start at 0 s on p0 and p1: job 1 of 10 s (its timer ends at 10 s), job 2 of 100 s. Phases: 0 both
 * compute, 1 job 1 suspended, 2 both compute. The trial of the whole cycle 0 -> 1 -> 2 -> 0 at 2, 11 and 20 s
 * suspends job 1 at 2 s; at 11 s the bound (10 s) is reached and read again from the trial's states, where job 1 is
 * suspended: 100 s, lowered to 19 s when job 1 resumes for its 8 s left; at 20 s job 1 would end, the trial is
 * refused and dropped, job 1 running again with its timer ending at 10 s. The boundaries then one by one on the same
 * clocks, phase 2 first (a phase skipped, as the random replay does: job 1 computes on), then phase 1 at 11 s: job 1
 * ends at 10 s, before it, so stepping would stop there and the replay must refuse it (a bound left at 19 s let it
 * through, job 1 suspended with no work left). Whether each boundary is reached comes from the stepped runtime's next
 * timer; the states after are compared as in ReplayIsSteppingBitForBit. (TimeSharingDriver::advance_cycles() replays
 * the refused cycle's own boundaries and phases after a drop, for which the bound the refusal left, read from the
 * trial's states at the refused boundary, still holds; a caller that puts other phases in force, as here, needs the
 * bound forgotten.) */
TEST(Cycles, DroppedTrialPutsItsStoppedTimersBackUnderTheBound)
{
  // begun, the trial's three steps taken, job 1's timer end stepped, then per boundary one by one: stepped past
  // it (no timer by then), replayed; then the figures of the state kept that differ from stepping's
  auto got = figures_of_script([&](const std::vector<sg4::Host*>& hosts, const Machine& machine,
                                   std::vector<double>& result) {
    std::vector<WorkloadJob> jobs(2);
    for (size_t j = 0; j < jobs.size(); j++) {
      jobs[j].id = static_cast<JobId>(j + 1);
      jobs[j].size = 1;
      jobs[j].run_time = j == 0 ? 10 : 100;
      jobs[j].estimate = jobs[j].run_time;
      jobs[j].shape = JobShape::rigid;
    }
    ResourceSet on_p0(8);
    ResourceSet on_p1(8);
    on_p0.add_range(0, 1);
    on_p1.add_range(1, 1);
    const std::vector<std::vector<const ResourceSet*>> where = {{&on_p0, &on_p1}, {nullptr, &on_p1}, {&on_p0, &on_p1}};
    JobRuntime replayed(machine, hosts, 1e9, {}, {}, {}, ExecutionMode::timer);
    JobRuntime stepped(machine, hosts, 1e9, {}, {}, {}, ExecutionMode::timer);
    for (JobRuntime* runtime : {&replayed, &stepped}) {
      runtime->set_virtual_clock(0);
      apply(*runtime, jobs, where[0]);
    }
    std::vector<const ResourceSet*> flat; // per job, its set in each phase
    for (size_t j = 0; j < jobs.size(); j++)
      for (const auto& w : where)
        flat.push_back(w[j]);
    result.push_back(replayed.cycle_begin({1, 2}, flat, where.size(), 0));
    replayed.cycle_trial_until(20); // (not sure to be kept: no cycle committed yet)
    result.push_back(static_cast<double>(replayed.cycle_step(2, 2, 1) + replayed.cycle_step(11, 11, 2) +
                                         replayed.cycle_step(20, 20, 0)));
    replayed.cycle_partial();
    result.push_back(stepped.next_timer());
    double clock = 0;
    for (const auto& [t, phase] : std::vector<std::pair<double, size_t>>{{2, 2}, {11, 1}, {20, 0}}) {
      const bool reached = stepped.next_timer() > t;
      const bool step = replayed.cycle_step(t, t, phase);
      result.push_back(reached);
      result.push_back(step);
      if (!step) break;
      replayed.cycle_commit_boundary(); // (a boundary replayed is kept before anything else)
      if (!reached) break;
      stepped.set_virtual_clock(t);
      apply(stepped, jobs, where[phase]);
      clock = t;
    }
    replayed.cycle_end(20);
    replayed.set_virtual_clock(clock);
    stepped.set_virtual_clock(clock);
    double differ = 0;
    for (const auto& job : jobs) {
      const JobState* a = replayed.table().find(job.id);
      const JobState* b = stepped.table().find(job.id);
      if (replayed.remaining_fraction(job.id) != stepped.remaining_fraction(job.id) || a->service != b->service ||
          a->status != b->status || a->processors != b->processors ||
          a->counters.preemptions != b->counters.preemptions || a->counters.migrations != b->counters.migrations)
        differ++;
    }
    if (replayed.next_timer() != stepped.next_timer()) differ++;
    result.push_back(differ);
  });
  ASSERT_GE(got.size(), 6u);
  EXPECT_EQ(got[0], 1) << "the cycle begun";
  EXPECT_EQ(got[1], 2) << "the trial's first two steps taken, its third refused";
  EXPECT_EQ(got[2], 10) << "job 1's timer, stepped, ends at 10 s";
  EXPECT_EQ(got[3], 1) << "no timer ends by 2 s";
  EXPECT_EQ(got[4], 1) << "the boundary at 2 s replayed (phase 2: job 1 computes on)";
  ASSERT_EQ(got.size(), 8u);
  EXPECT_EQ(got[5], 0) << "job 1 ends before 11 s";
  EXPECT_EQ(got[6], 0) << "the boundary at 11 s refused (job 1 ends before it)";
  EXPECT_EQ(got[7], 0) << "figures of the replay that differ from stepping's";
}

namespace {

/* What a test policy's declared cycle gets wrong (none: a well-formed cycle). */
enum class CycleDefect {
  none,
  period,
  descending,
  phase_count,
  by_id,
  missing_set,
  overlap,
  not_in_force,
  until,
  into_run
};

/* Two jobs of 2 processors taking turns on n0-n1 every half of a 10-s quantum, declared as a cycle (Plan::cycle):
 * boundaries 0, 0.5, 1; phase 0 the first job (by id), phase 1 the second, phase 2 empty. Alone, a job runs on n0-n1
 * with no cycle. `defect` breaks one thing of the cycle or of the plan against it. */
class TurnsCycle : public TimeSharingPolicy {
 public:
  explicit TurnsCycle(CycleDefect defect) : defect_(defect) {}
  Plan plan(const SystemView& view) override
  {
    Plan plan;
    const ResourceSet pair = ResourceSet::range(view.machine->resource_count(), 0, 2);
    if (view.jobs.size() == 1) plan.run.emplace(view.jobs.front()->job->id, pair);
    if (view.jobs.size() != 2) return plan;
    if (!cycle_) build(view, pair);
    const Cycle::Position at = cycle_->position(view.now);
    const Phase& in_force = cycle_->phases[std::min(at.phase, size_t{1})];
    const Phase& other = cycle_->phases[at.phase == 0 ? 1 : 0];
    for (const auto& [id, where] : defect_ == CycleDefect::not_in_force ? other : in_force)
      if (where != nullptr) plan.run.emplace(id, *where);
    plan.until = defect_ == CycleDefect::until ? view.now + 3 : cycle_->until(at);
    plan.repeats = true;
    plan.cycle = cycle_;
    if (defect_ == CycleDefect::into_run) { // a cycle per plan, its phases on the set of the plan's own map
      auto cycle = std::make_shared<Cycle>(*cycle_);
      for (size_t p = 0; p + 1 < cycle->phases.size(); p++)
        cycle->phases[p].front().second = &plan.run.begin()->second;
      plan.cycle = std::move(cycle);
    }
    return plan;
  }

 private:
  void build(const SystemView& view, const ResourceSet& pair)
  {
    const JobId first = std::min(view.jobs[0]->job->id, view.jobs[1]->job->id);
    const JobId second = std::max(view.jobs[0]->job->id, view.jobs[1]->job->id);
    sets_.push_back(pair);
    sets_.push_back(ResourceSet::range(view.machine->resource_count(), 1, 2)); // n1-n2: meets the pair on n1
    sets_.push_back(ResourceSet::range(view.machine->resource_count(), 2, 2)); // n2-n3
    auto cycle = std::make_shared<Cycle>();
    cycle->origin = 0;
    cycle->period = defect_ == CycleDefect::period ? 0 : 10;
    cycle->epsilon = 1e-6 / 10;
    cycle->boundaries = {0, 0.5, 1};
    cycle->phases = {{{first, &sets_[0]}}, {{second, &sets_[0]}}, {}};
    switch (defect_) {
    case CycleDefect::descending:
      cycle->boundaries = {0, 0.7, 0.5, 1};
      cycle->phases.insert(cycle->phases.begin() + 1, Phase{{second, &sets_[0]}});
      break;
    case CycleDefect::phase_count:
      cycle->phases.pop_back();
      break;
    case CycleDefect::by_id: // phase 1: both jobs, the second listed first
      cycle->phases[1] = {{second, &sets_[0]}, {first, &sets_[2]}};
      break;
    case CycleDefect::missing_set:
      cycle->phases[1] = {{second, nullptr}};
      break;
    case CycleDefect::overlap: // phase 1: the first job on n1-n2 beside the second on n0-n1
      cycle->phases[1] = {{first, &sets_[1]}, {second, &sets_[0]}};
      break;
    default:
      break;
    }
    cycle_ = std::move(cycle);
  }

  CycleDefect defect_;
  std::deque<ResourceSet> sets_; // the phases' sets, kept as long as the cycle
  std::shared_ptr<const Cycle> cycle_;
};

PolicyInfo turns_cycle(const std::string& name, CycleDefect defect)
{
  return {name, "two jobs taking turns, declared as a cycle (tests only)", {}, nullptr, [defect](const PolicyEnv&) {
            return std::make_unique<TurnsCycle>(defect);
          }};
}
PolicyRegistration cycle_well_formed{turns_cycle("test-cycle-well-formed", CycleDefect::none)};
PolicyRegistration cycle_period{turns_cycle("test-cycle-period", CycleDefect::period)};
PolicyRegistration cycle_descending{turns_cycle("test-cycle-descending", CycleDefect::descending)};
PolicyRegistration cycle_phase_count{turns_cycle("test-cycle-phase-count", CycleDefect::phase_count)};
PolicyRegistration cycle_by_id{turns_cycle("test-cycle-by-id", CycleDefect::by_id)};
PolicyRegistration cycle_missing_set{turns_cycle("test-cycle-missing-set", CycleDefect::missing_set)};
PolicyRegistration cycle_overlap{turns_cycle("test-cycle-overlap", CycleDefect::overlap)};
PolicyRegistration cycle_not_in_force{turns_cycle("test-cycle-not-in-force", CycleDefect::not_in_force)};
PolicyRegistration cycle_until{turns_cycle("test-cycle-until", CycleDefect::until)};
PolicyRegistration cycle_into_run{turns_cycle("test-cycle-into-run", CycleDefect::into_run)};

} // namespace

/* The driver checks a declared cycle before replaying it: a malformed one (which the replay would read out of its
 * bounds, apply to the wrong jobs, or read from a plan's map freed once the plan is applied) or a plan that is not
 * its phase in force is one policy error naming what is wrong. The well-formed cycle: jobs 1 and 2 (40 s on 2
 * processors each, both at 0) take turns every 5 s, job 1 in the first half of each 10-s quantum: job 1 has its 40 s
 * after 8 halves, at 75; job 2 has 35 s by 70 and runs alone from 75, to 80. Its cycles are advanced (whole cycles
 * counted), with the same ends as every wake-up stepped. */
TEST(Cycles, MalformedCyclesArePolicyErrors)
{
  jobsched::testing::ScratchFolder f;
  f.write("p.xml", four_node_platform());
  f.write("w.swf", swf_record(1, 0, 40, 2) + swf_record(2, 0, 40, 2));
  // From the child: 0, the finish times and the cycles advanced, or 1 and the error's text a character per value.
  const auto run = [&](const std::string& policy, const std::string& more = "") {
    auto file = f.write(policy + std::to_string(more.size()) + ".yaml",
                        "platform: p.xml\nworkload: {trace: w.swf}\npolicy: {name: " + policy + "}\n" + more);
    const std::vector<double> got = in_child([&] {
      alarm(60); // a replay of a malformed cycle may never end: the child is then killed, and the case fails
      try {
        RunReport r = jobsched::testing::run_quietly(file, f.dir / (policy + std::to_string(more.size())));
        std::vector<double> out{0};
        for (const auto& s : r.states)
          out.push_back(s.finish_time);
        out.push_back(static_cast<double>(r.performance.cycles));
        return out;
      } catch (const PolicyError& e) {
        const std::string text = e.what();
        std::vector<double> out{1};
        out.insert(out.end(), text.begin(), text.end());
        return out;
      }
    });
    if (got.empty() || got.front() != 1) return std::make_pair(got, std::string());
    return std::make_pair(std::vector<double>{}, std::string(got.begin() + 1, got.end()));
  };
  const auto [ends, none] = run("test-cycle-well-formed");
  EXPECT_EQ(none, "");
  ASSERT_EQ(ends.size(), 4U);
  EXPECT_NEAR(ends[1], 75, 1e-6);
  EXPECT_NEAR(ends[2], 80, 1e-6);
  EXPECT_GE(ends[3], 1) << "cycles advanced";
  const auto [stepped, none_stepped] = run("test-cycle-well-formed", "simulation: {cycles: false}\n");
  ASSERT_EQ(stepped.size(), 4U);
  EXPECT_EQ(stepped[1], ends[1]);
  EXPECT_EQ(stepped[2], ends[2]);
  EXPECT_EQ(stepped[3], 0);
  for (const auto& [policy, message] : std::vector<std::pair<std::string, std::string>>{
           {"test-cycle-period", "plan: a cycle of period 0.000000 s from 0.000000 s, epsilon 0.000000 (a finite "
                                 "period > 0, origin and 0 <= epsilon < 1 expected)"},
           {"test-cycle-descending", "plan: a cycle's boundaries are not fractions ascending from 0 to 1 (4 of them)"},
           {"test-cycle-phase-count", "plan: a cycle of 3 boundaries has 2 phases (one per boundary, the last one "
                                      "empty)"},
           {"test-cycle-by-id", "plan: cycle phase 1 does not list its jobs by id"},
           {"test-cycle-missing-set", "plan: job 2 (cycle phase 1): no processors given"},
           {"test-cycle-overlap", "plan: job 2 (cycle phase 1): processors 1 given to two jobs"},
           {"test-cycle-not-in-force", "plan: it is not its cycle's phase in force now (0)"},
           {"test-cycle-until", "plan: its until (3.000000 s) is not its cycle's next boundary (5.000000 s)"},
           {"test-cycle-into-run", "plan: cycle phase 0 points into the plan's own `run` map, which does not outlive "
                                   "the plan: keep the sets in the policy until they are replayed"}})
    EXPECT_EQ(run(policy).second, message) << policy; // (a child killed or failed: also the in_child's failure)
}

/* The replay starts the jobs of a cycle that have not started yet (JobRuntime::cycle_begin()'s `waiting`: a job that
 * arrived and waits for its piece), as TimeSharingDriver::advance_cycles() does after an arrival. Random cycles as
 * above; some jobs (each with probability 0.4, not computing in the phase in force) are held back while one cycle is
 * stepped in both runtimes, then submitted. The replay takes the boundaries one at a time, its rows in the driver's
 * order (cycle_rows_as_applied()), until every job has started (start() then launch() at its first piece: no segment
 * open before it, not a migration), then whole cycles from there (cycle_whole()) and the boundaries after them. Against
 * the same boundaries stepped with start(), suspend(), resume() and resize(): the same bits, start times and trace
 * rows and, once the trace is closed, the processors a job held throughout (a job the replay started and that never
 * moved or stopped since). */
TEST(Cycles, ReplayStartsWaitingJobsAsStepping)
{
  // mismatches, row mismatches, trials whose replay started jobs, jobs it started, trials with whole cycles after,
  // cycles, largest time error, rows, jobs held throughout (compared), jobs that ended inside the replay's reach
  auto got =
      figures_of_script([&](const std::vector<sg4::Host*>& hosts, const Machine& machine, std::vector<double>& result) {
        result.assign(10, 0);
        std::mt19937_64 random(23);
        std::uniform_real_distribution<double> unit(0, 1);
        for (int trial = 0; trial < 60; trial++) {
          std::vector<WorkloadJob> jobs = random_jobs(random, 4, 20, 3000); // some end within the replay's reach
          // The cycle: boundaries, and per phase each job's range (or none).
          std::deque<ResourceSet> sets;
          std::vector<std::vector<const ResourceSet*>> where;
          Cycle cycle = random_cycle(random, jobs, sets, where);
          double clock = 0.5;
          const size_t start_phase = cycle.position(clock).phase;
          std::vector<bool> late(jobs.size());
          std::vector<std::vector<const ResourceSet*>> early = where; // the plans while the late jobs are held back
          for (size_t j = 0; j < jobs.size(); j++) {
            late[j] = unit(random) < 0.4;
            if (!late[j]) continue;
            where[start_phase][j] = nullptr; // submitted where it does not compute: it waits for its piece
            for (auto& w : early)
              w[j] = nullptr;
          }
          for (size_t p = 0; p < where.size(); p++) {
            cycle.phases.emplace_back();
            for (size_t j = 0; j < jobs.size(); j++)
              if (where[p][j] != nullptr) cycle.phases.back().emplace_back(jobs[j].id, where[p][j]);
          }
          JobRuntime replayed(machine, hosts, 1e9, {}, {}, {}, ExecutionMode::timer);
          JobRuntime stepped(machine, hosts, 1e9, {}, {}, {}, ExecutionMode::timer);
          std::vector<std::vector<double>> rows_replayed, rows_stepped;
          replayed.set_trace_sink(expanded_rows(rows_replayed));
          stepped.set_trace_sink(expanded_rows(rows_stepped));
          for (JobRuntime* runtime : {&replayed, &stepped})
            for (const auto& job : jobs) { // submitted at 0, waiting (as SchedulerActor::gather() marks them)
              runtime->expect(job);
              runtime->table().at(job.id).status = JobStatus::waiting;
            }
          auto both = [&](double t, const std::vector<const ResourceSet*>& plan) {
            replayed.set_virtual_clock(t);
            stepped.set_virtual_clock(t);
            apply(replayed, jobs, plan);
            apply(stepped, jobs, plan);
          };
          // One cycle stepped in both from 0.5 s, the late jobs held back.
          auto next_clock = [&](double t) { return simgrid_clock_after_wait(t, std::max(0.0, cycle.until(t) - t)); };
          both(clock, early[start_phase]);
          do {
            clock = next_clock(clock);
            both(clock, early[cycle.position(clock).phase]);
          } while (cycle.position(clock).phase != start_phase);
          std::vector<JobId> ids;
          std::vector<const ResourceSet*> flat;
          for (size_t j = 0; j < jobs.size(); j++) {
            bool computes = false;
            for (const auto& w : where)
              computes = computes || w[j] != nullptr;
            if (!computes) continue;
            ids.push_back(jobs[j].id);
            for (const auto& w : where)
              flat.push_back(w[j]);
          }
          std::vector<std::pair<double, size_t>> clocks; // each boundary replayed, with the phase put in force there
          if (ids.empty() || !replayed.cycle_begin(ids, flat, where.size(), start_phase, true)) {
            replayed.cycle_end(cycle.period);
            continue;
          }
          const size_t waiting = replayed.cycle_waiting();
          // The boundaries up to the last first start, one at a time, the rows as the driver applies a plan.
          std::vector<std::uint64_t> orders(ids.begin(), ids.end()); // submission order: by id here
          replayed.cycle_rows_as_applied(orders);
          replayed.cycle_partial();
          size_t phase = start_phase;
          auto step_one = [&] {
            const double until = cycle.until(clock);
            const double next = simgrid_clock_after_wait(clock, std::max(0.0, until - clock));
            const size_t to = cycle.position(next).phase;
            if (!replayed.cycle_step(next, until, to)) return false;
            replayed.cycle_commit_boundary();
            clocks.emplace_back(next, to);
            clock = next;
            phase = to;
            return true;
          };
          for (size_t steps = 0; steps <= where.size() && replayed.cycle_waiting() > 0; steps++)
            if (!step_one()) break;
          if (waiting > 0 && replayed.cycle_waiting() < waiting) result[2]++;
          result[3] += static_cast<double>(waiting - replayed.cycle_waiting());
          if (replayed.cycle_waiting() == 0 && phase + 1 < where.size()) {
            // Whole cycles from that boundary, then the boundaries of the cycle a job's end refuses.
            replayed.cycle_whole();
            const size_t origin = phase;
            long cycles = 0;
            for (; cycles < 20; cycles++) {
              double t = clock;
              bool whole = false;
              std::vector<std::pair<double, size_t>> these;
              std::vector<double> untils;
              for (size_t steps = 0; steps <= where.size() && !whole; steps++) {
                const double until = cycle.until(t);
                const double next = simgrid_clock_after_wait(t, std::max(0.0, until - t));
                these.emplace_back(next, cycle.position(next).phase);
                untils.push_back(until);
                t = next;
                whole = these.back().second == origin;
              }
              replayed.cycle_trial_until(std::max(untils.back(), t));
              bool refused = false;
              for (size_t i = 0; i < these.size() && !refused; i++)
                refused = !replayed.cycle_step(these[i].first, untils[i], these[i].second);
              if (refused || !whole) break;
              replayed.cycle_commit();
              clocks.insert(clocks.end(), these.begin(), these.end());
              clock = t;
            }
            if (cycles > 0) result[4]++;
            result[5] += static_cast<double>(cycles);
            replayed.cycle_partial();
            for (size_t steps = 0; steps <= where.size(); steps++)
              if (!step_one()) break;
          }
          replayed.cycle_end(cycle.period);
          replayed.set_virtual_clock(clock);
          for (const auto& [t, p] : clocks) {
            stepped.set_virtual_clock(t);
            apply(stepped, jobs, where[p]);
          }
          stepped.set_virtual_clock(clock);
          if (replayed.next_timer() != stepped.next_timer()) result[0]++;
          if (replayed.next_timer() < clock + 10) result[9]++;
          for (const auto& job : jobs) {
            const JobState& a = replayed.table().at(job.id);
            const JobState& b = stepped.table().at(job.id);
            if (a.status != b.status || a.start_time != b.start_time) result[0]++;
            if (!a.started() || !b.started()) continue;
            if (replayed.remaining_fraction(job.id) != stepped.remaining_fraction(job.id)) result[0]++;
            if (a.service != b.service || a.processors != b.processors || a.cost.nodes_used != b.cost.nodes_used)
              result[0]++;
            if (a.counters.preemptions != b.counters.preemptions || a.counters.resizes != b.counters.resizes ||
                a.counters.migrations != b.counters.migrations)
              result[0]++;
          }
          replayed.close_trace();
          stepped.close_trace();
          for (const auto& job : jobs) {
            const JobState& a = replayed.table().at(job.id);
            const JobState& b = stepped.table().at(job.id);
            if (a.account.dedicated_time != b.account.dedicated_time ||
                a.account.paged_run_time != b.account.paged_run_time ||
                a.account.page_fault_time != b.account.page_fault_time || a.allocated != b.allocated)
              result[0]++;
            if (!b.allocated.empty()) result[8]++;
          }
          result[7] += compare_rows(rows_replayed, rows_stepped, result[1], result[6]);
        }
      });
  ASSERT_EQ(got.size(), 10u);
  EXPECT_EQ(got[0], 0) << "figures of the replay that differ from stepping's";
  EXPECT_EQ(got[1], 0) << "trace rows of the replay that differ from stepping's";
  EXPECT_GE(got[2], 30) << "trials whose replay started jobs";
  EXPECT_GE(got[3], 45) << "jobs the replay started";
  EXPECT_GE(got[4], 40) << "trials with whole cycles after the starts";
  EXPECT_GE(got[5], 600) << "cycles advanced";
  EXPECT_LT(got[6], 1e-9) << "largest difference of a row's times";
  EXPECT_GT(got[7], 4000) << "rows compared";
  EXPECT_GE(got[8], 5) << "jobs that held their processors throughout";
  EXPECT_GE(got[9], 20) << "trials whose replay stopped within a period of a job's end";
}

namespace {

/* Brings each job where the phase says as TimeSharingDriver::decide() applies a plan, in its order: the jobs that stop
 * and those that cannot be resized moved, in submission order (`orders`); then the malleable jobs resized, those shrunk
 * first, each by id; then the jobs resumed, by id. */
void apply_as_driver(JobRuntime& runtime, const std::vector<WorkloadJob>& jobs,
                     const std::vector<const ResourceSet*>& where, const std::vector<std::uint64_t>& orders)
{
  std::vector<size_t> by_order(jobs.size());
  for (size_t j = 0; j < jobs.size(); j++)
    by_order[j] = j;
  std::sort(by_order.begin(), by_order.end(), [&](size_t a, size_t b) { return orders[a] < orders[b]; });
  for (size_t j : by_order) {
    const JobState& s = runtime.table().at(jobs[j].id);
    if (s.status != JobStatus::running) continue;
    if (where[j] == nullptr)
      runtime.suspend(jobs[j].id);
    else if (jobs[j].shape != JobShape::malleable && *where[j] != s.processors)
      runtime.suspend(jobs[j].id, false, false);
  }
  for (const bool shrinks : {true, false})
    for (size_t j = 0; j < jobs.size(); j++) {
      const JobState& s = runtime.table().at(jobs[j].id);
      if (s.status == JobStatus::running && where[j] != nullptr && *where[j] != s.processors &&
          s.processors.contains(*where[j]) == shrinks)
        runtime.resize(jobs[j].id, *where[j]);
    }
  for (size_t j = 0; j < jobs.size(); j++)
    if (where[j] != nullptr && runtime.table().at(jobs[j].id).status == JobStatus::suspended)
      runtime.resume(jobs[j].id, *where[j]);
}

/* How many of the figures a replay must leave as stepping does differ between the two runtimes: the next timer, then
 * for each job its status, processors, service and remaining work, and its counters of preemptions, resizes and
 * migrations (one count for each of the two groups). */
int figures_that_differ(JobRuntime& replayed, JobRuntime& stepped, const std::vector<WorkloadJob>& jobs)
{
  int differ = replayed.next_timer() != stepped.next_timer();
  for (const auto& job : jobs) {
    const JobState& a = replayed.table().at(job.id);
    const JobState& b = stepped.table().at(job.id);
    if (a.status != b.status || a.processors != b.processors || a.service != b.service ||
        replayed.remaining_fraction(job.id) != stepped.remaining_fraction(job.id))
      differ++;
    if (a.counters.preemptions != b.counters.preemptions || a.counters.resizes != b.counters.resizes ||
        a.counters.migrations != b.counters.migrations)
      differ++;
  }
  return differ;
}

} // namespace

/* A lookahead's replay (Plan::lookahead, TimeSharingDriver::advance_lookahead): random phases (2 to 12 jobs, 4 to 24
 * phases, each job in each phase on the set of the phase before, on another set of the same processors, on a new range
 * or suspended), every boundary replayed one at a time from phase 0 with the rows as the driver applies a plan
 * (cycle_rows_as_applied(), here in a submission order that is not the ids'), until a step is refused because a job's
 * timer would run out by then. Stepped in another runtime with suspend(), resume() and resize() in the driver's order:
 * the replay stops exactly at the first boundary by which a stepped job's timer ends (the replay knows that from a
 * bound on its jobs' timers, cycle_step(), and the changes from one phase to the next from lists cycle_begin() made),
 * and the rows, in the order they come, the counters and the timers are the same. */
TEST(Cycles, LookaheadReplayIsSteppingRowForRow)
{
  // mismatches, row mismatches, rows, boundaries replayed, lookaheads stopped by a job's timer, stopped at the wrong
  // boundary, jobs that kept their set's address, that changed it for the same processors, lookaheads replayed whole
  auto got = figures_of_script([&](const std::vector<sg4::Host*>& hosts, const Machine& machine,
                                   std::vector<double>& result) {
    result.assign(9, 0);
    std::mt19937_64 random(31);
    std::uniform_real_distribution<double> unit(0, 1);
    for (int trial = 0; trial < 150; trial++) {
      std::vector<WorkloadJob> jobs = random_jobs(random, 10, 5, 400);
      const size_t phases = 4 + static_cast<size_t>(unit(random) * 21);
      std::deque<ResourceSet> sets;
      std::vector<std::vector<const ResourceSet*>> where(phases, std::vector<const ResourceSet*>(jobs.size()));
      for (size_t p = 0; p < phases; p++) {
        ResourceSet taken(8);
        for (size_t j = 0; j < jobs.size(); j++) { // first the jobs that stay where they were (or on equal sets)
          const ResourceSet* before = p > 0 ? where[p - 1][j] : nullptr;
          const double u = unit(random);
          if (before == nullptr || u > 0.6 || !before->count_if_within_and_apart(ResourceSet::range(8, 0, 8), taken))
            continue;
          if (u < 0.45) {
            where[p][j] = before;
            result[6]++;
          } else {
            where[p][j] = &sets.emplace_back(*before);
            result[7]++;
          }
          taken |= *before;
        }
        for (size_t j = 0; j < jobs.size(); j++) { // then new ranges in the gaps left
          if (where[p][j] != nullptr || unit(random) < 0.4) continue;
          const int width = jobs[j].shape == JobShape::rigid ? jobs[j].size : 1 + static_cast<int>(unit(random) * 4);
          const int first = static_cast<int>(unit(random) * (9 - width));
          const ResourceSet range = ResourceSet::range(8, first, width);
          if (range.count_if_within_and_apart(ResourceSet::range(8, 0, 8), taken) <= 0) continue;
          where[p][j] = &sets.emplace_back(range);
          taken |= range;
        }
      }
      // The jobs named, in submission order from the last to the first.
      std::vector<WorkloadJob> named;
      std::vector<JobId> ids;
      std::vector<const ResourceSet*> flat;
      std::vector<std::vector<const ResourceSet*>> named_where(phases);
      for (size_t j = 0; j < jobs.size(); j++) {
        bool computes = false;
        for (const auto& w : where)
          computes = computes || w[j] != nullptr;
        if (!computes || where[0][j] == nullptr) continue; // (every job of a lookahead computes in phase 0 here)
        named.push_back(jobs[j]);
        ids.push_back(jobs[j].id);
        for (size_t p = 0; p < phases; p++) {
          flat.push_back(where[p][j]);
          named_where[p].push_back(where[p][j]);
        }
      }
      if (ids.empty()) continue;
      std::vector<std::uint64_t> orders;
      for (size_t j = 0; j < ids.size(); j++)
        orders.push_back(ids.size() - j);
      JobRuntime replayed(machine, hosts, 1e9, {}, {}, {}, ExecutionMode::timer);
      JobRuntime stepped(machine, hosts, 1e9, {}, {}, {}, ExecutionMode::timer);
      std::vector<std::vector<double>> rows_replayed, rows_stepped;
      replayed.set_trace_sink(expanded_rows(rows_replayed));
      stepped.set_trace_sink(expanded_rows(rows_stepped));
      // Phase 0 applied in both at 0.5 s (every job starts), then the boundaries at uneven instants.
      std::vector<double> instants;
      for (double t = 0.5; instants.size() < phases;)
        instants.push_back(t += 2 + unit(random) * 8);
      for (JobRuntime* runtime : {&replayed, &stepped}) {
        runtime->set_virtual_clock(0.5);
        for (size_t j = 0; j < named.size(); j++)
          runtime->start(named[j], *named_where[0][j]);
      }
      if (!replayed.cycle_begin(ids, flat, phases, 0)) {
        result[0]++;
        replayed.cycle_end(0);
        continue;
      }
      replayed.cycle_rows_as_applied(orders);
      replayed.cycle_partial();
      size_t phase = 0;
      while (phase + 1 < phases && replayed.cycle_step(instants[phase], instants[phase], phase + 1)) {
        replayed.cycle_commit_boundary();
        phase++;
        result[3]++;
      }
      replayed.cycle_end(0);
      // Stepped up to the same boundary, every timer of which must last past each boundary stepped.
      double clock = 0.5;
      for (size_t p = 1; p <= phase; p++) {
        clock = instants[p - 1];
        if (!(stepped.next_timer() > clock + 1e-9)) result[5]++; // a job would have ended: the replay went too far
        stepped.set_virtual_clock(clock);
        apply_as_driver(stepped, named, named_where[p], orders);
      }
      if (phase + 1 < phases) {
        result[4]++;
        if (stepped.next_timer() > instants[phase] + 1e-9) result[5]++; // nothing ends by then: stopped too soon
      } else {
        result[8]++;
      }
      replayed.set_virtual_clock(clock);
      stepped.set_virtual_clock(clock);
      result[0] += figures_that_differ(replayed, stepped, named);
      replayed.close_trace();
      stepped.close_trace();
      if (rows_replayed != rows_stepped) result[1]++; // in the order they came, to the bit
      result[2] += static_cast<double>(rows_stepped.size());
    }
  });
  ASSERT_EQ(got.size(), 9u);
  EXPECT_EQ(got[0], 0) << "figures of the replay that differ from stepping's";
  EXPECT_EQ(got[1], 0) << "lookaheads whose rows differ from stepping's";
  EXPECT_GT(got[2], 600) << "rows compared";
  EXPECT_GT(got[3], 900) << "boundaries replayed";
  EXPECT_GE(got[4], 50) << "lookaheads stopped by a job's timer";
  EXPECT_EQ(got[5], 0) << "lookaheads stopped at another boundary than the first a job's timer ends by";
  EXPECT_GT(got[6], 1500) << "jobs on the same set as in the phase before";
  EXPECT_GT(got[7], 500) << "jobs on another set of the same processors";
  EXPECT_GE(got[8], 50) << "lookaheads replayed whole";
}

/* A lookahead whose jobs are suspended when it begins (not in phase 0) and resumed later: each on a set of the same
 * processors as its record's at another address (the replay counts a set only once a job may compute on it, and finds
 * the record's set equal by its words: no migration), on other processors (a migration), or not at all (its own set,
 * never counted, serves its row only). Replayed in one runtime and stepped with suspend() and resume() in another,
 * once with trace rows and once with the running area totalled instead (keep_segment_totals(), which reads each
 * running row's count), and once with rows and each phase's count declared (Lookahead::counts, handed to
 * cycle_begin(): job 2's set of one processor among sets of two): the rows, the area, the counters, the services and
 * the remaining work are the same. With each count declared one too many they differ (the counts are read). */
TEST(Cycles, LookaheadResumesSuspendedJobsAsStepping)
{
  // mismatches, row mismatches, rows compared, boundaries replayed, migrations, area mismatches, area, mismatches with
  // the counts declared wrong
  auto got =
      figures_of_script([&](const std::vector<sg4::Host*>& hosts, const Machine& machine, std::vector<double>& result) {
        result.assign(8, 0);
        std::vector<WorkloadJob> jobs(4);
        for (size_t j = 0; j < jobs.size(); j++) {
          WorkloadJob& job = jobs[j];
          job.id = static_cast<JobId>(j + 1);
          job.size = 2;
          job.run_time = 400 + 37.0 * static_cast<double>(j);
          job.estimate = job.run_time;
          job.shape = j % 2 == 0 ? JobShape::rigid : JobShape::malleable;
          job.min_size = 1;
          job.max_size = 8;
        }
        jobs[3].speedup = Speedup::with_beta(40);
        // Job j starts on processors 2j, 2j + 1; jobs 1 and 2 (ids 1, 2) are suspended at 0.5 s, before the lookahead.
        std::deque<ResourceSet> sets;
        std::vector<const ResourceSet*> start_on;
        for (size_t j = 0; j < jobs.size(); j++)
          start_on.push_back(&sets.emplace_back(ResourceSet::range(8, 2 * static_cast<int>(j), 2)));
        const size_t phases = 6;
        std::vector<std::vector<const ResourceSet*>> where(phases, std::vector<const ResourceSet*>(jobs.size()));
        for (size_t p = 0; p < phases; p++) {
          where[p][2] = start_on[2]; // on its record's own set throughout
          // Job 4: another copy of its processors every other phase.
          where[p][3] = p % 2 == 0 ? start_on[3] : &sets.emplace_back(*start_on[3]);
        }
        for (size_t p = 2; p < phases; p += 2) // job 1 back on copies of its processors every other phase from 2
          where[p][0] = &sets.emplace_back(*start_on[0]);
        where[3][1] = &sets.emplace_back(ResourceSet::range(8, 0, 1)); // job 2 once, on part of job 1's processors
        // Rows; totals; rows with the counts declared; the same with each count declared one too many (the replay
        // times the jobs by them: its figures must then differ from stepping's).
        for (const int mode : {0, 1, 2, 3}) {
          const bool totals = mode == 1;
          std::vector<JobId> ids;
          std::vector<const ResourceSet*> flat;
          std::vector<int> counts; // as `flat`: each set's processors, -1 where the job is suspended
          for (size_t j = 0; j < jobs.size(); j++) {
            ids.push_back(jobs[j].id);
            for (size_t p = 0; p < phases; p++) {
              flat.push_back(where[p][j]);
              counts.push_back(where[p][j] != nullptr ? where[p][j]->count() + (mode == 3 ? 1 : 0) : -1);
            }
          }
          const std::vector<std::uint64_t> orders = {3, 1, 4, 2};
          JobRuntime replayed(machine, hosts, 1e9, {}, {}, {}, ExecutionMode::timer);
          JobRuntime stepped(machine, hosts, 1e9, {}, {}, {}, ExecutionMode::timer);
          std::vector<std::vector<double>> rows_replayed, rows_stepped;
          if (totals) {
            replayed.keep_segment_totals();
            stepped.keep_segment_totals();
          } else {
            replayed.set_trace_sink(expanded_rows(rows_replayed));
            stepped.set_trace_sink(expanded_rows(rows_stepped));
          }
          for (JobRuntime* runtime : {&replayed, &stepped}) {
            runtime->set_virtual_clock(0.25);
            for (size_t j = 0; j < jobs.size(); j++)
              runtime->start(jobs[j], *start_on[j]);
            runtime->set_virtual_clock(0.5);
            runtime->suspend(jobs[0].id);
            runtime->suspend(jobs[1].id);
          }
          if (!replayed.cycle_begin(ids, flat, phases, 0, false, mode >= 2 ? &counts : nullptr)) {
            result[0]++;
            replayed.cycle_end(0);
            continue;
          }
          replayed.cycle_rows_as_applied(orders);
          replayed.cycle_partial();
          double clock = 0.5;
          size_t phase = 0;
          while (phase + 1 < phases && replayed.cycle_step(clock + 3, clock + 3, phase + 1)) {
            replayed.cycle_commit_boundary();
            clock += 3;
            phase++;
            result[3]++;
            stepped.set_virtual_clock(clock);
            apply_as_driver(stepped, jobs, where[phase], orders);
          }
          replayed.cycle_end(0);
          replayed.set_virtual_clock(clock);
          if (mode == 3) {
            result[7] += figures_that_differ(replayed, stepped, jobs);
            continue;
          }
          result[0] += figures_that_differ(replayed, stepped, jobs);
          if (!totals)
            for (const auto& job : jobs)
              result[4] += static_cast<double>(replayed.table().at(job.id).counters.migrations);
          if (totals) {
            if (replayed.running_area_total() != stepped.running_area_total()) result[5]++;
            result[6] = replayed.running_area_total();
          } else {
            replayed.close_trace();
            stepped.close_trace();
            if (rows_replayed != rows_stepped) result[1]++;
            result[2] += static_cast<double>(rows_stepped.size());
          }
        }
      });
  ASSERT_EQ(got.size(), 8u);
  EXPECT_EQ(got[0], 0) << "figures of the replay that differ from stepping's";
  EXPECT_EQ(got[1], 0) << "rows that differ from stepping's";
  EXPECT_GE(got[2], 10) << "rows compared";
  EXPECT_EQ(got[3], 20) << "boundaries replayed (five per run)";
  EXPECT_EQ(got[4], 2) << "migrations: job 2's only (job 1 resumed on its own processors each time), in two runs";
  EXPECT_EQ(got[5], 0) << "running areas that differ from stepping's";
  EXPECT_GT(got[6], 0) << "running area";
  EXPECT_GT(got[7], 0) << "figures that differ with the counts declared wrong (the replay ignores them)";
}
