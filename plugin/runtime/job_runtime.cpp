#include "runtime/job_runtime.hpp"

#include "core/errors.hpp"
#include "policy/cluster_state.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>

XBT_LOG_NEW_DEFAULT_CATEGORY(jobsched_runtime, "jobsched: job executions on the platform");

namespace jobsched {

namespace {
std::vector<double> host_memory_mb(const std::vector<sg4::Host*>& hosts)
{
  std::vector<double> out;
  for (auto* h : hosts) {
    const char* mb = h->get_property("memory_mb");
    out.push_back(mb != nullptr ? std::atof(mb) : 0.0);
  }
  return out;
}
} // namespace

JobRuntime::JobRuntime(const Machine& machine, std::vector<sg4::Host*> hosts, double reference_speed, CommSpec comm,
                       MemorySpec memory)
    : machine_(machine), hosts_(std::move(hosts)), reference_speed_(reference_speed),
      model_(machine, comm, memory, host_memory_mb(hosts_))
{
}

std::vector<sg4::Host*> JobRuntime::hosts_of(const ResourceSet& r) const
{
  std::vector<sg4::Host*> out;
  for (int p : r.members())
    out.push_back(hosts_[machine_.host_of(p)]);
  return out;
}

JobRuntime::Execution& JobRuntime::get(JobId id)
{
  auto it = jobs_.find(id);
  if (it == jobs_.end()) throw PolicyError("job " + std::to_string(id) + " is not on the machine");
  return it->second;
}

double JobRuntime::remaining_fraction(JobId id) const
{
  const Execution& x = jobs_.at(id);
  if (x.exec && x.exec->get_state() == sg4::Activity::State::STARTED)
    return x.remaining * x.exec->get_remaining_ratio();
  return x.remaining;
}

std::vector<double> JobRuntime::calibrated_traffic(const std::vector<sg4::Host*>& hosts, double seconds) const
{
  // One flow per node of the job, in a ring over its nodes (a one-node job talks to itself over the node's
  // loopback), each from the node's first process. Max-min sharing gives each flow, on an idle platform, the smallest
  // over its links of the link's bandwidth divided by the flows crossing it (a FATPIPE link is not shared); under L07
  // a flow of B bytes then lasts latency + B / that bandwidth. B is chosen for that to be `seconds`.
  const size_t n = hosts.size();
  std::vector<size_t> first; // first process of each distinct node
  for (size_t i = 0; i < n; i++)
    if (std::find(hosts.begin(), hosts.begin() + static_cast<long>(i), hosts[i]) ==
        hosts.begin() + static_cast<long>(i))
      first.push_back(i);
  const size_t k = first.size();
  struct Flow {
    size_t from, to;
    std::vector<sg4::Link*> links;
    double latency = 0;
  };
  std::vector<Flow> flows;
  std::map<sg4::Link*, int> crossing;
  for (size_t f = 0; f < k; f++) {
    Flow flow{first[f], k > 1 ? first[(f + 1) % k] : (n > 1 ? 1 : 0), {}, 0};
    hosts[flow.from]->route_to(hosts[flow.to], flow.links, &flow.latency);
    for (auto* l : flow.links)
      crossing[l]++;
    flows.push_back(std::move(flow));
  }
  std::vector<double> bytes(n * n, 0.0);
  for (const auto& flow : flows) {
    double bandwidth = std::numeric_limits<double>::infinity();
    for (auto* l : flow.links) {
      bool shared = l->get_sharing_policy() != sg4::Link::SharingPolicy::FATPIPE;
      bandwidth = std::min(bandwidth, l->get_bandwidth() / (shared ? crossing[l] : 1));
    }
    if (std::isinf(bandwidth)) continue; // no link on the route: nothing to wait for
    bytes[flow.from * n + flow.to] += std::max(0.0, seconds - flow.latency) * bandwidth;
  }
  return bytes;
}

void JobRuntime::launch(Execution& x)
{
  auto hosts = hosts_of(x.resources);
  const size_t n = hosts.size();
  x.cost = model_.cost(*x.job, x.resources);
  // Total work at the reference speed, shared among the processes, stretched by paging (and the formula's cost).
  const double base_seconds = x.job->run_time * x.remaining * x.job->size / static_cast<double>(n);
  const double stretch = model_.compute_stretch(x.cost);
  const double compute_seconds = base_seconds * stretch;
  const CommSpec& comm = model_.communication();
  const double flops_each = compute_seconds * reference_speed_;
  std::vector<double> flops(n, flops_each);
  std::vector<double> bytes;
  const double sent_each = comm.bytes_per_flop * flops_each;
  if (comm.model == CommCostModel::network && x.cost.communication > 0) {
    bytes = calibrated_traffic(hosts, base_seconds * (stretch + x.cost.communication));
  } else if (comm.model == CommCostModel::traffic && comm.pattern != CommPattern::none && sent_each > 0 && n > 1) {
    bytes.assign(n * n, 0.0);
    for (size_t i = 0; i < n; i++) {
      switch (comm.pattern) {
      case CommPattern::ring:
        bytes[i * n + (i + 1) % n] += sent_each;
        break;
      case CommPattern::neighbours:
        bytes[i * n + (i + 1) % n] += sent_each / 2;
        bytes[i * n + (i + n - 1) % n] += sent_each / 2;
        break;
      case CommPattern::all_to_all:
        for (size_t j = 0; j < n; j++)
          if (j != i) bytes[i * n + j] = sent_each / static_cast<double>(n - 1);
        break;
      case CommPattern::none:
        break;
      }
    }
  }
  x.exec = sg4::this_actor::exec_init(hosts, flops, bytes);
  x.exec->set_name("job-" + std::to_string(x.job->id));
  x.exec->start();
  x.segment_start = sg4::Engine::get_clock();
  x.suspended = false;
  XBT_DEBUG("job %ld runs on %zu processors (%s), %.3g of its work left", static_cast<long>(x.job->id), n,
            x.resources.to_string().c_str(), x.remaining);
}

void JobRuntime::stop_exec(Execution& x)
{
  if (!x.exec) return;
  if (x.exec->get_state() == sg4::Activity::State::STARTED) {
    x.remaining *= x.exec->get_remaining_ratio();
    if (!x.suspended) x.used_time += sg4::Engine::get_clock() - x.segment_start;
    x.exec->cancel();
  }
  x.exec = nullptr;
}

void JobRuntime::start(const Job& job, const ResourceSet& resources)
{
  if (jobs_.count(job.id) != 0) throw PolicyError("job " + std::to_string(job.id) + " started twice");
  Execution& x = jobs_[job.id];
  x.job = &job;
  x.resources = resources;
  launch(x);
}

void JobRuntime::kill(JobId id)
{
  Execution& x = get(id);
  stop_exec(x);
  for (auto& c : x.transfers)
    c->cancel();
  jobs_.erase(id);
}

void JobRuntime::suspend(JobId id)
{
  Execution& x = get(id);
  if (x.suspended || !x.exec)
    throw PolicyError("job " + std::to_string(id) + " cannot be suspended: it is not executing");
  x.exec->suspend();
  x.used_time += sg4::Engine::get_clock() - x.segment_start;
  x.suspended = true;
}

void JobRuntime::resume(JobId id)
{
  Execution& x = get(id);
  if (!x.suspended) throw PolicyError("job " + std::to_string(id) + " cannot be resumed: it is not suspended");
  x.exec->resume();
  x.segment_start = sg4::Engine::get_clock();
  x.suspended = false;
}

void JobRuntime::resize(JobId id, const ResourceSet& resources)
{
  Execution& x = get(id);
  if (!x.transfers.empty()) throw PolicyError("job " + std::to_string(id) + " cannot be resized while it migrates");
  stop_exec(x);
  x.resources = resources;
  launch(x);
}

void JobRuntime::migrate(JobId id, const ResourceSet& resources, double image_bytes)
{
  Execution& x = get(id);
  if (!x.transfers.empty()) throw PolicyError("job " + std::to_string(id) + " is already migrating");
  auto from = hosts_of(x.resources);
  auto to = hosts_of(resources);
  stop_exec(x);
  x.resources = resources;
  // Each new process receives its share of the image from the old process of the same rank (wrapping around).
  for (size_t i = 0; i < to.size(); i++) {
    sg4::Host* src = from[i % from.size()];
    if (src != to[i] && image_bytes > 0)
      x.transfers.push_back(sg4::Comm::sendto_async(src, to[i], image_bytes / static_cast<double>(to.size())));
  }
  x.segment_start = sg4::Engine::get_clock();
  if (x.transfers.empty()) launch(x);
}

std::vector<sg4::ActivityPtr> JobRuntime::activities() const
{
  std::vector<sg4::ActivityPtr> out;
  for (const auto& [id, x] : jobs_) {
    if (x.exec) out.push_back(x.exec);
    for (const auto& c : x.transfers)
      out.push_back(c);
  }
  return out;
}

double JobRuntime::next_deadline() const
{
  double next = std::numeric_limits<double>::infinity();
  for (const auto& [id, x] : jobs_)
    if (x.job->kill_at_estimate && x.exec && !x.suspended)
      next = std::min(next, x.segment_start + (x.job->estimate - x.used_time));
  return next;
}

std::vector<std::pair<JobId, JobFate>> JobRuntime::collect_ended()
{
  using State = sg4::Activity::State;
  std::vector<std::pair<JobId, JobFate>> ended;
  const double now = sg4::Engine::get_clock();
  // An s4u activity learns that it ended only when it is waited on or tested, and wait_any returned for one of them:
  // test the others (test_any costs one call per ended activity) so that all those ending now are collected together.
  std::vector<sg4::ActivityPtr> started;
  for (const auto& a : activities())
    if (a->get_state() == State::STARTED) started.push_back(a);
  while (!started.empty()) {
    ssize_t i = -1;
    try {
      i = sg4::Activity::test_any(started);
    } catch (const simgrid::Exception&) {
      // a lost host or link: that activity is now FAILED
    }
    auto still = std::remove_if(started.begin(), started.end(),
                                [](const sg4::ActivityPtr& a) { return a->get_state() != State::STARTED; });
    if (i < 0 && still == started.end()) break;
    started.erase(still, started.end());
  }
  for (auto& [id, x] : jobs_) {
    if (!x.transfers.empty()) {
      bool failed = std::any_of(x.transfers.begin(), x.transfers.end(),
                                [](const sg4::CommPtr& c) { return c->get_state() == State::FAILED; });
      bool done = std::all_of(x.transfers.begin(), x.transfers.end(),
                              [](const sg4::CommPtr& c) { return c->get_state() == State::FINISHED; });
      if (failed) {
        ended.emplace_back(id, JobFate::failed);
      } else if (done) {
        x.transfers.clear();
        launch(x);
      }
      continue;
    }
    if (!x.exec) continue;
    State s = x.exec->get_state();
    if (s == State::FINISHED)
      ended.emplace_back(id, JobFate::completed);
    else if (s == State::FAILED)
      ended.emplace_back(id, JobFate::failed);
    else if (x.job->kill_at_estimate && !x.suspended &&
             x.used_time + (now - x.segment_start) >= x.job->estimate - kTimeEpsilon)
      ended.emplace_back(id, JobFate::walltime_reached);
  }
  for (const auto& [id, fate] : ended) {
    Execution& x = jobs_[id];
    if (fate != JobFate::completed) {
      stop_exec(x);
      for (auto& c : x.transfers)
        if (c->get_state() == State::STARTED) c->cancel();
    }
    jobs_.erase(id);
  }
  return ended;
}

} // namespace jobsched
