/* Setia's time-shared adaptive partitioning (plugin/policies/time_sharing/adaptive_partitioning.cpp) on SimGrid, on
 * tiny workloads whose completion times were computed by hand: moldable jobs of demand D seconds on one processor,
 * linear speedup (rate p on p processors), quanta of 2 s, priority to the least processor-seconds received. Each
 * run's trace is checked: no processor computes for two jobs at once, and each job's running processor-seconds add
 * up to its demand times the paging slowdown the policy charged. Every simulation runs in its own process. */
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

struct Outcome {
  std::vector<double> finishes;              // in workload order
  double overlaps = 0;                       // pairs of computing segments sharing a processor at once
  std::map<JobId, double> processor_seconds; // running segments, by job
  std::vector<double> demands;
};

Outcome run(const jobsched::testing::ScratchFolder& f, const std::string& workload, const std::string& policy)
{
  f.write("p.xml", four_node_platform());
  f.write("w.swf", workload);
  auto file = f.write("s.yaml", "platform: p.xml\nworkload: {trace: w.swf, jobs: {shape: moldable, min_size: 1, "
                                "max_size: 4}}\npolicy: " +
                                    policy + "\n");
  auto flat = in_child([&] {
    RunReport r = jobsched::testing::run_quietly(file, f.dir / "out");
    std::vector<double> out;
    for (const auto& s : r.states)
      out.push_back(s.finish_time);
    double overlaps = jobsched::testing::computing_overlaps(r.trace);
    out.push_back(overlaps);
    std::map<JobId, double> done;
    for (const auto& t : r.trace)
      if (t.status == JobStatus::running) done[t.job] += t.processors.count() * (t.end - t.start);
    for (const auto& j : r.workload->jobs) {
      out.push_back(done[j.id]);
      out.push_back(j.work());
    }
    return out;
  });
  Outcome o;
  const size_t jobs = (flat.size() - 1) / 3;
  o.finishes.assign(flat.begin(), flat.begin() + static_cast<long>(jobs));
  o.overlaps = flat[jobs];
  for (size_t i = 0; i < jobs; i++) {
    o.processor_seconds[static_cast<JobId>(i + 1)] = flat[jobs + 1 + 2 * i];
    o.demands.push_back(flat[jobs + 2 + 2 * i]);
  }
  return o;
}

/* `slowdowns`: each job's paging factor (1: none). */
void expect_outcome(const Outcome& got, const std::vector<double>& finishes, const std::vector<double>& slowdowns)
{
  ASSERT_EQ(got.finishes.size(), finishes.size());
  for (size_t i = 0; i < finishes.size(); i++) {
    EXPECT_NEAR(got.finishes[i], finishes[i], 1e-5) << "job " << i + 1;
    EXPECT_NEAR(got.processor_seconds.at(static_cast<JobId>(i + 1)), got.demands[i] * slowdowns[i], 1e-5)
        << "job " << i + 1 << ": running segments do not add up to its demand x slowdown";
  }
  EXPECT_EQ(got.overlaps, 0) << "two jobs computed on one processor at once";
}

} // namespace

/* AP, C = P/L with L = 1 at first: every job gets all 4 processors. Job 1 (demand 20) runs from 0 at rate 4. Job 2
 * (demand 4) arrives at 1 in mid-quantum: no idle processor, it waits. At 2 job 1 has 8 processor-seconds, job 2 none:
 * job 2 runs and ends at 3 (4 / 4); its processors go at once to job 1, whose last 12 take 3 s: it ends at 6. */
TEST(AdaptivePartitioningRuntime, ApPreemptsAtTheQuantumAndRefillsFreedProcessors)
{
  jobsched::testing::ScratchFolder f;
  auto got = run(f, swf_record(1, 0, 20, 1) + swf_record(2, 1, 4, 1), "{name: ap}");
  expect_outcome(got, {6, 3}, {1, 1});
}

/* GS(2) on 4 processors, three jobs of demand 7 at 0. [0, 2): jobs 1 and 2 at rate 2 (4 done, 3 left). At 2: job 3
 * (0 processor-seconds) first, then jobs 1 and 2 tie at 4 and job 1, submitted first, wins: job 1 ends at 3.5 and job
 * 2 takes its processors for [3.5, 4) (1 done, 2 left). At 4: job 3 has 4, job 2 has 5: both fit and run; job 2 ends
 * at 5, job 3 (3 left) at 5.5. */
TEST(AdaptivePartitioningRuntime, FixedPartitionsByPriority)
{
  jobsched::testing::ScratchFolder f;
  auto got = run(f, swf_record(1, 0, 7, 1) + swf_record(2, 0, 7, 1) + swf_record(3, 0, 7, 1),
                 "{name: ap, params: {partition_size: 2}}");
  expect_outcome(got, {3.5, 5, 5.5}, {1, 1, 1});
}

/* Memory: C = 2 (initial_load 2). Job 1's memory fills 4 processors (4 MB, node_memory_mb 1), job 2's one; both of
 * demand 4. APMC gives job 1 four processors (2 C), so it runs first alone and ends at 1, then job 2 on its 2 (rate
 * 2) ends at 3. APVM(0.5) with O = 50% gives job 1 only C = 2 (c = 1/2 = f: overhead O, slowdown 1.5): both run from
 * 0, job 2 ends at 2, job 1 at 4 / 2 x 1.5 = 3. */
TEST(AdaptivePartitioningRuntime, MemoryConstraintsAndPaging)
{
  jobsched::testing::ScratchFolder f;
  const std::string jobs = swf_record(1, 0, 4, 1, 4096) + swf_record(2, 0, 4, 1, 1024);
  auto apmc = run(f, jobs, "{name: apmc, params: {initial_load: 2}}");
  expect_outcome(apmc, {1, 3}, {1, 1});
  auto apvm = run(f, jobs, "{name: apvm, params: {initial_load: 2, fraction: 0.5, overhead: 0.5}}");
  expect_outcome(apvm, {3, 2}, {1.5, 1});
}
