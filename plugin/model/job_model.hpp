/* What a placement costs a job: communication and page faults, as stretches of its run time.
 *
 * Communication (the SMP-cluster paper, "Processor allocation of parallel jobs on SMP clusters"): cost = base x nodes
 * used x Level, with base = 0.05, read as a stretch of the run time: a job of run time R on k nodes runs R x (1 + base
 * x k x Level). In the `formula` model that is all; in the `network` model the job's nodes exchange traffic over the
 * platform, sized so that on an idle machine the job lasts exactly that long, and contention with other jobs adds to
 * it.
 *
 * Page faults (the paper cites a model it does not give; this one is ours): a job whose processes on one node need
 * more than `threshold` x that node's memory pages. With f the fraction of the job's memory that does not fit (the
 * excess summed over its nodes, divided by all its memory), the run time grows by page_fault_penalty x f. Memory per
 * processor comes from the trace (SWF field 7) or, when the trace has none (KTH SP2), is drawn log-uniform in [min_mb,
 * max_mb] per job. A compact placement packs more processes per node, so it trades communication for paging. */
#pragma once

#include "core/machine.hpp"
#include "core/resource_set.hpp"
#include "model/job.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace jobsched {

/* How a job's processes talk while it computes (its ptask's bytes matrix). */
enum class CommPattern { none, ring, neighbours, all_to_all, mesh };
const char* to_string(CommPattern p);

/* How communication costs a job time (see model/job_model.hpp). */
enum class CommCostModel {
  traffic, // the job's `pattern` at `bytes_per_flop` goes through the platform's network
  formula, // the SMP-cluster paper's cost = base x nodes used x level, a stretch of the run time
  network  // traffic calibrated so that an idle machine gives the formula's stretch; contention adds to it
};

struct CommSpec {
  CommPattern pattern = CommPattern::none;
  double bytes_per_flop = 0; // bytes each process sends in total per flop it computes
  CommCostModel model = CommCostModel::traffic;
  int level = 0;      // the paper's communication Level (0 to 5)
  double base = 0.05; // the paper's BASE
};

/* Memory and paging (see model/job_model.hpp). */
struct MemorySpec {
  bool paging = false;
  double min_mb = 16; // synthetic memory per processor when the trace has none: log-uniform in [min_mb, max_mb]
  double max_mb = 256;
  double threshold = 1.0;          // fraction of a node's memory (host property memory_mb) a job may use
  double page_fault_penalty = 2.0; // run-time increase per unit of the fraction of memory that does not fit
  double node_memory_mb = 0;       // when > 0, overrides the platform's memory_mb
};

/* Where the memory images of preempted jobs go (time-sharing): nowhere (free preemption), the disks of the job's own
 * hosts, or a named image host over the network. Their transfer times and contention come from SimGrid. */
struct ImageStoreSpec {
  enum class Kind { none, local_disk, host };
  Kind kind = Kind::none;
  std::string host; // Kind::host: the host that stores the images
};

struct PlacementCost {
  int nodes_used = 0;
  double communication = 0; // fraction of the run time (formula; the network model's idle-machine target)
  double page_faults = 0;   // fraction of the run time
};

class JobModel {
 public:
  /* `node_memory_mb`: memory of each compute host (0 when unknown). */
  JobModel(const Machine& machine, CommSpec comm, MemorySpec memory, std::vector<double> node_memory_mb);

  PlacementCost cost(const Job& job, const ResourceSet& resources) const { return cost(job, resources, -1); }
  /* The same, `members` the set's count when the caller knows it (-1: counted here where needed). */
  PlacementCost cost(const Job& job, const ResourceSet& resources, int members) const;
  /* The factor by which the job's computation is stretched: 1 + page faults, + communication in the formula model. */
  double compute_stretch(const PlacementCost& c) const;
  const CommSpec& communication() const { return comm_; }

 private:
  const Machine& machine_;
  CommSpec comm_;
  MemorySpec memory_;
  std::vector<double> node_memory_mb_;
};

/* The `mesh` pattern's bytes matrix (row-major, [i * n + j] from process i to process j): a two-dimensional
 * nearest-neighbour exchange (a 5-point stencil's halo) among a job's n processes laid out as a grid, without
 * wraparound; each process sends `sent_each` bytes in all, split evenly among its 2 to 4 grid neighbours.
 * The grid: when the processes' mesh `positions` (x, y of their hosts, one entry per process; empty when unknown)
 * fill a rectangle, the rectangle itself (each process's grid neighbours are its physical neighbours: a contiguous
 * submesh); otherwise a virtual grid of width w, the squarest factorisation n = w x h with w >= h, over the processes
 * in processor order (what a job placed anywhere does: its grid neighbours may be far apart on the mesh). */
std::vector<double> mesh_exchange_bytes(const std::vector<std::pair<int, int>>& positions, size_t processes,
                                        double sent_each);

/* Base x nodes x level: the paper's table (e.g. 4 nodes at Level 1: 0.20; 10 nodes at Level 4: 2.0). */
double communication_cost(double base, int nodes, int level);

/* Give every job without a memory figure one drawn from the "memory" stream of `seed` (in job order). */
void assign_synthetic_memory(JobList& jobs, const MemorySpec& memory, std::uint64_t seed);

} // namespace jobsched
