/* SMP-aware allocation with a compactness bound: the `Tight` rule of "Processor allocation of parallel jobs on SMP
 * clusters" (the SMP-cluster paper; English summary in docs/reproduction/smp-cluster.md).
 *
 * A job asking for C processors needs at least min_nodes = ceil(C / cores per node) SMP nodes and may be spread over
 * at most min_nodes + Tight of them. Tight = 0 forces the most compact placement (little communication, longer waits
 * for a compact hole); a large Tight accepts any placement with enough free cores.
 *
 * Which nodes (parameter `placement`):
 *  - fewest-nodes (default): the fewest possible. Nodes are ranked by free cores (most first, then by index); with k
 * the smallest count whose k best nodes hold C free cores, the job takes all free cores of the first k-1 nodes and the
 * rest from the node, among the others, with the fewest free cores that still suffice (best fit, so the large holes
 * stay for large jobs). Within a node it takes preferred cores first, then the lowest-numbered.
 *  - first-fit: the lowest-numbered free cores, wherever they are, if they span at most min_nodes + Tight nodes;
 *    otherwise the fewest-nodes placement if it is within the bound. This is the paper's reading of a loose Tight
 *    ("place the job as soon as enough CPUs are free anywhere"): jobs spread over the fragments of the machine,
 *    which is what makes a loose Tight costly when communication is.
 *
 * How many nodes (parameter `adaptive`):
 *  - off (default; false means the same): Tight = `tight`.
 *  - true, the paper's proposal: Tight = clamp(tight_max - level_weight x Level - load_weight x network_load x
 *    tight_max, 0, tight_max), rounded, where network_load (0..1) is the mean utilization of the links that carry
 *    traffic between hosts, measured by SimGrid before each decision. With the defaults (tight_max 6, level_weight 1,
 *    load_weight 0) this is Tight = 6 - Level, the rule behind the paper's "adaptive" row.
 *  - cost-aware: at each decision, for each job, the bound is the node count of the option with the lowest cost (its
 *    expected finish, plus the spread weight's term below) among "start now on the fewest nodes free now" and "wait
 *    until the running jobs free a more compact placement" (allocation/cost_aware_placement.hpp), the run time being
 *    the job's estimate stretched by its communication cost on that many nodes: the formula's (workload.communication
 *    base and level), or with `communication.model: network` that times a contention term from the measured network
 *    load (`load_measure`: mean, the default, its mean over time since the first decision, since a job meets the load
 *    the network carries over its run of hours, which the instant of a decision understates; or now, the load at the
 *    decision). The decision of a job holds for the whole decision pass, so EASY's reservation for a head that waits
 *    is for the compact placement it waits for, and a job that waits is not backfilled. `tight` and the paper rule's
 * parameters are ignored. Only the head of the queue holds a reservation; a later job that waits may see its compact
 * hole taken. With `waits: head` only the first job of a pass that waits (under FCFS and EASY, the head) may choose to;
 * every later one starts now when it fits. The default, `waits: every-job`, lets each job choose: it did better on KTH
 * SP2 (docs/reproduction/smp-cluster.md). The releases are the running jobs' expected ends when the pass begins, plus
 * those of the jobs the policy starts during the pass (Allocator::started); with `releases: stretched` (the default) a
 * job's expected end is its start plus its estimate stretched by the same estimate of its communication cost on its
 * nodes, since that is how long the rule expects any run to last (`releases: estimate`: start plus estimate, as EASY
 * plans). `spread_weight` (default 1): an option also costs spread_weight x E x (stretch(n) - stretch(most compact)),
 * the communication time its run adds to the most compact one's: the machine time a spread run takes from the jobs
 * behind it, which its own finish does not show (0: the expected finish alone). `wait_tolerance` (default 0): a more
 * compact option wins when its cost is at most wait_tolerance x estimate above the lowest (a near-tie goes to the
 * compact placement: see compact_within_tolerance). */
#include "allocation/allocator.hpp"
#include "allocation/cost_aware_placement.hpp"
#include "core/errors.hpp"
#include "core/time.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <unordered_map>
#include <utility>

namespace jobsched {
namespace {

enum class TightRule { fixed, paper, cost_aware };

TightRule tight_rule(const std::string& value)
{
  if (value == "off" || value == "false") return TightRule::fixed;
  if (value == "true") return TightRule::paper;
  return TightRule::cost_aware; // the parameter's last choice
}

/* Where a node's cores lie in a processor set's words: the bits `low` of word `word` and `high` of word `next_word`
 * (high is 0 when the node lies within one word). */
struct NodeWords {
  int word;
  int next_word;
  std::uint64_t low;
  std::uint64_t high;
};

/* SmpNodes::count_free_cores()'s loop, outside the class so that it can be built for the POPCNT instruction where the
 * CPU has it (Debian builds for baseline x86-64, where a popcount is a library call). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
int count_free_cores_by_words(const ResourceSet& available, const std::vector<NodeWords>& nodes, int* free,
                              int* nodes_by_free, int* first_with_free)
{
  int total = 0;
  for (size_t h = nodes.size(); h-- > 0;) { // downwards: the last node written for a count is the lowest-numbered
    const NodeWords& n = nodes[h];
    const int f = __builtin_popcountll(available.word(n.word) & n.low) +
                  __builtin_popcountll(available.word(n.next_word) & n.high);
    free[h] = f;
    nodes_by_free[f]++;
    first_with_free[f] = static_cast<int>(h);
    total += f;
  }
  return total;
}

class SmpNodes : public Allocator {
 public:
  explicit SmpNodes(const AllocatorEnv& env)
      : machine_(env.machine), tight_(env.params.get_int("tight")),
        rule_(tight_rule(env.params.get_string("adaptive"))), tight_max_(env.params.get_int("tight_max")),
        level_weight_(env.params.get_double("level_weight")), load_weight_(env.params.get_double("load_weight")),
        level_(env.communication_level), base_(env.communication_base), network_model_(env.network_model),
        first_fit_(env.params.get_string("placement") == "first-fit"),
        contention_weight_(env.params.get_double("contention_weight")),
        wait_tolerance_(env.params.get_double("wait_tolerance")), spread_weight_(env.params.get_double("spread_weight"))
  {
    // The parameters' choices and ranges are checked by Params (their declarations below).
    stretched_releases_ = env.params.get_string("releases") == "stretched";
    mean_load_ = env.params.get_string("load_measure") == "mean";
    head_only_ = env.params.get_string("waits") == "head";
    cores_by_size_.resize(machine_.host_count());
    for (int h = 0; h < machine_.host_count(); h++)
      cores_by_size_[h] = machine_.cores(h);
    std::sort(cores_by_size_.rbegin(), cores_by_size_.rend());
    cores_held_.resize(cores_by_size_.size());
    std::partial_sum(cores_by_size_.begin(), cores_by_size_.end(), cores_held_.begin());
    nodes_by_free_.resize(cores_by_size_.empty() ? 1 : static_cast<size_t>(cores_by_size_.front()) + 1);
    first_with_free_.resize(nodes_by_free_.size());
    free_.resize(static_cast<size_t>(machine_.host_count()));
    if (cores_by_size_.empty() || cores_by_size_.front() <= 64)
      for (int h = 0; h < machine_.host_count(); h++) {
        const ResourceSet cores = machine_.processors_of(h);
        const int word = machine_.first_resource(h) >> 6;
        const int next_word = std::min(word + 1, cores.word_count() - 1);
        node_words_.push_back({word, next_word, cores.word(word), next_word > word ? cores.word(next_word) : 0});
      }
  }

  /* Fills free_, nodes_by_free_ (zeroed by the caller) and first_with_free_ (valid where nodes_by_free_ is not 0) from
   * `available`; returns the free cores in all. */
  int count_free_cores(const ResourceSet& available) const
  {
    if (node_words_.empty()) { // nodes of more than 64 cores
      int total = 0;
      for (int h = machine_.host_count(); h-- > 0;) {
        const int free = available.count_in_range(machine_.first_resource(h), machine_.cores(h));
        free_[static_cast<size_t>(h)] = free;
        nodes_by_free_[static_cast<size_t>(free)]++;
        first_with_free_[static_cast<size_t>(free)] = h;
        total += free;
      }
      return total;
    }
    return count_free_cores_by_words(available, node_words_, free_.data(), nodes_by_free_.data(),
                                     first_with_free_.data());
  }

  void observe(AllocatorView view) override
  {
    if (observed_)
      load_integral_ += (view.now - now_) * network_load_;
    else
      first_observed_ = view.now;
    now_ = view.now;
    network_load_ = view.network_load;
    const double elapsed = now_ - first_observed_;
    contention_load_ = mean_load_ && elapsed > 0 ? load_integral_ / elapsed : network_load_;
    releases_ = std::move(view.releases);
    if (rule_ == TightRule::cost_aware && stretched_releases_) {
      for (ExpectedRelease& r : releases_)
        r.end = std::max(now_, r.start + r.estimate * stretch(machine_.hosts_spanned(r.resources)));
      std::stable_sort(releases_.begin(), releases_.end(),
                       [](const ExpectedRelease& a, const ExpectedRelease& b) { return a.end < b.end; });
    }
    bounds_.clear();
    waiter_seen_ = false;
    observed_ = true;
  }
  bool wants_network_load() const override
  {
    return (rule_ == TightRule::paper && load_weight_ > 0) || (rule_ == TightRule::cost_aware && network_model_);
  }
  bool wants_releases() const override { return rule_ == TightRule::cost_aware; }
  void started(const Job& job, const ResourceSet& resources) const override
  {
    if (!observed_ || rule_ != TightRule::cost_aware) return;
    const double end = now_ + job.estimate * (stretched_releases_ ? stretch(machine_.hosts_spanned(resources)) : 1.0);
    auto later = std::upper_bound(releases_.begin(), releases_.end(), end,
                                  [](double t, const ExpectedRelease& r) { return t < r.end; });
    releases_.insert(later, ExpectedRelease{end, resources, now_, job.estimate});
  }

  /* The Tight in force now (fixed and paper rules). */
  long current_tight() const
  {
    if (rule_ == TightRule::fixed) return tight_;
    double t = static_cast<double>(tight_max_) - level_weight_ * level_ -
               load_weight_ * network_load_ * static_cast<double>(tight_max_);
    return std::clamp(std::lround(t), 0L, tight_max_);
  }

  /* The fewest nodes that can hold `size` processors on an empty machine. */
  long min_nodes(int size) const
  {
    if (size <= 0) return 0;
    // The first count of the largest nodes whose cores reach `size` (all nodes when none does).
    const auto reached = std::lower_bound(cores_held_.begin(), cores_held_.end(), size);
    return std::min(static_cast<long>(reached - cores_held_.begin()) + 1, static_cast<long>(cores_held_.size()));
  }

  /* The job's estimated run-time stretch on `nodes` nodes. */
  double stretch(int nodes) const
  {
    return network_model_ ? network_stretch(base_, level_, nodes, contention_load_, contention_weight_)
                          : formula_stretch(base_, level_, nodes);
  }

  /* Cost-aware rule: the most nodes the job may use now, decided once per job and decision pass (see the file's
   * comment), `available` being what the job could have now when it is first asked about. */
  long cost_aware_bound(const Job& job, const ResourceSet& available) const
  {
    if (observed_)
      if (auto it = bounds_.find(job.id); it != bounds_.end()) return it->second;
    const int compact = static_cast<int>(min_nodes(job.size));
    std::vector<int> free(machine_.host_count(), 0);
    available.for_each([&](int p) { free[machine_.host_of(p)]++; });
    const int now_nodes = fewest_nodes(free, job.size);
    std::vector<PlacementOption> options;
    if (now_nodes > 0) options.push_back({now_, now_nodes});
    // A job after the pass's first waiter would wait without a reservation (see the file's comment).
    const bool may_choose_to_wait = now_nodes < 0 || !(head_only_ && waiter_seen_);
    // An option's cost: its expected finish, plus spread_weight times the communication time its run adds to the most
    // compact one's (the machine time a spread run takes from the jobs behind it).
    const double compact_stretch = stretch(compact);
    auto cost_stretch = [&](int n) {
      const double s = stretch(n);
      return s + spread_weight_ * (s - compact_stretch);
    };
    if (may_choose_to_wait && now_nodes != compact) {
      // Waiting cannot win once its start is later than finishing now minus the most compact run (plus the tolerance).
      const double give_up = now_nodes > 0 ? now_ + job.estimate * (cost_stretch(now_nodes) - compact_stretch) +
                                                 wait_tolerance_ * job.estimate
                                           : std::numeric_limits<double>::infinity();
      int fewest = now_nodes > 0 ? now_nodes : std::numeric_limits<int>::max();
      for (size_t i = 0; i < releases_.size() && releases_[i].end <= give_up + kTimeEpsilon && fewest > compact;) {
        const double t = releases_[i].end;
        for (; i < releases_.size() && releases_[i].end <= t + kTimeEpsilon; i++)
          releases_[i].resources.for_each([&](int p) { free[machine_.host_of(p)]++; });
        const int n = fewest_nodes(free, job.size);
        if (n > 0 && n < fewest) {
          options.push_back({std::max(t, now_), n});
          fewest = n;
        }
      }
    }
    const long bound =
        options.empty() ? compact
        : options.size() == 1
            ? options.front().nodes
            : compact_within_tolerance(options, job.estimate, cost_stretch, wait_tolerance_).option.nodes;
    if (now_nodes < 0 || bound < now_nodes) waiter_seen_ = true;
    if (observed_) bounds_[job.id] = bound;
    return bound;
  }

  std::optional<ResourceSet> select(const Job& job, const ResourceSet& available,
                                    const ResourceSet* preferred) const override
  {
    const long bound =
        rule_ == TightRule::cost_aware ? cost_aware_bound(job, available) : min_nodes(job.size) + current_tight();
    if (first_fit_) {
      ResourceSet lowest = available.lowest(job.size);
      if (lowest.empty()) return std::nullopt;
      if (machine_.hosts_spanned(lowest) <= bound) return lowest;
    }
    // Free cores per node, and how many nodes have each free count: one pass over the nodes, a word or two each.
    std::fill(nodes_by_free_.begin(), nodes_by_free_.end(), 0);
    const int total = count_free_cores(available);
    if (total < job.size) return std::nullopt;

    // Ranked by free cores (most first, then by index), the nodes with c free cores come as one block, by index: the
    // k best nodes are all those with more than c free cores (c the count where the job's size is reached) and the
    // first `whole_of_c + 1` with c, counted from how many nodes have each free count.
    long k = 0;
    int held = 0;
    int c = static_cast<int>(nodes_by_free_.size()) - 1;
    for (; c > 0 && held + nodes_by_free_[static_cast<size_t>(c)] * c < job.size; c--) {
      held += nodes_by_free_[static_cast<size_t>(c)] * c;
      k += nodes_by_free_[static_cast<size_t>(c)];
    }
    const int from_c = (job.size - held + c - 1) / c; // total >= job.size: c > 0 here
    k += from_c;
    if (k > bound) return std::nullopt;

    // All free cores of the k-1 best nodes, the rest from the tightest node that still holds it (fewest free cores,
    // then lowest index) among the others: the lowest-indexed node of the smallest free count from `rest` below c
    // that has any, else the k-th node itself (the others with c free cores come after it).
    const int whole_of_c = from_c - 1;
    const int rest = job.size - held - whole_of_c * c;
    int last_free = c;
    for (int f = rest; f < c; f++)
      if (nodes_by_free_[static_cast<size_t>(f)] > 0) {
        last_free = f;
        break;
      }
    // The nodes taken whole are copied from `available` a run of consecutive nodes at a time (a node without free
    // cores adds nothing, so it does not break a run). The look starts at the lowest-numbered node it may take and
    // stops once the k nodes are found; a job on one node (k = 1) takes the first node of its free count.
    ResourceSet chosen(available.capacity());
    int last = k == 1 ? first_with_free_[static_cast<size_t>(last_free)] : -1;
    int seen_of_c = 0;
    int start = first_with_free_[static_cast<size_t>(last_free)];
    for (size_t f = static_cast<size_t>(c); f < nodes_by_free_.size(); f++)
      if (nodes_by_free_[f] > 0) start = std::min(start, first_with_free_[f]);
    int run_first = machine_.first_resource(start);
    int run_end = run_first;
    long whole_left = k - 1;
    for (int h = start; h < machine_.host_count() && (whole_left > 0 || last < 0); h++) {
      const int free = free_[static_cast<size_t>(h)];
      bool whole = free > c || free == 0;
      if (free == c) {
        whole = seen_of_c < whole_of_c;
        if (seen_of_c == whole_of_c && last_free == c) last = h;
        seen_of_c++;
      } else if (free == last_free && last < 0) {
        last = h;
      }
      if (whole) {
        if (free > 0) whole_left--;
        run_end = machine_.first_resource(h) + machine_.cores(h);
      } else {
        chosen.merge_range(available, run_first, run_end - run_first);
        run_first = run_end = machine_.first_resource(h) + machine_.cores(h);
      }
    }
    chosen.merge_range(available, run_first, run_end - run_first);
    // Within the last node, preferred cores first, then the lowest-numbered.
    const int first = machine_.first_resource(last);
    const int end = first + machine_.cores(last);
    int needed = rest;
    if (preferred)
      for (int p = first; p < end && needed > 0; p++)
        if (available.test(p) && preferred->test(p)) {
          chosen.set(p);
          needed--;
        }
    for (int p = first; p < end && needed > 0; p++)
      if (available.test(p) && !(preferred && preferred->test(p))) {
        chosen.set(p);
        needed--;
      }
    return chosen;
  }

 private:
  const Machine& machine_;
  long tight_;
  TightRule rule_;
  long tight_max_;
  double level_weight_;
  double load_weight_;
  int level_;
  double base_;
  bool network_model_;
  bool first_fit_;
  double contention_weight_;
  double wait_tolerance_;
  double spread_weight_;
  bool head_only_ = false;
  bool stretched_releases_ = true;
  bool mean_load_ = true;
  double load_integral_ = 0;   // of the measured network load over time, since the first decision
  double first_observed_ = 0;  // the first decision's instant
  double contention_load_ = 0; // what the network estimate uses: the load now, or its mean so far
  std::vector<int> cores_by_size_;
  std::vector<int> cores_held_;       // by the k largest nodes, k = 1..nodes (min_nodes looks the job's size up in it)
  std::vector<NodeWords> node_words_; // per node; empty when a node has more than 64 cores
  // select()'s scratch, kept between calls so that a call allocates nothing but its result.
  mutable std::vector<int> free_;            // free cores per node
  mutable std::vector<int> nodes_by_free_;   // how many nodes have each free count, 0..most cores
  mutable std::vector<int> first_with_free_; // the lowest-numbered node of each free count that has any
  // What the last observe() said.
  double now_ = 0;
  double network_load_ = 0;
  mutable std::vector<ExpectedRelease> releases_; // with the jobs started in this pass
  bool observed_ = false;
  mutable std::unordered_map<JobId, long> bounds_; // cost-aware decisions of this pass
  mutable bool waiter_seen_ = false;               // a job of this pass chose (or had) to wait
};

AllocatorRegistration smp{
    {"smp",
     "SMP nodes: at most ceil(C / cores) + Tight nodes per job, fewest nodes, best fit (SMP-cluster paper)",
     {{"tight", "0", "extra nodes allowed beyond the minimum (the paper's Tight)", {}, ParamRange::at_least(0)},
      {"adaptive",
       "off",
       "off (or false): fixed tight; true: Tight from the communication level and network load (the paper's rule); "
       "cost-aware: "
       "start now or wait for a compact placement, whichever the estimates say ends first",
       {"off", "false", "true", "cost-aware"}},
      {"tight_max", "6", "adaptive true: Tight on a quiet network at Level 0", {}, ParamRange::at_least(0)},
      // Tight only falls as Level and the network load rise (the paper's rule), so neither weight is negative. Both
      // have the same finite bound, the largest tight_max (1e9): a Level weight w gives Tight 0 from Level tight_max /
      // w on, a load weight w from network load 1 / w on (1 at full load, 2 at half load); beyond 1e9 the first only
      // repeats Tight 0 from Level 1, and the second only lowers the load that gives Tight 0 further below 1e-9.
      {"level_weight",
       "1.0",
       "adaptive true: Tight given up per communication Level",
       {},
       ParamRange::between(0, static_cast<double>(Params::kMaxInt))},
      {"load_weight",
       "0.0",
       "adaptive true: tight_max times this x the network load is given up (2: Tight 0 at half load)",
       {},
       ParamRange::between(0, static_cast<double>(Params::kMaxInt))},
      {"placement",
       "fewest-nodes",
       "fewest-nodes, or first-fit (lowest free cores when within the bound)",
       {"fewest-nodes", "first-fit"}},
      {"contention_weight",
       "1.0",
       "cost-aware, network model: a busy link divides a job's bandwidth by 1 + this (see cost_aware_placement.hpp)",
       {},
       ParamRange::at_least(0)},
      {"wait_tolerance",
       "0.0",
       "cost-aware: a more compact option wins when its cost is at most this x estimate above the lowest",
       {},
       ParamRange::at_least(0)},
      {"spread_weight",
       "1.0",
       "cost-aware: an option also costs this times the communication time its run adds to the most compact run's",
       {},
       ParamRange::at_least(0)},
      {"load_measure",
       "mean",
       "cost-aware, network model: the network load its contention term uses, measured now or its mean since the first "
       "decision",
       {"now", "mean"}},
      {"releases",
       "stretched",
       "cost-aware: a running job is expected to end at its start plus its estimate stretched by its communication "
       "cost on its nodes (stretched), or plus its estimate alone (estimate, like EASY's)",
       {"stretched", "estimate"}},
      {"waits",
       "every-job",
       "cost-aware: every-job (each job may choose to wait), or head (only the first job of a pass that waits, the "
       "one EASY reserves for; later ones start when they fit)",
       {"every-job", "head"}}},
     [](const AllocatorEnv& env) { return std::make_unique<SmpNodes>(env); }}};

} // namespace
} // namespace jobsched
