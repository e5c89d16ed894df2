/* jobsched check-policy NAME: runs a registered policy on small generated scenarios, each as `jobsched run` in a child
 * process (SimGrid allows one engine per process), and checks the outputs with rules of its own, apart from the
 * runtime's checks: no processor computes for two jobs at once, each job's busy processor-seconds cover its work,
 * every job is in jobs.csv and finished, the runs stop by themselves, and a run made twice gives the same bytes. */
#include "experiment/check_policy.hpp"

#include "allocation/allocator.hpp"
#include "core/command_line.hpp"
#include "core/csv.hpp"
#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/interruption.hpp"
#include "core/json.hpp"
#include "core/machine.hpp"
#include "core/params.hpp"
#include "core/temporary_folder.hpp"
#include "experiment/check_policy_params.hpp"
#include "experiment/child_process.hpp"
#include "experiment/run_outputs_check.hpp"
#include "policy/plugin_loader.hpp"
#include "policy/policy.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace jobsched {
namespace {

namespace fs = std::filesystem;

const char* const kCheckPolicyUsage = R"(Usage: jobsched check-policy NAME [--seed S] [--set policy.params.KEY=VALUE]...
                             [--keep DIR] [--plugin PATH]...

Runs the registered policy NAME (space- or time-sharing, a plugin's included) on small generated scenarios: 4 and 64
hosts, many jobs submitted at one instant and ends coinciding with arrivals, host failures, workstation owners, and
every job shape the policy takes, alone and with owners (rigid, moldable, malleable; memory for the policies sizing
jobs by it, the VP generator for a policy placing processes, Downey's phased jobs for one scheduling parallelism
profiles). Each case is
one `jobsched run` in a child process, checked from its outputs: no processor computing for two jobs at once
(trace.csv), each finished job's busy processor-seconds x speed covering its work, every job of the workload in
jobs.csv and finished (nothing waits forever: these runs are lightly loaded), no stop as saturated, no run refused
or aborted by the runtime; one case run twice gives byte-identical jobs.csv, trace.csv and summary.json; and a
time-sharing policy's first two cases give the same bytes with simulation.virtual_wakeups false (its plans declared
ahead or as repeating are those it returns when asked; jobs.csv and summary.json only where trace.csv aggregates
cycles).
It prints each case and stops at the first violation, naming the folder that keeps the case's scenario (case.yaml,
runnable with jobsched run) and outputs.

Options:
  --seed S     the scenarios' simulation.seed (default 1): other seeds, other workloads, owners and trees
  --set policy.params.KEY=VALUE
               a parameter of the policy (repeatable; VALUE read as YAML, as by jobsched run --set), written into
               every case's scenario; only policy.params keys. A bad one is refused before any case runs
  --keep DIR   write the cases into DIR and keep them (default: a temporary folder, removed when every case passes)
  --plugin PATH  load the policies of the shared library PATH first (repeatable), here and in every case's run

Exit status: 0 every case passed, 1 a violation (printed, its scenario kept), 2 bad input (an unknown policy, a
refused --set), 128 + the signal when SIGINT, SIGTERM or SIGHUP stopped it (130, 143, 129): the signal is passed on to
the case's run under way, which removes its unfinished outputs; the check waits for it, removes its temporary folder
(--keep's stays) and reports no violation.
)";

const std::vector<JobShape> kAllShapes{JobShape::rigid, JobShape::moldable, JobShape::malleable};

/* What the policy declares about the jobs it takes, read from a policy built on a small machine with the parameters
 * of the check (time-sharing policies declare it through TimeSharingPolicy; a space-sharing policy starts every job on
 * its requested size, so it takes every shape). */
struct PolicyTraits {
  bool time_sharing = false;
  bool needs_memory = false; // sizes jobs by their memory: the workload gets memory
  bool processes = false;    // places jobs as processes (gang-now's VPs): the VP generator
  bool profiles = false;     // schedules parallelism profiles (Cao et al.'s): Downey's phased jobs; fractional shares
  std::vector<JobShape> shapes = kAllShapes;
};

PolicyTraits policy_traits(const PolicyInfo& info, const CheckedPolicyParams& given)
{
  PolicyTraits t;
  t.time_sharing = info.time_sharing();
  if (!t.time_sharing) return t;
  Machine machine = Machine::uniform(4);
  const AllocatorInfo& first_fit = allocator_registry().get("first-fit");
  Params allocator_params(first_fit.params, {}, "policy.allocation_params");
  auto allocator = first_fit.make(AllocatorEnv{machine, allocator_params});
  Params params(info.params, given.values, "policy.params", given.tags);
  std::unique_ptr<TimeSharingPolicy> policy;
  try {
    policy = info.make_time_sharing(PolicyEnv{machine, *allocator, params, 1, nullptr});
  } catch (const InputError& e) { // a parameter the policy refuses once made (its errors name the key)
    if (given.values.empty()) throw;
    throw InputError(std::string("--set: ") + e.what());
  }
  t.needs_memory = policy->needs_memory();
  t.processes = policy->places_processes();
  t.profiles = policy->runs_parallelism_profiles();
  t.shapes.clear();
  // Jobs placed as processes are the VP generator's rigid jobs; parallelism profiles make every job malleable.
  for (JobShape s : kAllShapes)
    if (policy->takes_shape(s) && !(t.processes && s != JobShape::rigid) && !(t.profiles && s != JobShape::malleable))
      t.shapes.push_back(s);
  return t;
}

/* A generated platform: hosts node-0 .. node-N-1 (natural order = processor order), a front end `master` running
 * jobsched's actors, optional failures (SimGrid state files), optional routes over one shared link (for policies
 * that move process images between hosts). */
struct PlatformSpec {
  int hosts = 4;
  int cores = 1;
  bool faster_odd_hosts = false; // odd hosts at 2 Gflop/s, the others at 1
  bool routes = false;
  std::map<int, std::vector<std::pair<double, int>>> failures; // host -> (time, 0 down / 1 up) lines of its state file

  double host_speed(int h) const { return faster_odd_hosts && h % 2 == 1 ? 2e9 : 1e9; }
};

constexpr long kReferenceSpeed = 1000000000; // every case's simulation.reference_speed (flop/s): the slowest host's

void write_text(const fs::path& file, const std::string& text)
{
  std::ofstream out(file, std::ios::binary);
  out << text;
  if (!out.flush()) throw InputError(file.string() + ": cannot write");
}

void write_platform(const fs::path& dir, const PlatformSpec& p)
{
  std::ostringstream x;
  x << "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    << "<!-- Written by jobsched check-policy. -->\n<platform version=\"4.1\">\n  <zone id=\"check\" "
       "routing=\"Full\">\n"
    << "    <host id=\"master\" speed=\"1Gf\"><prop id=\"role\" value=\"master\"/></host>\n";
  for (int h = 0; h < p.hosts; h++) {
    x << "    <host id=\"node-" << h << "\" speed=\"" << (p.host_speed(h) > 1e9 ? "2Gf" : "1Gf") << "\" core=\""
      << p.cores << "\"";
    auto f = p.failures.find(h);
    if (f != p.failures.end()) {
      std::string name = "node-" + std::to_string(h) + "-state.txt";
      std::ostringstream lines;
      for (auto [time, up] : f->second)
        lines << time << " " << up << "\n";
      write_text(dir / name, lines.str());
      x << " state_file=\"" << name << "\"";
    }
    x << "/>\n";
  }
  if (p.routes) {
    x << "    <link id=\"lan\" bandwidth=\"125MBps\" latency=\"50us\" sharing_policy=\"SHARED\"/>\n";
    std::vector<std::string> names{"master"};
    for (int h = 0; h < p.hosts; h++)
      names.push_back("node-" + std::to_string(h));
    for (size_t a = 0; a < names.size(); a++)
      for (size_t b = a + 1; b < names.size(); b++)
        x << "    <route src=\"" << names[a] << "\" dst=\"" << names[b] << "\"><link_ctn id=\"lan\"/></route>\n";
  }
  x << "  </zone>\n</platform>\n";
  write_text(dir / "platform.xml", x.str());
}

/* The work a finished job's busy processor-seconds (at the reference speed) must cover, from jobs.csv. */
enum class WorkRule {
  size_times_run_time, // linear speedup (every batch and VP case): work = requested size x run time, any allotment
  run_time,            // Downey's phased jobs: parallelism >= 1 in every phase, so work >= the run time alone
};

struct Case {
  std::string name;
  std::string what;
  PlatformSpec platform;
  std::string workload; // the YAML lines under workload:, indented by 2
  std::string rest;     // other top-level YAML (owners:)
  int jobs = 0;         // records the generator makes
  WorkRule work = WorkRule::size_times_run_time;
};

std::string shape_name(JobShape s)
{
  return to_string(s);
}

std::vector<Case> make_cases(const PolicyTraits& t)
{
  std::vector<Case> cases;
  // Failures: two hosts down twice each, in the middle of the runs (times scaled to the workload's length).
  auto failing = [](PlatformSpec p, double scale) {
    p.failures[1] = {{3000 * scale, 0}, {3600 * scale, 1}, {9000 * scale, 0}, {9300 * scale, 1}};
    p.failures[p.hosts - 2] = {{5000 * scale, 0}, {5050 * scale, 1}};
    return p;
  };
  auto owners = [](double scale) {
    std::ostringstream o;
    o << "owners:\n  model: alternating\n  mean_idle: " << 3000 * scale << "\n  activity: 0.2\n";
    return o.str();
  };
  PlatformSpec four;
  four.hosts = 4;
  PlatformSpec eight;
  eight.hosts = 8;
  PlatformSpec large;
  large.hosts = 64;
  large.faster_odd_hosts = true;
  if (t.processes) { // VP jobs on workstations joined by one LAN (their images move over it)
    for (PlatformSpec* p : {&four, &eight, &large})
      p->routes = true;
    large.hosts = 32;
    const std::string vp = "  generator:\n    model: vp\n    jobs: 12\n    mean_interarrival: 900\n    min_vps: 1\n"
                           "    max_vps: 6\n    min_work: 100\n    max_work: 800\n    image_mb: 1\n";
    cases.push_back({"small", "4 workstations, 12 VP jobs of 1 to 6 VPs (doubled up)", four, vp, "", 12});
    cases.push_back({"large", "32 workstations of 1 and 2 Gflop/s, 12 VP jobs", large,
                     "  generator:\n    model: vp\n    jobs: 12\n    mean_interarrival: 300\n    min_vps: 4\n"
                     "    max_vps: 24\n    min_work: 100\n    max_work: 800\n    image_mb: 1\n",
                     "", 12});
    cases.push_back({"simultaneous", "8 workstations, 6 VP jobs always in the system (each end is an arrival)", eight,
                     vp + "  closed:\n    jobs: 6\n", "", 12});
    cases.push_back({"failures", "8 workstations, two failing twice", failing(eight, 0.1), vp, "", 12});
    cases.push_back(
        {"owners", "8 workstations whose owners come and go (busy 20% of the time)", eight, vp, owners(0.5), 12});
    return cases;
  }
  if (t.profiles) { // Cao et al.'s phased malleable jobs (tiny work units: runs of seconds), then batch jobs
    const std::string downey = "  generator:\n    model: downey\n    jobs: 30\n    work_unit: 1.0e-6\n";
    cases.push_back({"small", "4 hosts, 30 Downey jobs", four, downey, "", 30, WorkRule::run_time});
    cases.push_back(
        {"large", "64 hosts of 1 and 2 Gflop/s, 30 Downey jobs", large, downey, "", 30, WorkRule::run_time});
    cases.push_back({"simultaneous", "8 hosts, 8 Downey jobs always in the system (each end is an arrival)", eight,
                     downey + "  closed:\n    jobs: 8\n", "", 30, WorkRule::run_time});
    cases.push_back(
        {"failures", "8 hosts, two failing twice", failing(eight, 0.001), downey, "", 30, WorkRule::run_time});
    cases.push_back({"owners", "8 hosts whose owners come and go (busy 20% of the time)", eight, downey, owners(0.001),
                     30, WorkRule::run_time});
    cases.push_back({"batch", "4 hosts, 20 rigid batch jobs made one phase each (work = size x run time)", four,
                     "  generator:\n    jobs: 20\n    mean_interarrival: 0.4\n    min_run_time: 0.01\n"
                     "    max_run_time: 0.1\n    time_resolution: 0.01\n",
                     "", 20});
    return cases;
  }
  // Batch jobs: run times and submissions on 100 s steps, so that ends coincide with arrivals.
  // A policy sizing jobs by memory gets half a processor's worth per processor of the job (node_memory_mb 1 by
  // default): a job needs about half its processors.
  const std::string memory = t.needs_memory ? "    memory_mb: 0.5\n" : "";
  auto batch = [&memory](int jobs, double interarrival, int max_size, const std::string& shape = "") {
    std::ostringstream w;
    w << "  generator:\n    jobs: " << jobs << "\n    mean_interarrival: " << interarrival
      << "\n    min_run_time: 100\n    max_run_time: 1000\n    time_resolution: 100\n";
    if (max_size > 0) w << "    max_size: " << max_size << "\n";
    if (!shape.empty() || !memory.empty())
      w << "  jobs:\n" << (shape.empty() ? "" : "    shape: " + shape + "\n    min_size: 1\n") << memory;
    return w.str();
  };
  cases.push_back({"small", "4 hosts, 30 jobs, submissions and ends on 100 s steps", four, batch(30, 500, 0), "", 30});
  cases.push_back({"large", "64 hosts of 1 and 2 Gflop/s, 60 jobs", large, batch(60, 200, 0), "", 60});
  cases.push_back({"simultaneous", "8 hosts, 10 jobs always in the system (each end is an arrival at that instant)",
                   eight, batch(40, 500, 0) + "  closed:\n    jobs: 10\n", "", 40});
  cases.push_back(
      {"failures", "8 hosts, two failing twice, jobs requeued", failing(eight, 1), batch(30, 500, 0), "", 30});
  cases.push_back({"owners", "8 hosts whose owners come and go (busy 20% of the time), jobs of at most 4", eight,
                   batch(30, 500, 4), owners(1), 30});
  for (JobShape s : t.shapes) {
    if (s == JobShape::rigid) continue; // every case above
    std::string n = shape_name(s);
    cases.push_back({n, "8 hosts of 2 cores, 30 " + n + " jobs of 1 to their size, linear speedup",
                     PlatformSpec{8, 2, false, false, {}}, batch(30, 400, 0, n), "", 30});
    // Owners take hosts from jobs that started (a moldable job's count stays fixed wherever it goes next).
    cases.push_back({n + "-owners", "8 hosts of 2 cores whose owners come and go, 30 " + n + " jobs of 1 to their size",
                     PlatformSpec{8, 2, false, false, {}}, batch(30, 400, 0, n), owners(1), 30});
  }
  return cases;
}

/* `params`: the policy's parameters as a YAML mapping on one line, empty for none. */
std::string case_yaml(const Case& c, const std::string& policy, const std::string& params, long long seed,
                      const std::string& command)
{
  std::ostringstream y;
  y << "# " << command << ": case " << c.name << " (" << c.what << ").\n# Rerun: jobsched run case.yaml --out DIR\n"
    << "name: check-" << c.name << "\nplatform: platform.xml\nworkload:\n"
    << c.workload << "policy:\n  name: " << policy << "\n"
    << (params.empty() ? "" : "  params: " + params + "\n") << c.rest << "simulation:\n  seed: " << seed
    << "\n  reference_speed: " << kReferenceSpeed << "\noutput:\n  trace: true\n";
  return y.str();
}

/* `jobsched run case.yaml --out out --quiet` in `dir` (with `sets`, each a --set's KEY=VALUE), stderr to
 * dir/OUT-stderr.txt. Returns the wait status; throws Interrupted once the run has ended when SIGINT, SIGTERM or SIGHUP
 * came (passed on to the run, which removes its unfinished outputs). */
int run_case(const fs::path& dir, const std::string& out, const std::vector<std::string>& plugins,
             const std::vector<std::string>& sets = {})
{
  std::vector<std::string> args{self_executable(),    "run",    (dir / "case.yaml").string(), "--out",
                                (dir / out).string(), "--quiet"};
  for (const auto& set : sets) {
    args.emplace_back("--set");
    args.push_back(set);
  }
  for (const auto& p : plugins) {
    args.emplace_back("--plugin");
    args.push_back(p);
  }
  throw_if_interrupted();
  const pid_t pid = start_interruptible_child(std::move(args), dir / (out + "-stderr.txt"));
  int status = 0;
  wait_for_child(status, pid);
  throw_if_interrupted(); // the run ended on the signal: not a finding about the policy
  return status;
}

/* What a failed run said: the last line of its stderr, or its exit status or signal. */
std::string failed_run(const fs::path& stderr_file, int status)
{
  std::ifstream in(stderr_file);
  std::string line;
  std::string last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  if (WIFSIGNALED(status))
    return "killed by signal " + std::to_string(WTERMSIG(status)) + (last.empty() ? "" : ": ") + last;
  const int code = WEXITSTATUS(status);
  const char* kind = code == 2   ? "refused the case as bad input"
                     : code == 3 ? "stopped on an internal error (a decision the runtime refused, or a crash)"
                     : code == 4 ? "stopped on a violated invariant"
                                 : "failed";
  return std::string("the run ") + kind + " (exit status " + std::to_string(code) + ")" +
         (last.empty() ? "" : ": " + last);
}

} // namespace

namespace {

struct CheckPolicyOptions {
  std::string name;
  std::string seed_text;            // --seed S
  std::string keep;                 // --keep DIR
  std::vector<std::string> plugins; // --plugin PATH, in order
  std::vector<std::string> sets;    // --set policy.params.KEY=VALUE, in order
};

/* `text` between single quotes for a shell, where it needs them. */
std::string shell_word(const std::string& text)
{
  const bool plain = !text.empty() && text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                             "0123456789_.,=+-/:@") == std::string::npos;
  return plain ? text : shell_quote(text);
}

int check_policy(const CheckPolicyOptions& o, const CLI::App& parsed)
{
  defer_interruption(); // a signal is passed on to the case's run, and the check ends once it has
  const std::string& name = o.name;
  const long long seed = parsed.count("--seed") > 0 ? parse_whole("--seed", o.seed_text, 0, LLONG_MAX) : 1;
  const std::string& keep = o.keep;
  // The cases run in child processes, from other folders: they load the same libraries, by absolute paths.
  std::vector<std::string> plugins;
  for (const auto& p : o.plugins)
    plugins.push_back(fs::absolute(p).lexically_normal().string());
  load_command_line_plugins(plugins);
  if (name.empty()) throw InputError("no policy given: jobsched check-policy NAME (names: jobsched list-policies)");
  const PolicyInfo& info = policy_registry().get(name); // InputError naming the known policies
  // Bad parameters are bad input of the check, refused before any case runs (not a violation of the first case).
  const CheckedPolicyParams given = check_policy_params(o.sets, info);
  const PolicyTraits traits = policy_traits(info, given);

  // The temporary folder goes when the check ends, unless a violation keeps it: every case passed, SIGINT, SIGTERM or
  // SIGHUP stopped it (Interrupted, thrown once the case's run has ended), or an error. --keep's folder stays.
  std::optional<TemporaryFolder> temporary;
  fs::path root;
  if (!keep.empty()) {
    root = fs::absolute(keep).lexically_normal();
    std::error_code ec;
    fs::create_directories(root, ec);
    if (ec || !fs::is_directory(root)) throw InputError("--keep: cannot create the folder " + quoted_value(keep));
  } else {
    try {
      temporary.emplace("jobsched-check-");
    } catch (const std::exception& e) {
      throw InputError(e.what());
    }
    root = temporary->path();
  }

  std::string command = "jobsched check-policy " + name + " --seed " + std::to_string(seed);
  for (const auto& set : o.sets)
    command += " --set " + shell_word(set);
  for (const auto& p : plugins)
    command += " --plugin " + p;
  std::string shapes;
  for (JobShape s : traits.shapes)
    shapes += (shapes.empty() ? "" : ", ") + shape_name(s);
  std::printf("%s: %s policy; jobs %s%s%s; cases in %s\n", command.c_str(),
              traits.time_sharing ? "time-sharing" : "space-sharing",
              traits.processes  ? "placed as processes (VP generator)"
              : traits.profiles ? "as parallelism profiles (Downey's phased jobs)"
                                : shapes.c_str(),
              traits.needs_memory ? ", with memory" : "", traits.profiles ? ", fractional shares" : "",
              root.string().c_str());
  std::fflush(stdout);

  const std::vector<Case> cases = make_cases(traits);
  // A policy of a plugin needs its library to run again.
  std::string rerun = self_executable() + " run ";
  for (const auto& p : plugins)
    rerun += "--plugin " + p + " ";
  auto violation = [&](const Case& c, const fs::path& dir, const std::string& why) {
    if (temporary) temporary->keep();
    std::printf("  FAIL %-16s %s\n       %s\n", c.name.c_str(), c.what.c_str(), why.c_str());
    std::printf("%s: violation in case %s. Its scenario and outputs are kept in %s; reproduce with:\n  %s%s --out %s\n",
                name.c_str(), c.name.c_str(), dir.string().c_str(), rerun.c_str(), (dir / "case.yaml").string().c_str(),
                (dir / "again").string().c_str());
    return 1;
  };
  for (const Case& c : cases) {
    const fs::path dir = root / c.name;
    fs::create_directories(dir);
    write_platform(dir, c.platform);
    write_text(dir / "case.yaml", case_yaml(c, name, given.yaml, seed, command));
    auto begin = std::chrono::steady_clock::now();
    int status = run_case(dir, "out", plugins);
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0))
      return violation(c, dir, failed_run(dir / "out-stderr.txt", status));
    std::string why;
    try {
      CheckedRun checked{c.jobs, c.platform.cores, {}, c.work == WorkRule::size_times_run_time, traits.profiles};
      for (int h = 0; h < c.platform.hosts; h++)
        checked.speed.push_back(c.platform.host_speed(h) / static_cast<double>(kReferenceSpeed));
      why = check_run_outputs(dir / "out", checked);
    } catch (const std::exception& e) { // unreadable outputs are a finding about the run, not bad input
      why = std::string("its outputs cannot be read: ") + e.what();
    }
    if (!why.empty()) return violation(c, dir, why);
    // Same seed, same bytes: the case with owners (the most random streams) run again.
    std::string repeat;
    if (c.name == "owners") {
      status = run_case(dir, "repeat", plugins);
      if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        return violation(c, dir, "run again: " + failed_run(dir / "repeat-stderr.txt", status));
      for (const char* file : {"jobs.csv", "trace.csv", "summary.json"})
        if (file_text(dir / "out" / file) != file_text(dir / "repeat" / file))
          return violation(c, dir,
                           std::string("run twice with the same seed, ") + file + " differs (out/ and repeat/)");
      repeat = ", run twice: same bytes";
    }
    // A time-sharing policy's plans reached on the virtual clock, its cycles and lookaheads replayed without asking it
    // (Plan::repeats, cycle, lookahead) must give what asking it at every wake-up gives: the first two cases again with
    // every wake-up SimGrid's.
    if (traits.time_sharing && (c.name == "small" || c.name == "large")) {
      status = run_case(dir, "stepped", plugins, {"simulation.virtual_wakeups=false"});
      if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        return violation(c, dir,
                         "with simulation.virtual_wakeups false: " + failed_run(dir / "stepped-stderr.txt", status));
      // A policy that declares cycles has their rows aggregated (trace.csv's period and repeats columns): then the
      // jobs' results only.
      const std::string trace = file_text(dir / "out" / "trace.csv");
      const bool aggregated = trace.substr(0, trace.find('\n')).find(",period,repeats") != std::string::npos;
      std::vector<std::string> files{"jobs.csv", "summary.json"};
      if (!aggregated) files.insert(files.end(), {"trace.csv", "segments.csv"});
      for (const std::string& file : files)
        if (file_text(dir / "out" / file) != file_text(dir / "stepped" / file))
          return violation(c, dir,
                           file + " differs with simulation.virtual_wakeups false (out/ and stepped/): "
                                  "the plans the policy declared ahead or as repeating (Plan::repeats, "
                                  "cycle, lookahead) are not those it returns when asked");
      repeat += ", every wake-up SimGrid's: same bytes";
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    std::printf("  ok   %-16s %s (%.1f s%s)\n", c.name.c_str(), c.what.c_str(), seconds, repeat.c_str());
    std::fflush(stdout);
  }
  throw_if_interrupted(); // a signal that came after the last case's runs
  std::printf("%s: all %zu cases pass\n", name.c_str(), cases.size());
  return 0;
}

} // namespace

void add_check_policy_command(CommandLine& cli)
{
  auto o = std::make_shared<CheckPolicyOptions>();
  CLI::App* command = cli.add_command(cli.root(), "check-policy", kCheckPolicyUsage,
                                      [o](const CLI::App& parsed) { return check_policy(*o, parsed); });
  command->add_option("name", o->name, "the policy");
  command->add_option("--seed", o->seed_text);
  command->add_option("--keep", o->keep);
  command->add_option("--plugin", o->plugins)->allow_extra_args(false);
  command->add_option("--set", o->sets)->allow_extra_args(false);
}

} // namespace jobsched
