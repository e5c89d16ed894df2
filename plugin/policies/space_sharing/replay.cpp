/* Replay of the recorded schedule: every job starts at the time the site's scheduler started it (SWF fields 2 + 3,
 * submit + wait), in the order of those times, as soon after as its processors are free on this platform. On the
 * machine and sizes the log describes (`workload.size_field: allocated`, the recorded processors), every job starts
 * exactly on time; summary.json's `jobs_started_late` counts those that could not, so a simulation of the same log
 * under another policy can be compared with what the site did. Jobs with no recorded start wait until every recorded
 * one has started, then go in submission order. */
#include "policies/space_sharing/waiting_queue.hpp"
#include "policy/policy.hpp"

#include <algorithm>
#include <limits>

namespace jobsched {
namespace {

class Replay : public Policy {
 public:
  explicit Replay(const PolicyEnv& env) : allocator_(env.allocator) {}
  void job_submitted(const Job& job, double) override
  {
    // Keep the queue in recorded-start order (submission order among equal times, unknown times last).
    auto key = [](const Job* j) {
      return j->recorded_start >= 0 ? j->recorded_start : std::numeric_limits<double>::infinity();
    };
    auto at = std::upper_bound(queue_.begin(), queue_.end(), &job,
                               [&](const Job* a, const Job* b) { return key(a) < key(b); });
    queue_.insert(at, &job);
  }
  size_t waiting_count() const override { return queue_.size(); }
  double next_wakeup() const override
  {
    return queue_.empty() || queue_.front()->recorded_start < 0 ? std::numeric_limits<double>::infinity()
                                                                : queue_.front()->recorded_start;
  }
  // The head's recorded start is a start this policy will make: waiting for it, however long, is the replay.
  double next_planned_start() const override { return next_wakeup(); }

  Decisions decide(const ClusterState& state) override
  {
    Decisions out;
    ResourceSet idle = state.idle;
    // In recorded order: the head blocks the rest, as the site's own schedule had them in this order.
    while (!queue_.empty() && queue_.front()->recorded_start <= state.now + kTimeEpsilon) { // unknown (-1) too
      auto chosen = allocator_.select(*queue_.front(), idle);
      if (!chosen) break;
      idle -= *chosen;
      out.push_back(Decision::start(queue_.front()->id, std::move(*chosen)));
      queue_.erase(queue_.begin());
    }
    return out;
  }

 private:
  const Allocator& allocator_;
  std::vector<const Job*> queue_;
};

PolicyRegistration replay{{"replay",
                           "replay the log's own schedule: each job at its recorded start (SWF submit + wait)",
                           {},
                           [](const PolicyEnv& env) { return std::make_unique<Replay>(env); }}};

} // namespace
} // namespace jobsched
