/* Dynamic equipartition, EQUI (Tucker & Gupta 1989; McCann, Vaswani & Zahorjan 1993; the baseline of McCann &
 * Zahorjan, "Scheduling Memory Constrained Jobs on Distributed Memory Parallel Computers", and of Cao et al.,
 * "Scalable Hierarchical Scheduling for Malleable Parallel Jobs"). At every arrival and departure the processors
 * that are up are split as equally as possible among the jobs in the system:
 *   - running rigid and moldable jobs keep their processors (they cannot change);
 *   - the other jobs are considered in submission order (running malleable jobs first) and admitted when their
 *     minimum (a rigid job's size, a moldable or malleable job's min_size, e.g. its memory) fits in what is left.
 *     `admission: skip` (the default, as in the papers' EQUI, which never blocks) passes over a job that does not fit
 *     and admits later ones that do, so a large rigid job can wait while smaller later ones pass it for as long as
 *     they keep arriving; `admission: in-order` stops at the first job that does not fit (FCFS admission: no job is
 *     admitted past it), so the large job waits only for the processors held when it became first;
 *   - admitted jobs get their minimum, then the remaining processors one at a time to the job with the fewest
 *     (ties: earliest submitted), never beyond a job's maximum: a max-min fair split.
 * Jobs keep the processors they have where they can (a shrinking job keeps its lowest ones; a growing job keeps all
 * of them and takes the lowest free ones), so a resize moves only the processors that change hands. A malleable job
 * that is resized stalls `reallocation_cost` seconds per processor added or removed. */
#include "policy/policy.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace jobsched {
namespace {

class Equi : public TimeSharingPolicy {
 public:
  explicit Equi(const PolicyEnv& env) : reallocation_cost_(env.params.get_double("reallocation_cost"))
  {
    in_order_ = env.params.get_string("admission") == "in-order"; // skip or in-order (declared below)
  }

  Plan plan(const SystemView& view) override
  {
    Plan plan;
    plan.reallocation_cost = reallocation_cost_;
    ResourceSet free = view.up;
    // Fixed: running jobs that cannot change keep their processors.
    std::vector<const JobState*> flexible;
    for (const JobState* s : view.jobs) {
      bool running = s->holds_processors();
      if (running && s->job->shape != JobShape::malleable && view.up.contains(s->processors)) {
        plan.run[s->job->id] = s->processors;
        free -= s->processors;
      } else if (running) {
        flexible.push_back(s);
      }
    }
    for (const JobState* s : view.jobs)
      if (!s->holds_processors()) flexible.push_back(s);
    // Admission in order while minimums fit (passing over those that do not, or stopping at the first), then the
    // max-min fair split.
    int left = free.count();
    std::vector<const JobState*> admitted;
    std::vector<int> share;
    for (const JobState* s : flexible) {
      int minimum = s->job->min_processors();
      if (minimum > left) {
        if (in_order_) break;
        continue;
      }
      admitted.push_back(s);
      share.push_back(minimum);
      left -= minimum;
    }
    while (left > 0) {
      int best = -1;
      for (size_t i = 0; i < admitted.size(); i++)
        if (share[i] < admitted[i]->job->max_processors() && (best < 0 || share[i] < share[best]))
          best = static_cast<int>(i);
      if (best < 0) break;
      share[best]++;
      left--;
    }
    // Placement: keep what can be kept, then hand out the free processors in order.
    std::vector<ResourceSet> chosen(admitted.size());
    for (size_t i = 0; i < admitted.size(); i++) {
      ResourceSet kept = admitted[i]->holds_processors() ? admitted[i]->processors & free : ResourceSet();
      if (kept.capacity() == 0) continue;
      chosen[i] = kept.count() > share[i] ? kept.lowest(share[i]) : kept;
    }
    for (size_t i = 0; i < admitted.size(); i++)
      if (chosen[i].capacity() != 0) free -= chosen[i];
    for (size_t i = 0; i < admitted.size(); i++) {
      ResourceSet mine = chosen[i].capacity() != 0 ? chosen[i] : ResourceSet(free.capacity());
      ResourceSet more = free.lowest(share[i] - mine.count());
      free -= more;
      plan.run[admitted[i]->job->id] = mine | more;
    }
    return plan;
  }

 private:
  double reallocation_cost_;
  bool in_order_ = false; // admission stops at the first job whose minimum does not fit
};

PolicyRegistration equi{
    {"equi",
     "dynamic equipartition: at every arrival and departure, processors split equally among jobs",
     {{"reallocation_cost",
       "0.0",
       "seconds of stall per processor added to or removed from a job",
       {},
       ParamRange::at_least(0)},
      {"admission",
       "skip",
       "skip: a job whose minimum does not fit is passed over and later jobs may start; in-order: no job starts "
       "before an earlier one that does not fit",
       {"skip", "in-order"}}},
     nullptr,
     [](const PolicyEnv& env) { return std::make_unique<Equi>(env); }}};

} // namespace
} // namespace jobsched
