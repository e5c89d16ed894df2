#include "experiment/commands.hpp"

#include "core/errors.hpp"
#include "core/fnv1a.hpp"
#include "core/input_file.hpp"
#include "core/interruption.hpp"
#include "core/temporary_folder.hpp"
#include "experiment/child_process.hpp"
#include "experiment/statistics.hpp"
#include "experiment/sweep_plan.hpp"
#include "experiment/tables.hpp"
#include "output/output_files.hpp"
#include "policy/plugin_loader.hpp"
#include "run/simulation.hpp"
#include "scenario/scenario.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <map>
#include <set>
#include <signal.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace fs = std::filesystem;

namespace jobsched {

const char* const kSweepUsage = R"(Usage: jobsched sweep SCENARIO.yaml [options]

Runs every point of the scenario's `sweep:` grid times its `replications:`, each as its own `jobsched run` process
(`jobsched fork-join` for the fork-join study), then writes results.csv (one row per run) and aggregate.csv (per
point and metric: n, mean, std, 95% half-width).
Finished runs are kept (runs/<hash>/) and not redone when the sweep is run again, unless another build of jobsched
made them or they lack a file the scenario's output: section asks for (trace.csv after output.trace: false).

Options:
  --out DIR         the sweep's folder (default: the scenario's output.dir)
  -j N, --jobs N    simulations at once (default: all cores)
  --set KEY=VALUE   override a scenario value for every run (repeatable); the grid itself too:
                    --set 'sweep={policy.name: [fcfs, easy]}' --set replications=10
  --plugin PATH     load policies and allocators from the shared library PATH, in this process and in every run
                    (repeatable); build.txt records every loaded library's hash, so a rebuilt one redoes its runs
  --shard I/N       run only the I-th of N slices of the runs (1 <= I <= N), write no table: see collect
  --slurm           write DIR/plan.csv and DIR/sweep.sbatch (a Slurm job array, one task per shard), run nothing
  --shards N        with --slurm (refused without it): number of array tasks (default: one per run, at most 1000)
  --quiet           no progress and no summary on the terminal

Then: jobsched collect DIR   merges the runs of all shards into results.csv and aggregate.csv.
Every point is set up first as `jobsched run --check`: one that its runs would refuse is bad input of the sweep.
Exit status: 0 all runs succeeded, 1 some failed (the tables are still written), 2 bad input (nothing written),
128 + the signal when SIGINT, SIGTERM or SIGHUP stopped the sweep (130, 143, 129): the signal is passed on to the
runs under way, which remove their unfinished outputs; the sweep waits for them and writes no table. Finished runs
stay, and the same command goes on from there.
)";

namespace {

struct SweepOptions : ScenarioOptions {
  std::string jobs_text;   // -j N, --jobs N
  std::string shard_text;  // --shard I/N
  std::string shards_text; // --shards N
  int jobs = 0;
  int shard_index = 0; // 1-based; 0: no sharding
  int shard_count = 0;
  bool slurm = false;
  int slurm_shards = 0;
};

long parse_count(const std::string& option, const std::string& text, long min)
{
  char* end = nullptr;
  long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < min)
    throw InputError(option + ": expected an integer >= " + std::to_string(min) + ", got " + quoted_value(text));
  return v;
}

/* The numbers of the options, read and checked once CLI11 has split the command line. */
void check_options(SweepOptions& o, const CLI::App& command)
{
  if (command.count("--jobs") > 0) o.jobs = static_cast<int>(parse_count("-j", o.jobs_text, 1));
  if (command.count("--shard") > 0) {
    const std::string& v = o.shard_text;
    auto slash = v.find('/');
    if (slash == std::string::npos) throw InputError("--shard: expected I/N, got " + quoted_value(v));
    o.shard_index = static_cast<int>(parse_count("--shard", v.substr(0, slash), 1));
    o.shard_count = static_cast<int>(parse_count("--shard", v.substr(slash + 1), 1));
    if (o.shard_index > o.shard_count) throw InputError("--shard: I must be <= N, got " + quoted_value(v));
  }
  if (command.count("--shards") > 0) {
    // The number of tasks of the Slurm array: without --slurm it was accepted and did nothing.
    if (!o.slurm)
      throw InputError(
          "--shards: only with --slurm (the number of its array tasks); to run one slice of the runs here, "
          "--shard I/N");
    o.slurm_shards = static_cast<int>(parse_count("--shards", o.shards_text, 1));
  }
  if (o.scenario.empty()) throw InputError("no scenario given: jobsched sweep SCENARIO.yaml");
  if (o.jobs == 0) o.jobs = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
}

/* FNV-1a over the bytes of `file`, continuing from `h` (std::runtime_error when it cannot be read). */
std::uint64_t hash_file(const std::string& file, std::uint64_t h)
{
  const std::optional<std::uint64_t> hashed = fnv1a_file(file, h);
  if (!hashed) throw std::runtime_error("cannot read " + file);
  return *hashed;
}

/* Which build of jobsched this is: a hash of the executable and of the library that holds this code. A sweep records
 * it in each run folder and redoes the finished runs that another build made, since a run is named by its scenario
 * alone and a changed policy or model would otherwise leave old results in new tables. */
std::string build_identity()
{
  std::uint64_t h = hash_file(self_executable(), kFnv1aOffset);
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&build_identity), &info) != 0 && info.dli_fname != nullptr)
    h = hash_file(info.dli_fname, h);
  for (const auto& plugin : loaded_plugins()) // a rebuilt plugin redoes the runs too
    h = fnv1a(plugin.hash, h);
  return hex16(h);
}

std::string last_line(const fs::path& file)
{
  std::ifstream in(file);
  std::string line;
  std::string last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last;
}

void write_file(const fs::path& dir, const std::string& name, const std::string& text)
{
  OutputFiles files(dir);
  files.add(name, text);
  files.commit();
}

/* plan.csv, unless the folder's plan is already this one. A different plan makes the folder's results.csv and
 * aggregate.csv stale: they are removed first, so a sweep killed before its new tables are written leaves a plan and
 * no tables (`jobsched collect` makes them), never the new plan beside the old tables. */
void write_plan(const fs::path& dir, const std::string& plan)
{
  std::ifstream in(dir / "plan.csv", std::ios::binary);
  std::stringstream old;
  old << in.rdbuf();
  if (in && old.str() == plan) return;
  for (const char* table : {"results.csv", "aggregate.csv"}) {
    std::error_code ec;
    fs::remove(dir / table, ec);
    if (ec) throw InputError((dir / table).string() + ": cannot remove the outdated table (" + ec.message() + ")");
  }
  write_file(dir, "plan.csv", plan);
}

/* The files the runs of each point write (run_output_files()), each distinct list kept once: a grid of a million
 * points has a few (one per kind of policy), not a million. */
class PointFiles {
 public:
  void set(long point, std::vector<std::string> files)
  {
    auto it = std::find(lists_.begin(), lists_.end(), files);
    if (it == lists_.end()) it = lists_.insert(lists_.end(), std::move(files));
    if (static_cast<size_t>(point) >= of_point_.size()) of_point_.resize(static_cast<size_t>(point) + 1);
    of_point_[static_cast<size_t>(point)] = static_cast<size_t>(it - lists_.begin());
  }
  const std::vector<std::string>& of(long point) const { return lists_.at(of_point_.at(static_cast<size_t>(point))); }

 private:
  std::vector<std::vector<std::string>> lists_;
  std::vector<size_t> of_point_; // index in lists_
};

/* Runs simulations as child processes, at most `parallel` at once. */
class RunPool {
 public:
  RunPool(const SweepOptions& o, fs::path dir, bool show_progress, bool fork_join, std::string build,
          const PointFiles& files)
      : options_(o), dir_(std::move(dir)), exe_(self_executable()), build_(std::move(build)), files_(files),
        progress_(show_progress), fork_join_(fork_join)
  {
  }

  /* Runs every run of `runs` that has no summary yet, whose summary another build of jobsched wrote, or whose folder
   * lacks a file its scenario asks for: a run's name leaves output: out (its switches choose files, not results), so
   * a run made under output.trace: false is found done when the sweep is run again with output.trace: true. */
  void run_all(const std::vector<SweepRun>& runs)
  {
    std::vector<const SweepRun*> todo;
    for (const auto& r : runs) {
      const fs::path run_dir = dir_ / "runs" / r.hash;
      if (!fs::exists(run_dir / "summary.json")) {
        todo.push_back(&r);
      } else if (file_first_line(run_dir / "build.txt") != build_) {
        todo.push_back(&r);
        other_build_++;
      } else if (const std::string* missing = first_missing(run_dir, files_.of(r.point))) {
        todo.push_back(&r);
        if (lacking_files_++ == 0) first_lacking_ = (run_dir / *missing).string();
      } else {
        reused_++;
      }
    }
    total_ += static_cast<long>(todo.size());
    size_t next = 0;
    std::map<pid_t, const SweepRun*> running;
    // On SIGINT, SIGTERM or SIGHUP no run is started any more; the handler passed the signal on to those under way.
    while ((next < todo.size() && interruption_signal() == 0) || !running.empty()) {
      while (next < todo.size() && interruption_signal() == 0 && static_cast<int>(running.size()) < options_.jobs) {
        running[spawn(*todo[next])] = todo[next];
        next++;
      }
      int status = 0;
      const pid_t pid = wait_for_child(status);
      auto it = running.find(pid);
      if (it == running.end()) continue;
      finished(*it->second, status);
      running.erase(it);
      show(static_cast<long>(running.size()));
    }
    throw_if_interrupted();
  }

  long reused() const { return reused_; }
  long other_build() const { return other_build_; }
  long lacking_files() const { return lacking_files_; }
  const std::string& first_lacking() const { return first_lacking_; }
  long done() const { return done_; }
  /* A failed run, copied: the runs a stopping rule adds live in a list of one round, gone when the failures are told
   * (pointers into it printed freed memory as the run's name). */
  struct FailedRun {
    std::string hash;
    long point = 0, replication = 0;
    std::string why;
  };
  const std::vector<FailedRun>& failures() const { return failures_; }
  void end_progress() const
  {
    if (progress_ && total_ > 0) std::fprintf(stderr, "\n");
  }

 private:
  pid_t spawn(const SweepRun& r)
  {
    fs::path run_dir = dir_ / "runs" / r.hash;
    fs::create_directories(run_dir);
    fs::remove(run_dir / "error.txt");
    // The run is redone: its old summary goes, and the folder names this build before the run starts, so that a run
    // which finishes after this sweep process was killed is found done by this build when the sweep is resumed (the
    // run's folder keeps build.txt, output/run_folder.hpp).
    fs::remove(run_dir / "summary.json");
    std::string build = build_ + "\n";
    for (const auto& plugin : loaded_plugins()) // what the first line's hash covers besides jobsched's own files
      build += "plugin " + plugin.hash + " " + plugin.file.string() + "\n";
    write_file(run_dir, "build.txt", build);
    std::string header = "# Resolved from " + options_.scenario + " with:";
    for (const auto& o : r.overrides)
      header += " --set " + o;
    write_file(run_dir, "scenario.yaml", header + "\n" + r.resolved_yaml);

    std::vector<std::string> args{
        exe_,     fork_join_ ? "fork-join" : "run", fs::absolute(options_.scenario).string(), "--out", run_dir.string(),
        "--quiet"};
    for (const auto& o : r.overrides) {
      args.emplace_back("--set");
      args.push_back(o);
    }
    for (const auto& plugin : options_.plugins) {
      args.emplace_back("--plugin");
      args.push_back(plugin);
    }
    return start_interruptible_child(std::move(args), run_dir / "stderr.txt");
  }

  void finished(const SweepRun& r, int status)
  {
    fs::path run_dir = dir_ / "runs" / r.hash;
    done_++;
    const bool succeeded = WIFEXITED(status) && WEXITSTATUS(status) == 0 && fs::exists(run_dir / "summary.json");
    if (succeeded || interruption_signal() != 0) { // a run stopped by the sweep's signal is not a failure: redone
      fs::remove(run_dir / "stderr.txt");
      return;
    }
    std::string why = last_line(run_dir / "stderr.txt");
    if (why.empty())
      why = WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                                : "exit status " + std::to_string(WEXITSTATUS(status));
    write_file(run_dir, "error.txt", why + "\n");
    failures_.push_back({r.hash, r.point, r.replication, why});
  }

  void show(long running) const
  {
    if (options_.quiet) return;
    auto elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    double left = done_ > 0 ? elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_) : 0;
    char line[200];
    std::snprintf(line, sizeof line, "[jobsched sweep] %ld/%ld runs done, %zu failed, %ld running, about %.0f s left",
                  done_, total_, failures_.size(), running, left);
    if (progress_) {
      std::fprintf(stderr, "\r%-100s", line);
      std::fflush(stderr);
    } else if (total_ >= 10 && (done_ * 10 / total_) != ((done_ - 1) * 10 / total_)) {
      std::fprintf(stderr, "%s\n", line); // every tenth of the runs when stderr is not a terminal
    }
  }

  /* The first of `files` that the folder `run_dir` does not hold, or nullptr. */
  static const std::string* first_missing(const fs::path& run_dir, const std::vector<std::string>& files)
  {
    for (const auto& name : files)
      if (!fs::exists(run_dir / name)) return &name;
    return nullptr;
  }

  const SweepOptions& options_;
  fs::path dir_;
  std::string exe_;
  std::string build_; // build_identity()
  const PointFiles& files_;
  bool progress_;
  bool fork_join_; // each run is `jobsched fork-join`, not `jobsched run`
  long total_ = 0;
  long done_ = 0;
  long reused_ = 0;
  long other_build_ = 0; // finished runs that another build made, redone
  long lacking_files_ = 0;    // finished runs without a file the scenario's output: asks for, redone
  std::string first_lacking_; // the first such file
  std::vector<FailedRun> failures_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

/* Sets up the first run of every point of `runs` as that run will be set up (`jobsched run --check`: platform,
 * deployment, policy, workload; SimGrid loads one platform per process, so one child process per point, o.jobs at
 * once), before the sweep writes anything: a point that its runs would refuse as bad input makes the whole sweep bad
 * input, named by its point, with the folder left as it was. A check failing otherwise (exit status 1 or 3, a signal)
 * lets the sweep go on: that point's runs then fail as they would have without the check, and the tables are written.
 * A point whose first run this build has done passed. */
void check_points(const SweepOptions& o, const SweepPlan& plan, const std::vector<SweepRun>& runs, const fs::path& dir,
                  const std::string& build)
{
  std::vector<long> points;
  for (const auto& r : runs) {
    if (!points.empty() && points.back() == r.point) continue;
    const fs::path run_dir = dir / "runs" / plan.make_run(r.point, 0).hash;
    if (fs::exists(run_dir / "summary.json") && file_first_line(run_dir / "build.txt") == build) continue;
    points.push_back(r.point);
  }
  if (points.empty()) return;
  TemporaryFolder messages("jobsched-sweep-check-");
  const std::string exe = self_executable();
  std::map<pid_t, long> running;
  std::map<long, std::string> failed; // point refused as bad input: the last line its check wrote
  size_t next = 0;
  while ((next < points.size() && failed.empty() && interruption_signal() == 0) || !running.empty()) {
    while (next < points.size() && failed.empty() && interruption_signal() == 0 &&
           static_cast<int>(running.size()) < o.jobs) {
      const long point = points[next++];
      std::vector<std::string> args{exe, plan.fork_join() ? "fork-join" : "run", fs::absolute(o.scenario).string(),
                                    "--check", "--quiet"};
      for (const auto& assignment : plan.make_run(point, 0).overrides) {
        args.emplace_back("--set");
        args.push_back(assignment);
      }
      for (const auto& plugin : o.plugins) {
        args.emplace_back("--plugin");
        args.push_back(plugin);
      }
      running[start_interruptible_child(std::move(args), messages.path() / std::to_string(point))] = point;
    }
    int status = 0;
    const pid_t pid = wait_for_child(status);
    auto it = running.find(pid);
    if (it == running.end()) continue;
    const long point = it->second;
    running.erase(it);
    const fs::path message = messages.path() / std::to_string(point);
    // Only bad input (exit status 2) refuses the sweep. Any other failure of a check (an internal error, a crash, a
    // kill) is left to the point's runs, which fail as they did before these checks, with the tables still written.
    if (WIFEXITED(status) && WEXITSTATUS(status) == 2) failed[point] = last_line(message);
    std::error_code ec;
    fs::remove(message, ec); // read: a sweep of a million points would keep a million files to the end otherwise
  }
  throw_if_interrupted(); // (the folder of messages is removed on the way)
  if (failed.empty()) return;
  // Every point before a failed one was started (in order) and has ended: the first failed point is the grid's first.
  const auto& [point, line] = *failed.begin();
  std::string why = line;
  for (const char* prefix : {"jobsched: error: ", "jobsched: "})
    if (why.rfind(prefix, 0) == 0) {
      why.erase(0, std::strlen(prefix));
      break;
    }
  throw InputError(plan.axes().empty() ? "sweep point " + std::to_string(point) + ": " + why
                                       : plan.point_error(point, why));
}

/* The stopping rule: more replications for every point whose interval is still too wide. */
std::vector<SweepRun> more_replications(const SweepPlan& plan, const fs::path& dir, const std::vector<SweepRun>& runs)
{
  const ReplicationRule& rule = plan.replications();
  auto samples = metric_samples(dir, runs, rule.metric);
  // Points whose every run says it (e.g. saturated: its mean grows with the run, no interval will ever close).
  std::set<long> stopped;
  if (!rule.stop_when.empty()) {
    std::map<long, std::vector<double>> flags;
    try {
      flags = metric_samples(dir, runs, rule.stop_when);
    } catch (const InputError&) {
      throw InputError("replications.stop_when: " + quoted_value(rule.stop_when) +
                       " is not a numeric field of summary.json");
    }
    for (const auto& [point, values] : flags)
      if (std::all_of(values.begin(), values.end(), [](double v) { return v > 0; })) stopped.insert(point);
  }
  std::map<long, long> planned;
  for (const auto& r : runs)
    planned[r.point] = std::max(planned[r.point], r.replication + 1);
  std::vector<SweepRun> extra;
  for (long p = 0; p < plan.point_count(); p++) {
    long n = planned[p];
    if (n >= rule.max || stopped.count(p) != 0) continue;
    Estimate e = estimate(samples[p], rule.confidence);
    if (e.n < n) continue; // some runs failed: do not chase the interval with more of them
    double target_half = rule.relative_half_width * std::fabs(e.mean);
    if (e.has_interval() && e.half_width <= target_half) continue;
    // Runs needed for the half-width to reach the target if the deviation holds: (t s / target)^2.
    long want = n + 1;
    if (e.has_interval() && target_half > 0) {
      double t = student_t_quantile((1 + rule.confidence) / 2, static_cast<double>(e.n - 1));
      want = std::max(want, static_cast<long>(std::ceil(std::pow(t * e.std / target_half, 2))));
    }
    for (long r = n; r < std::min(want, rule.max); r++)
      extra.push_back(plan.make_run(p, r));
  }
  return extra;
}

std::string slurm_script(const SweepOptions& o, const fs::path& dir, int shards, const std::string& name)
{
  std::string cmd = shell_quote(self_executable()) + " sweep " + shell_quote(fs::absolute(o.scenario).string()) +
                    " --out " + shell_quote(dir.string()) + " --shard \"${SLURM_ARRAY_TASK_ID}/" +
                    std::to_string(shards) + "\" -j \"${SLURM_CPUS_PER_TASK:-1}\" --quiet";
  for (const auto& s : o.overrides)
    cmd += " --set " + shell_quote(s);
  for (const auto& plugin : o.plugins)
    cmd += " --plugin " + shell_quote(plugin);
  std::ostringstream out;
  out << "#!/bin/bash\n"
      << "# Written by jobsched sweep --slurm: one array task per shard of the sweep's runs.\n"
      << "# Submit: sbatch " << (dir / "sweep.sbatch").string() << "\n"
      << "# Then:   jobsched collect " << dir.string() << "\n"
      << "#SBATCH --job-name=jobsched-" << name << "\n"
      << "#SBATCH --array=1-" << shards << "\n"
      << "#SBATCH --cpus-per-task=1\n"
      << "#SBATCH --output=" << (dir / "slurm" / "%A_%a.out").string() << "\n"
      << "set -eu\n"
      << "cd " << shell_quote(fs::current_path().string()) << "\n"
      << "exec " << cmd << "\n";
  return out.str();
}

} // namespace

namespace {

int run_sweep(const SweepOptions& o)
{
  defer_interruption(); // a signal is passed on to the runs, and the sweep ends once they have
  load_command_line_plugins(o.plugins);
  PointFiles files; // what a finished run of each point must hold to be reused
  SweepPlan plan = SweepPlan::load(o.scenario, o.overrides, [&files](long point, const Scenario& sc) {
    check_input_files(sc);
    check_policy_choices(sc);
    files.set(point, run_output_files(sc));
  });
  fs::path dir = fs::absolute(!o.out_dir.empty()           ? fs::path(o.out_dir)
                              : !plan.output_dir().empty() ? fs::path(plan.output_dir())
                                                           : fs::path("results") / fs::path(o.scenario).stem())
                     .lexically_normal();
  const bool adaptive = plan.replications().adaptive;
  if (adaptive && (o.shard_count > 0 || o.slurm))
    throw InputError("--shard and --slurm need a fixed number of replications (a stopping rule needs every result)");

  std::vector<SweepRun> runs = plan.initial_runs();
  std::vector<SweepRun> mine;
  for (size_t i = 0; i < runs.size(); i++)
    if (o.shard_count == 0 || static_cast<int>(i % o.shard_count) == o.shard_index - 1) mine.push_back(runs[i]);
  const std::string build = build_identity();
  check_points(o, plan, o.slurm ? runs : mine, dir, build);
  if (o.slurm) {
    int shards = o.slurm_shards > 0 ? o.slurm_shards : static_cast<int>(std::min<size_t>(runs.size(), 1000));
    fs::create_directories(dir / "slurm");
    OutputFiles files(dir);
    files.add("plan.csv", plan_csv(plan, runs));
    files.add("sweep.sbatch", slurm_script(o, dir, shards, fs::path(o.scenario).stem().string()));
    files.commit();
    if (!o.quiet)
      std::printf("jobsched: %zu runs in %d shards\n  submit: sbatch %s\n  then:   jobsched collect %s\n", runs.size(),
                  shards, (dir / "sweep.sbatch").c_str(), dir.c_str());
    return 0;
  }

  if (o.shard_count == 0 || !fs::exists(dir / "plan.csv")) write_plan(dir, plan_csv(plan, runs));

  RunPool pool(o, dir, !o.quiet && isatty(STDERR_FILENO), plan.fork_join(), build, files);
  pool.run_all(mine);
  while (adaptive) {
    auto extra = more_replications(plan, dir, runs);
    if (extra.empty()) break;
    runs.insert(runs.end(), extra.begin(), extra.end());
    std::stable_sort(runs.begin(), runs.end(), [](const SweepRun& a, const SweepRun& b) {
      return a.point < b.point || (a.point == b.point && a.replication < b.replication);
    });
    write_plan(dir, plan_csv(plan, runs));
    pool.run_all(extra);
  }
  pool.end_progress();
  if (pool.other_build() > 0 && !o.quiet)
    std::fprintf(stderr,
                 "jobsched sweep: %ld finished run%s had been made by another build of jobsched (build.txt): redone\n",
                 pool.other_build(), pool.other_build() == 1 ? "" : "s");
  if (pool.lacking_files() > 0 && !o.quiet)
    std::fprintf(stderr,
                 "jobsched sweep: %ld finished run%s lacked a file the scenario's output: asks for (first: %s): "
                 "redone\n",
                 pool.lacking_files(), pool.lacking_files() == 1 ? "" : "s", pool.first_lacking().c_str());

  for (const auto& failed : pool.failures())
    std::fprintf(stderr, "jobsched: run %s (point %ld, replication %ld) failed: %s\n", failed.hash.c_str(),
                 failed.point, failed.replication, failed.why.c_str());
  throw_if_interrupted();
  if (o.shard_count == 0) {
    SweepTables t = build_tables(dir, plan.replications().confidence);
    OutputFiles files(dir);
    files.add("results.csv", t.results_csv);
    files.add("aggregate.csv", t.aggregate_csv);
    files.commit();
  }
  if (!o.quiet) {
    std::printf("jobsched: sweep of %ld points, %zu runs%s: %ld simulated now, %ld already done, %zu failed\n",
                plan.point_count(), mine.size(), o.shard_count > 0 ? " in this shard" : "", pool.done(), pool.reused(),
                pool.failures().size());
    if (o.shard_count == 0)
      std::printf("  tables: %s/{results.csv,aggregate.csv}\n", dir.c_str());
    else
      std::printf("  when every shard is done: jobsched collect %s\n", dir.c_str());
  }
  return pool.failures().empty() ? 0 : 1;
}

} // namespace

void add_scenario_options(CLI::App& command, ScenarioOptions& o)
{
  command.add_option("scenario", o.scenario, "the scenario file");
  command.add_option("--set", o.overrides)->allow_extra_args(false);
  // An empty name would be taken as no --out (the scenario's output.dir): refused instead.
  command.add_option("--out", o.out_dir)->check([](const std::string& dir) {
    return dir.empty() ? std::string("empty folder name (--out . for the current folder; without --out, output.dir)")
                       : std::string();
  });
  command.add_flag("-q,--quiet", o.quiet);
  command.add_option("--plugin", o.plugins)->allow_extra_args(false);
}

void add_sweep_command(CommandLine& cli)
{
  auto o = std::make_shared<SweepOptions>();
  CLI::App* command = cli.add_command(cli.root(), "sweep", kSweepUsage, [o](const CLI::App& parsed) {
    check_options(*o, parsed);
    return run_sweep(*o);
  });
  add_scenario_options(*command, *o);
  command->add_option("-j,--jobs", o->jobs_text);
  command->add_option("--shard", o->shard_text);
  command->add_flag("--slurm", o->slurm);
  command->add_option("--shards", o->shards_text);
}

namespace {

const char* const kCollectUsage =
    "Usage: jobsched collect SWEEP_DIR [--confidence C]\n\nWrites SWEEP_DIR/results.csv and aggregate.csv from "
    "SWEEP_DIR/plan.csv and the runs in SWEEP_DIR/runs/ (e.g. after the shards of a Slurm array).\n"
    "  --confidence C   level of aggregate.csv's ci_half_width column (default 0.95; ci95_half_width stays)\n"
    "Exit status: 0, 1 if some runs failed or are missing (their rows say so), 2 bad input.\n";

struct CollectOptions {
  std::string dir;
  std::string confidence_text; // --confidence C
};

int run_collect(const CollectOptions& o, const CLI::App& command)
{
  double confidence = 0.95;
  if (command.count("--confidence") > 0) {
    const std::string& text = o.confidence_text;
    double c = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), c);
    if (error != std::errc() || end != text.data() + text.size() || !(c >= 0.5 && c < 1))
      throw InputError("--confidence: must be a number at least 0.5 and below 1, got " + quoted_value(text));
    confidence = c;
  }
  if (o.dir.empty()) throw InputError("usage: jobsched collect SWEEP_DIR [--confidence C]");
  fs::path dir = o.dir;
  SweepTables t = build_tables(dir, confidence);
  OutputFiles files(dir);
  files.add("results.csv", t.results_csv);
  files.add("aggregate.csv", t.aggregate_csv);
  files.commit();
  std::printf("jobsched: %ld runs ok, %ld failed, %ld missing\n  tables: %s/{results.csv,aggregate.csv}\n", t.ok,
              t.failed, t.missing, dir.c_str());
  return t.failed + t.missing == 0 ? 0 : 1;
}

} // namespace

void add_collect_command(CommandLine& cli)
{
  auto o = std::make_shared<CollectOptions>();
  CLI::App* command = cli.add_command(cli.root(), "collect", kCollectUsage,
                                      [o](const CLI::App& parsed) { return run_collect(*o, parsed); });
  command->add_option("dir", o->dir);
  command->add_option("--confidence", o->confidence_text);
}

} // namespace jobsched
