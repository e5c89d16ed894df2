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

int levels(const SchedulerTree& tree); // K: the root's level
std::vector<TreeVertex> children(const SchedulerTree& tree, TreeVertex v);
/* -1 for the root. */
long parent(const SchedulerTree& tree, TreeVertex v);
/* The level-2 nodes, in vertex order. */
std::vector<TreeVertex> leaves(const SchedulerTree& tree);
/* Number of nodes at each level, index = level (0 and 1 empty). */
std::vector<long> nodes_per_level(const SchedulerTree& tree);

} // namespace jobsched::hierarchical
