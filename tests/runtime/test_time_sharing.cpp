/* The time-sharing layer on SimGrid, on tiny workloads whose completion times were computed by hand: gang scheduling
 * (with and without context-switch cost, a job larger than a partition), dynamic equipartition (resizes, speedup
 * S(n), reallocation cost), memory images written and read through a link or disks (with contention), and a closed
 * population. Every run's trace is checked for its invariants: no processor computes for two jobs at once, each
 * job's running segments add up to its work, and utilization from the trace equals the work over the capacity. */
#include "core/errors.hpp"
#include "policy/policy.hpp"
#include "run/simulation.hpp"
#include "support/child_process.hpp"
#include "support/quiet_run.hpp"

#include "support/scratch_folder.hpp"
#include "support/trace_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

using namespace jobsched;
using jobsched::testing::in_child;
namespace fs = std::filesystem;

namespace {

/* Four 1-Gflop/s nodes n0..n3 with a disk each (50 MiB/s both ways); a front end; an image host `store` behind one
 * link `io` of 100 MiB/s that every node's images cross. */
const char* const kPlatform = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="n0" speed="1Gf"><disk id="d0" read_bw="52428800Bps" write_bw="52428800Bps"/></host>
    <host id="n1" speed="1Gf"><disk id="d1" read_bw="52428800Bps" write_bw="52428800Bps"/></host>
    <host id="n2" speed="1Gf"><disk id="d2" read_bw="52428800Bps" write_bw="52428800Bps"/></host>
    <host id="n3" speed="1Gf"><disk id="d3" read_bw="52428800Bps" write_bw="52428800Bps"/></host>
    <host id="frontend" speed="1Gf"/>
    <host id="store" speed="1Gf"><prop id="role" value="storage"/></host>
    <link id="io" bandwidth="104857600Bps" latency="0" sharing_policy="SHARED"/>
    <route src="n0" dst="store"><link_ctn id="io"/></route>
    <route src="n1" dst="store"><link_ctn id="io"/></route>
    <route src="n2" dst="store"><link_ctn id="io"/></route>
    <route src="n3" dst="store"><link_ctn id="io"/></route>
  </zone>
</platform>
)";

using Folder = jobsched::testing::ScratchFolder;

/* An SWF record: id, submit, run time, processors, memory per processor (KB, -1: none). */
std::string swf(int id, double submit, double run, int procs, double memory_kb = -1)
{
  char buf[256];
  std::snprintf(buf, sizeof buf, "%d %g -1 %g %d -1 %g %d %g -1 1 1 1 1 1 1 -1 -1\n", id, submit, run, procs, memory_kb,
                procs, run);
  return buf;
}

/* What a run gives the tests: finish times (workload order) and the trace invariants. */
struct Outcome {
  std::vector<double> finish;
  std::vector<double> start;
  double overlaps = 0;   // pairs of segments computing on one processor at once
  double work_error = 0; // max over jobs of |sum of S(n) x running length - work|
  double utilization_error = 0;
  std::vector<double> preemptions;
};

Outcome run(const Folder& f, const std::string& workload, const std::string& rest,
            const std::string& platform = kPlatform)
{
  f.write("p.xml", platform);
  f.write("d.xml", "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                   "<platform version=\"4.1\"><actor host=\"frontend\" function=\"jobsched_scheduler\"/>"
                   "<actor host=\"frontend\" function=\"jobsched_submitter\"/></platform>\n");
  f.write("w.swf", workload);
  fs::path file = f.write("s.yaml", "platform: p.xml\ndeployment: d.xml\n" + rest);
  auto values = in_child([&] {
    RunReport r = jobsched::testing::run_quietly(file, f.dir / "out");
    const JobList& jobs = r.workload->jobs;
    std::vector<double> out;
    for (const auto& s : r.states)
      out.push_back(s.finish_time);
    for (const auto& s : r.states)
      out.push_back(s.start_time);
    for (const auto& s : r.states)
      out.push_back(s.counters.preemptions);
    // Invariants of the trace.
    double overlaps = jobsched::testing::computing_overlaps(r.trace);
    std::map<JobId, double> done;
    double area = 0;
    for (const auto& t : r.trace)
      if (t.status == JobStatus::running) {
        const WorkloadJob* j = nullptr;
        for (const auto& k : jobs)
          if (k.id == t.job) j = &k;
        done[t.job] += j->speedup(t.processors.count()) * (t.end - t.start);
        area += t.processors.count() * (t.end - t.start);
      }
    double work_error = 0;
    double total_work = 0;
    for (const auto& j : jobs) {
      work_error = std::max(work_error, std::fabs(done[j.id] - j.work()));
      total_work += j.work();
    }
    // Utilization from the trace = total work over capacity (linear speedups: processor-seconds = work).
    double utilization_error = std::fabs(r.metrics.utilization - area / (4 * r.metrics.makespan));
    if (jobs.front().speedup.model == Speedup::Model::linear)
      utilization_error =
          std::max(utilization_error, std::fabs(r.metrics.utilization - total_work / (4 * r.metrics.makespan)));
    out.insert(out.end(), {overlaps, work_error, utilization_error});
    return out;
  });
  Outcome o;
  if (values.size() < 3) {
    ADD_FAILURE() << "the run failed";
    return o;
  }
  size_t n = (values.size() - 3) / 3;
  o.finish.assign(values.begin(), values.begin() + static_cast<long>(n));
  o.start.assign(values.begin() + static_cast<long>(n), values.begin() + static_cast<long>(2 * n));
  o.preemptions.assign(values.begin() + static_cast<long>(2 * n), values.begin() + static_cast<long>(3 * n));
  o.overlaps = values[3 * n];
  o.work_error = values[3 * n + 1];
  o.utilization_error = values[3 * n + 2];
  EXPECT_EQ(o.overlaps, 0) << "two jobs computed on one processor at once";
  EXPECT_NEAR(o.work_error, 0, 1e-6) << "running segments do not add up to the work";
  EXPECT_NEAR(o.utilization_error, 0, 1e-9) << "utilization differs from the trace";
  return o;
}

void expect_times(const std::vector<double>& got, const std::vector<double>& want)
{
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); i++)
    EXPECT_NEAR(got[i], want[i], 1e-6) << "job " << i + 1;
}

// Gang, one partition of 4, Q = 10; A, B, C (run 15, 25, 5 on 4 processors) at 0 take rows 0, 1, 2.
// A 0-10, B 10-20, C 20-25 (ends; its row goes, A's row starts a slice), A 25-30 (ends), B 30-40 and, alone, on
// to 45.
TEST(Gang, ThreeJobsRoundRobinOnOnePartition)
{
  Folder f;
  auto o = run(f, swf(1, 0, 15, 4) + swf(2, 0, 25, 4) + swf(3, 0, 5, 4),
               "workload: {trace: w.swf}\npolicy: {name: gang, params: {partition_size: 4, quantum: 10}}\n");
  expect_times(o.finish, {30, 45, 25});
  expect_times(o.preemptions, {1, 1, 0}); // B is not preempted when its row comes round again alone
}

// Same with a context switch of 1 s on every switch-in: A 1-10 (9 done), B 11-20 (9), C 21-26, A 27-33, B 34-43 and
// on (no switch when its row comes round again alone) to 50.
TEST(Gang, EverySwitchAddsTheContextSwitchCost)
{
  Folder f;
  auto o = run(f, swf(1, 0, 15, 4) + swf(2, 0, 25, 4) + swf(3, 0, 5, 4),
               "workload: {trace: w.swf}\n"
               "policy: {name: gang, params: {partition_size: 4, quantum: 10, context_switch: 1}}\n");
  expect_times(o.finish, {33, 50, 26});
}

// A row alone asks for no wake-up at its slices' ends, but its slices go on: A (run 100 on 4 processors) alone from 0
// with Q = 10; B (run 10) comes at 25 and starts at the grid's boundary 30, not at 25 and not at 35. B 30-40 (ends);
// A had 30 s by 30, its 70 s left end at 110.
TEST(Gang, ALoneRowKeepsTheSliceGridWithoutWakeUps)
{
  Folder f;
  auto o = run(f, swf(1, 0, 100, 4) + swf(2, 25, 10, 4),
               "workload: {trace: w.swf}\npolicy: {name: gang, params: {partition_size: 4, quantum: 10}}\n");
  expect_times(o.start, {0, 30});
  expect_times(o.finish, {110, 40});
}

// Partitions of 2: a job of 3 takes two partitions (all 4 processors are its row's); jobs of 2 share the other row.
// Row 0: J1 (3 procs, run 10); row 1: J2, J3 (2 procs each, run 10). J1 0-10 ends; row 1 runs 10-20.
TEST(Gang, AJobLargerThanAPartitionSpansSeveral)
{
  Folder f;
  auto o = run(f, swf(1, 0, 10, 3) + swf(2, 0, 10, 2) + swf(3, 0, 10, 2),
               "workload: {trace: w.swf}\npolicy: {name: gang, params: {partition_size: 2, quantum: 6}}\n");
  // J1 0-6, row 1 6-12, J1 12-16 (ends), row 1 from 16: 4 s left, ends at 20.
  expect_times(o.finish, {16, 20, 20});
}

// Partitions of 3 on 4 processors: one partition, n3 idle. J1 asks for 4, more than the partition holds: it is left
// out as larger than the machine (workload.oversize_jobs: skip), not an error. J2 (3 procs, run 10) and J3 (2, run 5)
// at 0 take rows 0 and 1: J2 0-10 (ends, its row goes), J3 10-15.
TEST(Gang, AJobLargerThanThePartitionsIsAnOversizeJob)
{
  Folder f;
  auto o = run(f, swf(1, 0, 10, 4) + swf(2, 0, 10, 3) + swf(3, 0, 5, 2),
               "workload: {trace: w.swf}\npolicy: {name: gang, params: {partition_size: 3, quantum: 10}}\n");
  expect_times(o.finish, {10, 15});
  expect_times(o.start, {0, 10});
}

// EQUI on 4 processors: J1 (4 x 10 s of work) alone at 0 gets 4; J2 arrives at 5: 2 each; J1 ends at 15; J2 then
// gets 4 for its last 20 processor-seconds: ends at 20.
TEST(Equi, ArrivalsAndDeparturesResizeJobs)
{
  Folder f;
  auto o = run(f, swf(1, 0, 10, 4) + swf(2, 5, 10, 4),
               "workload: {trace: w.swf, jobs: {shape: malleable}}\npolicy: {name: equi}\n");
  expect_times(o.finish, {15, 20});
  expect_times(o.start, {0, 5});
}

// Moldable jobs keep the count they started with: J1 holds all 4 processors to 10; J2 waits, then gets 4: ends 20.
TEST(Equi, MoldableJobsKeepTheirStartingCount)
{
  Folder f;
  auto o = run(f, swf(1, 0, 10, 4) + swf(2, 5, 10, 4),
               "workload: {trace: w.swf, jobs: {shape: moldable}}\npolicy: {name: equi}\n");
  expect_times(o.start, {0, 10});
  expect_times(o.finish, {10, 20});
}

// With a reallocation cost of 0.5 s per processor moved: J1's shrink 4 -> 2 at 5 stalls 1 s (ends 6 + 20/2 = 16);
// J2 (2 procs from 5: 22 done by 16) grows 2 -> 4 at 16, stalls 1 s, then 18/4: ends at 21.5.
TEST(Equi, ReallocationCostStallsResizedJobs)
{
  Folder f;
  auto o = run(f, swf(1, 0, 10, 4) + swf(2, 5, 10, 4),
               "workload: {trace: w.swf, jobs: {shape: malleable}}\n"
               "policy: {name: equi, params: {reallocation_cost: 0.5}}\n");
  expect_times(o.finish, {16, 21.5});
}

// S(n) = (1 + beta) n / (beta + n) with beta = 2: S(4) = 2, S(2) = 1.5; work = 10 x S(4) = 20. J1: 10 done by 5,
// then 10 / 1.5 on 2 processors: ends at 35/3. J2: 10 done on 2 by then, the rest at S(4) = 2: ends at 50/3.
TEST(Equi, SpeedupModelSetsProgress)
{
  Folder f;
  auto o = run(f, swf(1, 0, 10, 4) + swf(2, 5, 10, 4),
               "workload: {trace: w.swf, jobs: {shape: malleable, speedup: {model: beta, beta_min: 2}}}\n"
               "policy: {name: equi}\n");
  expect_times(o.finish, {35.0 / 3, 50.0 / 3});
}

// Images of 100 MiB (2 processes x 51,200 KB) to the image host over `io` (100 MiB/s): a write or a read alone takes
// 1 s. Gang, Q = 10, A and B (run 15 on 2) at 0: A 0-10; A writes 10-11 while B waits for it, B 11-20; B writes
// 20-21, A waits, reads 21-22, runs 22-27 (ends); B reads 27-28, runs 28-34.
TEST(Images, SavedAndRestoredOverALink)
{
  Folder f;
  auto o = run(f, swf(1, 0, 15, 2, 51200) + swf(2, 0, 15, 2, 51200),
               "workload: {trace: w.swf}\npolicy: {name: gang, params: {partition_size: 4, quantum: 10}}\n"
               "simulation: {images: {store: host, host: store}}\n");
  expect_times(o.finish, {27, 34});
}

// The same with each node's own disk (50 MiB/s; each process writes or reads its 50 MiB share): also 1 s each.
TEST(Images, SavedAndRestoredOnLocalDisks)
{
  Folder f;
  auto o = run(f, swf(1, 0, 15, 2, 51200) + swf(2, 0, 15, 2, 51200),
               "workload: {trace: w.swf}\npolicy: {name: gang, params: {partition_size: 4, quantum: 10}}\n"
               "simulation: {images: {store: local-disk}}\n");
  expect_times(o.finish, {27, 34});
}

// Disks of unequal speed: n1's is half as fast (25 MiB/s), so each job's image moves in 1 s on n0 and 2 s on n1,
// and a stage's two transfers end one second apart (the scheduler used to spin at the first one's end, time
// stopped). A 0-10 (5 s left); writes 10-12 while B waits; B 12-20 (7 s left); writes 20-22; A reads 22-24, runs
// 24-29 (ends; B's row starts its slice); B reads 29-31, runs 31-38.
TEST(Images, TransfersOfOneStageEndingAtDifferentTimes)
{
  std::string platform = kPlatform;
  const std::string fast = R"(<disk id="d1" read_bw="52428800Bps" write_bw="52428800Bps"/>)";
  platform.replace(platform.find(fast), fast.size(), R"(<disk id="d1" read_bw="26214400Bps" write_bw="26214400Bps"/>)");
  Folder f;
  auto o = run(f, swf(1, 0, 15, 2, 51200) + swf(2, 0, 15, 2, 51200),
               "workload: {trace: w.swf}\npolicy: {name: gang, params: {partition_size: 4, quantum: 10}}\n"
               "simulation: {images: {store: local-disk}}\n",
               platform);
  expect_times(o.finish, {29, 38});
}

// Two images at once share `io`: 2 s each. Partitions of 2: row 0 = A, B; row 1 = C, D (run 15 on 2 each).
// A, B 0-10; write 10-12 while C, D wait; C, D 12-20; write 20-22; A, B read 22-24, run 24-29 (end); C, D read
// 29-31, run 31-38.
TEST(Images, TwoImagesOnOneLinkTakeTwiceAsLong)
{
  Folder f;
  auto o = run(f, swf(1, 0, 15, 2, 51200) + swf(2, 0, 15, 2, 51200) + swf(3, 0, 15, 2, 51200) + swf(4, 0, 15, 2, 51200),
               "workload: {trace: w.swf}\npolicy: {name: gang, params: {partition_size: 2, quantum: 10}}\n"
               "simulation: {images: {store: host, host: store}}\n");
  expect_times(o.finish, {29, 29, 38, 38});
}

// A closed population of 3: every finished job is replaced at once, so from time 0 until the workload runs out,
// exactly 3 jobs are in the system at every instant.
TEST(Closed, KeepsThePopulationConstant)
{
  Folder f;
  std::string w;
  for (int i = 1; i <= 20; i++)
    w += swf(i, 1000 * i, 3 + (i * 7) % 11, 1 + i % 4); // submit times are ignored in a closed population
  auto o = run(f, w, "workload: {trace: w.swf, closed: {jobs: 3}, jobs: {shape: malleable}}\npolicy: {name: equi}\n");
  ASSERT_EQ(o.finish.size(), 20U);
  std::vector<double> instants(o.finish.begin(), o.finish.end());
  std::sort(instants.begin(), instants.end());
  // The last job was released at the 17th finish; check every instant up to then.
  for (size_t k = 0; k < 17; k++) {
    double t = instants[k];
    int in_system = 0;
    for (size_t j = 0; j < 20; j++) {
      // submitted at or before t (the start is at or after the submission), not finished by t
      double submit = j < 3 ? 0 : instants[j - 3];
      if (submit <= t + 1e-9 && o.finish[j] > t + 1e-9) in_system++;
    }
    EXPECT_EQ(in_system, 3) << "at t = " << t;
  }
}

/* A policy that runs its one job on processor 0 at its first plan and then answers Plan::same_as_last every second;
 * with `bad`, its second answer also names a job (a malformed plan). */
class SameAsLast : public TimeSharingPolicy {
 public:
  explicit SameAsLast(bool bad) : bad_(bad) {}
  Plan plan(const SystemView& view) override
  {
    Plan p;
    p.until = view.now + 1;
    if (view.jobs.empty()) return p;
    const JobId id = view.jobs.front()->job->id;
    if (plans_++ == 0) {
      ResourceSet first(view.machine->resource_count());
      first.set(0);
      p.run[id] = first;
      return p;
    }
    p.same_as_last = true;
    if (bad_) p.share[id] = 1;
    return p;
  }

 private:
  bool bad_;
  long plans_ = 0;
};

PolicyRegistration same_as_last{{"test-same-as-last",
                                 "runs its job once, then the last plan again (tests only)",
                                 {},
                                 nullptr,
                                 [](const PolicyEnv&) { return std::make_unique<SameAsLast>(false); }}};
PolicyRegistration same_as_last_bad{
    {"test-same-as-last-bad", "the last plan again, with a job (tests only)", {}, nullptr, [](const PolicyEnv&) {
       return std::make_unique<SameAsLast>(true);
     }}};

// The driver applies nothing for Plan::same_as_last: a job of 5 s started at 0 runs on to 5 although the policy is
// asked every second (instants 0, 1, 2, 3, 4 and its end at 5), and the run counts one decision, its start. A
// same_as_last plan that names a job is refused as one line.
TEST(TimeSharingDriver, TheLastPlanAgainAppliesNothing)
{
  Folder f;
  f.write("p.xml", kPlatform);
  f.write("d.xml", "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                   "<platform version=\"4.1\"><actor host=\"frontend\" function=\"jobsched_scheduler\"/>"
                   "<actor host=\"frontend\" function=\"jobsched_submitter\"/></platform>\n");
  f.write("w.swf", swf(1, 0, 5, 1));
  const std::string head = "platform: p.xml\ndeployment: d.xml\nworkload: {trace: w.swf}\n";
  auto file = f.write("s.yaml", head + "policy: {name: test-same-as-last}\n");
  const std::vector<double> got = in_child([&] {
    RunReport r = jobsched::testing::run_quietly(file, f.dir / "out");
    return std::vector<double>{r.states.front().start_time, r.states.front().finish_time,
                               static_cast<double>(r.performance.instants),
                               static_cast<double>(r.performance.decisions)};
  });
  ASSERT_EQ(got.size(), 4U);
  EXPECT_NEAR(got[0], 0, 1e-9);
  EXPECT_NEAR(got[1], 5, 1e-6);
  EXPECT_EQ(got[2], 6);
  EXPECT_EQ(got[3], 1);

  auto bad = f.write("bad.yaml", head + "policy: {name: test-same-as-last-bad}\n");
  const std::vector<double> refused = in_child([&] {
    try {
      jobsched::testing::run_quietly(bad, f.dir / "bad-out");
    } catch (const PolicyError& e) {
      return std::vector<double>{std::string(e.what()).find("same_as_last") != std::string::npos ? 1.0 : 0.0};
    }
    return std::vector<double>{};
  });
  EXPECT_EQ(refused, std::vector<double>{1.0});
}

/* A policy that, once all its jobs are in the system, runs job i (submission order) with Plan::share spec[i].share on
 * the processors spec[i].first..spec[i].last, then answers the last plan again: what the driver's share check makes of
 * groups of jobs linked by shared processors. */
struct FixedShare {
  int first;
  int last;
  double share;
};
class FixedShares : public TimeSharingPolicy {
 public:
  explicit FixedShares(std::vector<FixedShare> spec) : spec_(std::move(spec)) {}
  bool runs_parallelism_profiles() const override { return true; }
  Plan plan(const SystemView& view) override
  {
    Plan p;
    if (sent_) {
      p.same_as_last = true;
      return p;
    }
    if (view.jobs.size() < spec_.size()) return p;
    for (size_t i = 0; i < spec_.size(); i++) {
      const JobId id = view.jobs[i]->job->id;
      if (spec_[i].first >= 0) // (first -1: a share for a job the plan does not run)
        p.run.emplace(
            id, ResourceSet::range(view.machine->resource_count(), spec_[i].first, spec_[i].last - spec_[i].first + 1));
      p.share[id] = spec_[i].share;
    }
    sent_ = true;
    return p;
  }

 private:
  std::vector<FixedShare> spec_;
  bool sent_ = false;
};

PolicyInfo fixed_shares(const char* name, std::vector<FixedShare> spec)
{
  return {name, "fixed shares (tests only)", {}, nullptr, [spec](const PolicyEnv&) {
            return std::make_unique<FixedShares>(spec);
          }};
}
// On the 4 processors: a chain 1 - 2 - 3 linked by processors 1 and 2 holding 1.5 + 1 + 1.5 = 4 on 4 processors, and
// the same with 1.6 for job 3 (4.1 on 4); two groups, {1, 2} on processors 0-1 (2 on 2) and {3, 4} on 2-3 (2.2 on 2).
PolicyRegistration chain_fits{fixed_shares("test-shares-chain-fits", {{0, 1, 1.5}, {1, 2, 1}, {2, 3, 1.5}})};
PolicyRegistration chain_over{fixed_shares("test-shares-chain-over", {{0, 1, 1.5}, {1, 2, 1}, {2, 3, 1.6}})};
PolicyRegistration second_over{
    fixed_shares("test-shares-second-group-over", {{0, 1, 1}, {1, 1, 1}, {2, 3, 1.2}, {3, 3, 1}})};
// On 200 processors, sets across the words' edges (63 and 64, 127 and 128): 0-63 (64), 63-127 (65), 127-199 (73)
// holding 63.5 + 65 + 71.5 = 200 on 200, and with 72.5 for the third, 201.
PolicyRegistration words_fit{fixed_shares("test-shares-words-fit", {{0, 63, 63.5}, {63, 127, 65}, {127, 199, 71.5}})};
PolicyRegistration words_over{fixed_shares("test-shares-words-over", {{0, 63, 63.5}, {63, 127, 65}, {127, 199, 72.5}})};
// Sets not laid out in id order along the processors (job 1 on 2-3, job 2 on 0-1, job 3 on 1-2): one group of the
// three on 4 processors, holding 1.5 + 1.5 + 1 = 4, or 4.1 with 1.1 for job 3.
PolicyRegistration unordered_fits{fixed_shares("test-shares-unordered-fits", {{2, 3, 1.5}, {0, 1, 1.5}, {1, 2, 1}})};
PolicyRegistration unordered_over{fixed_shares("test-shares-unordered-over", {{2, 3, 1.5}, {0, 1, 1.5}, {1, 2, 1.1}})};
// A one-processor set linking its neighbours (job 1 on 0-1, job 2 on 1, job 3 on 1-3): one group of the three on 4
// processors holding 1 + 0.5 + 2.6 = 4.1, laid out in id order (the walk) or not (the general path); were job 3 linked
// to job 2 alone, its group would hold 3.1 on processors 1-3.
PolicyRegistration single_link_over{
    fixed_shares("test-shares-single-link-over", {{0, 1, 1}, {1, 1, 0.5}, {1, 3, 2.6}})};
PolicyRegistration single_link_unordered_over{
    fixed_shares("test-shares-single-link-unordered-over", {{1, 3, 2.6}, {0, 1, 1}, {1, 1, 0.5}})};
// A share for job 2, which the plan does not run, between two jobs that run: refused naming job 2, unless job 1's own
// share is refused first (2.5 on its 2 processors), as the shares are checked in id order.
PolicyRegistration share_not_run{fixed_shares("test-shares-not-run", {{0, 1, 1.5}, {-1, -1, 1}, {2, 3, 1.5}})};
PolicyRegistration share_over_before{fixed_shares("test-shares-over-before", {{0, 1, 2.5}, {-1, -1, 1}, {2, 3, 1.5}})};

/* Runs its job on processors 0-1 with its image loaded at dispatch (Plan::image_bytes) until 0.5 s, then on 0-3. */
class GrowWhileLoading : public TimeSharingPolicy {
 public:
  Plan plan(const SystemView& view) override
  {
    Plan p;
    if (view.jobs.empty()) return p;
    const JobId id = view.jobs.front()->job->id;
    const bool first = plans_++ == 0;
    p.run.emplace(id, ResourceSet::range(view.machine->resource_count(), 0, first ? 2 : 4));
    p.image_bytes[id] = 104857600;
    if (first) p.until = view.now + 0.5;
    return p;
  }

 private:
  long plans_ = 0;
};
PolicyRegistration grow_while_loading{{"test-grow-while-loading",
                                       "grows its malleable job while its image loads (tests only)",
                                       {},
                                       nullptr,
                                       [](const PolicyEnv&) { return std::make_unique<GrowWhileLoading>(); }}};

/* Runs every job on a processor of its own, planning at each whole second with a lookahead of the next second, and
 * extends it by one second at a time (TimeSharingPolicy::extend_lookahead); records each plan()'s instant (0, t) and
 * each extension's (1, t) in extension_log. */
std::vector<double> extension_log;
class SecondByExtension : public TimeSharingPolicy {
 public:
  Plan plan(const SystemView& view) override
  {
    extension_log.insert(extension_log.end(), {0, view.now});
    Plan p;
    sets_.clear();
    int next = 0;
    for (const JobState* s : view.jobs)
      p.run.emplace(s->job->id, ResourceSet::range(view.machine->resource_count(), next++, 1));
    p.until = std::floor(view.now + 1e-9) + 1;
    if (p.run.empty()) return p;
    p.repeats = true;
    auto ahead = std::make_shared<Lookahead>();
    ahead->phases.resize(2);
    for (const auto& [id, where] : p.run) {
      sets_.push_back(where);
      ahead->phases[0].emplace_back(id, &sets_.back());
    }
    ahead->phases[1] = ahead->phases[0];
    ahead->instants = {p.until, p.until + 1};
    p.lookahead = ahead;
    last_ = ahead;
    return p;
  }
  std::shared_ptr<const Lookahead> extend_lookahead(double now, const ResourceSet& /*up*/) override
  {
    extension_log.insert(extension_log.end(), {1, now});
    auto more = std::make_shared<Lookahead>();
    more->phases = {last_->phases.back(), last_->phases.back()};
    more->instants = {now, now + 1};
    last_ = more;
    return more;
  }

 private:
  std::deque<ResourceSet> sets_; // the phases' sets, kept until the next plan()
  std::shared_ptr<const Lookahead> last_;
};
PolicyRegistration second_by_extension{{"test-second-by-extension",
                                        "every job on its own processor, extended a second at a time (tests only)",
                                        {},
                                        nullptr,
                                        [](const PolicyEnv&) { return std::make_unique<SecondByExtension>(); }}};

/* A job of processes (Plan::processes) on processors 0 and 1, whose plan runs it on processors 0 and `second`. */
class PlacedProcesses : public TimeSharingPolicy {
 public:
  explicit PlacedProcesses(int second) : second_(second) {}
  bool places_processes() const override { return true; }
  Plan plan(const SystemView& view) override
  {
    Plan p;
    if (view.jobs.empty()) return p;
    const JobId id = view.jobs[0]->job->id;
    p.processes[id] = {0, 1};
    ResourceSet run(view.machine->resource_count());
    run.set(0);
    run.set(second_);
    p.run.emplace(id, run);
    return p;
  }

 private:
  int second_;
};
PolicyInfo placed_processes(const char* name, int second)
{
  return {name, "placed processes (tests only)", {}, nullptr, [second](const PolicyEnv&) {
            return std::make_unique<PlacedProcesses>(second);
          }};
}
PolicyRegistration processes_where_placed{placed_processes("test-processes-where-placed", 1)};
PolicyRegistration processes_elsewhere{placed_processes("test-processes-elsewhere", 2)};

/* Runs policy `name` on `platform` (4 processors: kPlatform; else a cluster of that many hosts) with the jobs
 * (size, run time) submitted at 0: the finish times, or the policy error's text. */
std::pair<std::vector<double>, std::string> run_fixed_shares(const std::string& name, int hosts,
                                                             const std::vector<std::pair<int, double>>& jobs)
{
  Folder f;
  std::string head;
  if (hosts == 4) {
    f.write("p.xml", kPlatform);
    f.write("d.xml", "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                     "<platform version=\"4.1\"><actor host=\"frontend\" function=\"jobsched_scheduler\"/>"
                     "<actor host=\"frontend\" function=\"jobsched_submitter\"/></platform>\n");
    head = "platform: p.xml\ndeployment: d.xml\n";
  } else {
    f.write("p.xml", "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                     "<platform version=\"4.1\"><cluster id=\"c\" prefix=\"node-\" suffix=\"\" radical=\"0-" +
                         std::to_string(hosts - 1) +
                         "\" speed=\"1Gf\" bw=\"1GBps\" lat=\"10us\" bb_bw=\"100GBps\" bb_lat=\"0us\"/></platform>\n");
    head = "platform: p.xml\n";
  }
  std::string w;
  for (size_t i = 0; i < jobs.size(); i++)
    w += swf(static_cast<int>(i + 1), 0, jobs[i].second, jobs[i].first);
  f.write("w.swf", w);
  auto file = f.write("s.yaml", head + "workload: {trace: w.swf}\npolicy: {name: " + name + "}\n");
  // From the child: 0 and the finish times, or 1 and the error's text a character per value.
  const std::vector<double> got = in_child([&] {
    try {
      RunReport r = jobsched::testing::run_quietly(file, f.dir / "out");
      std::vector<double> out{0};
      for (const auto& s : r.states)
        out.push_back(s.finish_time);
      return out;
    } catch (const PolicyError& e) {
      const std::string text = e.what();
      std::vector<double> out{1};
      out.insert(out.end(), text.begin(), text.end());
      return out;
    }
  });
  if (got.empty()) return {};
  if (got.front() == 0) return {std::vector<double>(got.begin() + 1, got.end()), ""};
  return {{}, std::string(got.begin() + 1, got.end())};
}

// A group of jobs linked by shared processors may hold as many shares as it has processors, no more; the message names
// the group's first job (its lowest number) and what it holds. Each job computes at its share of its parallelism
// (its size): job 1, size 2, 3 s at 1.5 processors ends at 3 x 2 / 1.5 = 4; job 2, size 1, at min(1, 1) at 3.
TEST(TimeSharingDriver, SharedProcessorsLinkJobsIntoGroupsThatFitTheirProcessors)
{
  const auto fits = run_fixed_shares("test-shares-chain-fits", 4, {{2, 3}, {1, 3}, {2, 3}});
  EXPECT_EQ(fits.second, "");
  ASSERT_EQ(fits.first.size(), 3U);
  EXPECT_NEAR(fits.first[0], 4, 1e-6);
  EXPECT_NEAR(fits.first[1], 3, 1e-6);
  EXPECT_NEAR(fits.first[2], 4, 1e-6);
  EXPECT_EQ(run_fixed_shares("test-shares-chain-over", 4, {{2, 3}, {1, 3}, {2, 3}}).second,
            "plan: job 1 and the jobs time-sharing processors with it hold 4.100000 processors' worth on 4.000000");
  EXPECT_EQ(run_fixed_shares("test-shares-second-group-over", 4, {{2, 3}, {1, 3}, {2, 3}, {1, 3}}).second,
            "plan: job 3 and the jobs time-sharing processors with it hold 2.200000 processors' worth on 2.000000");
  // 200 processors: job 1 (size 64) at 63.5 ends at 3 x 64 / 63.5; job 3 (size 73) at 71.5 at 3 x 73 / 71.5.
  const auto words = run_fixed_shares("test-shares-words-fit", 200, {{64, 3}, {65, 3}, {73, 3}});
  EXPECT_EQ(words.second, "");
  ASSERT_EQ(words.first.size(), 3U);
  EXPECT_NEAR(words.first[0], 3.0 * 64 / 63.5, 1e-6);
  EXPECT_NEAR(words.first[1], 3, 1e-6);
  EXPECT_NEAR(words.first[2], 3.0 * 73 / 71.5, 1e-6);
  EXPECT_EQ(run_fixed_shares("test-shares-words-over", 200, {{64, 3}, {65, 3}, {73, 3}}).second,
            "plan: job 1 and the jobs time-sharing processors with it hold 201.000000 processors' worth on 200.000000");
}

// Sets laid out along the processors in id order (the tests above) are grouped by a walk along them; the others by
// the processors they hold in common: here the three jobs make one group whichever order their sets come in. Job 1
// (size 2) at 1.5 ends at 3 x 2 / 1.5 = 4, job 2 likewise, job 3 (size 2) at 1 at 6.
TEST(TimeSharingDriver, SharesLaidOutInAnyOrderMakeTheSameGroups)
{
  const auto fits = run_fixed_shares("test-shares-unordered-fits", 4, {{2, 3}, {2, 3}, {2, 3}});
  EXPECT_EQ(fits.second, "");
  ASSERT_EQ(fits.first.size(), 3U);
  EXPECT_NEAR(fits.first[0], 4, 1e-6);
  EXPECT_NEAR(fits.first[1], 4, 1e-6);
  EXPECT_NEAR(fits.first[2], 6, 1e-6);
  EXPECT_EQ(run_fixed_shares("test-shares-unordered-over", 4, {{2, 3}, {2, 3}, {2, 3}}).second,
            "plan: job 1 and the jobs time-sharing processors with it hold 4.100000 processors' worth on 4.000000");
  for (const char* name : {"test-shares-single-link-over", "test-shares-single-link-unordered-over"})
    EXPECT_EQ(run_fixed_shares(name, 4, {{3, 3}, {1, 3}, {3, 3}}).second,
              "plan: job 1 and the jobs time-sharing processors with it hold 4.100000 processors' worth on 4.000000")
        << name;
}

// Every share is a running job's, checked in id order (check() finds each running job's share, check_shares() the
// share of a job that does not run): job 2's share without a set is refused, after job 1's share was checked.
TEST(TimeSharingDriver, ASharedJobMustRunAndSharesAreCheckedInIdOrder)
{
  EXPECT_EQ(run_fixed_shares("test-shares-not-run", 4, {{2, 3}, {1, 3}, {2, 3}}).second,
            "plan: job 2 has a share but does not run");
  EXPECT_EQ(run_fixed_shares("test-shares-over-before", 4, {{2, 3}, {1, 3}, {2, 3}}).second,
            "plan: job 1: a share of 2.500000 processors on 0-1");
}

// A plan runs a job of processes only on processors where it placed them: job 1 (2 processes of 3 s each) on 0 and 1
// ends at 3; run on 0 and 2, with its processes on 0 and 1, the plan is refused naming processor 2.
TEST(TimeSharingDriver, ProcessesRunOnlyWhereThePlanPlacedThem)
{
  const auto placed = run_fixed_shares("test-processes-where-placed", 4, {{2, 3}});
  EXPECT_EQ(placed.second, "");
  ASSERT_EQ(placed.first.size(), 1U);
  EXPECT_NEAR(placed.first[0], 3, 1e-6);
  EXPECT_EQ(run_fixed_shares("test-processes-elsewhere", 4, {{2, 3}}).second,
            "plan: job 1 runs on processor 2 where it has no process");
}

} // namespace

// A malleable job given more processors while its image still loads is moved, not resized (the runtime resizes only a
// job that computes): its 100 MiB image (4 x 25,600 KB) loads over `io` (100 MiB/s) from 0 on n0-n1; at 0.5 the plan
// gives it n0-n3, so the load is dropped and starts over there, 0.5-1.5 (the plan lists its image: read at every
// dispatch); then its 40 processor-seconds on 4 take 10 s: it ends at 11.5, having started at 0. Before, the run
// stopped with an internal error ("cannot be resized while it prepares").
TEST(TimeSharingDriver, AMalleableJobGrownWhileItsImageLoadsMovesThere)
{
  Folder f;
  auto o = run(f, swf(1, 0, 10, 4, 25600),
               "workload: {trace: w.swf, jobs: {shape: malleable}}\npolicy: {name: test-grow-while-loading}\n"
               "simulation: {images: {store: host, host: store}}\n");
  expect_times(o.start, {0});
  expect_times(o.finish, {11.5});
}

// The driver extends a lookahead only when the policy's wake-up after its last phase comes before anything else:
// never when a job ends first. Jobs of 2.5 s and 6 s, each on its own processor from 0: plan() at 0 (lookahead to 1
// and 2), the extension at 2 (to 3), none at 3 (job 1 ends at 2.5, and plan() is asked there); then plan() at 2.5
// (lookahead to 3 and 4), extensions at 4 and 5 (to 6); job 2 ends at 6, where plan() is asked and the run ends.
TEST(TimeSharingDriver, ALookaheadIsExtendedOnlyWhenNothingComesFirst)
{
  Folder f;
  f.write("p.xml", kPlatform);
  f.write("d.xml", "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                   "<platform version=\"4.1\"><actor host=\"frontend\" function=\"jobsched_scheduler\"/>"
                   "<actor host=\"frontend\" function=\"jobsched_submitter\"/></platform>\n");
  f.write("w.swf", swf(1, 0, 2.5, 1) + swf(2, 0, 6, 1));
  auto file = f.write("s.yaml", "platform: p.xml\ndeployment: d.xml\nworkload: {trace: w.swf}\n"
                                "policy: {name: test-second-by-extension}\n");
  const std::vector<double> got = in_child([&] {
    extension_log.clear();
    jobsched::testing::run_quietly(file, f.dir / "out");
    return extension_log;
  });
  const std::vector<double> want{0, 0, 1, 2, 0, 2.5, 1, 4, 1, 5, 0, 6};
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); i++)
    EXPECT_NEAR(got[i], want[i], 1e-9) << "entry " << i;
}
