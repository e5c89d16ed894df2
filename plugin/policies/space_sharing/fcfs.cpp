/* First-come first-served: jobs start in submission order; a job that does not fit blocks every job behind it.
 *
 * The baseline of every scheduling study, e.g. the FCFS rows of the SMP-cluster paper's Table 1
 * ("Processor allocation of parallel jobs on SMP clusters"). */
#include "policies/space_sharing/waiting_queue.hpp"
#include "policy/policy.hpp"

namespace jobsched {
namespace {

class Fcfs : public Policy {
 public:
  explicit Fcfs(const PolicyEnv& env) : allocator_(env.allocator) {}
  void job_submitted(const Job& job, double) override { queue_.push(job); }
  void job_requeued(const Job& job, double) override { queue_.push_in_submission_order(job); }
  size_t waiting_count() const override { return queue_.size(); }

  Decisions decide(const ClusterState& state) override
  {
    ResourceSet idle = state.idle;
    return start_in_order(queue_, allocator_, idle);
  }

 private:
  const Allocator& allocator_;
  WaitingQueue queue_;
};

PolicyRegistration fcfs{{"fcfs", "first-come first-served, no backfilling", {}, [](const PolicyEnv& env) {
                           return std::make_unique<Fcfs>(env);
                         }}};

} // namespace
} // namespace jobsched
