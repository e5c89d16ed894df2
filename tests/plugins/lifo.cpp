/* A test plugin: last come, first served. The most recently submitted waiting job starts first; the others wait
 * behind it (none overtakes a job that does not fit). Not a policy anyone should use: its schedule differs from
 * FCFS's on the smallest trace, so the tests see that the plugin's policy, and no other, made it. */
#include "policy/plugin.hpp"
#include "policy/policy.hpp"

#include <deque>

JOBSCHED_PLUGIN;

namespace {

using namespace jobsched;

class LastComeFirstServed : public Policy {
 public:
  explicit LastComeFirstServed(const PolicyEnv& env) : allocator_(env.allocator) {}
  void job_submitted(const Job& job, double) override { waiting_.push_back(job); }
  size_t waiting_count() const override { return waiting_.size(); }
  Decisions decide(const ClusterState& state) override
  {
    Decisions out;
    ResourceSet idle = state.idle;
    while (!waiting_.empty()) {
      auto chosen = allocator_.select(waiting_.back(), idle);
      if (!chosen) break;
      idle -= *chosen;
      out.push_back(Decision::start(waiting_.back().id, *chosen));
      waiting_.pop_back();
    }
    return out;
  }

 private:
  const Allocator& allocator_;
  std::deque<Job> waiting_;
};

PolicyRegistration lifo{{"test-lifo", "last come, first served (a test plugin)", {}, [](const PolicyEnv& env) {
                           return std::make_unique<LastComeFirstServed>(env);
                         }}};

} // namespace
