/* The time-sharing driver finds each planned job's record and submission order by a walk along the last plan's jobs
 * and by look-ups for the others. A policy whose every plan is mostly jobs the last plan left out (four at a time, in
 * turns) runs 200 jobs (ids 1, 4, 7...) down to none, after arrivals at once and departures every few seconds. The
 * finish times are those of the same turns counted in the test, second by second; a wrong record would start or
 * suspend another job than the plan's (other finish times, or two jobs on one processor). */
#include "policy/policy.hpp"
#include "run/simulation.hpp"
#include "support/child_process.hpp"
#include "support/quiet_run.hpp"
#include "support/scratch_folder.hpp"
#include "support/trace_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace jobsched;
using jobsched::testing::in_child;

namespace {

constexpr int kProcessors = 4;

/* At every whole second k, the jobs in the system (submission order) at positions 4k, 4k + 1, ... (mod their number),
 * at most four, one processor each; between whole seconds (a job ended) the last plan again. */
class Turns : public TimeSharingPolicy {
 public:
  Plan plan(const SystemView& view) override
  {
    Plan p;
    const double second = std::round(view.now);
    const bool whole = std::fabs(view.now - second) <= 1e-9;
    p.until = whole ? second + 1 : std::ceil(view.now);
    if (view.jobs.empty()) return p;
    if (!whole) {
      p.same_as_last = true;
      return p;
    }
    const size_t n = view.jobs.size();
    const size_t count = std::min<size_t>(kProcessors, n);
    const auto first = static_cast<size_t>(second) * kProcessors % n;
    for (size_t j = 0; j < count; j++) {
      ResourceSet one(view.machine->resource_count());
      one.set(static_cast<int>(j));
      p.run[view.jobs[(first + j) % n]->job->id] = one;
    }
    return p;
  }
};

PolicyRegistration turns{
    {"test-turns", "four jobs at a time in turns, one processor each (tests only)", {}, nullptr, [](const PolicyEnv&) {
       return std::make_unique<Turns>();
     }}};

const char* const kPlatform = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="n0" speed="1Gf"/><host id="n1" speed="1Gf"/><host id="n2" speed="1Gf"/><host id="n3" speed="1Gf"/>
    <host id="frontend" speed="1Gf"/>
  </zone>
</platform>
)";

TEST(TimeSharingDriver, PlansOfJobsLeftOutLastTimeFindTheirRecords)
{
  constexpr int kJobs = 200;
  std::vector<double> run_time;
  std::string swf;
  for (int i = 0; i < kJobs; i++) {
    run_time.push_back(0.5 + (i * 7) % 5); // half seconds: every job ends between two turns
    char line[160];
    // Ids 1, 4, 7...: not consecutive, as a trace's may be.
    std::snprintf(line, sizeof line, "%d 0 -1 %g 1 -1 -1 1 %g -1 1 1 1 1 1 1 -1 -1\n", 3 * i + 1, run_time.back(),
                  run_time.back());
    swf += line;
  }
  // The same turns, counted second by second.
  std::vector<double> left = run_time;
  std::vector<double> want(kJobs, -1);
  std::vector<int> alive(kJobs);
  for (int i = 0; i < kJobs; i++)
    alive[static_cast<size_t>(i)] = i;
  for (long k = 0; !alive.empty(); k++) {
    const size_t n = alive.size();
    const size_t first = static_cast<size_t>(k) * kProcessors % n;
    for (size_t j = 0; j < std::min<size_t>(kProcessors, n); j++) {
      const auto i = static_cast<size_t>(alive[(first + j) % n]);
      const double served = std::min(1.0, left[i]);
      left[i] -= served;
      if (left[i] <= 0) want[i] = static_cast<double>(k) + served;
    }
    alive.erase(std::remove_if(alive.begin(), alive.end(), [&](int i) { return want[static_cast<size_t>(i)] >= 0; }),
                alive.end());
  }

  jobsched::testing::ScratchFolder f;
  f.write("p.xml", kPlatform);
  f.write("d.xml", "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                   "<platform version=\"4.1\"><actor host=\"frontend\" function=\"jobsched_scheduler\"/>"
                   "<actor host=\"frontend\" function=\"jobsched_submitter\"/></platform>\n");
  f.write("w.swf", swf);
  auto file = f.write("s.yaml", "platform: p.xml\ndeployment: d.xml\nworkload: {trace: w.swf}\n"
                                "policy: {name: test-turns}\n");
  const std::vector<double> got = in_child([&] {
    RunReport r = jobsched::testing::run_quietly(file, f.dir / "out");
    std::vector<double> out;
    for (const auto& s : r.states)
      out.push_back(s.finish_time);
    out.push_back(jobsched::testing::computing_overlaps(r.trace));
    return out;
  });
  ASSERT_EQ(got.size(), static_cast<size_t>(kJobs) + 1);
  EXPECT_EQ(got.back(), 0) << "two jobs computed on one processor at once";
  for (size_t i = 0; i < static_cast<size_t>(kJobs); i++)
    EXPECT_NEAR(got[i], want[i], 1e-6) << "job " << 3 * i + 1;
  EXPECT_GT(*std::max_element(want.begin(), want.end()), 100.0); // many turns
}

} // namespace
