/* Conservative backfilling (Mu'alem & Feitelson 2001): every waiting job holds a reservation, made at submission at
 * the earliest instant its estimate fits around the running jobs and the earlier reservations. A later job may start
 * early only in a hole that delays no reservation. When a job ends early the plan is compressed: each waiting job, in
 * submission order, is taken out and put back at its earliest fit, which is never later than before, so no job is
 * ever delayed by a later one.
 *
 * The plan counts processors, which is exact when any idle processors will do (first-fit); allocators with placement
 * constraints are refused.
 *
 * Cost per scheduling event. The profile is kept from one event to the next and updated by what changed (a job that
 * started, ended or overran its estimate, reservations that came due), not rebuilt from every running and waiting
 * job. During a compression, a job is taken out and refitted only when some instant before its reservation has as
 * many free processors as it needs (a scan of the steps before it); its earliest-fit search stops at its old start,
 * where it is known to fit. The schedule is the same as rebuilding and refitting everything, which the tests
 * check against the textbook simulator. What stays: on an overloaded machine a compression moves about half the
 * queue (KTH on 16 processors, 8,000 jobs: 1.5 million moves in 6,900 compressions), and each move walks the steps
 * before it, so the cost per event grows with queue length times profile length.
 */
#include "core/errors.hpp"
#include "policies/space_sharing/availability_profile.hpp"
#include "policies/space_sharing/waiting_queue.hpp"
#include "policy/policy.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <unordered_map>
#include <vector>

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
  void job_submitted(const Job& job, double) override
  {
    queue_.emplace(next_position_, &job);
    position_[job.id] = next_position_++;
  }
  void job_ended(const Job& job, JobEnd, double) override
  {
    ended_.push_back(job.id);
    compress_ = true;
    started_position_.erase(job.id);
  }
  /* Back at its submission position; the profile is rebuilt (its running hold is gone). */
  void job_requeued(const Job& job, double) override
  {
    auto it = started_position_.find(job.id);
    const std::uint64_t position = it->second;
    started_position_.erase(it);
    queue_.emplace(position, &job);
    position_[job.id] = position;
    replan_ = true;
  }
  void host_changed(const HostChange&, double) override { replan_ = true; }
  size_t waiting_count() const override { return queue_.size(); }

  Decisions decide(const ClusterState& state) override
  {
    const double now = state.now;
    if (replan_ || capacity_ != state.up.count() || !sync_running(state)) {
      rebuild(state);
    } else {
      shift_overdue_reservations(now);
      if (compress_) compress(now);
      for (auto it = queue_.lower_bound(first_unplaced_); it != queue_.end(); ++it)
        place(*it->second, now);
    }
    first_unplaced_ = next_position_;
    compress_ = replan_ = false;
    return start_due_jobs(state);
  }

  /* The reservation of a waiting job (for tests and traces). */
  double reservation_of(JobId id) const { return held_.at(id).start; }

 private:
  struct Hold { // what a job holds in the profile: [start, end) on `size` processors
    double start = 0;
    double end = 0;
    int size = 0;
  };

  void hold(JobId id, double start, double end, int size)
  {
    profile_.reserve(start, end, size);
    held_[id] = Hold{start, end, size};
  }
  void unhold(JobId id, double now)
  {
    auto it = held_.find(id);
    if (it == held_.end()) return;
    profile_.release(std::max(it->second.start, now), it->second.end, it->second.size);
    held_.erase(it);
  }

  /* The earliest fit of a waiting job, held as its reservation. */
  void place(const Job& job, double now)
  {
    const double start = profile_.earliest_fit(now, job.estimate, job.size);
    hold(job.id, start, start + job.estimate, job.size);
    due_.emplace(start, job.id);
  }

  /* From scratch: the running jobs, then every waiting job placed in submission order (first call, host changes). */
  void rebuild(const ClusterState& state)
  {
    capacity_ = state.up.count();
    profile_.reset(state.now, capacity_);
    held_.clear();
    due_.clear();
    ended_.clear();
    running_.clear();
    for (const auto& [id, r] : state.running)
      if (!r.suspended) {
        hold(id, state.now, r.expected_end(state.now), r.resources.count());
        running_.insert(id);
      }
    for (const auto& [position, job] : queue_)
      place(*job, state.now);
  }

  /* Running jobs: those that ended give back what they held; those that started now hold [now, expected end) in
   * place of their reservation; those that overran their estimate hold until now (their expected end). False when
   * the profile cannot follow by updates: a running job is suspended (this policy never suspends one, so some other
   * actor did; from then on every event rebuilds). */
  bool sync_running(const ClusterState& state)
  {
    if (rebuild_always_) return false;
    const double now = state.now;
    profile_.advance_to(now);
    for (JobId id : ended_) {
      unhold(id, now);
      running_.erase(id);
    }
    ended_.clear();
    for (JobId id : started_) {
      auto r = state.running.find(id);
      if (r == state.running.end()) continue;
      if (r->second.suspended) {
        rebuild_always_ = true;
        return false;
      }
      unhold(id, now);
      hold(id, now, r->second.expected_end(now), r->second.resources.count());
      running_.insert(id);
    }
    started_.clear();
    // A job past its estimate is expected to end at any moment: it holds nothing beyond now.
    for (auto it = running_.begin(); it != running_.end();) {
      auto r = state.running.find(*it);
      if (r == state.running.end()) { // ended without a job_ended call: let go
        unhold(*it, now);
        it = running_.erase(it);
        continue;
      }
      if (r->second.suspended) {
        rebuild_always_ = true;
        return false;
      }
      Hold& h = held_.at(*it);
      const double end = r->second.expected_end(now);
      if (h.end != end) {
        const int size = h.size;
        unhold(*it, now);
        hold(*it, now, end, size);
      }
      ++it;
    }
    return true;
  }

  /* A reservation whose start passed while its job could not start (a running job overran its estimate) moves along
   * with time: it holds [now, now + estimate). */
  void shift_overdue_reservations(double now)
  {
    std::vector<JobId> overdue; // put back after the loop, which stops at the first start not in the past
    while (!due_.empty() && due_.begin()->first < now) {
      const JobId id = due_.begin()->second;
      due_.erase(due_.begin());
      const Hold h = held_.at(id);
      unhold(id, now);
      const double estimate = h.end - h.start;
      hold(id, now, now + estimate, h.size);
      overdue.push_back(id);
    }
    for (JobId id : overdue)
      due_.emplace(now, id);
  }

  /* Each waiting job in submission order, taken out and put back at its earliest fit, when it can move. */
  void compress(double now)
  {
    for (auto it = queue_.begin(); it != queue_.end() && it->first < first_unplaced_; ++it) {
      const Job& job = *it->second;
      auto h = held_.find(job.id);
      if (h == held_.end()) continue;
      const double old_start = std::max(h->second.start, now);
      // An earlier start needs an instant before the reservation with enough free processors.
      if (!(old_start > now) || profile_.max_free(now, old_start) < job.size) continue;
      // Out, and back at its earliest fit, which is at most where it was.
      const Hold old = h->second;
      profile_.release(old_start, old.end, old.size);
      const double start = profile_.earliest_fit(now, job.estimate, job.size, old_start);
      if (start == old_start) {
        profile_.reserve(old_start, old.end, old.size);
        continue;
      }
      due_.erase({old.start, job.id});
      held_.erase(h);
      hold(job.id, start, start + job.estimate, job.size);
      due_.emplace(start, job.id);
    }
  }

  Decisions start_due_jobs(const ClusterState& state)
  {
    // The jobs whose reservation has come, in submission order (the order the allocator sees them in).
    std::vector<std::pair<std::uint64_t, const Job*>> due;
    for (auto it = due_.begin(); it != due_.end() && it->first <= state.now + kTimeEpsilon; ++it) {
      const std::uint64_t position = position_.at(it->second);
      due.emplace_back(position, queue_.at(position));
    }
    std::sort(due.begin(), due.end());
    Decisions out;
    ResourceSet idle = state.idle;
    for (const auto& [position, job] : due) {
      auto chosen = allocator_.select(*job, idle);
      if (!chosen) // a running job overran its estimate: the job waits for the next compression
        continue;
      idle -= *chosen;
      out.push_back(start_decision(allocator_, *job, std::move(*chosen)));
      due_.erase({held_.at(job->id).start, job->id});
      started_.push_back(job->id); // its reservation becomes its running hold at the next event
      queue_.erase(position);
      position_.erase(job->id);
      started_position_[job->id] = position;
    }
    return out;
  }

  const Allocator& allocator_;
  AvailabilityProfile profile_{0, 0};
  int capacity_ = -1;
  std::map<std::uint64_t, const Job*> queue_; // waiting jobs by submission position
  std::unordered_map<JobId, std::uint64_t> position_;
  std::unordered_map<JobId, std::uint64_t> started_position_; // running jobs' submission positions (for a requeue)
  std::uint64_t next_position_ = 0;
  std::uint64_t first_unplaced_ = 0;       // jobs from this position on have no reservation yet
  std::unordered_map<JobId, Hold> held_;   // reservations of waiting jobs and holds of running ones
  std::set<std::pair<double, JobId>> due_; // waiting jobs by reservation start
  std::set<JobId> running_;                // running jobs the profile holds
  std::vector<JobId> started_, ended_;     // since the last event
  bool compress_ = false;
  bool replan_ = true;
  bool rebuild_always_ = false;
};

PolicyRegistration conservative{
    {"conservative",
     "conservative backfilling: every waiting job holds a reservation no later job may delay",
     {},
     [](const PolicyEnv& env) { return std::make_unique<ConservativeBackfilling>(env); }}};

} // namespace
} // namespace jobsched
