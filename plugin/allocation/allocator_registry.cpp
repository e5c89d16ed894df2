#include "allocation/allocator.hpp"

namespace jobsched {

Registry<AllocatorInfo>& allocator_registry()
{
  static Registry<AllocatorInfo> registry("policy.allocation");
  return registry;
}

} // namespace jobsched
