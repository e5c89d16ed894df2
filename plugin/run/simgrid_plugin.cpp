#include "run/simgrid_plugin.hpp"

#include "core/errors.hpp"
#include "run/attached_run.hpp"
#include "run/engine_setup.hpp"
#include "scenario/scenario.hpp"

#include <simgrid/s4u.hpp>
#include <simgrid/version.h>
#include <xbt/config.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

XBT_LOG_NEW_DEFAULT_CATEGORY(jobsched_plugin, "jobsched: the SimGrid plugin inside a user's s4u program");

namespace fs = std::filesystem;
namespace sg4 = simgrid::s4u;

#if SIMGRID_VERSION_MAJOR == 3 && SIMGRID_VERSION_MINOR == 32
/* --cfg=plugin:NAME looks NAME up in a table of SimGrid 3.32 that its installed headers do not declare (its
 * SIMGRID_REGISTER_PLUGIN macro is internal): a std::vector of {name, description, init function}, the static of the
 * inline function surf_plugin_description(), which libsimgrid exports under its mangled name. jobsched appends its
 * entry as the library loads: libsimgrid's own plugins registered theirs before (its initializers run first), and the
 * engine reads its options later. */
namespace jobsched::simgrid_table {
struct SimgridPluginEntry {
  const char* name;
  const char* description;
  std::function<void()> init;
};
extern std::vector<SimgridPluginEntry>
    simgrid_plugin_table __asm__("_ZZ23surf_plugin_descriptionvE24plugin_description_table");
extern unsigned char simgrid_plugin_table_made __asm__("_ZGVZ23surf_plugin_descriptionvE24plugin_description_table");
} // namespace jobsched::simgrid_table
#endif

namespace jobsched {

namespace {

// Declared as the library loads, so that the program's engine knows them whatever their order on its command line.
simgrid::config::Flag<std::string> scenario_flag{
    "jobsched/scenario",
    "jobsched inside an s4u program: the scenario file (without platform and deployment keys); or the first argument "
    "of the jobsched_scheduler actor",
    ""};
simgrid::config::Flag<std::string> out_flag{
    "jobsched/out", "jobsched inside an s4u program: the output folder, instead of the scenario's output.dir", ""};

/* The run attached to the program's engine. Never destroyed: SimGrid's own clean-up at exit may still reach the
 * callbacks the runtime connected to its signals. */
struct PluginRun {
  std::unique_ptr<AttachedRun> run;
  bool finished = false;
};
PluginRun& plugin_run()
{
  static auto* run = new PluginRun;
  return *run;
}

/* The scenario file: --cfg=jobsched/scenario, or the jobsched_scheduler actor's argument (args[0] is the function's
 * name), or both naming the same file. */
std::string scenario_file(const std::vector<std::vector<std::string>>& scheduler_arguments)
{
  std::string from_actor;
  if (!scheduler_arguments.empty()) {
    const std::vector<std::string>& args = scheduler_arguments.front();
    if (args.size() > 2)
      throw InputError(
          "the program's deployment: the jobsched_scheduler actor takes one argument, the scenario file (" +
          std::to_string(args.size() - 1) + " given)");
    if (args.size() == 2) from_actor = args[1];
  }
  const std::string from_flag = scenario_flag.get();
  if (from_flag.empty() && from_actor.empty())
    throw InputError("jobsched: no scenario: give --cfg=jobsched/scenario:FILE, or the file as the argument of the "
                     "jobsched_scheduler actor in the deployment");
  if (!from_flag.empty() && !from_actor.empty() &&
      fs::absolute(from_flag).lexically_normal() != fs::absolute(from_actor).lexically_normal())
    throw InputError("jobsched: two scenarios: --cfg=jobsched/scenario:" + from_flag +
                     " and the jobsched_scheduler actor's argument " + quoted_value(from_actor) + ": give one");
  return from_flag.empty() ? from_actor : from_flag;
}

/* A failed set-up stops the program's actors too: its simulation would run without the scheduler it was written for,
 * and end with the error anyway. */
void stop_every_actor(const sg4::Engine& engine)
{
  std::vector<sg4::Host*> hosts = engine.get_all_hosts();
  auto on = std::find_if(hosts.begin(), hosts.end(), [](const sg4::Host* h) { return h->is_on(); });
  if (on == hosts.end()) return;
  sg4::Actor::create("jobsched-stop", *on, [] { sg4::Actor::kill_all(); });
}

void on_simulation_start()
{
  PluginRun& p = plugin_run();
  sg4::Engine& engine = *sg4::Engine::get_instance();
  try {
    const std::string file = scenario_file(p.run->scheduler_arguments());
    Scenario sc = load_program_scenario(file);
    if (sc.fork_join)
      throw InputError(file + ": fork_join: the fork-join paging study is not a scheduling run (jobsched fork-join " +
                       file + ")");
    if (!out_flag.get().empty()) sc.output_dir = fs::absolute(out_flag.get()).lexically_normal();
    // What the launcher's EngineSetup sees to, on an engine that is the program's: a job spanning hosts needs the
    // scenario's host model (SimGrid's default one aborts on it), and a message over a link without bandwidth (or an
    // image on a disk without one) would never arrive.
    const auto model = simgrid::config::get_value<std::string>("host/model");
    if (model != sc.simulation.host_model)
      throw InputError(
          "the program's engine: host/model is " + model + ", jobsched's jobs need " + sc.simulation.host_model +
          " (a job may span hosts): give --cfg=host/model:" + sc.simulation.host_model +
          ", or call engine.set_config(\"host/model:" + sc.simulation.host_model + "\") before loading the platform");
    require_usable_links(engine, "the program's platform");
    require_usable_disks(engine, "the program's platform");
    load_scenario_plugins(sc);
    p.run->prepare(engine, sc, true);
  } catch (...) {
    p.run->fail(std::current_exception());
  }
  if (p.run->failed()) stop_every_actor(engine);
}

void on_simulation_end()
{
  PluginRun& p = plugin_run();
  if (p.finished) return;
  p.finished = true;
  const RunReport report = p.run->finish(); // the error, if any, leaves the engine's run()
  XBT_INFO("%zu jobs under %s, makespan %g s: outputs in %s", report.jobs, report.policy.c_str(),
           report.metrics.makespan, report.out_dir.c_str());
}

#if SIMGRID_VERSION_MAJOR == 3 && SIMGRID_VERSION_MINOR == 32
/* --cfg=plugin:jobsched (the table above). */
[[maybe_unused]] const bool registered_with_simgrid = [] {
  if (simgrid_table::simgrid_plugin_table_made == 0) return false; // SimGrid registered no plugin: no table
  simgrid_table::simgrid_plugin_table.push_back(
      {"jobsched", "jobsched's job scheduling (the scenario: --cfg=jobsched/scenario:FILE)", &plugin_init});
  return true;
}();
#endif

} // namespace

bool plugin_initialized()
{
  return plugin_run().run != nullptr;
}

void plugin_init()
{
  if (!sg4::Engine::is_initialized())
    throw std::logic_error("jobsched::plugin_init: make the simgrid::s4u::Engine first");
  PluginRun& p = plugin_run();
  if (p.run) return;
  p.run = std::make_unique<AttachedRun>(RunOptions{}, std::chrono::steady_clock::now());
  p.run->register_actors(*sg4::Engine::get_instance());
  sg4::Engine::on_simulation_start_cb(&on_simulation_start);
  sg4::Engine::on_simulation_end_cb(&on_simulation_end);
}

} // namespace jobsched
