/* Compute hosts and the host of jobsched's actors, from the platform's `role` properties (Batsim's convention) and
 * the deployment, so that a platform written by others runs unchanged: see host_roles.hpp for the rule. */
#include "platform/host_roles.hpp"

#include <algorithm>
#include <numeric>

XBT_LOG_NEW_DEFAULT_CATEGORY(jobsched_host_roles, "jobsched: compute hosts and the host of jobsched's actors");

namespace jobsched {

bool natural_less(const std::string& a, const std::string& b)
{
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t ie = i;
      size_t je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie])))
        ie++;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je])))
        je++;
      std::string na = a.substr(i, ie - i);
      std::string nb = b.substr(j, je - j);
      na.erase(0, std::min(na.find_first_not_of('0'), na.size()));
      nb.erase(0, std::min(nb.find_first_not_of('0'), nb.size()));
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      i++;
      j++;
    }
  }
  return a.size() - i < b.size() - j;
}

namespace {

std::vector<size_t> in_natural_order(const std::vector<HostDescription>& hosts)
{
  std::vector<size_t> order(hosts.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&hosts](size_t a, size_t b) { return natural_less(hosts[a].name, hosts[b].name); });
  return order;
}

std::vector<HostDescription> describe(const std::vector<sg4::Host*>& hosts, const std::set<sg4::Host*>& front_end)
{
  std::vector<HostDescription> out;
  out.reserve(hosts.size());
  for (auto* h : hosts) {
    const char* role = h->get_property("role");
    out.push_back({h->get_name(), role ? role : "", front_end.count(h) > 0});
  }
  return out;
}

} // namespace

std::string role_of(const HostDescription& host)
{
  if (host.role.empty() && host.name == kBatsimMasterName) return kMasterRole;
  return host.role;
}

std::vector<size_t> compute_host_indices(const std::vector<HostDescription>& hosts)
{
  std::vector<size_t> out;
  for (size_t i : in_natural_order(hosts)) {
    const std::string role = role_of(hosts[i]);
    if (!hosts[i].runs_deployed_actor && (role.empty() || role == kComputeRole)) out.push_back(i);
  }
  return out;
}

size_t actors_host_index(const std::vector<HostDescription>& hosts)
{
  std::vector<size_t> order = in_natural_order(hosts);
  auto master =
      std::find_if(order.begin(), order.end(), [&hosts](size_t i) { return role_of(hosts[i]) == kMasterRole; });
  return master != order.end() ? *master : order.at(0);
}

std::vector<sg4::Host*> compute_hosts(const sg4::Engine& engine, const std::set<sg4::Host*>& front_end)
{
  std::vector<sg4::Host*> all = engine.get_all_hosts();
  std::vector<sg4::Host*> out;
  for (size_t i : compute_host_indices(describe(all, front_end)))
    out.push_back(all[i]);
  if (XBT_LOG_ISENABLED(jobsched_host_roles, xbt_log_priority_verbose)) {
    std::string names;
    for (auto* h : out)
      names += " " + h->get_name();
    XBT_VERB("%zu compute hosts of %zu:%s", out.size(), all.size(), names.c_str());
  }
  return out;
}

sg4::Host* actors_host(const sg4::Engine& engine)
{
  std::vector<sg4::Host*> all = engine.get_all_hosts();
  if (all.empty()) return nullptr;
  sg4::Host* host = all[actors_host_index(describe(all, {}))];
  XBT_VERB("jobsched's actors run on %s", host->get_cname());
  return host;
}

} // namespace jobsched
