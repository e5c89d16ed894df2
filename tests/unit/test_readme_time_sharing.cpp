/* The README's time-sharing example, compiled and checked as pure decision code: a plan is computed from a view built
 * by hand, with no SimGrid engine. Keep it identical to the README. */
#include "core/errors.hpp"

#include <gtest/gtest.h>

// ---- begin README example ----
/* Round robin: every quantum the list of jobs in the system turns by one, and the jobs that fit, taken from the new
 * head, run on the lowest free processors. (Example policy.) */
#include "policy/policy.hpp"

namespace jobsched {
namespace {

class RoundRobin : public TimeSharingPolicy {
 public:
  explicit RoundRobin(const PolicyEnv& env) : quantum_(env.params.get_double("quantum")) {}
  Plan plan(const SystemView& view) override
  {
    Plan plan;
    if (view.jobs.empty()) return plan;
    if (view.now >= next_turn_) { // a new quantum: the next job leads
      turn_++;
      next_turn_ = view.now + quantum_;
    }
    ResourceSet free = view.up;
    for (size_t k = 0; k < view.jobs.size(); k++) {
      const Job& job = *view.jobs[(turn_ + k) % view.jobs.size()]->job;
      if (job.min_processors() > free.count()) continue;
      ResourceSet mine = free.lowest(job.min_processors());
      free -= mine;
      plan.run[job.id] = mine; // jobs left out of the plan are suspended or keep waiting
    }
    plan.until = next_turn_;
    return plan;
  }

 private:
  double quantum_;
  size_t turn_ = 0;
  double next_turn_ = 0;
};

PolicyRegistration round_robin{{"round-robin",
                                "every quantum, the next job in turn leads; the jobs that fit run",
                                {{"quantum", "60.0", "seconds between turns"}},
                                nullptr,
                                [](const PolicyEnv& env) { return std::make_unique<RoundRobin>(env); }}};

} // namespace
} // namespace jobsched
// ---- end README example ----

using namespace jobsched;

/* 4 processors; jobs 1, 2, 3 of 2 processors each in the system. First plan (turn 1): job 2 leads, 2 on 0-1, 3 on
 * 2-3, job 1 left out, until 60. At 60 (turn 2): job 3 on 0-1, job 1 on 2-3. Before 60 the turn does not change. */
TEST(ReadmeTimeSharing, RoundRobinPlansByHand)
{
  Machine machine = Machine::uniform(4);
  const PolicyInfo& info = policy_registry().get("round-robin");
  ASSERT_TRUE(info.time_sharing());
  Params params(info.params, {}, "policy.params");
  auto first_fit = allocator_registry().get("first-fit").make(AllocatorEnv{machine, params});
  auto policy = info.make_time_sharing(PolicyEnv{machine, *first_fit, params});
  std::vector<Job> jobs(3);
  std::vector<JobState> states(3);
  SystemView view;
  view.machine = &machine;
  view.up = ResourceSet::all(4);
  for (int i = 0; i < 3; i++) {
    jobs[i].id = i + 1;
    jobs[i].size = 2;
    states[i].job = &jobs[i];
    states[i].status = JobStatus::waiting;
    view.jobs.push_back(&states[i]);
  }
  Plan p = policy->plan(view);
  EXPECT_EQ(p.run.size(), 2U);
  EXPECT_EQ(p.run.at(2).to_string(), "0-1");
  EXPECT_EQ(p.run.at(3).to_string(), "2-3");
  EXPECT_DOUBLE_EQ(p.until, 60);
  view.now = 30;
  EXPECT_EQ(policy->plan(view).run.count(1), 0U);
  view.now = 60;
  p = policy->plan(view);
  EXPECT_EQ(p.run.at(3).to_string(), "0-1");
  EXPECT_EQ(p.run.at(1).to_string(), "2-3");
  EXPECT_DOUBLE_EQ(p.until, 120);
  EXPECT_THROW(Params(info.params, {{"quantum", "soon"}}, "policy.params"), InputError);
}
