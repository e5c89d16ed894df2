#include "runtime/execution/job_runtime.hpp"
#include "runtime/execution/work_account.hpp"

#include "core/errors.hpp"
#include "core/time.hpp"
#include "core/time_format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <stdexcept>
#include <utility>

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
/* Started or not yet started: the activity may still end. */
bool in_progress(const sg4::ActivityPtr& a)
{
  using State = sg4::Activity::State;
  return a->get_state() != State::FINISHED && a->get_state() != State::FAILED && a->get_state() != State::CANCELED;
}
/* Each of `parts` destinations' share of an image of `bytes` (> 0), in whole bytes and at least one: SimGrid's L07
 * model never completes a message of 0 bytes over a route without latency (the job waiting for it would never compute
 * again), and a share below a byte, truncated, would be one. */
uint64_t image_share(double bytes, size_t parts)
{
  return std::max<uint64_t>(1, static_cast<uint64_t>(bytes / static_cast<double>(parts)));
}
} // namespace

JobRuntime::JobRuntime(const Machine& machine, std::vector<sg4::Host*> hosts, double reference_speed, CommSpec comm,
                       MemorySpec memory, ImageStoreSpec images, ExecutionMode mode)
    : machine_(machine), hosts_(std::move(hosts)), reference_speed_(reference_speed),
      model_(machine, comm, memory, host_memory_mb(hosts_)), images_(std::move(images))
{
  const bool traffic =
      comm.model == CommCostModel::network ||
      (comm.model == CommCostModel::traffic && comm.pattern != CommPattern::none && comm.bytes_per_flop > 0);
  if (mode == ExecutionMode::timer && traffic)
    throw InputError("simulation.execution: timer cannot model the traffic of workload.communication (use auto or "
                     "ptask)");
  timers_ = mode == ExecutionMode::timer || (mode == ExecutionMode::automatic && !traffic);
  // Speed and state changes (profiles, failures): timed executions are re-timed, and the jobs on a host that went off
  // fail (their SimGrid activities are not touched again: testing an activity that failed with its host crashes
  // SimGrid 3.32). SimGrid calls these in its kernel, so they only note the host; the list is shared, as it outlives
  // this runtime if SimGrid calls later.
  changed_hosts_ = std::make_shared<std::vector<const sg4::Host*>>();
  auto noted = [list = changed_hosts_](const sg4::Host& h) { list->push_back(&h); };
  sg4::Host::on_speed_change_cb(noted);
  sg4::Host::on_state_change_cb(noted);
  if (images_.kind == ImageStoreSpec::Kind::host) {
    image_host_ = sg4::Host::by_name_or_null(images_.host);
    if (image_host_ == nullptr)
      throw InputError("simulation.images.host: no host named '" + images_.host + "' in the platform");
    // Every compute host must reach it (SimGrid would fail the first transfer in the middle of the run).
    sg4::Engine::get_instance()->seal_platform();
    for (auto* h : hosts_) {
      std::vector<sg4::Link*> links;
      double latency = 0;
      try {
        h->route_to(image_host_, links, &latency);
      } catch (const std::exception& e) {
        throw InputError("simulation.images.host: host " + h->get_name() + " has no route to " + images_.host + " (" +
                         std::string(e.what()).substr(0, std::string(e.what()).find('\n')) + ")");
      }
    }
  }
  if (images_.kind == ImageStoreSpec::Kind::local_disk)
    for (auto* h : hosts_)
      if (h->get_disks().empty())
        throw InputError("simulation.images: local-disk needs a disk on every compute host; host " + h->get_name() +
                         " has none");
}

const WorkloadJob& JobRuntime::truth(JobId id) const
{
  const Job* job = table_.job_of(id);
  if (job == nullptr) throw PolicyError("job " + std::to_string(id) + " is not known to the runtime");
  return static_cast<const WorkloadJob&>(*job);
}

JobState& JobRuntime::admit(const WorkloadJob& job)
{
  JobState* s = table_.find(job.id);
  return s != nullptr ? *s : table_.add(job);
}

std::vector<sg4::Host*> JobRuntime::hosts_of(const ResourceSet& r) const
{
  std::vector<sg4::Host*> out;
  r.for_each([&](int p) { out.push_back(hosts_[machine_.host_of(p)]); });
  return out;
}

JobRuntime::Execution& JobRuntime::get(JobId id)
{
  std::pair<JobId, Execution*>& cached = get_cache_slot(id);
  if (cached.second != nullptr && cached.first == id) return *cached.second;
  auto it = jobs_.find(id);
  if (it == jobs_.end()) throw PolicyError("job " + std::to_string(id) + " is not on the machine");
  cached = {id, &it->second};
  return it->second;
}

double JobRuntime::earliest_running_start() const
{
  if (!cycle_state_.empty()) return -std::numeric_limits<double>::infinity();
  double earliest = clock_now();
  for (const auto& [id, x] : jobs_)
    if (state(x).status == JobStatus::running) earliest = std::min(earliest, x.since);
  return earliest;
}

double JobRuntime::remaining_fraction(JobId id) const
{
  auto g = groups_.find(id);
  if (g == groups_.end()) return work_left(jobs_.at(id));
  double left = 0; // the mean over its processes
  for (size_t p = 0; p < g->second.processor.size(); p++) {
    const Execution* e = g->second.exec[p];
    left += e != nullptr ? work_left(*e) : g->second.processor[p] == kProcessEnded ? 0.0 : 1.0;
  }
  return g->second.processor.empty() ? 0.0 : left / static_cast<double>(g->second.processor.size());
}

double JobRuntime::work_left(const Execution& x) const
{
  if (phased(x)) {
    double done = x.work_done;
    const auto& profile = x.job->profile;
    if (x.timer_end >= 0 && x.segment < profile.span.size())
      done += std::min((clock_now() - x.timer_start) * x.span_rate, profile.span[x.segment] - x.segment_done) *
              profile.parallelism[x.segment];
    return x.profile_work > 0 ? std::max(0.0, 1 - done / x.profile_work) : 0.0;
  }
  if (x.timer_end >= 0) return x.remaining * timer_left(x);
  if (x.exec && x.exec->get_state() == sg4::Activity::State::STARTED)
    return x.remaining * x.exec->get_remaining_ratio();
  return x.remaining;
}

/* cycle_close() does the same for a job whose cycles are replayed, through the same two functions. */
void JobRuntime::account(Execution& x, double length) const
{
  // The segment's length at the rate the job would have progressed on its requested processors without the policy's
  // slowdown; the fraction of its work done, at its run time stretched by the paging of this placement. On one
  // segment from start to finish (every space-sharing job) these are exactly its execution time and its run time x
  // (1 + paging), as the outputs computed them before there was an account.
  // A rescaled length is rounded to the nanosecond, SimGrid's timing precision: the clock's last bits differ between
  // timers and ptasks, and would otherwise tip a figure of jobs.csv over its sixth decimal one way or the other.
  if (phased(x)) { // its dedicated time: its run time (alone on its requested processors) x the work done
    const double left = work_left(x);
    const double done = x.remaining_at_segment - left;
    x.remaining_at_segment = left;
    x.account.dedicated_time += done * x.job->run_time;
    x.account.paged_run_time += done * x.job->run_time;
    return;
  }
  const double dedicated = dedicated_length(length, x.dedicated_rate);
  x.account.dedicated_time += dedicated;
  const double paging = state(x).cost.page_faults;
  if (x.failing) { // its work went with its host, and a failed ptask's progress cannot be read: no communication
    x.account.paged_run_time += dedicated;
    x.account.page_fault_time += dedicated * paging / (1.0 + paging);
    return;
  }
  add_work_done(x.account, x.remaining_at_segment, work_left(x), x.job->run_time, paging);
}

void JobRuntime::settle(Execution& x)
{
  JobState& s = state(x);
  s.account = x.account;
  if (x.held_throughout) s.allocated = s.processors.to_string();
}

void JobRuntime::enter(Execution& x, JobStatus status, const ResourceSet* processors, bool differs)
{
  JobState& s = state(x);
  const double now = clock_now();
  const double length = now - x.since;
  switch (s.status) {
  case JobStatus::running:
    s.service += length;
    account(x, length);
    break;
  case JobStatus::switching:
    s.counters.switching_time += length;
    break;
  case JobStatus::transferring:
    s.counters.transfer_time += length;
    break;
  default:
    break;
  }
  bool open = s.status == JobStatus::running || s.status == JobStatus::suspended || s.status == JobStatus::switching ||
              s.status == JobStatus::transferring;
  const bool finishing = status == JobStatus::finished;
  if (finishing) settle(x);
  // A running segment on shares holds their processor-seconds, not its processors' (Plan::share).
  double area = -1;
  if (s.status == JobStatus::running && (x.share >= 0 || x.share_area > 0))
    area = x.share_area + (now - std::max(x.since, x.share_since)) *
                              (x.share >= 0 ? x.share : static_cast<double>(s.processors.count()));
  x.share_area = 0;
  x.share_since = now;
  if (open && length > 0) emit_segment(trace_id(x), x.since, now, s.processors, s.status, area, !finishing);
  if (processors != nullptr && (differs || *processors != s.processors)) {
    // The cached speed was for the old processors, unless every host runs at one speed (slowest_speed_of()'s
    // uniform_host_speed_, read in the epoch the cache is of) and both sets have members: then it is that speed for
    // the new ones too, without a call (Cao's jobs move at nearly every quantum).
    const bool same_speed = x.speed_epoch == host_epoch_ && host_speed_epoch_ == host_epoch_ &&
                            uniform_host_speed_ >= 0 && !s.processors.empty() && !processors->empty();
    s.processors = *processors;
    x.held_throughout = false;
    if (!same_speed) x.speed_epoch = ~0U;
    x.cost_valid = false; // the placement cost was for the old processors
  }
  s.status = status;
  if (finishing) {
    // Moving out releases the set's heap storage (assigning an empty set would keep its capacity).
    ResourceSet released_processors = std::move(s.processors);
    s.processors = ResourceSet();
  }
  s.image_out = false;
  x.since = now;
  note_computes(x);
}

void JobRuntime::emit_segment(JobId id, double since, double now, ResourceSet& processors, JobStatus status,
                              double area, bool keep_processors)
{
  if (trace_sink_) { // the job's processors lent to its segment, not copied (a heap allocation)
    TraceSegment segment{id, since, now, std::move(processors), status, area};
    trace_sink_(segment);
    if (keep_processors) processors = std::move(segment.processors);
  } else if (running_sink_) {
    if (status == JobStatus::running) running_sink_(processors, since, now);
    segments_total_++;
  } else if (segment_totals_) { // busy_area() of the segment
    if (status == JobStatus::running)
      running_area_total_ += area >= 0 ? area : held_processor_seconds(area, processors.count(), since, now);
    segments_total_++;
  }
}

void JobRuntime::close_trace()
{
  for (auto& [id, x] : jobs_) {
    enter(x, state(x).status);
    settle(x); // no policy plans after this
  }
  for (auto& [id, g] : groups_)
    sync_group(g);
}

std::vector<sg4::ActivityPtr> JobRuntime::move_image(const std::vector<sg4::Host*>& from,
                                                     const std::vector<sg4::Host*>& to, double bytes) const
{
  // Each new process receives its share of the image from the old process of the same rank (wrapping around).
  std::vector<sg4::ActivityPtr> out;
  if (!(bytes > 0) || from.empty()) return out;
  const uint64_t share = image_share(bytes, to.size());
  for (size_t i = 0; i < to.size(); i++)
    if (from[i % from.size()] != to[i]) {
      require_route(from[i % from.size()], to[i]);
      out.push_back(sg4::Comm::sendto_async(from[i % from.size()], to[i], share));
    }
  return out;
}

bool JobRuntime::image_lost(Execution& x, const std::vector<sg4::Host*>& hosts)
{
  if (std::all_of(hosts.begin(), hosts.end(), [](const sg4::Host* h) { return h->is_on(); })) return false;
  x.host_failed = true;
  return true;
}

void JobRuntime::require_route(sg4::Host* from, sg4::Host* to, const Job* traffic_of) const
{
  // Checked when an image or a job's traffic first crosses between the two hosts, not for every pair at set-up: a
  // policy that moves processes may move them between any two hosts of one architecture, a job may run on any
  // compute hosts, and checking all pairs of 10,000 hosts took 18 s. Without a route SimGrid would fail the transfer,
  // and an empty route would make it free. The run's files are written in a hidden folder that replaces the outputs
  // only when the run ends (output/run_folder.hpp): an error here leaves none.
  // Looked up before inserting: emplace() makes a node and frees it again for a pair already there, at every pair of
  // every execution of a job with traffic (4% of an all-to-all run's instructions on 128 hosts).
  const std::pair<const sg4::Host*, const sg4::Host*> pair{from, to};
  if (routed_pairs_.count(pair) != 0) return;
  routed_pairs_.insert(pair);
  std::vector<sg4::Link*> links;
  double latency = 0;
  bool routed = true;
  try {
    from->route_to(to, links, &latency);
  } catch (const std::exception&) {
    routed = false;
  }
  if (!routed || links.empty())
    throw InputError(platform_file_ + ": no route between hosts " + from->get_name() + " and " + to->get_name() + " (" +
                     (traffic_of == nullptr ? std::string("an image moves")
                                            : "job " + std::to_string(traffic_of->id) + "'s processes send messages") +
                     " from one to the other at " + format_exact(clock_now()) +
                     " s: " + (traffic_of == nullptr ? "it" : "workload.communication's traffic") +
                     " crosses the platform over a route of links)");
}

void JobRuntime::require_traffic_routes(const Execution& x, const std::vector<sg4::Host*>& hosts,
                                        const std::vector<double>& bytes) const
{
  // One pass over the matrix SimGrid reads next anyway (and routes each of its pairs with bytes, at every execution):
  // a pair already checked costs a lookup.
  const size_t n = hosts.size();
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++)
      if (bytes[i * n + j] > 0 && hosts[i] != hosts[j]) require_route(hosts[i], hosts[j], x.job);
}

void JobRuntime::add_preparation(Execution& x, Preparation prep, const std::vector<sg4::Host*>& image_from)
{
  JobState& s = state(x);
  if (!(prep.slowdown >= 1) || std::isinf(prep.slowdown))
    throw PolicyError("job " + std::to_string(x.job->id) + ": slowdown " + std::to_string(prep.slowdown) +
                      " is not a finite factor >= 1");
  x.slowdown = prep.slowdown;
  x.share = prep.share;
  if (!prep.after.empty())
    x.stages.push_back({JobStatus::transferring, [after = std::move(prep.after)] { return after; }, false});
  if (prep.image_bytes >= 0) x.image_bytes = prep.image_bytes;
  const double bytes = prep.image_bytes >= 0 ? prep.image_bytes : x.job->image_bytes();
  if (prep.read_image && images_enabled() && bytes > 0) {
    s.counters.bytes_moved += bytes;
    x.stages.push_back({JobStatus::transferring, [this, &x, bytes, image_from] {
                          auto to = hosts_of(state(x).processors);
                          std::vector<sg4::ActivityPtr> out;
                          if (image_lost(x, to) ||
                              (images_.kind == ImageStoreSpec::Kind::host ? image_lost(x, {image_host_})
                                                                          : image_lost(x, image_from)))
                            return out;
                          const uint64_t share = image_share(bytes, to.size());
                          if (images_.kind == ImageStoreSpec::Kind::host) {
                            for (auto* h : to)
                              out.push_back(sg4::Comm::sendto_async(image_host_, h, share));
                          } else {
                            // Read where it was written; a job resumed elsewhere then moves it over the network.
                            for (auto* h : image_from)
                              out.push_back(h->get_disks().front()->read_async(share));
                          }
                          return out;
                        }});
    if (images_.kind == ImageStoreSpec::Kind::local_disk)
      x.stages.push_back({JobStatus::transferring, [this, &x, bytes, image_from] {
                            auto to = hosts_of(state(x).processors);
                            if (image_lost(x, image_from) || image_lost(x, to)) return std::vector<sg4::ActivityPtr>();
                            return move_image(image_from, to, bytes);
                          }});
  }
  if (prep.stall > 0) // a stall is time, whatever the hosts' speed: a timer on both execution paths
    x.stages.push_back({JobStatus::switching, nullptr, true, prep.stall});
}

void JobRuntime::advance(Execution& x)
{
  while (!x.stages.empty()) {
    Stage stage = std::move(x.stages.front());
    x.stages.pop_front();
    bool out = !x.compute_after;
    enter(x, stage.status);
    state(x).image_out = out;
    note_computes(x);
    if (stage.timer > 0) {
      x.stall_end = clock_now() + stage.timer;
      push_timer(x, x.stall_end);
      return;
    }
    x.pending = stage.begin();
    x.pending_owned = stage.owned;
    if (std::any_of(x.pending.begin(), x.pending.end(), in_progress)) {
      preparing_.insert(x.job->id);
      return;
    }
    x.pending.clear();
  }
  if (x.compute_after)
    launch(x);
  else
    enter(x, JobStatus::suspended);
}

void JobRuntime::drop_preparation(Execution& x)
{
  if (x.pending_owned)
    for (auto& a : x.pending)
      if (a->get_state() == sg4::Activity::State::STARTED) a->cancel();
  x.pending.clear();
  x.stages.clear();
  preparing_.erase(x.job->id);
  if (x.stall_end >= 0) {
    x.stall_end = -1;
    drop_timer(x);
  }
}

std::vector<double> JobRuntime::calibrated_traffic(const Execution& x, const std::vector<sg4::Host*>& hosts,
                                                   double seconds) const
{
  // One flow per node of the job, in a ring over its nodes (a one-node job talks to itself over the node's
  // loopback), each from the node's first process. Max-min sharing gives each flow, on an idle platform, the smallest
  // over its links of the link's bandwidth divided by the flows crossing it (a FATPIPE link is not shared); under L07
  // a flow of B bytes then lasts latency + B / that bandwidth. B is chosen for that to be `seconds`.
  const size_t n = hosts.size();
  // First process of each distinct node: a host's processors are numbered consecutively (Machine), so its processes
  // are next to each other in `hosts` (one comparison each, not a search of those before: 5e7 for 10,000 cores).
  std::vector<size_t> first;
  for (size_t i = 0; i < n; i++)
    if (i == 0 || hosts[i] != hosts[i - 1]) first.push_back(i);
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
    if (hosts[flow.from] != hosts[flow.to]) require_route(hosts[flow.from], hosts[flow.to], x.job); // or it is free
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
  enter(x, JobStatus::running);
  compute(x);
  if (x.job->kill_at_estimate) wall_time_jobs_++; // running now (a job moved while it computes stays counted)
}

void JobRuntime::compute(Execution& x)
{
  JobState& s = state(x);
  x.computed_since_dispatch = true;
  fruitless_dispatches_ = 0;
  const auto n = static_cast<size_t>(s.processors.count());
  x.remaining_at_segment = x.remaining;
  if (!x.cost_valid) { // depends on the processors only: a job resumed where it was keeps it
    // Copied field by field: the struct read back in 16-byte loads across the 8-byte stores that had just written it
    // waited for them to land (a Cao job moves at nearly every quantum, and this was a third of compute()'s time). The
    // empty asm keeps the compiler from merging the two doubles' loads into one again.
    static_assert(sizeof(PlacementCost) == 24, "a field added to PlacementCost must be copied here too");
    const PlacementCost cost = model_.cost(*x.job, s.processors, static_cast<int>(n)); // (n: not counted again)
    s.cost.nodes_used = cost.nodes_used;
    s.cost.communication = cost.communication;
    asm volatile("" ::: "memory");
    s.cost.page_faults = cost.page_faults;
    x.cost_valid = true;
  }
  if (phased(x)) { // its profile says how fast it goes: timed segment by segment
    if (!timers_)
      throw InputError("job " + std::to_string(x.job->id) +
                       " has a parallelism profile: such jobs execute on timers only (simulation.execution auto or "
                       "timer, and no workload.communication traffic)");
    // Its account is its work done (account()), without a dedicated rate: none is worked out (two speedups and a
    // division per move). Nothing else reads it for such a job (its cycles are not replayed: cycle_begin()).
    start_timer(x);
    return;
  }
  // Alone on its requested processors it would progress S(size) / S(n) times as fast, and without the policy's
  // slowdown: its account counts this segment's seconds at that rate (exactly 1 on its requested processors).
  x.dedicated_rate =
      static_cast<int>(n) == x.job->size ? 1.0 : x.job->speedup(static_cast<double>(n)) / x.job->speedup(x.job->size);
  if (x.slowdown != 1.0) x.dedicated_rate /= x.slowdown;
  // The remaining work at the reference speed over the speedup on n processors (for a linear job: run time x size
  // / n), stretched by paging (and the formula's cost). cycle_launch() repeats this arithmetic for replayed cycles:
  // tests/runtime/test_cycles.cpp compares the two bit for bit.
  const double base_seconds =
      x.job->run_time * x.remaining * x.job->speedup(x.job->size) / x.job->speedup(static_cast<double>(n));
  const double stretch = model_.compute_stretch(s.cost);
  const double compute_seconds = base_seconds * stretch * x.slowdown;
  const CommSpec& comm = model_.communication();
  const double flops_each = compute_seconds * reference_speed_;
  if (timers_) {
    x.timer_flops = flops_each;
    start_timer(x);
    return;
  }
  auto hosts = hosts_of(s.processors);
  std::vector<double> flops(n, flops_each);
  std::vector<double> bytes;
  const double sent_each = comm.bytes_per_flop * flops_each;
  if (comm.model == CommCostModel::network && s.cost.communication > 0) {
    bytes = calibrated_traffic(x, hosts, base_seconds * x.slowdown * (stretch + s.cost.communication));
  } else if (comm.model == CommCostModel::traffic && comm.pattern == CommPattern::mesh && sent_each > 0 && n > 1) {
    std::vector<std::pair<int, int>> positions;
    if (machine_.has_positions())
      s.processors.for_each(
          [&](int p) { positions.emplace_back(machine_.x(machine_.host_of(p)), machine_.y(machine_.host_of(p))); });
    bytes = mesh_exchange_bytes(positions, n, sent_each);
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
      case CommPattern::mesh:
        break;
      }
    }
  }
  if (comm.model == CommCostModel::traffic && !bytes.empty()) require_traffic_routes(x, hosts, bytes);
  x.exec = sg4::this_actor::exec_init(hosts, flops, bytes);
  x.exec->set_name("job-" + std::to_string(x.job->id));
  x.exec->start();
  XBT_DEBUG("job %ld runs on %zu processors (%s), %.3g of its work left", static_cast<long>(x.job->id), n,
            s.processors.to_string().c_str(), x.remaining);
}

void JobRuntime::push_timer(Execution& x, double end)
{
  // A job re-timed (a new share at every quantum) moves its one entry: the heap holds the live timers only.
  timer_heap_.set(x, x.job->id, end);
}

void JobRuntime::drop_timer(Execution& x)
{
  timer_heap_.erase(x);
}

void JobRuntime::erase_execution(Execution& x)
{
  drop_timer(x); // (none is left by now, but an entry must not outlive its execution)
  std::pair<JobId, Execution*>& cached = get_cache_slot(x.job->id);
  if (cached.second == &x) cached = {0, nullptr};
  jobs_.erase(x.job->id);
}

void JobRuntime::erase_process_execution(ProcessGroup& g, Execution& x)
{
  const auto p = static_cast<size_t>(x.process);
  g.exec[p] = nullptr;
  g.computing[p] = 0;
  erase_execution(x);
  process_executions_--;
}

double JobRuntime::slowest_speed_of(const ResourceSet& processors, bool& off)
{
  if (host_speed_epoch_ != host_epoch_) { // every host's available speed, -1 when off, read from SimGrid once
    host_speed_.resize(hosts_.size());
    for (size_t h = 0; h < hosts_.size(); h++)
      host_speed_[h] = hosts_[h]->is_on() ? hosts_[h]->get_speed() * hosts_[h]->get_available_speed() : -1;
    host_speed_epoch_ = host_epoch_;
    uniform_host_speed_ = host_speed_.empty() ? -1 : host_speed_[0];
    for (double v : host_speed_)
      if (v != uniform_host_speed_) uniform_host_speed_ = -1;
  }
  double speed = std::numeric_limits<double>::infinity();
  off = false;
  if (uniform_host_speed_ >= 0 && !processors.empty()) {
    speed = uniform_host_speed_;
  } else {
    // Processors are numbered host by host: a run of them covers the hosts from its first's to its last's.
    processors.for_each_run([&](int first, int last) {
      for (int h = machine_.host_of(first), end = machine_.host_of(last); h <= end; h++) {
        off |= host_speed_[static_cast<size_t>(h)] < 0;
        speed = std::min(speed, std::max(0.0, host_speed_[static_cast<size_t>(h)]));
      }
    });
  }
  return speed;
}

void JobRuntime::start_timer(Execution& x)
{
  // Under L07 each process computes at its host's available speed and the task ends with the slowest one. That speed
  // is kept until the job's processors or some host change (gang scheduling resumes jobs where they were, often).
  if (x.speed_epoch != host_epoch_) {
    x.slowest_speed = slowest_speed_of(state(x).processors, x.on_host_off);
    x.speed_epoch = host_epoch_;
  }
  x.host_failed = x.host_failed || x.on_host_off;
  if (phased(x)) {
    start_phase_timer(x);
    return;
  }
  double speed = x.slowest_speed;
  if (x.owner >= 0) { // a process: its share of its host's CPU
    if (x.sharing_host < 0) join_host_share(x);
    const auto h = static_cast<size_t>(x.sharing_host);
    const auto sharers = static_cast<int>(host_sharers_[h].size());
    const int cores = machine_.cores(x.sharing_host);
    if (sharers > cores) speed = speed * cores / sharers;
  }
  const double now = clock_now();
  x.timer_start = now;
  x.timer_end = x.host_failed ? now : speed > 0 ? now + x.timer_flops / speed : std::numeric_limits<double>::infinity();
  if (std::isfinite(x.timer_end))
    push_timer(x, x.timer_end); // (a re-timed job's entry moves)
  else
    drop_timer(x);
}

void JobRuntime::start_phase_timer(Execution& x)
{
  const double now = clock_now();
  const ParallelismProfile& profile = x.job->profile;
  x.timer_start = now;
  const double h = profile.parallelism[x.segment];
  const double a = x.share >= 0 ? x.share : static_cast<double>(state(x).processors.count());
  // The same arithmetic without its divisions where they are exact identities, as on a uniform platform at the
  // reference speed for a job allotted at least its parallelism (Cao's, at most quanta): then the speed is 1 (x / x),
  // the rate 1 (h / h) and `left` divided by it itself. Three divisions in a chain were most of this function's time.
  const double speed = x.slowest_speed == reference_speed_ && reference_speed_ > 0
                           ? 1.0
                           : std::max(0.0, x.slowest_speed) / reference_speed_;
  if (h > 0)
    x.span_rate = speed == 1.0 && a >= h ? 1.0 : std::min(a, h) * speed / h;
  else
    x.span_rate = speed;
  const double left = std::max(0.0, profile.span[x.segment] - x.segment_done);
  if (x.host_failed || left == 0)
    x.timer_end = now;
  else if (x.span_rate == 1.0)
    x.timer_end = now + left;
  else
    x.timer_end = x.span_rate > 0 ? now + left / x.span_rate : std::numeric_limits<double>::infinity();
  if (std::isfinite(x.timer_end))
    push_timer(x, x.timer_end); // (a re-timed job's entry moves)
  else
    drop_timer(x);
}

void JobRuntime::sync_phase(Execution& x) const
{
  const ParallelismProfile& profile = x.job->profile;
  if (x.timer_end < 0 || x.segment >= profile.span.size()) return;
  const double now = clock_now();
  const double covered =
      std::max(0.0, std::min((now - x.timer_start) * x.span_rate, profile.span[x.segment] - x.segment_done));
  const double work = covered * profile.parallelism[x.segment];
  x.segment_done += covered;
  x.work_done += work;
  state(x).span_done += covered;
  state(x).work_done += work;
  x.timer_start = now;
  x.remaining = x.profile_work > 0 ? std::max(0.0, 1 - x.work_done / x.profile_work) : 0.0;
}

void JobRuntime::measure_progress()
{
  for (auto& [id, x] : jobs_)
    if (phased(x) && x.timer_end >= 0) sync_phase(x);
}

void JobRuntime::reallot(JobId id, const ResourceSet& processors, double share, double stall)
{
  Execution& x = get(id);
  JobState& s = state(x);
  const bool same_processors = processors == s.processors;
  if (same_processors && share == x.share && !(stall > 0)) return;
  const double now = clock_now();
  if (same_processors && !(stall > 0) && s.status == JobStatus::running && phased(x) && x.timer_end >= 0) {
    // A new share on the same processors: the rest of the segment at the new rate, in the same trace segment.
    sync_phase(x);
    x.share_area +=
        (now - std::max(x.since, x.share_since)) * (x.share >= 0 ? x.share : static_cast<double>(s.processors.count()));
    x.share_since = now;
    x.share = share;
    s.counters.resizes++;
    start_timer(x);
    return;
  }
  if (!(stall > 0) && s.status == JobStatus::running && phased(x) && x.timer_end >= 0 && !x.preparing() &&
      x.stall_end < 0 && x.sharing_host < 0) {
    // Moved while it computes, without a stall (Cao's fractional layouts move some job at nearly every quantum): what
    // the general path below does, stop_exec(), a preparation of no stage and advance() to launch(), on the same
    // figures, without the detour. Its timer entry stays in the heap until compute() moves it (the heap
    // orders by end and job, so what it pops is the same as after an erasure and a new entry).
    // Entering `running` from `running` leaves the job as entering `waiting` and then `running` at one instant would
    // (the second closes no segment and accounts nothing). A job synchronized at this instant already (the driver's
    // measure_progress(), before the policy plans) would be again to no effect: adding 0 to its sums and computing its
    // remaining fraction from them as then.
    if (x.timer_start != now) sync_phase(x);
    x.timer_end = -1;
    s.counters.resizes++;
    x.compute_after = true;
    enter(x, JobStatus::running, &processors, true); // (the same processors and no stall: the case above)
    x.share = share;                                 // after the segment closed at the old one
    compute(x);
    return;
  }
  const bool stalled_now = s.status == JobStatus::switching && x.stall_end >= 0;
  if (!x.pending.empty() || (!x.stages.empty() && !stalled_now))
    throw PolicyError("job " + std::to_string(id) + " cannot be given a new allotment while it prepares or migrates");
  const double stall_left = stalled_now ? std::max(0.0, x.stall_end - now) : 0.0;
  stop_exec(x);
  drop_preparation(x);
  if (!same_processors || share != x.share) s.counters.resizes++;
  x.compute_after = true;
  enter(x, JobStatus::waiting, &processors);
  Preparation prep;
  prep.stall = stall_left + std::max(0.0, stall);
  prep.slowdown = x.slowdown;
  prep.share = share;
  add_preparation(x, std::move(prep), {});
  advance(x);
}

double JobRuntime::timer_left(const Execution& x) const
{
  return timer_fraction_left(x.timer_start, x.timer_end, clock_now());
}

void JobRuntime::retime(Execution& x)
{
  if (phased(x)) {
    sync_phase(x);
  } else {
    const double left = timer_left(x);
    x.remaining *= left;
    x.timer_flops *= left;
  }
  start_timer(x);
}

void JobRuntime::join_host_share(Execution& x)
{
  if (host_sharers_.size() != hosts_.size()) host_sharers_.resize(hosts_.size());
  int processor = -1; // a process has one
  state(x).processors.for_each_until([&](int p) {
    processor = p;
    return false;
  });
  x.sharing_host = machine_.host_of(processor);
  std::vector<JobId>& sharers = host_sharers_[static_cast<size_t>(x.sharing_host)];
  sharers.push_back(x.job->id);
  host_sharing_entries_++;
  // Each computes at one core's speed while they are no more than its cores (no one's rate changes), else the host's
  // cores shared evenly.
  if (static_cast<int>(sharers.size()) <= machine_.cores(x.sharing_host)) return;
  for (JobId other : sharers)
    if (other != x.job->id) {
      Execution& y = jobs_.at(other);
      if (y.timer_end >= 0) retime(y);
    }
}

void JobRuntime::leave_host_share(Execution& x)
{
  if (x.sharing_host < 0) return;
  std::vector<JobId>& sharers = host_sharers_[static_cast<size_t>(x.sharing_host)];
  sharers.erase(std::find(sharers.begin(), sharers.end(), x.job->id));
  host_sharing_entries_--;
  const bool rates_change = static_cast<int>(sharers.size()) >= machine_.cores(x.sharing_host);
  x.sharing_host = -1;
  if (!rates_change) return;
  for (JobId other : sharers) { // (retime() leaves the list alone: its members have joined already)
    Execution& y = jobs_.at(other);
    if (y.timer_end >= 0) retime(y);
  }
}

double JobRuntime::next_timer()
{
  return timer_heap_.empty() ? std::numeric_limits<double>::infinity() : timer_heap_.top().end;
}

void JobRuntime::stop_exec(Execution& x)
{
  if (x.job->kill_at_estimate && (x.exec || x.timer_end >= 0)) wall_time_jobs_--;
  if (x.timer_end >= 0) {
    if (phased(x))
      sync_phase(x);
    else
      x.remaining *= timer_left(x);
    x.timer_end = -1;
    drop_timer(x);
    leave_host_share(x); // a process: the others on its host speed up
    return;
  }
  if (!x.exec) return;
  if (x.exec->get_state() == sg4::Activity::State::STARTED) {
    x.remaining *= x.exec->get_remaining_ratio();
    x.exec->cancel();
  }
  x.exec = nullptr;
}

void JobRuntime::start(const WorkloadJob& job, const ResourceSet& processors, Preparation prep)
{
  if (jobs_.count(job.id) != 0) throw PolicyError("job " + std::to_string(job.id) + " started twice");
  JobState& s = admit(job);
  Execution& x = jobs_[job.id];
  x.job = &job;
  x.state = &s;
  x.since = clock_now();
  s.start_time = x.since;
  s.processors = processors;
  s.status = JobStatus::waiting;
  x.computed_since_dispatch = false;
  if (phased(x)) x.profile_work = job.profile.total_work();
  if (prep.image_bytes < 0) prep.read_image = false; // nothing to read back yet, unless the policy loads images
  add_preparation(x, std::move(prep), {});
  advance(x);
}

void JobRuntime::kill(JobId id)
{
  if (auto it = groups_.find(id); it != groups_.end()) { // a job made of processes: all of them
    ProcessGroup& g = it->second;
    for (size_t p = 0; p < g.exec.size(); p++)
      drop_process_execution(g, static_cast<int>(p));
    sync_group(g);
    g.state->status = JobStatus::finished;
    g.state->processors = ResourceSet();
    groups_.erase(it);
    return;
  }
  Execution& x = get(id);
  stop_exec(x);
  drop_preparation(x);
  enter(x, JobStatus::finished);
  erase_execution(x);
}

void JobRuntime::suspend(JobId id, bool save_image, bool preemption)
{
  suspend_execution(get(id), save_image, preemption);
}

void JobRuntime::suspend_execution(Execution& x, bool save_image, bool preemption)
{
  JobState& s = state(x);
  if (!s.holds_processors())
    throw PolicyError("job " + std::to_string(x.job->id) + " cannot be suspended: it is not executing");
  const bool was_computing = s.status == JobStatus::running;
  // Resumed while its image was still going out, and suspended again before that write ended: the write goes on
  // (the image must be saved), and the job is suspended once it is done, as after any write.
  std::vector<sg4::ActivityPtr> unfinished_write;
  for (const auto& a : x.own_writes)
    if (in_progress(a)) unfinished_write.push_back(a);
  x.own_writes.clear();
  stop_exec(x);
  drop_preparation(x);
  x.held_throughout = false;
  if (preemption) s.counters.preemptions++;
  if (preemption && !x.computed_since_dispatch) fruitless_dispatches_++;
  if (!unfinished_write.empty()) {
    x.compute_after = false;
    x.stages.push_back({JobStatus::transferring, [write = std::move(unfinished_write)] { return write; }});
    advance(x);
    return;
  }
  const double bytes = x.image_bytes >= 0 ? x.image_bytes : x.job->image_bytes();
  if (!(was_computing && save_image && images_enabled() && bytes > 0)) {
    enter(x, JobStatus::suspended);
    return;
  }
  // Write the image out of its processors; it is suspended once that is done.
  s.counters.bytes_moved += bytes;
  x.compute_after = false;
  x.image_hosts = hosts_of(s.processors);
  x.stages.push_back({JobStatus::transferring, [this, &x, bytes] {
                        std::vector<sg4::ActivityPtr> out;
                        if (image_lost(x, x.image_hosts) ||
                            (images_.kind == ImageStoreSpec::Kind::host && image_lost(x, {image_host_})))
                          return out;
                        const uint64_t share = image_share(bytes, x.image_hosts.size());
                        for (auto* h : x.image_hosts)
                          out.push_back(images_.kind == ImageStoreSpec::Kind::host
                                            ? sg4::ActivityPtr(sg4::Comm::sendto_async(h, image_host_, share))
                                            : sg4::ActivityPtr(h->get_disks().front()->write_async(share)));
                        return out;
                      }});
  advance(x);
}

std::vector<sg4::ActivityPtr> JobRuntime::image_writes_on(const ResourceSet& processors) const
{
  std::vector<sg4::ActivityPtr> out;
  if (!images_enabled()) return out;
  for (const auto& [id, x] : jobs_) {
    const JobState& s = *x.state;
    if (s.status == JobStatus::transferring && s.image_out && s.processors.intersects(processors))
      out.insert(out.end(), x.pending.begin(), x.pending.end());
  }
  return out;
}

void JobRuntime::resume(JobId id, const ResourceSet& processors, Preparation prep)
{
  Execution& x = get(id);
  JobState& s = state(x);
  const bool writing = s.status == JobStatus::transferring && s.image_out;
  if (s.status != JobStatus::suspended && !writing)
    throw PolicyError("job " + std::to_string(id) + " cannot be resumed: it is not suspended");
  if (writing) { // its image is still going out: read it back once it is written
    x.own_writes = x.pending;
    prep.after.insert(prep.after.end(), x.pending.begin(), x.pending.end());
    x.pending.clear();
    x.stages.clear();
  }
  x.compute_after = true;
  x.computed_since_dispatch = false;
  const ResourceSet& target = processors.capacity() == 0 ? s.processors : processors;
  const bool moves = &target != &s.processors && target != s.processors;
  if (moves) s.counters.migrations++;
  enter(x, JobStatus::waiting, moves ? &target : nullptr, true); // compared once
  add_preparation(x, std::move(prep), x.image_hosts);
  advance(x);
}

bool JobRuntime::resizable(JobId id) const
{
  return !jobs_.at(id).preparing();
}

void JobRuntime::resize(JobId id, const ResourceSet& processors, Preparation prep)
{
  Execution& x = get(id);
  JobState& s = state(x);
  if (x.preparing())
    throw PolicyError("job " + std::to_string(id) + " cannot be resized while it prepares or migrates");
  stop_exec(x);
  s.counters.resizes++;
  enter(x, JobStatus::waiting, &processors);
  prep.read_image = false;
  add_preparation(x, std::move(prep), {});
  advance(x);
}

void JobRuntime::migrate(JobId id, const ResourceSet& processors, double image_bytes)
{
  Execution& x = get(id);
  JobState& s = state(x);
  if (x.preparing()) throw PolicyError("job " + std::to_string(id) + " is already migrating");
  auto from = hosts_of(s.processors);
  stop_exec(x);
  s.counters.migrations++;
  s.counters.bytes_moved += image_bytes > 0 ? image_bytes : 0;
  x.compute_after = true;
  enter(x, JobStatus::waiting, &processors);
  x.stages.push_back({JobStatus::transferring, [this, &x, from, image_bytes] {
                        auto to = hosts_of(state(x).processors);
                        if (image_lost(x, from) || image_lost(x, to)) return std::vector<sg4::ActivityPtr>();
                        return move_image(from, to, image_bytes);
                      }});
  advance(x);
}

std::vector<sg4::ActivityPtr> JobRuntime::activities() const
{
  std::vector<sg4::ActivityPtr> out;
  activities(out);
  return out;
}

void JobRuntime::activities(std::vector<sg4::ActivityPtr>& out) const
{
  out.clear();
  if (!timers_)
    for (const auto& [id, x] : jobs_)
      if (x.exec) out.push_back(x.exec);
  for (JobId id : preparing_) {
    const Execution& x = jobs_.at(id);
    // Only activities still in progress: a stage whose other activities go on keeps its finished ones in `pending`,
    // and waiting on a finished activity returns at once, so the scheduler would spin without time passing.
    // Another job's image write may be awaited by several jobs: list it once.
    for (const auto& a : x.pending)
      if (in_progress(a) && (x.pending_owned || std::find(out.begin(), out.end(), a) == out.end())) out.push_back(a);
  }
}

double JobRuntime::next_deadline() const
{
  double next = std::numeric_limits<double>::infinity();
  if (wall_time_jobs_ == 0) return next;
  for (const auto& [id, x] : jobs_) {
    const JobState& s = *x.state;
    if (x.job->kill_at_estimate && s.status == JobStatus::running)
      next = std::min(next, x.since + (x.job->estimate - s.service));
  }
  return next;
}

std::vector<std::pair<JobId, JobFate>> JobRuntime::collect_ended()
{
  using State = sg4::Activity::State;
  std::vector<std::pair<JobId, JobFate>> ended;
  const double now = clock_now();
  // Hosts whose speed or state changed: the jobs on a host that went off fail; timed executions go on at the new
  // speed.
  std::set<JobId> lost;
  if (!changed_hosts_->empty()) {
    std::set<const sg4::Host*> changed(changed_hosts_->begin(), changed_hosts_->end());
    changed_hosts_->clear();
    host_epoch_++; // cached slowest speeds are stale
    for (auto& [id, x] : jobs_) {
      const JobState& s = *x.state;
      // A suspended job holds no processor, but a suspended process (Plan::processes) keeps its image in its host's
      // memory: it fails with the host (moving it from there would start a transfer from a host that is off, which
      // SimGrid aborts on).
      if ((s.status == JobStatus::suspended && x.owner < 0) || (s.status == JobStatus::transferring && s.image_out))
        continue;
      auto hosts = hosts_of(s.processors);
      if (std::none_of(hosts.begin(), hosts.end(), [&](const sg4::Host* h) { return changed.count(h) != 0; })) continue;
      if (std::any_of(hosts.begin(), hosts.end(), [](const sg4::Host* h) { return !h->is_on(); })) {
        ended.emplace_back(id, JobFate::failed);
        lost.insert(id);
      } else if (x.timer_end >= 0) {
        retime(x);
      }
    }
  }
  // An s4u activity learns that it ended only when it is waited on or tested, and wait_any returned for one of them:
  // test the others (test_any costs one call per ended activity) so that all those ending now are collected together.
  // Only executions on the ptask path and the preparing jobs' stages are SimGrid activities (a job's pending stages
  // are in progress only while it is preparing): on the timer path, the jobs that merely run or wait are not visited.
  std::vector<sg4::ActivityPtr> started;
  auto add_started = [&](JobId id, const Execution& x) {
    if (lost.count(id) != 0) return;
    if (x.exec && x.exec->get_state() == State::STARTED) started.push_back(x.exec);
    for (const auto& a : x.pending)
      if (a->get_state() == State::STARTED && std::find(started.begin(), started.end(), a) == started.end())
        started.push_back(a);
  };
  if (timers_)
    for (JobId id : preparing_)
      add_started(id, jobs_.at(id));
  else
    for (const auto& [id, x] : jobs_)
      add_started(id, x);
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

  { // Timers due now: executions that complete (fast path), stalls that end (both paths).
    while (next_timer() <= now + kTimerSlack) {
      Execution& x = *timer_heap_.top().owner;
      const JobId job = x.job->id;
      timer_heap_.pop();
      if (x.timer_end >= 0 && phased(x) && !x.host_failed) { // a segment ends: exactly, whatever the clock's bits
        const ParallelismProfile& profile = x.job->profile;
        const double rest = std::max(0.0, profile.span[x.segment] - x.segment_done);
        x.work_done += rest * profile.parallelism[x.segment];
        state(x).span_done += rest;
        state(x).work_done += rest * profile.parallelism[x.segment];
        x.segment++;
        x.segment_done = 0;
        x.timer_start = now;
        if (x.segment < profile.span.size()) {
          x.remaining = x.profile_work > 0 ? std::max(0.0, 1 - x.work_done / x.profile_work) : 0.0;
          start_phase_timer(x);
        } else {
          ended.emplace_back(job, JobFate::completed);
        }
      } else if (x.timer_end >= 0) {
        ended.emplace_back(job, x.host_failed ? JobFate::failed : JobFate::completed);
      } else if (x.stall_end >= 0) {
        x.stall_end = -1;
        advance(x);
      }
    }
  }
  // Preparation stages whose activities all ended.
  for (auto it = preparing_.begin(); it != preparing_.end();) {
    const JobId id = *it++; // advance() may erase it
    if (lost.count(id) != 0) continue;
    Execution& x = jobs_.at(id);
    bool failed = x.pending_owned && std::any_of(x.pending.begin(), x.pending.end(), [](const sg4::ActivityPtr& a) {
                    return a->get_state() == State::FAILED;
                  });
    // Another job's image write that was cancelled or failed no longer holds this one back.
    bool done = std::none_of(x.pending.begin(), x.pending.end(), in_progress);
    if (failed) {
      ended.emplace_back(id, JobFate::failed);
    } else if (done) {
      x.pending.clear();
      preparing_.erase(id);
      advance(x);
    }
  }
  if (!timers_)
    for (auto& [id, x] : jobs_) {
      if (!x.exec || lost.count(id) != 0) continue;
      State s = x.exec->get_state();
      if (s == State::FINISHED)
        ended.emplace_back(id, JobFate::completed);
      else if (s == State::FAILED)
        ended.emplace_back(id, JobFate::failed);
    }
  if (wall_time_jobs_ > 0)
    for (auto& [id, x] : jobs_) {
      const JobState& js = *x.state;
      if (x.job->kill_at_estimate && js.status == JobStatus::running &&
          js.service + (now - x.since) >= x.job->estimate - kTimeEpsilon)
        ended.emplace_back(id, JobFate::walltime_reached);
    }
  // In job id order, each job once (the first reason found wins).
  if (ended.size() > 1) // (a stable sort asks for a buffer even for one element)
    std::stable_sort(ended.begin(), ended.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  ended.erase(std::unique(ended.begin(), ended.end(), [](const auto& a, const auto& b) { return a.first == b.first; }),
              ended.end());
  std::vector<std::pair<JobId, JobFate>> job_ends;
  for (const auto& [id, fate] : ended) {
    auto found = jobs_.find(id);
    if (found == jobs_.end()) continue; // a process of a job that failed with another of its processes
    Execution& x = found->second;
    if (lost.count(id) != 0) { // its activities failed with their host: let them go untouched
      if (x.job->kill_at_estimate && (x.exec || x.timer_end >= 0)) wall_time_jobs_--;
      x.exec = nullptr;
      x.pending.clear();
      x.timer_end = -1;
      drop_timer(x);
      leave_host_share(x);
    }
    stop_exec(x); // cancels an execution still going (a job at its wall time), keeping what it did for its account
    drop_preparation(x);
    x.exec = nullptr;
    if (fate == JobFate::completed) x.remaining = 0; // a finished ptask leaves `remaining` as it was at its launch
    x.failing = fate == JobFate::failed;
    enter(x, JobStatus::finished);
    if (x.owner >= 0) { // a process: its job goes on, or ends with it
      process_left(x, fate, job_ends);
      continue;
    }
    erase_execution(x);
    job_ends.emplace_back(id, fate);
  }
  if (job_ends.size() > 1)
    std::stable_sort(job_ends.begin(), job_ends.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return job_ends;
}

} // namespace jobsched
