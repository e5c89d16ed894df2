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

TEST(HostRoles, BatsimsMasterHostByNameIsTheMasterWithoutARole)
{
  // Batsim's platforms without roles: "master_host" is Batsim's master, computes nothing and runs the actors, although
  // "a0" comes first in natural order.
  std::vector<HostDescription> hosts{{"a1", "", false}, {"master_host", "", false}, {"a0", "", false}};
  EXPECT_EQ(names_of(hosts, compute_host_indices(hosts)), (Names{"a0", "a1"}));
  EXPECT_EQ(hosts[actors_host_index(hosts)].name, "master_host");
  // An explicit role wins over the name; the name alone is the rule (master_host0 is an ordinary host).
  std::vector<HostDescription> computing{{"master_host", "compute", false}, {"b", "", false}};
  EXPECT_EQ(names_of(computing, compute_host_indices(computing)), (Names{"b", "master_host"}));
  EXPECT_EQ(computing[actors_host_index(computing)].name, "b");
  std::vector<HostDescription> numbered{{"master_host0", "", false}, {"c", "", false}};
  EXPECT_EQ(names_of(numbered, compute_host_indices(numbered)), (Names{"c", "master_host0"}));
  // Another master by role: the first master in natural order runs the actors, and neither computes.
  std::vector<HostDescription> two{{"master_host", "", false}, {"head", "master", false}, {"n", "", false}};
  EXPECT_EQ(names_of(two, compute_host_indices(two)), (Names{"n"}));
  EXPECT_EQ(two[actors_host_index(two)].name, "head");
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
