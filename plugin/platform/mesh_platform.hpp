/* Two-dimensional meshes without wraparound, like the Intel Paragon's: the platform generator and the mesh
 * coordinates of the hosts.
 *
 * SimGrid's TORUS topology always wraps around, so a mesh is generated as plain XML: one host per node (properties x,
 * y and memory_mb), one router per node, a NIC link between a node and its router and one link between neighbouring
 * routers (four neighbours inside, three on an edge, two at a corner). Routes are dimension-ordered, X then Y, as the
 * Paragon's routing chips did: each router is two SimGrid routing points, its X stage (`router-X-Y-x`) and its Y
 * stage (`router-X-Y-y`); the X stages are linked along rows, the Y stages along columns, and an X stage may turn into
 * the Y stage of its column neighbour but nothing goes back from Y to X (a mesh of one row has X stages only: SimGrid's
 * Dijkstra never returns on a zone whose Y stages no route enters). The only shortest path between two nodes is
 * then the XY route, which a DijkstraCache zone finds (it loads in milliseconds; Floyd takes 0.15 s at 16 x 8). A
 * route between nodes at (x1, y1) and (x2, y2) crosses |x2 - x1| + |y2 - y1| mesh links and the two NIC links.
 *
 * I/O nodes (role `storage`: they never compute), where memory images are saved and loaded, hang off the routers of
 * the west edge (column 0), spread over the rows; the front end (role `master`) hangs off the router at the east end
 * of row 0 and carries no traffic. */
#pragma once

#include "core/machine.hpp"

#include <simgrid/s4u.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace jobsched {

struct MeshSpec {
  int width = 16;                        // nodes per row (x from 0 to width - 1)
  int height = 8;                        // rows (y from 0 to height - 1)
  std::string speed = "1Gf";             // each node's processor
  std::string bandwidth = "200MBps";     // each mesh link, per direction (the Paragon's 200 MB/s)
  std::string latency = "1us";           // each mesh link
  std::string nic_bandwidth = "200MBps"; // a node's link to its router
  double memory_mb = 32;                 // each node's local memory (property memory_mb)
  int io_nodes = 1;                      // I/O nodes io-0 .. io-(k-1) on the west edge
  std::string io_bandwidth = "200MBps";  // an I/O node's link to its router
};

/* The west-edge row an I/O node hangs off: rows spread evenly, (2i + 1) height / (2 k), rounded down. */
int io_node_row(int index, int io_nodes, int height);

/* The platform as SimGrid XML (version 4.1). InputError for sizes below 1, more I/O nodes than rows, a memory that is
 * not a positive number, or a speed, bandwidth or latency that SimGrid's parser does not read as a positive finite
 * value with its unit. */
std::string mesh_platform_xml(const MeshSpec& spec);

class CommandLine;
/* Declares `jobsched mesh-platform [--width W] [--height H] [options]` (the XML on stdout) on `cli`. */
void add_mesh_platform_command(CommandLine& cli);

/* Gives `machine` the mesh positions of its hosts (`hosts[i]` is machine host i) from their properties x and y. A
 * platform whose hosts have neither keeps no positions; one where some compute host lacks one, where a value is not a
 * whole number >= 0, or where two hosts share a position, is an InputError naming `platform` and the host. */
void read_mesh_positions(Machine& machine, const std::vector<simgrid::s4u::Host*>& hosts,
                         const std::filesystem::path& platform);

} // namespace jobsched
