/* jobsched: the launcher. Reads a scenario, runs one simulation, writes its outputs. */
#include "core/command_line.hpp"
#include "core/errors.hpp"
#include "core/interruption.hpp"
#include "core/time_format.hpp"
#include "core/version.hpp"
#include "core/writable_file.hpp"
#include "experiment/check_policy.hpp"
#include "experiment/commands.hpp"
#include "experiment/plan_command.hpp"
#include "experiment/plan_sweep_command.hpp"
#include "platform/mesh_platform.hpp"
#include "plot/plot.hpp"
#include "policy/plugin_loader.hpp"
#include "policy/policy.hpp"
#include "run/engine_setup.hpp"
#include "run/fork_join.hpp"
#include "run/simulation.hpp"
#include "runtime/core/scheduler_actor.hpp"
#include "scenario/scenario.hpp"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <malloc.h>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

using namespace jobsched;

namespace {

const char* const kUsage = R"(jobsched: simulate parallel job scheduling policies on SimGrid platforms.

Usage:
  jobsched run SCENARIO.yaml [options]   simulate one scenario
  jobsched fork-join SCENARIO.yaml [options]
                                         Setia's fork-join paging study (a `fork_join:` scenario), same options
  jobsched sweep SCENARIO.yaml [options] a grid of runs with replications, in parallel, resumable
  jobsched collect SWEEP_DIR             results.csv and aggregate.csv from a (sharded) sweep's runs
  jobsched list-policies [--plugin PATH]...
                                         policies and allocators, with their parameters
  jobsched check-policy NAME [options]   a policy through the runtime's invariants on generated scenarios
                                         (exit 1 on a violation; 'check-policy --help')
  jobsched plot PATH [options]           figures from a sweep or run folder (needs gnuplot)
  jobsched plan POLICY --nodes N --mins M1,M2,... [--k K]
                                         one quantum of a memory-constrained policy, as JSON ('plan --help')
  jobsched plan mtat|compress --capacities A1,A2,... --vps X [options]
  jobsched plan expand --map MAP.json [options]
                                         gang scheduling on heterogeneous workstations: MTAT, Compression,
                                         Expansion decisions as JSON ('plan mtat --help')
  jobsched plan-sweep [--figure 9|10|11|all] [options]
                                         the paper's Monte Carlo overhead figures ('plan-sweep --help')
  jobsched mesh-platform [--width W] [--height H] [options]
                                         a 2-D mesh platform (no wraparound, XY routes) as SimGrid XML
  jobsched --help | --version

Run 'jobsched run --help' for the options of a run.
)";

const char* const kRunUsage = R"(Usage: jobsched run SCENARIO.yaml [options]

Options:
  --set KEY=VALUE   override a scenario value, e.g. --set policy.name=fcfs --set workload.max_jobs=500
                    (KEY is a dotted path in the YAML; VALUE is read as YAML). Repeatable.
  --out DIR         write outputs to DIR instead of the scenario's output.dir
  --quiet           no progress line and no summary on the terminal
  --cfg=NAME:VALUE  a SimGrid configuration option (see --cfg=help), passed through
  --log=SPEC        a SimGrid logging option, e.g. --log=jobsched_scheduler.thres:debug, passed through
  --plugin PATH     load policies and allocators from the shared library PATH (after JOBSCHED_PLUGIN_PATH's,
                    before the scenario's plugins:). Repeatable.
  --check           set the run up (platform, deployment, policy, workload) and stop before simulating: bad
                    input is refused as the run would refuse it, and nothing is written

Outputs (in the output folder): jobs.csv (one row per job, Batsim's columns first), summary.json
(deterministic results), performance.json (the simulator's wall time and memory).
Exit status: 0 success, 2 bad input (the message names the file, line or key), 3 internal error, 128 + the signal
on SIGINT, SIGTERM or SIGHUP (130, 143, 129): the run removes the outputs it had begun, leaves the folder's previous
outputs as they were and writes one line, "jobsched: interrupted by SIGINT".
)";

const char* const kForkJoinUsage = R"(Usage: jobsched fork-join SCENARIO.yaml [options]

Setia's fork-join paging study: one program's threads under the scenario's `fork_join:` section.

Options: --set KEY=VALUE, --out DIR, --quiet, --check, --cfg=NAME:VALUE and --log=SPEC, as for jobsched run (see
jobsched run --help).

Outputs (in the output folder): summary.json (deterministic results) and performance.json.
Exit status: 0 success, 2 bad input (the message names the file, line or key), 3 internal error, 128 + the signal
on SIGINT, SIGTERM or SIGHUP, as for jobsched run.
)";

[[noreturn]] void usage_error(const std::string& msg)
{
  std::fprintf(stderr, "jobsched: error: %s (see jobsched --help)\n", one_line(msg).c_str());
  std::exit(2);
}

/* SimGrid aborts the process when a file appender's file cannot be opened (file:PATH, rollfile:SIZE:PATH,
 * splitfile:SIZE:PATH): check that it could be, without creating it (a run refused later writes nothing). */
void check_log_file(const std::string& option, const std::string& appender)
{
  std::string path;
  if (appender.rfind("file:", 0) == 0) {
    path = appender.substr(5);
  } else if (appender.rfind("rollfile:", 0) == 0 || appender.rfind("splitfile:", 0) == 0) {
    const std::string rest = appender.substr(appender.find(':') + 1);
    const auto colon = rest.find(':');
    path = colon == std::string::npos ? rest : rest.substr(colon + 1);
  } else {
    return;
  }
  const std::string why = why_not_writable(path);
  if (!why.empty()) throw InputError(option + ": " + why);
}

/* SimGrid aborts the process on a malformed --log: check its shape first (CATEGORY.SETTING:VALUE, space separated;
 * SETTING is thres(hold), fmt, app(ender) or add(itivity)). */
void check_log_option(const std::string& option)
{
  std::istringstream items(option.substr(6));
  std::string item;
  bool any = false;
  while (items >> item) {
    any = true;
    auto colon = item.find_first_of(":=");
    auto dot = item.rfind('.', colon);
    std::string setting =
        (dot == std::string::npos || colon == std::string::npos) ? "" : item.substr(dot + 1, colon - dot - 1);
    static const std::set<std::string> settings{"thres", "threshold", "fmt", "app", "appender", "add", "additivity"};
    if (dot == 0 || settings.count(setting) == 0 || colon + 1 >= item.size())
      usage_error("malformed " + option + ": expected --log=CATEGORY.thres:LEVEL (or .fmt:, .app:, .add:)");
    if (setting == "app" || setting == "appender") check_log_file(option, item.substr(colon + 1));
  }
  if (!any) usage_error("empty --log=");
}

void print_params(const std::vector<ParamSpec>& params)
{
  for (const auto& p : params) {
    const std::string allowed = p.allowed_text();
    std::printf("      %s = %s\t%s%s\n", p.name.c_str(), p.default_value.c_str(), p.description.c_str(),
                allowed.empty() ? "" : (" [" + allowed + "]").c_str());
  }
}

int list_policies(const std::vector<std::string>& plugin_files)
{
  load_command_line_plugins(plugin_files);
  // What came from a plugin is marked with its library.
  std::map<std::string, std::string> policy_library;
  std::map<std::string, std::string> allocator_library;
  for (const auto& plugin : loaded_plugins()) {
    for (const auto& name : plugin.policies)
      policy_library[name] = "[" + plugin.file.string() + "] ";
    for (const auto& name : plugin.allocators)
      allocator_library[name] = "[" + plugin.file.string() + "] ";
  }
  std::printf("Policies (policy.name; parameters under policy.params, with defaults):\n");
  for (const auto* p : policy_registry().all()) {
    std::printf("  %-14s %s%s%s\n", p->name.c_str(), policy_library[p->name].c_str(),
                p->time_sharing() ? "[time-sharing] " : "", p->description.c_str());
    print_params(p->params);
  }
  std::printf("\nAllocators (policy.allocation; parameters under policy.allocation_params):\n");
  for (const auto* a : allocator_registry().all()) {
    std::printf("  %-14s %s%s\n", a->name.c_str(), allocator_library[a->name].c_str(), a->description.c_str());
    print_params(a->params);
  }
  return 0;
}

/* The options of `jobsched run` and `jobsched fork-join`. */
struct RunCommandOptions : ScenarioOptions {
  std::vector<std::string> cfg; // --cfg=NAME:VALUE, passed to SimGrid
  std::vector<std::string> log; // --log=SPEC, passed to SimGrid
  bool check = false;           // --check: set up, do not simulate, write nothing
};

/* `jobsched run` (a scheduling run) and `jobsched fork-join` (the paging study of one program): the same options. */
int run(const RunCommandOptions& o, bool fork_join_command = false)
{
  const std::string& scenario_file = o.scenario;
  const std::vector<std::string>& overrides = o.overrides;
  const std::string& out_dir = o.out_dir;
  const bool quiet = o.quiet;
  RunOptions options;
  for (const auto& cfg : o.cfg) {
    if (cfg == "help") print_simgrid_options(); // what every --cfg error points to
    options.simgrid_args.push_back("--cfg=" + cfg);
  }
  for (const auto& log : o.log) {
    check_log_option("--log=" + log);
    options.simgrid_args.push_back("--log=" + log);
  }
  if (scenario_file.empty())
    usage_error(std::string("no scenario given: jobsched ") + (fork_join_command ? "fork-join" : "run") +
                " SCENARIO.yaml");
  load_command_line_plugins(o.plugins);
  Scenario sc = load_scenario(scenario_file, overrides);
  // The fork-join study simulates one program's threads, not jobs under a policy: a command of its own, so that a
  // scheduling run always writes the same outputs.
  if (fork_join_command && !sc.fork_join)
    throw InputError(sc.origins.error("fork_join: missing (jobsched fork-join runs a scenario whose fork_join section "
                                      "describes the program; scheduling scenarios run with jobsched run)"));
  if (!fork_join_command && sc.fork_join)
    throw InputError(sc.origins.error("fork_join: the fork-join paging study is not a scheduling run: run it with "
                                      "jobsched fork-join " +
                                      scenario_file));
  if (!out_dir.empty()) sc.output_dir = std::filesystem::absolute(out_dir).lexically_normal();
  options.progress = !quiet && isatty(STDERR_FILENO);
  // A scheduling run ends the process once its outputs are written (below), unless the user configured SimGrid
  // (--cfg, --log): its tracing and log files may be closed by its own destructors and exit handlers, which _Exit
  // would skip.
  options.process_ends_after = !fork_join_command && options.simgrid_args.empty();
  options.check_only = o.check;
  if (o.check) {
    if (sc.fork_join)
      run_fork_join(sc, options);
    else
      run_scenario(sc, options);
    if (!quiet)
      std::printf("jobsched: %s: set up without error (not simulated, nothing written)\n", scenario_file.c_str());
    return 0;
  }
  if (sc.fork_join) {
    ForkJoinReport f = run_fork_join(sc, options);
    if (!quiet) {
      const ForkJoinResult& r = f.result;
      std::printf("jobsched: %s: fork-join of %d threads, %ld phases of %s s, %ld faults per thread\n", sc.name.c_str(),
                  r.spec.threads, r.phases, format_number(r.spec.granularity).c_str(), r.faults_per_thread);
      std::printf("  completion %s s, slowdown %s\n", format_number(r.completion_time).c_str(),
                  format_number(r.slowdown).c_str());
      std::printf("  simulated in %.3f s, peak memory %.0f MiB\n", f.performance.simulation_seconds,
                  f.performance.peak_memory_mb);
      std::printf("  outputs: %s/{summary.json,performance.json}\n", f.out_dir.string().c_str());
    }
    return 0;
  }
  RunReport r = run_scenario(sc, options);
  if (!quiet) {
    const RunMetrics& m = r.metrics;
    // Say what was left out of the workload and why, with summary.json's words (rejected: the simulator cannot run
    // them; skipped: the scenario's filters).
    std::string left_out;
    long rejected = 0;
    long skipped = 0;
    for (const auto& [reason, n] : r.workload->skipped) {
      (is_rejection_reason(reason) ? rejected : skipped) += n;
      left_out += (left_out.empty() ? "" : ", ") + std::to_string(n) + " " + reason;
    }
    std::printf("jobsched: %s: %zu jobs under %s", sc.name.c_str(), r.jobs, r.policy.c_str());
    if (rejected + skipped > 0) std::printf(" (%ld rejected, %ld skipped: %s)", rejected, skipped, left_out.c_str());
    std::printf("\n");
    std::printf("  makespan %s s, utilization %s, mean wait %s s, median wait %s s\n",
                format_number(m.makespan).c_str(), format_number(m.utilization).c_str(),
                format_number(m.mean_wait).c_str(), format_number(m.median_wait).c_str());
    std::printf("  mean slowdown %s, mean bounded slowdown %s (tau = %s s)\n", format_number(m.mean_slowdown).c_str(),
                format_number(m.mean_bounded_slowdown).c_str(), format_number(sc.bounded_slowdown_tau).c_str());
    if (m.backlog_stop_time >= 0)
      std::printf("  stopped at %s s: saturated, more jobs in the system than simulation.max_backlog\n",
                  format_number(m.backlog_stop_time).c_str());
    if (m.no_progress_stop_time >= 0)
      std::printf("  stopped at %s s: saturated, no job ended for %s days while jobs were evicted again and again, or "
                  "none computed (jobs.csv: NOT_FINISHED rows)\n",
                  format_number(m.no_progress_stop_time).c_str(),
                  format_number(SchedulerActor::kMaxWithoutProgress / 86400).c_str());
    if (m.stall_stop_time >= 0)
      std::printf(
          "  stopped at %s s: saturated, no job computed in %ld dispatches in a row (its time slice ended while "
          "it loaded its image or stalled: lengthen the quantum or shrink the images)\n",
          format_number(m.stall_stop_time).c_str(), SchedulerActor::kFruitlessDispatchLimit);
    std::printf("  simulated in %.3f s (%.0f jobs/s), peak memory %.0f MiB\n", r.performance.simulation_seconds,
                r.performance.simulation_seconds > 0 ? r.jobs / r.performance.simulation_seconds : 0.0,
                r.performance.peak_memory_mb);
    std::string files; // what was written: output.jobs, output.trace and the policy's family decide
    for (const auto& name : r.files)
      files += (files.empty() ? "" : ",") + name;
    std::printf("  outputs: %s/{%s}\n", r.out_dir.string().c_str(), files.c_str());
  }
  // The run is over and its outputs are written: the process ends here, and the kernel takes back what it holds at
  // once, where freeing the report's jobs and the libraries' statics one by one costs 3% of a run of the KTH log.
  if (!options.process_ends_after) return 0;
  std::fflush(nullptr);
  std::_Exit(0);
}

void add_run_command(CommandLine& cli, const std::string& name, bool fork_join_command)
{
  auto o = std::make_shared<RunCommandOptions>();
  CLI::App* command = cli.add_command(cli.root(), name, fork_join_command ? kForkJoinUsage : kRunUsage,
                                      [o, fork_join_command](const CLI::App&) { return run(*o, fork_join_command); });
  add_scenario_options(*command, *o);
  command->add_option("--cfg", o->cfg)->allow_extra_args(false);
  command->add_option("--log", o->log)->allow_extra_args(false);
  command->add_flag("--check", o->check);
}

/* The one place that makes jobsched's command line: every sub-command, each declared beside its code. */
int run_command_line(const std::vector<std::string>& args)
{
  auto version = std::make_shared<bool>(false);
  CommandLine cli(kUsage, [version](const CLI::App&) {
    if (!*version) usage_error("no command given");
    std::printf("jobsched %s (plugin interface %s)\n", JOBSCHED_VERSION, JOBSCHED_INTERFACE);
    return 0;
  });
  cli.root().add_flag("--version", *version);
  add_run_command(cli, "run", false);
  add_run_command(cli, "fork-join", true);
  add_sweep_command(cli);
  add_collect_command(cli);
  auto plugin_files = std::make_shared<std::vector<std::string>>();
  cli.add_command(cli.root(), "list-policies",
                  "Usage: jobsched list-policies [--plugin PATH]...\n\nThe policies and allocators, with their "
                  "parameters, defaults and allowed values; those of a plugin (--plugin, JOBSCHED_PLUGIN_PATH) marked "
                  "with its library.\nExit status: 0, 2 a plugin that cannot be loaded.\n",
                  [plugin_files](const CLI::App&) { return list_policies(*plugin_files); })
      ->add_option("--plugin", *plugin_files)
      ->allow_extra_args(false);
  add_check_policy_command(cli);
  add_plot_command(cli);
  memory_constrained::add_plan_command(cli);
  memory_constrained::add_plan_sweep_command(cli);
  add_mesh_platform_command(cli);
  return cli.run(args);
}

/* Memory for a run. glibc maps blocks over 128 KiB one by one (unmapped when freed) and gives the top of its heap
 * back, so a run's job table and outputs touch afresh the memory the workload's reading has just freed; and every
 * 4 KiB page touched for the first time is a page fault. So: blocks up to 32 MiB (glibc's largest threshold) stay in
 * the heap, the heap is kept, and it gets 80 MiB of room at once, marked for transparent huge pages (2 MiB a fault,
 * where the system gives them on request). Room never touched costs no memory; touched, it is resident by 2 MiB.
 * Whole KTH log under FCFS: 9,700 page faults -> 2,100, CPU time -12%, peak resident size +7 MiB. */
void prepare_heap()
{
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  const auto before = reinterpret_cast<std::uintptr_t>(sbrk(0));
  mallopt(M_TOP_PAD, 64 << 20);
  void* volatile room = std::malloc(16 << 20); // volatile: a block freed at once may be left out by the compiler
  std::free(room);
  mallopt(M_TOP_PAD, 128 << 10); // glibc's default again
  const auto after = reinterpret_cast<std::uintptr_t>(sbrk(0));
  constexpr std::uintptr_t kHugePage = 2 << 20;
  const std::uintptr_t from = (before + kHugePage - 1) & ~(kHugePage - 1);
  if (after > from) madvise(reinterpret_cast<void*>(from), after - from, MADV_HUGEPAGE);
#endif
}

} // namespace

int main(int argc, char** argv)
{
  prepare_heap();
  if (argc < 2) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  install_interruption_handlers();
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.front() == "help") args.front() = "--help";
  try {
    return run_command_line(args);
  } catch (const Interrupted& e) { // a sweep, once its runs have ended on the signal it forwarded
    std::fprintf(stderr, "%s\n", e.what());
    return e.status();
  } catch (const InputError& e) {
    std::fprintf(stderr, "jobsched: error: %s\n", e.what());
    return 2;
  } catch (const InvariantViolation& e) { // a finding about the paper's analysis, not a bug of jobsched
    std::fprintf(stderr, "jobsched: %s\n", e.what());
    return kExitInvariantViolated;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "jobsched: internal error: %s\n", e.what());
    return 3;
  }
}
