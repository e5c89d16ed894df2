#include "model/job_model.hpp"

#include "core/errors.hpp"
#include "core/random.hpp"

#include <algorithm>
#include <map>

namespace jobsched {

const char* to_string(CommPattern p)
{
  switch (p) {
  case CommPattern::none:
    return "none";
  case CommPattern::ring:
    return "ring";
  case CommPattern::neighbours:
    return "neighbours";
  case CommPattern::all_to_all:
    return "all-to-all";
  }
  return "?";
}

double communication_cost(double base, int nodes, int level)
{
  return base * nodes * level;
}

JobModel::JobModel(const Machine& machine, CommSpec comm, MemorySpec memory, std::vector<double> node_memory_mb)
    : machine_(machine), comm_(comm), memory_(memory), node_memory_mb_(std::move(node_memory_mb))
{
  if (memory_.paging)
    for (int h = 0; h < machine_.host_count(); h++) {
      if (memory_.node_memory_mb > 0) node_memory_mb_[h] = memory_.node_memory_mb;
      if (!(node_memory_mb_[h] > 0))
        throw InputError("workload.memory: paging needs each host's memory: a memory_mb property on host " +
                         machine_.host_name(h) + " in the platform, or workload.memory.node_memory_mb");
    }
}

PlacementCost JobModel::cost(const Job& job, const ResourceSet& resources) const
{
  // Processors are numbered host by host, so a set's members come in runs of one host each: one pass counts the
  // nodes and, with paging on, the memory each one holds.
  const bool paging = memory_.paging && job.memory_kb > 0;
  const double per_process_mb = job.memory_kb / 1024.0;
  const double job_mb = per_process_mb * (paging ? resources.count() : 0);
  PlacementCost c;
  int host = -1;
  int processes = 0;
  auto close_node = [&] {
    if (host < 0) return;
    c.nodes_used++;
    if (!paging) return;
    double used = per_process_mb * processes;
    double limit = node_memory_mb_[host] * memory_.threshold;
    if (used > limit) c.page_faults += memory_.page_fault_penalty * (used - limit) / job_mb;
  };
  resources.for_each([&](int p) {
    int h = machine_.host_of(p);
    if (h != host) {
      close_node();
      host = h;
      processes = 0;
    }
    processes++;
  });
  close_node();
  if (comm_.model != CommCostModel::traffic)
    c.communication = communication_cost(comm_.base, c.nodes_used, comm_.level);
  return c;
}

double JobModel::compute_stretch(const PlacementCost& c) const
{
  return 1.0 + c.page_faults + (comm_.model == CommCostModel::formula ? c.communication : 0.0);
}

void assign_synthetic_memory(JobList& jobs, const MemorySpec& memory, std::uint64_t seed)
{
  RandomStream stream(seed, "memory");
  for (auto& j : jobs)
    if (!(j.memory_kb > 0)) j.memory_kb = stream.log_uniform(memory.min_mb, memory.max_mb) * 1024.0;
}

} // namespace jobsched
