/* The epoch policies: McCann & Zahorjan 1994, "Scheduling memory constrained jobs on distributed memory parallel
 * computers", section 4: EQUI-EPOCH (4.1, Theorem 2, Figures 7 and 8), OPT-EPOCH(k) (4.2, Table 1) and
 * HEURISTIC-EPOCH(k) (4.3). An epoch reallocates every node at its start, so an epoch schedule's overhead is N per
 * epoch and minimizing overhead means minimizing the number of epochs. The readings of the paper's open points are
 * documented in policies.hpp, next to each function. */
#include "core/errors.hpp"
#include "policies/memory_constrained/epoch_bounds.hpp"
#include "policies/memory_constrained/partitions.hpp"
#include "policies/memory_constrained/policies.hpp"
#include "policies/memory_constrained/schedule_building.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>

namespace jobsched::memory_constrained {

namespace detail {

void check_input(const std::string& policy, int nodes, const std::vector<int>& mins, std::optional<int> k)
{
  if (nodes < 1) throw InputError(policy + ": N = " + std::to_string(nodes) + " nodes: must be at least 1");
  if (k && *k < 0) throw InputError(policy + ": k = " + std::to_string(*k) + ": must be at least 0");
  for (size_t j = 0; j < mins.size(); j++) {
    if (mins[j] < 1)
      throw InputError(policy + ": job " + std::to_string(j) + " needs " + std::to_string(mins[j]) +
                       " nodes: a minimum node count must be at least 1");
    if (mins[j] > nodes)
      throw InputError(policy + ": job " + std::to_string(j) + " needs " + std::to_string(mins[j]) +
                       " nodes, more than the " + std::to_string(nodes) + " there are");
  }
}

std::vector<int> all_jobs(const std::vector<int>& mins)
{
  std::vector<int> jobs(mins.size());
  std::iota(jobs.begin(), jobs.end(), 0);
  return jobs;
}

namespace {
/* std::stable_sort's result (a stable sort has one), by insertion for the few dozen jobs of a schedule, sorted at every
 * arrival and departure: the merge sort allocated its buffer at each call, a fifth of BUDDY*'s schedule. */
template <class Less>
void sort_stably(std::vector<int>& jobs, Less less)
{
  if (jobs.size() > 64) {
    std::stable_sort(jobs.begin(), jobs.end(), less);
    return;
  }
  for (size_t i = 1; i < jobs.size(); i++) {
    const int job = jobs[i];
    size_t k = i;
    for (; k > 0 && less(job, jobs[k - 1]); k--) // past the jobs it strictly precedes: ties keep their order
      jobs[k] = jobs[k - 1];
    jobs[k] = job;
  }
}
} // namespace

std::vector<int> jobs_by_increasing_min(const std::vector<int>& mins, const std::vector<int>& jobs)
{
  std::vector<int> sorted = jobs;
  sort_stably(sorted, [&](int a, int b) { return mins[a] < mins[b]; });
  return sorted;
}

std::vector<int> jobs_by_decreasing_min(const std::vector<int>& mins, const std::vector<int>& jobs)
{
  std::vector<int> sorted = jobs;
  sort_stably(sorted, [&](int a, int b) { return mins[a] > mins[b]; });
  return sorted;
}

void append_epochs(QuantumSchedule& schedule, const std::vector<EpochAssignment>& epochs, Fraction start,
                   int total_jobs)
{
  // Room for every piece and epoch at once: grown one at a time, the vectors were reallocated a dozen times per
  // schedule, built again at every arrival and departure.
  size_t pieces = schedule.pieces.size();
  for (const auto& assignment : epochs)
    pieces += assignment.size();
  schedule.pieces.reserve(pieces);
  schedule.epochs.reserve(schedule.epochs.size() + epochs.size());
  for (const auto& assignment : epochs) {
    Epoch epoch;
    epoch.start = start;
    epoch.duration = Fraction(static_cast<long long>(assignment.size()), total_jobs);
    epoch.pieces.reserve(assignment.size());
    int first_node = 0;
    for (auto [job, width] : assignment) {
      epoch.pieces.push_back(static_cast<int>(schedule.pieces.size()));
      schedule.pieces.push_back(Piece{job, first_node, width, epoch.start, epoch.duration});
      first_node += width;
    }
    start += epoch.duration;
    schedule.epochs.push_back(std::move(epoch));
  }
}

std::vector<EpochAssignment> heuristic_epochs(int nodes, const std::vector<int>& mins, const std::vector<int>& jobs,
                                              int k)
{
  std::vector<int> unscheduled = jobs_by_decreasing_min(mins, jobs);
  std::vector<EpochAssignment> epochs;
  while (!unscheduled.empty()) {
    // Steps 1-2: the largest job opens the epoch; the others, largest first, join if max(M_j, L - k) nodes are left.
    EpochAssignment epoch;
    std::vector<size_t> placed; // positions in `unscheduled`, in placement order
    const int largest = mins[static_cast<size_t>(unscheduled.front())];
    const int floor_width = largest - k;
    int left = nodes;
    for (size_t i = 0; i < unscheduled.size() && (i == 0 || left >= floor_width) && left > 0; i++) {
      int width = std::max(mins[static_cast<size_t>(unscheduled[i])], i == 0 ? largest : floor_width);
      if (width > left) continue; // skipped: a smaller job further on may fit
      epoch.emplace_back(unscheduled[i], width);
      placed.push_back(i);
      left -= width;
    }
    // Steps 3-4: spread the nodes left; at k = 0, give back the last job until they spread evenly.
    while (true) {
      int count = static_cast<int>(epoch.size());
      int extra = left % count;
      if (k > 0 || extra == 0) {
        for (auto& [job, width] : epoch)
          width += left / count;
        // The extra nodes to the narrowest jobs, ties to the one placed last.
        std::vector<size_t> order(epoch.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
          if (epoch[a].second != epoch[b].second) return epoch[a].second < epoch[b].second;
          return a > b;
        });
        for (int e = 0; e < extra; e++)
          epoch[order[static_cast<size_t>(e)]].second++;
        break;
      }
      left += epoch.back().second;
      epoch.pop_back();
      placed.pop_back();
    }
    for (auto it = placed.rbegin(); it != placed.rend(); ++it)
      unscheduled.erase(unscheduled.begin() + static_cast<long>(*it));
    epochs.push_back(std::move(epoch));
  }
  return epochs;
}

} // namespace detail

QuantumSchedule equi_epoch_schedule(int nodes, const std::vector<int>& mins)
{
  detail::check_input("equi-epoch", nodes, mins);
  QuantumSchedule schedule;
  schedule.nodes = nodes;
  std::vector<int> increasing = detail::jobs_by_increasing_min(mins, detail::all_jobs(mins));
  std::vector<detail::EpochAssignment> epochs;
  size_t next = 0;
  while (next < increasing.size()) {
    int left = static_cast<int>(increasing.size() - next);
    // The largest c dividing N, at most the jobs left, whose c-th smallest remaining job fits in N/c nodes; c = 1
    // always qualifies since every M_j <= N.
    int c = std::min(left, nodes);
    while (nodes % c != 0 || mins[static_cast<size_t>(increasing[next + static_cast<size_t>(c) - 1])] > nodes / c)
      c--;
    detail::EpochAssignment epoch;
    epoch.reserve(static_cast<size_t>(c));
    for (int i = 0; i < c; i++)
      epoch.emplace_back(increasing[next + static_cast<size_t>(i)], nodes / c);
    next += static_cast<size_t>(c);
    epochs.push_back(std::move(epoch));
  }
  detail::append_epochs(schedule, epochs, Fraction(0), static_cast<int>(mins.size()));
  return schedule;
}

namespace {

constexpr long long kDefaultMaxPartitionsExamined = 10'000'000;

} // namespace

/* A remaining set's best first epoch, as OPT-EPOCH(k)'s search found it. */
struct OptEpochChoice {
  int epochs = 0;                   // fewest epochs for this remaining set
  std::vector<int> loaded_mins;     // the first epoch's jobs (M_j), in part order
  std::vector<int> widths;          // their widths
  std::vector<int> remaining_after; // what the following epochs schedule
};

struct OptEpochMemo::Sets {
  std::map<std::vector<int>, OptEpochChoice> solved; // by remaining set (M_j non-increasing)
};

OptEpochMemo::OptEpochMemo(size_t max_entries) : max_entries_(max_entries), sets_(std::make_unique<Sets>()) {}
OptEpochMemo::~OptEpochMemo() = default;

size_t OptEpochMemo::size() const
{
  return sets_->solved.size();
}

OptEpochMemo::Sets& OptEpochMemo::sets_for(int nodes, int k)
{
  if (nodes != nodes_ || k != k_ || sets_->solved.size() > max_entries_) sets_->solved.clear();
  nodes_ = nodes;
  k_ = k;
  return *sets_;
}

namespace {

/* OPT-EPOCH(k)'s search over remaining job sets, each a multiset of M_j in non-increasing order (jobs with equal M_j
 * are interchangeable, so the multiset is the state). The steps are described in policies.hpp. */
class OptEpochSearch {
 public:
  using Choice = OptEpochChoice;

  /* `memo`: the solved sets to read and fill (a memo kept across calls, which also turns on the pruning by lower
   * bound), or null for a memo of the search's own. */
  OptEpochSearch(int nodes, int k, long long max_examined, int job_count, OptEpochMemo* memo)
      : nodes_(nodes), k_(k), max_examined_(max_examined), job_count_(job_count), prune_(memo != nullptr),
        memo_(memo != nullptr ? memo->sets_for(nodes, k).solved : own_memo_), bounds_(nodes, k)
  {
  }

  const Choice& solve(const std::vector<int>& remaining)
  {
    if (auto found = memo_.find(remaining); found != memo_.end()) return found->second;
    std::vector<Choice> candidates = candidates_for(remaining);
    // With pruning, exact up to one past the quick bound (the searches measured end there).
    const int bound = prune_ ? bounds_.within(remaining, bounds_.quick(remaining) + 1) : lower_bound(remaining);
    Choice best;
    for (auto& candidate : candidates) {
      tested_++;
      // A candidate that cannot do strictly better than the best so far would not replace it: not solved.
      if (prune_ && best.epochs != 0 && 1 + bounds_.within(candidate.remaining_after, best.epochs - 2) >= best.epochs)
        continue;
      candidate.epochs = 1 + (candidate.remaining_after.empty() ? 0 : solve(candidate.remaining_after).epochs);
      if (best.epochs == 0 || candidate.epochs < best.epochs) best = std::move(candidate);
      if (best.epochs <= bound) break;
    }
    return memo_.emplace(remaining, std::move(best)).first->second;
  }

  long long tested() const { return tested_; }

 private:
  /* Every epoch holds jobs whose M_j sum to at most N. */
  int lower_bound(const std::vector<int>& remaining) const
  {
    long long sum = std::accumulate(remaining.begin(), remaining.end(), 0LL);
    return static_cast<int>(std::max(1LL, (sum + nodes_ - 1) / nodes_));
  }

  std::vector<Choice> candidates_for(const std::vector<int>& remaining)
  {
    std::vector<Choice> candidates;
    const int most = std::min(static_cast<int>(remaining.size()), nodes_);
    bool stop = false;
    // One visitor for every part count (a std::function built per call would allocate each time).
    const std::function<bool(const std::vector<int>&)> visit = [&](const std::vector<int>& widths) {
      if (++examined_ > max_examined_)
        throw SearchBoundExceeded("opt-epoch: k = " + std::to_string(k_) + ", N = " + std::to_string(nodes_) +
                                  ", J = " + std::to_string(job_count_) + ": the search examined more than " +
                                  std::to_string(max_examined_) + " partitions; use heuristic-epoch or a larger bound");
      // The largest part takes the largest job that fits, and so on: a job too big for a part is too big for
      // every later (smaller) part, so it stays unscheduled. First whether the partition can hold a job per part,
      // without building anything (most partitions with many parts cannot).
      size_t next = 0;
      for (int width : widths) {
        while (next < remaining.size() && remaining[next] > width)
          next++;
        if (next == remaining.size()) return true; // this partition cannot hold `parts` jobs
        next++;
      }
      Choice c;
      c.remaining_after.reserve(remaining.size() - widths.size());
      c.loaded_mins.reserve(widths.size());
      next = 0;
      for (int width : widths) {
        while (remaining[next] > width)
          c.remaining_after.push_back(remaining[next++]);
        c.loaded_mins.push_back(remaining[next++]);
      }
      bool consecutive_from_largest = c.remaining_after.empty();
      c.remaining_after.insert(c.remaining_after.end(), remaining.begin() + static_cast<long>(next), remaining.end());
      c.widths = widths;
      candidates.push_back(std::move(c));
      if (k_ >= 1 && consecutive_from_largest) {
        stop = true; // the paper's early termination, sound only for k >= 1
        return false;
      }
      return true;
    };
    for (int parts = most; parts >= 1 && !stop; parts--)
      for_each_partition(nodes_, k_, parts, visit);
    // Drop a candidate whose remaining set another candidate's dominates; equal remaining sets keep the first.
    std::vector<bool> dominated_flags(candidates.size(), false);
    for (size_t i = 0; i < candidates.size(); i++) {
      bool dominated = false;
      for (size_t j = 0; j < candidates.size() && !dominated; j++) {
        if (i == j) continue;
        const auto& mine = candidates[i].remaining_after;
        const auto& other = candidates[j].remaining_after;
        if (other == mine) {
          dominated = j < i;
          continue;
        }
        dominated = no_harder(other, mine);
      }
      dominated_flags[i] = dominated;
    }
    std::vector<Choice> kept;
    for (size_t i = 0; i < candidates.size(); i++)
      if (!dominated_flags[i]) kept.push_back(std::move(candidates[i]));
    return kept;
  }

  /* `a` can be scheduled in no more epochs than `b` (both non-increasing): pairwise no larger, and of the same size
   * at k = 0 (dropping a job can break an equal split) or no larger at k >= 1 (a dropped job's nodes can be spread
   * over its epoch within k). */
  bool no_harder(const std::vector<int>& a, const std::vector<int>& b) const
  {
    if (k_ == 0 ? a.size() != b.size() : a.size() > b.size()) return false;
    for (size_t i = 0; i < a.size(); i++)
      if (a[i] > b[i]) return false;
    return true;
  }

  int nodes_;
  int k_;
  long long max_examined_;
  int job_count_;
  bool prune_;
  long long examined_ = 0;
  long long tested_ = 0;
  std::map<std::vector<int>, Choice> own_memo_;
  std::map<std::vector<int>, Choice>& memo_;
  EpochLowerBound bounds_; // for the pruning
};

} // namespace

QuantumSchedule opt_epoch_schedule(int nodes, const std::vector<int>& mins, int k, const OptEpochOptions& options)
{
  detail::check_input("opt-epoch", nodes, mins, k);
  if (k > 1 && !options.max_partitions_examined)
    throw InputError("opt-epoch: k = " + std::to_string(k) +
                     ": the paper runs OPT-EPOCH only for k <= 1 (the search explodes, Table 1); use heuristic-epoch, "
                     "or give a search bound (--max-partitions) to run it anyway");
  QuantumSchedule schedule;
  schedule.nodes = nodes;
  if (mins.empty()) return schedule;
  OptEpochSearch search(nodes, k, options.max_partitions_examined.value_or(kDefaultMaxPartitionsExamined),
                        static_cast<int>(mins.size()), options.memo.get());
  std::vector<int> decreasing = detail::jobs_by_decreasing_min(mins, detail::all_jobs(mins));
  std::vector<int> remaining;
  for (int job : decreasing)
    remaining.push_back(mins[static_cast<size_t>(job)]);
  search.solve(remaining);
  // Rebuild the epochs from the memo, handing out the jobs of each M_j in index order: in `decreasing` (a stable sort)
  // the jobs of one M_j are contiguous and in index order, and next_of_min holds, for each distinct M_j in decreasing
  // order, the position of the next one (one entry per distinct M_j, not a table of N + 1 filled at every schedule).
  std::vector<std::pair<int, size_t>> next_of_min;
  for (size_t i = 0; i < decreasing.size(); i++) {
    const int m = mins[static_cast<size_t>(decreasing[i])];
    if (next_of_min.empty() || next_of_min.back().first != m) next_of_min.emplace_back(m, i);
  }
  std::vector<detail::EpochAssignment> epochs;
  while (!remaining.empty()) {
    const auto& choice = search.solve(remaining);
    detail::EpochAssignment epoch;
    for (size_t i = 0; i < choice.loaded_mins.size(); i++) {
      const int m = choice.loaded_mins[i];
      size_t& next =
          std::lower_bound(next_of_min.begin(), next_of_min.end(), m, [](const std::pair<int, size_t>& entry, int min) {
            return entry.first > min;
          })->second;
      epoch.emplace_back(decreasing[next++], choice.widths[i]);
    }
    epochs.push_back(std::move(epoch));
    remaining = choice.remaining_after;
  }
  schedule.assignments_tested = search.tested();
  detail::append_epochs(schedule, epochs, Fraction(0), static_cast<int>(mins.size()));
  return schedule;
}

QuantumSchedule heuristic_epoch_schedule(int nodes, const std::vector<int>& mins, int k)
{
  detail::check_input("heuristic-epoch", nodes, mins, k);
  QuantumSchedule schedule;
  schedule.nodes = nodes;
  detail::append_epochs(schedule, detail::heuristic_epochs(nodes, mins, detail::all_jobs(mins), k), Fraction(0),
                        static_cast<int>(mins.size()));
  return schedule;
}

} // namespace jobsched::memory_constrained
