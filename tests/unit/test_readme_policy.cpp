/* The README's "Adding a policy" example, compiled and checked: a policy defined outside the library registers
 * itself by name and runs through the same driver as the built-in ones. Keep it identical to the README. */
#include "support/policy_driver.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

// ---- begin README example ----
/* Smallest job first: start the waiting jobs that fit, smallest first. (Example policy.) */
#include "policies/space_sharing/waiting_queue.hpp"
#include "policy/policy.hpp"

namespace jobsched {
namespace {

class SmallestFirst : public Policy {
 public:
  explicit SmallestFirst(const PolicyEnv& env) : allocator_(env.allocator), limit_(env.params.get_int("limit")) {}
  void job_submitted(const Job& job, double) override { queue_.push(job); }
  size_t waiting_count() const override { return queue_.size(); }
  Decisions decide(const ClusterState& state) override
  {
    std::vector<size_t> order(queue_.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [this](size_t a, size_t b) { return queue_[a].size < queue_[b].size; });
    Decisions out;
    ResourceSet idle = state.idle;
    for (size_t i : order) {
      const Job& job = queue_[i];
      if (limit_ > 0 && job.size > limit_) continue;
      if (auto chosen = allocator_.select(job, idle)) {
        idle -= *chosen;
        out.push_back(Decision::start(job.id, *chosen));
      }
    }
    queue_.erase_if([&out](const Job& job) {
      return std::any_of(out.begin(), out.end(), [&job](const Decision& d) { return d.job == job.id; });
    });
    return out;
  }

 private:
  const Allocator& allocator_;
  long limit_;
  WaitingQueue queue_;
};

PolicyRegistration smallest_first{{"smallest-first",
                                   "start the waiting jobs that fit, smallest first",
                                   {{"limit", "0", "largest job considered (0: no limit)"}},
                                   [](const PolicyEnv& env) { return std::make_unique<SmallestFirst>(env); }}};

} // namespace
} // namespace jobsched
// ---- end README example ----

using namespace jobsched;

/* 4 processors, all submitted at 0: J1 (3 procs, 10 s), J2 (4 procs, 5 s), J3 (1 proc, 5 s). Smallest first: J3 on
 * processor 0, then J1 on 1-3; J2 waits until J1 ends at 10 (J3 ended at 5). */
TEST(ReadmePolicy, RegistersByNameAndSchedulesSmallestFirst)
{
  using jobsched::testing::job;
  jobsched::testing::PolicyUnderTest p("smallest-first", 4);
  JobList jobs = {job(1, 0, 3, 10), job(2, 0, 4, 5), job(3, 0, 1, 5)};
  auto r = jobsched::testing::drive(p, jobs);
  EXPECT_EQ(r.start, (std::map<JobId, double>{{1, 0}, {2, 10}, {3, 0}}));
  EXPECT_EQ(r.resources.at(3).to_string(), "0");
  EXPECT_EQ(r.resources.at(1).to_string(), "1-3");
}

TEST(ReadmePolicy, DeclaredParameterIsTypeChecked)
{
  const auto& info = policy_registry().get("smallest-first");
  EXPECT_THROW(Params(info.params, {{"limit", "abc"}}, "policy.params"), InputError);
  EXPECT_EQ(Params(info.params, {}, "policy.params").get_int("limit"), 0);
}
