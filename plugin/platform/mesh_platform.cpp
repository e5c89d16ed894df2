/* The 2-D mesh platform generator and the hosts' mesh positions: see mesh_platform.hpp for the topology and why each
 * router is two routing points. */
#include "platform/mesh_platform.hpp"

#include "core/command_line.hpp"
#include "core/errors.hpp"
#include "platform/host_memory.hpp"

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include <xbt/parse_units.hpp>

namespace jobsched {

namespace {

std::string router(int x, int y, char stage)
{
  return "router-" + std::to_string(x) + "-" + std::to_string(y) + "-" + stage;
}

std::string node_name(const MeshSpec& s, int x, int y)
{
  return "node-" + std::to_string(y * s.width + x);
}

std::string number(double v)
{
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

struct Routes {
  std::ostringstream out;
  bool y_stages = true; // false for a mesh of one row, whose routers are X stages only
  /* A one-way route of one link (SPLITDUPLEX: `direction` picks the link's UP or DOWN half). */
  void add(const std::string& from, const std::string& to, const std::string& link, const char* direction)
  {
    out << "    <route src=\"" << from << "\" dst=\"" << to << "\" symmetrical=\"NO\"><link_ctn id=\"" << link
        << "\" direction=\"" << direction << "\"/></route>\n";
  }
  /* A host attached to the router at (x, y) through `link`: out through the X stage, in from either stage. */
  void attach(const std::string& host, int x, int y, const std::string& link)
  {
    add(host, router(x, y, 'x'), link, "UP");
    add(router(x, y, 'x'), host, link, "DOWN");
    if (y_stages) add(router(x, y, 'y'), host, link, "DOWN");
  }
};

enum class Quantity { speed, bandwidth, time };

/* A SimGrid quantity such as 1Gf, 200MBps or 1us: a finite number and a unit, read by SimGrid's own parser (the one
 * that reads the platform), so that the platform written is one SimGrid loads with the values given; speeds and
 * bandwidths positive, times (latencies) at least 0. A unit-less number is refused: SimGrid would warn and assume a
 * unit. */
void quantity(const std::string& option, const std::string& text, Quantity kind)
{
  const char* what = kind == Quantity::speed       ? "positive speed"
                     : kind == Quantity::bandwidth ? "positive bandwidth"
                                                   : "time >= 0";
  const char* example = kind == Quantity::speed ? "1Gf" : kind == Quantity::bandwidth ? "200MBps" : "1us";
  const std::string refused = option + ": '" + text + "' is not a " + what + " with its unit (e.g. " + example;
  // What strtod reads is the number (nan and inf too, which end in a letter); nothing after it: no unit.
  char* unit = nullptr;
  std::strtod(text.c_str(), &unit);
  if (text.empty() || *unit == '\0') throw InputError(refused + "; a number alone has no unit)");
  double value = 0;
  try {
    value = kind == Quantity::speed       ? xbt_parse_get_speed(option, 0, text, option)
            : kind == Quantity::bandwidth ? xbt_parse_get_bandwidth(option, 0, text, option)
                                          : xbt_parse_get_time(option, 0, text, option);
  } catch (const std::exception& e) { // "Parse error at OPTION:0: unknown unit: Gfx"
    std::string reason = e.what();
    const std::string prefix = "Parse error at " + option + ":0: ";
    if (reason.rfind(prefix, 0) == 0) reason = reason.substr(prefix.size());
    throw InputError(refused + "; " + reason.substr(0, reason.find('\n')) + ")");
  }
  if (!(kind == Quantity::time ? value >= 0 : value > 0) || !std::isfinite(value)) throw InputError(refused + ")");
}

} // namespace

int io_node_row(int index, int io_nodes, int height)
{
  return static_cast<int>((2L * index + 1) * height / (2L * io_nodes));
}

std::string mesh_platform_xml(const MeshSpec& s)
{
  if (s.width < 1 || s.height < 1 || static_cast<long>(s.width) * s.height > 1'000'000)
    throw InputError("mesh: width and height must be at least 1 (and at most a million nodes), got " +
                     std::to_string(s.width) + " x " + std::to_string(s.height));
  if (s.io_nodes < 0 || s.io_nodes > s.height)
    throw InputError("mesh: io-nodes must be between 0 and the height (" + std::to_string(s.height) + "), got " +
                     std::to_string(s.io_nodes));
  // The bound a run reads the property memory_mb with (check_host_memory()): a platform written here always loads.
  if (!(s.memory_mb > 0) || !(s.memory_mb <= kMaxHostMemoryMb))
    throw InputError("mesh: memory-mb must be above 0 and at most 1e12, got " + number(s.memory_mb));
  quantity("--speed", s.speed, Quantity::speed);
  quantity("--bandwidth", s.bandwidth, Quantity::bandwidth);
  quantity("--latency", s.latency, Quantity::time);
  quantity("--nic-bandwidth", s.nic_bandwidth, Quantity::bandwidth);
  quantity("--io-bandwidth", s.io_bandwidth, Quantity::bandwidth);
  const int w = s.width;
  const int h = s.height;
  std::ostringstream o;
  o << "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    << "<!-- A " << w << " x " << h << " two-dimensional mesh without wraparound (" << w * h
    << " nodes), generated by: jobsched mesh-platform --width " << w << " --height " << h << " --speed " << s.speed
    << " --bandwidth " << s.bandwidth << " --latency " << s.latency << " --nic-bandwidth " << s.nic_bandwidth
    << " --memory-mb " << number(s.memory_mb) << " --io-nodes " << s.io_nodes << " --io-bandwidth " << s.io_bandwidth
    << "\n     Node node-i is at x = i mod " << w << ", y = i div " << w
    << " (properties x, y) with memory_mb of local memory. Each node has\n"
    << "     a router (two routing points: its X stage and its Y stage, so that routes go X first, then Y); mesh\n"
    << "     links join neighbouring routers, NIC links join a node to its router. I/O nodes io-k (role storage) hang\n"
    << "     off the west edge, the front end (role master) off the east end of row 0. -->\n"
    << "<platform version=\"4.1\">\n  <zone id=\"mesh\" routing=\"DijkstraCache\">\n";
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      o << "    <host id=\"" << node_name(s, x, y) << "\" speed=\"" << s.speed << "\"><prop id=\"x\" value=\"" << x
        << "\"/><prop id=\"y\" value=\"" << y << "\"/><prop id=\"memory_mb\" value=\"" << number(s.memory_mb)
        << "\"/></host>\n";
  for (int k = 0; k < s.io_nodes; k++)
    o << "    <host id=\"io-" << k << "\" speed=\"" << s.speed << "\"><prop id=\"role\" value=\"storage\"/></host>\n";
  o << "    <host id=\"frontend\" speed=\"" << s.speed << "\"><prop id=\"role\" value=\"master\"/></host>\n";
  // With one row nothing turns into a Y stage: the stages would be entered by no route, and SimGrid's Dijkstra
  // (3.32) then never returns from any route search on the zone (a W x 1 mesh with traffic hung). No Y stages there.
  const bool y_stages = h > 1;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      o << "    <router id=\"" << router(x, y, 'x') << "\"/>";
      if (y_stages) o << "<router id=\"" << router(x, y, 'y') << "\"/>";
      o << "\n";
    }
  auto link = [&o](const std::string& id, const std::string& bandwidth, const std::string& latency) {
    o << "    <link id=\"" << id << "\" bandwidth=\"" << bandwidth << "\" latency=\"" << latency
      << "\" sharing_policy=\"SPLITDUPLEX\"/>\n";
  };
  Routes routes;
  routes.y_stages = y_stages;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const std::string nic = "nic-" + std::to_string(y * w + x);
      link(nic, s.nic_bandwidth, s.latency);
      routes.attach(node_name(s, x, y), x, y, nic);
      if (x + 1 < w) { // east: the X stages of a row
        const std::string east = "mesh-" + std::to_string(x) + "-" + std::to_string(y) + "-x";
        link(east, s.bandwidth, s.latency);
        routes.add(router(x, y, 'x'), router(x + 1, y, 'x'), east, "UP");
        routes.add(router(x + 1, y, 'x'), router(x, y, 'x'), east, "DOWN");
      }
      if (y + 1 < h) { // north: the Y stages of a column, and the turns from X into Y
        const std::string north = "mesh-" + std::to_string(x) + "-" + std::to_string(y) + "-y";
        link(north, s.bandwidth, s.latency);
        routes.add(router(x, y, 'y'), router(x, y + 1, 'y'), north, "UP");
        routes.add(router(x, y + 1, 'y'), router(x, y, 'y'), north, "DOWN");
        routes.add(router(x, y, 'x'), router(x, y + 1, 'y'), north, "UP");
        routes.add(router(x, y + 1, 'x'), router(x, y, 'y'), north, "DOWN");
      }
    }
  for (int k = 0; k < s.io_nodes; k++) {
    const std::string nic = "nic-io-" + std::to_string(k);
    link(nic, s.io_bandwidth, s.latency);
    routes.attach("io-" + std::to_string(k), 0, io_node_row(k, s.io_nodes, h), nic);
  }
  link("nic-frontend", s.nic_bandwidth, s.latency);
  routes.attach("frontend", w - 1, 0, "nic-frontend");
  o << routes.out.str() << "  </zone>\n</platform>\n";
  return o.str();
}

namespace {

const char* const kMeshUsage = R"(Usage: jobsched mesh-platform [options] > PLATFORM.xml

A SimGrid platform of a two-dimensional mesh without wraparound (an Intel Paragon-like multicomputer), with
dimension-ordered (XY) routes, local memory per node, I/O nodes and a front end.
  --width W            nodes per row (default 16)
  --height H           rows (default 8)
  --speed S            each node's speed (default 1Gf)
  --bandwidth B        each mesh link's bandwidth per direction (default 200MBps)
  --latency L          each link's latency (default 1us)
  --nic-bandwidth B    a node's link to its router (default 200MBps)
  --memory-mb M        each node's local memory, MB (default 32)
  --io-nodes K         I/O nodes on the west edge, 0 to H (default 1)
  --io-bandwidth B     an I/O node's link to its router (default 200MBps)
Exit status: 0 success, 2 bad arguments.
)";

int whole(const std::string& option, const std::string& text)
{
  int value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size())
    throw InputError(option + ": '" + text + "' is not a whole number");
  return value;
}

} // namespace

namespace {

/* The command line of `jobsched mesh-platform`, as CLI11 read it. */
struct MeshArguments {
  std::string width, height, io_nodes, memory_mb;
  MeshSpec spec; // the options given as text go straight in
};

int run_mesh_platform(const MeshArguments& arguments, const CLI::App& command)
{
  MeshSpec s = arguments.spec;
  if (command.count("--width") > 0) s.width = whole("--width", arguments.width);
  if (command.count("--height") > 0) s.height = whole("--height", arguments.height);
  if (command.count("--io-nodes") > 0) s.io_nodes = whole("--io-nodes", arguments.io_nodes);
  if (command.count("--memory-mb") > 0) {
    const std::string& value = arguments.memory_mb;
    char* end = nullptr;
    s.memory_mb = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0') throw InputError("--memory-mb: '" + value + "' is not a number");
  }
  const std::string xml = mesh_platform_xml(s);
  std::fwrite(xml.data(), 1, xml.size(), stdout);
  return 0;
}

} // namespace

void add_mesh_platform_command(CommandLine& cli)
{
  auto o = std::make_shared<MeshArguments>();
  CLI::App* command = cli.add_command(cli.root(), "mesh-platform", kMeshUsage,
                                      [o](const CLI::App& parsed) { return run_mesh_platform(*o, parsed); });
  command->add_option("--width", o->width);
  command->add_option("--height", o->height);
  command->add_option("--speed", o->spec.speed);
  command->add_option("--bandwidth", o->spec.bandwidth);
  command->add_option("--latency", o->spec.latency);
  command->add_option("--nic-bandwidth", o->spec.nic_bandwidth);
  command->add_option("--memory-mb", o->memory_mb);
  command->add_option("--io-nodes", o->io_nodes);
  command->add_option("--io-bandwidth", o->spec.io_bandwidth);
}

void read_mesh_positions(Machine& machine, const std::vector<simgrid::s4u::Host*>& hosts,
                         const std::filesystem::path& platform)
{
  bool any = false;
  for (auto* h : hosts)
    any = any || h->get_property("x") != nullptr || h->get_property("y") != nullptr;
  if (!any) return;
  std::map<std::pair<int, int>, std::string> taken;
  for (size_t i = 0; i < hosts.size(); i++) {
    int position[2] = {0, 0};
    for (int axis = 0; axis < 2; axis++) {
      const char* key = axis == 0 ? "x" : "y";
      const char* text = hosts[i]->get_property(key);
      const std::string where = platform.string() + ": host " + hosts[i]->get_name() + ": property " + key;
      if (text == nullptr)
        throw InputError(where + " is missing (on a mesh every compute host has properties x and y)");
      const std::string value(text);
      int v = -1;
      auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (value.empty() || error != std::errc() || end != value.data() + value.size() || v < 0 || v > 1'000'000)
        throw InputError(where + ": '" + value + "' is not a whole number between 0 and 1000000");
      position[axis] = v;
    }
    auto [it, fresh] = taken.emplace(std::pair(position[0], position[1]), hosts[i]->get_name());
    if (!fresh)
      throw InputError(platform.string() + ": hosts " + it->second + " and " + hosts[i]->get_name() +
                       " are both at x = " + std::to_string(position[0]) + ", y = " + std::to_string(position[1]));
    machine.set_position(static_cast<int>(i), position[0], position[1]);
  }
}

} // namespace jobsched
