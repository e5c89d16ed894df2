/* jobsched as a SimGrid plugin, inside a user's own s4u program.
 *
 * The program makes its simgrid::s4u::Engine, calls jobsched::plugin_init() (or passes --cfg=plugin:jobsched on its
 * command line, which calls it while the engine reads its options), loads its platform and a deployment that places
 * one actor of function jobsched_scheduler and one of jobsched_submitter beside its own actors, and runs the engine.
 * jobsched leaves the engine, the platform and the program's other actors to the program:
 *
 *  - the scenario is the file of --cfg=jobsched/scenario:FILE, or the first argument of the jobsched_scheduler actor
 *    in the deployment (both given: they must name the same file); it must not have the keys platform and deployment
 *    (the program's are simulated). It is read when the simulation starts; --cfg=jobsched/out:DIR replaces its
 *    output.dir;
 *  - the compute hosts are those whose role property is compute (or absent) and that run neither of jobsched's two
 *    actors: the program's own actors may run on compute hosts (a traffic generator), and a compute host that the
 *    program switches off fails the jobs running there, as a state profile would;
 *  - the outputs (jobs.csv, trace.csv, summary.json, performance.json) are written in the scenario's output folder
 *    when the simulation ends.
 *
 * A bad scenario or deployment, or a policy's error during the run, stops every actor at once, and the engine's run()
 * then throws the error (a std::runtime_error or std::logic_error whose what() is jobsched's one-line message): catch
 * it around run() in main.
 *
 * This header needs the standard library only. */
#pragma once

namespace jobsched {

/* Call once the program's engine exists (simgrid::s4u::Engine's constructor has run), before it loads its deployment.
 * Calling it again does nothing. std::logic_error when there is no engine yet. */
void plugin_init();

} // namespace jobsched
