/* Platforms written by others: which hosts compute and where jobsched's actors run (host roles, Batsim's `role`
 * convention), and the one line kept from SimGrid's output when a platform or deployment cannot be loaded. The
 * SimGrid texts below are copied from what SimGrid 3.32 printed on this machine for the cases named. */
#include "platform/host_roles.hpp"
#include "platform/platform_check.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using jobsched::actors_host_index;
using jobsched::compute_host_indices;
using jobsched::first_error_line;
using jobsched::HostDescription;
using jobsched::simgrid_error_line;

namespace {

std::vector<std::string> names_of(const std::vector<HostDescription>& hosts, const std::vector<size_t>& indices)
{
  std::vector<std::string> out;
  for (size_t i : indices)
    out.push_back(hosts[i].name);
  return out;
}

using Names = std::vector<std::string>;

} // namespace

TEST(HostRoles, WithoutRolesEveryHostComputesAndTheActorsGoToTheFirstInNaturalOrder)
{
  std::vector<HostDescription> hosts{{"node-10", "", false}, {"node-2", "", false}, {"node-1", "", false}};
  EXPECT_EQ(names_of(hosts, compute_host_indices(hosts)), (Names{"node-1", "node-2", "node-10"}));
  EXPECT_EQ(hosts[actors_host_index(hosts)].name, "node-1");
}

TEST(HostRoles, BatsimMasterRunsTheActorsAndOnlyComputeRolesCompute)
{
  std::vector<HostDescription> hosts{{"a3", "", false},        {"master_host0", "master", false},
                                     {"a1", "compute", false}, {"pfs0", "storage", false},
                                     {"a2", "", false},        {"master_host1", "master", false}};
  EXPECT_EQ(names_of(hosts, compute_host_indices(hosts)), (Names{"a1", "a2", "a3"}));
  EXPECT_EQ(hosts[actors_host_index(hosts)].name, "master_host0");
}

TEST(HostRoles, WithoutAMasterTheActorsGoToTheFirstHostEvenIfItDoesNotCompute)
{
  std::vector<HostDescription> hosts{{"b", "", false}, {"a", "storage", false}};
  EXPECT_EQ(names_of(hosts, compute_host_indices(hosts)), (Names{"b"}));
  EXPECT_EQ(hosts[actors_host_index(hosts)].name, "a");
}

TEST(HostRoles, ADeploymentsHostsAndNonComputeRolesAreTheFrontEnd)
{
  std::vector<HostDescription> hosts{{"frontend", "", true},
                                     {"n1", "", false},
                                     {"n0", "compute", false},
                                     {"io", "storage", false},
                                     {"head", "master", false}};
  EXPECT_EQ(names_of(hosts, compute_host_indices(hosts)), (Names{"n0", "n1"}));
}

TEST(HostRoles, NoComputeHostGivesAnEmptyList)
{
  std::vector<HostDescription> hosts{{"m", "master", false}, {"s", "storage", false}};
  EXPECT_TRUE(compute_host_indices(hosts).empty());
  EXPECT_EQ(hosts[actors_host_index(hosts)].name, "m");
}

TEST(PlatformCheck, KeepsSimGridsCriticalLineWithoutItsPrefix)
{
  // A deployment naming a missing host: the message, a host list, nothing else.
  std::string out = "jobsched-check: stage options\njobsched-check: stage platform\njobsched-check: stage seal\n"
                    "jobsched-check: stage deployment\n"
                    "[0.000000] ./src/surf/sg_platf.cpp:462: [root/CRITICAL] Cannot create actor 'jobsched_scheduler': "
                    "host 'nosuchhost' does not exist\n"
                    "Existing hosts: 'frontend', 'node-0', 'node-1'\n";
  EXPECT_EQ(simgrid_error_line(out), "Cannot create actor 'jobsched_scheduler': host 'nosuchhost' does not exist");

  // core="0": the message, then a backtrace.
  out = "[0.000000] ./src/kernel/resource/CpuImpl.cpp:105: [root/CRITICAL] Host node-0 must have at least one core, "
        "not 0.\nBacktrace (displayed in actor maestro):\n  ->  0# xbt_backtrace_display_current in libsimgrid.so\n";
  EXPECT_EQ(simgrid_error_line(out), "Host node-0 must have at least one core, not 0.");

  // The prefix SimGrid uses inside an actor, and an ERROR when there is no CRITICAL, after an INFO line.
  out = "[host1:actor:(1) 0.000000] [xbt_cfg/INFO] chatter\n"
        "[host1:actor:(1) 0.000000] [surf_parse/ERROR] the real problem\n";
  EXPECT_EQ(simgrid_error_line(out), "the real problem");
}

TEST(PlatformCheck, PrefersAnExceptionsTextAndKeepsItsFirstLine)
{
  std::string out = "jobsched-check: stage platform\n"
                    "jobsched-check: error: Parse error at p.xml:5: ******* THIS FILE IS TOO OLD (v:3.0) *********\n"
                    " Changes introduced in SimGrid 3.13:\n"
                    "  - 'power' attribute of hosts (and others) got renamed to 'speed'.\n";
  EXPECT_EQ(simgrid_error_line(out), "Parse error at p.xml:5: THIS FILE IS TOO OLD (v:3.0)");
}

TEST(PlatformCheck, FallsBackToAnyLineThatIsNotABacktraceAndThenToNothing)
{
  EXPECT_EQ(simgrid_error_line("jobsched-check: stage platform\nBacktrace (x):\n  -> 0# f\nsomething odd\n"),
            "something odd");
  EXPECT_EQ(simgrid_error_line("jobsched-check: stage platform\n\n"), "");
}

TEST(PlatformCheck, FirstErrorLineIsOneShortLine)
{
  EXPECT_EQ(first_error_line("Bad declaration <!DOCTYPE x>.\nIf you are using an XML v3 file..."),
            "Bad declaration <!DOCTYPE x>.");
  std::string longer(1000, 'x');
  std::string line = first_error_line(longer);
  EXPECT_LT(line.size(), 500U);
  EXPECT_EQ(line.substr(line.size() - 3), "...");
}
