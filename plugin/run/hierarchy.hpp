/* One run of hierarchical scheduling (policies/hierarchical/): every node of the scheduler tree is a SimGrid actor.
 * At each of its quantum boundaries a node gathers its children's feedback (desire, unfinished jobs, reallocation
 * delay) as typed messages, reports their sum to its parent when the parent's quantum expires too, receives its
 * allotment, divides it among its children (DEQ or EQUI) and sends each its share; level-2 nodes do the same with their
 * jobs and run them (policies/hierarchical/leaf_scheduler.hpp). A node decides from its immediate children's messages
 * only.
 *
 * Messages: `free` (the paper's model, P identical processors and no network): every actor on one host, a message
 * costs nothing, and a node waits for its parent's answer in the same instant. `platform` (beyond the paper): the
 * actors run on the platform's site front ends (place_schedulers in hierarchy.cpp says which) and messages of
 * `message_bytes` cross its links as soon as they are sent. A node above level 2 still waits for all its children's
 * feedback before it reports and divides (Desire-Sum needs them), so a round's decision at the root comes the longest
 * upward path after the boundary. Nobody waits for allotments: a daemon on each node's host receives them, and the node
 * applies what has arrived at its next decision (a level-2 node at its next boundary). Quanta stay on the clock; what
 * latency costs is staleness: an allotment answers desires one round trip old, and a job released to an idle subtree
 * (allotted nothing: DEQ gives no more than the desire 0) waits a round trip, rounded up to a boundary, before it runs.
 *
 * Quanta: level k's is L QF^(k - 2), all starting at time 0, so a parent's boundaries are also its children's.
 * Feedback a child sends is the latest at its parent's boundary (the paper discards older ones: the child sends only
 * then). Reallocation cost (section 4.3(4), our reading): a job stalls x L CF when its allotment changes by x; a
 * level-2 node's delay is the sum of its jobs' stalls since its last report; a node above sums its children's reported
 * delays (accumulating them up the tree, as the paper says), and when it changes its children's allotments, the new
 * ones reach them that much later: until then its subtree keeps the old shares (the delay stalls the delivery of the
 * node's decision, not the jobs).
 *
 * The analysis of section 3.4 (policies/hierarchical/analysis.hpp) is measured on every run and written to
 * summary.json: the largest transition factor c, Theorem 1's bound 2 (c + 1) max(release + span of the last job,
 * total work / P), Lemma 1's ratios t^S / ((c + 1) l) and a^T / ((c + 1) w) (the largest over the jobs, each with its
 * own c), and the quanta in which a job is deprived while fewer than P processors are allotted. `invariants: auto`
 * checks them where the paper's analysis applies (QF = 1, CF = 0, fractional allotments, free messages, DS + DEQ;
 * Lemma 1 and Theorem 1 under A-Control with convergence rate 0): a failure there is a bug. `invariants: on` checks
 * them on any run, which shows where the analysis stops holding; `off` never. A failed check is an InvariantViolation
 * (exit status kExitInvariantViolated, one line, no output files).
 *
 * Writes summary.json, jobs.csv (one row per job) and performance.json. One engine per process. */
#pragma once

#include "output/reports.hpp"
#include "run/simulation.hpp"
#include "scenario/scenario.hpp"

#include <stdexcept>
#include <string>

namespace jobsched {

/* A check of the paper's analysis failed (`invariants`): the launcher prints it on one line and exits with
 * kExitInvariantViolated, distinct from bad input (2) and internal errors (3): the run did what it was asked, and what
 * it found contradicts the paper. */
inline constexpr int kExitInvariantViolated = 4;

class InvariantViolation : public std::logic_error {
 public:
  explicit InvariantViolation(const std::string& what) : std::logic_error("invariant violated: " + what) {}
};

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
