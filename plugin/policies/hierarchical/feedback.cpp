/* A-Control (Cao et al., section 3.1) and A-Greedy (section 3.5; Agrawal, He, Hsu and Leiserson, PPoPP 2006): the
 * desire rules, see feedback.hpp. */
#include "policies/hierarchical/feedback.hpp"

#include <algorithm>

namespace jobsched::hierarchical {

const char* to_string(JobScheduler s)
{
  switch (s) {
  case JobScheduler::a_control:
    return "ac";
  case JobScheduler::a_greedy:
    return "ag";
  case JobScheduler::equi:
    return "equi";
  }
  return "?";
}

double a_control_desire(double previous_desire, const QuantumFeedback& last, double convergence_rate)
{
  if (!(last.span > 0)) return previous_desire;
  const double average_parallelism = last.work / last.span;
  return convergence_rate * previous_desire + (1 - convergence_rate) * average_parallelism;
}

double a_greedy_desire(double previous_desire, const QuantumFeedback& last, const AGreedyParams& params)
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
