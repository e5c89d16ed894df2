/* A level-2 node of Cao, Sun, Qian and Wu's scheduler tree ("Scalable Hierarchical Scheduling for Malleable Parallel
 * Jobs on Multiprocessor-based Systems", sections 3.1-3.3 and 4.3(4)): the scheduler that holds jobs. At each of its
 * quantum boundaries it admits the jobs released since, computes each job's desire from its last quantum (AC, AG, or
 * none under EQUI: feedback.hpp), reports their sum (DS) upwards, divides the processors it received among its jobs
 * (DEQ or EQUI: allocation.hpp) and runs them for one quantum at rate min(a, h) (model/malleable_job.hpp).
 *
 * Reallocation cost (section 4.3(4)): a job whose allotment changes by x processors stalls x L CF -- it computes
 * nothing while its processors move, holding its new allotment -- carried into the next quanta when longer than one.
 * The node's delay for the quantum is the sum of its jobs' stalls; the levels above accumulate it
 * (hierarchical_policy.cpp).
 *
 * Pure code, no SimGrid: the tests run one job through it as a second method against the runtime (the former
 * hierarchy: simulator's actors called it). It also keeps, per job, what section 3.4's analysis
 * is about: the transition factor c (largest ratio of the average parallelism of two successive quanta in which the job
 * ran, the first compared with the initial desire), the satisfied time and the total allotment, measured as
 * analysis.hpp says. */
#pragma once

#include "policies/hierarchical/allocation.hpp"
#include "policies/hierarchical/feedback.hpp"
#include "model/malleable_job.hpp"

#include <deque>
#include <vector>

namespace jobsched::hierarchical {

struct LeafSettings {
  JobScheduler job_scheduler = JobScheduler::a_control;
  NodeAllocator allocator = NodeAllocator::deq;
  bool whole_processors = false;
  double quantum = 0.001; // L
  double cost_factor = 0; // CF
  double convergence_rate = 0;
  AGreedyParams a_greedy;
};

/* What happened to a job, for the outputs and the analysis. */
struct JobRecord {
  long id = 0;
  double release = 0;
  double work = 0;
  double span = 0;
  double average_parallelism = 0;
  long phases = 0;
  double start = -1; // first quantum with processors
  double finish = -1;
  double transition_factor = 1; // c: max ratio of A(q) to A(q - 1) either way, A(0) = the initial desire 1
  double satisfied_time = 0;    // t^S: seconds executed in quanta where a >= d (analysis.hpp)
  double total_allotment = 0;   // a^T: processor-seconds held while executing (or stalled)
  double stall_time = 0;        // seconds lost to reallocation
};

/* After allot(): what the node decided this quantum. */
struct LeafAllotment {
  double allotted = 0; // processors given to jobs
  bool some_job_deprived = false;
  double delay = 0; // sum of x L CF over its jobs
};

class LeafScheduler {
 public:
  explicit LeafScheduler(const LeafSettings& settings) : settings_(settings) {}
  /* Jobs in release order; admitted at the first boundary at or after their release. */
  void add_job(long id, double release, MalleableJob job);
  /* The boundary at time t: admit released jobs, compute desires. */
  void begin_quantum(double t);
  double desire() const; // DS over its jobs (+infinity under EQUI's job scheduler when a job is active)
  long unfinished() const { return static_cast<long>(active_.size()); }
  LeafAllotment allot(double processors);
  /* Runs [t, t + L]; returns the records of the jobs that finished in it. */
  std::vector<JobRecord> run_quantum(double t);

 private:
  struct ActiveJob {
    MalleableJob job;
    JobRecord record;
    double desire = kInitialDesire;
    double allotment = 0;
    double stall = 0;
    QuantumFeedback last;
    bool ran = false;                             // `last` is meaningful
    double previous_parallelism = kInitialDesire; // A(q) of the last quantum with span; the initial desire before
  };
  struct PendingJob {
    long id;
    double release;
    MalleableJob job;
  };
  LeafSettings settings_;
  std::deque<PendingJob> pending_;
  std::vector<ActiveJob> active_;
};

} // namespace jobsched::hierarchical
