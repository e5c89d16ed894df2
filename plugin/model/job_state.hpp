/* The one record of each job's state during a run: where it is, what it is doing, what it has received and what it
 * cost. The runtime writes it; drivers read it to check and apply policies' choices; time-sharing policies see it
 * read-only (it holds the public `Job`, never the hidden truth); the outputs are made from it. */
#pragma once

#include "core/resource_set.hpp"
#include "model/job.hpp"
#include "model/job_model.hpp"

#include <deque>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace jobsched {

/* How a job left the machine (running: it has not, yet). */
enum class JobFate { running, completed, walltime_reached, killed, failed };

/* What a job is doing now. Switching: paying a context switch or reallocation before it computes again;
 * transferring: its memory image is being written, read or moved over the platform. */
enum class JobStatus { pending, waiting, running, suspended, switching, transferring, finished };
const char* to_string(JobStatus s);

struct JobCounters {
  int preemptions = 0;       // suspensions while it had started
  int resizes = 0;           // allotment changes of a running job (malleable)
  int migrations = 0;        // moves to other processors (with or without an image transfer)
  double bytes_moved = 0;    // image bytes written, read or transferred
  double switching_time = 0; // seconds spent in context switches and reallocations
  double transfer_time = 0;  // seconds spent writing, reading or moving images
  int requeues = 0;          // times the job went back to the waiting queue after losing its processors
  double work_lost = 0;      // seconds it had computed before those requeues (done again)
};

/* What a job's computing amounted to, in seconds, for its metrics (output/metrics.hpp). The runtime adds each running
 * segment up on its own side and copies the sums here only when the job leaves the machine or the run ends: they
 * derive from the job's hidden run time and speedup, which policies must not read while the job is in the system. */
struct JobAccount {
  double dedicated_time = 0;  // how long its computing would have taken alone on its requested processors
  double paged_run_time = 0;  // the part of that owed to its run time stretched by paging: run time x (1 + paging)
  double page_fault_time = 0; // the part of that owed to paging: run time x paging stretch
};

struct JobState {
  const Job* job = nullptr;
  JobStatus status = JobStatus::pending;
  JobFate fate = JobFate::running;
  double start_time = -1; // first start
  double finish_time = -1;
  ResourceSet processors; // the current allotment (the last one once finished)
  /* Once finished (or at the end of the run): in interval notation, the processors it held from its first start to
   * its end when it never let them go (never suspended, resized or moved), else empty; the set itself is then
   * released (on a machine of 10,000 processors it is 1.2 KB, and a run may hold a million finished jobs). */
  std::string allocated;
  double service = 0; // seconds it has computed so far (running segments): what feedback policies read
  /* Jobs with a parallelism profile (WorkloadJob::profile): the work done (processor-seconds at the reference speed)
   * and the span covered so far, as the job itself would report them (Cao et al.'s w(q) and l(q) are their
   * differences over a quantum). A measurement, not the truth: it says nothing of what is left. Brought up to date
   * whenever a time-sharing policy plans (JobRuntime::measure_progress). */
  double work_done = 0;
  double span_done = 0;
  PlacementCost cost; // of the current (last) placement
  JobCounters counters;
  JobAccount account; // filled when the job leaves the machine or the run ends (zero before)

  bool started() const { return start_time >= 0; }
  bool finished() const { return status == JobStatus::finished; }
  /* Holding processors: computing or preparing to (a suspended job holds none). */
  bool holds_processors() const
  {
    return status == JobStatus::running || status == JobStatus::switching ||
           (status == JobStatus::transferring && !image_out);
  }
  bool image_out = false; // transferring: true while the image is written out after a suspension
};

/* All jobs of the run in workload order, found by id. Records never move once added (a deque), so the runtime keeps
 * pointers to them.
 *
 * A long run holds records only for the jobs between the oldest one still in the system and the newest one looked up:
 * a job registered with expect() gets its record (pending) when it is first looked up (at its submission), and, once
 * a release sink is set, the finished records at the front are handed to it in workload order and dropped
 * (release_marked(), at instants when nothing points to them any more). The outputs are made from what the sink
 * receives; a million-job run then holds the records of the jobs in the system and of the finished ones waiting for an
 * earlier job to end, not of every job. */
class JobTable {
 public:
  JobState& add(const Job& job);
  /* Registers `job` at the next position of the workload order, its record made when first looked up. */
  void expect(const Job& job);
  JobState& at(JobId id);
  const JobState& at(JobId id) const;
  JobState* find(JobId id); // nullptr when the job is not registered or its record was released
  const JobState* find(JobId id) const { return const_cast<JobTable*>(this)->find(id); }
  bool contains(JobId id) const { return position_of(id) >= 0; }
  /* The records, moved out (end of the run): those not released, in workload order. */
  std::deque<JobState> take_all()
  {
    first_ += states_.size();
    marked_ = 0;
    return std::move(states_);
  }

  /* The job registered under `id` (its record may be released), nullptr if none. */
  const Job* job_of(JobId id) const
  {
    const long p = position_of(id);
    return p < 0 ? nullptr : jobs_[static_cast<size_t>(p)];
  }
  /* The job has left the machine: its record is finished, or was released. */
  bool ended(JobId id) const;
  /* Where finished records go (with their position in the workload order) before they are dropped; without a sink
   * nothing is released. */
  void set_release_sink(std::function<void(JobState&, size_t)> sink) { sink_ = std::move(sink); }
  /* Notes the finished records at the front (they and every record before them finished) that release_marked() may
   * drop: the scheduler marks before its driver decides and releases after, when the driver and the policy have
   * forgotten the jobs that ended before the decision. */
  void mark_ended();
  void release_marked();
  /* End of the run: every record not released, finished or not, made if never looked up, to the sink in order. */
  void release_all();
  size_t registered() const { return jobs_.size(); }
  /* The job's position in the workload order, -1 when it is not registered (segments.csv's rows, by job number). */
  long position_of(JobId id) const;
  size_t held() const { return states_.size(); } // records in memory

 private:
  JobState* record(size_t position); // made (pending) up to `position` if needed; nullptr when released
  bool ready_to_release(const JobState& s) const { return s.finished() && s.fate != JobFate::running; }

  std::vector<const Job*> jobs_; // by position
  // Ids: consecutive from first_id_ (every generated workload), or else looked up in a table or in index_.
  bool consecutive_ = true;
  JobId first_id_ = 0;
  std::unordered_map<JobId, size_t> index_; // filled once the table is given up
  // Ids not consecutive but close together (a log whose jobs were filtered) are in a table by number,
  // position_by_id_[id - lowest_id_] (-1: none), while they span less than four times their count and 1024 more;
  // beyond, in index_.
  void note_by_id(JobId id, size_t position);
  bool by_id_ = false;
  JobId lowest_id_ = 0;
  std::vector<long> position_by_id_;
  std::deque<JobState> states_; // positions first_ .. first_ + states_.size() - 1
  size_t first_ = 0;
  size_t marked_ = 0; // records at the front release_marked() may drop
  std::function<void(JobState&, size_t)> sink_;
};

/* One row of trace.csv: a job spent [start, end) in `status` on `processors`. */
struct TraceSegment {
  JobId job = 0;
  double start = 0;
  double end = 0;
  ResourceSet processors;
  JobStatus status = JobStatus::running;
  /* Processor-seconds the job held, when it is not processors x length: a running segment on fractional shares
   * (Plan::share) holds its share of them. -1: processors x length. */
  double area = -1;
  /* An aggregated row of a repeating schedule (a cycle advanced whole, JobRuntime::cycle_end): it stands for `repeats`
   * segments, the i-th (from 0) spanning [start + i x period, end + i x period). Ordinary rows: 1 and 0. */
  long repeats = 1;
  double period = 0;
};

/* The processor-seconds a running segment held: its area on shares when it has one (>= 0), else processors x length.
 * One formula for the utilization's sums, whether they come from trace segments (busy_area()) or from the runtime's
 * own totals of a run without trace. */
inline double held_processor_seconds(double area, int processors, double start, double end)
{
  return area >= 0 ? area : processors * (end - start);
}

} // namespace jobsched
