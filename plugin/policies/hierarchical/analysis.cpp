/* Cao, Sun, Qian and Wu, section 3.4: Lemma 1 and Theorem 1 as figures of a run (see analysis.hpp). */
#include "policies/hierarchical/analysis.hpp"

#include <algorithm>
#include <stdexcept>

namespace jobsched::hierarchical {

AnalysisFigures analyse(const std::vector<JobRecord>& records, double processors, double origin)
{
  if (records.empty()) throw std::invalid_argument("analyse: no job");
  AnalysisFigures out;
  const JobRecord* last = &records.front();
  for (const JobRecord& r : records) {
    out.total_work += r.work;
    out.transition_factor = std::max(out.transition_factor, r.transition_factor);
    if (r.finish > last->finish) last = &r;
    const double satisfied = r.satisfied_time / ((r.transition_factor + 1) * r.span);
    if (satisfied > out.lemma1_satisfied_ratio) {
      out.lemma1_satisfied_ratio = satisfied;
      out.lemma1_satisfied_job = r.id;
    }
    const double allotment = r.total_allotment / ((r.transition_factor + 1) * r.work);
    if (allotment > out.lemma1_allotment_ratio) {
      out.lemma1_allotment_ratio = allotment;
      out.lemma1_allotment_job = r.id;
    }
  }
  out.makespan = last->finish - origin;
  out.last_job = last->id;
  out.lower_bound = std::max(last->release - origin + last->span, out.total_work / processors);
  out.theorem1_bound = 2 * (out.transition_factor + 1) * out.lower_bound;
  return out;
}

} // namespace jobsched::hierarchical
