/* The scheduler actor and the whole run, on tiny workloads whose outcome was computed by hand: the rule for
 * simultaneous events, host failures and returns delivered to the policy, wall-time kills. Each simulation runs in
 * its own child process. */
#include "core/errors.hpp"
#include "policies/space_sharing/waiting_queue.hpp"
#include "policy/policy.hpp"
#include "run/simulation.hpp"
#include "support/child_process.hpp"
#include "support/quiet_run.hpp"
#include "support/trace_checks.hpp"

#include "support/scratch_folder.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

using namespace jobsched;
using jobsched::testing::in_child;
namespace fs = std::filesystem;

namespace {

/* FCFS that writes down every call it gets, as numbers: kind (1 ended, 2 submitted, 3 decide, 4 host change), job
 * id or host, time. */
std::vector<double> g_calls;

class RecordingFcfs : public Policy {
 public:
  explicit RecordingFcfs(const PolicyEnv& env) : allocator_(env.allocator) {}
  void job_submitted(const Job& job, double now) override
  {
    g_calls.insert(g_calls.end(), {2, static_cast<double>(job.id), now});
    queue_.push(job);
  }
  void job_ended(const Job& job, JobEnd, double now) override
  {
    g_calls.insert(g_calls.end(), {1, static_cast<double>(job.id), now});
  }
  void host_changed(const HostChange& c, double now) override
  {
    g_calls.insert(g_calls.end(), {4, static_cast<double>(c.host), now});
  }
  /* Records the network load it was shown, as kind 5. */
  size_t waiting_count() const override { return queue_.size(); }
  Decisions decide(const ClusterState& state) override
  {
    g_calls.insert(g_calls.end(), {3, 0, state.now});
    if (state.network_load > 0) g_calls.insert(g_calls.end(), {5, state.network_load, state.now});
    ResourceSet idle = state.idle;
    return start_in_order(queue_, allocator_, idle);
  }

 private:
  const Allocator& allocator_;
  WaitingQueue queue_;
};

PolicyRegistration recording{
    {"test-recording-fcfs", "FCFS that records its calls (tests only)", {}, [](const PolicyEnv& env) {
       return std::make_unique<RecordingFcfs>(env);
     }}};

using Folder = jobsched::testing::ScratchFolder;

std::string swf_line(int id, double submit, double run, int procs, double requested)
{
  char buf[256];
  std::snprintf(buf, sizeof buf, "%d %g -1 %g %d -1 -1 %d %g -1 1 1 1 1 1 1 -1 -1\n", id, submit, run, procs, procs,
                requested);
  return buf;
}

/* Runs `scenario_yaml` (written into `f`) in a child; returns, per job in workload order: fate, start, finish;
 * then the recorded policy calls. */
std::vector<double> run(const Folder& f, const std::string& scenario_yaml)
{
  fs::path file = f.write("scenario.yaml", scenario_yaml);
  return in_child([&] {
    RunReport r = jobsched::testing::run_quietly(file, f.dir / "out");
    std::vector<double> out;
    for (const auto& o : r.states)
      out.insert(out.end(), {static_cast<double>(o.fate), o.start_time, o.finish_time});
    out.insert(out.end(), g_calls.begin(), g_calls.end());
    return out;
  });
}

const std::string kCluster16 = std::string(SOURCE_DIR) + "/platforms/cluster-16.xml";
const std::string kDeploy = std::string(SOURCE_DIR) + "/deployments/single-scheduler.xml";

/* A platform of two SMP nodes n0 and n1 of `cores` 1 Gflop/s cores on 1 GB/s links, and a front end. */
std::string two_smp_nodes(int cores)
{
  return R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="world" routing="Full">
    <cluster id="smp" prefix="n" suffix="" radical="0-1" speed="1Gf" core=")" +
         std::to_string(cores) + R"(" bw="1GBps" lat="0"
             loopback_bw="100GBps" loopback_lat="0"/>
    <zone id="front" routing="Full"><host id="frontend" speed="1Gf"/></zone>
  </zone>
</platform>
)";
}

TEST(Scheduler, CompletionsThenSubmissionsThenOneDecisionPerInstant)
{
  // J1 fills the machine until 10; J2 (whole machine) is submitted at 10: the policy must see J1 end, then J2
  // arrive, then decide once, and J2 starts at 10.
  Folder f;
  f.write("w.swf", swf_line(1, 0, 10, 16, 10) + swf_line(2, 10, 5, 16, 5));
  auto r = run(f, "platform: " + kCluster16 + "\ndeployment: " + kDeploy +
                      "\nworkload: {trace: w.swf}\npolicy: {name: test-recording-fcfs}\n");
  ASSERT_GE(r.size(), 6U);
  EXPECT_EQ(r[0], static_cast<double>(JobFate::completed));
  EXPECT_NEAR(r[1], 0, 1e-9);
  EXPECT_NEAR(r[2], 10, 1e-6);
  EXPECT_NEAR(r[4], 10, 1e-6); // J2 starts at 10
  EXPECT_NEAR(r[5], 15, 1e-6);
  std::vector<double> calls(r.begin() + 6, r.end());
  // t=0: submit 1, decide; t=10: end 1, submit 2, decide; t=15: end 2, decide.
  std::vector<double> expected = {2, 1, 0, 3, 0, 0, 1, 1, 10, 2, 2, 10, 3, 0, 10, 1, 2, 15, 3, 0, 15};
  ASSERT_EQ(calls.size(), expected.size());
  for (size_t i = 0; i < calls.size(); i++)
    EXPECT_NEAR(calls[i], expected[i], 1e-6) << "call element " << i;
}

TEST(Scheduler, HostFailureFailsItsJobAndTheReturnIsDelivered)
{
  // Host w1 goes down at 5 and comes back at 8 (state profile). J1 runs on w1 from 0: it fails at 5. J2 needs both
  // hosts from 6: it waits for w1's return and starts at 8, ending at 11.
  Folder f;
  f.write("w1.state", "5 0\n8 1\n");
  f.write("p.xml", R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="w1" speed="1Gf" state_file="w1.state"/>
    <host id="w2" speed="1Gf"/>
    <host id="frontend" speed="1Gf"/>
  </zone>
</platform>
)");
  f.write("w.swf", swf_line(1, 0, 10, 1, 10) + swf_line(2, 6, 3, 2, 3));
  auto r = run(f, "platform: p.xml\ndeployment: " + kDeploy +
                      "\nworkload: {trace: w.swf}\npolicy: {name: test-recording-fcfs}\nowners: {eviction: kill}\n");
  ASSERT_GE(r.size(), 6U);
  EXPECT_EQ(r[0], static_cast<double>(JobFate::failed));
  EXPECT_NEAR(r[2], 5, 1e-6);
  EXPECT_EQ(r[3], static_cast<double>(JobFate::completed));
  EXPECT_NEAR(r[4], 8, 1e-6);
  EXPECT_NEAR(r[5], 11, 1e-6);
  // The policy was told: host 0 changed at 5 and at 8.
  std::vector<double> host_calls;
  for (size_t i = 6; i + 2 < r.size(); i += 3)
    if (r[i] == 4) host_calls.insert(host_calls.end(), {r[i + 1], r[i + 2]});
  ASSERT_EQ(host_calls.size(), 4U);
  EXPECT_EQ(host_calls[0], 0);
  EXPECT_NEAR(host_calls[1], 5, 1e-6);
  EXPECT_EQ(host_calls[2], 0);
  EXPECT_NEAR(host_calls[3], 8, 1e-6);
}

/* Three hosts and a front end; w1 and w2 follow the state profile `profile` (a SimGrid state_file). */
std::string three_hosts_two_with_one_profile(const Folder& f, const std::string& profile)
{
  f.write("w1.state", profile);
  f.write("w2.state", profile); // SimGrid refuses one profile file named by two hosts
  f.write("p.xml", R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="w1" speed="1Gf" state_file="w1.state"/>
    <host id="w2" speed="1Gf" state_file="w2.state"/>
    <host id="w3" speed="1Gf"/>
    <host id="frontend" speed="1Gf"/>
  </zone>
</platform>
)");
  return "p.xml";
}

/* Host calls (kind 4) of the recorded policy calls after the 3 x `jobs` job values: host, time pairs. */
std::vector<double> host_calls_of(const std::vector<double>& r, size_t jobs)
{
  std::vector<double> out;
  for (size_t i = 3 * jobs; i + 2 < r.size(); i += 3)
    if (r[i] == 4) out.insert(out.end(), {r[i + 1], r[i + 2]});
  return out;
}

TEST(Scheduler, TwoHostsGoingDownAndBackAtOneInstant)
{
  // w1 and w2 go down together at 5 and come back together at 8. J1 runs on w1 from 0: it fails at 5 (eviction: kill).
  // J2 needs the three hosts from 6: it starts at 8, when both are back, and ends at 11. The policy hears of both hosts
  // at 5 and at 8. Both execution paths (timers and SimGrid ptasks, whose failure wakes the scheduler) give the same.
  for (const char* execution : {"timer", "ptask"}) {
    SCOPED_TRACE(execution);
    Folder f;
    const std::string platform = three_hosts_two_with_one_profile(f, "5 0\n8 1\n");
    f.write("w.swf", swf_line(1, 0, 10, 1, 10) + swf_line(2, 6, 3, 3, 3));
    g_calls.clear();
    auto r = run(f, "platform: " + platform + "\ndeployment: " + kDeploy +
                        "\nworkload: {trace: w.swf}\npolicy: {name: test-recording-fcfs}\nowners: {eviction: kill}\n"
                        "simulation: {execution: " +
                        execution + "}\n");
    ASSERT_GE(r.size(), 6U);
    EXPECT_EQ(r[0], static_cast<double>(JobFate::failed));
    EXPECT_NEAR(r[2], 5, 1e-6);
    EXPECT_EQ(r[3], static_cast<double>(JobFate::completed));
    EXPECT_NEAR(r[4], 8, 1e-6);
    EXPECT_NEAR(r[5], 11, 1e-6);
    const std::vector<double> expected = {0, 5, 1, 5, 0, 8, 1, 8};
    EXPECT_EQ(host_calls_of(r, 2), expected);
  }
}

/* Runs the scenario `file` in a child and expects one InputError holding each of `fragments`, and no output folder. */
void expect_input_error(const Folder& f, const fs::path& file, const std::vector<std::string>& fragments)
{
  auto r = in_child([&] {
    try {
      jobsched::testing::run_quietly(file, f.dir / "out");
    } catch (const InputError& e) {
      const std::string what = e.what();
      std::vector<double> found{1};
      for (const auto& fragment : fragments)
        found.push_back(what.find(fragment) != std::string::npos);
      return found;
    }
    return std::vector<double>{0};
  });
  EXPECT_EQ(r, std::vector<double>(fragments.size() + 1, 1.0));
  EXPECT_FALSE(fs::exists(f.dir / "out"));
}

TEST(Scheduler, JobsOnlyHostsDownForGoodCouldStartAreOneError)
{
  // w1 and w2 go down at 5 and never come back: J2 (three hosts) can never start. The scheduler polls the hosts
  // every hour; once nothing else can happen for 30 days, the run stops with an error naming the platform and the
  // hosts, instead of polling forever.
  Folder f;
  const std::string platform = three_hosts_two_with_one_profile(f, "5 0\n");
  f.write("w.swf", swf_line(1, 0, 2, 1, 2) + swf_line(2, 6, 3, 3, 3));
  fs::path file = f.write("scenario.yaml", "platform: " + platform + "\ndeployment: " + kDeploy +
                                               "\nworkload: {trace: w.swf}\npolicy: {name: fcfs}\n");
  expect_input_error(f, file, {"p.xml: 1 jobs wait", "(w1, w2)", "since 6 s"});
}

/* Two hosts w1, w2 and a front end; w1 follows the state profile `w1_state` when given. */
std::string two_hosts(const Folder& f, const std::string& w1_state = "")
{
  if (!w1_state.empty()) f.write("w1.state", w1_state);
  f.write("p.xml", std::string(R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="w1" speed="1Gf")") +
                       (w1_state.empty() ? "" : R"( state_file="w1.state")") + R"(/>
    <host id="w2" speed="1Gf"/>
    <host id="frontend" speed="1Gf"/>
  </zone>
</platform>
)");
  return "p.xml";
}

/* Per job of a run in a child: fate, start, finish, requeues, work lost, preemptions. */
std::vector<double> run_counting(const Folder& f, const std::string& scenario_yaml)
{
  fs::path file = f.write("scenario.yaml", scenario_yaml);
  return in_child([&] {
    RunReport r = jobsched::testing::run_quietly(file, f.dir / "out");
    std::vector<double> out;
    for (const auto& o : r.states)
      out.insert(out.end(),
                 {static_cast<double>(o.fate), o.start_time, o.finish_time, static_cast<double>(o.counters.requeues),
                  o.counters.work_lost, static_cast<double>(o.counters.preemptions)});
    return out;
  });
}

/* A run on two_hosts() whose w1's owner is back from 5 to 8 (an owner trace), `swf` the workload, `policy` and
 * `owners_extra` (more keys of the owners section) as YAML flow text; per job what run_counting() returns. */
std::vector<double> owner_case(const std::string& swf, const std::string& policy, const std::string& owners_extra = "")
{
  Folder f;
  f.write("owners.csv", "5,w1,busy\n8,w1,idle\n");
  f.write("w.swf", swf);
  return run_counting(f, "platform: " + two_hosts(f) + "\ndeployment: " + kDeploy +
                             "\nworkload: {trace: w.swf}\npolicy: " + policy +
                             "\nowners: {model: trace, trace: owners.csv" + owners_extra + "}\n");
}

TEST(Owners, ReturnRequeuesTheJobAtItsPlaceUnderSpaceSharing)
{
  // w1's owner is back from 5 to 8. J1 (1 processor, 10 s) runs on w1 from 0: evicted at 5 with 5 s of work lost, it
  // goes back to the queue and starts again at once on w2 (idle), ending at 15. J2 (both hosts, 3 s), submitted at 6,
  // waits for w1 (back at 8) and w2 (free at 15): 15 to 18. Conservative backfilling puts J1 back at its place too.
  for (const char* policy : {"fcfs", "easy", "conservative"}) {
    SCOPED_TRACE(policy);
    auto r = owner_case(swf_line(1, 0, 10, 1, 10) + swf_line(2, 6, 3, 2, 3), std::string("{name: ") + policy + "}");
    const double completed = static_cast<double>(JobFate::completed);
    EXPECT_EQ(r, (std::vector<double>{completed, 5, 15, 1, 5, 0, completed, 15, 18, 0, 0, 0}));
  }
}

TEST(Owners, ReturnKillsTheJobWithEvictionKill)
{
  // As above with eviction: kill: J1 leaves at 5 (KILLED); J2 starts when w1 is back, at 8, and ends at 11.
  auto r = owner_case(swf_line(1, 0, 10, 1, 10) + swf_line(2, 6, 3, 2, 3), "{name: fcfs}", ", eviction: kill");
  EXPECT_EQ(r, (std::vector<double>{static_cast<double>(JobFate::killed), 0, 5, 0, 0, 0,
                                    static_cast<double>(JobFate::completed), 8, 11, 0, 0, 0}));
}

TEST(Owners, HostFailureRequeuesLikeAnOwnersReturn)
{
  // The same schedule when w1 fails from 5 to 8 (a SimGrid state profile) instead: J1 fails at 5 and is requeued.
  Folder f;
  f.write("w.swf", swf_line(1, 0, 10, 1, 10) + swf_line(2, 6, 3, 2, 3));
  auto r = run_counting(f, "platform: " + two_hosts(f, "5 0\n8 1\n") + "\ndeployment: " + kDeploy +
                               "\nworkload: {trace: w.swf}\npolicy: {name: fcfs}\n");
  const double completed = static_cast<double>(JobFate::completed);
  EXPECT_EQ(r, (std::vector<double>{completed, 5, 15, 1, 5, 0, completed, 15, 18, 0, 0, 0}));
}

TEST(Owners, ReturnSuspendsTheJobUnderTimeSharing)
{
  // Gang with one-processor partitions: J1 (1 processor, 10 s) is in w1's partition. Its owner is back from 5 to 8:
  // J1 is suspended (not requeued: its work is kept) and resumes at 8, ending at 13. J2 (1 processor, 4 s, from 0)
  // runs on w2 undisturbed, 0 to 4.
  auto r = owner_case(swf_line(1, 0, 10, 1, 10) + swf_line(2, 0, 4, 1, 4), "{name: gang, params: {partition_size: 1}}");
  const double completed = static_cast<double>(JobFate::completed);
  EXPECT_EQ(r, (std::vector<double>{completed, 0, 13, 0, 0, 1, completed, 0, 4, 0, 0, 0}));
}

/* A run under owners drawn by the alternating model, checked against a second draw of the same owners: returns the
 * number of running segments that overlap another job's on a processor, the largest gap between a completed job's
 * computing time and its run time plus the work it lost, the running segments on a host while its owner is there,
 * and the run's requeues and preemptions. */
std::vector<double> owners_invariants(const std::string& policy)
{
  Folder f;
  fs::path file = f.write("scenario.yaml", "platform: " + kCluster16 + "\ndeployment: " + kDeploy +
                                               "\nworkload: {generator: {jobs: 60, mean_interarrival: 300, max_size: "
                                               "4, max_run_time: 3000}}\npolicy: " +
                                               policy +
                                               "\nowners: {model: alternating, mean_idle: 2000, activity: 0.3}\n"
                                               "simulation: {seed: 7}\n");
  return in_child([&] {
    RunReport r = jobsched::testing::run_quietly(file, f.dir / "out");
    // The owners again, from the same seed: busy intervals per host (16 hosts, named node-0 .. node-15).
    Scenario sc = load_scenario(file);
    std::vector<std::string> names;
    for (int h = 0; h < 16; h++)
      names.push_back("node-" + std::to_string(h));
    OwnerActivity owners(sc.owners, names, sc.simulation.seed);
    std::vector<std::vector<std::pair<double, double>>> busy(16);
    std::vector<double> since(16, -1);
    for (int h = 0; h < 16; h++)
      if (owners.initially_busy(h)) since[h] = 0;
    const double end = r.metrics.last_finish + 1;
    while (owners.next_time() <= end)
      for (const OwnerChange& c : owners.take_due(owners.next_time())) {
        if (c.busy)
          since[c.host] = c.time;
        else
          busy[c.host].emplace_back(since[c.host], c.time);
      }
    for (int h = 0; h < 16; h++)
      if (since[h] >= 0 && (busy[h].empty() || busy[h].back().first != since[h])) busy[h].emplace_back(since[h], end);
    double on_busy_host = 0;
    std::map<JobId, double> computed;
    for (const TraceSegment& s : r.trace) {
      if (s.status != JobStatus::running) continue;
      computed[s.job] += s.end - s.start;
      s.processors.for_each([&](int p) {
        for (const auto& [from, to] : busy[p])
          if (s.start < to - 1e-9 && from < s.end - 1e-9) on_busy_host++;
      });
    }
    double worst = 0;
    for (size_t i = 0; i < r.states.size(); i++)
      if (r.states[i].fate == JobFate::completed)
        worst = std::max(worst, std::abs(computed[r.states[i].job->id] - r.workload->jobs[i].run_time -
                                         r.states[i].counters.work_lost));
    return std::vector<double>{static_cast<double>(jobsched::testing::computing_overlaps(r.trace)),
                               worst,
                               on_busy_host,
                               static_cast<double>(r.metrics.totals.requeues),
                               static_cast<double>(r.metrics.totals.preemptions),
                               static_cast<double>(r.metrics.jobs_completed)};
  });
}

TEST(Owners, AnOwnerWhoNeverLeavesUnderGangIsOneError)
{
  // Gang keeps J1 in w1's partition, suspended once w1's owner is back at 5; the owner never leaves (the trace ends),
  // so nothing will ever compute again though gang re-plans every quantum: after 30 days of this, one error naming
  // the owners' trace (the host is up: its owner keeps it) and w1, instead of quanta forever.
  Folder f;
  f.write("owners.csv", "5,w1,busy\n");
  f.write("w.swf", swf_line(1, 0, 10, 1, 10));
  fs::path file = f.write("scenario.yaml", "platform: " + two_hosts(f) + "\ndeployment: " + kDeploy +
                                               "\nworkload: {trace: w.swf}\npolicy: {name: gang, params: "
                                               "{partition_size: 1, quantum: 60}}\nowners: {model: trace, trace: "
                                               "owners.csv}\n");
  expect_input_error(
      f, file, {"owners.csv: 1 jobs wait and only hosts their owners hold could run them (w1), but none", "since 5 s"});
}

/* A run on two_hosts() with `owners_csv` as the owner trace and `swf` as the workload, under `policy`: the no-progress
 * stop time, saturated, and the first job's fate, requeues and work lost, and the backlog stop time. */
std::vector<double> no_progress_case(const std::string& owners_csv, const std::string& swf, const std::string& policy)
{
  Folder f;
  f.write("owners.csv", owners_csv);
  f.write("w.swf", swf);
  fs::path file = f.write("scenario.yaml", "platform: " + two_hosts(f) + "\ndeployment: " + kDeploy +
                                               "\nworkload: {trace: w.swf}\npolicy: " + policy +
                                               "\nowners: {model: trace, trace: owners.csv}\n");
  return in_child([&] {
    RunReport rep = jobsched::testing::run_quietly(file, f.dir / "out");
    const JobState& s = rep.states.front();
    return std::vector<double>{rep.metrics.no_progress_stop_time,
                               static_cast<double>(rep.metrics.saturated),
                               static_cast<double>(s.fate),
                               static_cast<double>(s.counters.requeues),
                               s.counters.work_lost,
                               rep.metrics.backlog_stop_time};
  });
}

TEST(Owners, JobsEvictedAgainAndAgainStopTheRunAfterThirtyDays)
{
  // J1 needs both hosts for 2000 s. w1's owner comes back for 10 s at 1000 + 1500 k (k = 0, 1, ...): J1 computes
  // 1000 s, is requeued, restarts at 1010 and is evicted 1490 s later, again and again, for ever. No job ends: the run
  // stops 30 days (2,592,000 s) after it began, saturated, after the evictions at 1000 + 1500 k <= 2,592,000, k = 0 ..
  // 1727: 1728 requeues and 1000 + 1727 x 1490 = 2,574,230 s of work lost.
  std::string owners;
  for (int k = 0; k < 2000; k++)
    owners += std::to_string(1000 + 1500 * k) + ",w1,busy\n" + std::to_string(1010 + 1500 * k) + ",w1,idle\n";
  auto r = no_progress_case(owners, swf_line(1, 0, 2000, 2, 2000), "{name: fcfs}");
  ASSERT_EQ(r.size(), 6u);
  EXPECT_NEAR(r[0], 2592000, 1e-3);
  EXPECT_EQ(r[1], 1);
  EXPECT_EQ(r[2], static_cast<double>(JobFate::running)); // NOT_FINISHED
  EXPECT_EQ(r[3], 1728);
  EXPECT_NEAR(r[4], 2574230, 1e-3);
  EXPECT_EQ(r[5], -1);
}

TEST(Owners, NothingComputingForThirtyDaysStopsTheRun)
{
  // Gang suspends J1 (w1's partition) when w1's owner comes back at 5; the owner leaves only after 40 days. Nothing
  // computes from 5 on: the run stops at 5 + 30 days, saturated, J1 never requeued (time sharing keeps its work).
  auto r = no_progress_case("5,w1,busy\n3456000,w1,idle\n", swf_line(1, 0, 10, 1, 10),
                            "{name: gang, params: {partition_size: 1, quantum: 60}}");
  ASSERT_EQ(r.size(), 6u);
  EXPECT_NEAR(r[0], 5 + 2592000, 1e-3);
  EXPECT_EQ(r[1], 1);
  EXPECT_EQ(r[2], static_cast<double>(JobFate::running));
  EXPECT_EQ(r[3], 0);
}

TEST(Owners, ReplayedJobBlockedAtItsRecordedStartStopsThirtyDaysAfterIt)
{
  // Replay: J1 (both hosts) waited 3,000,000 s at the site. Until then nothing computes, and that wait is the replay's
  // (no lack of progress). At 3,000,000 w1's owner is there (busy from 5 to 7,000,000): nothing computes from then on,
  // and the run stops 30 days after the recorded start, at 3,000,000 + 2,592,000 = 5,592,000, J1 not finished.
  auto r = no_progress_case("5,w1,busy\n7000000,w1,idle\n", "1 0 3000000 10 2 -1 -1 2 10 -1 1 1 1 1 1 1 -1 -1\n",
                            "{name: replay}");
  ASSERT_EQ(r.size(), 6u);
  EXPECT_NEAR(r[0], 5592000, 1e-3);
  EXPECT_EQ(r[1], 1);
  EXPECT_EQ(r[2], static_cast<double>(JobFate::running));
  EXPECT_EQ(r[3], 0);
}

TEST(Scheduler, AQuietSpellOfMoreThanThirtyDaysIsNoLackOfProgress)
{
  // J1 runs 10 s from 0; J2 is submitted 40 days later (3,456,000 s) on a machine empty since 10. The no-progress
  // stop counts from when jobs are in the system, not from the last end before a quiet spell of the log (a workload
  // whose start_time is far into a log has one before its first job): J2 runs at once, under space and time sharing.
  for (const std::string policy : {"{name: fcfs}", "{name: gang, params: {partition_size: 16, quantum: 60}}"}) {
    Folder f;
    f.write("w.swf", swf_line(1, 0, 10, 16, 10) + swf_line(2, 3456000, 10, 16, 10));
    auto r = run(f, "platform: " + kCluster16 + "\ndeployment: " + kDeploy +
                        "\nworkload: {trace: w.swf}\npolicy: " + policy + "\n");
    ASSERT_GE(r.size(), 6U) << policy;
    EXPECT_EQ(r[0], static_cast<double>(JobFate::completed)) << policy;
    EXPECT_EQ(r[3], static_cast<double>(JobFate::completed)) << policy;
    EXPECT_NEAR(r[4], 3456000, 1e-6) << policy;
    EXPECT_NEAR(r[5], 3456010, 1e-6) << policy;
  }
}

TEST(Owners, AlternatingOwnersKeepTheTraceInvariants)
{
  // EASY requeues the jobs of the hosts whose owner comes back, gang suspends them; either way no processor computes
  // for two jobs, no job computes on a host while its owner is there, every job completes, and a job computes exactly
  // its run time plus the work it lost.
  auto easy = owners_invariants("{name: easy}");
  ASSERT_EQ(easy.size(), 6U);
  EXPECT_EQ(easy[0], 0);
  EXPECT_LT(easy[1], 1e-6);
  EXPECT_EQ(easy[2], 0);
  EXPECT_GT(easy[3], 0); // some jobs were requeued
  EXPECT_EQ(easy[4], 0);
  EXPECT_EQ(easy[5], 60);
  auto gang = owners_invariants("{name: gang, params: {partition_size: 1, quantum: 600}}");
  ASSERT_EQ(gang.size(), 6U);
  EXPECT_EQ(gang[0], 0);
  EXPECT_LT(gang[1], 1e-6);
  EXPECT_EQ(gang[2], 0);
  EXPECT_EQ(gang[3], 0); // suspended, never requeued: no host failed
  EXPECT_GT(gang[4], 0);
  EXPECT_EQ(gang[5], 60);
}

TEST(Scheduler, OverrunKillStopsTheJobAtItsEstimate)
{
  // J1 asks for 60 s and would run 100: with overrun=kill it ends at 60 (wall time reached); J2, blocked behind it
  // on the full machine, starts at 60.
  Folder f;
  f.write("w.swf", swf_line(1, 0, 100, 16, 60) + swf_line(2, 1, 5, 16, 5));
  auto r = run(f, "platform: " + kCluster16 + "\ndeployment: " + kDeploy +
                      "\nworkload: {trace: w.swf, overrun: kill}\npolicy: {name: fcfs}\n");
  ASSERT_EQ(r.size(), 6U);
  EXPECT_EQ(r[0], static_cast<double>(JobFate::walltime_reached));
  EXPECT_NEAR(r[2], 60, 1e-6);
  EXPECT_NEAR(r[4], 60, 1e-6);
}

TEST(Scheduler, OverrunExtendRunsToCompletion)
{
  Folder f;
  f.write("w.swf", swf_line(1, 0, 100, 16, 60) + swf_line(2, 1, 5, 16, 5));
  auto r = run(f, "platform: " + kCluster16 + "\ndeployment: " + kDeploy +
                      "\nworkload: {trace: w.swf, overrun: extend}\npolicy: {name: fcfs}\n");
  ASSERT_EQ(r.size(), 6U);
  EXPECT_EQ(r[0], static_cast<double>(JobFate::completed));
  EXPECT_NEAR(r[2], 100, 1e-6);
  EXPECT_NEAR(r[4], 100, 1e-6);
}

TEST(Scheduler, NetworkLoadIsMeasuredForAnAdaptiveAllocator)
{
  // On smp-cluster-10x10, a 50-processor job (nodes 0-4) under the network model at Level 4 sends a ring of 5
  // flows; the shared 4 GB/s backbone gives each 0.8 GB/s. At t=10, when J2 arrives, the 21 links between hosts
  // (10 up, 10 down, the backbone) carry: 5 up and 5 down links at 0.8 of their 1 GB/s, the backbone full:
  // (10 x 0.8 + 1) / 21 = 0.4286.
  Folder f;
  f.write("w.swf", swf_line(1, 0, 100, 50, 100) + swf_line(2, 10, 5, 10, 5));
  auto r = run(f, "platform: " + std::string(SOURCE_DIR) + "/platforms/smp-cluster-10x10.xml\ndeployment: " + kDeploy +
                      "\nworkload: {trace: w.swf, communication: {model: network, level: 4}}\n"
                      "policy: {name: test-recording-fcfs, allocation: smp, "
                      "allocation_params: {adaptive: true, load_weight: 1.0}}\n");
  double load_at_10 = -1;
  for (size_t i = 6; i + 2 < r.size(); i += 3)
    if (r[i] == 5 && std::abs(r[i + 2] - 10) < 1e-6) load_at_10 = r[i + 1];
  EXPECT_NEAR(load_at_10, 9.0 / 21.0, 0.01);
}

TEST(Scheduler, CostAwarePlacementReadsTheRunningJobsExpectedEnds)
{
  // Two 3-core nodes, formula cost at Level 2 with base 0.25: a run stretches 1.5 times on one node, 2 times on two.
  // At t = 0, J1 (2 processors, runs 20 s, estimate e) takes node 0's cores 0-1, J2 (2 processors, 1000 s) node 1's
  // cores 3-4; H (2 processors, estimate 100) finds one free core on each node: now on 2 nodes it is expected to end
  // at 0 + 100 x 2 = 200; waiting for node 0, at J1's expected end, at that end + 100 x 1.5. J1 really ends at
  // 20 x 1.5 = 30. J1's expected end is e x 1.5 (releases stretched, the default) or e (releases: estimate).
  //  e = 30, stretched: 45 + 150 = 195 < 200: H waits for node 0, starts at 30 and ends at 30 + 150 = 180.
  //  e = 40, stretched: 60 + 150 = 210 > 200: H starts at 0 on cores 2 and 5 and ends at 200.
  //  e = 40, estimate: 40 + 150 = 190 < 200: H waits, starts at 30, ends at 180.
  // (spread_weight 0: the expected finishes alone; the weight is tested by hand in tests/unit/test_smp.cpp.)
  Folder f;
  f.write("p.xml", two_smp_nodes(3));
  struct Case {
    double estimate;
    const char* releases;
    double h_start, h_end;
  };
  for (const Case& c : {Case{30, "stretched", 30, 180}, Case{40, "stretched", 0, 200}, Case{40, "estimate", 30, 180}}) {
    f.write("w.swf", swf_line(1, 0, 20, 2, c.estimate) + swf_line(2, 0, 1000, 2, 1000) + swf_line(3, 0, 100, 2, 100));
    auto r =
        run(f, "platform: p.xml\ndeployment: " + kDeploy +
                   "\nworkload: {trace: w.swf, communication: {model: formula, level: 2, base: 0.25}}\n"
                   "policy: {name: easy, allocation: smp, allocation_params: {adaptive: cost-aware, spread_weight: 0, "
                   "releases: " +
                   c.releases + "}}\n");
    ASSERT_EQ(r.size(), 9U);
    EXPECT_NEAR(r[2], 30, 1e-6); // J1: 20 s stretched 1.5 times
    EXPECT_NEAR(r[7], c.h_start, 1e-6) << "estimate " << c.estimate << ", releases " << c.releases;
    EXPECT_NEAR(r[8], c.h_end, 1e-6) << "estimate " << c.estimate << ", releases " << c.releases;
  }
}

TEST(Scheduler, SmpNodesGiveEachProcessOneCore)
{
  // Two 4-core nodes = 8 processors, numbered node by node. J1 (6 processors) gets node 0's four cores and two of
  // node 1's; J2 (2 processors) the other two. A core is a processor: both run at full speed and end at 10.
  Folder f;
  f.write("p.xml", two_smp_nodes(4));
  f.write("w.swf", swf_line(1, 0, 10, 6, 10) + swf_line(2, 0, 10, 2, 10));
  auto r = run(f, "platform: p.xml\ndeployment: " + kDeploy + "\nworkload: {trace: w.swf}\npolicy: {name: fcfs}\n");
  ASSERT_EQ(r.size(), 6U);
  EXPECT_NEAR(r[1], 0, 1e-9);
  EXPECT_NEAR(r[2], 10, 1e-6);
  EXPECT_NEAR(r[4], 0, 1e-9);
  EXPECT_NEAR(r[5], 10, 1e-6);
  std::ifstream csv(f.dir / "out" / "jobs.csv");
  std::string header, j1, j2;
  std::getline(csv, header);
  std::getline(csv, j1);
  std::getline(csv, j2);
  EXPECT_NE(j1.find(",0-5,"), std::string::npos) << j1;
  EXPECT_NE(j2.find(",6-7,"), std::string::npos) << j2;
}

// Replay: J1 (submitted 0, waited 5 at the site, 4 processors) and J2 (submitted 1, waited 0, all 16). In recorded
// order J2 starts at 1 and holds the machine until 11; J1, recorded at 5, starts late at 11. The site's mean wait is
// (5 + 0) / 2; one job started later than at the site.
TEST(Scheduler, ReplayStartsJobsAtTheirRecordedStartWhenTheyFit)
{
  Folder f;
  f.write("w.swf", "1 0 5 10 4 -1 -1 4 10 -1 1 1 1 -1 -1 -1 -1 -1\n2 1 0 10 16 -1 -1 16 10 -1 1 1 1 -1 -1 -1 -1 -1\n");
  auto r = run(f, "platform: " + kCluster16 + "\ndeployment: " + kDeploy +
                      "\nworkload: {trace: w.swf, size_field: allocated}\npolicy: {name: replay}\n");
  ASSERT_GE(r.size(), 6U);
  EXPECT_NEAR(r[1], 11, 1e-6); // J1 start
  EXPECT_NEAR(r[4], 1, 1e-6);  // J2 start
  std::ifstream in(f.dir / "out" / "summary.json");
  std::string summary((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(summary.find("\"site_mean_waiting_time\": 2.5,"), std::string::npos) << summary;
  EXPECT_NE(summary.find("\"jobs_started_late\": 1,"), std::string::npos) << summary;
}

// Replay of recorded waits longer than kMaxWithoutProgress (30 days): J1 runs 0-10 on all 16 processors; J2
// (submitted 0) and J3 (submitted 20) waited 3,000,000 s at the site. Nothing computes from 10 to 3,000,000, and the
// run waits for those starts: J2 runs 3,000,000-3,000,010, J3 3,000,020-3,000,030, no stop.
TEST(Scheduler, ReplayWaitsForARecordedStartMoreThanThirtyDaysAhead)
{
  Folder f;
  f.write("w.swf", "1 0 0 10 16 -1 -1 16 10 -1 1 1 1 -1 -1 -1 -1 -1\n"
                   "2 0 3000000 10 16 -1 -1 16 10 -1 1 1 1 -1 -1 -1 -1 -1\n"
                   "3 20 3000000 10 16 -1 -1 16 10 -1 1 1 1 -1 -1 -1 -1 -1\n");
  auto r = run(f, "platform: " + kCluster16 + "\ndeployment: " + kDeploy +
                      "\nworkload: {trace: w.swf, size_field: allocated}\npolicy: {name: replay}\n");
  ASSERT_GE(r.size(), 9U);
  const double completed = static_cast<double>(JobFate::completed);
  EXPECT_EQ(r[0], completed);
  EXPECT_EQ(r[3], completed);
  EXPECT_NEAR(r[4], 3000000, 1e-6);
  EXPECT_NEAR(r[5], 3000010, 1e-6);
  EXPECT_EQ(r[6], completed);
  EXPECT_NEAR(r[7], 3000020, 1e-6);
  EXPECT_NEAR(r[8], 3000030, 1e-6);
  std::ifstream in(f.dir / "out" / "summary.json");
  std::string summary((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(summary.find("\"no_progress_stop_time\": -1"), std::string::npos) << summary;
}

} // namespace
