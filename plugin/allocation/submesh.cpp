/* Contiguous submesh allocation, first fit and best fit, on the mesh graph of the compute hosts (Boost.Graph): the
 * shape rule, the scan order and the best-fit contact are stated in submesh.hpp. Registered as the allocators
 * `submesh-first-fit` and `submesh-best-fit`; they need a platform whose compute hosts have mesh positions (host
 * properties x and y, e.g. platforms/mesh-16x8.xml) and one core each. */
#include "allocation/submesh.hpp"

#include "allocation/allocator.hpp"
#include "core/errors.hpp"

#include <boost/graph/adjacency_list.hpp>

#include <algorithm>
#include <cstdlib>

namespace jobsched {

struct MeshMap::Graph {
  boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS> g;
};

std::vector<std::vector<SubmeshShape>> submesh_shape_groups(int processors, int width, int height)
{
  std::vector<std::vector<SubmeshShape>> groups;
  if (processors < 1 || static_cast<long>(processors) > static_cast<long>(width) * height) return groups;
  // One group per unordered pair {a, b} (a <= b): its orientations that fit, wide first.
  auto group_of = [width, height](int a, int b) {
    std::vector<SubmeshShape> g;
    if (b <= width && a <= height) g.push_back({b, a});
    if (a != b && a <= width && b <= height) g.push_back({a, b});
    return g;
  };
  for (int a = 1; static_cast<long>(a) * a <= processors; a++) // a ascending: b - a descending
    if (processors % a == 0) {
      auto g = group_of(a, processors / a);
      if (!g.empty()) groups.insert(groups.begin(), g); // the squarest (largest a) ends up first
    }
  if (!groups.empty()) return groups;
  // No rectangle of area p fits: the smallest enclosing ones, smallest area, then squarest.
  struct Pair {
    int a, b;
  };
  std::vector<Pair> pairs;
  for (int a = 1; a <= std::min(width, height); a++)
    for (int b = a; b <= std::max(width, height); b++)
      if (static_cast<long>(a) * b >= processors && !group_of(a, b).empty()) {
        pairs.push_back({a, b});
        break; // larger b only adds area
      }
  std::sort(pairs.begin(), pairs.end(), [](const Pair& l, const Pair& r) {
    const long la = static_cast<long>(l.a) * l.b;
    const long ra = static_cast<long>(r.a) * r.b;
    return la != ra ? la < ra : (l.b - l.a) < (r.b - r.a);
  });
  for (const Pair& p : pairs)
    groups.push_back(group_of(p.a, p.b));
  return groups;
}

MeshMap::MeshMap(const Machine& machine) : machine_(machine)
{
  if (!machine.has_positions())
    throw InputError("policy.allocation: a submesh allocator needs a mesh platform: every compute host with "
                     "properties x and y (e.g. platforms/mesh-16x8.xml)");
  for (int h = 0; h < machine.host_count(); h++) {
    if (machine.cores(h) != 1)
      throw InputError("policy.allocation: a submesh allocator needs one core per mesh node; host " +
                       machine.host_name(h) + " has " + std::to_string(machine.cores(h)));
    width_ = std::max(width_, machine.x(h) + 1);
    height_ = std::max(height_, machine.y(h) + 1);
  }
  grid_.assign(static_cast<size_t>(width_) * height_, -1);
  for (int h = 0; h < machine.host_count(); h++)
    grid_[static_cast<size_t>(machine.y(h)) * width_ + machine.x(h)] = h;
  auto graph = std::make_shared<Graph>();
  graph->g = decltype(graph->g)(static_cast<size_t>(machine.host_count()));
  for (int y = 0; y < height_; y++)
    for (int x = 0; x < width_; x++) {
      const int h = host_at(x, y);
      if (h < 0) continue;
      if (x + 1 < width_ && host_at(x + 1, y) >= 0) boost::add_edge(h, host_at(x + 1, y), graph->g);
      if (y + 1 < height_ && host_at(x, y + 1) >= 0) boost::add_edge(h, host_at(x, y + 1), graph->g);
    }
  graph_ = std::move(graph);
}

int MeshMap::degree(int host) const
{
  return static_cast<int>(boost::degree(static_cast<size_t>(host), graph_->g));
}

std::optional<Submesh> MeshMap::place(int processors, const ResourceSet& available, SubmeshFit fit) const
{
  if (processors < 1 || available.count() < processors) return std::nullopt;
  const int w = width_;
  const int h = height_;
  std::vector<char> is_free(static_cast<size_t>(machine_.host_count()), 0);
  for (int host = 0; host < machine_.host_count(); host++)
    is_free[host] = available.test(machine_.first_resource(host)) ? 1 : 0;
  // free_count[(y) (w + 1) + x]: free nodes in [0, x) x [0, y), so that a rectangle's count is four look-ups.
  std::vector<int> free_count(static_cast<size_t>(w + 1) * (h + 1), 0);
  auto at = [w](int x, int y) { return static_cast<size_t>(y) * (w + 1) + x; };
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const int host = host_at(x, y);
      const int own = host >= 0 && is_free[host] ? 1 : 0;
      free_count[at(x + 1, y + 1)] = own + free_count[at(x, y + 1)] + free_count[at(x + 1, y)] - free_count[at(x, y)];
    }
  auto all_free = [&](int x, int y, const SubmeshShape& s) {
    const int n = free_count[at(x + s.width, y + s.height)] - free_count[at(x, y + s.height)] -
                  free_count[at(x + s.width, y)] + free_count[at(x, y)];
    return n == s.width * s.height;
  };
  auto contact = [&](const Submesh& m) {
    auto inside = [&m](int host_x, int host_y) {
      return host_x >= m.x && host_x < m.x + m.shape.width && host_y >= m.y && host_y < m.y + m.shape.height;
    };
    int touching = 0;
    for (int y = m.y; y < m.y + m.shape.height; y++)
      for (int x = m.x; x < m.x + m.shape.width; x++) {
        const int v = host_at(x, y);
        touching += 4 - degree(v); // directions leading off the mesh (or into a hole)
        for (auto [e, end] = boost::adjacent_vertices(static_cast<size_t>(v), graph_->g); e != end; ++e) {
          const int u = static_cast<int>(*e);
          if (!is_free[u] && !inside(machine_.x(u), machine_.y(u))) touching++;
        }
      }
    return touching;
  };
  for (const auto& group : submesh_shape_groups(processors, w, h)) {
    std::optional<Submesh> chosen;
    for (const SubmeshShape& shape : group)
      for (int y = 0; y + shape.height <= h; y++)
        for (int x = 0; x + shape.width <= w; x++) {
          if (!all_free(x, y, shape)) continue;
          Submesh m{x, y, shape, 0};
          if (fit == SubmeshFit::first) return m;
          m.contact = contact(m);
          if (!chosen || m.contact > chosen->contact) chosen = m;
        }
    if (chosen) return chosen;
  }
  return std::nullopt;
}

ResourceSet MeshMap::processors_of(const Submesh& s, int processors) const
{
  ResourceSet out(machine_.resource_count());
  int taken = 0;
  for (int y = s.y; y < s.y + s.shape.height && taken < processors; y++)
    for (int x = s.x; x < s.x + s.shape.width && taken < processors; x++, taken++)
      out.set(machine_.first_resource(host_at(x, y)));
  return out;
}

namespace {

class SubmeshAllocator : public Allocator {
 public:
  SubmeshAllocator(const AllocatorEnv& env, SubmeshFit fit) : mesh_(env.machine), fit_(fit) {}
  /* `preferred` is not used: a submesh is chosen by its shape and position, not processor by processor. */
  std::optional<ResourceSet> select(const Job& job, const ResourceSet& available,
                                    const ResourceSet* /*preferred*/) const override
  {
    auto placed = mesh_.place(job.size, available, fit_);
    if (!placed) return std::nullopt;
    return mesh_.processors_of(*placed, job.size);
  }

 private:
  MeshMap mesh_;
  SubmeshFit fit_;
};

AllocatorRegistration submesh_first_fit{
    {"submesh-first-fit",
     "a free submesh (rectangle) of a 2-D mesh platform, squarest shape first, first free base in row-major order",
     {},
     [](const AllocatorEnv& env) { return std::make_unique<SubmeshAllocator>(env, SubmeshFit::first); }}};

AllocatorRegistration submesh_best_fit{
    {"submesh-best-fit",
     "a free submesh of a 2-D mesh platform, squarest shape first, the one touching the most busy nodes and edges",
     {},
     [](const AllocatorEnv& env) { return std::make_unique<SubmeshAllocator>(env, SubmeshFit::best); }}};

} // namespace
} // namespace jobsched
