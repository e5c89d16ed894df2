/* The small machine of the runtime tests of time-sharing policies: four 1-Gflop/s single-core nodes n0..n3 and a front
 * end that runs jobsched's actors, and its jobs as SWF records. */
#pragma once

#include <cstdio>
#include <string>

namespace jobsched::testing {

/* The platform; `inside_n0` goes inside n0's element (a property, say). */
inline std::string four_node_platform(const std::string& inside_n0 = "")
{
  return R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="n0" speed="1Gf">)" +
         inside_n0 + R"(</host>
    <host id="n1" speed="1Gf"/>
    <host id="n2" speed="1Gf"/>
    <host id="n3" speed="1Gf"/>
    <host id="frontend" speed="1Gf"><prop id="role" value="master"/></host>
  </zone>
</platform>
)";
}

/* An SWF record: id, submit, run time, processors (requested and allocated), memory per processor in KB (-1: none);
 * times written exactly. */
inline std::string swf_record(int id, double submit, double run, int procs, double memory_kb = -1)
{
  char buf[256];
  std::snprintf(buf, sizeof buf, "%d %.17g -1 %.17g %d -1 %.17g %d %.17g -1 1 1 1 1 1 1 -1 -1\n", id, submit, run,
                procs, memory_kb, procs, run);
  return buf;
}

} // namespace jobsched::testing
