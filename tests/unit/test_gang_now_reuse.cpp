/* gang-now builds each plan's maps (Plan::processes, Plan::run) in the nodes of the plan handed back
 * (TimeSharingPolicy::reuse_plan): its plans must equal those it builds in new maps. */
#include "policy/policy.hpp"
#include "support/time_sharing_bench.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <random>
#include <vector>

namespace jobsched {
namespace {

/* Two gang-now policies on 6 workstations given the same random arrivals (1 to 14 VPs: some double up), departures,
 * VPs ending, new_VPs and VP_exits, at instants on rotation boundaries and between them; one handed its plans back,
 * the other not. Every plan's processes, processors computing and wake-up must be equal, and the maps must change:
 * jobs listed and left out, running and not, from one plan to the next. */
TEST(GangNowReuse, PlansInReusedMapsEqualNewOnes)
{
  const std::map<std::string, std::string> values = {{"quantum", "60"}, {"validate_map", "true"}};
  jobsched::testing::TimeSharingBench reused(6, "gang-now", values);
  jobsched::testing::TimeSharingBench fresh(6, "gang-now", values);
  std::mt19937_64 random(5);
  std::deque<Job> jobs; // the policies keep references to them
  std::vector<JobId> in_system;
  JobId next_id = 1;
  double t = 0;
  size_t listed_left = 0; // plans where a job listed in the last plan is not listed
  size_t runs_changed = 0;
  std::map<JobId, std::vector<int>> last_processes;
  std::map<JobId, ResourceSet> last_run;
  for (int k = 0; k < 1500; k++) {
    t += random() % 2 == 0 ? 60.0 : 7.5 * static_cast<double>(1 + random() % 3);
    const auto both = [&](auto&& call) {
      call(reused);
      call(fresh);
    };
    const unsigned what = random() % 8;
    if (!in_system.empty() && what < 2) { // a departure
      const size_t i = random() % in_system.size();
      const JobId id = in_system[i];
      both([&](auto& b) { b.end(id, t); });
      in_system.erase(in_system.begin() + static_cast<long>(i));
    } else if (!in_system.empty() && what < 5) { // a process event of some job: new_VP, VP_exit or a VP's end
      const JobId id = in_system[random() % in_system.size()];
      const Job& job = *std::find_if(jobs.begin(), jobs.end(), [id](const Job& j) { return j.id == id; });
      const auto it = last_processes.find(id);
      if (what == 2) {
        both([&](auto& b) { b.policy().process_event(job, true, 0, t); });
      } else if (what == 3) {
        const double draw = static_cast<double>(random() % 1000) / 1000.0;
        both([&](auto& b) { b.policy().process_event(job, false, draw, t); });
      } else if (it != last_processes.end()) { // its first process still there ends
        const auto alive = std::find_if(it->second.begin(), it->second.end(), [](int p) { return p >= 0; });
        const auto live = std::count_if(it->second.begin(), it->second.end(), [](int p) { return p >= -1; });
        if (alive != it->second.end() && live > 1) {
          const int process = static_cast<int>(alive - it->second.begin());
          both([&](auto& b) { b.policy().process_ended(job, process, t); });
        }
      }
    }
    if (random() % 3 == 0 && in_system.size() < 12) {
      Job& j = jobs.emplace_back();
      j.id = next_id++;
      j.submit_time = t;
      j.size = 1 + static_cast<int>(random() % 14);
      j.estimate = 1000;
      both([&](auto& b) { b.submit(j, t); });
      in_system.push_back(j.id);
    }
    Plan a = reused.plan(t);
    Plan b = fresh.plan(t);
    ASSERT_EQ(a.processes, b.processes) << "at " << t;
    ASSERT_EQ(a.run, b.run) << "at " << t;
    ASSERT_EQ(a.until, b.until) << "at " << t;
    for (const auto& [id, where] : last_processes)
      if (a.processes.count(id) == 0) {
        listed_left++;
        break;
      }
    runs_changed += a.run != last_run ? 1 : 0;
    // The plan of the instant is what the processes become (a process the policy ended stays ended).
    for (const auto& [id, where] : a.processes)
      last_processes[id] = where;
    for (auto it = last_processes.begin(); it != last_processes.end();)
      it = std::find(in_system.begin(), in_system.end(), it->first) == in_system.end() ? last_processes.erase(it)
                                                                                       : std::next(it);
    last_run = a.run;
    reused.reuse(std::move(a));
  }
  EXPECT_GT(listed_left, 100U);
  EXPECT_GT(runs_changed, 300U);
}

} // namespace
} // namespace jobsched
