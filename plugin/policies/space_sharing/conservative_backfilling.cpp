/* Conservative backfilling (Mu'alem & Feitelson 2001): every waiting job holds a reservation, made at submission at
 * the earliest instant its estimate fits around the running jobs and the earlier reservations. A later job may start
 * early only in a hole that delays no reservation. When a job ends early the plan is compressed: each waiting job, in
 * submission order, is taken out and put back at its earliest fit, which is never later than before, so no job is
 * ever delayed by a later one.
 *
 * The plan counts processors, which is exact when any idle processors will do (first-fit); allocators with placement
 * constraints are refused. */
#include "core/errors.hpp"
#include "policies/space_sharing/availability_profile.hpp"
#include "policies/space_sharing/waiting_queue.hpp"
#include "policy/policy.hpp"

#include <unordered_map>

namespace jobsched {
namespace {

class ConservativeBackfilling : public Policy {
 public:
  explicit ConservativeBackfilling(const PolicyEnv& env) : allocator_(env.allocator)
  {
    if (!allocator_.any_processors_will_do())
      throw InputError("policy.allocation: conservative backfilling plans with processor counts and needs an allocator "
                       "for which any idle processors will do (e.g. first-fit)");
  }
  void job_submitted(const Job& job, double) override { queue_.push(job); }
  void job_ended(const Job&, JobEnd, double) override { compress_ = true; }
  void host_changed(const HostChange&, double) override { replan_ = true; }
  size_t waiting_count() const override { return queue_.size(); }

  Decisions decide(const ClusterState& state) override
  {
    AvailabilityProfile profile(state.now, state.up.count());
    for (const auto& [id, r] : state.running)
      if (!r.suspended) profile.reserve(state.now, r.expected_end(state.now), r.resources.count());
    // Keep the reservations that stay, place the others in submission order.
    for (size_t i = 0; i < queue_.size(); i++) {
      auto it = reservation_.find(queue_[i].id);
      if (it != reservation_.end() && !replan_)
        profile.reserve(std::max(it->second, state.now), std::max(it->second, state.now) + queue_[i].estimate,
                        queue_[i].size);
    }
    for (size_t i = 0; i < queue_.size(); i++) {
      const Job& job = queue_[i];
      auto it = reservation_.find(job.id);
      bool placed = it != reservation_.end() && !replan_;
      if (placed && !compress_) continue;
      if (placed) { // compression: take it out, put it back at its earliest fit (never later)
        double old = std::max(it->second, state.now);
        profile.release(old, old + job.estimate, job.size);
      }
      double start = profile.earliest_fit(state.now, job.estimate, job.size);
      profile.reserve(start, start + job.estimate, job.size);
      reservation_[job.id] = start;
    }
    compress_ = replan_ = false;

    Decisions out;
    ResourceSet idle = state.idle;
    queue_.erase_if([&](const Job& job) {
      if (reservation_[job.id] > state.now + kTimeEpsilon) return false;
      auto chosen = allocator_.select(job, idle);
      if (!chosen) // a running job overran its estimate: the job waits for the next compression
        return false;
      idle -= *chosen;
      out.push_back(Decision::start(job.id, std::move(*chosen)));
      reservation_.erase(job.id);
      return true;
    });
    return out;
  }

  /* The reservation of a waiting job (for tests and traces). */
  double reservation_of(JobId id) const { return reservation_.at(id); }

 private:
  const Allocator& allocator_;
  WaitingQueue queue_;
  std::unordered_map<JobId, double> reservation_;
  bool compress_ = false;
  bool replan_ = false;
};

PolicyRegistration conservative{
    {"conservative",
     "conservative backfilling: every waiting job holds a reservation no later job may delay",
     {},
     [](const PolicyEnv& env) { return std::make_unique<ConservativeBackfilling>(env); }}};

} // namespace
} // namespace jobsched
