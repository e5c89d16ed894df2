/* Routes a run needs, checked before it starts.
 *
 * A message between two hosts that SimGrid cannot route (a grid whose zones lack one zoneRoute) is found only when it
 * is sent, in the middle of the run, and SimGrid then aborts (an AssertionError escaping an actor, exit 134). So a run
 * that knows which hosts talk checks their routes first, like the hosts and links it reads, and a missing one is bad
 * input: one line naming the platform and the two hosts. */
#pragma once

#include <simgrid/s4u.hpp>

#include <filesystem>
#include <string>

namespace jobsched {

namespace sg4 = simgrid::s4u;

/* Throws InputError("PLATFORM: no route from FROM to TO (WHY)") when SimGrid has no route from `from` to `to`, or, when
 * `need_links`, when the route holds no link (two hosts of one Full zone without a <route>: transfers between them
 * would be free). The platform must be sealed (sg4::Engine::seal_platform). */
void require_route(const sg4::Host& from, const sg4::Host& to, const std::filesystem::path& platform,
                   const std::string& why, bool need_links = false);

/* Seconds one message of `bytes` alone takes from `from` to `to` under the ptask_L07 network model (no latency or
 * bandwidth factor): the route's latency plus bytes over its narrowest link; 0 from a host to itself. A missing route
 * is require_route's InputError. The platform must be sealed. */
double message_time(const sg4::Host& from, const sg4::Host& to, double bytes, const std::filesystem::path& platform,
                    const std::string& why);

} // namespace jobsched
