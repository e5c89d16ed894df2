/* One run of hierarchical scheduling (policies/hierarchical/): every node of the scheduler tree is a SimGrid actor.
 * At each of its quantum boundaries a node gathers its children's feedback (desire, unfinished jobs, reallocation
 * delay) as typed messages, reports their sum to its parent when the parent's quantum expires too, receives its
 * allotment, divides it among its children (DEQ or EQUI) and sends each its share; level-2 nodes do the same with their
 * jobs and run them (policies/hierarchical/leaf_scheduler.hpp). A node decides from its immediate children's messages
 * only. Messages cost nothing (the paper's model: P identical processors, no network).
 *
 * Quanta: level k's is L QF^(k - 2), all starting at time 0, so a parent's boundaries are also its children's.
 * Feedback a child sends is the latest at its parent's boundary (the paper discards older ones: the child sends only
 * then). Reallocation cost (section 4.3(4), our reading): a job stalls x L CF when its allotment changes by x; a
 * level-2 node's delay is the sum of its jobs' stalls since its last report; a node above sums its children's reported
 * delays (accumulating them up the tree, as the paper says), and when it changes its children's allotments, the new
 * ones reach them that much later: until then its subtree keeps the old shares (the delay stalls the delivery of the
 * node's decision, not the jobs).
 *
 * Checked on every run where the paper's analysis applies (QF = 1, CF = 0, fractional allotments, DS + DEQ): at every
 * quantum, when some job is deprived all P processors are allotted; and under AC-DS, Theorem 1: makespan <=
 * 2 (c + 1) max(release + span of the last job, total work / P), c the largest transition factor measured. A failure
 * is an internal error (std::logic_error).
 *
 * Writes summary.json, jobs.csv (one row per job) and performance.json. One engine per process. */
#pragma once

#include "output/reports.hpp"
#include "run/simulation.hpp"
#include "scenario/scenario.hpp"

namespace jobsched {

struct HierarchyResult {
  std::string summary_json;
  double makespan = 0;
  double utilization = 0;
  long jobs = 0;
  int levels = 0;
  long tree_nodes = 0;
};

struct HierarchyReport {
  HierarchyResult result;
  PerformanceFigures performance;
  std::filesystem::path out_dir;
};

/* `scenario.hierarchy` must be set. */
HierarchyReport run_hierarchy(const Scenario& scenario, const RunOptions& options);

} // namespace jobsched
