/* Gang scheduling on a network of workstations: the allocation map's decisions applied to the platform
 * (runtime/drivers/gang_now_driver.hpp). */
#include "runtime/drivers/gang_now_driver.hpp"

#include "core/errors.hpp"
#include "core/time.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

XBT_LOG_NEW_DEFAULT_CATEGORY(jobsched_gang_now, "jobsched: gang scheduling on networks of workstations");

namespace jobsched {

namespace gn = gang_now;

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();

double next_poisson(RandomStream& random, double now, double per_hour)
{
  return per_hour > 0 ? now + random.exponential(3600.0 / per_hour) : kInfinity;
}
} // namespace

GangNowDriver::GangNowDriver(const Machine& machine, std::vector<gn::Processor> processors, JobRuntime& runtime,
                             const GangNowPolicySpec& policy, double new_vp_per_hour, double vp_exit_per_hour,
                             std::uint64_t seed, const std::vector<bool>& busy)
    : machine_(machine), processors_(std::move(processors)), runtime_(runtime), policy_(policy),
      new_vp_per_hour_(new_vp_per_hour), vp_exit_per_hour_(vp_exit_per_hour), seed_(seed), busy_(busy)
{
  for (size_t h = 0; h < processors_.size(); h++) {
    host_index_[processors_[h].name] = static_cast<int>(h);
    // Under `wait` owners do not change the map: every workstation is in it from the start.
    if (!busy_[h] || policy_.eviction == Eviction::wait) map_.processors.push_back(processors_[h]);
  }
}

ResourceSet GangNowDriver::on(int host) const
{
  ResourceSet r(machine_.resource_count());
  r.set(machine_.first_resource(host));
  return r;
}

std::vector<GangNowDriver::Vp*> GangNowDriver::vps_of(long job)
{
  std::vector<Vp*> out;
  for (auto& [id, v] : vps_)
    if (v.job == job) out.push_back(&v);
  return out;
}

GangNowDriver::Vp& GangNowDriver::new_vp_record(long job)
{
  const GangJob& g = *records_[record_of_.at(job)].job;
  WorkloadJob w;
  w.id = next_vp_id_++;
  w.size = 1;
  w.run_time = g.work; // seconds at the reference speed, the slowest workstation's
  w.estimate = g.work;
  w.memory_kb = g.image_bytes / 1024;
  vp_jobs_.push_back(w);
  Vp& v = vps_[w.id];
  v.id = w.id;
  v.job = job;
  return v;
}

void GangNowDriver::apply(const gn::EventResult& result)
{
  map_ = result.map;
  counters_.events++;
  XBT_VERB("map: %zu slices, %zu jobs, %lld free entries, %zu migrations", map_.slices.size(), map_.jobs.size(),
           map_.free_entries(), result.migrations.size());
  counters_.max_slices = std::max(counters_.max_slices, static_cast<long>(map_.slices.size()));
  for (const gn::VpMove& m : result.migrations) {
    const int from = host_index_.at(m.from);
    const int to = host_index_.at(m.to);
    int count = m.vps;
    for (Vp* v : vps_of(m.job))
      if (count > 0 && v->host == from) {
        v->host = to;
        count--;
      }
    if (count > 0) throw PolicyError("gang scheduler moved VPs job " + std::to_string(m.job) + " does not have");
  }
  for (const gn::VpCount& s : result.suspended) {
    const int from = host_index_.at(s.processor);
    int count = s.vps;
    for (Vp* v : vps_of(s.job))
      if (count > 0 && v->host == from) {
        v->host = -1;
        count--;
      }
  }
  for (const gn::VpCount& p : result.placed) {
    const int to = host_index_.at(p.processor);
    int count = p.vps;
    for (Vp* v : vps_of(p.job))
      if (count > 0 && v->host < 0) {
        v->host = to;
        count--;
      }
    if (count > 0) throw PolicyError("gang scheduler placed more VPs of job " + std::to_string(p.job) + " than it has");
  }
}

void GangNowDriver::after_event(double now)
{
  const size_t tau = map_.slices.size();
  if (active_ >= tau) active_ = 0;
  // The running slice gets a whole quantum from the moment it has another slice to share the time with.
  if (tau_ <= 1) slice_start_ = now;
  tau_ = tau;
}

void GangNowDriver::finish_job(long job, double now)
{
  GangJobRecord& r = records_[record_of_.at(job)];
  r.finish = now;
  in_system_.erase(std::find(in_system_.begin(), in_system_.end(), job));
  dynamics_.erase(job);
  XBT_VERB("job %ld ends", job);
}

void GangNowDriver::vp_ended(JobId id, JobFate fate, double now)
{
  auto it = vps_.find(id);
  if (it == vps_.end()) return;
  if (fate != JobFate::completed) throw PolicyError("VP " + std::to_string(id) + " of a gang job failed");
  const Vp v = it->second;
  vps_.erase(it);
  const bool last = vps_of(v.job).empty();
  if (v.host >= 0) {
    apply(gn::vp_exit(map_, static_cast<int>(v.job), processors_[static_cast<size_t>(v.host)].name, policy_.options));
  } else if (last) { // its job had been taken off the map (waiting) as it ended
    apply(gn::job_exit(map_, static_cast<int>(v.job), policy_.options));
  } else { // a waiting job holds no entry: only its count changes
    for (auto& j : map_.jobs)
      if (j.id == v.job && --j.vps.begin()->second == 0) j.vps.clear();
  }
  if (last) finish_job(v.job, now);
  after_event(now);
}

void GangNowDriver::owner_changed(int host, bool busy, double now)
{
  busy_[static_cast<size_t>(host)] = busy;
  const std::string& name = processors_[static_cast<size_t>(host)].name;
  XBT_VERB("owner of %s %s", name.c_str(), busy ? "is back" : "left");
  if (busy)
    counters_.processor_exits++;
  else
    counters_.new_processors++;
  if (policy_.eviction == Eviction::wait) return; // the map keeps it; reconcile suspends its VPs
  if (busy) {
    if (map_.processor_index(name) >= 0) apply(gn::processor_exit(map_, name, policy_.options));
  } else if (map_.processor_index(name) < 0) {
    apply(gn::new_processor(map_, processors_[static_cast<size_t>(host)], policy_.options));
  }
  after_event(now);
}

void GangNowDriver::submit(const GangJob& job, double now)
{
  GangJobRecord r;
  r.job = &job;
  r.submit = now;
  r.max_vps = job.vps;
  // The ideal: its VPs alone on every workstation of its architecture (optimal MTAT), in seconds.
  std::vector<gn::Rational> pool;
  for (const auto& p : processors_)
    if (p.arch == job.arch) pool.push_back(p.capacity);
  if (pool.empty()) throw PolicyError("job " + std::to_string(job.id) + ": no workstation of architecture " + job.arch);
  r.dedicated = boost::rational_cast<double>(gn::mtat(job.vps, pool, gn::MtatVariant::optimal).turnaround) * job.work;
  record_of_[job.id] = records_.size();
  records_.push_back(r);
  in_system_.push_back(job.id);
  for (int i = 0; i < job.vps; i++)
    new_vp_record(job.id);
  Dynamics d{RandomStream(seed_, "gang-dynamics-" + std::to_string(job.id)), kInfinity, kInfinity};
  d.next_new_vp = next_poisson(d.random, now, new_vp_per_hour_);
  d.next_vp_exit = next_poisson(d.random, now, vp_exit_per_hour_);
  dynamics_.emplace(job.id, std::move(d));
  XBT_VERB("job %ld submitted: %d VPs of %s", job.id, job.vps, job.arch.c_str());
  apply(gn::submit_job(map_, static_cast<int>(job.id), {{job.arch, job.vps}}, policy_.options));
  after_event(now);
}

void GangNowDriver::job_new_vp(long job, double now)
{
  GangJobRecord& r = records_[record_of_.at(job)];
  new_vp_record(job);
  r.new_vps++;
  r.max_vps = std::max(r.max_vps, static_cast<int>(vps_of(job).size()));
  apply(gn::new_vp(map_, static_cast<int>(job), r.job->arch, policy_.options));
  after_event(now);
}

void GangNowDriver::job_vp_exit(long job, double now)
{
  Dynamics& d = dynamics_.at(job);
  auto mine = vps_of(job);
  std::vector<Vp*> placed;
  for (Vp* v : mine)
    if (v->host >= 0) placed.push_back(v);
  if (mine.size() <= 1 || placed.empty()) return;
  Vp v = *placed[static_cast<size_t>(d.random.uniform_int(0, static_cast<int>(placed.size()) - 1))];
  if (runtime_.is_running(v.id)) runtime_.kill(v.id);
  vps_.erase(v.id);
  records_[record_of_.at(job)].vp_exits++;
  apply(gn::vp_exit(map_, static_cast<int>(job), processors_[static_cast<size_t>(v.host)].name, policy_.options));
  after_event(now);
}

void GangNowDriver::rotate_if_due(double now)
{
  const size_t tau = map_.slices.size();
  tau_ = tau;
  if (tau <= 1) {
    active_ = 0;
    slice_start_ = now;
    return;
  }
  if (now + kTimeEpsilon < slice_start_ + policy_.quantum) return;
  active_ = (active_ + 1) % tau;
  slice_start_ = now;
  counters_.rotations++;
}

void GangNowDriver::tick(double now)
{
  const std::vector<long> jobs = in_system_;
  for (long job : jobs) {
    // new_VP and VP_exit due now, in time order; the job may end on the way (it cannot: VP_exit keeps one VP).
    while (dynamics_.count(job) != 0) {
      Dynamics& d = dynamics_.at(job);
      const double t = std::min(d.next_new_vp, d.next_vp_exit);
      if (t > now + kTimeEpsilon) break;
      if (d.next_new_vp <= d.next_vp_exit) {
        d.next_new_vp = next_poisson(d.random, d.next_new_vp, new_vp_per_hour_);
        job_new_vp(job, now);
      } else {
        d.next_vp_exit = next_poisson(d.random, d.next_vp_exit, vp_exit_per_hour_);
        job_vp_exit(job, now);
      }
    }
  }
  rotate_if_due(now);
}

bool GangNowDriver::all_blocked_by_owners() const
{
  for (long job : in_system_) {
    const std::string& arch = records_[record_of_.at(job)].job->arch;
    for (size_t h = 0; h < processors_.size(); h++)
      if (processors_[h].arch == arch && !busy_[h]) return false;
  }
  return !in_system_.empty();
}

void GangNowDriver::stop()
{
  for (const auto& [id, v] : vps_)
    if (runtime_.is_running(id)) runtime_.kill(id);
}

double GangNowDriver::next_wakeup() const
{
  double t = map_.slices.size() > 1 ? slice_start_ + policy_.quantum : kInfinity;
  for (const auto& [job, d] : dynamics_)
    t = std::min({t, d.next_new_vp, d.next_vp_exit});
  return t;
}

void GangNowDriver::reconcile(double now)
{
  std::set<long> running_jobs;
  if (active_ < map_.slices.size())
    for (const gn::Entry& e : map_.slices[active_])
      if (!e.free()) running_jobs.insert(e.job);
  std::vector<JobId> ids;
  for (const auto& [id, v] : vps_)
    ids.push_back(id);
  for (JobId id : ids) {
    Vp& v = vps_.at(id);
    GangJobRecord& r = records_[record_of_.at(v.job)];
    const bool runnable = v.host >= 0 && !busy_[static_cast<size_t>(v.host)] && running_jobs.count(v.job) != 0;
    const WorkloadJob& w = vp_jobs_[static_cast<size_t>(v.id)];
    if (v.on < 0) {
      if (runnable) {
        runtime_.start(w, on(v.host));
        v.on = v.host;
        if (r.first_run < 0) r.first_run = now;
      }
      continue;
    }
    const JobStatus status = runtime_.table().at(v.id).status;
    if (status == JobStatus::transferring) continue; // its image is on its way: the transfer ends first
    if (v.host >= 0 && v.host != v.on) {
      if (policy_.eviction == Eviction::restart) { // no migration: start again from scratch there
        const double lost = (1 - runtime_.remaining_fraction(v.id)) * w.run_time;
        runtime_.kill(v.id);
        r.restarts++;
        r.work_lost += lost;
        Vp moved = v;
        vps_.erase(id);
        WorkloadJob again = w;
        again.id = next_vp_id_++;
        vp_jobs_.push_back(again);
        moved.id = again.id;
        moved.on = -1;
        Vp& fresh = vps_[again.id] = moved;
        if (runnable) {
          runtime_.start(vp_jobs_.back(), on(fresh.host));
          fresh.on = fresh.host;
        }
        continue;
      }
      if (status == JobStatus::switching) runtime_.suspend(v.id, false, false);
      const double bytes = r.job->image_bytes;
      XBT_VERB("VP %ld of job %ld migrates from %s to %s", static_cast<long>(v.id), v.job,
               processors_[static_cast<size_t>(v.on)].name.c_str(),
               processors_[static_cast<size_t>(v.host)].name.c_str());
      runtime_.migrate(v.id, on(v.host), bytes);
      v.on = v.host;
      r.migrations++;
      r.bytes_moved += bytes;
      if (!runnable && runtime_.table().at(v.id).status == JobStatus::running) runtime_.suspend(v.id, false, true);
      continue;
    }
    if (runnable && status == JobStatus::suspended) {
      runtime_.resume(v.id, {}, Preparation{policy_.switch_cost, false, {}, 1});
    } else if (!runnable && (status == JobStatus::running || status == JobStatus::switching)) {
      runtime_.suspend(v.id, false, true);
    }
  }
}

} // namespace jobsched
