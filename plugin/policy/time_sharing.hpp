/* The interface of time-sharing policies: they answer with plans, not decisions.
 *
 * A plan says which jobs compute on which processors from now until the next plan (the end of a quantum, or the next
 * event). Jobs it leaves out are suspended (if they had started) or keep waiting. One driver applies a plan
 * atomically with the runtime's primitives: suspensions and shrinks first, then resumes, grows and starts, charging
 * the plan's context-switch and reallocation costs. Several jobs may hold one processor in different time slices; a
 * plan never gives one processor to two jobs. A policy sees each job's record (JobState: status, processors, service
 * received, costs) read-only, never its actual run time or speedup. */
#pragma once

#include "core/machine.hpp"
#include "core/resource_set.hpp"
#include "model/job_state.hpp"
#include "model/machine_events.hpp"
#include "model/policy_report.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace jobsched {

/* What a time-sharing policy sees when it plans. */
struct SystemView {
  double now = 0;
  const Machine* machine = nullptr;
  ResourceSet up; // processors whose host is available
  /* Submitted and not finished, in submission order. A record may be dropped once its job has ended (a long run keeps
   * only the records of the jobs in the system): a policy may keep these pointers from one plan to the next, but must
   * forget a job's at its job_ended() and never read it in a later plan. */
  std::vector<const JobState*> jobs;
  /* How many instants of the last plan's lookahead (Plan::lookahead) the scheduler replayed since that plan: the plan
   * in force is the lookahead's phase `replayed`, as if plan() had returned it at instants[replayed - 1]. 0: none (the
   * plan in force is the last one plan() returned). */
  size_t replayed = 0;
  /* Whether the scheduler may replay what this plan declares ahead (Plan::lookahead, Plan::cycle): false when it will
   * surely not, so that a policy need not work it out. Nothing is replayed in a run without virtual wake-ups (owners,
   * a platform with profiles, processes' events, simulation.virtual_wakeups or simulation.cycles false), with
   * executions that are SimGrid activities (ptasks) or memory images that move, nor while a host is down. True
   * promises nothing: a job may end or arrive first, a plan may stall or move an image. */
  bool replays_possible = true;
};

/* One phase of a schedule declared ahead (Cycle, Lookahead): the jobs that compute and where, by job id (ascending). */
using Phase = std::vector<std::pair<JobId, const ResourceSet*>>;

/* A schedule that repeats unchanged between events, as the policy that plans it declares it (Plan::cycle): every
 * `period` seconds from `origin`, the fraction of the period elapsed says which phase is in force, and each phase says
 * which jobs compute where: exactly what the policy's plan() would return at each boundary, so that the scheduler can
 * advance the schedule by whole cycles without asking it (SchedulerActor::set_cycles). Valid until a job arrives or
 * leaves or a host changes (then the policy plans anew, and its next plan says whether a cycle still holds). Pure
 * arithmetic: the policy computes its own boundaries with position(), so that the two cannot disagree. The phases'
 * sets must stay put as long as the cycle is declared (not in a plan's own maps, which go back to the policy once
 * applied, before the replay). The driver checks a cycle's form once (a finite period > 0, the boundaries, a phase per
 * boundary, each phase's jobs by id with a set each, none in the plan's maps) and, in a run's first cycles, each
 * phase's processors and jobs as for a lookahead's; and at every plan that the plan is the phase in force at its
 * instant and its `until` that phase's end. A policy error otherwise. */
struct Cycle {
  double origin = 0;              // when the first period began (the policy's quantum start)
  double period = 0;              // seconds (the policy's quantum)
  std::vector<double> boundaries; // fractions of the period where phases change, ascending: 0 first, 1 last
  /* Per phase p (the fractions [boundaries[p], boundaries[p + 1])): the jobs that compute and where, by job id
   * (ascending). One more, empty, phase at the end stands for a fraction at or past 1 (a rounding case). */
  std::vector<Phase> phases;
  double epsilon = 0; // the policy's tolerance on fractions (kTimeEpsilon / period)

  struct Position {
    double quantum;  // whole periods elapsed since origin (rounded within epsilon)
    double next;     // the next boundary after the current fraction, as a fraction of the period
    size_t phase;    // index into phases
    double fraction; // the fraction of the period elapsed, plus epsilon (what the boundaries are compared with)
  };
  Position position(double now) const { return position(now, boundaries.size()); } // (no hint: the search)
  /* position(now), the same to the bit, for a `now` likely in phase `hint` (stepping boundary by boundary: the phase
   * after the last one): when the hint's fractions hold the fraction, no search. */
  Position position(double now, size_t hint) const
  {
    const double elapsed = (now - origin) / period;
    const double q = std::floor(elapsed + epsilon);
    const double fraction = std::max(0.0, elapsed - q) + epsilon;
    // upper_bound's answer (the first boundary above the fraction) is hint + 1 when boundaries[hint] <= fraction <
    // boundaries[hint + 1] (ascending: every boundary before is <= fraction too).
    if (hint + 1 < boundaries.size() && boundaries[hint] <= fraction && fraction < boundaries[hint + 1])
      return {q, boundaries[hint + 1], hint, fraction};
    auto above = std::upper_bound(boundaries.begin(), boundaries.end(), fraction);
    const double next = above == boundaries.end() ? 1.0 : *above;
    return {q, next, static_cast<size_t>(above - boundaries.begin()) - 1, fraction};
  }
  /* The policy's next wake-up at `now` (its plan's `until`). */
  double until(double now) const { return until(position(now)); }
  /* The same from the position of `now`. */
  double until(const Position& p) const { return origin + (p.quantum + p.next) * period; }
};

/* The plans a policy would return at its next wake-ups, decided ahead (Plan::lookahead) when they follow from its own
 * state and the time alone while no job arrives or leaves and no host changes (AP's turns by usage, one quantum after
 * another). Phase 0 is the plan itself; phase i + 1 is the plan plan() would return when called at instants[i] (its
 * `until` after phase i) with nothing else happened, exactly that instant, the jobs' records as the phases before left
 * them. The last instant is the wake-up after the last phase. Used once, from the plan's instant: the scheduler
 * replays the phases' boundaries on its virtual clock while nothing else happens, without calling the policy, and
 * tells its next plan() how many it replayed (SystemView::replayed); the policy brings its own state there itself. A
 * phase may name only jobs that have started once the plan is applied (the plan may start them; a lookahead's replay
 * starts no job, unlike a cycle's). The phases' sets must stay put until the policy's next plan() (not in the plan's
 * own maps, which go back to the policy once applied, before the replay). The driver checks its form (the instants,
 * phase 0, each phase's jobs by id with a set each) and, in a run's first lookaheads, each phase's processors and jobs
 * (up, none given to two jobs, the jobs' bounds); that the phases are the plans plan() would return is the policy's to
 * keep (simulation.virtual_wakeups false compares). */
struct Lookahead {
  std::vector<Phase> phases;
  std::vector<double> instants; // as many as phases, ascending
  /* Optional: how many processors each phase's set has, phase after phase, entry after entry (as many as the phases'
   * entries in all); empty: not declared. A policy that knows them (AP gives each job a partition of a known size)
   * spares the runtime counting each set it replays (a set of 157 words on 10,000 processors); the driver checks them
   * with the phases' processors (in a run's first lookaheads), and a wrong one would time the replay wrongly. */
  std::vector<int> counts;
};

/* Gang scheduling's rotation of jobs made of processes (Plan::processes), as the policy that plans it declares it
 * (Plan::rotation): its phases (time slices) run in turn, each from the instant the policy wakes up (the plan's
 * `until` for the first, then `quantum` seconds after the last boundary's clock) until the next, while no job arrives
 * or leaves, no process ends or is added and no host changes. At each boundary the jobs of the phase coming in have
 * every process placed on a processor up (`where`, as in Plan::processes) computing, and every other process of the
 * phases' jobs is suspended where it is: exactly the plans plan() would return there, so that the runtime can replay
 * the boundaries without asking it (JobRuntime::replay_rotation()). The jobs' `where` vectors must stay put, unchanged,
 * as long as the rotation is declared. */
struct Rotation {
  size_t phases = 0; // >= 2
  /* Phase p's jobs, by id (ascending), each with where its processes are (processor indices by process number,
   * kProcessNotPlaced or kProcessEnded): asked for as the replay reaches the phase (a map of hundreds of slices between
   * two events is mostly not reached). The list is the policy's, read in place: it stays put until the next call. */
  std::function<const std::vector<std::pair<JobId, const std::vector<int>*>>&(size_t p)> phase_jobs;
  double quantum = 0;     // seconds from a boundary's clock to the policy's next wake-up
  double switch_cost = 0; // the plans' switch_cost (a resumed process's stall)
};

struct Plan {
  std::map<JobId, ResourceSet> run;                       // the jobs that compute until the next plan, and where
  double until = std::numeric_limits<double>::infinity(); // plan again then, even if nothing happens
  double switch_cost = 0;       // seconds a job stalls on its processors each time it is switched in (start, resume)
  double reallocation_cost = 0; // seconds of stall per processor added or removed when a running job is resized
  /* Jobs that compute more slowly than their speedup says on the processors given, and by what factor (> 1), e.g.
   * the paging a policy's model charges a job given less than its memory (Setia's APVM). A policy computes it from
   * what it sees (the job's memory, the processors it gives), never from the job's hidden run time. Jobs not listed
   * compute at their speedup's rate. The factor in force when a job starts, resumes or is resized holds until its next
   * start, resume or resize. */
  std::map<JobId, double> slowdown;
  /* The policy's model of memory images, for the jobs it lists (they must run): the image's size in bytes, loaded
   * from the image store every time the job is dispatched, its first start included, and saved when it is next
   * preempted (Setia: APMC loads a job's whole memory, APVM its active pages). Jobs not listed: their whole memory
   * (Job::image_bytes), saved on preemption and loaded back on resumption only. Without `simulation.images` nothing
   * moves either way. */
  std::map<JobId, double> image_bytes;
  /* Jobs run as processes, one per processor entry (gang-now's virtual processors): for each job listed, where each
   * of its processes is, by process number (0 .. size - 1, then one more per new process): a processor index, and
   * processors may repeat (processes doubled up on one host share its CPU); kProcessNotPlaced (-1: it has no place
   * and waits); kProcessEnded (-2: it ended, or the policy ends it now: a VP_exit its application asked for, its
   * remaining work dropped). More entries than the job has processes add processes. A listed job's `run` entry holds
   * the processors whose processes compute; its other processes are held suspended where they are (a job not in
   * `run`: all of them). A process whose processor changes moves: its image (the job's memory per processor,
   * Job::memory_kb) crosses the platform and it keeps its work, or, with `restart_moved_processes`, it starts its
   * work again there (the work done is lost and counted in work_lost). A process is resumed after `switch_cost`
   * seconds of context switch; its first start and a restart pay none. */
  static constexpr int kProcessNotPlaced = -1;
  static constexpr int kProcessEnded = -2;
  std::map<JobId, std::vector<int>> processes;
  bool restart_moved_processes = false;
  /* Fractional allotments (Cao et al.'s processor shares), for the jobs it lists: the job holds `share` processors'
   * worth of time (> 0, at most its processors' count and more than that count minus 2). The listed jobs' processor
   * sets are laid out by McNaughton's wrap-around rule: along the processors, each job's share after the previous
   * one's, so that jobs next to each other time-share the processor between them inside the plan's interval (one in
   * its first part, the other in its last), never computing on it at the same time. Such a boundary processor is in
   * both jobs' sets; the driver checks that every group of jobs linked by shared processors holds at most as many
   * shares as it has processors. A listed job computes at rate min(share, h) (its profile's parallelism h). */
  std::map<JobId, double> share;
  /* Seconds a listed running job stalls from now, before it computes again (a reallocation the policy charges
   * itself, e.g. Cao's x L CF for an allotment changed by x), added to a stall still in progress. */
  std::map<JobId, double> stall;
  /* The last plan again (its other fields empty, `until` its own): every job of the last plan still in the system keeps
   * its processors and share and holds them now, and no other job runs. Applying it would change nothing, so the
   * driver applies nothing: a policy that decides every quantum says so when a quantum changed nothing (Cao's at a
   * fixed point), instead of building and sending the whole plan again. */
  bool same_as_last = false;
  /* The plan is a phase of a schedule that goes on by itself until a job arrives or leaves or a host changes (McCann &
   * Zahorjan's quantum of pieces repeating, AP's turns by usage): the policy's plan at `until` follows from the time
   * and what the runtime computes (the jobs' records), not from anything SimGrid simulates meanwhile. Then, when
   * nothing else can happen before `until` (no job ends, no event is due, no SimGrid activity is in flight), the
   * scheduler reaches it without SimGrid: it replays the instant on a virtual clock, with the same arithmetic and
   * outputs (SchedulerActor::set_virtual_wakeups). */
  bool repeats = false;
  /* `processes` lists only the jobs made of processes whose processes change or compute now or computed until now
   * (those of the last plan's `run`); every other one has all its processes as the runtime holds them, suspended where
   * they are, none to add, move or end. The driver then looks only at the listed jobs (gang-now: a rotation touches
   * the jobs of two slices, not every job in the system). */
  bool only_listed_processes = false;
  /* Before and after applying `processes`, the driver has the runtime check the answers it keeps of which processes
   * compute against their executions (JobRuntime::check_process_flags; gang-now's validate_map asks for it). */
  bool check_processes = false;
  /* The plan is a phase of this cycle (shared by the plans of one schedule, not copied per plan), which holds until a
   * job arrives or leaves or a host changes; nullptr: no cycle is declared. Only with `repeats`. */
  std::shared_ptr<const Cycle> cycle;
  /* The plans of the policy's next wake-ups, decided ahead (see Lookahead); only with `repeats`, without `cycle`.
   * Phase 0 must be this plan's `run` and instants[0] its `until`. */
  std::shared_ptr<const Lookahead> lookahead;
  /* The plan is phase `rotation_phase` of this rotation of jobs made of processes (shared by the plans of one
   * allocation, not copied per plan), which holds until a job arrives or leaves, a process ends or is added, or a host
   * changes; nullptr: none is declared. Only with `processes`, `only_listed_processes` and `switch_cost` > 0 (the
   * driver ignores it otherwise); a rotation moves, starts and ends no process. */
  std::shared_ptr<const Rotation> rotation;
  size_t rotation_phase = 0;
};

/* The most processors a policy can give one job when that is fewer than the machine has, and why (the key and what
 * it makes of the machine). */
struct JobLimit {
  static constexpr int kAnySize = 2147483647; // `processors` of a policy that takes jobs of any size
  int processors = 0;                         // 0: the machine's processors
  std::string reason;
  /* The processors the policy gives a job at least for its memory (null: its size is all), and the keys that make it
   * so: a job that needs more than the machine's processors is left out like a larger one (workload's MemoryNeed). */
  std::function<double(const Job&)> least_processors = nullptr;
  std::string least_processors_reason;
};

class TimeSharingPolicy {
 public:
  virtual ~TimeSharingPolicy() = default;
  /* A job larger than this is left out of the workload like a job larger than the machine (workload.oversize_jobs:
   * skipped and counted as larger_than_machine, or an error). */
  virtual JobLimit job_limit() const { return {}; }
  /* The policy sizes jobs by their memory (Job::memory_kb): a workload where no job has any is an input error, since
   * the policy would silently be its memory-blind sibling. */
  virtual bool needs_memory() const { return false; }
  /* The policy's plans place jobs as processes (Plan::processes), several of which may share a host's CPU (the runtime
   * executes each as its own activity or timer, re-timed as the processes on its host change): the workload's
   * processes' own events (new_VP, VP_exit) need such a policy, and the busy area is the union of each processor's
   * running intervals (processes doubled up on one run at once). */
  virtual bool places_processes() const { return false; }
  /* The job shapes (workload.jobs.shape) the policy schedules as they are: a workload of another shape is an input
   * error. By default every shape (the driver keeps a rigid job's processor count, and a moldable one's once it
   * started). `jobsched check-policy` tries each shape taken. */
  virtual bool takes_shape(JobShape /*shape*/) const { return true; }
  virtual void job_submitted(const Job& /*job*/, double /*now*/) {}
  /* The job left for good: completed, killed (its walltime, its owner with owners.eviction: kill) or failed (its host
   * failed, without requeue). A policy may forget it. */
  virtual void job_ended(const Job& /*job*/, JobEnd /*how*/, double /*now*/) {}
  /* Its host failed and it waits again, its work to do anew (owners.eviction: requeue). By default it ends as failed
   * and is submitted again; a policy that keeps something of it across (the hierarchical policies: its leaf and its
   * release) tells the two apart here. */
  virtual void job_requeued(const Job& job, double now)
  {
    job_ended(job, JobEnd::failed, now);
    job_submitted(job, now);
  }
  virtual void host_changed(const HostChange& /*change*/, double /*now*/) {}
  /* Processes (Plan::processes): process `process` of the job finished its work (not the job's last one: then
   * job_ended), and the job's own events, `added` a new process (new_VP) or the application asks one to end (VP_exit;
   * `draw`, uniform in [0, 1), picks which). */
  virtual void process_ended(const Job& /*job*/, int /*process*/, double /*now*/) {}
  virtual void process_event(const Job& /*job*/, bool /*added*/, double /*draw*/, double /*now*/) {}
  /* The processors up when the run begins (owners present at time 0 hold theirs), before the first submission. */
  virtual void processors_up_at_start(const ResourceSet& /*up*/) {}
  /* The scheduler replayed `boundaries` boundaries of the last plan's rotation (Plan::rotation), the last at
   * `last_boundary`: the phase in force is the plan's rotation_phase + boundaries (modulo the phases), as if plan()
   * had rotated to it at last_boundary. Called right after the replay, before any event. */
  virtual void rotation_replayed(long /*boundaries*/, double /*last_boundary*/) {}
  /* Called at every instant where something happened, and when the previous plan's `until` has come. */
  virtual Plan plan(const SystemView& view) = 0;
  /* A lookahead extended on demand (Plan::lookahead): the scheduler replayed the last lookahead whole (the last plan's,
   * or the last extension), its last phase is in force, and `now`, its last instant (the policy's wake-up), has come
   * with nothing else happened: no job arrived or left, no host changed, no other event is due at `now`. Instead of
   * plan() at `now`, the policy may declare more phases: a Lookahead whose phase 0 is the phase in force (its jobs on
   * the same sets, which stay put), instants[0] `now`, and phase i + 1 the plan plan() would return at instants[i] as
   * in a plan's lookahead (so phase 1 is its plan at `now`). The scheduler replays it as a plan's lookahead and checks
   * it likewise (its form; in a run's first lookaheads, each phase's processors and jobs), and the next plan()'s
   * SystemView::replayed counts this extension's instants replayed. The policy learns only that its wake-up has come
   * with nothing else happened, as plan() at `now` would. `up`: the processors up (those of the last plan's view),
   * lent for the call. nullptr (the default): none, plan() is called at `now`. */
  virtual std::shared_ptr<const Lookahead> extend_lookahead(double /*now*/, const ResourceSet& /*up*/)
  {
    return nullptr;
  }
  /* The driver hands back each plan plan() returned once it is done with it (applied, or refused), so that the policy
   * may build its next plans in its storage: the nodes of its maps, instead of a new node per job per plan (AP's
   * quanta). What it holds is no plan in force; a policy need not keep it. */
  virtual void reuse_plan(Plan&& /*plan*/) {}
  /* The policy schedules malleable jobs by their parallelism profile (Cao et al.): jobs of the workload without one
   * (rigid jobs of a trace, the batch generator's) become one phase of constant parallelism = their size, over their
   * run time, malleable from 1 to the machine's processors. */
  virtual bool runs_parallelism_profiles() const { return false; }
  /* The policy may declare cycles (Plan::cycle): trace.csv then has the columns of aggregated rows. */
  virtual bool declares_cycles() const { return false; }
  /* At the end of the run: the policy's own columns, summary keys and checks (model/policy_report.hpp). */
  virtual PolicyReport report() const { return {}; }
};

} // namespace jobsched
