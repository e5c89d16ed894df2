#include "platform/host_memory.hpp"

#include "core/errors.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

namespace jobsched {

void check_host_memory(const std::vector<simgrid::s4u::Host*>& hosts, const std::filesystem::path& platform)
{
  for (const auto* h : hosts) {
    const char* text = h->get_property("memory_mb");
    const std::string where = platform.string() + ": host " + h->get_name() + ": property memory_mb";
    if (text == nullptr)
      throw InputError(where + " is missing: workload.memory.model: paging needs each host's memory (or "
                               "workload.memory.node_memory_mb for all)");
    const std::string value(text);
    char* end = nullptr;
    const double mb = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || !std::isfinite(mb) || !(mb > 0) || mb > kMaxHostMemoryMb)
      throw InputError(where + ": '" + value + "' is not a number of MB above 0 and at most 1e12");
  }
}

} // namespace jobsched
