/* The driver of gang scheduling on a network of workstations (Al-Saqabi, Otto & Walpole, "Gang Scheduling in
 * Heterogeneous Distributed Systems"): it keeps the allocation map (policies/gang_now/allocation_map.hpp), hands each
 * event to the paper's handlers (policies/gang_now/events.hpp) and makes the platform follow their decisions through
 * the JobRuntime.
 *
 * Each VP is one runtime job of one process on its workstation: its work is W flops (W = the job's work per VP x the
 * slowest workstation's speed), and VPs doubled up on a workstation share its CPU (SimGrid's ptask model), so
 * processor i with n_i VPs ends them after n_i W / speed_i: MTAT's turnaround n_i / a_i in units of W / slowest speed.
 * A job ends with its last VP.
 *
 * Time slices: the map's slices run in turn, `quantum` seconds each (slice 0, 1, ..., tau - 1, 0...). A VP computes
 * while its job holds the running slice and its workstation is available; a job in several slices runs on in each of
 * them. A VP that starts computing again at a slice change first stalls `switch_cost` seconds (its context switch).
 * With one slice nothing rotates. When the map's slice count changes the running slice keeps its index (the first
 * slice if that is gone).
 *
 * Events, in the order of one instant: VPs that ended their work (VP_exit; the job's last: the job leaves), owners
 * (processor_exit, new_processor), submissions, the jobs' own new_VP and VP_exit, then the slice change. After each
 * event the VPs the handlers moved are given their new workstations; then reconcile() brings the runtime in line:
 *   - a VP whose workstation changed migrates (JobRuntime::migrate): it stops, its image (`image_bytes`) crosses the
 *     network from the old workstation to the new one (SimGrid times the transfer, with contention), and it goes on
 *     with the work it had left; it is suspended again at once if its slice is not running. Only between
 *     workstations of one architecture (the handlers keep VPs in their pools). A VP already in transit finishes its
 *     transfer first;
 *   - eviction `restart`: a VP moved off a workstation whose owner came back is killed and starts from scratch on
 *     its new workstation (no image moves; its work is counted as lost);
 *   - eviction `wait`: owners do not change the map; a VP on a busy workstation is suspended until the owner leaves.
 * The handlers ignore migration costs (as the paper does); the runtime charges them.
 *
 * The jobs' own events (new_VP, VP_exit): Poisson processes of `new_vp_per_hour` and `vp_exit_per_hour` per job from
 * its arrival until it ends, drawn from the job's own random stream. A new VP has the job's full work per VP; a VP_exit
 * ends one of the job's placed VPs, drawn uniformly (its remaining work is dropped: the application ended it), and is
 * skipped when the job has a single VP left or none placed. */
#pragma once

#include "core/machine.hpp"
#include "core/random.hpp"
#include "policies/gang_now/runtime_policy.hpp"
#include "runtime/execution/job_runtime.hpp"
#include "workload/gang_now_workload.hpp"

#include <deque>
#include <map>
#include <memory>
#include <vector>

namespace jobsched {

struct GangJobRecord {
  const GangJob* job = nullptr;
  double submit = 0;
  double first_run = -1; // the first instant one of its VPs computed
  double finish = -1;
  int max_vps = 0;
  int new_vps = 0;  // new_VP events
  int vp_exits = 0; // VP_exit events raised by the job (not VPs that completed)
  long migrations = 0;
  double bytes_moved = 0;
  long restarts = 0;
  double work_lost = 0; // seconds of VP work (on the slowest workstation) lost to restarts
  double dedicated = 0; // MTAT's turnaround for its initial VPs on its whole pool, alone: the ideal
};

struct GangNowCounters {
  long processor_exits = 0;
  long new_processors = 0;
  long rotations = 0;
  long events = 0;
  long max_slices = 0;
};

class GangNowDriver {
 public:
  /* `processors`: the map's description of each compute host (name, capacity a_i, architecture), processor p of
   * `machine` being the p-th; `busy`: owners there at time 0. */
  GangNowDriver(const Machine& machine, std::vector<gang_now::Processor> processors, JobRuntime& runtime,
                const GangNowPolicySpec& policy, double new_vp_per_hour, double vp_exit_per_hour, std::uint64_t seed,
                const std::vector<bool>& busy);

  void vp_ended(JobId vp, JobFate fate, double now);
  void owner_changed(int host, bool busy, double now);
  void submit(const GangJob& job, double now);
  /* The jobs' own events and the slice change due at `now`. */
  void tick(double now);
  /* Make the runtime follow the map (see above). */
  void reconcile(double now);
  double next_wakeup() const;
  bool empty() const { return in_system_.empty(); }
  long jobs_in_system() const { return static_cast<long>(in_system_.size()); }
  /* The run stops before its jobs end (simulation.max_backlog): every VP still in the runtime is killed, so that no
   * SimGrid activity outlives the scheduler. */
  void stop();
  /* Every job in the system has all the workstations of its architecture taken by their owners: none can progress
   * until an owner leaves. */
  bool all_blocked_by_owners() const;
  const std::vector<GangJobRecord>& records() const { return records_; }
  const GangNowCounters& counters() const { return counters_; }
  const gang_now::AllocationMap& map() const { return map_; }

 private:
  struct Vp {
    JobId id = 0;  // the runtime job of its current incarnation
    long job = 0;  // the gang job
    int host = -1; // where the map puts it (-1: nowhere, its job waits)
    int on = -1;   // where the runtime has it (-1: not started)
  };
  struct Dynamics {
    RandomStream random;
    double next_new_vp;
    double next_vp_exit;
  };
  void apply(const gang_now::EventResult& result);
  Vp& new_vp_record(long job);
  void finish_job(long job, double now);
  void rotate_if_due(double now);
  void after_event(double now);
  void job_vp_exit(long job, double now);
  void job_new_vp(long job, double now);
  std::vector<Vp*> vps_of(long job);
  ResourceSet on(int host) const;

  const Machine& machine_;
  std::vector<gang_now::Processor> processors_;
  std::map<std::string, int> host_index_;
  JobRuntime& runtime_;
  GangNowPolicySpec policy_;
  double new_vp_per_hour_;
  double vp_exit_per_hour_;
  std::uint64_t seed_;
  gang_now::AllocationMap map_;
  std::vector<bool> busy_;
  std::deque<WorkloadJob> vp_jobs_; // every VP incarnation, as a runtime job (stable addresses)
  std::map<JobId, Vp> vps_;         // alive VPs by runtime id
  std::vector<GangJobRecord> records_;
  std::map<long, size_t> record_of_;
  std::vector<long> in_system_;
  std::map<long, Dynamics> dynamics_;
  JobId next_vp_id_ = 0;
  size_t active_ = 0; // the running slice
  size_t tau_ = 0;    // the map's slices when last looked at
  double slice_start_ = 0;
  GangNowCounters counters_;
};

} // namespace jobsched
