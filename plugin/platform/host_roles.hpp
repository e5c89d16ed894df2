/* Which hosts of a platform compute jobs, and where jobsched's own actors run.
 *
 * jobsched must run on platforms written by others (SimGrid's examples, Batsim's platforms) without a deployment
 * written for them, so the roles of hosts are read from the platform itself, following Batsim's convention: a host
 * property `role` of `master` marks the host that runs the scheduler, any other value but `compute` (e.g. `storage`)
 * marks a host that is not a compute host, and a host without the property computes, except one named `master_host`:
 * Batsim takes the host of that name as its master when no role says otherwise (its platforms without roles rely on
 * it), so jobsched gives it the role `master`. The rule:
 *
 *  - a host computes when its role is absent or `compute`, and it runs none of jobsched's actors placed by a deployment
 *    file (with a deployment, the hosts it places them on are the front end; in a program of one's own, the program's
 *    other actors do not count, run/simgrid_plugin.hpp);
 *  - without a deployment, jobsched's actors (scheduler, host monitor, submitter: they compute nothing) run on the
 *    first `master` host in natural name order, or, when no host is a master, on the first host in natural name order
 *    (which then also computes).
 *
 * The decision itself works on names and roles only, so that it is tested without SimGrid; the two functions at the
 * end apply it to an engine's hosts. */
#pragma once

#include <simgrid/s4u.hpp>

#include <set>
#include <string>
#include <vector>

namespace jobsched {

/* Host names in natural order ("node-2" before "node-10"): the order compute hosts are numbered in. */
bool natural_less(const std::string& a, const std::string& b);

namespace sg4 = simgrid::s4u;

/* The value of the `role` property that marks the host running jobsched's actors, and the one of compute hosts. */
inline constexpr const char* kMasterRole = "master";
inline constexpr const char* kComputeRole = "compute";
/* The name of Batsim's default master host: a host of that name without a `role` property has the role `master`. */
inline constexpr const char* kBatsimMasterName = "master_host";

struct HostDescription {
  std::string name;
  std::string role;                 // the `role` property, "" when the host has none
  bool runs_deployed_actor = false; // a deployment file placed one of jobsched's actors on it
};

/* The host's role for the rule: its `role` property, or `master` for a host named master_host without one. */
std::string role_of(const HostDescription& host);

/* Indices (into `hosts`) of the compute hosts, in natural name order. */
std::vector<size_t> compute_host_indices(const std::vector<HostDescription>& hosts);

/* Index of the host that runs jobsched's actors when no deployment places them; `hosts` must not be empty. */
size_t actors_host_index(const std::vector<HostDescription>& hosts);

/* The same two decisions on the platform loaded in `engine`; `front_end` holds the hosts running a deployed actor
 * (empty without a deployment). */
std::vector<sg4::Host*> compute_hosts(const sg4::Engine& engine, const std::set<sg4::Host*>& front_end);
sg4::Host* actors_host(const sg4::Engine& engine); // nullptr when the platform has no host

} // namespace jobsched
