/* What the time-sharing driver tells a policy of replays (SystemView::replays_possible): the scheduler replays what a
 * plan declares ahead only with virtual wake-ups and cycles on, every host up, executions as timers and no memory
 * images moving, so a policy need not work out a lookahead otherwise. A test policy that records what each of its
 * views says runs four jobs on a quiet platform, then the same with each thing that rules replays out. */
#include "policy/policy.hpp"
#include "run/simulation.hpp"
#include "support/child_process.hpp"
#include "support/quiet_run.hpp"
#include "support/scratch_folder.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace jobsched;
using jobsched::testing::in_child;

namespace {

long views_replays_possible = 0;
long views_replays_impossible = 0;

/* Job i on processor i - 1 while it is up (the jobs are 1 to 4, on four processors: none moves), until the next whole
 * second; its plans repeat (Plan::repeats). It counts its views by replays_possible. */
class ReplaysSeen : public TimeSharingPolicy {
 public:
  Plan plan(const SystemView& view) override
  {
    (view.replays_possible ? views_replays_possible : views_replays_impossible)++;
    Plan p;
    p.until = std::floor(view.now) + 1;
    p.repeats = true;
    for (const JobState* s : view.jobs) {
      ResourceSet one(view.machine->resource_count());
      one.set(static_cast<int>(s->job->id) - 1);
      if (view.up.contains(one)) p.run[s->job->id] = one;
    }
    return p;
  }
};

PolicyRegistration replays_seen{{"test-replays-seen",
                                 "every job on a processor of its own, counting its views by replays_possible (tests)",
                                 {},
                                 nullptr,
                                 [](const PolicyEnv&) { return std::make_unique<ReplaysSeen>(); }}};

/* Four nodes with a disk each (for images on local disks); `n3_extra`: more attributes of host n3 (a profile). */
std::string platform(const std::string& n3_extra = "")
{
  std::string hosts;
  for (int h = 0; h < 4; h++)
    hosts += "    <host id=\"n" + std::to_string(h) + "\" speed=\"1Gf\"" + (h == 3 ? n3_extra : "") + "><disk id=\"d" +
             std::to_string(h) + "\" read_bw=\"50MBps\" write_bw=\"50MBps\"/></host>\n";
  return "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n<platform "
         "version=\"4.1\">\n  <zone id=\"z\" routing=\"Full\">\n" +
         hosts + "    <host id=\"frontend\" speed=\"1Gf\"/>\n  </zone>\n</platform>\n";
}

/* The views the policy saw with and without replays possible, in one run of four jobs (1 processor each, 5.5 to 8.5 s,
 * 1 MB of memory per processor) with `rest` appended to the scenario. */
std::vector<double> views(const std::string& rest, const std::string& n3_extra = "")
{
  jobsched::testing::ScratchFolder f;
  f.write("p.xml", platform(n3_extra));
  f.write("d.xml", "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                   "<platform version=\"4.1\"><actor host=\"frontend\" function=\"jobsched_scheduler\"/>"
                   "<actor host=\"frontend\" function=\"jobsched_submitter\"/></platform>\n");
  f.write("n3-state.txt", "1000 0\n1100 1\n");
  f.write("owners.csv", "1000,n3,busy\n");
  std::string swf;
  for (int i = 1; i <= 4; i++)
    swf += std::to_string(i) + " 0 -1 " + std::to_string(4.5 + i) + " 1 -1 1024 1 " + std::to_string(4.5 + i) +
           " -1 1 1 1 1 1 1 -1 -1\n";
  f.write("w.swf", swf);
  auto file = f.write("s.yaml", "platform: p.xml\ndeployment: d.xml\nworkload: {trace: w.swf}\n"
                                "policy: {name: test-replays-seen}\n" +
                                    rest);
  return in_child([&] {
    jobsched::testing::run_quietly(file, f.dir / "out");
    return std::vector<double>{static_cast<double>(views_replays_possible),
                               static_cast<double>(views_replays_impossible)};
  });
}

/* Every view says the same, and there were some. */
void expect_all(const std::vector<double>& seen, bool possible, const std::string& what)
{
  ASSERT_EQ(seen.size(), 2U) << what << ": the run failed";
  EXPECT_GT(seen[0] + seen[1], 0) << what;
  EXPECT_EQ(seen[possible ? 1 : 0], 0) << what << ": views saying replays are " << (possible ? "im" : "") << "possible";
}

} // namespace

TEST(ReplaysPossible, OnAQuietPlatform)
{
  expect_all(views(""), true, "quiet platform");
}

TEST(ReplaysPossible, NotWithoutVirtualWakeupsOrCycles)
{
  expect_all(views("simulation: {virtual_wakeups: false}\n"), false, "virtual_wakeups false");
  expect_all(views("simulation: {cycles: false}\n"), false, "cycles false");
}

TEST(ReplaysPossible, NotWithOwnersOrProfiles)
{
  expect_all(views("owners: {model: trace, trace: owners.csv}\n"), false, "owners");
  expect_all(views("", " state_file=\"n3-state.txt\""), false, "a host's state profile");
}

TEST(ReplaysPossible, NotWithPtasksOrImages)
{
  expect_all(views("simulation: {execution: ptask}\n"), false, "ptasks");
  expect_all(views("simulation: {images: {store: local-disk}}\n"), false, "images on local disks");
}
