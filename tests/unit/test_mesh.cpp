/* The 2-D mesh beyond Setia's paper: the platform generator (node count, links per router, no wraparound, the
 * committed platforms/mesh-16x8.xml), submesh shapes, first-fit and best-fit submesh allocation on hand-made occupancy
 * maps (every expected answer worked out by hand in the comments), and the mesh communication pattern's bytes. */
#include "allocation/allocator.hpp"
#include "allocation/submesh.hpp"
#include "core/errors.hpp"
#include "model/job_model.hpp"
#include "platform/mesh_platform.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

using namespace jobsched;

namespace {

/* The routes of a generated platform: (source, destination) -> link ids. */
std::map<std::pair<std::string, std::string>, std::vector<std::string>> routes_of(const std::string& xml)
{
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> out;
  std::regex route(R"re(<route src="([^"]+)" dst="([^"]+)"[^>]*>(.*?)</route>)re");
  std::regex link(R"re(<link_ctn id="([^"]+)")re");
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), route); it != std::sregex_iterator(); ++it) {
    const std::string body = (*it)[3];
    auto& links = out[{(*it)[1], (*it)[2]}];
    for (auto l = std::sregex_iterator(body.begin(), body.end(), link); l != std::sregex_iterator(); ++l)
      links.push_back((*l)[1]);
  }
  return out;
}

size_t count(const std::string& text, const std::string& what)
{
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    n++;
  return n;
}

/* The mesh links (not NICs) a router's routing points use. */
std::set<std::string> mesh_links_of_router(const std::string& xml, int x, int y)
{
  const std::string prefix = "router-" + std::to_string(x) + "-" + std::to_string(y) + "-";
  std::set<std::string> out;
  for (const auto& [ends, links] : routes_of(xml))
    if (ends.first.rfind(prefix, 0) == 0 || ends.second.rfind(prefix, 0) == 0)
      for (const auto& l : links)
        if (l.rfind("mesh-", 0) == 0) out.insert(l);
  return out;
}

} // namespace

TEST(MeshPlatform, NodesLinksAndRoles)
{
  const std::string xml = mesh_platform_xml(MeshSpec{}); // 16 x 8, one I/O node
  EXPECT_EQ(count(xml, "<host id=\"node-"), 128U);
  EXPECT_EQ(count(xml, "<link id=\"mesh-"), 15U * 8 + 16U * 7); // 120 along rows, 112 along columns
  EXPECT_EQ(count(xml, "<link id=\"nic-"), 128U + 2);           // the nodes, io-0 and the front end
  EXPECT_EQ(count(xml, "<prop id=\"role\" value=\"storage\"/>"), 1U);
  EXPECT_EQ(count(xml, "<prop id=\"role\" value=\"master\"/>"), 1U);
  // node-37 is at x = 37 mod 16 = 5, y = 37 div 16 = 2.
  EXPECT_NE(xml.find("<host id=\"node-37\" speed=\"1Gf\"><prop id=\"x\" value=\"5\"/><prop id=\"y\" value=\"2\"/>"
                     "<prop id=\"memory_mb\" value=\"32\"/>"),
            std::string::npos);
}

TEST(MeshPlatform, CornersHaveTwoLinksEdgesThreeInsideFour)
{
  const std::string xml = mesh_platform_xml(MeshSpec{});
  EXPECT_EQ(mesh_links_of_router(xml, 0, 0), (std::set<std::string>{"mesh-0-0-x", "mesh-0-0-y"}));
  EXPECT_EQ(mesh_links_of_router(xml, 15, 7), (std::set<std::string>{"mesh-14-7-x", "mesh-15-6-y"}));
  EXPECT_EQ(mesh_links_of_router(xml, 15, 0).size(), 2U);
  EXPECT_EQ(mesh_links_of_router(xml, 0, 7).size(), 2U);
  EXPECT_EQ(mesh_links_of_router(xml, 5, 0).size(), 3U);
  EXPECT_EQ(mesh_links_of_router(xml, 5, 3),
            (std::set<std::string>{"mesh-4-3-x", "mesh-5-3-x", "mesh-5-2-y", "mesh-5-3-y"}));
}

TEST(MeshPlatform, NoWraparound)
{
  // A torus would join column 15 to column 0 and row 7 to row 0: no route joins those routers directly.
  const auto routes = routes_of(mesh_platform_xml(MeshSpec{}));
  for (const auto& [ends, links] : routes) {
    auto coordinates = [](const std::string& r) {
      int x = -1, y = -1;
      std::sscanf(r.c_str(), "router-%d-%d-", &x, &y);
      return std::pair(x, y);
    };
    if (ends.first.rfind("router-", 0) != 0 || ends.second.rfind("router-", 0) != 0) continue;
    auto [x1, y1] = coordinates(ends.first);
    auto [x2, y2] = coordinates(ends.second);
    EXPECT_EQ(std::abs(x1 - x2) + std::abs(y1 - y2), 1) << ends.first << " -> " << ends.second;
    EXPECT_EQ(links.size(), 1U);
  }
}

TEST(MeshPlatform, IoNodesSpreadOverTheWestEdge)
{
  EXPECT_EQ(io_node_row(0, 1, 8), 4); // (2 x 0 + 1) x 8 / 2
  EXPECT_EQ(io_node_row(0, 2, 8), 2); // 8 / 4
  EXPECT_EQ(io_node_row(1, 2, 8), 6); // 3 x 8 / 4
  MeshSpec s;
  s.io_nodes = 2;
  const auto routes = routes_of(mesh_platform_xml(s));
  EXPECT_EQ(routes.at({"io-1", "router-0-6-x"}), std::vector<std::string>{"nic-io-1"});
}

TEST(MeshPlatform, OtherSizesAndBadSpecs)
{
  MeshSpec s;
  s.width = 3;
  s.height = 2;
  s.io_nodes = 0;
  const std::string xml = mesh_platform_xml(s);
  EXPECT_EQ(count(xml, "<host id=\"node-"), 6U);
  EXPECT_EQ(count(xml, "<link id=\"mesh-"), 2U * 2 + 3U * 1);
  EXPECT_EQ(count(xml, "<host id=\"io-"), 0U);
  s.width = 0;
  EXPECT_THROW(mesh_platform_xml(s), InputError);
  s.width = 3;
  s.io_nodes = 3; // more than the 2 rows
  EXPECT_THROW(mesh_platform_xml(s), InputError);
  s.io_nodes = 1;
  s.memory_mb = -1;
  EXPECT_THROW(mesh_platform_xml(s), InputError);
}

TEST(MeshPlatform, TheCommittedPlatformIsTheGeneratorsOutput)
{
  std::ifstream in(std::string(SOURCE_DIR) + "/platforms/mesh-16x8.xml");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), mesh_platform_xml(MeshSpec{}));
}

TEST(SubmeshShapes, SquarestFirstWideBeforeTall)
{
  using Groups = std::vector<std::vector<SubmeshShape>>;
  EXPECT_EQ(submesh_shape_groups(8, 16, 8), (Groups{{{4, 2}, {2, 4}}, {{8, 1}, {1, 8}}}));
  // 16: 4 x 4, then 8 x 2 both ways, then 16 x 1 (1 x 16 is taller than the mesh).
  EXPECT_EQ(submesh_shape_groups(16, 16, 8), (Groups{{{4, 4}}, {{8, 2}, {2, 8}}, {{16, 1}}}));
  // 96 = 12 x 8 or 16 x 6 (8 x 12 and 6 x 16 are too tall; 4 x 24 too wide).
  EXPECT_EQ(submesh_shape_groups(96, 16, 8), (Groups{{{12, 8}}, {{16, 6}}}));
  // 17 is prime and 17 x 1 is wider than the mesh: the smallest enclosing rectangles, area 18 (6 x 3 before 9 x 2,
  // squarer), then area 20 (5 x 4), ...
  auto groups = submesh_shape_groups(17, 16, 8);
  ASSERT_GE(groups.size(), 3U);
  EXPECT_EQ(groups[0], (std::vector<SubmeshShape>{{6, 3}, {3, 6}}));
  EXPECT_EQ(groups[1], (std::vector<SubmeshShape>{{9, 2}})); // 2 x 9 is taller than the mesh
  EXPECT_EQ(groups[2], (std::vector<SubmeshShape>{{5, 4}, {4, 5}}));
  EXPECT_TRUE(submesh_shape_groups(129, 16, 8).empty());
}

namespace {

/* A w x h mesh whose host i is at (i mod w, i div w), and a map of it: rows from y = 0, 'B' busy, '.' free. */
struct Mesh {
  Machine machine;
  Params params;
  std::unique_ptr<Allocator> first_fit;
  std::unique_ptr<Allocator> best_fit;
  std::unique_ptr<Allocator> count_only;
  Mesh(int w, int h)
  {
    for (int i = 0; i < w * h; i++)
      machine.add_host("node-" + std::to_string(i), 1, 1e9);
    for (int i = 0; i < w * h; i++)
      machine.set_position(i, i % w, i / w);
    params = Params({}, {}, "policy.allocation_params");
    first_fit = allocator_registry().get("submesh-first-fit").make(AllocatorEnv{machine, params});
    best_fit = allocator_registry().get("submesh-best-fit").make(AllocatorEnv{machine, params});
    count_only = allocator_registry().get("first-fit").make(AllocatorEnv{machine, params});
  }
  ResourceSet free_in(const std::vector<std::string>& rows) const
  {
    ResourceSet r(machine.resource_count());
    const int w = static_cast<int>(rows[0].size());
    for (size_t y = 0; y < rows.size(); y++)
      for (int x = 0; x < w; x++)
        if (rows[y][x] == '.') r.set(static_cast<int>(y) * w + x);
    return r;
  }
  static std::optional<std::string> place(const Allocator& a, int size, const ResourceSet& available)
  {
    Job j;
    j.size = size;
    auto r = a.select(j, available);
    return r ? std::optional<std::string>(r->to_string()) : std::nullopt;
  }
};

} // namespace

/* 4 x 3 mesh, 2 x 2 job. Free 2 x 2 bases: (0,0), (1,0) and (0,1); (2,0) needs the busy (3,1), (1,1) and (2,1) the
 * busy (2,2).  Contacts (directions leading off the mesh or to a busy node outside):
 *   (0,0): (0,0) west + south 2, (1,0) south 1, (0,1) west 1, (1,1) 0                                  = 4
 *   (1,0): (1,0) south 1, (2,0) south 1, (1,1) 0, (2,1) busy (3,1) and busy (2,2) 2                    = 4
 *   (0,1): (0,1) west 1, (1,1) 0, (0,2) west + north 2, (1,2) north 1 + busy (2,2) 1                   = 5
 * First fit: (0,0), hosts 0 1 4 5. Best fit: (0,1), hosts 4 5 8 9. */
TEST(SubmeshAllocation, FirstFitAndBestFitChooseDifferently)
{
  Mesh m(4, 3);
  auto free = m.free_in({"....", "...B", "..BB"});
  EXPECT_EQ(Mesh::place(*m.first_fit, 4, free), "0-1 4-5");
  EXPECT_EQ(Mesh::place(*m.best_fit, 4, free), "4-5 8-9");
  EXPECT_EQ(Mesh::place(*m.count_only, 4, free), "0-3");
}

/* 4 x 3 mesh, one busy node (3,0). A 2-processor job: the group {2 x 1, 1 x 2}. First fit: the wide (0,0)-(1,0),
 * hosts 0 1. Best fit: contacts of the free placements: wide (0,0) 3 (west + south, south), (1,0) 3 (south, south +
 * busy (3,0)), (0,1) 1, (1,1) 0, (2,1) 2, (0,2) 3, (1,2) 2, (2,2) 3; tall (0,0) 3, (1,0) 1, (2,0) 2, (0,1) 3, (1,1) 1,
 * (2,1) 1, (3,1) 4 ((3,1): east + busy (3,0) below; (3,2): east + north). Best fit: the tall (3,1)-(3,2), hosts 7 11,
 * tucked into the corner beside the busy node. */
TEST(SubmeshAllocation, BestFitPacksAgainstBusyNodesAndEdges)
{
  Mesh m(4, 3);
  auto free = m.free_in({"...B", "....", "...."});
  EXPECT_EQ(Mesh::place(*m.first_fit, 2, free), "0-1");
  EXPECT_EQ(Mesh::place(*m.best_fit, 2, free), "7 11");
}

/* Fragmentation: 8 free nodes, but no free 2 x 2 and no free row of 4 (1 x 4 is taller than the mesh): both submesh
 * allocators refuse a 4-processor job, the count-only allocator gives it the lowest free ones, 0 1 3 5. */
TEST(SubmeshAllocation, FragmentationDefeatsContiguityNotCounts)
{
  Mesh m(4, 3);
  auto free = m.free_in({"..B.", "B..B", ".B.."});
  EXPECT_EQ(free.count(), 8);
  EXPECT_FALSE(Mesh::place(*m.first_fit, 4, free).has_value());
  EXPECT_FALSE(Mesh::place(*m.best_fit, 4, free).has_value());
  EXPECT_EQ(Mesh::place(*m.count_only, 4, free), "0-1 3 5");
  // 2 processors still fit: first fit's first wide pair is (0,0)-(1,0).
  EXPECT_EQ(Mesh::place(*m.first_fit, 2, free), "0-1");
}

TEST(SubmeshAllocation, NoSubmeshWhenTooFewFreeOrTheShapeDoesNotFit)
{
  Mesh m(4, 3);
  auto free = m.free_in({"....", "BBBB", "BBBB"});
  EXPECT_FALSE(Mesh::place(*m.first_fit, 5, free).has_value()); // 4 free
  // A row of 4: the 4 x 1 shape (2 x 2 needs two rows).
  EXPECT_EQ(Mesh::place(*m.best_fit, 4, free), "0-3");
  // 3 processors on an empty 4 x 3 mesh: 3 x 1 (squarest of area 3), wide first, at (0,0).
  EXPECT_EQ(Mesh::place(*m.first_fit, 3, ResourceSet::all(12)), "0-2");
  // Best fit on the empty mesh, group {3 x 1, 1 x 3}: the wide rows along an edge touch 4 (e.g. (0,0): west + south,
  // south, south), the middle row 1; the tall columns (0,0) and (3,0) touch 5 (west + south, west, west + north), the
  // inner ones 2. A tie of 5: the first in scan order, the column at x = 0, hosts 0 4 8.
  EXPECT_EQ(Mesh::place(*m.best_fit, 3, ResourceSet::all(12)), "0 4 8");
}

TEST(SubmeshAllocation, NeedsMeshPositions)
{
  Machine plain = Machine::uniform(4);
  Params params({}, {}, "policy.allocation_params");
  EXPECT_THROW(allocator_registry().get("submesh-best-fit").make(AllocatorEnv{plain, params}), InputError);
}

TEST(MeshExchange, ARectangleExchangesWithItsPhysicalNeighbours)
{
  // A 2 x 2 submesh listed in processor order (0,0), (1,0), (0,1), (1,1): each process sends half to each of its
  // two neighbours, nothing along the diagonal.
  auto b = mesh_exchange_bytes({{4, 2}, {5, 2}, {4, 3}, {5, 3}}, 4, 10.0);
  EXPECT_EQ(b, (std::vector<double>{0, 5, 5, 0, 5, 0, 0, 5, 5, 0, 0, 5, 0, 5, 5, 0}));
  // A line of 3 in a row: the ends send everything to the middle, the middle half to each end.
  auto line = mesh_exchange_bytes({{0, 0}, {1, 0}, {2, 0}}, 3, 6.0);
  EXPECT_EQ(line, (std::vector<double>{0, 6, 0, 3, 0, 3, 0, 6, 0}));
}

TEST(MeshExchange, ScatteredProcessesGetAVirtualGrid)
{
  // Six processes not forming a rectangle: the squarest grid 3 x 2 over them in order, ranks 0 1 2 / 3 4 5.
  // Rank 1's neighbours: 0, 2 and 4 (a third each); rank 3's: 4 and 0 (half each).
  auto b = mesh_exchange_bytes({{0, 0}, {5, 0}, {9, 1}, {2, 3}, {3, 3}, {7, 7}}, 6, 6.0);
  const size_t n = 6;
  EXPECT_DOUBLE_EQ(b[1 * n + 0], 2.0);
  EXPECT_DOUBLE_EQ(b[1 * n + 2], 2.0);
  EXPECT_DOUBLE_EQ(b[1 * n + 4], 2.0);
  EXPECT_DOUBLE_EQ(b[3 * n + 0], 3.0);
  EXPECT_DOUBLE_EQ(b[3 * n + 4], 3.0);
  EXPECT_DOUBLE_EQ(b[3 * n + 2], 0.0);
  // Without positions, the same grid.
  EXPECT_EQ(mesh_exchange_bytes({}, 6, 6.0), b);
}
