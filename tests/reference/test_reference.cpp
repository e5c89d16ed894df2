/* The simulator against the textbook FCFS and EASY simulators of textbook.hpp: every job must start at the same time.
 *
 * Each case writes a scenario, runs the real jobsched binary on it in a subprocess (SimGrid cannot reset its engine,
 * so one simulation per process) and reads its jobs.csv. The textbook simulator is independent of the scheduling code:
 * it only receives the same job list, built by the library's workload code (generator or SWF reader, then filters)
 * from the same scenario file. */
#include "reference/textbook.hpp"

#include "scenario/scenario.hpp"
#include "workload/generator.hpp"
#include "workload/swf_reader.hpp"
#include "workload/trace_search.hpp"
#include "workload/workload.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <sys/wait.h>

namespace fs = std::filesystem;

namespace {

constexpr double kTolerance = 1e-6; // seconds: jobs.csv has 6 decimals, SimGrid's clock carries ~1e-10 s of rounding

/* One job as the simulator reports it in jobs.csv. */
struct SimJob {
  double submit = 0;
  double start = -1;
  double finish = -1;
  double stretch = -1;   // the slowdown
  double dedicated = -1; // dedicated_time
};

/* A scenario in a folder of its own, removed when the case passes. */
class Run {
 public:
  Run(const std::string& name, const std::string& yaml)
  {
    std::string pattern = (fs::temp_directory_path() / ("jobsched-ref-" + name + "-XXXXXX")).string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot create a folder from " + pattern);
    dir_ = pattern;
    std::ofstream(dir_ / "scenario.yaml") << yaml;
  }
  ~Run()
  {
    if (!::testing::Test::HasFailure())
      fs::remove_all(dir_);
    else
      std::cout << "[ reference ] kept " << dir_ << " for inspection\n";
  }
  fs::path scenario() const { return dir_ / "scenario.yaml"; }
  fs::path out() const { return dir_ / "out"; }

  /* Runs `jobsched run scenario.yaml --out out --quiet`; returns its exit status, and its stderr in `err`. */
  int simulate(std::string& err) const
  {
    std::string cmd = std::string("'") + JOBSCHED_BIN + "' run '" + scenario().string() + "' --out '" + out().string() +
                      "' --quiet > '" + (dir_ / "stdout.txt").string() + "' 2> '" + (dir_ / "stderr.txt").string() +
                      "'";
    int status = std::system(cmd.c_str());
    std::ifstream in(dir_ / "stderr.txt");
    err.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  fs::path dir_;
};

std::vector<std::string> split(const std::string& line)
{
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ','))
    out.push_back(field);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

std::map<std::int64_t, SimJob> read_jobs_csv(const fs::path& file)
{
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::string line;
  std::getline(in, line);
  auto header = split(line);
  auto column = [&header, &file](const std::string& name) {
    auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) throw std::runtime_error(file.string() + ": no column " + name);
    return static_cast<size_t>(it - header.begin());
  };
  size_t id = column("job_id"), submit = column("submission_time"), start = column("starting_time"),
         finish = column("finish_time"), stretch = column("stretch"), dedicated = column("dedicated_time");
  std::map<std::int64_t, SimJob> out;
  while (std::getline(in, line)) {
    auto f = split(line);
    if (f.size() != header.size())
      throw std::runtime_error(file.string() + ": row with " + std::to_string(f.size()) + " fields: " + line);
    SimJob& j = out[std::stoll(f[id])];
    j.submit = std::stod(f[submit]);
    j.start = f[start].empty() ? -1 : std::stod(f[start]);
    j.finish = f[finish].empty() ? -1 : std::stod(f[finish]);
    j.stretch = f[stretch].empty() ? -1 : std::stod(f[stretch]);
    j.dedicated = f[dedicated].empty() ? -1 : std::stod(f[dedicated]);
  }
  return out;
}

/* The jobs of the scenario, built by the library's workload code exactly as the simulator builds them. */
jobsched::Workload load_workload(const fs::path& scenario_file, int processors)
{
  jobsched::Scenario sc = jobsched::load_scenario(scenario_file);
  const jobsched::WorkloadSpec& ws = sc.workload;
  if (ws.trace) {
    fs::path path = jobsched::find_trace(*ws.trace, scenario_file.parent_path(), "workload.trace");
    jobsched::SwfFile swf = jobsched::read_swf(path.string());
    return jobsched::build_workload(path.filename().string(), swf.records, ws.filter, processors, swf.max_procs);
  }
  return jobsched::build_workload("generated", jobsched::generate_jobs(*ws.generator, processors), ws.filter,
                                  processors, 0);
}

/* Number of jobs that started before some job submitted earlier (0 under FCFS: then nothing was backfilled). */
long out_of_order(const jobsched::JobList& jobs, const std::map<std::int64_t, double>& start)
{
  long count = 0;
  double latest = -1;
  for (const auto& j : jobs) {
    double s = start.at(j.id);
    if (s < latest - kTolerance) count++;
    latest = std::max(latest, s);
  }
  return count;
}

/* The situation at time t as the simulator's jobs.csv shows it: running, waiting and starting jobs. */
std::string simulator_view(const jobsched::JobList& jobs, const std::map<std::int64_t, SimJob>& sim, double t,
                           int processors)
{
  std::ostringstream out;
  out.precision(12);
  int busy = 0;
  std::ostringstream running, waiting, starting;
  running.precision(12);
  waiting.precision(12);
  starting.precision(12);
  for (const auto& j : jobs) {
    const SimJob& s = sim.at(j.id);
    if (s.start >= 0 && s.start < t - kTolerance && s.finish > t + kTolerance) {
      busy += j.size;
      running << "    " << j.id << " " << j.size << " " << s.start << " " << s.start + j.estimate << " " << s.finish
              << "\n";
    } else if (s.submit <= t + kTolerance && s.start > t + kTolerance) {
      waiting << "    " << j.id << " " << j.size << " " << s.submit << " " << j.estimate << " " << j.run_time
              << " (starts at " << s.start << ")\n";
    } else if (std::abs(s.start - t) <= kTolerance) {
      starting << "    " << j.id << " (size " << j.size << ", estimate " << j.estimate << ")\n";
    }
  }
  out << "simulator at t=" << t << ": " << processors - busy << " of " << processors
      << " processors not held by jobs running across t\n";
  out << "  running across t (id size start expected_end finish):\n" << running.str();
  out << "  still waiting after t (id size submit estimate run_time):\n" << waiting.str();
  out << "  started at t:\n" << starting.str();
  return out.str();
}

struct Outcome {
  long matched = 0;
  long jobs = 0;
  long out_of_order = 0; // in the simulator's schedule
  long waited = 0;       // jobs that did not start at submission
};

/* Runs the scenario on both simulators and compares every start time; explains the first difference. */
Outcome cross_check(const std::string& name, const std::string& yaml, int processors, textbook::Policy policy)
{
  Outcome result;
  Run run(name, yaml);
  std::string err;
  int status = run.simulate(err);
  EXPECT_EQ(status, 0) << "jobsched failed on " << run.scenario() << ":\n" << err;
  if (status != 0) return result;
  auto sim = read_jobs_csv(run.out() / "jobs.csv");

  jobsched::Workload workload = load_workload(run.scenario(), processors);
  std::vector<textbook::Job> input;
  for (const auto& j : workload.jobs) {
    EXPECT_GE(j.estimate, j.run_time) << "job " << j.id;
    input.push_back({j.id, j.submit_time, j.size, j.run_time, j.estimate});
  }
  auto expected = textbook::simulate(input, processors, policy);

  EXPECT_EQ(sim.size(), workload.jobs.size()) << "jobs.csv and the workload do not have the same jobs";
  const jobsched::WorkloadJob* first_diff = nullptr;
  double first_time = 0;
  std::map<std::int64_t, double> sim_start;
  for (const auto& j : workload.jobs) {
    result.jobs++;
    auto it = sim.find(j.id);
    if (it == sim.end()) {
      ADD_FAILURE() << "job " << j.id << " is not in jobs.csv";
      continue;
    }
    double s = it->second.start;
    double e = expected.at(j.id);
    sim_start[j.id] = s;
    // A space-sharing job computes alone on its processors from start to finish: its dedicated time is its run time
    // and its slowdown its turnaround over it, in the textbook's times (jobs.csv prints 6 decimals).
    if (j.run_time > 0) {
      const double slowdown = (e + j.run_time - j.submit_time) / j.run_time;
      EXPECT_NEAR(it->second.stretch, slowdown, kTolerance * (1 + slowdown)) << "job " << j.id << " stretch";
      EXPECT_NEAR(it->second.dedicated, j.run_time, kTolerance) << "job " << j.id << " dedicated_time";
    }
    result.waited += s > j.submit_time + kTolerance;
    if (std::abs(s - e) <= kTolerance) {
      result.matched++;
    } else if (first_diff == nullptr || std::min(s, e) < first_time) {
      first_diff = &j;
      first_time = std::min(s, e);
    }
  }
  if (sim_start.size() == workload.jobs.size()) result.out_of_order = out_of_order(workload.jobs, sim_start);

  std::cout << "[ reference ] " << name << ": " << result.matched << "/" << result.jobs << " start times match; "
            << result.waited << " jobs waited, " << result.out_of_order << " started before an earlier submission\n";
  EXPECT_EQ(result.matched, result.jobs) << name << ": " << result.jobs - result.matched << " start times differ";
  if (first_diff != nullptr) {
    std::string trace;
    textbook::simulate(input, processors, policy, first_time, &trace);
    ADD_FAILURE() << "first difference: job " << first_diff->id << " (size " << first_diff->size << ", submitted "
                  << first_diff->submit_time << ", estimate " << first_diff->estimate << ", run time "
                  << first_diff->run_time << ") starts at " << sim.at(first_diff->id).start << " in the simulator, at "
                  << expected.at(first_diff->id) << " in the textbook simulator\n"
                  << trace << simulator_view(workload.jobs, sim, first_time, processors);
  }
  return result;
}

std::string platform(const char* file)
{
  return (fs::path(SOURCE_DIR) / "platforms" / file).string();
}

std::string deployment()
{
  return (fs::path(SOURCE_DIR) / "deployments" / "single-scheduler.xml").string();
}

// Generated workloads, continuous times: no two events coincide, so the order of simultaneous events plays no part.

struct GeneratedCase {
  const char* policy;
  int seed;
  double mean_interarrival; // 16 processors, mean job ~6.2 processors x ~1,100 s
};

class Generated : public ::testing::TestWithParam<GeneratedCase> {};

TEST_P(Generated, StartTimesMatchTextbook)
{
  const GeneratedCase& c = GetParam();
  std::ostringstream yaml;
  yaml << "name: reference-generated\n"
       << "platform: " << platform("cluster-16.xml") << "\n"
       << "deployment: " << deployment() << "\n"
       << "workload:\n"
       << "  generator:\n"
       << "    jobs: 300\n"
       << "    mean_interarrival: " << c.mean_interarrival << "\n"
       << "    time_resolution: 0\n"
       << "policy:\n"
       << "  name: " << c.policy << "\n"
       << "simulation:\n"
       << "  seed: " << c.seed << "\n";
  bool easy = std::string(c.policy) == "easy";
  std::string name = std::string(c.policy) + "-seed" + std::to_string(c.seed) + "-ia" +
                     std::to_string(static_cast<int>(c.mean_interarrival));
  Outcome r = cross_check(name, yaml.str(), 16, easy ? textbook::Policy::easy : textbook::Policy::fcfs);
  EXPECT_EQ(r.jobs, 300);
  EXPECT_GT(r.waited, 30) << "the queue hardly builds up: the case checks little";
  if (easy) {
    EXPECT_GT(r.out_of_order, 0) << "no job was backfilled: the case does not exercise backfilling";
  } else {
    EXPECT_EQ(r.out_of_order, 0) << "FCFS started a job before an earlier submission";
  }
}

std::vector<GeneratedCase> generated_cases()
{
  std::vector<GeneratedCase> out;
  for (const char* policy : {"fcfs", "easy"})
    for (double ia : {600.0, 450.0, 300.0}) // offered loads of about 0.65, 0.9 and 1.3
      for (int seed = 1; seed <= 5; seed++)
        out.push_back({policy, seed, ia});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Reference, Generated, ::testing::ValuesIn(generated_cases()),
                         [](const ::testing::TestParamInfo<GeneratedCase>& info) {
                           return std::string(info.param.policy) + "_seed" + std::to_string(info.param.seed) + "_ia" +
                                  std::to_string(static_cast<int>(info.param.mean_interarrival));
                         });

// KTH SP2: integer times, so many completions and submissions share an instant.

class KthSp2 : public ::testing::TestWithParam<const char*> {};

TEST_P(KthSp2, First2000JobsMatchTextbook)
{
  const char* trace = "KTH-SP2-1996-2.1-cln.swf.gz";
  if (!fs::is_regular_file(fs::path(SOURCE_DIR).parent_path() / "shared" / "data" / "traces" / trace))
    GTEST_SKIP() << trace << " is not in " << (fs::path(SOURCE_DIR).parent_path() / "shared/data/traces");
  std::string policy = GetParam();
  std::ostringstream yaml;
  yaml << "name: reference-kth\n"
       << "platform: " << platform("kth-sp2-100.xml") << "\n"
       << "deployment: " << deployment() << "\n"
       << "workload:\n"
       << "  trace: " << trace << "\n"
       << "  max_jobs: 2000\n"
       << "policy:\n"
       << "  name: " << policy << "\n";
  Outcome r =
      cross_check("kth-" + policy, yaml.str(), 100, policy == "easy" ? textbook::Policy::easy : textbook::Policy::fcfs);
  EXPECT_EQ(r.jobs, 2000);
  if (policy == "easy") {
    EXPECT_GT(r.out_of_order, 0) << "no job was backfilled";
  }
}

INSTANTIATE_TEST_SUITE_P(Reference, KthSp2, ::testing::Values("fcfs", "easy"),
                         [](const ::testing::TestParamInfo<const char*>& info) { return std::string(info.param); });

} // namespace
