/* The memory of compute hosts, their platform property memory_mb (MB), which workload.memory.model: paging compares
 * the jobs' memory with. The runtime reads the property as a number; this checks it first, so that a value that is
 * not a memory ("abc", "-5", "nan", "0", "inf") is refused naming the platform file, the host and the value instead of
 * being taken as no memory (paging's message then blamed a missing property) or as infinite memory (no paging ever).
 * Only a run that reads the property is checked (paging without workload.memory.node_memory_mb): any other run never
 * reads it, and a platform written for other tools (memory_mb="4GB") ran before this check existed. */
#pragma once

#include <simgrid/s4u.hpp>

#include <filesystem>
#include <vector>

namespace jobsched {

/* The most memory a host may have, MB: as workload.memory.node_memory_mb, which overrides the property. */
constexpr double kMaxHostMemoryMb = 1e12;

/* Throw InputError naming `platform` and the host when a compute host has no memory_mb property or one that is not
 * a number of MB above 0 and at most kMaxHostMemoryMb. Call it only for a run that reads the property. */
void check_host_memory(const std::vector<simgrid::s4u::Host*>& hosts, const std::filesystem::path& platform);

} // namespace jobsched
