/* The tree of schedulers of Cao, Sun, Qian and Wu, "Scalable Hierarchical Scheduling for Malleable Parallel Jobs on
 * Multiprocessor-based Systems" (section 2; generated as in section 4.2), held as a Boost.Graph graph.
 *
 * Levels follow the paper: jobs sit at level 1, so the schedulers that hold jobs (the tree's leaves) are at level 2,
 * and the root is at level K, K being the number of levels *including* the jobs' (K = 2: one scheduler over all the
 * jobs, the classical problem). Every leaf is at level 2, so the tree has the same depth K - 2 below the root
 * everywhere. Vertex 0 is the root; children are listed in the order they were given or generated.
 *
 * Generation (section 4.2): every node above level 2 -- the root included, since the paper draws "the number of
 * children of each intermediate node" and the root's count must come from somewhere -- gets a number of children
 * drawn uniformly in [min_children, max_children] ([1, 5] in the paper), down to level 2. */
#pragma once

#include <boost/graph/adjacency_list.hpp>

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace jobsched::hierarchical {

struct SchedulerNode {
  int level = 2;
};

using SchedulerTree = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, SchedulerNode>;
using TreeVertex = boost::graph_traits<SchedulerTree>::vertex_descriptor;

/* K >= 2 levels; children per node above level 2 uniform in [min_children, max_children] (1 <= min <= max). */
SchedulerTree generate_tree(int levels, int min_children, int max_children, std::uint64_t seed);

/* From parent indices in any order where a parent precedes its children: parents[0] = -1 (the root), every other
 * parents[i] in [0, i). std::invalid_argument when the leaves are not all at the same depth (the message says so). */
SchedulerTree tree_from_parents(const std::vector<int>& parents);

/* A tree as a scenario gives it: parent indices (root first, a parent before its children), and per node an optional
 * name and the platform host its scheduler actor runs on ("" when not given). */
struct TreeDescription {
  std::vector<int> parents;
  std::vector<std::string> names;
  std::vector<std::string> hosts;
};

/* A tree from GraphML (read with Boost.Graph's read_graphml): directed edges from a parent to each child, one root,
 * every other node with exactly one parent, every node reachable from the root; node attributes (GraphML keys
 * for="node") `name` and `host`, both strings, and no other attribute anywhere. Nodes are renumbered breadth first from
 * the root, children in the order of their edges. std::invalid_argument, one line, when the file is malformed or not
 * such a tree (several roots, a cycle, a node with two parents, an unknown attribute); leaves at different depths are
 * left to tree_from_parents. */
TreeDescription tree_from_graphml(std::istream& in);

int levels(const SchedulerTree& tree); // K: the root's level
std::vector<TreeVertex> children(const SchedulerTree& tree, TreeVertex v);
/* -1 for the root. */
long parent(const SchedulerTree& tree, TreeVertex v);
/* The level-2 nodes, in vertex order. */
std::vector<TreeVertex> leaves(const SchedulerTree& tree);
/* Number of nodes at each level, index = level (0 and 1 empty). */
std::vector<long> nodes_per_level(const SchedulerTree& tree);

} // namespace jobsched::hierarchical
