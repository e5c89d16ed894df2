#include "runtime/scheduler_actor.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cmath>

XBT_LOG_NEW_DEFAULT_CATEGORY(jobsched_scheduler, "jobsched: the scheduler actor");

namespace jobsched {

SchedulerActor::SchedulerActor(const Machine& machine, std::vector<sg4::Host*> hosts, const JobList& jobs,
                               Policy& policy, Allocator& allocator, JobRuntime& runtime, sg4::Mailbox* mailbox,
                               Submitter& submitter, HostMonitor& monitor, std::function<void(double, size_t)> progress)
    : machine_(machine), hosts_(std::move(hosts)), policy_(policy), allocator_(allocator), runtime_(runtime),
      mailbox_(mailbox), submitter_(submitter), monitor_(monitor), progress_(std::move(progress))
{
  if (allocator_.wants_network_load())
    for (auto* link : sg4::Engine::get_instance()->get_all_links())
      if (link->get_name().find("loopback") == std::string::npos) network_links_.push_back(link);
  outcomes_.reserve(jobs.size());
  for (const auto& j : jobs) {
    if (index_.count(j.id) != 0) throw InputError("workload: job number " + std::to_string(j.id) + " appears twice");
    index_[j.id] = outcomes_.size();
    outcomes_.push_back(JobOutcome{&j, JobFate::running, -1, -1, ResourceSet(machine.resource_count()), 0, {}});
  }
  state_.machine = &machine_;
  state_.up = ResourceSet(machine.resource_count());
  for (int h = 0; h < machine.host_count(); h++) {
    host_up_.push_back(hosts_[h]->is_on() && hosts_[h]->get_available_speed() > 0);
    if (host_up_.back()) state_.up |= machine.processors_of(h);
  }
  state_.idle = state_.up;
}

/* Mean utilization of the links between hosts: what SimGrid's sharing gives their flows now, over their capacity. */
double SchedulerActor::network_load() const
{
  double sum = 0;
  for (auto* link : network_links_)
    sum += std::min(1.0, link->get_usage() / link->get_bandwidth());
  return sum / static_cast<double>(network_links_.size());
}

JobOutcome& SchedulerActor::outcome(JobId id)
{
  auto it = index_.find(id);
  if (it == index_.end())
    throw PolicyError("decision names job " + std::to_string(id) + ", which is not in the workload");
  return outcomes_[it->second];
}

void SchedulerActor::job_ended(JobId id, JobFate fate)
{
  JobOutcome& o = outcome(id);
  XBT_VERB("job %ld ended (%s)", static_cast<long>(id), fate == JobFate::completed ? "completed" : "did not complete");
  o.fate = fate;
  o.finish_time = sg4::Engine::get_clock();
  auto it = state_.running.find(id);
  if (!it->second.suspended) state_.idle |= it->second.resources & state_.up;
  state_.running.erase(it);
  ended_++;
  policy_.job_ended(*o.job,
                    fate == JobFate::completed ? JobEnd::completed
                    : fate == JobFate::failed  ? JobEnd::failed
                                               : JobEnd::killed,
                    state_.now);
}

void SchedulerActor::host_changed(int host)
{
  sg4::Host* h = hosts_[host];
  bool up = h->is_on() && h->get_available_speed() > 0;
  ResourceSet r = machine_.processors_of(host);
  if (up && !host_up_[host]) {
    state_.up |= r;
    ResourceSet busy(machine_.resource_count());
    for (const auto& [id, job] : state_.running)
      busy |= job.resources;
    state_.idle |= r - busy;
  } else if (!up && host_up_[host]) {
    state_.up -= r;
    state_.idle -= r;
  }
  host_up_[host] = up;
  policy_.host_changed(HostChange{host, up, h->get_available_speed()}, state_.now);
}

void SchedulerActor::apply(const Decision& d)
{
  JobOutcome& o = outcome(d.job);
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
  stats_.decisions++;
  XBT_VERB("%s job %ld%s%s", what, static_cast<long>(d.job), d.resources.empty() ? "" : " on processors ",
           d.resources.to_string().c_str());
  switch (d.kind) {
  case Decision::Kind::start: {
    if (running != state_.running.end() || o.fate != JobFate::running || o.start_time >= 0)
      throw PolicyError("start of job " + std::to_string(d.job) + ", which already started");
    if (d.resources.count() != o.job->size)
      throw PolicyError("start of job " + std::to_string(d.job) + " on " + std::to_string(d.resources.count()) +
                        " processors; it asked for " + std::to_string(o.job->size));
    check_free(d.resources, ResourceSet(machine_.resource_count()));
    runtime_.start(*o.job, d.resources);
    state_.idle -= d.resources;
    state_.running[d.job] = RunningJob{o.job, d.resources, state_.now, false};
    o.start_time = state_.now;
    o.resources = d.resources;
    o.cost = runtime_.placement_cost(d.job);
    break;
  }
  case Decision::Kind::kill:
    runtime_.kill(d.job);
    job_ended(d.job, JobFate::killed);
    break;
  case Decision::Kind::suspend:
    runtime_.suspend(d.job);
    running->second.suspended = true;
    state_.idle |= running->second.resources & state_.up;
    break;
  case Decision::Kind::resume: {
    check_free(running->second.resources, ResourceSet(machine_.resource_count()));
    runtime_.resume(d.job);
    running->second.suspended = false;
    state_.idle -= running->second.resources;
    break;
  }
  case Decision::Kind::resize:
  case Decision::Kind::migrate: {
    ResourceSet old = running->second.suspended ? ResourceSet(machine_.resource_count()) : running->second.resources;
    check_free(d.resources, old);
    if (d.kind == Decision::Kind::resize)
      runtime_.resize(d.job, d.resources);
    else
      runtime_.migrate(d.job, d.resources, d.image_bytes);
    state_.idle |= old & state_.up;
    state_.idle -= d.resources;
    running->second.resources = d.resources;
    running->second.suspended = false;
    o.resources = d.resources;
    o.cost = runtime_.placement_cost(d.job);
    o.restarts++;
    break;
  }
  }
}

/* Collect everything that happens at the current instant. Returns false when nothing did. */
bool SchedulerActor::gather(bool woke_on_message)
{
  const double now = sg4::Engine::get_clock();
  bool happened = false;
  for (const auto& [id, fate] : runtime_.collect_ended()) {
    job_ended(id, fate);
    happened = true;
  }
  // Messages of this instant: the one that woke us, and any the submitter or the monitor is still sending.
  while (woke_on_message || submitter_.pending_at(now) || monitor_.pending()) {
    if (!woke_on_message) receive_->wait();
    woke_on_message = false;
    inbox_.push_back(message_);
    receive_ = mailbox_->get_async<SchedulerMessage>(&message_);
    if (inbox_.back()->kind == SchedulerMessage::Kind::submissions)
      submitter_.delivered();
    else
      monitor_.delivered();
  }
  // Host changes before submissions, whatever order the messages came in.
  std::stable_partition(inbox_.begin(), inbox_.end(),
                        [](const SchedulerMessage* m) { return m->kind == SchedulerMessage::Kind::host_change; });
  for (auto* m : inbox_) {
    if (m->kind == SchedulerMessage::Kind::host_change)
      host_changed(m->host);
    else
      for (const Job* j : m->jobs) {
        XBT_VERB("job %ld submitted (%d processors, estimate %g s)", static_cast<long>(j->id), j->size, j->estimate);
        policy_.job_submitted(*j, now);
      }
    delete m;
    happened = true;
  }
  inbox_.clear();
  return happened;
}

void SchedulerActor::operator()()
{
  auto wall_start = std::chrono::steady_clock::now();
  auto last_print = wall_start;
  receive_ = mailbox_->get_async<SchedulerMessage>(&message_);
  while (!(submitter_.done() && runtime_.size() == 0 && policy_.waiting_count() == 0)) {
    double wake_at = std::min(policy_.next_wakeup(), runtime_.next_deadline());
    auto activities = runtime_.activities();
    activities.push_back(receive_);
    double now = sg4::Engine::get_clock();
    if (activities.size() == 1 && std::isinf(wake_at) && submitter_.done()) {
      if (state_.up == ResourceSet::all(machine_.resource_count()))
        throw PolicyError("the policy left " + std::to_string(policy_.waiting_count()) +
                          " jobs waiting on an idle machine and asked for no wake-up");
      wake_at = now + 3600; // hosts are down: poll until a profile brings them back
    }
    ssize_t woke = -1;
    try {
      woke = sg4::Activity::wait_any_for(activities, std::isinf(wake_at) ? -1.0 : std::max(0.0, wake_at - now));
    } catch (const simgrid::HostFailureException&) {
      // an execution lost a host: collect_ended() reports it as failed
    } catch (const simgrid::NetworkFailureException&) {
    }
    state_.now = sg4::Engine::get_clock();
    bool woke_on_message = woke == static_cast<ssize_t>(activities.size()) - 1;
    bool happened = gather(woke_on_message);
    if (!happened && state_.now < policy_.next_wakeup() - kTimeEpsilon) continue;
    stats_.instants++;
    if (!network_links_.empty()) state_.network_load = network_load();
    allocator_.observe(state_);
    for (const auto& d : policy_.decide(state_))
      apply(d);

    if (progress_ && (stats_.instants & 255) == 0) {
      auto t = std::chrono::steady_clock::now();
      if (t - last_print >= std::chrono::seconds(1)) {
        progress_(state_.now, ended_);
        last_print = t;
      }
    }
  }
  receive_->cancel();
  finished_ = true;
  stats_.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
}

} // namespace jobsched
