/* First-fit list scheduling: at every decision the queue is scanned in submission order and every job that fits in
 * the idle processors starts; a job that does not fit blocks nobody (no reservation, so a large job may starve).
 *
 * One reading of the FCFS of "Processor allocation of parallel jobs on SMP clusters" (the SMP-cluster paper, Table 1,
 * 178-268 at Level 0), whose text does not say whether its FCFS lets later jobs pass a blocked one: strict FCFS
 * (`fcfs`) blocks the queue behind its head, this policy does not (docs/reproduction/smp-cluster.md compares both). */
#include "policies/space_sharing/waiting_queue.hpp"
#include "policy/policy.hpp"

namespace jobsched {
namespace {

class FirstFitList : public Policy {
 public:
  explicit FirstFitList(const PolicyEnv& env) : allocator_(env.allocator) {}
  void job_submitted(const Job& job, double) override { queue_.push(job); }
  void job_requeued(const Job& job, double) override { queue_.push_in_submission_order(job); }
  size_t waiting_count() const override { return queue_.size(); }

  Decisions decide(const ClusterState& state) override
  {
    ResourceSet idle = state.idle;
    int idle_count = idle.count();
    Decisions out;
    for (size_t i = 0; i < queue_.size() && idle_count > 0;) {
      const Job& job = queue_[i];
      auto chosen = job.size <= idle_count ? allocator_.select(job, idle) : std::nullopt;
      if (!chosen) {
        i++;
        continue;
      }
      idle -= *chosen;
      idle_count = idle.count();
      out.push_back(start_decision(allocator_, job, std::move(*chosen)));
      queue_.erase(i); // the next candidate is now at index i
    }
    return out;
  }

 private:
  const Allocator& allocator_;
  WaitingQueue queue_;
};

PolicyRegistration first_fit_list{
    {"first-fit-list",
     "first-fit list scheduling: every queued job that fits starts, in submission order; no job blocks the queue",
     {},
     [](const PolicyEnv& env) { return std::make_unique<FirstFitList>(env); }}};

} // namespace
} // namespace jobsched
