#include "run/simulation.hpp"

#include "core/errors.hpp"
#include "core/time_format.hpp"
#include "output/busy_union.hpp"
#include "output/run_folder.hpp"
#include "platform/host_memory.hpp"
#include "platform/host_roles.hpp"
#include "platform/mesh_platform.hpp"
#include "platform/platform_check.hpp"
#include "platform/routes.hpp"
#include "policy/plugin_loader.hpp"
#include "run/attached_run.hpp"
#include "run/engine_setup.hpp"
#include "runtime/core/scheduler_actor.hpp"
#include "runtime/drivers/space_sharing_driver.hpp"
#include "runtime/drivers/time_sharing_driver.hpp"
#include "runtime/events/host_monitor.hpp"
#include "runtime/events/owner_source.hpp"
#include "runtime/events/process_source.hpp"
#include "runtime/events/submitter.hpp"
#include "workload/swf_reader.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>

XBT_LOG_NEW_DEFAULT_CATEGORY(jobsched_simulation, "jobsched: simulation set-up");

namespace fs = std::filesystem;

namespace jobsched {

namespace {

/* Everything the actors share; filled in after the deployment is loaded and before the engine runs. */
struct Context {
  std::vector<sg4::Host*> hosts;
  Machine machine;
  /* The machine's processors counted at their speed over the reference speed: the processor-seconds of work it can do a
   * second (its processors themselves on a machine of the reference speed), the capacity work_utilization divides by.
   */
  double reference_processors = 0;
  std::shared_ptr<Workload> workload;
  Params allocator_params;
  std::unique_ptr<Allocator> allocator;
  Params policy_params;
  std::unique_ptr<Policy> policy;
  std::unique_ptr<TimeSharingPolicy> time_sharing_policy;
  std::unique_ptr<JobRuntime> runtime;
  std::unique_ptr<Submitter> submitter;
  std::unique_ptr<HostMonitor> monitor;
  std::unique_ptr<OwnerActivity> owners; // `owners:` of the scenario, when it has a model
  std::unique_ptr<OwnerSource> owner_source;
  std::unique_ptr<ProcessEventSource> process_source; // the jobs' own new_VP and VP_exit (model vp)
  std::unique_ptr<SchedulerActor> scheduler;
  std::exception_ptr failure;
  bool setup_failed = false; // the deployed actors then return at once, so SimGrid shuts down quietly
};

/* An exception escaping an actor would abort SimGrid: keep it, stop every actor, rethrow after the run. */
template <class F>
void guarded(Context& ctx, F body)
{
  if (ctx.setup_failed) return;
  try {
    body();
  } catch (const simgrid::ForcefulKillException&) {
    throw;
  } catch (...) {
    if (!ctx.failure) ctx.failure = std::current_exception();
    sg4::Actor::kill_all();
  }
}

/* Policies that schedule parallelism profiles (Cao et al.'s): a job without one is one phase of constant parallelism
 * = its size over its run time (work = size x run time), malleable from 1 to the machine's processors. */
void give_profiles(JobList& jobs, int processors)
{
  for (WorkloadJob& j : jobs) {
    if (j.profile.empty()) {
      j.profile.span = {j.run_time};
      j.profile.parallelism = {static_cast<double>(j.size)};
    }
    j.shape = JobShape::malleable;
    j.min_size = 1;
    j.max_size = processors;
  }
}

/* The machine's architectures in host order, and each one's total capacity (speed / the slowest host's speed). */
std::vector<std::string> machine_archs(const Machine& machine)
{
  std::vector<std::string> out;
  for (int h = 0; h < machine.host_count(); h++)
    if (std::find(out.begin(), out.end(), machine.arch(h)) == out.end()) out.push_back(machine.arch(h));
  return out;
}
std::vector<double> arch_capacities(const Machine& machine)
{
  const std::vector<std::string> archs = machine_archs(machine);
  double slowest = std::numeric_limits<double>::infinity();
  for (int h = 0; h < machine.host_count(); h++)
    slowest = std::min(slowest, machine.speed(h));
  std::vector<double> out(archs.size(), 0.0);
  for (int h = 0; h < machine.host_count(); h++)
    out[static_cast<size_t>(std::find(archs.begin(), archs.end(), machine.arch(h)) - archs.begin())] +=
        machine.speed(h) / slowest;
  return out;
}

/* `limit`: the most processors the policy can give one job, when fewer than the machine's `processors`. */
Workload load_workload(const Scenario& sc, const Machine& machine, const JobLimit& limit)
{
  const int processors = machine.resource_count();
  const int largest = limit.processors == JobLimit::kAnySize ? kAnyJobSize : limit.processors;
  const WorkloadSpec& ws = sc.workload;
  MemoryNeed memory_need{limit.least_processors, limit.least_processors_reason};
  if (memory_need.least_processors && ws.jobs.memory_mb > 0) {
    // workload.jobs.memory_mb gives a job without memory of its own its memory once the workload is built
    // (apply_job_shapes()): the filter weighs each such job with the memory it will have, so that one too large for the
    // machine by it is skipped or refused here, as workload.oversize_jobs says, not refused by the policy later.
    memory_need.least_processors = [least = memory_need.least_processors,
                                    kb = ws.jobs.memory_mb * 1024.0](const Job& job) {
      if (job.memory_kb > 0) return least(job);
      Job with_memory = job;
      with_memory.memory_kb = kb;
      return least(with_memory);
    };
    memory_need.reason +=
        "; workload.jobs.memory_mb: " + format_exact(ws.jobs.memory_mb) + " for a job without its own";
  }
  if (ws.trace) {
    fs::path path = trace_path(sc);
    SwfFile swf = read_swf(path.string(), ws.size_field);
    // Otherwise "no job left to simulate after filtering" below, naming the scenario but not the file that is empty.
    if (swf.records.empty())
      throw InputError(path.string() + ": no job in the trace (no record line, only comments or blank lines)");
    return build_workload(path.filename().string(), swf.records, ws.filter, processors, swf.max_procs, largest,
                          limit.reason, memory_need);
  }
  if (ws.generator->model == GeneratorModel::downey)
    return build_workload("downey-seed" + std::to_string(ws.generator->seed),
                          generate_downey_jobs(*ws.generator, processors), ws.filter, processors, 0, largest,
                          limit.reason, memory_need);
  if (ws.generator->model == GeneratorModel::vp)
    return build_workload("generated-seed" + std::to_string(ws.generator->seed),
                          generate_vp_jobs(*ws.generator, machine_archs(machine), arch_capacities(machine)), ws.filter,
                          processors, 0, largest, limit.reason, memory_need);
  // Each record filtered as it is drawn: a million generated jobs are not held twice (as records and as jobs).
  WorkloadBuilder builder("generated-seed" + std::to_string(ws.generator->seed), ws.filter, processors, 0, largest,
                          limit.reason, static_cast<size_t>(std::max(0L, ws.generator->jobs)));
  builder.set_memory_need(memory_need);
  long records = 0;
  generate_jobs(*ws.generator, processors, [&builder, &records](JobRecord&& rec) {
    builder.add(rec);
    records++;
  });
  builder.set_source_records(records);
  return builder.finish();
}

/* The allocator and the policy the scenario names, with their parameters read; InputErrors name the key. */
struct PolicyChoices {
  const AllocatorInfo* allocator = nullptr;
  Params allocator_params;
  const PolicyInfo* policy = nullptr;
  Params policy_params;
};
PolicyChoices read_policy_choices(const Scenario& sc)
{
  PolicyChoices c;
  c.allocator = &allocator_registry().get(sc.policy.allocation);
  c.allocator_params = Params(c.allocator->params, sc.policy.allocation_params, "policy.allocation_params",
                              sc.policy.allocation_param_tags);
  c.policy = &policy_registry().get(sc.policy.name);
  // A parameter naming a file (its name ends in _file, e.g. the hierarchical policies' tree_file) is relative to the
  // scenario's folder, like the workload's trace; given with --set, to the current folder (as it is already).
  std::map<std::string, std::string> policy_params = sc.policy.params;
  for (auto& [key, value] : policy_params)
    if (key.size() > 5 && key.compare(key.size() - 5, 5, "_file") == 0 && !value.empty() &&
        fs::path(value).is_relative() && sc.file.has_parent_path() &&
        !sc.origins.set_by_override("policy.params." + key))
      value = (sc.file.parent_path() / value).string();
  c.policy_params = Params(c.policy->params, policy_params, "policy.params", sc.policy.param_tags);
  return c;
}

/* The platform file names no profile (speed, state, bandwidth or latency over time: a `*_file` attribute, a <trace>
 * element, or a `profile` anywhere): nothing changes on it by itself, so the scheduler may replay instants on a
 * virtual clock (SchedulerActor::set_virtual_wakeups). Any doubt (not XML, unreadable) says it may have some. */
bool platform_without_profiles(const fs::path& file)
{
  std::ifstream in(file);
  if (!in || file.extension() != ".xml") return false;
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  static const char* const kMarks[] = {"_file", "<trace", "profile"};
  return std::none_of(std::begin(kMarks), std::end(kMarks),
                      [&text](const char* mark) { return text.find(mark) != std::string::npos; });
}

/* What errors name for the platform and the deployment: their files, or, in a user's program that loaded its own
 * (jobsched::plugin_init), these words. */
constexpr const char* kProgramPlatform = "the program's platform";
constexpr const char* kProgramDeployment = "the program's deployment";

/* Compute hosts, workload, allocator, policy and actors' state, once the deployment is loaded. `program_platform`: the
 * engine, platform and deployment are a user's program's, whose own actors run beside jobsched's. */
void prepare_context(Context& ctx, sg4::Engine& engine, const Scenario& sc, const RunOptions& options,
                     bool program_platform = false)
{
  // Compute hosts, in natural name order: hosts whose role is compute (or absent) and that run none of jobsched's
  // deployed actors (those are the front end; a user's program's own actors, a traffic generator say, may run on
  // compute hosts). Without a deployment, run_scenario placed the actors itself (platform/host_roles.hpp).
  const fs::path platform = program_platform ? fs::path(kProgramPlatform) : sc.platform;
  std::set<sg4::Host*> front_end;
  if (!sc.deployment.empty() || program_platform) {
    const std::string deployment = program_platform ? std::string(kProgramDeployment) : sc.deployment.string();
    int schedulers = 0;
    int submitters = 0;
    for (const auto& a : engine.get_all_actors()) {
      const bool ours = a->get_name() == kSchedulerFunction || a->get_name() == kSubmitterFunction;
      if (ours) front_end.insert(a->get_host());
      schedulers += a->get_name() == kSchedulerFunction;
      submitters += a->get_name() == kSubmitterFunction;
    }
    for (auto [count, function] :
         {std::pair(schedulers, kSchedulerFunction), std::pair(submitters, kSubmitterFunction)})
      if (count > 1)
        throw InputError(deployment + ": " + std::to_string(count) + " actors run " + function + ": only one " +
                         function + " actor is supported");
    if (schedulers == 0 || submitters == 0)
      throw InputError(deployment + ": must place one actor with function=\"jobsched_scheduler\" and one with "
                                    "function=\"jobsched_submitter\"");
  }
  std::vector<sg4::Host*>& hosts = ctx.hosts;
  hosts = compute_hosts(engine, front_end);
  if (hosts.empty())
    throw InputError(platform.string() +
                     ": no compute host (every host runs a deployed actor or has a role other than compute)");
  for (const auto* h : hosts)
    require_usable_speed(*h, platform);
  Machine& machine = ctx.machine;
  for (auto* h : hosts) {
    machine.add_host(h->get_name(), h->get_core_count(), h->get_speed());
    const char* arch = h->get_property("arch");
    if (arch != nullptr && *arch != '\0') machine.set_arch(machine.host_count() - 1, arch);
  }
  read_mesh_positions(machine, hosts, platform);
  // Only paging reads the property, and workload.memory.node_memory_mb overrides it.
  if (sc.workload.memory.paging && !(sc.workload.memory.node_memory_mb > 0)) check_host_memory(hosts, platform);
  double reference_speed = sc.simulation.reference_speed > 0 ? sc.simulation.reference_speed : machine.speed(0);
  // The VP jobs' work is given on the slowest workstation (workload/generator.hpp, model vp).
  const bool vp_jobs = sc.workload.generator && sc.workload.generator->model == GeneratorModel::vp;
  if (vp_jobs && !(sc.simulation.reference_speed > 0))
    for (int h = 0; h < machine.host_count(); h++)
      reference_speed = std::min(reference_speed, machine.speed(h));
  for (int h = 0; h < machine.host_count(); h++)
    ctx.reference_processors += machine.cores(h) * machine.speed(h) / reference_speed;

  try { // registry and parameter errors name a key: add the scenario file
    PolicyChoices choices = read_policy_choices(sc);
    const AllocatorInfo& alloc_info = *choices.allocator;
    ctx.allocator_params = std::move(choices.allocator_params);
    ctx.allocator = alloc_info.make(AllocatorEnv{machine, ctx.allocator_params, sc.workload.communication.level,
                                                 sc.workload.communication.base,
                                                 sc.workload.communication.model == CommCostModel::network});
    const PolicyInfo& policy_info = *choices.policy;
    ctx.policy_params = std::move(choices.policy_params);
    // Messages a policy sends over the platform (the hierarchical policies' messages: platform): their times come
    // from SimGrid's routes, asked only by a policy that needs them.
    MessageNetwork network;
    for (sg4::Host* h : engine.get_all_hosts()) {
      const char* role = h->get_property("role");
      if (role != nullptr && std::string(role) == "frontend") network.front_ends.push_back(h->get_name());
    }
    std::sort(network.front_ends.begin(), network.front_ends.end(), natural_less);
    network.time = [&engine, platform](const std::string& from, const std::string& to, double bytes,
                                       const std::string& why) {
      const sg4::Host* a = engine.host_by_name_or_null(from);
      const sg4::Host* b = engine.host_by_name_or_null(to);
      if (a == nullptr || b == nullptr)
        throw InputError(why + ": host '" + (a == nullptr ? from : to) + "' is not in " + platform.string());
      engine.seal_platform();
      return message_time(*a, *b, bytes, platform, why);
    };
    PolicyEnv env{machine,
                  *ctx.allocator,
                  ctx.policy_params,
                  sc.simulation.seed,
                  &network,
                  !program_platform && platform_without_profiles(sc.platform) &&
                      sc.owners.model == OwnerSpec::Model::none};
    if (policy_info.time_sharing())
      ctx.time_sharing_policy = policy_info.make_time_sharing(env);
    else
      ctx.policy = policy_info.make(env);
  } catch (const InputError& e) {
    throw InputError(sc.origins.error(e.what()));
  }

  // The policy first: a time-sharing policy may run smaller jobs than the machine (gang's partitions), and the
  // workload leaves out larger ones.
  const JobLimit limit = ctx.time_sharing_policy ? ctx.time_sharing_policy->job_limit() : JobLimit{};
  ctx.workload = std::make_shared<Workload>(load_workload(sc, machine, limit));
  Workload& workload = *ctx.workload;
  if (sc.workload.memory.paging) assign_synthetic_memory(workload.jobs, sc.workload.memory, sc.simulation.seed);
  if (workload.jobs.empty()) throw InputError(sc.origins.error("workload: no job left to simulate after filtering"));
  apply_job_shapes(workload.jobs, sc.workload.jobs, machine.resource_count(), sc.simulation.seed);
  if (ctx.time_sharing_policy && !ctx.time_sharing_policy->runs_parallelism_profiles() &&
      !ctx.time_sharing_policy->takes_shape(sc.workload.jobs.shape))
    throw InputError(sc.origins.error("workload.jobs.shape: policy " + sc.policy.name + " does not schedule " +
                                      to_string(sc.workload.jobs.shape) + " jobs"));
  if (ctx.time_sharing_policy && ctx.time_sharing_policy->runs_parallelism_profiles())
    give_profiles(workload.jobs, machine.resource_count());
  if (ctx.time_sharing_policy && ctx.time_sharing_policy->needs_memory() &&
      std::none_of(workload.jobs.begin(), workload.jobs.end(), [](const auto& j) { return j.memory_kb > 0; }))
    throw InputError(
        sc.origins.error("policy.name: " + sc.policy.name +
                         " sizes partitions by the jobs' memory, and no job of the workload has any (memory comes from "
                         "workload.generator.memory_distribution or min_nodes, workload.jobs.memory_mb, "
                         "workload.memory.model: paging, or a trace's used or requested memory, SWF fields 7 and 10)"));

  ExecutionMode mode = sc.simulation.execution == "ptask"   ? ExecutionMode::ptask
                       : sc.simulation.execution == "timer" ? ExecutionMode::timer
                                                            : ExecutionMode::automatic;
  // Processes doubled up on a host share its CPU: ptasks through SimGrid's solver, timers by counting them per host.
  try {
    ctx.runtime = std::make_unique<JobRuntime>(machine, hosts, reference_speed, sc.workload.communication,
                                               sc.workload.memory, sc.simulation.images, mode);
    ctx.runtime->name_platform(platform.string());
  } catch (const InputError& e) {
    throw InputError(sc.origins.error(e.what()));
  }
  sg4::Mailbox* mailbox = sg4::Mailbox::by_name("jobsched-scheduler");
  ctx.submitter = std::make_unique<Submitter>(workload.jobs, sc.workload.closed.jobs);
  ctx.monitor = std::make_unique<HostMonitor>(hosts, mailbox);
  std::vector<EventSource*> sources{ctx.submitter.get(), ctx.monitor.get()};
  std::vector<bool> busy_at_start(hosts.size(), false);
  if (vp_jobs && (sc.workload.generator->vp.new_vp_per_hour > 0 || sc.workload.generator->vp.vp_exit_per_hour > 0)) {
    if (!(ctx.time_sharing_policy && ctx.time_sharing_policy->places_processes()))
      throw InputError(sc.origins.error("workload.generator.new_vp_per_hour, vp_exit_per_hour: policy " +
                                        sc.policy.name +
                                        " does not run jobs as processes (gang-now does): set them to 0"));
    ctx.process_source = std::make_unique<ProcessEventSource>(
        workload.jobs, ctx.runtime->table(), sc.workload.generator->vp.new_vp_per_hour,
        sc.workload.generator->vp.vp_exit_per_hour, sc.simulation.seed);
    sources.push_back(ctx.process_source.get());
  }
  if (sc.owners.model != OwnerSpec::Model::none) {
    std::vector<std::string> names;
    for (const auto* h : hosts)
      names.push_back(h->get_name());
    try { // a trace's errors name its file and line
      ctx.owners = std::make_unique<OwnerActivity>(sc.owners, names, sc.simulation.seed);
    } catch (const InputError& e) {
      throw InputError(sc.origins.error(std::string("owners: ") + e.what()));
    }
    for (size_t h = 0; h < hosts.size(); h++)
      busy_at_start[h] = ctx.owners->initially_busy(static_cast<int>(h));
    ctx.owner_source = std::make_unique<OwnerSource>(*ctx.owners);
    sources.push_back(ctx.owner_source.get());
  }
  const size_t total = workload.jobs.size();
  std::function<void(double, size_t)> progress;
  auto sim_start = std::chrono::steady_clock::now();
  if (options.progress)
    progress = [total, sim_start](double now, size_t ended) {
      double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - sim_start).count();
      std::fprintf(stderr, "\r[jobsched] simulated %.0f s, %zu/%zu jobs done (%.0f%%), %.0f jobs/s   ", now, ended,
                   total, 100.0 * ended / total, ended / std::max(wall, 1e-9));
      std::fflush(stderr);
    };
  ctx.scheduler =
      std::make_unique<SchedulerActor>(machine, hosts, workload.jobs, *ctx.runtime, mailbox, sources, progress);
  SchedulerActor& scheduler = *ctx.scheduler;
  scheduler.set_max_backlog(sc.simulation.max_backlog);
  scheduler.set_eviction(sc.eviction);
  scheduler.owners_busy_at_start(busy_at_start);
  scheduler.set_platform_name(platform.string());
  if (sc.owners.model != OwnerSpec::Model::none)
    scheduler.set_owners_name(sc.owners.model == OwnerSpec::Model::trace ? sc.owners.trace.string()
                                                                         : sc.file.string() + ": owners");
  // Virtual wake-ups need a platform on which nothing happens by itself and no event that actors send (processes'
  // events are sent): a program's own actors or a profile could act meanwhile. Owners come polled, at instants known
  // in advance.
  scheduler.set_virtual_wakeups(sc.simulation.virtual_wakeups && !program_platform && !ctx.process_source &&
                                platform_without_profiles(sc.platform));
  // With owners, no cycle or lookahead is replayed: their comings and goings cut a replay short every few quanta, and
  // one cut short costs more than the plans it saves (the whole KTH log under ap with owners: 50 s against 37.1 s
  // with none replayed, docs/performance.md "Virtual wake-ups with owners").
  scheduler.set_cycles(sc.simulation.cycles && sc.owners.model == OwnerSpec::Model::none);
  if (ctx.time_sharing_policy) ctx.time_sharing_policy->processors_up_at_start(scheduler.up());
  if (ctx.time_sharing_policy)
    scheduler.set_driver(std::make_unique<TimeSharingDriver>(machine, *ctx.time_sharing_policy, *ctx.runtime));
  else
    scheduler.set_driver(std::make_unique<SpaceSharingDriver>(
        machine, *ctx.policy, *ctx.allocator, *ctx.runtime, scheduler.up(),
        [&scheduler](JobId id, JobFate fate) { scheduler.job_ended(id, fate); },
        [&scheduler](JobId id, JobFate fate) { scheduler.job_evicted(id, fate); }));
}

} // namespace

void check_policy_choices(const Scenario& sc)
{
  if (sc.fork_join) return; // a study of one program: no policy
  // The scenario's plugins before any name is looked up (their errors name the scenario file already).
  load_scenario_plugins(sc);
  try {
    read_policy_choices(sc);
  } catch (const InputError& e) {
    throw InputError(sc.origins.error(e.what()));
  }
}

std::vector<std::string> run_output_files(const Scenario& sc)
{
  if (sc.fork_join) return {"summary.json", "performance.json"}; // run/fork_join.cpp
  // AttachedRun::prepare() opens the files listed here, and no other: segments.csv beside trace.csv for a
  // time-sharing policy.
  const bool time_sharing = policy_registry().get(sc.policy.name).time_sharing();
  std::vector<std::string> files;
  if (sc.write_jobs) files.emplace_back("jobs.csv");
  if (sc.write_trace) files.emplace_back("trace.csv");
  if (sc.write_trace && time_sharing) files.emplace_back("segments.csv");
  files.emplace_back("summary.json");
  files.emplace_back("performance.json");
  return files;
}

struct AttachedRun::State {
  RunOptions options;
  std::chrono::steady_clock::time_point wall_start;
  Scenario sc;
  Context ctx;
  std::vector<std::vector<std::string>> scheduler_arguments;
  // The outputs go to a hidden folder renamed into place at the end (output/run_folder.hpp); trace.csv is streamed
  // there as segments close, adding up the busy processor-seconds for the utilization on the way.
  std::optional<RunFolder> folder;
  double area = 0;
  // Processes doubled up on a processor run in segments of their own at the same time: the processor is busy once.
  // Its intervals are settled into their terms of the sum (BusyUnion) whenever `settle_at` of them wait, up to the
  // earliest start of the running segments still open.
  std::optional<BusyUnion> busy;
  std::size_t settle_at = 0;
  void add_busy(const ResourceSet& processors, double start, double end)
  {
    processors.for_each([&](int p) { busy->add(p, start, end); });
    if (busy->pending() >= settle_at) {
      busy->settle(ctx.runtime->earliest_running_start());
      settle_at = std::max(settle_at, 2 * busy->pending()); // (a bound held back: not again soon)
    }
  }
  bool segment_totals = false; // the runtime sums the area and counts the segments (JobRuntime::keep_segment_totals)
  bool running_only = false;   // the busy union fed by the runtime's running sink (JobRuntime::set_running_sink)
  long segments = 0;
  std::vector<TraceSegment> kept;
  std::optional<TraceWriter> trace_writer;
  std::optional<SegmentsWriter> segments_writer; // time-sharing runs: segments.csv, for evalys
  // Jobs that left, in workload order (JobTable's release sink): their jobs.csv rows and their share of the metrics
  // are made then, and their records dropped.
  std::optional<JobsCsvWriter> jobs_writer;
  std::optional<MetricsAccumulator> sums;
  std::deque<JobState> kept_states;  // RunOptions::keep_states
  double stop_time = 0;              // when the run stopped, once it has (only unfinished jobs' rows depend on it)

  void job_left(JobState& s, size_t position)
  {
    const JobList& jobs = ctx.workload->jobs;
    if (position >= jobs.size() || s.job != &jobs[position])
      throw std::logic_error("job record " + std::to_string(position) + " is not the workload's job at that position");
    sums->add(s, jobs[position]);
    if (jobs_writer) jobs_writer->write(s, jobs[position], stop_time);
    if (segments_writer) segments_writer->job_left(position, {s.fate, job_metrics(s, stop_time).slowdown});
    if (options.keep_states) kept_states.push_back(std::move(s));
  }

  // Where and when the scheduler's host was switched off under it (a state profile, a program's actor).
  std::string scheduler_host_off;
  double scheduler_host_off_at = 0;

  void run_scheduler()
  {
    sg4::Host* host = sg4::this_actor::get_host();
    try {
      guarded(ctx, [this] {
        sg4::Actor::create("host-monitor", sg4::this_actor::get_host(), [this] {
          guarded(ctx, [this] { (*ctx.monitor)(); });
        })->daemonize();
        (*ctx.scheduler)();
      });
    } catch (const simgrid::ForcefulKillException&) {
      if (!host->is_on()) {
        scheduler_host_off = host->get_name();
        scheduler_host_off_at = sg4::Engine::get_clock();
      }
      throw;
    }
  }
};

AttachedRun::AttachedRun(RunOptions options, std::chrono::steady_clock::time_point wall_start)
    : state_(std::make_unique<State>())
{
  state_->options = std::move(options);
  state_->wall_start = wall_start;
}

AttachedRun::~AttachedRun() = default;

void AttachedRun::register_actors(sg4::Engine& engine)
{
  State* st = state_.get();
  // A factory, called as the deployment is loaded: it sees the actor's arguments before the run (a program's
  // deployment may name the scenario there, run/simgrid_plugin.hpp).
  engine.register_function(kSchedulerFunction,
                           simgrid::kernel::actor::ActorCodeFactory(
                               [st](std::vector<std::string> args) -> simgrid::kernel::actor::ActorCode {
                                 st->scheduler_arguments.push_back(std::move(args));
                                 return [st] { st->run_scheduler(); };
                               }));
  // The submitter is a polled source of the scheduler's (runtime/events/submitter.hpp): the deployment may still name
  // its actor, which has nothing to do.
  engine.register_function(kSubmitterFunction, [](std::vector<std::string>) {});
}

void AttachedRun::place_scheduler(sg4::Host* host)
{
  State* st = state_.get();
  sg4::Actor::create(kSchedulerFunction, host, [st] { st->run_scheduler(); });
}

const std::vector<std::vector<std::string>>& AttachedRun::scheduler_arguments() const
{
  return state_->scheduler_arguments;
}

void AttachedRun::fail(std::exception_ptr failure)
{
  Context& ctx = state_->ctx;
  if (!ctx.failure) ctx.failure = std::move(failure);
  ctx.setup_failed = true;
}

bool AttachedRun::failed() const
{
  return state_->ctx.failure != nullptr;
}

bool AttachedRun::prepare(sg4::Engine& engine, const Scenario& scenario, bool program_platform)
{
  State& st = *state_;
  Context& ctx = st.ctx;
  if (ctx.setup_failed) return false;
  st.sc = scenario;
  const Scenario& sc = st.sc;
  try {
    st.folder.emplace(sc.output_dir);
    prepare_context(ctx, engine, sc, st.options, program_platform);
    if (ctx.time_sharing_policy && ctx.time_sharing_policy->places_processes()) {
      st.busy.emplace(static_cast<size_t>(ctx.machine.resource_count()));
      st.settle_at =
          st.options.busy_settle_every > 0
              ? st.options.busy_settle_every
              : std::max<std::size_t>(std::size_t{1} << 16, 8 * static_cast<std::size_t>(ctx.machine.resource_count()));
    }
    // The files the run writes are those run_output_files() lists, which a sweep finds in a run's folder before it
    // reuses the run: opened from that one list, so that the two cannot differ.
    const std::vector<std::string> files = run_output_files(sc);
    const auto listed = [&files](const char* name) {
      return std::find(files.begin(), files.end(), name) != files.end();
    };
    // A policy that may declare cycles gets trace.csv's columns of aggregated rows (TraceWriter).
    const bool cycle_columns =
        sc.simulation.cycles && ctx.time_sharing_policy && ctx.time_sharing_policy->declares_cycles();
    if (listed("trace.csv")) st.trace_writer.emplace(st.folder->open("trace.csv"), cycle_columns);
    if (listed("segments.csv")) { // its rows are made of trace.csv's (the trace sink below)
      if (!st.trace_writer) throw std::logic_error("run_output_files() lists segments.csv without trace.csv");
      st.segments_writer.emplace(st.folder->open("segments.csv"), ctx.workload->jobs, ctx.runtime->table(),
                                 ctx.workload->name);
    }
    st.sums.emplace(sc.workload.closed.warmup, sc.bounded_slowdown_tau);
    // A time-sharing policy's own jobs.csv columns (PolicyReport) are known at the end: its rows wait for them.
    if (listed("jobs.csv"))
      st.jobs_writer.emplace(st.folder->open("jobs.csv"), ctx.workload->name, ctx.time_sharing_policy != nullptr,
                             sc.bounded_slowdown_tau);
    ctx.runtime->table().set_release_sink([&st](JobState& s, size_t position) { st.job_left(s, position); });
    // Without trace.csv, kept segments or a busy union, the runtime sums the area itself instead (no call per segment).
    st.segment_totals = !st.trace_writer && !st.busy && !st.options.keep_trace;
    // Without trace.csv or kept segments, a busy union needs only the running segments' processors and interval:
    // the runtime lends them without a TraceSegment built around them, and counts the segments.
    st.running_only = !st.trace_writer && st.busy && !st.options.keep_trace;
    if (st.segment_totals) {
      ctx.runtime->keep_segment_totals();
    } else if (st.running_only) {
      ctx.runtime->set_running_sink(
          [&st](const ResourceSet& processors, double start, double end) { st.add_busy(processors, start, end); });
    } else {
      ctx.runtime->set_trace_sink([&st, keep = st.options.keep_trace](const TraceSegment& s) {
        if (st.trace_writer) st.trace_writer->write(s);
        if (st.segments_writer) // (made with trace.csv only) the texts trace.csv's row formatted
          st.segments_writer->add(s, st.trace_writer->last_row());
        if (st.busy && s.status == JobStatus::running) {
          st.add_busy(s.processors, s.start, s.end);
        } else { // (trace.csv's writer counts a job's processors once for the rows of a set it keeps)
          st.area += busy_area(s,
                               [&st, &s] {
                                 return st.trace_writer ? st.trace_writer->last_row_processor_count(s.processors)
                                                        : s.processors.count();
                               }) *
                     static_cast<double>(s.repeats);
        }
        st.segments++;
        if (keep && s.repeats == 1) st.kept.push_back(s);
        for (long i = 0; keep && s.repeats > 1 && i < s.repeats; i++) { // the segments an aggregated row stands for
          st.kept.push_back(s);
          st.kept.back().start = s.start + static_cast<double>(i) * s.period;
          st.kept.back().end = s.end + static_cast<double>(i) * s.period;
          st.kept.back().repeats = 1;
          st.kept.back().period = 0;
        }
      });
    }
  } catch (...) {
    fail(std::current_exception());
    return false;
  }
  return true;
}

RunReport AttachedRun::finish()
{
  State& st = *state_;
  Context& ctx = st.ctx;
  const Scenario& sc = st.sc;
  const RunOptions& options = st.options;
  const double stop_time = sg4::Engine::get_clock(); // jobs still in the system are measured at this instant
  if (options.progress) std::fprintf(stderr, "\r%*s\r", 100, "");
  if (ctx.failure) std::rethrow_exception(ctx.failure);
  if (!ctx.scheduler->finished() && !st.scheduler_host_off.empty())
    throw InputError("jobsched's scheduler stopped at " + format_exact(st.scheduler_host_off_at) + " s: its host '" +
                     st.scheduler_host_off + "' was switched off (jobsched's actors need a host that stays on)");
  if (!ctx.scheduler->finished())
    throw PolicyError("the simulation stopped before the scheduler finished (SimGrid reported a deadlock above)");

  RunReport report;
  report.out_dir = sc.output_dir;
  report.workload = ctx.workload;
  st.stop_time = stop_time;
  ctx.runtime->table().release_all(); // the jobs still in the system, and those never submitted
  report.states = std::move(st.kept_states);
  report.trace = std::move(st.kept);
  report.policy = sc.policy.name;
  report.jobs = ctx.workload->jobs.size();
  const Workload& workload = *ctx.workload;
  double area = st.segment_totals ? ctx.runtime->running_area_total() : st.area;
  if (st.segment_totals || st.running_only) st.segments = ctx.runtime->segments_total();
  if (st.busy) area = st.busy->finish(area); // the union of each processor's running intervals
  report.metrics = st.sums->finish(area, ctx.machine.resource_count(), ctx.reference_processors);
  report.metrics.backlog_stop_time = ctx.scheduler->backlog_stop_time();
  if (report.metrics.backlog_stop_time >= 0) report.metrics.saturated = 1;
  report.metrics.stall_stop_time = ctx.scheduler->stall_stop_time();
  if (ctx.owners) report.metrics.owner_returns = ctx.owners->exits();
  if (report.metrics.stall_stop_time >= 0) report.metrics.saturated = 1;
  report.metrics.no_progress_stop_time = ctx.scheduler->no_progress_stop_time();
  if (report.metrics.no_progress_stop_time >= 0) report.metrics.saturated = 1;

  RunDescription run{sc.name,
                     sc.policy.name,
                     sc.policy.allocation,
                     workload.name,
                     sc.platform.filename().string(),
                     ctx.machine.resource_count(),
                     ctx.machine.host_count(),
                     sc.simulation.seed,
                     sc.workload.closed.warmup,
                     sc.bounded_slowdown_tau};
  PerformanceFigures& perf = report.performance;
  perf.simulation_seconds = ctx.scheduler->stats().wall_seconds;
  perf.instants = ctx.scheduler->stats().instants;
  perf.decisions = ctx.scheduler->stats().decisions;
  perf.virtual_instants = ctx.scheduler->stats().virtual_instants;
  perf.cycles = ctx.scheduler->stats().cycles;
  perf.cycle_instants = ctx.scheduler->stats().cycle_instants;
  perf.jobs = static_cast<long>(report.jobs);
  perf.segments = st.segments;
  perf.execution = ctx.runtime->uses_timers() ? "timer" : "ptask";
  const PolicyReport policy_report = ctx.time_sharing_policy ? ctx.time_sharing_policy->report() : PolicyReport{};
  if (!policy_report.invariant_violation.empty()) throw InvariantViolation(policy_report.invariant_violation);
  RunFolder& folder = *st.folder;
  if (st.jobs_writer) st.jobs_writer->finish(policy_report);
  if (st.trace_writer) st.trace_writer->flush();
  if (st.segments_writer) st.segments_writer->finish();
  folder.write("summary.json", summary_json(run, workload, report.metrics, policy_report));
  write_performance_and_commit(folder, perf, st.wall_start);
  report.files = folder.written();
  return report;
}

void load_scenario_plugins(const Scenario& sc)
{
  for (const auto& plugin : sc.plugins) // their errors name the scenario file already
    load_plugin(plugin.path, plugin.origin);
}

RunReport run_scenario(const Scenario& sc, const RunOptions& options)
{
  auto wall_start = std::chrono::steady_clock::now();
  load_scenario_plugins(sc); // before any name is looked up

  if (options.check_only) write_no_simgrid_trace(); // "nothing written", even with tracing:yes
  EngineSetup setup(sc, options.program, options.simgrid_args);
  sg4::Engine& engine = setup.engine();

  // The same attach, run and finish as jobsched inside a user's program (run/simgrid_plugin.cpp).
  auto attached = std::make_unique<AttachedRun>(options, wall_start);
  attached->register_actors(engine);
  if (sc.deployment.empty()) { // no deployment: the actors go to the host the platform's roles give them
    sg4::Host* host = actors_host(engine);
    if (host == nullptr) throw InputError(sc.platform.string() + ": the platform has no host");
    attached->place_scheduler(host);
  } else {
    setup.load_deployment(sc.deployment);
  }
  if (options.check_only) { // the set-up of prepare() without the output folder; the actors then return at once
    std::exception_ptr failure;
    try {
      Context ctx;
      prepare_context(ctx, engine, sc, options);
    } catch (...) {
      failure = std::current_exception();
    }
    attached->fail(failure);
    if (!failure) setup.succeeded();
    engine.run(); // an engine destroyed before it ran warns at the process's exit
    if (failure) std::rethrow_exception(failure);
    return RunReport{};
  }

  // Set-up errors from here on are raised only after the deployed actors have run (and returned at once): an engine
  // destroyed with actors that never ran prints shutdown warnings around the one-line error.
  if (attached->prepare(engine, sc, false)) setup.succeeded(); // SimGrid's warnings of the set-up are shown
  engine.run();
  RunReport report = attached->finish();
  if (options.process_ends_after) static_cast<void>(attached.release()); // left to the process's end (RunOptions)
  return report;
}

} // namespace jobsched
