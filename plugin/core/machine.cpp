#include "core/machine.hpp"

namespace jobsched {

void Machine::add_host(const std::string& name, int cores, double speed)
{
  int host = host_count();
  host_names_.push_back(name);
  cores_.push_back(cores);
  speeds_.push_back(speed);
  archs_.emplace_back("any");
  first_resource_.push_back(resource_count());
  for (int c = 0; c < cores; c++)
    resource_host_.push_back(host);
}

void Machine::set_position(int host, int x, int y)
{
  if (positions_.empty()) positions_.assign(host_names_.size(), {-1, -1});
  positions_.at(host) = {x, y};
}

Machine Machine::uniform(int hosts, int cores_per_host, double speed)
{
  Machine m;
  for (int h = 0; h < hosts; h++)
    m.add_host("node-" + std::to_string(h), cores_per_host, speed);
  return m;
}

} // namespace jobsched
