/* Jobs made of processes (gang-now's virtual processors; job_runtime.hpp says what they model): each process is an
 * execution of its own, placed on one processor, suspended, moved or ended on its own, and the job's one record
 * shows what its processes together hold and do (the union of their processors, the furthest status among them).
 * Their rotations replayed between events are process_rotation.cpp's. */
#include "runtime/execution/job_runtime.hpp"

#include "core/errors.hpp"

#include <algorithm>

namespace jobsched {

JobRuntime::ProcessGroup& JobRuntime::group(JobId id)
{
  auto it = groups_.find(id);
  if (it != groups_.end()) return it->second;
  if (jobs_.count(id) != 0)
    throw PolicyError("job " + std::to_string(id) + " runs as one execution: its processes cannot be placed");
  const WorkloadJob& truth = this->truth(id);
  ProcessGroup& g = groups_[id];
  g.job = &truth;
  g.state = &table_.at(id);
  g.base = g.state->counters;
  const int n = std::max(1, g.job->size);
  g.exec.assign(static_cast<size_t>(n), nullptr);
  g.processor.assign(static_cast<size_t>(n), kProcessNotPlaced);
  g.computing.assign(static_cast<size_t>(n), 0);
  return g;
}

int JobRuntime::process_count(JobId id) const
{
  auto it = groups_.find(id);
  if (it != groups_.end()) return static_cast<int>(it->second.processor.size());
  const Job* job = table_.job_of(id);
  return job == nullptr ? 0 : std::max(1, job->size);
}

int JobRuntime::process_processor(JobId id, int process) const
{
  auto it = groups_.find(id);
  if (it == groups_.end()) return kProcessNotPlaced;
  return it->second.processor.at(static_cast<size_t>(process));
}

bool JobRuntime::process_computes(JobId id, int process) const
{
  auto it = groups_.find(id);
  if (it == groups_.end()) return false;
  const Execution* found = it->second.exec.at(static_cast<size_t>(process));
  if (found == nullptr) return false;
  return computes(*found);
}

JobRuntime::ProcessList JobRuntime::processes_of(JobId id) const
{
  ProcessList list;
  list.runtime_ = this;
  list.id_ = id;
  return list;
}

const JobRuntime::ProcessGroup* JobRuntime::ProcessList::group() const
{
  if (group_ == nullptr) { // a group, once made, stays where it is in groups_ until its job ends
    auto it = runtime_->groups_.find(id_);
    if (it != runtime_->groups_.end()) group_ = &it->second;
  }
  return group_;
}

int JobRuntime::ProcessList::count() const
{
  const ProcessGroup* g = group();
  return g != nullptr ? static_cast<int>(g->processor.size()) : runtime_->process_count(id_);
}

int JobRuntime::ProcessList::processor(int process) const
{
  const ProcessGroup* g = group();
  return g != nullptr ? g->processor[static_cast<size_t>(process)] : kProcessNotPlaced;
}

bool JobRuntime::ProcessList::computes(int process) const
{
  const ProcessGroup* g = group();
  return g != nullptr && g->computing[static_cast<size_t>(process)] != 0;
}

void JobRuntime::check_process_flags() const
{
  for (const auto& [id, g] : groups_)
    for (size_t p = 0; p < g.exec.size(); p++) {
      const bool kept = g.computing[p] != 0;
      if (kept != (g.exec[p] != nullptr && computes(*g.exec[p])))
        throw std::logic_error("runtime: job " + std::to_string(id) + ", process " + std::to_string(p) + ": kept as " +
                               (kept ? "computing" : "not computing") + ", which it is not");
    }
}

JobRuntime::Execution& JobRuntime::new_process_execution(ProcessGroup& g, int process)
{
  WorkloadJob spec = *g.job; // its work: the job's run time at the reference speed, on one processor
  spec.id = --last_process_id_;
  spec.size = 1;
  spec.shape = JobShape::rigid;
  spec.min_size = spec.max_size = 1;
  spec.estimate = g.job->run_time;
  spec.kill_at_estimate = false;
  g.specs.push_back(spec);
  const WorkloadJob& w = g.specs.back();
  g.states.emplace_back();
  JobState& s = g.states.back();
  s.job = &w;
  s.status = JobStatus::waiting;
  Execution& x = jobs_[w.id];
  x.job = &w;
  x.state = &s;
  x.owner = g.job->id;
  x.process = process;
  x.record = g.specs.size() - 1;
  x.group = &g;
  x.since = clock_now();
  s.start_time = x.since;
  process_executions_++;
  g.exec[static_cast<size_t>(process)] = &x;
  if (!g.state->started()) g.state->start_time = x.since;
  return x;
}

void JobRuntime::drop_process_execution(ProcessGroup& g, int process)
{
  Execution*& e = g.exec[static_cast<size_t>(process)];
  if (e == nullptr) return;
  Execution& x = *e;
  stop_exec(x);
  drop_preparation(x);
  x.exec = nullptr;
  enter(x, JobStatus::finished);
  erase_process_execution(g, x);
}

int JobRuntime::status_rank(JobStatus status, bool holds_processors)
{
  return status == JobStatus::running ? 4 : status == JobStatus::switching ? 3 : holds_processors ? 2 : 1;
}

JobStatus JobRuntime::group_status(int furthest_rank, bool started)
{
  return furthest_rank == 4   ? JobStatus::running
         : furthest_rank == 3 ? JobStatus::switching
         : furthest_rank == 2 ? JobStatus::transferring
         : started            ? JobStatus::suspended
                              : JobStatus::waiting;
}

void JobRuntime::sync_group(ProcessGroup& g)
{
  JobState& s = *g.state;
  if (s.finished()) return;
  // The union of its processes' sets, in its record's own set (its storage kept: a record is brought in line at every
  // rotation that touches the job, and a new set was a machine's worth of words allocated each time).
  ResourceSet& processors = s.processors;
  processors.clear(machine_.resource_count());
  int rank = 0; // 0 none, 1 suspended, 2 transferring, 3 switching, 4 running
  for (const Execution* e : g.exec) {
    if (e == nullptr) continue;
    const JobState& p = state(*e);
    processors |= p.processors;
    rank = std::max(rank, status_rank(p.status, p.holds_processors()));
  }
  s.status = group_status(rank, s.started());
  // Its hosts (jobs.csv's nodes_used): the most its processes were placed on at once. Not those of the last sync: its
  // processes end one by one (and VPs may leave it early), and what the last ones hold says nothing of where the job
  // ran.
  s.cost.nodes_used = std::max(s.cost.nodes_used, machine_.hosts_spanned(processors));
  JobCounters c = g.base;
  double service = 0;
  double done = 0;
  for (const JobState& p : g.states) {
    c.preemptions += p.counters.preemptions;
    c.migrations += p.counters.migrations;
    c.bytes_moved += p.counters.bytes_moved;
    c.switching_time += p.counters.switching_time;
    c.transfer_time += p.counters.transfer_time;
    service = std::max(service, p.service);
  }
  for (size_t p = 0; p < g.exec.size(); p++)
    done += g.processor[p] == kProcessEnded ? 1.0 : g.exec[p] != nullptr ? 1.0 - work_left(*g.exec[p]) : 0.0;
  c.requeues = s.counters.requeues; // the scheduler's: kept as it wrote them
  c.work_lost = s.counters.work_lost;
  s.counters = c;
  s.service = service;
  // Its dedicated time: its processes alone, one per processor of the reference speed, all at once: the work of one
  // process (its run time), in the proportion of its processes' work done.
  const double fraction = g.exec.empty() ? 0.0 : done / static_cast<double>(g.exec.size());
  s.account.dedicated_time = fraction * g.job->run_time;
  s.account.paged_run_time = s.account.dedicated_time;
  s.account.page_fault_time = 0;
}

bool JobRuntime::process_left(Execution& x, JobFate fate, std::vector<std::pair<JobId, JobFate>>& job_ends)
{
  const JobId job = x.owner;
  const int process = x.process;
  ProcessGroup& g = groups_.at(job);
  erase_process_execution(g, x);
  g.processor[static_cast<size_t>(process)] = kProcessEnded;
  g.ended++;
  const bool last = g.ended == g.processor.size();
  if (fate == JobFate::completed && !last) {
    // Its record is brought in line when the scheduler collects the process ends of this instant, once per job: a job
    // of n processes ending one by one would otherwise pass over all n at each (10,000 VPs: 10^8 steps).
    process_ends_.emplace_back(job, process);
    defer_sync(job);
    return false;
  }
  // Its last process ended, or a process failed with its host: the job leaves the machine (its other processes with
  // it).
  for (size_t p = 0; p < g.exec.size(); p++)
    drop_process_execution(g, static_cast<int>(p));
  sync_group(g);
  if (fate == JobFate::completed) {
    g.state->account.dedicated_time = g.job->run_time;
    g.state->account.paged_run_time = g.job->run_time;
  }
  g.state->status = JobStatus::finished;
  g.state->processors = ResourceSet();
  groups_.erase(job);
  job_ends.emplace_back(job, fate);
  return true;
}

void JobRuntime::place_process(JobId id, int process, int processor, bool compute, double image_bytes,
                               double resume_stall)
{
  ProcessGroup& g = group(id);
  if (process < 0 || process >= static_cast<int>(g.processor.size()))
    throw PolicyError("job " + std::to_string(id) + " has no process " + std::to_string(process));
  if (processor < 0 || processor >= machine_.resource_count())
    throw PolicyError("job " + std::to_string(id) + ": process " + std::to_string(process) + " on processor " +
                      std::to_string(processor) + ", not one of the machine's");
  const auto p = static_cast<size_t>(process);
  if (g.processor[p] == kProcessEnded)
    throw PolicyError("job " + std::to_string(id) + ": process " + std::to_string(process) + " has ended");
  // The processor as a set, made only for a start or a move (a machine's worth of words: the resumptions and
  // suspensions of every rotation need none).
  const auto single = [this, processor] {
    ResourceSet target(machine_.resource_count());
    target.set(processor);
    return target;
  };
  if (g.exec[p] == nullptr) { // not started: it starts there once it computes
    if (compute) {
      Execution& x = new_process_execution(g, process);
      g.processor[p] = processor;
      state(x).processors = single();
      x.computed_since_dispatch = false;
      advance(x);
    }
    sync_group_or_defer(g);
    return;
  }
  Execution& x = *g.exec[p];
  JobState& s = state(x);
  if (g.processor[p] != processor) { // a move: its image crosses the platform, its work goes with it
    const bool in_transit = s.status == JobStatus::transferring && !x.moving_from.empty();
    std::vector<sg4::Host*> from = in_transit ? x.moving_from : hosts_of(s.processors);
    stop_exec(x);
    drop_preparation(x);
    s.counters.migrations++;
    if (image_bytes > 0) s.counters.bytes_moved += image_bytes;
    x.held_throughout = false;
    x.compute_after = compute;
    x.computed_since_dispatch = false;
    x.moving_from = from;
    g.processor[p] = processor;
    const ResourceSet target = single();
    enter(x, JobStatus::waiting, &target);
    x.stages.push_back({JobStatus::transferring, [this, &x, from, image_bytes] {
                          auto to = hosts_of(state(x).processors);
                          if (image_lost(x, from) || image_lost(x, to)) return std::vector<sg4::ActivityPtr>();
                          return move_image(from, to, image_bytes);
                        }});
    advance(x);
    sync_group_or_defer(g);
    return;
  }
  if (s.status == JobStatus::transferring && !x.moving_from.empty()) { // on its way here: compute on arrival or not
    x.compute_after = compute;
    s.image_out = !compute;
    note_computes(x);
  } else if (compute && s.status == JobStatus::suspended) {
    x.compute_after = true;
    x.computed_since_dispatch = false;
    enter(x, JobStatus::waiting);
    if (resume_stall > 0) x.stages.push_back({JobStatus::switching, nullptr, true, resume_stall});
    advance(x);
  } else if (!compute && s.holds_processors()) {
    suspend_execution(x, false, true); // (the process's execution at hand, not looked up again by its id)
  }
  sync_group_or_defer(g);
}

void JobRuntime::restart_process(JobId id, int process, int processor, bool compute)
{
  ProcessGroup& g = group(id);
  const auto p = static_cast<size_t>(process);
  if (g.exec.at(p) != nullptr) {
    const double lost = (1 - work_left(*g.exec[p])) * g.job->run_time;
    g.state->counters.work_lost += lost;
    drop_process_execution(g, process);
  }
  g.processor[p] = kProcessNotPlaced;
  if (compute) place_process(id, process, processor, true, 0, 0);
  sync_group_or_defer(g);
}

int JobRuntime::add_process(JobId id)
{
  ProcessGroup& g = group(id);
  g.exec.push_back(nullptr);
  g.processor.push_back(kProcessNotPlaced);
  g.computing.push_back(0);
  return static_cast<int>(g.processor.size()) - 1;
}

void JobRuntime::end_process(JobId id, int process)
{
  ProcessGroup& g = group(id);
  const auto p = static_cast<size_t>(process);
  if (g.processor.at(p) == kProcessEnded) return;
  drop_process_execution(g, process);
  g.processor[p] = kProcessEnded;
  g.ended++;
  if (g.ended == g.processor.size())
    throw PolicyError("job " + std::to_string(id) +
                      ": its last process cannot be ended (the job ends when its work "
                      "is done)");
  sync_group_or_defer(g);
}

std::vector<std::pair<JobId, int>> JobRuntime::collect_process_ends()
{
  sync_deferred_groups(); // the jobs whose processes ended (process_left)
  return std::exchange(process_ends_, {});
}

void JobRuntime::sync_group_or_defer(ProcessGroup& g)
{
  if (!defer_group_records_) {
    sync_group(g);
    return;
  }
  defer_sync(g.job->id);
}

void JobRuntime::defer_sync(JobId id)
{
  if (unsynced_groups_.empty() || unsynced_groups_.back() != id) unsynced_groups_.push_back(id);
}

void JobRuntime::sync_deferred_groups()
{
  // Each record depends only on its own processes: the order does not matter, and a job listed twice syncs twice. A
  // job whose last process ended since was synced then and is gone.
  std::vector<JobId>& ids = syncing_groups_; // both lists keep their storage
  ids.swap(unsynced_groups_);
  for (JobId id : ids)
    if (auto it = groups_.find(id); it != groups_.end()) sync_group(it->second);
  ids.clear();
}

void JobRuntime::defer_group_records(bool defer)
{
  defer_group_records_ = defer;
  if (!defer) sync_deferred_groups();
}

} // namespace jobsched
