/* Dynamic equipartition, EQUI (Tucker & Gupta 1989; McCann, Vaswani & Zahorjan 1993; the baseline of McCann &
 * Zahorjan, "Scheduling Memory Constrained Jobs on Distributed Memory Parallel Computers", and of Cao et al.,
 * "Scalable Hierarchical Scheduling for Malleable Parallel Jobs"). At every arrival and departure the processors
 * that are up are split as equally as possible among the jobs in the system:
 *   - running rigid and moldable jobs keep their processors (they cannot change); a moldable job that started and
 *     lost some of them (an owner came back, or it was suspended) is admitted only with as many as it started with;
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
#include "policies/time_sharing/equi.hpp"

#include "core/errors.hpp"
#include "policy/policy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

namespace jobsched {

std::vector<int> max_min_fair_split(const std::vector<int>& minimum, const std::vector<int>& maximum, int spare)
{
  std::vector<int> share = minimum;
  if (spare <= 0) return share;
  // Raising the level from t to t + 1 costs one processor per job with minimum <= t < maximum: the jobs enter at their
  // minimum and leave at their maximum, so the cost changes only there.
  std::vector<std::pair<int, int>> changes; // (level, +1 entering or -1 leaving)
  for (size_t i = 0; i < minimum.size(); i++)
    if (maximum[i] > minimum[i]) {
      changes.emplace_back(minimum[i], 1);
      changes.emplace_back(maximum[i], -1);
    }
  std::sort(changes.begin(), changes.end());
  std::int64_t left = spare;
  std::int64_t rising = 0; // jobs between their minimum and maximum at the current level
  long long level = 0;
  int extra = 0;         // jobs at `level` that get one more
  bool saturated = true; // every job reaches its maximum
  for (size_t k = 0; k < changes.size();) {
    level = changes[k].first;
    for (; k < changes.size() && changes[k].first == level; k++)
      rising += changes[k].second;
    if (k == changes.size()) break; // rising is 0 again: every job at its maximum
    const std::int64_t step = changes[k].first - level;
    if (rising * step <= left) {
      left -= rising * step;
      continue;
    }
    level += left / rising;
    extra = static_cast<int>(left % rising);
    saturated = false;
    break;
  }
  for (size_t i = 0; i < share.size(); i++) {
    if (maximum[i] <= minimum[i]) continue;
    if (saturated) {
      share[i] = maximum[i];
      continue;
    }
    share[i] = static_cast<int>(std::max<long long>(minimum[i], std::min<long long>(maximum[i], level)));
    if (extra > 0 && share[i] == level && maximum[i] > level) {
      share[i]++;
      extra--;
    }
  }
  return share;
}

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
    std::vector<int> maximum;
    for (const JobState* s : flexible) {
      int minimum = s->job->min_processors();
      int most = s->job->max_processors();
      if (s->job->shape == JobShape::moldable && s->started() && s->processors.count() > 0)
        minimum = most = s->processors.count(); // its count is fixed once it started: the same, elsewhere if need be
      if (minimum > left) {
        if (in_order_) break;
        continue;
      }
      admitted.push_back(s);
      share.push_back(minimum);
      maximum.push_back(most);
      left -= minimum;
    }
    share = max_min_fair_split(share, maximum, left);
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
       "seconds of stall per processor added to or removed from a job (at most 1e6: beyond, a reallocation of many "
       "processors takes the clock past the simulator's horizon, where its seconds are lost and the run never ended)",
       {},
       ParamRange::between(0, 1e6)},
      {"admission",
       "skip",
       "skip: a job whose minimum does not fit is passed over and later jobs may start; in-order: no job starts "
       "before an earlier one that does not fit",
       {"skip", "in-order"}}},
     nullptr,
     [](const PolicyEnv& env) { return std::make_unique<Equi>(env); }}};

} // namespace
} // namespace jobsched
