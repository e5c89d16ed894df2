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
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <unordered_map>

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

namespace {

/* A set of M_j (non-increasing) as the memo's key: each distinct M_j and its count, as base-128 varints (one byte each
 * below 128). A fifth to a tenth of the ints' size on the KTH log, where most jobs share a few sizes, and hashed. */
void put_varint(std::string& out, unsigned value)
{
  for (; value >= 128; value >>= 7)
    out.push_back(static_cast<char>((value & 127) | 128));
  out.push_back(static_cast<char>(value));
}

int get_varint(const std::string& in, size_t& at)
{
  unsigned value = 0;
  for (int shift = 0;; shift += 7) {
    const auto byte = static_cast<unsigned char>(in[at++]);
    value |= static_cast<unsigned>(byte & 127) << shift;
    if (byte < 128) return static_cast<int>(value);
  }
}

void encode_set(const int* mins, size_t count, std::string& key)
{
  key.clear();
  for (size_t i = 0; i < count;) {
    size_t run = i + 1;
    while (run < count && mins[run] == mins[i])
      run++;
    put_varint(key, static_cast<unsigned>(mins[i]));
    put_varint(key, static_cast<unsigned>(run - i));
    i = run;
  }
}

} // namespace

/* A remaining set's best first epoch, as OPT-EPOCH(k)'s search found it: the fewest epochs, and the first epoch's part
 * count, its jobs' M_j in part order and their widths, as varints (what follows is the set without those jobs). */
struct OptEpochChoice {
  int epochs = 0;
  std::string first_epoch;
};

/* A candidate first epoch, in its level's pool: its jobs' M_j (part order), their widths, then the set left. */
struct OptEpochCandidate {
  size_t at;          // the candidate's first int in the pool
  size_t parts;       // its jobs (and widths)
  size_t left;        // the jobs left after it, after the widths
  long long left_sum; // their M_j's sum: a set pairwise no larger has no larger sum
};

/* One depth of the search's recursion: the candidates of the set solved at that depth, alive while deeper sets are
 * solved (their sets are read from here). Kept across sets and, in a memo, across calls. */
struct OptEpochLevel {
  std::vector<int> pool;
  std::vector<OptEpochCandidate> candidates;
  std::vector<char> dominated;
  std::string key;
};

struct OptEpochMemo::Sets {
  std::unordered_map<std::string, OptEpochChoice> solved; // by remaining set (encode_set())
  std::optional<EpochLowerBound> bounds;                  // for the N and k of the sets (built once for them)
  std::vector<std::unique_ptr<OptEpochLevel>> levels;     // by depth
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
  if (nodes != nodes_ || k != k_ || !sets_->bounds) sets_->bounds.emplace(nodes, k);
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
        sets_(memo != nullptr ? &memo->sets_for(nodes, k) : nullptr),
        memo_(sets_ != nullptr ? sets_->solved : own_memo_), bounds_(sets_ != nullptr ? &*sets_->bounds : nullptr),
        levels_(sets_ != nullptr ? sets_->levels : own_levels_)
  {
  }

  /* Solves `remaining` and the sets its best schedule goes through (all then in the memo). */
  void solve(const std::vector<int>& remaining) { solve_at(remaining.data(), remaining.size(), 0); }

  /* The solved entry of `remaining`. */
  const Choice& solved(const std::vector<int>& remaining)
  {
    encode_set(remaining.data(), remaining.size(), lookup_key_);
    return memo_.at(lookup_key_);
  }

  long long tested() const { return tested_; }

 private:
  using Candidate = OptEpochCandidate;
  using Level = OptEpochLevel;

  const int* left_of(const Level& level, const Candidate& c) const { return level.pool.data() + c.at + 2 * c.parts; }

  const Choice& solve_at(const int* remaining, size_t count, size_t depth)
  {
    if (depth == levels_.size()) levels_.push_back(std::make_unique<Level>());
    Level& level = *levels_[depth];
    encode_set(remaining, count, level.key);
    if (auto found = memo_.find(level.key); found != memo_.end()) return found->second;
    fill_candidates(remaining, count, level);
    // With pruning, exact up to one past the quick bound (the searches measured end there).
    const int bound = prune_ ? bounds_->within(remaining, count, bounds_->quick(remaining, count) + 1)
                             : lower_bound(remaining, count);
    int best_epochs = 0;
    size_t best = 0;
    for (size_t i = 0; i < level.candidates.size(); i++) {
      if (level.dominated[i]) continue;
      tested_++;
      const Candidate& candidate = level.candidates[i];
      const int* left = left_of(level, candidate);
      // A candidate that cannot do strictly better than the best so far would not replace it: not solved.
      if (prune_ && best_epochs != 0 && 1 + bounds_->within(left, candidate.left, best_epochs - 2) >= best_epochs)
        continue;
      const int epochs = 1 + (candidate.left == 0 ? 0 : solve_at(left, candidate.left, depth + 1).epochs);
      if (best_epochs == 0 || epochs < best_epochs) {
        best_epochs = epochs;
        best = i;
      }
      if (best_epochs <= bound) break;
    }
    Choice choice;
    choice.epochs = best_epochs;
    const Candidate& chosen = level.candidates[best];
    put_varint(choice.first_epoch, static_cast<unsigned>(chosen.parts));
    for (size_t i = 0; i < 2 * chosen.parts; i++)
      put_varint(choice.first_epoch, static_cast<unsigned>(level.pool[chosen.at + i]));
    return memo_.emplace(level.key, std::move(choice)).first->second;
  }

  /* Every epoch holds jobs whose M_j sum to at most N. */
  int lower_bound(const int* remaining, size_t count) const
  {
    long long sum = std::accumulate(remaining, remaining + count, 0LL);
    return static_cast<int>(std::max(1LL, (sum + nodes_ - 1) / nodes_));
  }

  void count_examined()
  {
    if (++examined_ > max_examined_)
      throw SearchBoundExceeded("opt-epoch: k = " + std::to_string(k_) + ", N = " + std::to_string(nodes_) +
                                ", J = " + std::to_string(job_count_) + ": the search examined more than " +
                                std::to_string(max_examined_) + " partitions; use heuristic-epoch or a larger bound");
  }

  /* Writes a candidate taking the jobs at `taken` (increasing positions, one per part) with `widths`; returns whether
   * its jobs are the largest (no job skipped before the last taken). */
  template <class Taken, class Width>
  bool add_candidate(const int* remaining, size_t count, size_t parts, Taken taken, Width width, Level& level)
  {
    Candidate c{level.pool.size(), parts, count - parts, 0};
    level.pool.resize(c.at + 2 * parts + c.left);
    int* loaded = level.pool.data() + c.at;
    int* widths = loaded + parts;
    int* left = widths + parts;
    size_t next = 0;
    size_t skipped = 0;
    for (size_t part = 0; part < parts; part++) {
      const size_t position = taken(part);
      for (; next < position; next++) {
        c.left_sum += remaining[next];
        left[skipped++] = remaining[next];
      }
      loaded[part] = remaining[next++];
      widths[part] = width(part);
    }
    const bool consecutive_from_largest = skipped == 0;
    for (; next < count; next++) {
      c.left_sum += remaining[next];
      left[skipped++] = remaining[next];
    }
    level.candidates.push_back(c);
    return consecutive_from_largest;
  }

  /* Step 1-2's candidates, then step 3's dominance flags. */
  void fill_candidates(const int* remaining, size_t count, Level& level)
  {
    level.pool.clear();
    level.candidates.clear();
    const int most = std::min(static_cast<int>(count), nodes_);
    if (k_ == 1) {
      // One partition per part count h: N mod h parts of floor(N / h) + 1 nodes, then the rest of floor(N / h) (the
      // enumeration's only one), filled by the same rule, found by two searches in the non-increasing M_j.
      const auto first_at_most = [&](int width) {
        return static_cast<size_t>(std::lower_bound(remaining, remaining + count, width, std::greater<int>()) -
                                   remaining);
      };
      for (int h = most; h >= 1; h--) {
        count_examined();
        const int narrow = nodes_ / h;
        const auto wide_parts = static_cast<size_t>(nodes_ % h);
        const auto parts = static_cast<size_t>(h);
        const size_t wide_from = wide_parts > 0 ? first_at_most(narrow + 1) : 0;
        if (wide_from + wide_parts > count) continue;
        const size_t narrow_from = std::max(wide_from + wide_parts, first_at_most(narrow));
        if (narrow_from + (parts - wide_parts) > count) continue;
        const bool largest = add_candidate(
            remaining, count, parts,
            [&](size_t part) { return part < wide_parts ? wide_from + part : narrow_from + (part - wide_parts); },
            [&](size_t part) { return part < wide_parts ? narrow + 1 : narrow; }, level);
        if (largest) break; // the paper's early termination
      }
    } else {
      bool stop = false;
      const auto visit = [&](const std::vector<int>& widths) {
        count_examined();
        // The largest part takes the largest job that fits, and so on: a job too big for a part is too big for
        // every later (smaller) part, so it stays unscheduled. First whether the partition can hold a job per part
        // (most partitions with many parts cannot).
        size_t next = 0;
        for (int width : widths) {
          while (next < count && remaining[next] > width)
            next++;
          if (next == count) return true; // this partition cannot hold `parts` jobs
          next++;
        }
        taken_.clear();
        next = 0;
        for (int width : widths) {
          while (remaining[next] > width)
            next++;
          taken_.push_back(next++);
        }
        const bool largest = add_candidate(
            remaining, count, widths.size(), [&](size_t part) { return taken_[part]; },
            [&](size_t part) { return widths[part]; }, level);
        if (k_ >= 1 && largest) {
          stop = true; // the paper's early termination, sound only for k >= 1
          return false;
        }
        return true;
      };
      for (int parts = most; parts >= 1 && !stop; parts--)
        for_each_partition(nodes_, k_, parts, visit);
    }
    // Drop a candidate whose remaining set another candidate's dominates; equal remaining sets keep the first.
    const size_t total = level.candidates.size();
    level.dominated.assign(total, 0);
    for (size_t i = 0; i < total; i++) {
      const Candidate& mine = level.candidates[i];
      for (size_t j = 0; j < total; j++) {
        if (i == j) continue;
        const Candidate& other = level.candidates[j];
        if (other.left_sum > mine.left_sum) continue; // neither equal nor pairwise no larger
        const int* a = left_of(level, other);
        const int* b = left_of(level, mine);
        if (other.left == mine.left && other.left_sum == mine.left_sum && std::equal(a, a + other.left, b)) {
          if (j < i) {
            level.dominated[i] = 1;
            break;
          }
          continue;
        }
        if (no_harder(a, other.left, b, mine.left)) {
          level.dominated[i] = 1;
          break;
        }
      }
    }
  }

  /* `a` can be scheduled in no more epochs than `b` (both non-increasing): pairwise no larger, and of the same size
   * at k = 0 (dropping a job can break an equal split) or no larger at k >= 1 (a dropped job's nodes can be spread
   * over its epoch within k). */
  bool no_harder(const int* a, size_t a_size, const int* b, size_t b_size) const
  {
    if (k_ == 0 ? a_size != b_size : a_size > b_size) return false;
    for (size_t i = 0; i < a_size; i++)
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
  OptEpochMemo::Sets* sets_; // the memo kept across calls, if any
  std::unordered_map<std::string, Choice> own_memo_;
  std::unordered_map<std::string, Choice>& memo_;
  const EpochLowerBound* bounds_; // for the pruning (with a memo kept across calls only)
  std::vector<std::unique_ptr<Level>> own_levels_;
  std::vector<std::unique_ptr<Level>>& levels_; // by depth, kept across the sets solved there
  std::vector<size_t> taken_;                  // the jobs a partition takes (k != 1)
  std::string lookup_key_;
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
  std::vector<int> loaded;
  std::vector<int> left;
  while (!remaining.empty()) {
    const std::string& first_epoch = search.solved(remaining).first_epoch;
    size_t at = 0;
    const auto parts = static_cast<size_t>(get_varint(first_epoch, at));
    loaded.resize(parts);
    for (int& m : loaded)
      m = get_varint(first_epoch, at);
    detail::EpochAssignment epoch;
    for (size_t i = 0; i < parts; i++) {
      const int m = loaded[i];
      size_t& next =
          std::lower_bound(next_of_min.begin(), next_of_min.end(), m, [](const std::pair<int, size_t>& entry, int min) {
            return entry.first > min;
          })->second;
      epoch.emplace_back(decreasing[next++], get_varint(first_epoch, at));
    }
    epochs.push_back(std::move(epoch));
    // The set left: `remaining` without the epoch's jobs (both non-increasing), as the search's candidate built it.
    left.clear();
    size_t taken = 0;
    for (int m : remaining) {
      if (taken < parts && loaded[taken] == m)
        taken++;
      else
        left.push_back(m);
    }
    remaining.swap(left);
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
