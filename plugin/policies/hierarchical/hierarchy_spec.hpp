/* The settings of hierarchical feedback-driven scheduling of malleable jobs after Cao, Sun, Qian and Wu, "Scalable
 * Hierarchical Scheduling for Malleable Parallel Jobs on Multiprocessor-based Systems" (hierarchical_policy.cpp reads
 * them from policy.params; docs/reproduction/hierarchical.md reproduces the paper with them). */
#pragma once

#include "policies/hierarchical/allocation.hpp"
#include "policies/hierarchical/feedback.hpp"
#include "model/malleable_job.hpp"
#include "policies/hierarchical/scheduler_tree.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jobsched::hierarchical {

struct HierarchySpec {
  JobScheduler job_scheduler = JobScheduler::a_control; // the algorithm X-Y: X
  NodeAllocator allocator = NodeAllocator::deq;         // Y: ds (DS + DEQ) or equi
  int processors = 256;                                 // P
  double quantum = 0.001;                               // L, seconds, at level 2
  int quantum_factor = 1;                               // QF: level k's quantum is L QF^(k - 2)
  double cost_factor = 0;                               // CF: moving x processors costs x L CF
  bool whole_processors = false;                        // allotments: fractional (false) or whole processors
  // The tree: explicit (parent indices, root first) or generated.
  std::optional<std::vector<int>> tree_parents;
  std::vector<std::string> tree_names; // per node of an explicit tree, "" when not named
  std::vector<std::string> tree_hosts; // per node of an explicit tree: its actor's host, "" for the automatic choice
  int levels = 3;                      // K, generated trees
  int min_children = 1;
  int max_children = 5;
  std::optional<std::uint64_t> tree_seed; // default: the simulation seed
  double convergence_rate = 0;            // AC
  AGreedyParams a_greedy;                 // AG
  DowneyWorkloadSpec workload;
  // Messages: free (the paper's model), or over the platform (hierarchical_policy.cpp), each `message_bytes` long.
  bool messages_over_platform = false;
  double message_bytes = 64;
  std::string invariants = "auto"; // auto: checked on runs where they hold (QF 1, CF 0, fractional, identical and
                                   // steady processors); on: on every run (to see where the analysis stops holding);
                                   // off
};

/* "ac-ds", "equi-equi"... */
std::string algorithm_name(const HierarchySpec& spec);

} // namespace jobsched::hierarchical
