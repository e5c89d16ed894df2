#include "run/fork_join.hpp"

#include "core/errors.hpp"
#include "core/json.hpp"
#include "output/run_folder.hpp"
#include "platform/host_roles.hpp"
#include "platform/platform_check.hpp"
#include "run/engine_setup.hpp"

#include <chrono>

XBT_LOG_NEW_DEFAULT_CATEGORY(jobsched_fork_join, "jobsched: the fork-join paging study");

namespace jobsched {

std::string fork_join_summary_json(const ForkJoinResult& r)
{
  const ForkJoinSpec& f = r.spec;
  Json s;
  s["scenario"] = r.scenario;
  s["kind"] = "fork-join";
  s["platform"] = r.platform;
  s["seed"] = r.seed;
  s["threads"] = f.threads;
  s["granularity"] = json_number(f.granularity);
  s["fault_rate"] = json_number(f.fault_rate);
  s["fault_service"] = json_number(f.fault_service);
  s["correlation"] = json_number(f.correlation);
  s["offsets"] = to_string(f.offsets);
  s["barrier_cost"] = json_number(f.barrier_cost);
  s["phases"] = r.phases;
  s["faults_per_thread"] = r.faults_per_thread;
  s["computation_time"] = json_number(static_cast<double>(r.phases) * f.granularity);
  s["completion_time"] = json_number(r.completion_time);
  s["expected_completion_time"] = json_number(r.expected_completion_time);
  s["slowdown"] = json_number(r.slowdown);
  return json_text(s);
}

ForkJoinReport run_fork_join(const Scenario& sc, const RunOptions& options)
{
  const auto wall_start = std::chrono::steady_clock::now();
  const ForkJoinSpec& spec = *sc.fork_join;
  if (!sc.deployment.empty())
    throw InputError(sc.origins.error("deployment: a fork_join scenario places its threads itself, one per compute "
                                      "host: remove the deployment"));
  if (options.check_only) write_no_simgrid_trace(); // "nothing written", even with tracing:yes
  EngineSetup setup(sc, options.program, options.simgrid_args);
  sg4::Engine& engine = setup.engine();
  std::vector<sg4::Host*> hosts = compute_hosts(engine, {});
  if (static_cast<long>(hosts.size()) < spec.threads)
    throw InputError(sc.origins.error("fork_join.threads: " + std::to_string(spec.threads) +
                                      " threads need as many compute hosts (one thread per node), " +
                                      sc.platform.string() + " has " + std::to_string(hosts.size())));
  for (int i = 0; i < spec.threads; i++)
    require_usable_speed(*hosts[static_cast<size_t>(i)], sc.platform);
  if (options.check_only) { // what follows refuses nothing
    setup.succeeded();
    engine.run(); // (no actor) an engine destroyed before it ran warns at the process's exit
    return ForkJoinReport{};
  }
  const double reference_speed =
      sc.simulation.reference_speed > 0 ? sc.simulation.reference_speed : hosts.front()->get_speed();

  const std::vector<std::vector<double>> faults = fault_schedule(spec, sc.simulation.seed);
  const long phases = phase_count(spec);
  // A phase's computation has no communication and no contention: a timer of its length at each host's speed.
  std::vector<double> phase_lengths;
  for (int i = 0; i < spec.threads; i++)
    phase_lengths.push_back(spec.granularity * reference_speed / hosts[static_cast<size_t>(i)]->get_speed());
  auto barrier = sg4::Barrier::create(static_cast<unsigned>(spec.threads));
  for (int i = 0; i < spec.threads; i++) {
    sg4::Host* host = hosts[static_cast<size_t>(i)];
    const double phase_length = phase_lengths[static_cast<size_t>(i)];
    const std::vector<double>* mine = &faults[static_cast<size_t>(i)];
    sg4::Actor::create("thread-" + std::to_string(i), host, [&spec, barrier, phases, phase_length, mine] {
      size_t next = 0;
      for (long p = 0; p < phases; p++) {
        sg4::this_actor::sleep_for(phase_length);
        long taken = 0;
        while (next < mine->size() && phase_of(spec, (*mine)[next]) == p) {
          next++;
          taken++;
        }
        if (taken > 0) sg4::this_actor::sleep_for(static_cast<double>(taken) * spec.fault_service);
        barrier->wait();
        if (spec.barrier_cost > 0) sg4::this_actor::sleep_for(spec.barrier_cost);
      }
    });
  }
  setup.succeeded();
  const auto simulation_start = std::chrono::steady_clock::now();
  engine.run();

  ForkJoinReport report;
  ForkJoinResult& r = report.result;
  r.scenario = sc.name;
  r.platform = sc.platform.filename().string();
  r.seed = sc.simulation.seed;
  r.spec = spec;
  r.phases = phases;
  r.faults_per_thread = faults.empty() ? 0 : static_cast<long>(faults.front().size());
  r.completion_time = engine.get_clock();
  r.expected_completion_time = fork_join_completion_time(spec, faults, phase_lengths);
  r.slowdown = r.completion_time / (static_cast<double>(phases) * spec.granularity);
  PerformanceFigures& perf = report.performance;
  perf.execution = "actors";
  perf.simulation_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - simulation_start).count();
  perf.jobs = spec.threads;
  perf.instants = phases;
  RunFolder folder(sc.output_dir);
  folder.write("summary.json", fork_join_summary_json(r));
  write_performance_and_commit(folder, perf, wall_start);
  report.out_dir = folder.dir();
  return report;
}

} // namespace jobsched
