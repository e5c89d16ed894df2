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
  case CommPattern::mesh:
    return "mesh";
  }
  return "?";
}

std::vector<double> mesh_exchange_bytes(const std::vector<std::pair<int, int>>& positions, size_t processes,
                                        double sent_each)
{
  const size_t n = processes;
  std::vector<double> bytes(n * n, 0.0);
  if (n < 2 || !(sent_each > 0)) return bytes;
  // rank -> process, and the grid's width.
  std::vector<size_t> process(n);
  for (size_t i = 0; i < n; i++)
    process[i] = i;
  size_t width = 0;
  if (positions.size() == n) {
    int x0 = positions[0].first, x1 = x0, y0 = positions[0].second, y1 = y0;
    for (const auto& [x, y] : positions) {
      x0 = std::min(x0, x);
      x1 = std::max(x1, x);
      y0 = std::min(y0, y);
      y1 = std::max(y1, y);
    }
    std::vector<std::pair<int, int>> sorted(positions);
    std::sort(sorted.begin(), sorted.end());
    const bool distinct = std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
    if (distinct && static_cast<size_t>(x1 - x0 + 1) * static_cast<size_t>(y1 - y0 + 1) == n) {
      width = static_cast<size_t>(x1 - x0 + 1);
      std::sort(process.begin(), process.end(), [&positions](size_t a, size_t b) {
        return std::pair(positions[a].second, positions[a].first) < std::pair(positions[b].second, positions[b].first);
      });
    }
  }
  if (width == 0) { // the squarest n = w x h, w >= h
    size_t h = 1;
    for (size_t a = 1; a * a <= n; a++)
      if (n % a == 0) h = a;
    width = n / h;
  }
  const size_t height = n / width;
  for (size_t r = 0; r < n; r++) {
    const size_t x = r % width;
    const size_t y = r / width;
    std::vector<size_t> near;
    if (x > 0) near.push_back(r - 1);
    if (x + 1 < width) near.push_back(r + 1);
    if (y > 0) near.push_back(r - width);
    if (y + 1 < height) near.push_back(r + width);
    for (size_t q : near)
      bytes[process[r] * n + process[q]] += sent_each / static_cast<double>(near.size());
  }
  return bytes;
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

PlacementCost JobModel::cost(const Job& job, const ResourceSet& resources, int members) const
{
  if (members < 0 && (memory_.paging || machine_.host_count() == machine_.resource_count()))
    members = resources.count();
  // Processors are numbered host by host, so a set's members come in runs of one host each: one pass counts the
  // nodes and, with paging on, the memory each one holds.
  const bool paging = memory_.paging && job.memory_kb > 0;
  const double per_process_mb = job.memory_kb / 1024.0;
  const double job_mb = per_process_mb * (paging ? members : 0);
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
  if (paging) {
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
  } else if (machine_.host_count() == machine_.resource_count()) { // one processor a host: a node a member
    c.nodes_used = members;
  } else { // the nodes alone
    c.nodes_used = machine_.hosts_spanned(resources);
  }
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
