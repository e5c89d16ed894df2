/* The job-level schedulers of Cao, Sun, Qian and Wu, "Scalable Hierarchical Scheduling for Malleable Parallel Jobs on
 * Multiprocessor-based Systems": they turn what a job did in the last quantum into its processor desire for the next.
 *
 * A-Control (AC, section 3.1, after Sun, Cao and Hsu, TPDS 2011): the desire is the job's average parallelism in the
 * last quantum, A(q) = w(q) / l(q) (equation 1); the initial desire is 1. With a convergence rate v (their footnote 1)
 * the desire is v d(q) + (1 - v) A(q); the paper sets v = 0, our default.
 *
 * A-Greedy (AG, section 3.5) is that of Agrawal, He, Hsu and Leiserson, "Adaptive task scheduling with parallelism
 * feedback", PPoPP 2006 (Cao et al.'s reference [16]): a quantum is *efficient* when the job used at least a fraction
 * delta of the processor time it was allotted (w(q) >= delta a(q) L), else *inefficient*; it is *satisfied* when
 * a(q) >= d(q), else *deprived*. Then d(q+1) = d(q) / rho when inefficient, d(q) rho when efficient and satisfied,
 * d(q) when efficient and deprived; the initial desire is 1. Agrawal et al. use delta = 0.8 and rho = 2 in their
 * simulations, our defaults. Cao et al. only say that AG "either doubles or halves the processor desire ... depending
 * on the job's processor utilization" (rho = 2); they name neither delta nor the deprived case, which we take from
 * A-Greedy itself. We keep the desire at least 1 (a job always has a thread to run).
 *
 * EQUI-EQUI's jobs send no desire: their feedback is only that they are unfinished (allocation.hpp). */
#pragma once

#include <algorithm>

namespace jobsched::hierarchical {

enum class JobScheduler { a_control, a_greedy, equi };
const char* to_string(JobScheduler s);

/* What a job did in its last quantum. */
struct QuantumFeedback {
  double work = 0;      // w(q)
  double span = 0;      // l(q)
  double allotment = 0; // a(q)
  double length = 0;    // the quantum's length L
};

constexpr double kInitialDesire = 1;

/* AC: w / l, mixed with the previous desire by `convergence_rate` in [0, 1). A quantum in which the job covered no
 * span (no processor, or a reallocation stall that filled it) says nothing of its parallelism: the desire is kept.
 * Inline, as a_greedy_desire(): a policy asks once per job per quantum, and a call into the shared library goes through
 * its PLT entry. */
inline double a_control_desire(double previous_desire, const QuantumFeedback& last, double convergence_rate = 0)
{
  if (!(last.span > 0)) return previous_desire;
  const double average_parallelism = last.work / last.span;
  return convergence_rate * previous_desire + (1 - convergence_rate) * average_parallelism;
}

struct AGreedyParams {
  double utilization_threshold = 0.8; // delta
  double responsiveness = 2;          // rho
};

/* AG. A quantum without allotment keeps the desire (the job could not show whether it was efficient). */
inline double a_greedy_desire(double previous_desire, const QuantumFeedback& last, const AGreedyParams& params = {})
{
  if (!(last.allotment > 0) || !(last.length > 0)) return previous_desire;
  const bool efficient = last.work >= params.utilization_threshold * last.allotment * last.length;
  const bool satisfied = last.allotment >= previous_desire;
  double next = previous_desire;
  if (!efficient)
    next = previous_desire / params.responsiveness;
  else if (satisfied)
    next = previous_desire * params.responsiveness;
  return std::max(kInitialDesire, next);
}

} // namespace jobsched::hierarchical
