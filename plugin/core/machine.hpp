/* The machine as policies see it: hosts, their cores, and the flat numbering of processors.
 *
 * Processor (resource) r belongs to host `host_of(r)`; the processors of one host are numbered consecutively, so an SMP
 * node of c cores owns c consecutive indices. Built from the SimGrid platform by the runtime, or by hand in tests. */
#pragma once

#include "core/resource_set.hpp"

#include <string>
#include <utility>
#include <vector>

namespace jobsched {

class Machine {
 public:
  Machine() = default;
  /* One entry per compute host: its name, its number of cores and its speed in flop/s per core. */
  void add_host(const std::string& name, int cores, double speed);
  static Machine uniform(int hosts, int cores_per_host = 1, double speed = 1e9);

  int host_count() const { return static_cast<int>(host_names_.size()); }
  int resource_count() const { return static_cast<int>(resource_host_.size()); }
  int host_of(int resource) const { return resource_host_[resource]; }
  int first_resource(int host) const { return first_resource_[host]; }
  int cores(int host) const { return cores_[host]; }
  double speed(int host) const { return speeds_[host]; }
  const std::string& host_name(int host) const { return host_names_[host]; }
  /* Mesh coordinates of the hosts (host properties `x` and `y` of a mesh platform), for allocators that place jobs on
   * submeshes. Either every host has a position or none has. */
  void set_position(int host, int x, int y);
  bool has_positions() const { return !positions_.empty(); }
  int x(int host) const { return positions_[host].first; }
  int y(int host) const { return positions_[host].second; }
  /* A host's architecture (its platform property `arch`; "any" when it has none): the workstations a job of that
   * architecture may run on (gang-now's pools). */
  void set_arch(int host, const std::string& arch) { archs_.at(static_cast<size_t>(host)) = arch; }
  const std::string& arch(int host) const { return archs_[static_cast<size_t>(host)]; }
  /* How many hosts the processors of `r` belong to: a host's processors are consecutive, so a run of them covers every
   * host from its first's to its last's (one step a run, not a member). */
  int hosts_spanned(const ResourceSet& r) const
  {
    int hosts = 0;
    int last_host = -1;
    r.for_each_run([&](int first, int last) {
      const int from = resource_host_[first];
      const int to = resource_host_[last];
      hosts += to - from + 1 - (from == last_host ? 1 : 0);
      last_host = to;
    });
    return hosts;
  }
  /* The processors (cores) of one host. */
  ResourceSet processors_of(int host) const
  {
    return ResourceSet::range(resource_count(), first_resource_[host], cores_[host]);
  }

 private:
  std::vector<std::string> host_names_;
  std::vector<int> cores_;
  std::vector<double> speeds_;
  std::vector<int> first_resource_;
  std::vector<int> resource_host_;
  std::vector<std::pair<int, int>> positions_; // (x, y) per host; empty when the platform gives none
  std::vector<std::string> archs_;             // per host
};

} // namespace jobsched
