/* First fit: the lowest-numbered idle processors, wherever they are.
 *
 * The default allocation step of the foundation policies (FCFS, EASY, conservative): processors are interchangeable,
 * so only their number matters and a count-based plan is always realisable. */
#include "allocation/allocator.hpp"

namespace jobsched {
namespace {

class FirstFit : public Allocator {
 public:
  std::optional<ResourceSet> select(const Job& job, const ResourceSet& available,
                                    const ResourceSet* preferred) const override
  {
    if (available.count() < job.size) return std::nullopt;
    if (preferred == nullptr) return available.lowest(job.size);
    ResourceSet first = available & *preferred;
    int from_first = std::min(first.count(), job.size);
    ResourceSet chosen = first.lowest(from_first);
    chosen |= (available - first).lowest(job.size - from_first);
    return chosen;
  }
  bool any_processors_will_do() const override { return true; }
};

AllocatorRegistration first_fit{
    {"first-fit", "lowest-numbered idle processors, no placement constraint", {}, [](const AllocatorEnv&) {
       return std::make_unique<FirstFit>();
     }}};

} // namespace
} // namespace jobsched
