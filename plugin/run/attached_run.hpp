/* jobsched's actors on an s4u engine jobsched did not make the run's way: one path for the launcher (run_scenario makes
 * the engine and loads the platform, then attaches) and for a user's own s4u program (jobsched::plugin_init attaches to
 * the program's engine, run/simgrid_plugin.hpp).
 *
 *  1. register_actors(): the engine learns the functions jobsched_scheduler and jobsched_submitter, which a deployment
 *     places (or place_scheduler(), the launcher without a deployment);
 *  2. prepare(), once the deployment is loaded and before the engine runs: the compute hosts, the policy, the workload,
 *     the output folder. A failure is kept, and jobsched's actors then return at once;
 *  3. the owner of the engine runs it;
 *  4. finish(): the kept failure rethrown, or the outputs written and the report returned. */
#pragma once

#include "run/simulation.hpp"

#include <simgrid/s4u.hpp>

#include <chrono>
#include <exception>
#include <memory>
#include <string>
#include <vector>

namespace jobsched {

class AttachedRun {
 public:
  /* `wall_start`: when the run began, for performance.json's wall-clock figures. */
  AttachedRun(RunOptions options, std::chrono::steady_clock::time_point wall_start);
  AttachedRun(const AttachedRun&) = delete;
  AttachedRun& operator=(const AttachedRun&) = delete;
  ~AttachedRun();

  void register_actors(simgrid::s4u::Engine& engine);
  /* The launcher without a deployment: the scheduler actor on `host`. */
  void place_scheduler(simgrid::s4u::Host* host);
  /* The arguments a deployment gave the jobsched_scheduler actors, one list per actor, in the order it placed them. */
  const std::vector<std::vector<std::string>>& scheduler_arguments() const;

  /* `program_platform`: the engine, platform and deployment are a user's program's (Scenario::platform is empty), and
   * its other actors run beside jobsched's. The compute hosts are the hosts whose role is compute (or absent) and that
   * run neither jobsched_scheduler nor jobsched_submitter (platform/host_roles.hpp): the hosts of the program's own
   * actors compute. Returns false when the set-up failed (the failure is kept for finish()). */
  bool prepare(simgrid::s4u::Engine& engine, const Scenario& scenario, bool program_platform);
  /* A failure before prepare() could run (the scenario could not be read): kept for finish(), as prepare()'s are. */
  void fail(std::exception_ptr failure);
  bool failed() const;

  /* After the engine ran: the kept failure rethrown (InputError, PolicyError...), or the outputs written into the
   * scenario's output folder and the report returned. */
  RunReport finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/* jobsched::plugin_init() ran in this process (run/simgrid_plugin.cpp): jobsched is attached to a program's engine. */
bool plugin_initialized();

} // namespace jobsched
