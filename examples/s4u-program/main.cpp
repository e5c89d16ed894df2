/* A SimGrid s4u program of the user's own, with jobsched inside it as a plugin: the program makes the engine, loads
 * its platform, calls jobsched::plugin_init(), adds its own actor (background traffic on the links the jobs use),
 * loads a deployment that places jobsched's actors and its own, and runs.
 *
 *   s4u-program PLATFORM DEPLOYMENT --cfg=jobsched/scenario:SCENARIO [--cfg=jobsched/out:DIR] [SimGrid options]
 *
 * jobsched writes its outputs (jobs.csv, summary.json...) when the simulation ends; an error in jobsched's set-up or
 * run leaves engine.run() as an exception whose what() is one line. */
#include "run/simgrid_plugin.hpp"

#include <simgrid/s4u.hpp>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

XBT_LOG_NEW_DEFAULT_CATEGORY(s4u_program, "the example program's own actors");

namespace sg4 = simgrid::s4u;

/* Arguments: source host, destination host, start and stop times (s). 1 GB transfers one after the other from start
 * until stop. A daemon: it does not keep the simulation alive once jobsched's scheduler is done. */
static void background_traffic(std::vector<std::string> args)
{
  sg4::Actor::self()->daemonize();
  sg4::Host* from = sg4::Host::by_name(args.at(1));
  sg4::Host* to = sg4::Host::by_name(args.at(2));
  const double start = std::stod(args.at(3));
  const double stop = std::stod(args.at(4));
  sg4::this_actor::sleep_until(start);
  long transfers = 0;
  while (sg4::Engine::get_clock() < stop) {
    sg4::Comm::sendto(from, to, 1000000000);
    transfers++;
  }
  XBT_INFO("background traffic: %ld transfers of 1 GB from %s to %s", transfers, from->get_cname(), to->get_cname());
}

int main(int argc, char** argv)
{
  sg4::Engine engine(&argc, argv); // takes SimGrid's --cfg and --log options out of argv
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s PLATFORM DEPLOYMENT --cfg=jobsched/scenario:SCENARIO [--cfg=jobsched/out:DIR]\n",
                 argv[0]);
    return 1;
  }
  engine.set_config("host/model:ptask_L07"); // jobsched's parallel jobs span hosts: SimGrid's L07 model
  engine.load_platform(argv[1]);
  jobsched::plugin_init(); // registers jobsched_scheduler and jobsched_submitter for the deployment
  engine.register_function("background_traffic", &background_traffic);
  engine.load_deployment(argv[2]);
  try {
    engine.run();
  } catch (const std::exception& e) { // jobsched's one-line error
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 2;
  }
  return 0;
}
