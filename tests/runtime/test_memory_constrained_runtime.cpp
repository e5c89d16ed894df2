/* The dynamic memory-constrained scheduler (plugin/policies/time_sharing/memory_constrained.cpp; McCann & Zahorjan
 * 1994, section 2.3) on SimGrid, on tiny workloads whose completion times were computed by hand: M_j from the jobs'
 * memory, one quantum schedule per arrival or departure, each job computing on its piece's processors for its share
 * of every quantum. Each run's trace is checked: no processor computes for two jobs at once, and each job's running
 * segments add up to its work. Every simulation runs in its own process. */
#include "run/simulation.hpp"
#include "support/child_process.hpp"
#include "support/four_node_machine.hpp"
#include "support/quiet_run.hpp"
#include "support/scratch_folder.hpp"
#include "support/trace_checks.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>

using namespace jobsched;
using jobsched::testing::four_node_platform;
using jobsched::testing::in_child;
using jobsched::testing::swf_record;

namespace {

/* The scenario of these tests: kPlatform, `workload` as a trace of jobs shaped by `jobs` (the workload.jobs mapping),
 * `policy`. */
std::filesystem::path write_scenario(const jobsched::testing::ScratchFolder& f, const std::string& workload,
                                     const std::string& policy, const std::string& jobs = "{shape: malleable}")
{
  f.write("p.xml", four_node_platform());
  f.write("w.swf", workload);
  return f.write("s.yaml", "platform: p.xml\nworkload: {trace: w.swf, jobs: " + jobs + "}\npolicy: " + policy + "\n");
}

/* The jobs' finish times, in workload order. */
std::vector<double> finish_times(const RunReport& r)
{
  std::vector<double> out;
  for (const auto& s : r.states)
    out.push_back(s.finish_time);
  return out;
}

/* Finish times in workload order, then the number of overlapping segments and the largest work error. */
std::vector<double> run(const jobsched::testing::ScratchFolder& f, const std::string& workload,
                        const std::string& policy)
{
  auto file = write_scenario(f, workload, policy);
  return in_child([&] {
    RunReport r = jobsched::testing::run_quietly(file, f.dir / "out");
    std::vector<double> out = finish_times(r);
    double overlaps = jobsched::testing::computing_overlaps(r.trace);
    std::map<JobId, double> done;
    for (const auto& t : r.trace)
      if (t.status == JobStatus::running) done[t.job] += t.processors.count() * (t.end - t.start); // linear speedup
    double work_error = 0;
    for (const auto& j : r.workload->jobs)
      work_error = std::max(work_error, std::fabs(done[j.id] - j.work()));
    out.push_back(overlaps);
    out.push_back(work_error);
    return out;
  });
}

void expect_finishes(const std::vector<double>& got, const std::vector<double>& want)
{
  ASSERT_EQ(got.size(), want.size() + 2);
  for (size_t i = 0; i < want.size(); i++)
    EXPECT_NEAR(got[i], want[i], 1e-5) << "job " << i + 1;
  EXPECT_EQ(got[want.size()], 0) << "two jobs computed on one processor at once";
  EXPECT_NEAR(got[want.size() + 1], 0, 1e-5) << "running segments do not add up to the work";
}

/* Three jobs of 40 processor-seconds (10 s on 4) at time 0 on N = 4 nodes of 1 MB: job 1 has 4 x 512 KB = 2 MB, so
 * M = 2; jobs 2 and 3 have 1 MB, M = 1. */
std::string three_jobs()
{
  return swf_record(1, 0, 10, 4, 512) + swf_record(2, 0, 10, 4, 256) + swf_record(3, 0, 10, 4, 256);
}

} // namespace

/* OPT-EPOCH(1): 4 = 2 + 1 + 1 holds all three in one epoch for the whole quantum: job 1 runs on 2 nodes (ends at
 * 40 / 2 = 20), jobs 2 and 3 on 1 each (20 done at 20). Job 1's departure recomputes the schedule: 2 + 2, so jobs 2
 * and 3 finish their last 20 at rate 2: at 30. */
TEST(MemoryConstrainedRuntime, OptEpochPacksOneEpochThenRepartitions)
{
  jobsched::testing::ScratchFolder f;
  auto got = run(f, three_jobs(),
                 "{name: memory-constrained, params: {policy: opt-epoch, k: 1, quantum: 10, "
                 "min_nodes: memory, node_memory_mb: 1}}");
  expect_finishes(got, {20, 30, 30});
}

/* EQUI-EPOCH: 3 does not divide 4, so epoch 1 holds the two smallest (jobs 2 and 3, 2 nodes each, 2/3 of the quantum)
 * and epoch 2 job 1 (4 nodes, 1/3): each job gets 40/3 processor-seconds per 10-s quantum. Jobs 2 and 3 end in the
 * third quantum's first epoch, at 20 + 20/3 = 80/3; job 1 has done 80/3 by then and runs alone on 4 nodes: its last
 * 40/3 take 10/3 s, to 30. */
TEST(MemoryConstrainedRuntime, EquiEpochTimeSlicesTwoEpochs)
{
  jobsched::testing::ScratchFolder f;
  auto got = run(f, three_jobs(),
                 "{name: memory-constrained, params: {policy: equi-epoch, quantum: 10, "
                 "min_nodes: memory, node_memory_mb: 1}}");
  expect_finishes(got, {30, 80.0 / 3, 80.0 / 3});
}

/* BUDDY with J = 2 (a power of two), M = [2, 1] on N = 4, share 2 node-quanta each: job 1 (M = 2) gets width 2 for the
 * whole quantum, then job 2 the other 2 nodes (min-seg at height 0, forced width 2): both at rate 2, both end at 20.
 * Job 3 arrives at 20 (alone: 4 nodes) and ends at 30. */
TEST(MemoryConstrainedRuntime, BuddySplitsTheMachine)
{
  jobsched::testing::ScratchFolder f;
  auto got =
      run(f, swf_record(1, 0, 10, 4, 512) + swf_record(2, 0, 10, 4, 256) + swf_record(3, 20, 10, 4, 256),
          "{name: memory-constrained, params: {policy: buddy, quantum: 10, min_nodes: memory, node_memory_mb: 1}}");
  expect_finishes(got, {20, 20, 30});
}

namespace {

/* Finish times in workload order of an SWF workload under `jobs` (the workload.jobs mapping) and `policy`. */
std::vector<double> finishes(const jobsched::testing::ScratchFolder& f, const std::string& workload,
                             const std::string& jobs, const std::string& policy)
{
  auto file = write_scenario(f, workload, policy, jobs);
  return in_child([&] { return finish_times(jobsched::testing::run_quietly(file, f.dir / "out")); });
}

/* Section 5.2's static jobs against dynamic ones, by hand. N = 4 nodes of 1 MB; job 1: 30 s of work at one node, 3 MB
 * (M = 3); job 2: 10 s, 1 MB (M = 1); beta = 1, so S(n) = 2n / (1 + n): S(1) = 1, S(3) = 1.5, S(4) = 1.6.
 * HEURISTIC-EPOCH(2) puts both in one epoch for the whole quantum, widths 3 and 1. Job 2 runs at S(1) = 1 and ends at
 * 10; job 1 then has the machine (width 4).
 *   dynamic: job 1 runs at 1.5 until 10 (15 done), then its last 15 at 1.6: ends at 10 + 9.375 = 19.375.
 *   static, N = 4 threads: on 3 nodes one node holds ceil(4/3) = 2 threads, S_static(3) = 1.5 x 4 / 6 = 1: 10 done at
 *     10; 4 divides 4, S_static(4) = 1.6: 20 / 1.6 = 12.5 more, ends at 22.5.
 *   static, N = 2 threads: S_static(3) = 1.5 x 2 / 3 = 1 (one node idle), S_static(4) = 1.6 x 2 / 4 = 0.8: 20 / 0.8 =
 *     25 more, ends at 35. */
TEST(MemoryConstrainedRuntime, StaticJobsLoseOnWidthsThatDoNotDivideTheirThreads)
{
  const std::string workload = swf_record(1, 0, 30, 1, 3072) + swf_record(2, 0, 10, 1, 1024);
  const std::string policy =
      "{name: memory-constrained, params: {policy: heuristic-epoch, k: 2, quantum: 10, min_nodes: memory, "
      "node_memory_mb: 1}}";
  const std::string shape = "{shape: malleable, max_size: 4, speedup: {model: ";
  {
    jobsched::testing::ScratchFolder f;
    auto got = finishes(f, workload, shape + "beta, beta_min: 1, beta_max: 1}}", policy);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_NEAR(got[0], 19.375, 1e-6);
    EXPECT_NEAR(got[1], 10, 1e-6);
  }
  {
    jobsched::testing::ScratchFolder f;
    auto got = finishes(f, workload, shape + "beta-static, beta_min: 1, beta_max: 1}}", policy);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_NEAR(got[0], 22.5, 1e-6);
    EXPECT_NEAR(got[1], 10, 1e-6);
  }
  {
    jobsched::testing::ScratchFolder f;
    auto got = finishes(f, workload, shape + "beta-static, beta_min: 1, beta_max: 1, threads: 2}}", policy);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_NEAR(got[0], 35, 1e-6);
    EXPECT_NEAR(got[1], 10, 1e-6);
  }
}

/* The section 5.2 workload end to end on the 128-node multicomputer: a closed population of J = 8 generated jobs with
 * two-class demands and Table 3's M_j, static speedups, under OPT-EPOCH(1). Checked on the trace, against quantities
 * computed here independently: every running segment is at least M_j wide (M_j read back from the job's memory), the
 * work each job receives, integrated with the paper's S_static over its segments, is its service demand, no
 * processor computes for two jobs at once, and exactly J jobs are in the system until the workload runs out. */
TEST(MemoryConstrainedRuntime, SectionFiveTwoWorkloadRunsAsSpecified)
{
  jobsched::testing::ScratchFolder f;
  auto file = f.write("s.yaml", std::string("platform: ") + SOURCE_DIR +
                                    "/platforms/multicomputer-128.xml\n"
                                    "workload:\n"
                                    "  generator:\n"
                                    "    jobs: 120\n"
                                    "    run_time_distribution: two-class\n"
                                    "    time_resolution: 0\n"
                                    "    min_nodes: {load_percent: 100, node_memory_mb: 32}\n"
                                    "  closed: {jobs: 8}\n"
                                    "  jobs:\n"
                                    "    shape: malleable\n"
                                    "    max_size: 128\n"
                                    "    speedup: {model: beta-static, beta_min: 30, beta_max: 300}\n"
                                    "policy:\n"
                                    "  name: memory-constrained\n"
                                    "  params: {policy: opt-epoch, k: 1, quantum: 10, min_nodes: memory, "
                                    "node_memory_mb: 32}\n"
                                    "simulation: {seed: 3}\n");
  auto got = in_child([&] {
    RunReport r = jobsched::testing::run_quietly(file, f.dir / "out");
    std::map<JobId, const WorkloadJob*> job;
    for (const auto& j : r.workload->jobs)
      job[j.id] = &j;
    double narrow = 0, overlaps = 0, work_error = 0, population_error = 0, mins_seen = 0;
    std::map<JobId, double> done;
    std::map<int, int> mins;
    for (const auto& t : r.trace) {
      if (t.status != JobStatus::running) continue;
      const WorkloadJob& j = *job.at(t.job);
      const int m = static_cast<int>(std::lround(j.memory_kb / (32 * 1024.0)));
      mins[m]++;
      const int n = static_cast<int>(t.processors.count());
      if (n < m) narrow++;
      // The paper's S_static, written out: floor/ceil/mod of N = 128 threads over n nodes.
      const double s = (1 + j.speedup.beta) * n / (j.speedup.beta + n) *
                       (static_cast<double>(128 / n) / ((128 + n - 1) / n) * (n - 128 % n) + 128 % n) / n;
      done[t.job] += s * (t.end - t.start);
    }
    for (const auto& j : r.workload->jobs)
      work_error = std::max(work_error, std::fabs(done[j.id] - j.run_time) / j.run_time);
    overlaps = jobsched::testing::computing_overlaps(r.trace);
    // Jobs in the system just after each submission, until the last submission.
    double last_submission = 0;
    for (const auto& s : r.states)
      last_submission = std::max(last_submission, s.job->submit_time);
    for (const auto& s : r.states) {
      const double t = s.job->submit_time;
      int present = 0;
      for (const auto& o : r.states)
        present += o.job->submit_time <= t + 1e-9 && o.finish_time > t + 1e-9;
      if (present != 8) population_error++;
    }
    mins_seen = static_cast<double>(mins.size());
    return std::vector<double>{narrow,           overlaps,  work_error,
                               population_error, mins_seen, static_cast<double>(r.states.size())};
  });
  ASSERT_EQ(got.size(), 6u);
  EXPECT_EQ(got[0], 0) << "a job ran on fewer than M_j nodes";
  EXPECT_EQ(got[1], 0) << "two jobs computed on one processor at once";
  EXPECT_LT(got[2], 1e-6) << "the work received (with S_static) is not the service demand";
  EXPECT_EQ(got[3], 0) << "the closed population did not hold 8 jobs";
  EXPECT_GE(got[4], 20) << "M_j should take many of its 31 values";
  EXPECT_EQ(got[5], 120);
}

} // namespace

namespace {

/* Four nodes with a 1 MB/s disk each, one 10 MB/s link between any two. */
const char* const kDiskPlatform = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="n0" speed="1Gf"><disk id="d0" read_bw="1MBps" write_bw="1MBps"/></host>
    <host id="n1" speed="1Gf"><disk id="d1" read_bw="1MBps" write_bw="1MBps"/></host>
    <host id="n2" speed="1Gf"><disk id="d2" read_bw="1MBps" write_bw="1MBps"/></host>
    <host id="n3" speed="1Gf"><disk id="d3" read_bw="1MBps" write_bw="1MBps"/></host>
    <host id="frontend" speed="1Gf"><prop id="role" value="master"/></host>
    <link id="l" bandwidth="10MBps" latency="0"/>
    <route src="n0" dst="n1"><link_ctn id="l"/></route>
    <route src="n0" dst="n2"><link_ctn id="l"/></route>
    <route src="n0" dst="n3"><link_ctn id="l"/></route>
    <route src="n1" dst="n2"><link_ctn id="l"/></route>
    <route src="n1" dst="n3"><link_ctn id="l"/></route>
    <route src="n2" dst="n3"><link_ctn id="l"/></route>
  </zone>
</platform>
)";

} // namespace

/* Memory images on local disks (4 MB a node, M_j x 4 MB a job, 1 MB/s disks): an arrival or departure often replans
 * while a job is still reading its image in. The runtime cannot resize a job that prepares; the policy suspends it
 * and resumes it on its new piece at once. Before that fix, 2 of these 18 runs stopped with "cannot be resized while
 * it prepares". Every run must end with all 40 jobs done (and images moved, at J = 2 and 3), no processor computing for
 * two jobs at once, and each job's running segments, integrated with its speedup S(n) = (1 + beta) n / (beta + n),
 * adding up to its service demand. */
TEST(MemoryConstrainedRuntime, ReplansWhileImagesAreReadIn)
{
  for (int jobs : {2, 3, 4})
    for (int seed = 1; seed <= 6; seed++) {
      jobsched::testing::ScratchFolder f;
      f.write("p.xml", kDiskPlatform);
      auto file = f.write("s.yaml", "platform: p.xml\n"
                                    "workload:\n"
                                    "  generator: {jobs: 40, run_time_distribution: two-class, short_mean: 40, "
                                    "long_mean: 400, time_resolution: 0,\n"
                                    "              min_nodes: {load_percent: 100, node_memory_mb: 4}}\n"
                                    "  closed: {jobs: " +
                                        std::to_string(jobs) +
                                        "}\n"
                                        "  jobs: {shape: malleable, max_size: 4, speedup: {model: beta, beta_min: "
                                        "30, beta_max: 300}}\n"
                                        "policy:\n"
                                        "  name: memory-constrained\n"
                                        "  params: {policy: opt-epoch, k: 1, quantum: 10, min_nodes: memory, "
                                        "node_memory_mb: 4}\n"
                                        "simulation: {seed: " +
                                        std::to_string(seed) + ", images: {store: local-disk}}\n");
      auto got = in_child([&] {
        RunReport r = jobsched::testing::run_quietly(file, f.dir / "out");
        std::map<JobId, const WorkloadJob*> job;
        for (const auto& j : r.workload->jobs)
          job[j.id] = &j;
        std::map<JobId, double> done;
        double overlaps = 0, work_error = 0, finished = 0, bytes = 0;
        for (const auto& t : r.trace)
          if (t.status == JobStatus::running) {
            const double n = t.processors.count();
            const double beta = job.at(t.job)->speedup.beta;
            done[t.job] += (1 + beta) * n / (beta + n) * (t.end - t.start);
          }
        for (const auto& j : r.workload->jobs)
          work_error = std::max(work_error, std::fabs(done[j.id] - j.run_time) / j.run_time);
        overlaps = jobsched::testing::computing_overlaps(r.trace);
        for (const auto& s : r.states) {
          finished += s.finished();
          bytes += s.counters.bytes_moved;
        }
        return std::vector<double>{finished, overlaps, work_error, bytes};
      });
      ASSERT_EQ(got.size(), 4u) << "J = " << jobs << ", seed " << seed << ": the run failed";
      EXPECT_EQ(got[0], 40) << "J = " << jobs << ", seed " << seed;
      EXPECT_EQ(got[1], 0) << "J = " << jobs << ", seed " << seed << ": two jobs on one processor at once";
      EXPECT_LT(got[2], 1e-6) << "J = " << jobs << ", seed " << seed << ": work received is not the demand";
      // At J = 4 every M_j is 1 (2LN/J - 1 = 1): one epoch of four 1-node pieces, nobody is preempted, no image.
      if (jobs < 4) {
        EXPECT_GT(got[3], 0) << "J = " << jobs << ", seed " << seed << ": no image was moved";
      }
    }
}

namespace {

/* Finish times in workload order, then the run's decision instants (performance.json's decision_instants, and
 * cycle_instants: those a cycle advanced whole stood for). */
std::vector<double> finishes_and_instants(const jobsched::testing::ScratchFolder& f, const std::string& workload,
                                          const std::string& policy)
{
  auto file = write_scenario(f, workload, policy);
  return in_child([&] {
    RunReport r = jobsched::testing::run_quietly(file, f.dir / "out");
    std::vector<double> out = finish_times(r);
    out.push_back(static_cast<double>(r.performance.instants));
    out.push_back(static_cast<double>(r.performance.cycle_instants));
    return out;
  });
}

} // namespace

/* A schedule whose pieces all span the whole quantum never changes at a quantum's end, so those ends are not decision
 * instants. Quantum 1 s, OPT-EPOCH(1), M = 1 for both jobs (256 KB x 4 on 1 MB nodes). Job 1 (40 processor-seconds)
 * is alone on the 4 nodes from 0: 16 done at 4, when job 2 (40) arrives; the schedule is one epoch of widths 2 + 2,
 * so job 1's last 24 take 12 s (ends at 16) and job 2, 24 done by then, does its last 16 alone at rate 4: ends at 20.
 * The instants are the two arrivals and the two departures: 0, 4, 16, 20. Stepping every quantum (as before) made
 * 21: 0, 1, ..., 20. */
TEST(MemoryConstrainedRuntime, WholeQuantumSchedulesAreNotSteppedQuantumByQuantum)
{
  jobsched::testing::ScratchFolder f;
  auto got = finishes_and_instants(f, swf_record(1, 0, 10, 4, 256) + swf_record(2, 4, 10, 4, 256),
                                   "{name: memory-constrained, params: {policy: opt-epoch, k: 1, quantum: 1, "
                                   "min_nodes: memory, node_memory_mb: 1}}");
  ASSERT_EQ(got.size(), 4u);
  EXPECT_NEAR(got[0], 16, 1e-6);
  EXPECT_NEAR(got[1], 20, 1e-6);
  EXPECT_EQ(got[2], 4) << "decision instants";
  EXPECT_EQ(got[3], 0) << "instants in cycles";
}

/* A schedule with two epochs still changes at every epoch boundary (EquiEpochTimeSlicesTwoEpochs' run): the instants
 * are 0, 20/3, 10, 50/3, 20, then 80/3 (jobs 2 and 3 end with their piece; job 1 is then alone on a whole-quantum
 * schedule) and 30 (job 1 ends): 7. Of them 20/3, 10, 50/3 and 20 are advanced (simulation.cycles): job 1's start
 * at 20/3, then one whole cycle from there, where every job has started, to 50/3, then the boundary 20 of the next
 * cycle, whose next boundary, 80/3, sees jobs 2 and 3 end. */
TEST(MemoryConstrainedRuntime, EpochBoundariesRemainDecisionInstants)
{
  jobsched::testing::ScratchFolder f;
  auto got = finishes_and_instants(f, three_jobs(),
                                   "{name: memory-constrained, params: {policy: equi-epoch, quantum: 10, "
                                   "min_nodes: memory, node_memory_mb: 1}}");
  ASSERT_EQ(got.size(), 5u);
  EXPECT_NEAR(got[0], 30, 1e-6);
  EXPECT_NEAR(got[1], 80.0 / 3, 1e-6);
  EXPECT_NEAR(got[2], 80.0 / 3, 1e-6);
  EXPECT_EQ(got[3], 3) << "decision instants";
  EXPECT_EQ(got[4], 4) << "instants in cycles";
}
