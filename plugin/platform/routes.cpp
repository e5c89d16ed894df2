/* Routes a run needs, checked before it starts (platform/routes.hpp). */
#include "platform/routes.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <limits>
#include <vector>

namespace jobsched {

void require_route(const sg4::Host& from, const sg4::Host& to, const std::filesystem::path& platform,
                   const std::string& why, bool need_links)
{
  std::vector<sg4::Link*> links;
  double latency = 0;
  bool routed = true;
  try {
    from.route_to(&to, links, &latency);
  } catch (const std::exception&) { // SimGrid's AssertionError for a missing zoneRoute, among others
    routed = false;
  }
  if (!routed || (need_links && links.empty()))
    throw InputError(platform.string() + ": no route " + (routed ? "of links " : "") + "from " + from.get_name() +
                     " to " + to.get_name() + " (" + why + ")");
}

double message_time(const sg4::Host& from, const sg4::Host& to, double bytes, const std::filesystem::path& platform,
                    const std::string& why)
{
  if (&from == &to) return 0;
  require_route(from, to, platform, why);
  std::vector<sg4::Link*> links;
  double latency = 0;
  from.route_to(&to, links, &latency);
  double narrowest = std::numeric_limits<double>::infinity();
  for (const sg4::Link* link : links)
    narrowest = std::min(narrowest, link->get_bandwidth());
  return latency + (links.empty() || bytes <= 0 ? 0.0 : bytes / narrowest);
}

} // namespace jobsched
