/* Gang scheduling on a heterogeneous network of workstations (Al-Saqabi, Otto & Walpole, "Gang Scheduling in
 * Heterogeneous Distributed Systems") as the time-sharing policy `gang-now`: the paper's allocation map and event
 * handlers (events.hpp: MTAT, Compression, Expansion) decide, and each plan says where every virtual processor (VP)
 * is and which compute (Plan::processes); the one time-sharing driver and the runtime make the platform follow.
 *
 *   - Workstations: the compute hosts, one processor each (a VP goes to its host's first core), capacity a_i = the
 *     host's speed / the slowest host's (rational.hpp, capacity_from_speeds), architecture = the host's property
 *     `arch` ("any" without one).
 *   - Jobs: a job of size n is n VPs of its architecture (Job::arch; a job without one takes the architecture of the
 *     largest total capacity, the first in host order on a tie), each with the job's run time as its work at the
 *     reference speed. A VP ends when its work is done (VP_exit), the job with its last VP.
 *   - Time slices: the map's slices run in turn, `quantum` seconds each; a VP computes while its job holds the running
 *     slice and its workstation is available; a VP resumed pays `switch_cost` seconds. With one slice nothing rotates;
 *     when the slice count changes the running slice keeps its index (the first slice if that is gone).
 *   - Owners (the scenario's `owners:` section; any host change): a workstation whose owner comes back leaves the map
 *     (processor_exit) and its VPs are reallocated: their images move (`eviction: migrate`, the paper), or they are
 *     killed and start again where they go, their work lost (`restart`); under `wait` the map keeps the workstation
 *     and its VPs are suspended until the owner leaves. An owner leaving brings the workstation back (new_processor).
 *   - The jobs' own events (new_VP, VP_exit) come from the workload's rates (runtime/events/process_source.hpp); a
 *     VP_exit ends one of the job's placed VPs (picked by the event's draw), never its last, and is ignored when the
 *     job has none placed. */
#include "policies/gang_now/runtime_policy.hpp"
#include "policy/policy.hpp"
#include "policy/reused_map.hpp"

#include "core/errors.hpp"
#include "core/time.hpp"
#include "core/time_format.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <unordered_map>

namespace jobsched {
namespace {

namespace gn = gang_now;

class GangNow : public TimeSharingPolicy {
 public:
  explicit GangNow(const PolicyEnv& env) : machine_(env.machine)
  {
    const Params& p = env.params;
    gn::SchedulerOptions& o = spec_.options;
    // The choices and ranges of the parameters are declared with them (below) and checked by Params.
    o.allocation.mtat = gn::parse_mtat_variant(p.get_string("mtat"));
    o.allocation.compression = gn::parse_compression_variant(p.get_string("compression"));
    o.allocation.pool_target = gn::parse_pool_target(p.get_string("pool_target"));
    o.expansion = gn::parse_expansion_search(p.get_string("expansion"));
    const long slices = p.get_int("max_exhaustive_slices");
    // A run cannot refuse an event: on a map with more slices holding free entries the exhaustive search gives way to
    // the column search for that event.
    o.max_exhaustive_slices = static_cast<int>(slices);
    o.exhaustive_falls_back = true;
    o.new_slice_rule = gn::parse_new_slice_rule(p.get_string("new_slice_rule"));
    o.validate = p.get_bool("validate_map");
    // A run's maps are the handlers' own, whose change counters are kept: a round retries only the jobs it may move.
    o.remember_declined = true;
    // The round's column search shares its free rows among the jobs, and a turn that cannot win stops early.
    o.shared_search = true;
    // The handlers keep the map's index (each slice's free entries, each job's slices) instead of passing over the map.
    o.indexed = true;
    const std::string& eviction = p.get_string("eviction");
    spec_.eviction = eviction == "wait"      ? Eviction::wait
                     : eviction == "restart" ? Eviction::restart
                                             : Eviction::migrate;
    spec_.quantum = p.get_double("quantum");
    spec_.switch_cost = p.get_double("switch_cost");
    // A context switch as long as the slice would leave no time to compute: the run would never end.
    if (spec_.switch_cost >= spec_.quantum)
      throw InputError("policy.params.switch_cost: the context switch (" + format_exact(spec_.switch_cost) +
                       " s) must be shorter than the quantum (" + format_exact(spec_.quantum) + " s)");
    double slowest = std::numeric_limits<double>::infinity();
    for (int h = 0; h < machine_.host_count(); h++)
      slowest = std::min(slowest, machine_.speed(h));
    std::map<std::string, double> capacity_of_arch;
    for (int h = 0; h < machine_.host_count(); h++) {
      gn::Processor w{machine_.host_name(h),
                      gn::capacity_from_speeds(machine_.speed(h), slowest, "host " + machine_.host_name(h)),
                      machine_.arch(h)};
      capacity_of_arch[w.arch] += boost::rational_cast<double>(w.capacity);
      host_index_[w.name] = h;
      workstations_.push_back(std::move(w));
    }
    double best = -1;
    for (const auto& w : workstations_) // the largest total capacity, the first in host order on a tie
      if (capacity_of_arch[w.arch] > best) {
        best = capacity_of_arch[w.arch];
        default_arch_ = w.arch;
      }
    busy_.assign(workstations_.size(), false);
    map_.processors = workstations_;
  }

  bool places_processes() const override { return true; }
  /* Any size: VPs beyond the workstations double up on them. */
  JobLimit job_limit() const override { return {JobLimit::kAnySize, "", nullptr, ""}; }

  void processors_up_at_start(const ResourceSet& up) override
  {
    map_ = gn::AllocationMap{};
    slice_known_.clear();
    for (size_t h = 0; h < workstations_.size(); h++) {
      busy_[h] = !up.test(machine_.first_resource(static_cast<int>(h)));
      // Under `wait` owners do not change the map: every workstation is in it from the start.
      if (!busy_[h] || spec_.eviction == Eviction::wait) map_.processors.push_back(workstations_[h]);
    }
  }

  void job_submitted(const Job& job, double now) override
  {
    const std::string arch = job.arch.empty() ? default_arch_ : job.arch;
    if (std::none_of(workstations_.begin(), workstations_.end(),
                     [&](const gn::Processor& w) { return w.arch == arch; }))
      throw InputError("gang-now: job " + std::to_string(job.id) + " is of architecture '" + arch +
                       "', and no compute host has it (host property arch)");
    Vps& v = jobs_[job.id];
    changed_ids_.push_back(job.id);
    v.arch = arch;
    v.where.assign(static_cast<size_t>(std::max(1, job.size)), Plan::kProcessNotPlaced);
    apply(gn::submit_job(std::move(map_), job.id, {{arch, std::max(1, job.size)}}, spec_.options));
    after_event(now);
  }

  void job_ended(const Job& job, JobEnd, double now) override
  {
    if (jobs_.erase(job.id) == 0) return;
    if (map_.job(job.id) != nullptr) apply(gn::job_exit(std::move(map_), job.id, spec_.options));
    after_event(now);
  }

  void process_ended(const Job& job, int process, double now) override
  {
    auto it = jobs_.find(job.id);
    if (it == jobs_.end()) return;
    int& host = it->second.where.at(static_cast<size_t>(process));
    const int was = host;
    host = Plan::kProcessEnded;
    changed_ids_.push_back(job.id);
    if (was >= 0) {
      apply(gn::vp_exit(std::move(map_), job.id, workstations_[static_cast<size_t>(was)].name, spec_.options));
    } else { // a waiting job holds no entry: only its count changes
      for (auto& j : map_.jobs)
        if (j.id == job.id && !j.vps.empty()) {
          j.declined_at.clear();
          if (--j.vps.begin()->second == 0) j.vps.clear();
        }
    }
    after_event(now);
  }

  void process_event(const Job& job, bool added, double draw, double now) override
  {
    auto it = jobs_.find(job.id);
    if (it == jobs_.end()) return;
    Vps& v = it->second;
    changed_ids_.push_back(job.id);
    if (added) {
      v.where.push_back(Plan::kProcessNotPlaced);
      new_vps_++;
      apply(gn::new_vp(map_, job.id, v.arch, spec_.options));
      after_event(now);
      return;
    }
    std::vector<size_t> placed;
    size_t alive = 0;
    for (size_t p = 0; p < v.where.size(); p++) {
      alive += v.where[p] != Plan::kProcessEnded;
      if (v.where[p] >= 0) placed.push_back(p);
    }
    if (alive <= 1 || placed.empty()) return;
    const size_t pick =
        placed[std::min(placed.size() - 1, static_cast<size_t>(draw * static_cast<double>(placed.size())))];
    const int host = v.where[pick];
    v.where[pick] = Plan::kProcessEnded; // the plan tells the runtime to end it
    vp_exits_++;
    apply(gn::vp_exit(std::move(map_), job.id, workstations_[static_cast<size_t>(host)].name, spec_.options));
    after_event(now);
  }

  void host_changed(const HostChange& change, double now) override
  {
    const auto h = static_cast<size_t>(change.host);
    if (change.owner) (change.up ? new_processors_ : processor_exits_)++;
    busy_[h] = !change.up;
    rotation_ = nullptr;
    if (spec_.eviction == Eviction::wait) return; // the map keeps it; its VPs are suspended while it is down
    const std::string& name = workstations_[h].name;
    // The handlers take the map (no copy of it) and keep its index.
    if (!change.up) {
      if (map_.row_of(name) >= 0) apply(gn::processor_exit(std::move(map_), name, spec_.options));
    } else if (map_.row_of(name) < 0) {
      apply(gn::new_processor(std::move(map_), workstations_[h], spec_.options));
    }
    after_event(now);
  }

  /* The scheduler replayed the declared rotation's boundaries (Plan::rotation): as many rotations as rotate_if_due()
   * would have made, the last at `last_boundary`. */
  void rotation_replayed(long boundaries, double last_boundary) override
  {
    active_ = (active_ + static_cast<size_t>(boundaries)) % map_.slices.size();
    slice_start_ = last_boundary;
    rotations_ += boundaries;
    ran_ = jobs_of_slice(active_); // the jobs that computed in the last boundary's slice
  }

  Plan plan(const SystemView& view) override
  {
    if (!changed_ids_.empty()) rotation_ = nullptr; // some VPs were placed, moved or ended
    rotate_if_due(view.now);
    std::vector<JobId>& running = running_;
    running = jobs_of_slice(active_);
    Plan plan;
    plan.switch_cost = spec_.switch_cost;
    plan.restart_moved_processes = spec_.eviction == Eviction::restart;
    // Only the jobs whose VPs compute now or computed until now, or were placed, moved or ended since the last plan:
    // the others' VPs are suspended where the runtime holds them.
    plan.only_listed_processes = true;
    plan.check_processes = spec_.options.validate; // the runtime's kept answers too (Plan::check_processes)
    // The jobs that may be listed: those running now or until now, or changed since the last plan (changed_ids_),
    // in increasing order, instead of every job in the system.
    std::vector<JobId>& candidates = candidates_;
    candidates.swap(changed_ids_); // both keep their storage from plan to plan
    changed_ids_.clear();
    candidates.insert(candidates.end(), running.begin(), running.end());
    candidates.insert(candidates.end(), ran_.begin(), ran_.end());
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    // The maps are built in the nodes of the last plan's (reuse_plan), in increasing id order: a listed job's vector
    // and a running job's set keep their storage, where a plan per rotation allocated both anew for every job listed.
    auto processes = processes_.build(plan.processes);
    auto run = runs_.build(plan.run);
    ResourceSet& computing = computing_;
    for (JobId candidate : candidates) {
      auto found = jobs_.find(candidate);
      if (found == jobs_.end()) continue;
      const JobId id = found->first;
      Vps& v = found->second;
      // The driver places processes by processor: the map's workstations are hosts, a VP goes to the host's first
      // core.
      std::vector<int>& where = processes.put(id);
      where.resize(v.where.size());
      for (size_t k = 0; k < v.where.size(); k++)
        where[k] = v.where[k] >= 0 ? machine_.first_resource(v.where[k]) : v.where[k];
      if (v.processors != where) v.processors = where; // (a rotation's copy: as the plans place them)
      if (!std::binary_search(running.begin(), running.end(), id)) continue;
      computing.clear(machine_.resource_count());
      for (int p : where)
        if (p >= 0 && view.up.test(p)) computing.set(p);
      if (!computing.empty()) run.put(id) = computing;
    }
    processes.finish();
    run.finish();
    if (map_.slices.size() > 1) plan.until = slice_start_ + spec_.quantum;
    ran_.swap(running);
    // Until the next event the slices run in turn: the scheduler may replay the boundaries without asking (the map,
    // the VPs' places and the processors up stay as they are; a stall at each resumption is what the runtime models).
    // (host_changed(), apply() and a VP placed, moved or ended drop the rotation declared: a new one is declared.)
    if (view.replays_possible && map_.slices.size() > 1 && spec_.switch_cost > 0) {
      if (!rotation_) rotation_ = declare_rotation();
      plan.rotation = rotation_;
      plan.rotation_phase = active_;
    } else {
      rotation_ = nullptr;
    }
    return plan;
  }

  void reuse_plan(Plan&& plan) override
  {
    processes_.keep(plan.processes);
    runs_.keep(plan.run);
  }

  /* gang-now's own counts, after summary.json's common keys (sweeps aggregate them like any metric). */
  PolicyReport report() const override
  {
    PolicyReport r;
    r.summary_numbers = {{"processor_exits", static_cast<double>(processor_exits_)},
                         {"new_processors", static_cast<double>(new_processors_)},
                         {"scheduler_events", static_cast<double>(events_)},
                         {"rotations", static_cast<double>(rotations_)},
                         {"max_slices", static_cast<double>(max_slices_)},
                         {"new_vps", static_cast<double>(new_vps_)},
                         {"vp_exits", static_cast<double>(vp_exits_)}};
    return r;
  }

 private:
  struct Vps {
    std::string arch;
    std::vector<int> where; // per process: its workstation (host index), kProcessNotPlaced or kProcessEnded
    /* `where` as the last plan that listed the job placed its processes (processor indices): what a declared rotation
     * points to (Rotation::phase_jobs), in place while the job is in the map. */
    std::vector<int> processors;
  };

  /* The jobs of slice `slice`, increasing, each with its `processors` (those of the jobs of the map, as
   * Rotation::phase_jobs hands them over). Found from the slice's entries once while the map stands (apply() forgets
   * them): the plan, each replayed boundary reaching the slice and the replay's end read them, and a map of few slices
   * is reached again and again between two events. */
  const std::vector<JobId>& jobs_of_slice(size_t slice)
  {
    static const std::vector<JobId> kNone;
    if (slice >= map_.slices.size()) return kNone;
    if (slice_known_.size() != map_.slices.size()) { // (apply() forgets them all)
      slice_jobs_.resize(map_.slices.size());
      slice_pairs_.resize(map_.slices.size());
      slice_known_.assign(map_.slices.size(), 0);
    }
    std::vector<JobId>& out = slice_jobs_[slice];
    if (slice_known_[slice] != 0) return out;
    out.clear();
    for (const gn::Entry& e : map_.slices[slice]) // a job's entries are often side by side
      if (!e.free() && (out.empty() || out.back() != e.job)) out.push_back(e.job);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    auto& pairs = slice_pairs_[slice];
    pairs.clear();
    for (JobId id : out) {
      auto found = jobs_.find(id);
      pairs.emplace_back(id, found != jobs_.end() ? &found->second.processors : nullptr);
    }
    slice_known_[slice] = 1;
    return out;
  }

  /* The map's slices as a rotation (Plan::rotation): each slice's jobs with their processes' processors, found when
   * the replay reaches the slice. Every job in the map was listed by a plan since its VPs last changed (changed_ids_),
   * so its `processors` are current; the map and they stay as they are while the rotation is declared. */
  std::shared_ptr<const Rotation> declare_rotation()
  {
    auto rotation = std::make_shared<Rotation>();
    rotation->phases = map_.slices.size();
    rotation->quantum = spec_.quantum;
    rotation->switch_cost = spec_.switch_cost;
    rotation->phase_jobs = [this](size_t s) -> const std::vector<std::pair<JobId, const std::vector<int>*>>& {
      static const std::vector<std::pair<JobId, const std::vector<int>*>> kNone;
      jobs_of_slice(s);
      return s < slice_pairs_.size() ? slice_pairs_[s] : kNone;
    };
    return rotation;
  }

  void apply(gn::EventResult result)
  {
    rotation_ = nullptr;
    map_ = std::move(result.map);
    slice_known_.clear();
    events_++;
    max_slices_ = std::max(max_slices_, static_cast<long>(map_.slices.size()));
    // A move takes the job's first `count` processes on `from`. A job with many moves in the event (a large job
    // expanding or placed) finds them in an index of its processes by host (positions, increasing; those before
    // `head` taken) instead of by a pass over its processes per move.
    constexpr int kIndexedMoves = 8;
    struct Positions {
      std::vector<size_t> at;
      size_t head = 0;
    };
    std::unordered_map<JobId, int> moves_of;
    for (const gn::VpMove& m : result.migrations)
      moves_of[m.job]++;
    for (const gn::VpCount& c : result.suspended)
      moves_of[c.job]++;
    for (const gn::VpCount& c : result.placed)
      moves_of[c.job]++;
    std::unordered_map<JobId, std::unordered_map<int, Positions>> by_host;
    auto take = [&](JobId job, int from, int to, int count, const char* what) {
      auto it = jobs_.find(job);
      if (it == jobs_.end())
        throw PolicyError(std::string("gang-now: ") + what + " of unknown job " + std::to_string(job));
      changed_ids_.push_back(job);
      std::vector<int>& where = it->second.where;
      if (moves_of[job] < kIndexedMoves) {
        for (int& h : where) {
          if (count == 0) break;
          if (h == from) {
            h = to;
            count--;
          }
        }
      } else {
        auto [entry, fresh] = by_host.try_emplace(job);
        auto& hosts = entry->second;
        if (fresh)
          for (size_t k = 0; k < where.size(); k++)
            hosts[where[k]].at.push_back(k);
        Positions& source = hosts[from];
        const size_t n = std::min(source.at.size() - source.head, static_cast<size_t>(count));
        std::vector<size_t> moved(source.at.begin() + static_cast<long>(source.head),
                                  source.at.begin() + static_cast<long>(source.head + n));
        source.head += n;
        for (size_t k : moved)
          where[k] = to;
        count -= static_cast<int>(n);
        Positions& target = hosts[to];
        const auto middle = static_cast<long>(target.at.size());
        target.at.insert(target.at.end(), moved.begin(), moved.end());
        std::inplace_merge(target.at.begin() + static_cast<long>(target.head), target.at.begin() + middle,
                           target.at.end());
      }
      if (count > 0)
        throw PolicyError(std::string("gang-now: ") + what + " of job " + std::to_string(job) +
                          ": more VPs than it has there");
    };
    for (const gn::VpMove& m : result.migrations)
      take(m.job, host_index_.at(m.from), host_index_.at(m.to), m.vps, "moved VPs");
    for (const gn::VpCount& s : result.suspended)
      take(s.job, host_index_.at(s.processor), Plan::kProcessNotPlaced, s.vps, "suspended VPs");
    for (const gn::VpCount& p : result.placed)
      take(p.job, Plan::kProcessNotPlaced, host_index_.at(p.processor), p.vps, "placed VPs");
  }

  void after_event(double now)
  {
    const size_t tau = map_.slices.size();
    if (active_ >= tau) active_ = 0;
    // The running slice gets a whole quantum from the moment it has another slice to share the time with.
    if (tau_ <= 1) slice_start_ = now;
    tau_ = tau;
  }

  void rotate_if_due(double now)
  {
    const size_t tau = map_.slices.size();
    tau_ = tau;
    if (tau <= 1) {
      active_ = 0;
      slice_start_ = now;
      return;
    }
    if (now + kTimeEpsilon < slice_start_ + spec_.quantum) return;
    active_ = (active_ + 1) % tau;
    slice_start_ = now;
    rotations_++;
  }

  const Machine& machine_;
  GangNowPolicySpec spec_;
  std::vector<gn::Processor> workstations_; // one per compute host, in host order
  std::unordered_map<std::string, int> host_index_;
  std::string default_arch_;
  std::vector<bool> busy_;
  gn::AllocationMap map_;
  std::map<JobId, Vps> jobs_;
  std::vector<JobId> changed_ids_; // the jobs whose `where` changed since the last plan (some more than once)
  std::vector<JobId> ran_;         // the jobs of the running slice at the last plan, increasing
  // plan()'s lists and set, kept with their storage: the running slice's jobs, the jobs that may be listed, a job's
  // processors that compute; and the maps of the plans handed back (reuse_plan), in whose nodes the next are built.
  std::vector<JobId> running_;
  std::vector<JobId> candidates_;
  ResourceSet computing_;
  ReusedMap<std::vector<int>> processes_;
  ReusedMap<ResourceSet> runs_;
  std::shared_ptr<const Rotation> rotation_; // the map's rotation as declared last, until the map or the VPs change
  // Per slice of the map: its jobs (jobs_of_slice()) and the same with their processors, while slice_known_ says so.
  std::vector<std::vector<JobId>> slice_jobs_;
  std::vector<std::vector<std::pair<JobId, const std::vector<int>*>>> slice_pairs_;
  std::vector<char> slice_known_;
  size_t active_ = 0; // the running slice
  size_t tau_ = 0;    // the map's slices when last looked at
  double slice_start_ = 0;
  long processor_exits_ = 0;
  long new_processors_ = 0;
  long events_ = 0;
  long rotations_ = 0;
  long max_slices_ = 0;
  long new_vps_ = 0;
  long vp_exits_ = 0;
};

PolicyRegistration gang_now{
    {"gang-now",
     "Al-Saqabi et al.'s gang scheduling on a heterogeneous network of workstations: jobs are VPs placed by MTAT, "
     "Compression and Expansion in an allocation map of time slices; owners' returns migrate, suspend or restart VPs",
     {{"mtat", "optimal", "MTAT variant: optimal (exact minimum) or paper (Figure 3 as printed)", {"optimal", "paper"}},
      {"compression", "exact", "Compression variant: exact or paper", {"exact", "paper"}},
      {"pool_target",
       "common",
       "Compression's target with several architectures: common or per-pool",
       {"common", "per-pool"}},
      {"expansion", "column", "Expansion's search for free space: column or exhaustive", {"column", "exhaustive"}},
      {"max_exhaustive_slices",
       "12",
       "expansion: exhaustive only: the exhaustive search on maps of at most this many slices with free entries",
       {},
       ParamRange::between(1, 24)},
      {"new_slice_rule",
       "turnaround",
       "new slice or free space: turnaround (4.4.1) or time-share (4.3)",
       {"turnaround", "time-share"}},
      {"eviction",
       "migrate",
       "a returning owner's guests: migrate (the paper), wait (suspended there) or restart",
       {"migrate", "wait", "restart"}},
      {"quantum", "60.0", "seconds each time slice runs in turn", {}, ParamRange::at_least(kMinQuantum)},
      {"switch_cost", "0.5", "seconds a VP stalls when its slice starts again", {}, ParamRange::at_least(0)},
      {"validate_map", "false",
       "check every rule of the allocation map before and after each event, and the runtime's record of which VPs "
       "compute at each plan (the tests do; slow on large maps)"}},
     nullptr,
     [](const PolicyEnv& env) { return std::make_unique<GangNow>(env); }}};

} // namespace
} // namespace jobsched
