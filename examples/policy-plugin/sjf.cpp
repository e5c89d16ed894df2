/* Shortest job first, by requested time. Whenever processors free up or a job arrives, the waiting jobs are
 * considered from the shortest estimate to the longest (equal estimates in submission order), and every one that fits
 * on the idle processors starts. No job holds processors back for another: a short job never waits behind a long or
 * wide one, which lowers the mean wait when short jobs are many, and a long job can starve under a heavy load, since
 * nothing reserves processors for it (EASY's reservation is what prevents that).
 *
 * A jobsched plugin: JOBSCHED_PLUGIN gives the library the version of jobsched it is built against, and the static
 * PolicyRegistration makes the policy `sjf` known to jobsched when it loads the library (scenario.yaml's plugins:). */
#include "policy/plugin.hpp"
#include "policy/policy.hpp"

#include <algorithm>
#include <memory>
#include <vector>

JOBSCHED_PLUGIN;

namespace {

using namespace jobsched;

class ShortestJobFirst : public Policy {
 public:
  explicit ShortestJobFirst(const PolicyEnv& env) : allocator_(env.allocator) {}

  void job_submitted(const Job& job, double /*now*/) override
  {
    auto place = std::upper_bound(waiting_.begin(), waiting_.end(), job,
                                  [](const Job& a, const Job& b) { return a.estimate < b.estimate; });
    waiting_.insert(place, job);
  }

  size_t waiting_count() const override { return waiting_.size(); }

  Decisions decide(const ClusterState& state) override
  {
    Decisions starts;
    ResourceSet idle = state.idle;
    std::vector<Job> still_waiting;
    for (const Job& job : waiting_) {
      if (auto chosen = allocator_.select(job, idle)) {
        idle -= *chosen;
        starts.push_back(Decision::start(job.id, *chosen));
      } else {
        still_waiting.push_back(job);
      }
    }
    waiting_ = std::move(still_waiting);
    return starts;
  }

 private:
  const Allocator& allocator_;
  std::vector<Job> waiting_; // by estimate, then submission
};

PolicyRegistration sjf{{"sjf",
                        "shortest job first by requested time: every waiting job that fits starts, no reservation",
                        {},
                        [](const PolicyEnv& env) { return std::make_unique<ShortestJobFirst>(env); }}};

} // namespace
