/* A SimGrid engine for runtime tests: parallel tasks (ptask_L07), only critical log lines, on `platform`. One per
 * process: call it inside jobsched::testing::in_child. */
#pragma once

#include <simgrid/s4u.hpp>

#include <memory>
#include <string>

namespace jobsched::testing {

inline std::unique_ptr<simgrid::s4u::Engine> quiet_l07_engine(const std::string& platform)
{
  int argc = 2;
  char arg0[] = "test";
  char arg1[] = "--log=root.thres:critical";
  char* argv[] = {arg0, arg1, nullptr};
  auto engine = std::make_unique<simgrid::s4u::Engine>(&argc, argv);
  engine->set_config("host/model:ptask_L07");
  engine->load_platform(platform);
  return engine;
}

} // namespace jobsched::testing
