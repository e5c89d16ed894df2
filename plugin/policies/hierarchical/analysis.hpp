/* The performance analysis of Cao, Sun, Qian and Wu, "Scalable Hierarchical Scheduling for Malleable Parallel Jobs on
 * Multiprocessor-based Systems", section 3.4, as figures measured on a run:
 *  - Lemma 1 (after Sun, Cao and Hsu, TPDS 2011): a job scheduled by A-Control has total satisfied time
 *    t^S <= (c + 1) l and total processor allotment a^T <= (c + 1) w, c being its transition factor;
 *  - Theorem 1: under AC-DS with the same quantum at every level, makespan <= 2 (c + 1) M*, and M* >=
 *    max(r + l of the last job to finish, total work / P), c being the largest transition factor of the jobs;
 *  - the step of its proof that the levels do not break: whenever a job is deprived, all P processors are allotted.
 * They hold for QF = 1, no reallocation cost, fractional allotments and a convergence rate of 0; the run checks them
 * there (hierarchical_policy.cpp).
 *
 * How we measure what the lemma is about (leaf_scheduler.hpp keeps it per job). The lemma's proof bounds each quantum
 * q in which the job runs: with T1 the time in q at parallelism h <= a and T2 the rest, the span covered is
 * l(q) >= T1 and the work w(q) >= a T2, and A(q) = w(q) / l(q) <= c d(q). If satisfied (a >= d(q)), T2 <= w(q) / a
 * <= c l(q), so T1 + T2 <= (c + 1) l(q); and since a <= d(q) <= c A(q) in every quantum, a (T1 + T2) <= c w(q) +
 * w(q). Hence our readings, which are what that proof needs:
 *  - t^S is the *time the job executes* while satisfied, and a^T the processor time it holds while it executes: a
 *    job that finishes inside a quantum counts the part it ran, not the whole quantum (a job shorter than a quantum
 *    would otherwise break (3) at once: tests/unit/test_hierarchical.cpp);
 *  - c compares every quantum with the one before, and the first quantum with the initial desire 1, since
 *    d(1) = 1 is what the first allotment follows (without it a short job of parallelism A on its initial processor
 *    breaks (3) with c = 1).
 * Pure code. */
#pragma once

#include "policies/hierarchical/leaf_scheduler.hpp"

#include <vector>

namespace jobsched::hierarchical {

struct AnalysisFigures {
  double makespan = 0; // last finish - origin
  double total_work = 0;
  double transition_factor = 1; // c: the largest over the jobs
  long last_job = -1;           // the job that finished last (the first of them on ties)
  double lower_bound = 0;       // max(r - origin + l of the last job, total work / P)
  double theorem1_bound = 0;    // 2 (c + 1) lower_bound
  // Lemma 1: the largest t^S / ((c_i + 1) l_i) and a^T / ((c_i + 1) w_i) over the jobs (<= 1 when it holds).
  double lemma1_satisfied_ratio = 0;
  double lemma1_allotment_ratio = 0;
  long lemma1_satisfied_job = -1; // the job with the largest ratio
  long lemma1_allotment_job = -1;
};

/* `records` non-empty, finished jobs. `origin`: when the instance starts, its first release (a run's first
 * submission, summary.json's `first_submission`, at or before every record's release). The paper's instance starts at
 * its first release: every release and finish counts from `origin`, so that `makespan` is the run's (last finish -
 * first submission) on a trace whose first job is submitted late as on one that starts at 0. */
AnalysisFigures analyse(const std::vector<JobRecord>& records, double processors, double origin);

} // namespace jobsched::hierarchical
