/* Jobs on the platform: the primitives every policy's decisions and plans are made of.
 *
 * Work model: a job's work is given at one processor (W = run time x S(size) seconds at the reference speed, see
 * model/speedup.hpp); on n processors it progresses S(n) times as fast, so a rigid linear job of size n lasts its run
 * time. Its execution is one SimGrid parallel task (ptask_L07) over its processors, each doing an equal share; a
 * processor is one core (a host with c cores used by k processes of a job appears k times in the task). Suspending a
 * job cancels its task and keeps its remaining work; resuming, resizing or migrating starts a new task for the rest.
 *
 * Before a job computes again it may have to prepare, in stages that each wait for SimGrid activities: wait for the
 * images that other jobs are still writing out of its processors, read its own image back (from the hosts' disks or
 * from an image host, over the platform), move it between hosts (migration), then pay a context switch or a
 * reallocation (a stall on its processors). Every change of status or processors closes a segment of the trace.
 *
 * Fast path: when nothing a job does depends on the network solver (no traffic: the `formula` cost model, or no
 * communication pattern), its execution is a timer instead of a ptask: its end is known from its work and the
 * slowest speed among its hosts (SimGrid's L07 gives the same), kept in a heap of end times, and re-timed exactly
 * when a host's speed changes or a host fails (profiles). Image transfers and disk operations stay SimGrid
 * activities either way. `simulation.execution` forces either path; both give the same schedules.
 *
 * Communication: each process sends bytes_per_flop x its flops over the job's lifetime, along the job's pattern
 * (ring: to the next process; neighbours: half to each neighbour; all-to-all: evenly to every other process). Under
 * L07 a ptask lasts as long as its slowest resource (CPU or link), so traffic slows a job only once its links, shared
 * with the other jobs' traffic, become the bottleneck. */
#pragma once

#include "core/machine.hpp"
#include "core/resource_set.hpp"
#include "model/job.hpp"
#include "model/job_model.hpp"
#include "model/job_state.hpp"
#include "runtime/execution/timer_heap.hpp"

#include <simgrid/s4u.hpp>

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace jobsched {

namespace sg4 = simgrid::s4u;

/* How job executions are simulated: `automatic` takes timers whenever the communication model allows. */
enum class ExecutionMode { automatic, ptask, timer };

/* What a job pays before it computes again (start, resume). */
struct Preparation {
  double stall = 0;                    // seconds of context switch or reallocation on its processors
  bool read_image = false;             // read its memory image back from the image store first
  std::vector<sg4::ActivityPtr> after; // wait for these first (images other jobs write out of its processors)
  double slowdown = 1;                 // then compute this many times more slowly than the speedup says (Plan)
  /* >= 0: the policy's image model (Plan::image_bytes): the job's image is this many bytes, read at every dispatch,
   * its first start included (its code and data come from the image store), and written out when it is next
   * preempted. -1: the job's whole memory (Job::image_bytes), read back only after a preemption. */
  double image_bytes = -1;
  /* >= 0: the job's fractional allotment (Plan::share): it computes at min(share, h) on its profile's parallelism h.
   * -1: as many processors as it holds. Jobs without a parallelism profile ignore it. */
  double share = -1;
};

class JobRuntime {
 public:
  /* Hosts' memory (for paging) is read from their property memory_mb. */
  JobRuntime(const Machine& machine, std::vector<sg4::Host*> hosts, double reference_speed, CommSpec comm,
             MemorySpec memory = {}, ImageStoreSpec images = {}, ExecutionMode mode = ExecutionMode::automatic);
  /* True when executions are timers (the fast path), false when they are ptasks. */
  bool uses_timers() const { return timers_; }
  /* The simulated time the runtime reads: SimGrid's clock, or the scheduler's virtual one while it replays instants
   * where nothing but its own plans change (SchedulerActor's virtual wake-ups: no SimGrid activity is in flight then).
   * set_virtual_clock(t) makes the runtime read t until set_virtual_clock(-1). */
  double clock_now() const { return virtual_clock_ >= 0 ? virtual_clock_ : sg4::Engine::get_clock(); }
  void set_virtual_clock(double t) { virtual_clock_ = t; }
  /* The platform file, named by the error about two hosts an image must cross between without a route. */
  void name_platform(std::string file) { platform_file_ = std::move(file); }

  /* The record of every job the runtime knows; `admit` adds one before it starts (in workload order). */
  JobState& admit(const WorkloadJob& job);
  /* Registers a job of the workload (in workload order) without making its record yet (JobTable::expect). */
  void expect(const WorkloadJob& job) { table_.expect(job); }
  const JobTable& table() const { return table_; }
  JobTable& table() { return table_; }
  /* Hand every execution segment to `sink` as it closes (a run streams its trace to trace.csv); without a sink the
   * segments are not kept. */
  void set_trace_sink(std::function<void(const TraceSegment&)> sink) { trace_sink_ = std::move(sink); }
  /* In place of a sink (a sink, when one is set, gets the segments instead), what a run that writes no trace needs of
   * the segments, summed here as they close (no call per segment): the processor-seconds of the running ones
   * (busy_area() x repeats, added in the order the sink would have received them) and how many there were (rows, an
   * aggregated one once). */
  void keep_segment_totals() { segment_totals_ = true; }
  /* In place of a sink, for a run that writes no trace but needs each running segment's processors and interval (the
   * union of a processor's busy time, processes doubling up): `running` gets those of each running segment as it
   * closes (an aggregated row's first, as a sink reading the segment would), lent, without a TraceSegment built around
   * them; every segment is counted (segments_total()). */
  void set_running_sink(std::function<void(const ResourceSet&, double, double)> running)
  {
    running_sink_ = std::move(running);
  }
  double running_area_total() const { return running_area_total_; }
  long segments_total() const { return segments_total_; }
  /* A time no running segment still to be handed to the sink starts before: the earliest start of the running
   * segments open now, or now. -infinity once a cycle has been advanced (its rows start where the replay put them; the
   * bound is for runs of processes, which cycle_begin() refuses). */
  double earliest_running_start() const;

  void start(const WorkloadJob& job, const ResourceSet& processors, Preparation prep = {});
  /* Start an admitted job. */
  void start(JobId id, const ResourceSet& processors, Preparation prep = {})
  {
    start(truth(id), processors, prep);
  }
  void kill(JobId id);
  /* Stop computing, keeping the remaining work; with `save_image` (and an image store) the image is written out.
   * `preemption` false: the first half of a move (resume() on other processors counts the migration). */
  void suspend(JobId id, bool save_image = false, bool preemption = true);
  /* Compute again, on `processors` (empty: the ones it had), after `prep`. */
  void resume(JobId id, const ResourceSet& processors = {}, Preparation prep = {});
  /* Continue the remaining work on `processors` at once, after `prep` (a reallocation stall, others' image writes). */
  void resize(JobId id, const ResourceSet& processors, Preparation prep = {});
  /* Whether resize() takes the job now: no preparation stage (an image load or write, a move) is under way or to
   * come; a stall in progress does not count (a resize starts another). */
  bool resizable(JobId id) const;
  /* A running (or stalled) job's new allotment: `processors`, `share` (Preparation::share) and `stall` seconds more
   * of reallocation before it computes again (added to a stall in progress). Nothing changes and nothing is counted
   * when all three say what the job already has. */
  void reallot(JobId id, const ResourceSet& processors, double share, double stall);
  /* Bring the public progress measures (JobState::work_done, span_done) of the jobs with a parallelism profile up to
   * the current time. */
  void measure_progress();
  /* Send an image of `image_bytes` from the old hosts to the new ones, then continue the remaining work there. */
  void migrate(JobId id, const ResourceSet& processors, double image_bytes);

  bool images_enabled() const { return images_.kind != ImageStoreSpec::Kind::none; }
  /* Image writes still in progress out of these processors: a job coming onto them waits for those. */
  std::vector<sg4::ActivityPtr> image_writes_on(const ResourceSet& processors) const;

  /* The activities the scheduler waits on: executions, transfers and stalls in progress. */
  std::vector<sg4::ActivityPtr> activities() const;
  /* The same into `out` (emptied first): the scheduler's loop keeps one vector's storage across its wake-ups. */
  void activities(std::vector<sg4::ActivityPtr>& out) const;
  /* The next instant a job reaches its wall time (kill_at_estimate jobs), infinity if none. */
  double next_deadline() const;
  /* The next instant a timer ends (an execution or a stall on the fast path), infinity if none. */
  double next_timer();
  /* Jobs that left the machine since the last call (completed, reached their wall time, failed), in job id order.
   * Also moves jobs whose preparation stages finished on to their next stage or to computing. */
  std::vector<std::pair<JobId, JobFate>> collect_ended();
  /* Close every open trace segment at the current time (end of the run). */
  void close_trace();

  bool is_running(JobId id) const { return jobs_.count(id) != 0 || groups_.count(id) != 0; }
  /* Jobs on the machine: started and not ended (a job made of processes whose processes all wait is not). */
  size_t size() const
  {
    size_t started_groups = 0;
    for (const auto& [id, g] : groups_)
      started_groups += g.state->started() ? 1 : 0;
    return jobs_.size() - static_cast<size_t>(process_executions_) + started_groups;
  }
  /* Fraction of the job's work still to do (1 at start). */
  double remaining_fraction(JobId id) const;

  /* Jobs made of processes (gang-now's virtual processors). Such a job keeps its one JobState; each of its processes
   * is placed on one processor of its own and computes, is suspended, moves or ends on its own. Processes doubled up
   * on a host share its CPU (they are separate executions: on the ptask path SimGrid shares the host between them, so
   * n processes of work W on a host of speed s all end at n W / s; on the timer path each computes at s x min(1, c / k)
   * on a host of c cores while k processes compute there, as L07 shares it: one core at most each, and re-timed
   * whenever k changes). A
   * process's work is the job's run time at the reference speed (a rigid job of size n: n processes of its run time);
   * a process ends when its work is done, the job with its last process. The job's record shows the union of its
   * processes' processors, the furthest status among them (running, switching, transferring, suspended), their
   * counters summed, and its service as its longest-computing process's. Process numbers are 0 .. size - 1, then one
   * more per add_process(). */
  static constexpr int kProcessNotPlaced = -1; // not started yet (or restarted and not started again)
  static constexpr int kProcessEnded = -2;     // its work is done, or end_process() dropped it
  int process_count(JobId id) const;
  /* The processor process `process` of job `id` is on, or kProcessNotPlaced / kProcessEnded. */
  int process_processor(JobId id, int process) const;
  bool process_computes(JobId id, int process) const; // running, or preparing to compute

 private:
  struct ProcessGroup;

 public:
  /* One job's processes for a pass over all of them (the driver asks about every process of the jobs of each
   * rotation): the job is looked up once rather than at each question. Its answers are process_count()'s,
   * process_processor()'s and process_computes()'s at the time of each question, across place_process(),
   * restart_process(), add_process() and end_process() on the job; it serves until the job ends. */
  class ProcessList {
   public:
    int count() const;
    int processor(int process) const; // 0 <= process < count()
    bool computes(int process) const; // 0 <= process < count()

   private:
    friend class JobRuntime;
    const ProcessGroup* group() const; // nullptr while none of the job's processes was placed
    const JobRuntime* runtime_ = nullptr;
    JobId id_ = 0;
    mutable const ProcessGroup* group_ = nullptr;
  };
  ProcessList processes_of(JobId id) const;
  /* Throws std::logic_error when a job's kept answer of whether a process computes (ProcessList::computes()) differs
   * from the one its execution and record give: the check of Plan::check_processes. */
  void check_process_flags() const;
  /* Bring one process where the policy wants it: on `processor`, computing (`compute`) or held suspended there.
   * Not started yet: it starts there when it computes (its work whole), else nothing happens. On another processor:
   * it moves (its image of `image_bytes` crosses the platform from its old host, with SimGrid's contention, and it
   * keeps its work; a counted migration), and computes after the transfer or rests suspended; a process moved again
   * while its image is on its way leaves from its original host again. Otherwise it is resumed (after `resume_stall`
   * seconds of context switch) or suspended as `compute` says. */
  void place_process(JobId id, int process, int processor, bool compute, double image_bytes, double resume_stall);
  /* Kill the process and start its work again from nothing on `processor` (when `compute`; else it waits there,
   * not started): the work it had done is lost, added to the job's work_lost (seconds at the reference speed). */
  void restart_process(JobId id, int process, int processor, bool compute);
  /* One more process (not placed), with a whole process's work; returns its number. */
  int add_process(JobId id);
  /* The application ends the process (VP_exit): its remaining work is dropped. Not the job's last one. */
  void end_process(JobId id, int process);
  /* Processes that finished their work since the last call, the jobs' last ones excepted (their job ends in
   * collect_ended()), in order. */
  std::vector<std::pair<JobId, int>> collect_process_ends();
  /* While deferred (the driver applying a plan's processes one by one), place_process, restart_process and
   * end_process leave their job's record (the union of its processes' processors, status, counters, work done) to be
   * brought in line once per job when the deferral ends, instead of after every process: that takes a pass over all
   * the job's processes (and, on the ptask path, asks SimGrid each one's remaining work), so a job of n processes
   * rotated in or out cost n such passes. Nothing reads the record in between. */
  void defer_group_records(bool defer);
  /* Advancing a repeating schedule by whole cycles (Plan::cycle, SchedulerActor::set_cycles). At a boundary where the
   * cycle's phase `phase` is in force, cycle_begin() takes each job the cycle names, with where it computes in each
   * phase (nullptr: suspended); cycle_step() then replays one boundary on a trial copy of their state: the clock
   * reached (`clock`) and the phase in force from then, after the policy's wake-up `until`, with the arithmetic of
   * suspend(), resume() and resize() (a product of one factor per suspension, the same account), without SimGrid,
   * trace rows or the policy; cycle_commit() keeps the trial (a whole cycle), and cycle_end() writes the state kept
   * into the jobs' records and emits the trace rows of the first two cycles that stand for all (each job's first row
   * as it is, its other rows of the first cycle k times, its first of the second k - 1 times). A step refuses (false)
   * when a job would end or another timer come by `until` (stepping would stop there): the trial is then dropped.
   * cycle_begin() refuses what the replay does not model: processes, parallelism profiles, jobs killed at their
   * estimate, stalls, images, preparations, a slowdown or a share, ptasks, a job's state not that of `phase`.
   * With `waiting` a job of the cycle may also not have started yet (submitted, its record waiting, not computing in
   * `phase`): the replay starts it when a step first places it, as start() would (no segment open before, no
   * migration), and cycle_end() gives it its execution then. */
  /* `ids`: the jobs, ascending; `where`: for each job in turn, where it computes in each of the cycle's `phases`
   * phases; `counts` (nullptr or empty: none), laid out as `where`: how many processors each of those sets has (read
   * only where `where` names a set; Lookahead::counts, which the driver checks), so that they need not be counted. */
  bool cycle_begin(const std::vector<JobId>& ids, const std::vector<const ResourceSet*>& where, size_t phases,
                   size_t phase, bool waiting = false, const std::vector<int>* counts = nullptr);
  /* One of a job's entries in the other form of the phases: a phase it computes in, and where. */
  struct CyclePhaseEntry {
    size_t phase;
    const ResourceSet* on;
  };
  /* The same, with the phases given job by job: job ids[j]'s entries are entries[first[j]] to entries[first[j + 1]] -
   * 1, by phase, one per phase it computes in (it is suspended in the others); no counts. A form as large as the
   * phases' own lists, where `where` is jobs x phases (Plan::cycle's schedules: EQUI-EPOCH's on the KTH log are
   * hundreds of jobs over dozens of phases, each job computing in a few). */
  bool cycle_begin(const std::vector<JobId>& ids, const std::vector<size_t>& first,
                   const std::vector<CyclePhaseEntry>& entries, size_t phases, size_t phase, bool waiting = false);
  /* After cycle_begin(), for a cycle whose phases last `phase_seconds` each period of `period` seconds: each job
   * computes at most the sum of its phases' per period, which bounds how soon it can end, so that more trials are
   * found sure to be kept (cycle_trial_until(): the bound of a job computing a quarter of each period is four times
   * later). Without it, the bound is that of a job computing all the time. */
  void cycle_durations(const std::vector<double>& phase_seconds, double period);
  /* Jobs of the cycle not started in the replayed state (cycle_begin()'s `waiting`). */
  size_t cycle_waiting() const;
  bool cycle_step(double clock, double until, size_t phase);
  /* After cycle_begin(), for a replay whose rows must read as the driver's own (a lookahead's, Plan::lookahead): the
   * order in which the driver suspends the jobs (one per id of cycle_begin(): their submission order). At each
   * boundary the rows then come as when the driver applies a plan: those of the jobs suspended and of the jobs that
   * are not malleable moved, in that order; then those of the malleable jobs resized, the ones shrunk first, by id;
   * then those of the jobs resumed, by id. Otherwise all by id. Until cycle_end(). Also before cycle_begin() (whose
   * ids the orders follow then), where the lists of changes from each phase to the next are then made in that order
   * once, rather than at each step; cycle_whole() is refused after such a cycle_begin(). */
  void cycle_rows_as_applied(const std::vector<std::uint64_t>& orders);
  /* Before a whole cycle's steps, once the caller has found their clocks (those steps come by `latest`, the largest of
   * their wake-ups `until` and clocks): when no job of the cycle can end its timer by then (each job's remaining work,
   * even on its fastest set of the cycle and counted from its last change, lasts past it with a margin far above the
   * replay's rounding; a bound that only grows as the cycles go, computed again every 64 trials or when it no
   * longer suffices), the trial is sure to be kept, and its steps save no job's state for a drop (a copy of each
   * job's state per cycle, a seventh of a replayed boundary). Not in the first two cycles (their rows are recorded) nor
   * after cycle_partial(). A step refused in such a trial, or such a trial dropped, is a logic error. */
  void cycle_trial_until(double latest);
  bool cycle_trial_sure() const { return cycle_trial_sure_; }
  void cycle_commit();
  /* After the whole cycles: the boundaries of the next one, one at a time, up to the last before something else would
   * happen there (the trial dropped; each step kept by cycle_commit_boundary() before the next, its trace rows ordinary
   * ones: such a step saves nothing for a drop, and one replayed but not kept is a logic error). */
  void cycle_partial();
  void cycle_commit_boundary();
  /* After cycle_partial() and its boundaries kept (cycle_commit_boundary()), every job started: whole cycles from the
   * phase in force, as if cycle_begin() took the jobs here (their rows so far kept as they are; the rows from here on
   * by id, cycle_rows_as_applied() ended). */
  void cycle_whole();
  /* The cycles committed (cycle_commit()), each `period` seconds long, and the boundaries after them. */
  void cycle_end(double period);
  /* Gang rotations of jobs made of processes (Plan::rotation), replayed boundary by boundary without SimGrid, the
   * policy or the driver: at each boundary (the policy's wake-up `until`, reached on the clock `next_instant` gives,
   * then `quantum` seconds after that clock) the phase after the one in force comes in: the processes of its jobs
   * placed on processors up (`where`) are resumed after `switch_cost` seconds of stall, the other processes of the
   * phases' jobs that computed are suspended, in the order and with the arithmetic of place_process(), the stall's end
   * in collect_ended() and compute() (its trace rows the same, each as it would close); processes doubled up beyond a
   * host's cores share its CPU and are re-timed as others join and leave it, as join_host_share() and
   * leave_host_share() do. It stops before the first boundary by which anything else would happen: a process's work
   * ends, a source's event or a deadline comes (`next_instant` says -1), the stall would not end before the next
   * wake-up. It ends after the last boundary's stall (no decision instant: the scheduler steps on from there) and
   * writes every process's state back, each job's record as its last boundary left it. Not modeled, so refused:
   * ptasks, images, processes with a parallelism profile, a slowdown or a share, processes not started yet or not in
   * the state the phase says (retried at a later decision: `retry`), processes moving or transferring, a process the
   * phases would start, move or end, a timer that is not one of the phases' processes', no switch cost (resumptions
   * then interleave with suspensions on one host). */
  using RotationPhase = std::vector<std::pair<JobId, const std::vector<int>*>>; // Rotation::phase_jobs' list
  struct RotationRequest {
    size_t phases = 0;
    // Rotation::phase_jobs: a phase's jobs by id, each with where its processes are
    const std::function<const RotationPhase&(size_t)>* phase_jobs = nullptr;
    size_t phase = 0;       // in force now (the plan just applied)
    double until = 0;       // the policy's next wake-up
    double quantum = 0;     // seconds from a boundary's clock to the next wake-up
    double switch_cost = 0; // a resumed process's stall
    const ResourceSet* up = nullptr;
  };
  struct RotationReplay {
    long boundaries = 0; // replayed (0: nothing changed)
    double clock = 0;    // where the replay ended (the last boundary's stall end)
    double last_boundary = 0;
    long decisions = 0; // the processes placed, as the driver would have counted them
    bool retry = false; // refused for a state that may change at a later decision (processes not started...)
  };
  RotationReplay replay_rotation(const RotationRequest& request, double now,
                                 const std::function<double(double, double)>& next_instant);
  /* Preemptions in a row of jobs that did not compute since they were started or resumed (each was still loading its
   * image or stalled when its time was up); 0 once any job computes. */
  long fruitless_dispatches_in_a_row() const { return fruitless_dispatches_; }

 private:
  struct Stage {
    JobStatus status;
    std::function<std::vector<sg4::ActivityPtr>()> begin; // starts the stage's activities
    bool owned = true;                                    // false: the activities are other jobs' (do not cancel)
    double timer = 0;                                     // > 0: a stall of that many seconds, on a timer
  };
  struct Execution {
    const WorkloadJob* job = nullptr;
    JobState* state = nullptr; // its record in the table
    double remaining = 1.0;    // fraction of the job's total work left when `exec` started
    double slowdown = 1.0;     // the policy's factor on its computing time (Preparation::slowdown)
    double since = 0;          // start of the open trace segment
    sg4::ExecPtr exec;
    std::deque<Stage> stages;              // preparation still to do
    std::vector<sg4::ActivityPtr> pending; // the current stage's activities
    /* A preparation stage (an image load or write, a move) is under way or to come: resize() and migrate() wait. */
    bool preparing() const { return !stages.empty() || !pending.empty(); }
    bool pending_owned = true;
    bool compute_after = true;            // false: the stages end in suspension (an image written out)
    std::vector<sg4::Host*> image_hosts;  // where the image was written (local disks)
    double image_bytes = -1;              // the policy's image size (Preparation::image_bytes), -1: the job's memory
    bool computed_since_dispatch = false; // it reached computing since it was last started or resumed
    std::vector<sg4::ActivityPtr> own_writes; // its image write, when it was resumed before the write ended
    // Its account (JobAccount), summed here while it runs and copied to its JobState when it ends: policies read the
    // JobState, and the account derives from the hidden run time and speedup.
    JobAccount account;
    double dedicated_rate = 1;       // dedicated seconds per second of the open running segment (see account())
    double remaining_at_segment = 1; // `remaining` when the open running segment began
    bool held_throughout = true;     // it has held the processors of its first start without a break
    bool failing = false;            // it is leaving the machine because a host failed
    // Fast path: the execution or the stall in progress as a timer.
    double slowest_speed = 0;   // of its hosts, valid while speed_epoch == host_epoch_
    bool on_host_off = false;   // likewise: one of its hosts is off
    unsigned speed_epoch = ~0U; // host_epoch_ when slowest_speed was measured
    bool cost_valid = false;    // its JobState's placement cost is that of its processors
    double timer_start = 0;
    double timer_end = -1;  // computing on a timer until then (-1: not)
    double timer_flops = 0; // flops per process still to do at timer_start
    double stall_end = -1;  // stalled on a timer until then (-1: not)
    bool host_failed = false;
    size_t timer_slot = kNoTimerSlot; // its entry in timer_heap_ (see TimerHeap)
    // A process of a job made of processes: its job and number (-1: an execution of a whole job).
    JobId owner = -1;
    int process = -1;
    size_t record = 0;                   // a process's: its spec's and record's place in its group's specs and states
    std::vector<sg4::Host*> moving_from; // a process whose image is on its way: the host it left
    ProcessGroup* group = nullptr;       // a process's group (groups_ keeps it in place), nullptr: a whole job
    int sharing_host = -1;               // a process computing on a timer: the host whose CPU it shares (-1: none)
    // Jobs with a parallelism profile (timer path only): the timer ends at the end of the current segment.
    double share = -1;       // Preparation::share
    size_t segment = 0;      // of the profile
    double segment_done = 0; // span covered inside it, up to timer_start
    double span_rate = 0;    // span per second while it computes now
    double work_done = 0;    // processor-seconds done, up to timer_start
    double profile_work = 0; // the profile's total work
    double share_area = 0;   // processor-seconds held on shares in the open segment, up to share_since
    double share_since = 0;
  };
  /* A job made of processes: one Execution per process in jobs_, under ids of their own (negative). */
  struct ProcessGroup {
    JobState* state = nullptr;
    const WorkloadJob* job = nullptr;
    std::vector<int> processor;       // per process: where it is (or kProcessNotPlaced, kProcessEnded)
    size_t ended = 0;                 // processes at kProcessEnded: the job ends with its last one
    std::deque<WorkloadJob> specs;    // the processes' own jobs (size 1, the process's work), stable addresses
    std::deque<JobState> states;      // their records, private to the runtime
    JobCounters base;                 // counters of the processes' executions that are gone
    double service_done = 0;          // the longest service of the executions that are gone
    // Per process: its Execution in jobs_ (under an id of its own, negative; a map's element stays where it is until
    // erased), or nullptr: the driver asks about every process at every rotation, and jobs_ holds every process.
    std::vector<Execution*> exec;
    /* Per process: whether it computes (computes()), kept by note_computes() at every change of what that reads (its
     * status, image_out, compute_after), so a rotation's pass reads a byte per process, not every process's execution
     * and record (scattered in memory: on 10,000 hosts those reads were a sixth of a run). */
    std::vector<unsigned char> computing;
    // replay_rotation()'s: the replay that took the job last (rotation_replays_) and its place in rotation_jobs_ then
    size_t rotation_replay = 0, rotation_index = 0;
  };
  /* Running, or preparing to compute: process_computes()'s answer from the execution itself. */
  static bool computes(const Execution& x)
  {
    const JobState& s = *x.state;
    return s.holds_processors() || (s.status == JobStatus::transferring && x.compute_after);
  }
  static void note_computes(Execution& x)
  {
    if (x.group != nullptr) x.group->computing[static_cast<size_t>(x.process)] = computes(x) ? 1 : 0;
  }
  ProcessGroup& group(JobId id);
  /* A new execution for a process (not started). */
  Execution& new_process_execution(ProcessGroup& g, int process);
  /* Forget a process's execution (it ended, was killed or restarts), keeping its counters in the group's. */
  void drop_process_execution(ProcessGroup& g, int process);
  /* Bring the job's record in line with its processes. */
  void sync_group(ProcessGroup& g);
  /* A job made of processes: its record's status is its processes' furthest (running, switching, transferring or
   * holding processors, suspended, by status_rank()), else waiting until it started. */
  static int status_rank(JobStatus status, bool holds_processors);
  static JobStatus group_status(int furthest_rank, bool started);
  /* A segment of job `id` (its trace id) that closes: to the trace sink, the running sink or the segment totals.
   * `processors` are lent to the sink, and given back when `keep_processors`. */
  void emit_segment(JobId id, double since, double now, ResourceSet& processors, JobStatus status, double area,
                    bool keep_processors);
  /* sync_group(g) now, or once the deferral ends (defer_group_records). */
  void sync_group_or_defer(ProcessGroup& g);
  /* A job whose record waits for sync_deferred_groups(): at the deferral's end (defer_group_records(false)), or when
   * the scheduler collects the process ends of the instant (collect_process_ends()). */
  void defer_sync(JobId id);
  void sync_deferred_groups();
  /* A process execution in `ended`: its job goes on, or ends with it (returns true: the job's end is reported). */
  bool process_left(Execution& x, JobFate fate, std::vector<std::pair<JobId, JobFate>>& job_ends);
  /* The job's id in the trace: its own, or its process's job's. */
  static JobId trace_id(const Execution& x) { return x.owner >= 0 ? x.owner : x.job->id; }
  Execution& get(JobId id);
  void suspend_execution(Execution& x, bool save_image, bool preemption); // suspend()'s work
  static JobState& state(const Execution& x) { return *x.state; }
  /* Close the open segment and open one in `status` (on `processors` when given; `differs`: they are known to differ
   * from the job's, not compared again). */
  void enter(Execution& x, JobStatus status, const ResourceSet* processors = nullptr, bool differs = false);
  void advance(Execution& x); // next stage, or compute (or rest suspended)
  void launch(Execution& x);
  void compute(Execution& x);     // launch() once the job is running: its rates, its placement cost, its timer or ptask
  void stop_exec(Execution& x);   // cancel the exec (or stop the timer), keeping its remaining work
  void start_timer(Execution& x); // time x.timer_flops on its processors from now
  /* The slowest available speed among the hosts of `processors` (0 for a host at speed 0), `off` when one is off. */
  double slowest_speed_of(const ResourceSet& processors, bool& off);
  void push_timer(Execution& x, double end); // x's timer (an execution or a stall) ends at `end`, replacing any other
  void drop_timer(Execution& x);             // x has no timer any more (it stopped, or leaves jobs_)
  void erase_execution(Execution& x);        // x leaves jobs_ (its timer with it): x is gone after the call
  void erase_process_execution(ProcessGroup& g, Execution& x); // the same for a process, its group's entries too
  void retime(Execution& x); // a host's speed changed: the rest of the work at the new speed
  static bool phased(const Execution& x) { return !x.job->profile.empty(); }
  /* Processes on timers (Execution::sharing_host): x starts or stops computing on its host; the others computing
   * there are re-timed at their new share of its CPU. */
  void join_host_share(Execution& x);
  void leave_host_share(Execution& x);
  void start_phase_timer(Execution& x);        // the current segment's end, at the job's rate from now
  void sync_phase(Execution& x) const;         // its progress up to now into segment_done, work_done and its JobState
  double timer_left(const Execution& x) const; // fraction of the timed work not done yet
  double work_left(const Execution& x) const;  // fraction of the job's work not done yet, computing included
  /* Add a running segment of `length` seconds that just closed to the job's account. */
  void account(Execution& x, double length) const;
  /* Copy what the outputs need into the job's record: at its end, or at the end of the run. */
  static void settle(Execution& x);
  void drop_preparation(Execution& x);
  void add_preparation(Execution& x, Preparation prep, const std::vector<sg4::Host*>& image_from);
  std::vector<sg4::Host*> hosts_of(const ResourceSet& r) const;
  std::vector<sg4::ActivityPtr> move_image(const std::vector<sg4::Host*>& from, const std::vector<sg4::Host*>& to,
                                           double bytes) const;
  /* A host that is off neither sends nor receives (SimGrid aborts on a transfer to or from one): when one of `hosts`
   * is off, the image that was to cross is lost and the job fails when it next computes (start_timer(): a process
   * moved onto a workstation that failed, which gang-now's `eviction: wait` keeps in its map), as a job on a host
   * that went off does. */
  static bool image_lost(Execution& x, const std::vector<sg4::Host*>& hosts);
  /* An input error unless SimGrid has a route of links from `from` to `to` (checked once per pair), naming the two
   * hosts and what crosses: `traffic_of`'s messages (workload.communication), or an image when null. */
  void require_route(sg4::Host* from, sg4::Host* to, const Job* traffic_of = nullptr) const;
  /* require_route() for every pair of distinct hosts between which `bytes` (the n x n matrix of an execution on
   * `hosts`) sends something. */
  void require_traffic_routes(const Execution& x, const std::vector<sg4::Host*>& hosts,
                              const std::vector<double>& bytes) const;
  /* The network model's traffic: a ring over the job's nodes lasting `seconds` on an idle platform. */
  std::vector<double> calibrated_traffic(const Execution& x, const std::vector<sg4::Host*>& hosts,
                                         double seconds) const;

  const Machine& machine_;
  std::vector<sg4::Host*> hosts_;
  double reference_speed_;
  JobModel model_; // holds the communication spec too
  ImageStoreSpec images_;
  sg4::Host* image_host_ = nullptr;
  bool timers_ = false;
  unsigned host_epoch_ = 0;        // counts the instants when some host changed speed or state
  std::vector<double> host_speed_; // each compute host's available speed (-1: off), as of host_speed_epoch_
  unsigned host_speed_epoch_ = ~0U;
  // When every compute host is on at one available speed (as of host_speed_epoch_): that speed, the slowest of any
  // set (no per-job walk over the hosts); -1 otherwise.
  double uniform_host_speed_ = -1;
  /* The executions' timers, earliest first (by end, then job id): one entry per execution at most, dropped when it
   * stops or leaves jobs_ (its address must stay valid while it has one). */
  TimerHeap<Execution, JobId> timer_heap_;
  std::shared_ptr<std::vector<const sg4::Host*>> changed_hosts_; // noticed by SimGrid callbacks, handled in collect
  std::set<JobId> preparing_; // jobs waiting on the activities of a preparation stage
  int wall_time_jobs_ = 0;    // running jobs killed at their estimate (next_deadline scans only if any)
  long fruitless_dispatches_ = 0;
  JobTable table_;
  /* What the runtime executes: the table's jobs are the WorkloadJobs admitted (their public part is what the table's
   * records show). PolicyError when the job is unknown. */
  const WorkloadJob& truth(JobId id) const;
  std::function<void(const TraceSegment&)> trace_sink_;
  std::function<void(const ResourceSet&, double, double)> running_sink_; // set_running_sink()
  bool segment_totals_ = false; // keep_segment_totals()
  double running_area_total_ = 0;
  long segments_total_ = 0;
  std::map<JobId, Execution> jobs_;
  /* get()'s lookups, direct-mapped by id (the jobs in the system at once are few and mostly at distinct places): a
   * job's entry of jobs_, until erase_execution() erases it. Executions do not move in a std::map. */
  static constexpr std::size_t kGetCacheSize = 1024;
  std::array<std::pair<JobId, Execution*>, kGetCacheSize> get_cache_{};
  std::pair<JobId, Execution*>& get_cache_slot(JobId id)
  {
    return get_cache_[static_cast<std::uint64_t>(id) % kGetCacheSize];
  }
  std::map<JobId, ProcessGroup> groups_;            // jobs made of processes, by job id
  JobId last_process_id_ = 0;                       // process executions get ids -1, -2, ...
  long process_executions_ = 0;                     // entries of jobs_ that are processes
  std::vector<std::pair<JobId, int>> process_ends_; // for collect_process_ends()
  double virtual_clock_ = -1;                       // see clock_now()
  std::string platform_file_;
  struct HostPairHash {
    size_t operator()(const std::pair<const sg4::Host*, const sg4::Host*>& p) const
    {
      return std::hash<const void*>()(p.first) * 31 + std::hash<const void*>()(p.second);
    }
  };
  // See require_route(): hashed, as a job's traffic looks up every pair of its hosts at each execution.
  mutable std::unordered_set<std::pair<const sg4::Host*, const sg4::Host*>, HostPairHash> routed_pairs_;
  bool defer_group_records_ = false;                // see defer_group_records()
  std::vector<std::vector<JobId>> host_sharers_;    // per host: the processes computing there on timers
  long host_sharing_entries_ = 0;                   // in all of host_sharers_' lists
  std::vector<JobId> unsynced_groups_;              // jobs whose record waits (defer_sync()), maybe twice
  std::vector<JobId> syncing_groups_;               // sync_deferred_groups()'s list of them, kept with its storage

  /* The cycle being advanced (cycle_begin()): per job, what launch() and account() read of it, and its distinct
   * processor sets, which lie side by side in cycle_sets_ (a job's state and the phases name them by that index). */
  struct CycleReplay {
    Execution* x = nullptr; // nullptr: not started at cycle_begin() (its execution is made by cycle_end())
    const WorkloadJob* job = nullptr;
    JobState* state = nullptr;
    JobId trace_id = 0; // of its rows
    bool malleable = false;
    double run_time = 0;           // of its job
    double speedup_of_size = 1;    // S(size)
    int set_at_begin = -1;         // index of its record's processors when cycle_begin() took it
    double least_time = 0;         // seconds its whole work takes on the fastest of its sets (whole_time)
    double duty = -1;              // seconds it computes per period (cycle_durations()), -1: not known
  };
  /* Aligned to 128 bytes (104 of fields): a step finds a job's set by a shift of its index rather than a multiplication
   * by 13, at each suspension and launch of its loops. */
  struct alignas(128) CycleSet {
    const ResourceSet* set;
    const ResourceSet* same = nullptr;      // another set found equal to it (cycle_begin())
    int count = -1;                         // its processors, -1: not counted yet (cycle_set_count())
    bool timed = false;                     // the figures below are worked out: a job of the cycle may compute on it
    double speed, stretch, rate, speedup;   // as launch() computes them
    double paged_run_time, page_fault_time; // account()'s factors: run time x (1 + page faults), x page faults
    double whole_time = std::numeric_limits<double>::infinity(); // cycle_launch()'s timer length for the whole work
                                                                 // (cycle_trial_until())
    PlacementCost cost;
  };
  /* What the replay changes of a job (Execution's and JobState's fields of the same names). The two flags share the
   * word of `set`: 128 bytes in all (136 with `waiting` on a word of its own), so that a step finds a job's state by a
   * shift of its index rather than a multiplication by 17 (its loop's one per job). */
  struct CycleState {
    int set = -1; // index of its processors (JobState::processors) in cycle_sets_
    bool running = false;
    bool waiting = false; // not started yet (cycle_begin()'s `waiting`)
    long transitions = 0;
    double remaining = 1, since = 0, timer_start = 0, timer_end = -1, timer_flops = 0, service = 0;
    double remaining_at_segment = 1, dedicated_rate = 1;
    JobAccount account;
    int preemptions = 0, resizes = 0, migrations = 0;
    int rows = 0;           // recorded in the cycle being tried
    double start_time = -1; // when the replay started it
  };
  struct CycleRow {
    size_t job; // in cycle_jobs_
    double start, end;
    int set;
    bool running;
    enum class Kind {
      as_is,       // the first cycle's first row of its job (it began before the advance): written as it is
      every_cycle, // the first cycle's other rows, each repeated in every cycle
      after_first  // the second cycle's first row of its job (it began at the job's last change of the cycle before),
                   // repeated in every cycle after the first
    };
    Kind kind;
  };
  /* The jobs whose place changes when phase `to` follows phase `from` (those whose cycle_place_ differs there), each
   * with its place in `to`, in the order their rows come (cycle_changes()): built the first time a step goes from
   * `from` to `to`. `next`: those of phase `from` + 1, by job (cycle_begin() lists them as it fills the table). */
  using CycleChange = std::pair<size_t, int>; // a job, by its place in cycle_state_, and its place in the next phase
  struct CycleChanges {
    size_t to = std::numeric_limits<size_t>::max(); // none built yet
    // The first `listed` are the list (the vector only grows: resizing it per step cost more than the emplace_backs)
    std::vector<CycleChange> jobs;
    size_t listed = 0;
    // The first `next_listed` (as many entries as jobs, the vector only grows: cycle_begin() writes each change in its
    // place, where an emplace_back per change, its capacity tested, cost a tenth of cycle_begin())
    std::vector<CycleChange> next;
    size_t next_listed = 0;
    // While cycle_begin() lists `next` as applied (cycle_next_as_applied_): the jobs resumed, by id, put after those
    // stopped or moved once every job is listed (as large as `next`)
    std::vector<CycleChange> resumed;
    size_t resumed_listed = 0;
  };
  /* A list of changes (CycleChanges' `jobs` or `next`), walked by cycle_step(). */
  struct CycleChangeList {
    const CycleChange* first;
    const CycleChange* last;
    const CycleChange* begin() const { return first; }
    const CycleChange* end() const { return last; }
  };
  std::vector<CycleReplay> cycle_jobs_; // the first cycle_state_.size() are in use
  std::vector<CycleSet> cycle_sets_;
  /* The runs of phases in which each job computes (phases first to end - 1, on cycle_sets_[set]), by job then by
   * phase (cycle_begin()): where each job computes in each phase (suspended outside its runs), summed by
   * cycle_durations() and read by cycle_list_changes() for two phases that do not follow each other (the changes
   * from a phase to the next are listed by cycle_begin(): CycleChanges::next). Job j's are those from
   * cycle_job_runs_[j] to cycle_job_runs_[j + 1] - 1. */
  struct CycleRun {
    size_t job, first, end;
    int set;
  };
  std::vector<CycleRun> cycle_computing_runs_;
  std::vector<size_t> cycle_job_runs_;
  std::vector<Execution*> cycle_executions_;
  Execution cycle_new_execution_; // a new execution's fields, those of a job the replay starts (cycle_begin())
  /* The replay works on cycle_state_ in place: the trial (the steps since the last commit) saves a job's state in
   * cycle_saved_state_ (listed in cycle_undo_) the first time it changes it, and a dropped trial puts those back. */
  std::vector<CycleState> cycle_state_;
  std::vector<size_t> cycle_undo_;            // the jobs saved in the trial, their states in cycle_saved_state_
  std::vector<CycleState> cycle_saved_state_; // per job (a slot each: no growth of a vector of states per save)
  std::vector<long> cycle_saved_in_; // per job: the trial that last saved it
  long cycle_trial_ = 0;             // the trial's number
  bool cycle_trial_sure_ = false;    // cycle_trial_until() found the trial sure to be kept: nothing is saved
  double cycle_timers_after_ = -std::numeric_limits<double>::infinity(); // no timer of the cycle's jobs ends before
                                                                         // (cycle_trial_until()), -inf: unknown
  int cycle_timers_after_age_ = 0;                                       // trials since it was computed
  size_t cycle_phases_ = 0;
  double cycle_period_ = 0;                        // cycle_durations()'s
  size_t cycle_phase_ = 0, cycle_trial_phase_ = 0; // the phase in force in the state kept, and in the trial
  /* No timer of the jobs computing in the trial's state ends before (-infinity: unknown): the least of their timers'
   * ends when cycle_step() last read them, lowered by each timer launched since (a timer stopped leaves it lower than
   * it need be, not wrong), unknown again when a dropped trial puts timers back. */
  double cycle_timer_floor_ = -std::numeric_limits<double>::infinity();
  std::vector<CycleChanges> cycle_changes_;        // per phase
  std::vector<std::uint64_t> cycle_stop_orders_;   // cycle_rows_as_applied()'s, per job (empty: rows by id)
  /* Each CycleChanges' `next` is listed as the driver applies a plan (cycle_list_changes()), by cycle_begin(): the
   * orders were given before it, and no job is malleable (no resize to sort out). */
  bool cycle_next_as_applied_ = false;
  // cycle_changes()'s lists of the jobs changed after those that stop or move, kept with their storage
  // (each as long as the longest list yet: only grows)
  std::vector<CycleChange> cycle_shrinking_, cycle_growing_, cycle_resuming_;
  std::vector<CycleRow> cycle_rows_; // of the first two cycles
  std::vector<TraceSegment> cycle_row_segments_; // cycle_end()'s rows, per set of cycle_sets_ (its processors)
  std::vector<bool> cycle_row_segment_filled_;   // per set: its segment's processors copied in this cycle_end()
  size_t cycle_rows_kept_ = 0;       // of them, the committed cycles' rows
  long cycles_committed_ = 0;
  bool cycle_partial_ = false;    // cycle_partial() was called
  bool cycle_partial_unkept_ = false; // since, a boundary replayed and not yet kept (cycle_commit_boundary())
  double cycle_horizon_ = 0;      // the earliest end of any other timer
  void cycle_close(size_t job, CycleState& st, double clock, bool record);
  /* Each field the replay changes, as a pair (the execution's or its record's, the replay's): cycle_begin() copies
   * the first into the second, cycle_end() the second back, so the two cannot list different fields. */
  template <class Link>
  static void link_replayed_fields(Execution& x, CycleState& st, Link link);
  static double cycle_launch(const CycleReplay& r, const CycleSet& c, CycleState& st, double clock,
                             double reference_speed);
  CycleChangeList cycle_changes(size_t from, size_t to);
  CycleChangeList cycle_list_changes(size_t from, size_t to); // cycle_changes() for a list not built yet
  void sort_by_stop_order(CycleChange* listed, size_t count) const; // by cycle_stop_orders_
  /* The two cycle_begin()'s: `rows` reads either form of the phases (cycle_replay.cpp); `valid`: the form's sizes
   * agree with `ids` and `phases`. */
  template <class Rows>
  bool cycle_begin_rows(const std::vector<JobId>& ids, size_t phases, size_t phase, bool waiting, bool valid,
                        const Rows& rows);
  void cycle_step_sure(CycleChangeList changed, double clock);
  /* Set `i` of cycle_sets_' processors, counted if cycle_begin() did not (a set no job was found to compute on). */
  int cycle_set_count(size_t i)
  {
    CycleSet& c = cycle_sets_[i];
    if (c.count < 0) c.count = c.set->count();
    return c.count;
  }
  void cycle_drop_trial();

  /* replay_rotation()'s working state (process_rotation.cpp), kept with its storage from one replay to the next. A
   * job's processes are taken (rotation_job()) when the replay first meets the job: a rotation of hundreds of slices
   * costs the slices it reaches, not all of them. */
  struct RotationProcess {
    Execution* x = nullptr;
    int host = -1;
    double speed = 0; // its host's, as start_timer() reads it (shared beyond the cores: rotation_start_timer())
    double stretch = 1, paging = 0, speedup_size = 1, speedup_one = 1;
    // What the replay changes (the execution's and its record's fields of the same names).
    JobStatus status = JobStatus::suspended;
    double since = 0, remaining = 1, remaining_at_segment = 1, timer_start = 0, timer_end = -1, timer_flops = 0;
    double stall_end = -1, service = 0, switching_time = 0, dedicated_rate = 1, launched_at = -1;
    JobAccount account;
    int preemptions = 0;
    bool computed_since_dispatch = false, preempted = false, resumed = false, retimed = false;
    size_t job = 0; // its job's place in rotation_jobs_
  };
  struct RotationJob {
    JobId id = 0;
    ProcessGroup* group = nullptr;
    size_t first = 0, end = 0;        // its processes that compute when its phase runs, in rotation_processes_
    std::vector<int> lean_of_state;   // per entry of group->states: its process in rotation_processes_, -1: none
                                      // (found at the job's first rotation_sync())
    std::vector<int> lean_of_process; // per process: its index in rotation_processes_, -1: not replayed
    bool synced = false;              // its record's fields below are those its last boundary left
    /* A clock before which none of its processes' timers ends, from when it was found to the end of the replay or the
     * job's next resumption: the least, over its processes, of that time plus the work left at the host's full speed
     * (which a process computing at a share of that speed, or suspended, uses up no faster than the clock goes);
     * -infinity: not found yet. */
    double timers_from = -std::numeric_limits<double>::infinity();
    /* At most the end of each of its processes' timers while it computes: the least end a timer of its was set to
     * since the replay last read them all (rotation_start_timer()); -infinity: not read yet. */
    double earliest_end = -std::numeric_limits<double>::infinity();
    JobStatus status = JobStatus::waiting;
    JobCounters counters;
    double service = 0, dedicated_time = 0;
  };
  struct RotationRow {
    size_t process;
    double since, end;
    JobStatus status;
  };
  enum class RotationRefusal { none, for_now, for_good };
  std::vector<RotationJob> rotation_jobs_;
  size_t rotation_replays_ = 0; // replays begun: a job's ProcessGroup::rotation_index is this one's when they match
  std::vector<RotationProcess> rotation_processes_;
  /* Per host: the replayed processes computing there, in host_sharers_' order (taken from it when the replay first
   * changes the host: rotation_host()); the hosts taken. */
  std::vector<std::vector<size_t>> rotation_sharers_;
  std::vector<int> rotation_hosts_;
  std::vector<unsigned char> rotation_host_taken_;
  std::vector<RotationRow> rotation_rows_;
  std::vector<size_t> rotation_resumed_;
  std::vector<size_t> rotation_current_, rotation_coming_; // the jobs of the phase in force and of the next, by id
  std::vector<size_t> rotation_continuing_;                // the jobs of both
  /* Per phase: its jobs' places in rotation_jobs_ (a range of rotation_phase_taken_) when this replay took it whole
   * already (rotation_phase_stamp_ == rotation_replays_): a map of few slices is reached again and again in one replay,
   * and each job met again would be looked up in groups_ for the place it already has. */
  std::vector<size_t> rotation_phase_taken_;
  std::vector<size_t> rotation_phase_stamp_;
  std::vector<std::pair<size_t, size_t>> rotation_phase_range_;
  std::vector<int> rotation_host_count_;
  std::vector<int> rotation_lean_of_process_;
  size_t rotation_job_count_ = 0; // the first ones of rotation_jobs_ in use
  /* The job's index in rotation_jobs_, its processes taken and checked (computing now or not: `computes_now`), or a
   * refusal (its state is not one the replay models). */
  RotationRefusal rotation_job(JobId id, const std::vector<int>& where, const ResourceSet& up, bool computes_now,
                               size_t& index);
  /* The replayed processes computing on host `h` (rotation_sharers_): those computing when the replay began are put
   * there at its start (in host_sharers_'s order), the others when they start. */
  std::vector<size_t>& rotation_host(int h);
  /* start_timer() and retime() of a replayed process at `now` (its share of its host's CPU). */
  void rotation_start_timer(RotationProcess& q, double now);
  void rotation_retime(RotationProcess& q, double now);
  void rotation_sync(RotationJob& j, double clock);
};

} // namespace jobsched
