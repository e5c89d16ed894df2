/* EASY backfilling (Lifka 1995; Mu'alem & Feitelson 2001): jobs start in submission order; when the head of the queue
 * does not fit, it gets a reservation at the earliest instant the running jobs' estimates free enough processors
 * (the shadow time), and a later job may start now if it fits now and does not delay that reservation: it ends by the
 * shadow time, or it uses only processors the head does not need then.
 *
 * The SMP-cluster paper ("Processor allocation of parallel jobs on SMP clusters") compares it with FCFS on KTH SP2.
 * Reservations are computed with the allocator, so placement constraints carry over; with first-fit the processors
 * reserved for the head are taken from those released by running jobs first, and a backfilled job that ends in time
 * takes reserved processors first, which makes the rule identical to the textbook count-based "extra processors"
 * test. */
#include "policies/space_sharing/backfill_queue.hpp"
#include "policies/space_sharing/waiting_queue.hpp"
#include "policy/policy.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>

namespace jobsched {
namespace {

class EasyBackfilling : public Policy {
 public:
  explicit EasyBackfilling(const PolicyEnv& env) : allocator_(env.allocator) {}
  void job_submitted(const Job& job, double) override { queue_.push(job); }
  void job_requeued(const Job& job, double) override { queue_.push_in_submission_order(job); }
  size_t waiting_count() const override { return queue_.size(); }

  Decisions decide(const ClusterState& state) override
  {
    ResourceSet idle = state.idle;
    // Releases the head's reservation is computed from: running jobs, then the jobs this pass starts.
    // They point to the processor sets (large on large machines) rather than copy them.
    std::vector<Release> releases;
    releases.reserve(state.running.size() + 8);
    for (const auto& [id, r] : state.running)
      if (!r.suspended) releases.push_back({r.expected_end(state.now), id, &r.resources});
    std::deque<ResourceSet> started_sets; // stable addresses
    auto started = [&](const Job& job, const ResourceSet& chosen) {
      started_sets.push_back(chosen);
      releases.push_back({state.now + job.estimate, job.id, &started_sets.back()});
    };
    Decisions out = start_in_order(queue_, allocator_, idle, started);
    if (queue_.empty()) return out;
    const Job& head = queue_.front();

    // The head's reservation: the earliest release after which it fits, on processors busy now where possible.
    std::sort(releases.begin(), releases.end());
    double shadow = std::numeric_limits<double>::infinity();
    ResourceSet reserved(idle.capacity());
    ResourceSet future = idle;
    ResourceSet released(idle.capacity());
    // Processor counts first: no allocator fits a job in fewer processors than it asks for (running jobs and idle
    // processors are disjoint, so the count of `future` is a sum). Asking the allocator only then keeps a decision
    // cheap on machines of thousands of processors.
    int future_count = idle.count();
    for (size_t k = 0; k < releases.size() && std::isinf(shadow); k++) {
      future |= *releases[k].resources;
      released |= *releases[k].resources;
      future_count += releases[k].resources->count();
      if (future_count < head.size) continue;
      // Whether the head fits does not depend on the preferred processors: when no other job ends at the same
      // instant, this placement is the reservation (one allocator call instead of two).
      auto placement = allocator_.select(head, future, &released);
      if (!placement) continue;
      shadow = releases[k].end;
      // Every job expected to end at the shadow time frees its processors then: all of them count as released.
      size_t m = k + 1;
      for (; m < releases.size() && releases[m].end <= shadow + kTimeEpsilon; m++) {
        future |= *releases[m].resources;
        released |= *releases[m].resources;
      }
      reserved = m == k + 1 ? std::move(*placement) : *allocator_.select(head, future, &released);
    }

    ResourceSet unreserved = idle - reserved; // what a job ending after the shadow time may use
    int idle_count = idle.count();
    int unreserved_count = unreserved.count();
    // Only the jobs that fit by count are visited (BackfillQueue::next_fitting), in queue order.
    auto ends_in_time = [&](double estimate) { return state.now + estimate <= shadow + kTimeEpsilon; };
    for (size_t slot = queue_.next_fitting(queue_.first() + 1, idle_count, unreserved_count, ends_in_time);
         slot != BackfillQueue::npos && idle_count > 0;
         slot = queue_.next_fitting(slot + 1, idle_count, unreserved_count, ends_in_time)) {
      const Job& job = queue_.at(slot);
      // A job that ends in time takes reserved processors first, leaving the others to jobs that end later.
      auto chosen =
          ends_in_time(job.estimate) ? allocator_.select(job, idle, &reserved) : allocator_.select(job, unreserved);
      if (!chosen) continue; // the allocator's placement rules refused it
      idle -= *chosen;
      unreserved -= *chosen;
      idle_count = idle.count();
      unreserved_count = unreserved.count();
      started(job, *chosen);
      out.push_back(start_decision(allocator_, job, std::move(*chosen)));
      queue_.erase(slot);
    }
    return out;
  }

 private:
  struct Release {
    double end;
    JobId id;
    const ResourceSet* resources;
    bool operator<(const Release& o) const { return end < o.end || (end == o.end && id < o.id); }
  };
  const Allocator& allocator_;
  BackfillQueue queue_;
};

PolicyRegistration easy{{"easy",
                         "EASY backfilling: the queue head holds a reservation, later jobs may jump ahead",
                         {},
                         [](const PolicyEnv& env) { return std::make_unique<EasyBackfilling>(env); }}};

} // namespace
} // namespace jobsched
