/* The dynamic memory-constrained scheduler of McCann & Zahorjan 1994, "Scheduling memory constrained jobs on
 * distributed memory parallel computers", section 2.3 (and the simulations of section 5.2): every job in the system
 * runs once per scheduling quantum T, on a fixed number of nodes at least its minimum M_j, for its share of the
 * quantum; the quantum's schedule is one of the six policies of plugin/policies/memory_constrained/ (BUDDY, BUDDY*,
 * HYBRID(k), EQUI-EPOCH, OPT-EPOCH(k), HEURISTIC-EPOCH(k)) and is recomputed only when a job arrives or departs.
 *
 * Choices:
 *   - A node is a processor of the platform (the paper's processor-memory pair; a multicomputer has one core per
 *     host). N = every processor of the machine.
 *   - M_j, by `min_nodes`: "memory": ceil(memory_kb x size / (node_memory_mb x 1024)), the job's memory (SWF field
 *     7, per processor) over a node's (`node_memory_mb` > 0 required), or min_size when the job's memory is unknown
 *     (a workload where no job has any memory is refused: the policy would silently be min_size);
 *     "size": the job's requested size (a trace's sizes standing for memory-imposed minimums); "min_size": the job's
 *     min_processors() (a malleable or moldable job's min_size, a rigid job's size). A job with M_j > N is refused in
 *     one line at its submission.
 *   - At each arrival or departure the quantum restarts at that instant with the new schedule (jobs in submission
 *     order are the schedule's job indices). Within a quantum, a job computes on processors [first_node,
 *     first_node + width) of its piece during [start, start + duration) x T, and is suspended otherwise. A job whose
 *     piece is wider than its max_processors() uses the first max_processors() of them (the others idle).
 *   - A piece whose processors are not all up waits (its job is suspended) until they are.
 *   - A schedule whose pieces all span the whole quantum (one epoch: every job on its piece all the time) asks for no
 *     wake-up at the quantum's end: nothing changes there, so it holds until the next arrival, departure or host
 *     event. Otherwise every piece boundary is a decision instant.
 *   - With memory images (simulation.images) or a context-switch cost, a job still preparing when a replan moves it
 *     is suspended and resumed on its new piece at once (the runtime cannot resize a job that prepares). */
#include "policy/policy.hpp"
#include "policy/reused_map.hpp"

#include "core/errors.hpp"
#include "core/time.hpp"
#include "core/time_format.hpp"
#include "policies/memory_constrained/policies.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>

namespace jobsched {
namespace {

/* boost::rational_cast<double>(a + b) without the sum's reduction (two gcds, a third of a schedule's rebuilding): the
 * unreduced numerator and denominator, when both are exact doubles (at most 2^53), stand for the same real number as
 * the reduced ones, which are smaller, so the quotients of both pairs round to the same double. */
double sum_as_double(const memory_constrained::Fraction& a, const memory_constrained::Fraction& b)
{
  constexpr long long kExact = 1LL << 53;
  const long long an = a.numerator(), ad = a.denominator(), bn = b.numerator(), bd = b.denominator();
  long long num = 0, den = ad, left = 0, right = 0;
  const bool overflow = ad == bd
                            ? __builtin_add_overflow(an, bn, &num)
                            : __builtin_mul_overflow(an, bd, &left) || __builtin_mul_overflow(bn, ad, &right) ||
                                  __builtin_add_overflow(left, right, &num) || __builtin_mul_overflow(ad, bd, &den);
  if (overflow || num > kExact || num < -kExact || den > kExact) return boost::rational_cast<double>(a + b);
  return static_cast<double>(num) / static_cast<double>(den);
}

class MemoryConstrainedTimeSharing : public TimeSharingPolicy {
 public:
  bool needs_memory() const override { return min_nodes_ == "memory"; }
  // Each schedule gives a job a piece of another width: its processor count changes while it runs.
  bool takes_shape(JobShape shape) const override { return shape != JobShape::moldable; }
  bool declares_cycles() const override { return true; }
  explicit MemoryConstrainedTimeSharing(const PolicyEnv& env)
      : machine_(env.machine), policy_(&memory_constrained::memory_constrained_policy(env.params.get_string("policy"))),
        node_memory_mb_(env.params.get_double("node_memory_mb")), switch_cost_(env.params.get_double("context_switch")),
        min_nodes_(env.params.get_string("min_nodes"))
  {
    // The choices and ranges of the parameters are declared below and checked by Params.
    options_.k = static_cast<int>(env.params.get_int("k"));
    if (policy_->name == "opt-epoch") {
      options_.opt_epoch.max_partitions_examined = env.params.get_int("max_partitions_examined");
      // Consecutive quanta share most of their remaining sets: the search's memo is kept from one to the next.
      options_.opt_epoch.memo = std::make_shared<memory_constrained::OptEpochMemo>();
    }
    quantum_ = env.params.get_double("quantum");
    if (min_nodes_ == "memory" && !(node_memory_mb_ > 0))
      throw InputError("policy.params.node_memory_mb: min_nodes: memory needs the memory of a node (> 0)");
    if (policy_->name == "opt-epoch" && options_.k > 1)
      throw InputError("policy.params.k: opt-epoch runs only for k <= 1 (the paper's choice); use heuristic-epoch");
    // Looked up once: a look-up by name per schedule built the list of known names.
    if (policy_->name == "buddy") buddy_star_ = &memory_constrained::memory_constrained_policy("buddy-star");
    const int nodes = machine_.resource_count();
    if ((policy_->name == "buddy" || policy_->name == "buddy-star" || policy_->name == "hybrid") &&
        !memory_constrained::is_power_of_two(nodes))
      throw InputError("policy.params.policy: " + policy_->name + " needs a power-of-two number of processors (" +
                       std::to_string(nodes) + " here)");
  }

  JobLimit job_limit() const override
  {
    JobLimit limit;
    if (min_nodes_by_memory_) {
      limit.least_processors = [this](const Job& job) { return minimum_nodes_exact(job); };
      limit.least_processors_reason =
          "policy.params.min_nodes: memory, node_memory_mb: " + format_exact(node_memory_mb_);
    }
    return limit;
  }

  void job_submitted(const Job& job, double /*now*/) override
  {
    // The workload leaves out the jobs whose memory needs more nodes than the machine has (job_limit); memory given to
    // the jobs after it is read (workload.jobs.memory_mb, workload.memory.model: paging) is checked here.
    if (minimum_nodes_exact(job) > machine_.resource_count())
      throw InputError("policy memory-constrained: job " + std::to_string(job.id) + " needs " +
                       format_exact(minimum_nodes_exact(job)) + " nodes (its memory), more than the machine's " +
                       std::to_string(machine_.resource_count()));
    dirty_ = true;
  }

  void job_ended(const Job& /*job*/, JobEnd /*how*/, double /*now*/) override { dirty_ = true; }

  /* The map of each plan handed back is the next plan's (fill_run()): a plan per decision instant built a map node and
   * a copy of a piece's processors (two allocations) per job. */
  void reuse_plan(Plan&& plan) override { runs_.keep(plan.run); }

  Plan plan(const SystemView& view) override
  {
    Plan plan;
    plan.switch_cost = switch_cost_;
    if (dirty_) replan(view);
    if (jobs_.empty()) return plan;
    // Where in the quantum we are: quantum q, phase in [0, 1), and the next piece boundary after it, computed by the
    // cycle's own arithmetic (Cycle::position), so that a cycle advanced without asking lands where this plan would.
    const Cycle::Position position = cycle_->position(view.now);
    const double fraction = position.fraction;
    const bool all_up = view.up.count() == machine_.resource_count();
    bool deferred = false;
    std::vector<std::pair<JobId, const ResourceSet*>>& chosen = chosen_; // the jobs that run, and where
    chosen.clear();
    for (const size_t i : pieces_by_id_) { // the jobs come out by id: keep_later_by_id() sorts nothing
      if (!(starts_[i] <= fraction && fraction < ends_[i])) continue;
      const size_t job = static_cast<size_t>(schedule_.pieces[i].job);
      const JobState* state = jobs_[job];
      const ResourceSet& processors = piece_processors_[i];
      if (!(all_up || view.up.contains(processors))) continue;
      // The runtime cannot resize or move a job that is still preparing (reading its image in, or stalled for a
      // context switch): after a replan such a job sits out this instant (it is suspended) and is resumed on its new
      // piece on a second pass two microseconds later.
      if (state->holds_processors() && state->status != JobStatus::running && state->processors != processors) {
        deferred = true;
        continue;
      }
      chosen.emplace_back(facts_[job].id, &processors);
    }
    fill_run(plan.run, chosen);
    // A schedule whose pieces all span the whole quantum repeats without a change at its boundaries: the plan holds
    // until an arrival, a departure or a host event, and the quantum's ends are not decision instants.
    plan.until = whole_quantum_pieces_ ? std::numeric_limits<double>::infinity() : cycle_->until(position);
    if (deferred) plan.until = std::min(plan.until, view.now + 2 * kTimeEpsilon);
    // Until the next arrival, departure or host event the pieces repeat every quantum: the plan at `until` depends on
    // the time alone (Plan::repeats). Not so for a job sitting out a replan: when it is resumed depends on its stall.
    plan.repeats = !deferred;
    // With every processor up the plan is a phase of the quantum's cycle (Plan::cycle), which the scheduler may then
    // advance by whole quanta.
    if (!deferred && all_up && !whole_quantum_pieces_) plan.cycle = cycle_;
    return plan;
  }

 private:
  int minimum_nodes(const Job& job) const { return static_cast<int>(minimum_nodes_exact(job)); }
  /* As a double: the memory may ask for more nodes than an int holds (refused before minimum_nodes() is read). */
  double minimum_nodes_exact(const Job& job) const
  {
    if (min_nodes_by_size_) return std::max(1, job.size);
    if (min_nodes_by_memory_ && job.memory_kb > 0) {
      // The nodes its memory fills, but never fewer than the job itself takes (a malleable job's min_size).
      double total_kb = job.memory_kb * job.size;
      return std::max(
          {1.0, static_cast<double>(job.min_processors()), std::ceil(total_kb / (node_memory_mb_ * 1024.0) - 1e-9)});
    }
    return std::max(1, job.min_processors());
  }

  /* `run` := each job of `chosen` on its processors, a job's later entry replacing an earlier one (as assigning in
   * turn would), built in the last plan's map (ReusedMap): its jobs keep their nodes and their sets' storage (a set is
   * copied over the same words). */
  void fill_run(std::map<JobId, ResourceSet>& run, std::vector<std::pair<JobId, const ResourceSet*>>& chosen)
  {
    keep_later_by_id(chosen);
    auto built = runs_.build(run);
    for (const auto& [id, processors] : chosen)
      built.put(id) = *processors;
    built.finish();
  }

  /* Sorts the jobs in force by id, keeping of a job named twice (two of its pieces in force at once) its later entry:
   * plan()'s map and the cycle's phases follow the same rule. */
  static void keep_later_by_id(std::vector<std::pair<JobId, const ResourceSet*>>& jobs)
  {
    // Listed by id already (pieces_by_id_), the stable sort is a check that moves nothing.
    if (!std::is_sorted(jobs.begin(), jobs.end(), [](const auto& a, const auto& b) { return a.first < b.first; }))
      std::stable_sort(jobs.begin(), jobs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    auto last =
        std::unique(jobs.rbegin(), jobs.rend(), [](const auto& a, const auto& b) { return a.first == b.first; });
    jobs.erase(jobs.begin(), last.base());
  }

  void replan(const SystemView& view)
  {
    dirty_ = false;
    quantum_start_ = view.now;
    // Each job's facts, carried over from the last schedule for the jobs that stay (both lists are in submission
    // order: a walk along the two), found anew for the others.
    facts_next_.clear();
    mins_.clear();
    size_t last = 0;
    for (const JobState* s : view.jobs) {
      size_t found = last;
      while (found < jobs_.size() && facts_[found].job != s->job)
        found++;
      if (found < jobs_.size()) {
        facts_next_.push_back(facts_[found]);
        last = found + 1;
      } else {
        facts_next_.push_back({s->job, s->job->id, minimum_nodes(*s->job), s->job->max_processors()});
      }
      mins_.push_back(facts_next_.back().min_nodes);
    }
    facts_.swap(facts_next_);
    jobs_ = view.jobs;
    const std::vector<int>& mins = mins_;
    schedule_ = memory_constrained::QuantumSchedule{};
    starts_.clear();
    ends_.clear();
    whole_quantum_pieces_ = false;
    if (jobs_.empty()) {
      piece_processors_.clear();
      pieces_by_id_.clear();
      return;
    }
    memory_constrained::PlanOptions options = options_;
    // BUDDY applies only to power-of-two J: in the dynamic setting it stands for BUDDY*, as in the paper's figures.
    const auto* policy = policy_;
    if (buddy_star_ != nullptr && !memory_constrained::is_power_of_two(static_cast<long long>(mins.size())))
      policy = buddy_star_;
    try {
      schedule_ = policy->plan(machine_.resource_count(), mins, options);
    } catch (const memory_constrained::SearchBoundExceeded& e) {
      throw InputError("policy.params.max_partitions_examined: the opt-epoch schedule of the quantum starting at " +
                       format_exact(view.now) + " s, for " + std::to_string(mins.size()) +
                       " jobs, needs a search of more than " +
                       std::to_string(*options.opt_epoch.max_partitions_examined) +
                       " partitions: raise the bound or use policy.params.policy: heuristic-epoch (" + e.what() + ")");
    }
    // The sets of the last schedule are emptied and refilled in place: no allocation per piece and schedule.
    piece_processors_.resize(schedule_.pieces.size(), ResourceSet(machine_.resource_count()));
    for (size_t i = 0; i < schedule_.pieces.size(); i++) {
      const auto& p = schedule_.pieces[i];
      // The pieces of an epoch come one after the other with the same span: the same rationals, the same doubles.
      if (i > 0 && p.start == schedule_.pieces[i - 1].start && p.duration == schedule_.pieces[i - 1].duration) {
        starts_.push_back(starts_.back());
        ends_.push_back(ends_.back());
      } else {
        starts_.push_back(boost::rational_cast<double>(p.start));
        ends_.push_back(sum_as_double(p.start, p.duration));
      }
      const int width = std::min(p.width, facts_[static_cast<size_t>(p.job)].max_processors);
      piece_processors_[i].clear();
      piece_processors_[i].add_range(p.first_node, width);
    }
    // The pieces by their job's id, in piece order for a job's pieces (a stable sort): plan() and build_cycle() list
    // the pieces in force in this order, so that keep_later_by_id() finds them sorted.
    // The jobs come in submission order, which is most often id order: then the pieces are only bucketed by job.
    const size_t job_count = jobs_.size();
    job_rank_.resize(job_count); // each job's place in id order
    for (size_t j = 0; j < job_count; j++)
      job_rank_[j] = j;
    if (!std::is_sorted(facts_.begin(), facts_.end(),
                        [](const JobFacts& a, const JobFacts& b) { return a.id < b.id; })) {
      std::vector<size_t> by_id(job_count);
      for (size_t j = 0; j < job_count; j++)
        by_id[j] = j;
      std::stable_sort(by_id.begin(), by_id.end(), [this](size_t a, size_t b) { return facts_[a].id < facts_[b].id; });
      for (size_t r = 0; r < job_count; r++)
        job_rank_[by_id[r]] = r;
    }
    // A counting sort by rank, stable: a job's pieces keep their order.
    rank_start_.assign(job_count + 1, 0);
    for (const auto& p : schedule_.pieces)
      rank_start_[job_rank_[static_cast<size_t>(p.job)] + 1]++;
    for (size_t r = 0; r < job_count; r++)
      rank_start_[r + 1] += rank_start_[r];
    pieces_by_id_.resize(schedule_.pieces.size());
    for (size_t i = 0; i < schedule_.pieces.size(); i++)
      pieces_by_id_[rank_start_[job_rank_[static_cast<size_t>(schedule_.pieces[i].job)]]++] = i;
    whole_quantum_pieces_ = std::all_of(schedule_.pieces.begin(), schedule_.pieces.end(),
                                        [](const auto& p) { return p.start == 0 && p.duration == 1; });
    build_cycle();
  }

  /* The quantum as a cycle (Plan::cycle): its boundaries are the pieces' starts and ends, and a phase's jobs are the
   * pieces in force over it (a later piece of a job in force at once replaces an earlier one, as in plan()). */
  void build_cycle()
  {
    std::shared_ptr<Cycle> cycle = reusable_cycle();
    cycle->origin = quantum_start_;
    cycle->period = quantum_;
    cycle->epsilon = kTimeEpsilon / quantum_;
    // The pieces' starts and ends, sorted, each once: inserted one by one where they belong, as there are few distinct
    // values among twice as many as jobs (all of them were sorted, then the repeats dropped).
    // A value equal to the last one added is in already (0 is, from the start): pieces side by side in time (an epoch's
    // and many of BUDDY's) share their start and end, and the search for each was most of the cycle's building.
    std::vector<double>& boundaries_in = cycle->boundaries;
    boundaries_in.assign({0.0, 1.0});
    double last_added = 0.0;
    const auto add = [&boundaries_in, &last_added](double b) {
      if (b == last_added) return;
      last_added = b;
      const auto at = std::lower_bound(boundaries_in.begin(), boundaries_in.end(), b);
      if (at == boundaries_in.end() || *at != b) boundaries_in.insert(at, b);
    };
    for (const double b : starts_)
      add(b);
    for (const double b : ends_)
      add(b);
    cycle->phases.resize(cycle->boundaries.size()); // the last: a fraction at or past 1
    for (Phase& phase : cycle->phases)
      phase.clear();
    // One epoch: plan() uses only the boundaries (such a schedule declares no cycle: nothing changes in it).
    // A piece is in force in the phases p whose boundary b_p has start <= b_p < end: the boundaries ascend, so those
    // are one run of phases, found by binary searches rather than by testing every piece at every phase. The
    // pieces are taken by id, so each phase's list comes out by id.
    const auto& boundaries = cycle->boundaries;
    const size_t last_phase = boundaries.size() - 1; // the empty one
    if (!whole_quantum_pieces_) {
      // Each piece's phases, found in piece order: a start (an end) equal to the last piece's has that piece's phase,
      // and an epoch's pieces come one after the other, so most are found without a search. (NaN: no value yet.)
      struct Found {
        double value = std::numeric_limits<double>::quiet_NaN();
        size_t phase = 0;
      };
      Found start_found, end_found;
      const auto at_or_after = [&boundaries](double t, Found& found) {
        if (t != found.value) {
          found.value = t;
          found.phase =
              static_cast<size_t>(std::lower_bound(boundaries.begin(), boundaries.end(), t) - boundaries.begin());
        }
        return found.phase;
      };
      piece_phases_.clear();
      for (size_t i = 0; i < starts_.size(); i++)
        piece_phases_.emplace_back(at_or_after(starts_[i], start_found),
                                   std::min(last_phase, at_or_after(ends_[i], end_found)));
      for (const size_t i : pieces_by_id_) {
        const auto [first, end] = piece_phases_[i];
        for (size_t p = first; p < end; p++)
          cycle->phases[p].emplace_back(facts_[static_cast<size_t>(schedule_.pieces[i].job)].id, &piece_processors_[i]);
      }
      for (size_t p = 0; p < last_phase; p++)
        keep_later_by_id(cycle->phases[p]);
    }
    cycle_ = std::move(cycle);
  }

  /* A cycle to fill (build_cycle()): one made for an earlier schedule that nobody holds any more, with its vectors'
   * storage (a cycle, its boundaries and its phases' lists were allocated per schedule), or a new one. The driver keeps
   * the last cycle it tried alive, so that no other cycle takes its address: a cycle it holds is not reused. */
  std::shared_ptr<Cycle> reusable_cycle()
  {
    for (const std::shared_ptr<Cycle>& c : cycles_)
      if (c.use_count() == 1) return c;
    return cycles_.emplace_back(std::make_shared<Cycle>());
  }

  const Machine& machine_;
  const memory_constrained::MemoryConstrainedPolicy* policy_;
  const memory_constrained::MemoryConstrainedPolicy* buddy_star_ = nullptr; // BUDDY's stand-in for J not a power of 2
  memory_constrained::PlanOptions options_;
  double quantum_;
  double node_memory_mb_;
  double switch_cost_;
  std::string min_nodes_;
  // min_nodes_ read once (minimum_nodes() runs for every job at every schedule).
  const bool min_nodes_by_size_ = min_nodes_ == "size";
  const bool min_nodes_by_memory_ = min_nodes_ == "memory";
  bool dirty_ = false;
  double quantum_start_ = 0;
  std::vector<const JobState*> jobs_; // the schedule's job indices, in submission order
  /* What replan() and plan() read of each job of jobs_, kept from one schedule to the next while the job stays (its
   * Job, scattered in memory among a run's jobs, was read per job and schedule: a sixth of replan()). */
  struct JobFacts {
    const Job* job;
    JobId id;
    int min_nodes;      // M_j (minimum_nodes())
    int max_processors; // its piece's width at most
  };
  std::vector<JobFacts> facts_, facts_next_;   // facts_next_: replan()'s scratch
  std::vector<int> mins_;                      // replan()'s M_j per job, kept with its storage
  std::vector<std::shared_ptr<Cycle>> cycles_; // every cycle made (reusable_cycle())
  memory_constrained::QuantumSchedule schedule_;
  std::vector<double> starts_, ends_;         // each piece's time span as fractions of the quantum
  std::vector<ResourceSet> piece_processors_; // where each piece's job computes (built once per schedule)
  std::vector<size_t> pieces_by_id_;          // indices of the pieces, by their job's id (replan())
  std::vector<std::pair<size_t, size_t>> piece_phases_; // build_cycle(): each piece's phases [first, end)
  std::vector<size_t> job_rank_, rank_start_; // replan()'s counting sort, kept with their storage
  bool whole_quantum_pieces_ = false; // every piece spans [0, 1): the schedule never changes inside or between quanta
  std::shared_ptr<const Cycle> cycle_ = std::make_shared<Cycle>(); // the schedule as a cycle (build_cycle())
  std::vector<std::pair<JobId, const ResourceSet*>> chosen_;       // plan()'s jobs, kept with its storage
  ReusedMap<ResourceSet> runs_;                                    // the plans' maps handed back (reuse_plan())
};

PolicyRegistration memory_constrained_registration{
    {"memory-constrained",
     "McCann & Zahorjan 1994: every job once per quantum on at least M_j nodes (its memory), cut by one of the six "
     "quantum schedulers; recomputed at arrivals and departures",
     {{"policy",
       "opt-epoch",
       "buddy (buddy-star when J is not a power of two), buddy-star, hybrid, equi-epoch, "
       "opt-epoch, heuristic-epoch",
       {"buddy", "buddy-star", "hybrid", "equi-epoch", "opt-epoch", "heuristic-epoch"}},
      {"k",
       "1",
       "allowed inequity of hybrid, opt-epoch (k <= 1) and heuristic-epoch",
       {},
       ParamRange::between(0, 1'000'000)},
      {"max_partitions_examined",
       "10000000",
       "opt-epoch: the most partitions one quantum's search may examine before the run stops with an error",
       {},
       ParamRange::between(1, 1e15)},
      {"quantum", "10.0", "T, seconds: every job runs once per quantum", {}, ParamRange::at_least(kMinQuantum)},
      {"min_nodes",
       "min_size",
       "M_j: memory (job memory / node_memory_mb, rounded up), size (the requested size) or min_size",
       {"memory", "size", "min_size"}},
      {"node_memory_mb", "0.0", "memory per node, MB, for min_nodes: memory", {}, ParamRange::at_least(0)},
      {"context_switch", "0.0", "seconds a job stalls each time it is switched in", {}, ParamRange::at_least(0)}},
     nullptr,
     [](const PolicyEnv& env) { return std::make_unique<MemoryConstrainedTimeSharing>(env); }}};

} // namespace
} // namespace jobsched
