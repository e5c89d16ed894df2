#include "runtime/drivers/space_sharing_driver.hpp"

#include "core/errors.hpp"

#include <algorithm>

XBT_LOG_NEW_DEFAULT_CATEGORY(jobsched_space_sharing, "jobsched: space-sharing decisions");

namespace jobsched {

SpaceSharingDriver::SpaceSharingDriver(const Machine& machine, Policy& policy, Allocator& allocator,
                                       JobRuntime& runtime, const ResourceSet& up,
                                       std::function<void(JobId, JobFate)> end_job,
                                       std::function<void(JobId, JobFate)> evict_job)
    : machine_(machine), policy_(policy), allocator_(allocator), runtime_(runtime), end_job_(std::move(end_job)),
      evict_job_(std::move(evict_job))
{
  if (allocator_.wants_network_load())
    for (auto* link : sg4::Engine::get_instance()->get_all_links())
      if (link->get_name().find("loopback") == std::string::npos) network_links_.push_back(link);
  state_.machine = &machine_;
  state_.up = up;
  state_.idle = up;
}

/* Mean utilization of the links between hosts: what SimGrid's sharing gives their flows now, over their capacity. */
double SpaceSharingDriver::network_load() const
{
  double sum = 0;
  for (auto* link : network_links_)
    sum += std::min(1.0, link->get_usage() / link->get_bandwidth());
  return sum / static_cast<double>(network_links_.size());
}

void SpaceSharingDriver::release(JobId id)
{
  auto it = state_.running.find(id);
  if (!it->second.suspended) state_.idle |= it->second.resources & state_.up;
  state_.running.erase(it);
}

void SpaceSharingDriver::job_ended(const JobState& s, double now)
{
  release(s.job->id);
  policy_.job_ended(*s.job, job_end_of(s.fate), now);
}

void SpaceSharingDriver::job_requeued(const JobState& s, double now)
{
  release(s.job->id);
  policy_.job_requeued(*s.job, now);
}

void SpaceSharingDriver::host_changed(const HostChange& change, const ResourceSet& up, double now)
{
  ResourceSet r = machine_.processors_of(change.host);
  if (change.up) {
    ResourceSet busy(machine_.resource_count());
    for (const auto& [id, job] : state_.running)
      if (!job.suspended) busy |= job.resources;
    state_.idle |= (r & up) - busy;
  } else {
    state_.idle -= r;
  }
  state_.up = up;
  policy_.host_changed(change, now);
  // The owner is back on a host that stays on: its guests leave it (a failed host's jobs failed with it already).
  if (change.owner && !change.up) {
    std::vector<JobId> guests;
    for (const auto& [id, job] : state_.running)
      if (job.resources.intersects(r)) guests.push_back(id);
    for (JobId id : guests) {
      XBT_VERB("job %ld evicted by the owner of host %d", static_cast<long>(id), change.host);
      runtime_.kill(id);
      evict_job_(id, JobFate::killed);
    }
  }
}

void SpaceSharingDriver::decide(double now, const ResourceSet&)
{
  state_.now = now;
  if (!network_links_.empty()) state_.network_load = network_load();
  if (allocator_.wants_network_load() || allocator_.wants_releases())
    allocator_.observe(allocator_view(state_, allocator_));
  for (const auto& d : policy_.decide(state_))
    apply(d);
}

void SpaceSharingDriver::apply(const Decision& d)
{
  const JobState* record = runtime_.table().find(d.job);
  if (record == nullptr)
    throw PolicyError("decision names job " + std::to_string(d.job) + ", which is not in the workload");
  auto running = state_.running.find(d.job);
  const char* what = to_string(d.kind);
  auto check_free = [&](const ResourceSet& r, const ResourceSet& also_ok) {
    if (r.capacity() != machine_.resource_count() || r.empty())
      throw PolicyError(std::string(what) + " of job " + std::to_string(d.job) + ": no processors given");
    if (!(state_.idle | also_ok).contains(r) || !state_.up.contains(r))
      throw PolicyError(std::string(what) + " of job " + std::to_string(d.job) + " on processors " + r.to_string() +
                        " that are busy or down");
  };
  if (d.kind != Decision::Kind::start && running == state_.running.end())
    throw PolicyError(std::string(what) + " of job " + std::to_string(d.job) + ", which is not running");
  decisions_++;
  XBT_VERB("%s job %ld%s%s", what, static_cast<long>(d.job), d.resources.empty() ? "" : " on processors ",
           d.resources.to_string().c_str());
  const ResourceSet none(machine_.resource_count());
  switch (d.kind) {
  case Decision::Kind::start: {
    if (running != state_.running.end() || record->status != JobStatus::waiting)
      throw PolicyError("start of job " + std::to_string(d.job) + ", which already started");
    if (d.resources.count() != record->job->size)
      throw PolicyError("start of job " + std::to_string(d.job) + " on " + std::to_string(d.resources.count()) +
                        " processors; it asked for " + std::to_string(record->job->size));
    check_free(d.resources, none);
    runtime_.start(d.job, d.resources);
    state_.idle -= d.resources;
    state_.running[d.job] = RunningJob{record->job, d.resources, state_.now, false};
    break;
  }
  case Decision::Kind::kill:
    runtime_.kill(d.job);
    end_job_(d.job, JobFate::killed);
    break;
  case Decision::Kind::suspend:
    runtime_.suspend(d.job);
    running->second.suspended = true;
    state_.idle |= running->second.resources & state_.up;
    break;
  case Decision::Kind::resume: {
    check_free(running->second.resources, none);
    runtime_.resume(d.job);
    running->second.suspended = false;
    state_.idle -= running->second.resources;
    break;
  }
  case Decision::Kind::resize:
  case Decision::Kind::migrate: {
    ResourceSet old = running->second.suspended ? none : running->second.resources;
    check_free(d.resources, old);
    if (d.kind == Decision::Kind::resize)
      runtime_.resize(d.job, d.resources);
    else
      runtime_.migrate(d.job, d.resources, d.image_bytes);
    state_.idle |= old & state_.up;
    state_.idle -= d.resources;
    running->second.resources = d.resources;
    running->second.suspended = false;
    break;
  }
  }
}

} // namespace jobsched
