/* Contiguous allocation on a two-dimensional mesh: a job of p processors gets a free submesh (a rectangle of nodes)
 * whose shape is chosen by a fixed rule, placed by first fit or best fit (Zhu, "Efficient processor allocation
 * strategies for mesh-connected parallel computers", JPDC 1992, defines both). The allocators `submesh-first-fit`
 * and `submesh-best-fit` (submesh.cpp) are this step behind the Allocator interface; the count-only allocator they
 * are compared with is `first-fit` (any idle processors).
 *
 * Shape of p processors: the rectangles w x h of area exactly p that fit in the mesh, squarest first (the smallest
 * |w - h|, hence the shortest perimeter and the shortest paths inside), each in both orientations, wide (w >= h)
 * before tall. When no rectangle of area p fits the mesh at all (p = 17 on a 16 x 8 mesh: only 17 x 1), the smallest
 * rectangles of area >= p that fit, smallest area first, then squarest; the job then takes the first p nodes of the
 * rectangle in row-major order and the rest stays free.
 *
 * Placement: the shapes are tried group by group (a group is one rectangle in its two orientations); the first group
 * with a free placement decides. First fit takes the first free placement in scan order: wide orientation before
 * tall, then the lowest base row y, then the lowest base column x. Best fit takes, among the group's free placements,
 * the one whose boundary touches the most busy nodes and mesh edges: the contact of a placement is, over its nodes,
 * the number of their four mesh directions that lead outside the mesh or to a node that is busy (not available) and
 * outside the placement. Ties go to the first in scan order. Packing a job against busy nodes and walls leaves the
 * largest free regions whole, which is what best fit is for.
 *
 * The mesh is the graph of the compute hosts (Boost.Graph), an edge between hosts whose positions (the platform's
 * host properties x and y, Machine::x/y) differ by one in one coordinate. Positions missing from the rectangle
 * spanned by the hosts are holes: never free, and walls for the contact count. */
#pragma once

#include "core/machine.hpp"
#include "core/resource_set.hpp"

#include <memory>
#include <optional>
#include <vector>

namespace jobsched {

struct SubmeshShape {
  int width = 1;  // along x
  int height = 1; // along y
  bool operator==(const SubmeshShape& o) const { return width == o.width && height == o.height; }
};

/* The shape groups of p processors on a width x height mesh, in the order they are tried (each group: its
 * orientations, wide first). Empty when p < 1 or p exceeds the mesh. */
std::vector<std::vector<SubmeshShape>> submesh_shape_groups(int processors, int width, int height);

enum class SubmeshFit { first, best };

/* A placed submesh: its base (lowest x and y) and shape. */
struct Submesh {
  int x = 0;
  int y = 0;
  SubmeshShape shape;
  int contact = 0; // busy nodes and mesh edges its boundary touches (computed for best fit)
};

class MeshMap {
 public:
  /* InputError (naming policy.allocation) when the machine's hosts have no positions or more than one core. */
  explicit MeshMap(const Machine& machine);
  int width() const { return width_; }
  int height() const { return height_; }
  /* The compute host at (x, y), -1 for a hole. */
  int host_at(int x, int y) const { return grid_[static_cast<size_t>(y) * width_ + x]; }
  /* Mesh neighbours of a host (2 to 4 on a full mesh). */
  int degree(int host) const;

  /* Where a job of `processors` goes among the `available` processors, or nothing. */
  std::optional<Submesh> place(int processors, const ResourceSet& available, SubmeshFit fit) const;
  /* The processors of a placement: its first `processors` nodes in row-major order. */
  ResourceSet processors_of(const Submesh& s, int processors) const;

 private:
  struct Graph;
  const Machine& machine_;
  int width_ = 0;
  int height_ = 0;
  std::vector<int> grid_;
  std::shared_ptr<const Graph> graph_;
};

} // namespace jobsched
