/* Time-shared adaptive partitioning with memory constraints: AP, APMC and APVM(f) of Setia, "The Interaction between
 * Memory Allocation and Adaptive Partitioning in Message-Passing Multicomputers" (section 3 for the scheduler, 3.1
 * for the processor allocation, 4.1 for the paging overhead, 4.2 for GS(p)), as time-sharing policies.
 *
 * Each job has a memory requirement min_j (the processors whose memories hold its code and data) and a maximum
 * parallelism. It is configured once to a partition of p_j processors and from then on needs exactly p_j processors
 * to run (the paper's footnote 2): a moldable job. Every quantum (2 s) the scheduler takes the jobs in priority order
 * and dispatches each one whose partition fits in the processors still idle, skipping those that do not, while
 * processors are left; at the quantum's end every job is preempted and the procedure repeats. Processors freed in
 * mid-quantum (a job completes) go to the waiting jobs the same way, the running ones keeping theirs.
 *
 * p_j (section 3.1): C = P/L made a power of two, L being the average number of jobs in the system; p_j = C when
 * min_j <= C, else the smallest multiple of C that is >= min_j. APVM(f) puts f x min_j in place of min_j and pays for
 * it in paging: with c = p_j / min_j < 1 the job runs (1 + (1 - c)/(1 - f) x O) times longer (section 4.1). APMC is
 * APVM(1), AP is APMC with min_j = 1, and GS(p) "is identical to that of the AP policy, except that the partition size
 * for all jobs is fixed a priori" (section 4.2): `ap` with `partition_size` p gives every job p_j = p. (The `gang`
 * policy is another GS(p), an Ousterhout matrix whose rows take turns: not the paper's baseline, see the doc.)
 *
 * Readings of the paper (docs/reproduction/adaptive-partitioning.md says more):
 *   - C: the formula 2^i <= P/L < 2^(i+1) gives C = 16 at P = 128, L = 5, the worked example C = 32. `rounding`
 *     offers floor (the formula), nearest and ceiling; the default, ceiling, gives the example, and is what counting
 *     the partitions does: the largest power of two of partitions not above L (P / 2^floor(log2 L) = 2^ceil(log2 P/L)
 *     when P is a power of two). C is capped at P (L < 1) and is 1 when P/L < 1.
 *   - p_j: the formula (k - 1) C < min_j <= k C; the sentence's "smallest multiple of C greater than min_j" differs
 *     when min_j is a multiple of C (64 would get 128 at C = 32): the formula is followed.
 *   - When p_j is fixed: section 3 says both "at the time it is first dispatched" and, two paragraphs later, on
 *     arrival ("At this time, the job is configured"), as section 3.1 speaks of "arriving jobs". `configure: arrival`
 *     (default) fixes p_j with the load of the job's arrival instant; `dispatch` recomputes it from the current load
 *     each time the job is considered until it first runs.
 *   - Priority: "inversely proportional to the processing time accumulated so far", recalculated periodically "(e.g.,
 *     by dividing them by 2)". Dividing every priority by two changes no order, so the reading is that the
 *     accumulated usage is halved every `period` (100 s, when the load is sampled): usage decays, which is the point
 *     of "so that jobs are not penalized forever". Usage is processor-seconds held (`usage: processor-seconds`,
 *     the parallel analogue of a uniprocessor's CPU time) or seconds held (`seconds`). The highest priority is the
 *     smallest usage; ties go to the earlier submission.
 *   - L: sampled every `period` seconds from time 0 as L = L/2 + (jobs in the system)/2, the jobs counted after the
 *     arrivals and departures of the sampling instant. Its initial value (`initial_load`, default 1: the first jobs
 *     see an empty machine and get C = P) is forgotten geometrically, by half every period.
 *   - A job arriving in mid-quantum is dispatched at once if its partition fits in the idle processors (like the
 *     jobs waiting for processors freed in mid-quantum), rather than waiting for the next quantum.
 *   - Allocation counts processors only by default (the paper did not model the network): with the count-only
 *     allocator (`first-fit`, the default `policy.allocation`) a dispatched job gets the processors it had last time
 *     when they are idle, else the lowest idle ones. A job selected again at a quantum's end continues where it is,
 *     without a switch (nothing distinguishes it from a preemption and an immediate resumption when switches are
 *     free, the paper's assumption; `context_switch` charges the jobs actually switched in).
 *   - Beyond the paper, a placement-constrained allocator (`submesh-first-fit`, `submesh-best-fit`: a partition is a
 *     free submesh of a mesh platform) makes selection and placement one pass in priority order: a job whose
 *     partition fits by count keeps its last processors when they are idle, else asks the allocator for a partition
 *     among the idle processors, and is skipped when there is none (fragmentation the count alone does not see).
 *   - Memory images (Plan::image_bytes; they move only with `simulation.images`): "when a job is dispatched, its data
 *     and code have to be loaded into the local memories of the processors in its partition. Similarly, when it is
 *     preempted, the current contents of the local memories have to be saved" (section 3). APMC (and AP, GS) load
 *     and save the job's whole memory at every dispatch and preemption, the first dispatch included; APVM only its
 *     active pages: what its partition holds, c = p_j / min_j of its memory when c < 1 (at least f x min_j worth, as
 *     p_j >= f x min_j), all of it otherwise.
 *   - Periods where every job in the system runs need no quantum boundary (the next dispatch would choose the same
 *     jobs): the policy then asks to be called at the next load sample only.
 *   - Between arrivals and departures the next quanta's turns follow from the policy's own state: it declares them
 *     ahead (Plan::lookahead, look_ahead() below, with policy/quanta_ahead.hpp's machinery), and the scheduler
 *     replays them without asking it, exactly.
 * The policies see a job's memory and bounds, never its demand or speedup: the paging factor is computed from min_j,
 * p_j, f and O alone, and reaches the runtime through Plan::slowdown. */
#include "policies/time_sharing/adaptive_partitioning.hpp"
#include "policies/time_sharing/disjoint_pairs.hpp"
#include "policy/quanta_ahead.hpp"

#include "core/errors.hpp"
#include "core/time.hpp"
#include "core/time_format.hpp"
#include "policy/policy.hpp"
#include "policy/reused_map.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <unordered_map>

namespace jobsched {

namespace adaptive_partitioning {

UnitRounding unit_rounding_from(const std::string& name)
{
  if (name == "floor") return UnitRounding::floor;
  if (name == "nearest") return UnitRounding::nearest;
  if (name == "ceiling") return UnitRounding::ceiling;
  throw InputError("policy.params.rounding: " + quoted_value(name) + " is not one of floor, nearest, ceiling");
}

const char* to_string(UnitRounding r)
{
  switch (r) {
  case UnitRounding::floor:
    return "floor";
  case UnitRounding::nearest:
    return "nearest";
  case UnitRounding::ceiling:
    return "ceiling";
  }
  return "?";
}

int partition_unit(int processors, double load, UnitRounding rounding)
{
  if (processors < 1) throw InputError("partition_unit: the machine has no processor");
  if (!(load > 0)) return processors; // no load measured yet: the whole machine
  const double share = processors / load;
  if (share < 1) return 1;
  // From P / L >= 2P on, the largest power of two <= P / L is at least P: the unit is P. Returning here also keeps the
  // loop below finite when L has decayed into subnormal numbers and P / L is infinite (where 2 x inf <= inf forever).
  if (!(share < 2.0 * processors)) return processors;
  double low = 1; // the largest power of two <= share
  while (low * 2 <= share)
    low *= 2;
  double unit = low;
  switch (rounding) {
  case UnitRounding::floor:
    break;
  case UnitRounding::ceiling:
    if (share > low) unit = 2 * low;
    break;
  case UnitRounding::nearest:
    if (share >= low * std::sqrt(2.0)) unit = 2 * low;
    break;
  }
  return static_cast<int>(std::min<double>(unit, processors));
}

int partition_size(int memory_processors, double fraction, int unit, int processors)
{
  // The fewest processors the job may have: f x min_j, a whole number (a job of min_j = 45 under APVM(0.75) needs 34).
  const int needed = std::max(1, static_cast<int>(std::ceil(fraction * memory_processors - 1e-9)));
  const int partitions = (needed + unit - 1) / unit; // k: (k - 1) C < needed <= k C
  return std::min(std::max(1, partitions) * unit, processors);
}

double paging_overhead(double c, double fraction, double overhead_at_fraction)
{
  if (c >= 1 || fraction >= 1) return 0;
  return (1 - c) / (1 - fraction) * overhead_at_fraction;
}

double next_load(double load, double sample)
{
  return load / 2 + sample / 2;
}

} // namespace adaptive_partitioning

namespace {

namespace ap = adaptive_partitioning;

/* Which member of the family a registration is. */
enum class Variant { ap, apmc, apvm, gs }; // gs: `ap` with a fixed partition_size

class AdaptivePartitioning : public TimeSharingPolicy {
 public:
  AdaptivePartitioning(const PolicyEnv& env, Variant variant)
      : allocator_(env.allocator), contiguous_(!env.allocator.any_processors_will_do()),
        remember_disjoint_(!contiguous_ && (env.machine.resource_count() + 63) / 64 > kPlainWords),
        processors_(env.machine.resource_count()), quantum_(env.params.get_double("quantum")),
        period_(env.params.get_double("period")), load_(env.params.get_double("initial_load")),
        switch_cost_(env.params.get_double("context_switch"))
  {
    // The parameters' choices and ranges are declared with them (common_params and the registrations below).
    usage_per_processor_ = env.params.get_string("usage") == "processor-seconds";
    configure_at_arrival_ = env.params.get_string("configure") == "arrival";
    rounding_ = ap::unit_rounding_from(env.params.get_string("rounding"));
    if (variant == Variant::ap || variant == Variant::gs) {
      const long p = env.params.get_int("partition_size");
      if (p > processors_) // p >= 0 is declared; the machine's size is known here
        throw InputError("policy.params.partition_size: must be between 0 (adaptive) and the machine's " +
                         std::to_string(processors_) + " processors");
      fixed_unit_ = static_cast<int>(p);
    }
    if (variant == Variant::apmc || variant == Variant::apvm) {
      node_memory_mb_ = env.params.get_double("node_memory_mb");
    }
    next_period_ = period_; // the first sample is one period after time 0
    if (variant == Variant::apvm) {
      fraction_ = env.params.get_double("fraction");
      overhead_ = env.params.get_double("overhead");
    }
  }

  bool needs_memory() const override { return node_memory_mb_ > 0; } // APMC and APVM

  JobLimit job_limit() const override
  {
    JobLimit limit;
    if (node_memory_mb_ > 0) {
      limit.least_processors = [this](const Job& job) { return least_processors(job, memory_processors_exact(job)); };
      limit.least_processors_reason = "policy.params.node_memory_mb: " + format_exact(node_memory_mb_) +
                                      (fraction_ < 1 ? ", fraction: " + format_exact(fraction_) : "");
    }
    return limit;
  }

  void job_submitted(const Job& job, double /*now*/) override
  {
    if (!ahead_.hold_back_submission(job)) add(job);
  }

  void job_ended(const Job& job, JobEnd /*how*/, double /*now*/) override
  {
    if (!ahead_.hold_back_end(job.id)) forget(job.id);
  }

  Plan plan(const SystemView& view) override
  {
    ahead_.take_up_replay(view, *this);
    account(view);
    Plan plan;
    plan.switch_cost = switch_cost_;
    if (view.jobs.empty()) {
      held_.clear();
      return plan; // the next arrival calls again; missed load samples are caught up then
    }
    // Quanta tick at multiples of `quantum` whether or not the policy was called at the last ones (it is not when
    // every job runs: a dispatch would change nothing), so only a call on a boundary starts a new quantum.
    const bool new_quantum = on_quantum_boundary(view.now);
    next_quantum_ = quantum_after(view.now);
    if (configure_at_arrival_) // the jobs that arrived since the last call, with the load now
      for (JobId id : unconfigured_) {
        auto it = jobs_.find(id);
        if (it != jobs_.end()) configure(it->second, *it->second.job);
      }
    unconfigured_.clear();

    // Mid-quantum, the jobs running keep their processors; at a quantum's end every job competes again.
    ResourceSet& idle = idle_;
    idle = view.up;
    find_view_entries(view);
    if (remember_disjoint_) disjoint_.reset(view_entries_.size()); // the records' sets, as the plan finds them
    placed_count_ = 0;
    fresh_count_ = 0;
    bool any_keeps = false;
    // The processors up, counted once: the idle ones are those less the disjoint sets kept, whose counts are known.
    up_count_ = view.up.count();
    int idle_count = up_count_;
    for (size_t i = 0; i < view.jobs.size(); i++) {
      const JobState* s = view.jobs[i];
      Entry& e = *view_entries_[i];
      e.last = &s->processors;
      e.started = s->started();
      e.planned = false;
      e.last_within_up = -1;
      e.keeps = !new_quantum && held_position(s->job->id) != held_.end() && s->holds_processors() &&
                within_up(s->processors, view.up);
      if (e.keeps) { // e.given: its count, from the plan that gave it these processors
        any_keeps = true;
        put(e, s->processors);
        idle -= s->processors;
        idle_count -= last_count(e, s->processors);
        placed_here(e);
      }
    }
    rank();
    choose(view.up, idle_count, any_keeps);
    // The plan's maps in id order (held_'s): the maps of the last plan, handed back, are brought to this one's jobs,
    // where most of the last plan's jobs are again.
    auto run = runs_.build(plan.run);
    auto image_bytes = image_bytes_.build(plan.image_bytes);
    auto slowdown = slowdowns_.build(plan.slowdown);
    for (const Entry* e : by_id_) {
      if (!e->planned) continue;
      const JobId id = e->job->id;
      run.put(id) = e->fresh >= 0 ? fresh_[static_cast<size_t>(e->fresh)] : *e->where;
      image_bytes.put(id) = e->image_bytes;
      if (e->slowdown > 1) slowdown.put(id) = e->slowdown;
    }
    run.finish();
    image_bytes.finish();
    slowdown.finish();
    plan.until = wake_up(plan.run.size(), view.jobs.size());
    // The next quanta's turns follow from the usage the runtime measures and the load samples, nothing SimGrid does
    // meanwhile: they may be reached on the scheduler's virtual clock (Plan::repeats).
    plan.repeats = true;
    plan.lookahead = look_ahead(view, plan);
    return plan;
  }

  /* The lookahead's next quanta, when it was replayed whole (QuantaAhead::extend): the conditions of look_ahead()
   * still hold, nothing having happened since. */
  std::shared_ptr<const Lookahead> extend_lookahead(double now, const ResourceSet& up) override
  {
    up_ahead_ = &up;
    return ahead_.extend(now, *this);
  }

  void reuse_plan(Plan&& plan) override
  {
    runs_.keep(plan.run);
    image_bytes_.keep(plan.image_bytes);
    slowdowns_.keep(plan.slowdown);
  }

 private:
  struct Entry {
    const Job* job = nullptr;
    std::uint64_t order = 0;   // submission order: ties of priority
    int memory_processors = 1; // min_j
    int partition = 0;         // p_j, 0 until configured
    double slowdown = 1;       // 1 + paging overhead on p_j processors
    double image_bytes = 0;    // what a dispatch loads and a preemption saves
    double usage = 0;          // decayed processor-seconds (or seconds) held: the lower, the higher the priority
    /* How many processors the last plan that ran it gave it, -1 before its first since it was (re)submitted: its
     * JobState's processors are that set from then on (the driver applies each plan as it is; a suspended job keeps
     * its last set), so their count is known without counting a set of up to the machine's width at every plan. */
    int given = -1;
    // Set by each plan for the jobs in the system: where it last ran and whether it ever started, as its record says
    // (a lookahead's steps move them on: `last` is then the set the step before gave it), whether it keeps its
    // processors (mid-quantum), and whether it runs and where: on *where (a set that stays put during the plan), or on
    // fresh_[fresh] when >= 0.
    const ResourceSet* last = nullptr;
    signed char last_within_up = -1; // whether `last` lies in the processors up: -1 until asked
    bool started = false;
    bool keeps = false;
    bool planned = false;
    const ResourceSet* where = nullptr;
    int fresh = -1;
    size_t slot = 0; // its place in view_entries_, which numbers the sets of disjoint_
  };
  /* chosen_: the candidates, in priority order, whose partitions fit in what those before them leave of `idle_count`
   * processors, until none is left; each configured first where `configure_first` and it needs it (not yet, or each
   * time until it first runs under `configure: dispatch`). */
  template <bool configure_first>
  void choose_by_counts(const std::vector<Entry*>& candidates, int idle_count)
  {
    std::vector<Entry*>& chosen = chosen_; // their entries: no lookup of a job's entry per placement
    chosen.clear();
    int left = idle_count;
    for (Entry* c : candidates) {
      if (left == 0) break;
      if constexpr (configure_first)
        if (c->partition == 0 || (!configure_at_arrival_ && !c->started)) configure(*c, *c->job);
      const int partition = c->partition;
      if (partition > left) continue;
      chosen.push_back(c);
      left -= partition;
    }
  }
  /* The paper's allocation: selection by counts in priority order, skipping the jobs that do not fit; then placement
   * where each job was last when those processors are idle (no move), else on the lowest idle ones. The idle
   * processors are those `up` less the sets placed already (placed_slots_: the jobs that keep theirs mid-quantum,
   * then the jobs put back, in priority order), `idle_count` of them; idle_ holds them on a small machine. */
  void select_by_counts(const std::vector<Entry*>& candidates, const ResourceSet& up, int idle_count)
  {
    // In a step ahead every job has started and is configured (look_ahead()): the test per candidate is left out.
    if (ahead_.stepping())
      choose_by_counts<false>(candidates, idle_count);
    else
      choose_by_counts<true>(candidates, idle_count);
    // Placement: where the job was last, when those processors are idle (no move), else the lowest idle ones.
    // Each gets exactly its partition: its last set when that has as many processors, else the partition's lowest idle
    // ones, which are enough (the partitions chosen add up to at most the idle count).
    ResourceSet& idle = idle_;
    std::vector<Entry*>& to_move = to_move_; // the jobs chosen that do not go back, in priority order
    to_move.clear();
    for (Entry* c : chosen_) {
      Entry& e = *c;
      const ResourceSet& last = *e.last;
      if (last.capacity() == up.capacity() && last_count(e, last) == e.partition &&
          (remember_disjoint_ ? still_idle(e, up) : idle.contains(last))) {
        put(e, last);
        placed_here(e);
        if (!remember_disjoint_) idle -= last;
        e.given = e.partition;
      } else {
        to_move.push_back(c);
      }
    }
    if (to_move.empty()) return;
    if (remember_disjoint_) bring_idle_up_to_date(up); // the idle set, needed now
    const size_t placed_before = placed_count_;
    for (Entry* c : to_move) {
      Entry& e = *c;
      idle.take_lowest(e.partition, put_fresh(e));
      e.given = e.partition;
      placed_here(e);
    }
    if (!remember_disjoint_) return;
    disjoint_.mark_group(); // idle_ is now `up` less the sets of the group
    // The jobs moved are about to have these sets as their last (plan() and step_ahead() make them so): taken from the
    // idle processors one after another, each lies in `up` and meets no other set placed here.
    for (size_t m = placed_before; m < placed_count_; m++) {
      const size_t moved = placed_slots_[m];
      disjoint_.changed_apart_from_group(moved);
      view_entries_[moved]->last_within_up = 1;
    }
  }
  /* idle_ made `up` less the sets placed so far (disjoint_'s group). Where idle_ was that for the group of an earlier
   * pass (disjoint_'s mark, taken after that pass's moves), the sets that left the group since are given back and
   * those that joined are taken out, when they are fewer than the sets placed: from one quantum to the next a few
   * jobs change among the ten or so that run, and each set is tens of words on 10,000 processors. This holds because
   * a job's last set changes only when it moves, and a move happens only here, after which the mark is taken again;
   * and because `up` is the same from one pass to the next until plan() (which forgets the mark: disjoint_.reset()).
   * The sets of a group are disjoint and lie in `up`, so giving back those that left, then taking out those that
   * joined (which may meet a set that left), leaves `up` less the group's sets. */
  void bring_idle_up_to_date(const ResourceSet& up)
  {
    ResourceSet& idle = idle_;
    if (disjoint_.marked() && disjoint_.changes_since_mark() <= placed_count_) {
      disjoint_.for_changes_since_mark([&](size_t left) { idle |= *view_entries_[left]->last; },
                                       [&](size_t joined) { idle -= *view_entries_[joined]->last; });
      return;
    }
    idle = up;
    for (size_t m = 0; m < placed_count_; m++)
      idle -= *view_entries_[placed_slots_[m]]->last;
  }
  /* The job's set is placed in the pass under way (its last set, or one it is given). */
  void placed_here(const Entry& e)
  {
    placed_slots_[placed_count_++] = e.slot; // each set is placed at most once a pass
    if (remember_disjoint_) disjoint_.join_group(e.slot);
  }
  /* Whether the job's last set is among the idle processors: it lies in `up` and meets none of the sets placed (asked
   * of disjoint_, which remembers the pairs of last sets found disjoint from one pass to the next while neither
   * changes). */
  bool still_idle(Entry& e, const ResourceSet& up)
  {
    if (e.last_within_up < 0) e.last_within_up = within_up(*e.last, up) ? 1 : 0;
    return e.last_within_up == 1 && !disjoint_.meets_group(e.slot, [&](size_t other) {
      return e.last->intersects(*view_entries_[other]->last);
    });
  }

  /* Whether `set` (of the machine's width, as every job's set is) lies in `up`, the processors up, up_count_ of them
   * (plan() counts them): at once when every processor is up, as it is unless hosts fail; else word by word (a set of
   * tens of words on 10,000 processors, asked for each job chosen after every plan(): 2% of APMC's run). */
  bool within_up(const ResourceSet& set, const ResourceSet& up) const
  {
    return up_count_ == up.capacity() || up.contains(set);
  }

  /* Placement-constrained allocation: in priority order, each job whose partition fits by count keeps its last
   * processors when they are idle, else takes what the allocator finds among the idle processors, else is skipped. */
  void place_in_priority_order(const std::vector<Entry*>& candidates, ResourceSet& idle)
  {
    for (Entry* c : candidates) {
      if (idle.empty()) break;
      Entry& e = *c;
      if (e.partition == 0 || (!configure_at_arrival_ && !e.started)) configure(e, *e.job);
      if (e.partition > idle.count()) continue;
      const ResourceSet& last = *e.last;
      if (last.capacity() == idle.capacity() && last_count(e, last) == e.partition && idle.contains(last)) {
        idle -= last;
        e.given = e.partition;
        put(e, last);
        continue;
      }
      Job partition = *e.job;
      partition.shape = JobShape::rigid;
      partition.size = e.partition;
      auto found = allocator_.select(partition, idle);
      if (!found) continue;
      ResourceSet& mine = put_fresh(e);
      mine = std::move(*found);
      idle -= mine;
      e.given = mine.count(); // an allocator's choice, counted once
    }
  }

  /* min_j as a double: the workload leaves out the jobs whose min_j the machine cannot hold (job_limit), an int cast
   * of a larger one being undefined. */
  double memory_processors_exact(const Job& job) const
  {
    if (!(node_memory_mb_ > 0)) return 1; // AP and GS: no memory constraint
    if (!(job.memory_kb > 0)) return std::max(1, job.min_processors());
    const double total_kb = job.memory_kb * job.size;
    return std::max(1.0, std::ceil(total_kb / (node_memory_mb_ * 1024.0) - 1e-9));
  }
  /* The processors a job is given at least: its minimum, and f x min_j. */
  double least_processors(const Job& job, double memory_processors) const
  {
    return std::max(static_cast<double>(job.min_processors()), std::ceil(fraction_ * memory_processors - 1e-9));
  }

  void configure(Entry& e, const Job& job)
  {
    const int unit = fixed_unit_ > 0 ? fixed_unit_ : ap::partition_unit(processors_, load_, rounding_);
    int p = ap::partition_size(fixed_unit_ > 0 ? 1 : e.memory_processors, fraction_, unit, processors_);
    p = std::clamp(p, job.min_processors(), job.max_processors());
    e.partition = p;
    const double c = static_cast<double>(p) / e.memory_processors;
    e.slowdown = 1 + ap::paging_overhead(c, fraction_, overhead_);
    e.image_bytes = job.image_bytes() * std::min(1.0, c); // APVM: the active pages its partition holds
  }

  /* Charge the time since the last plan to the jobs that held processors, halving usages and sampling the load at
   * every period boundary passed. Between two calls no job arrived or left, so the number of jobs in the system was
   * the one the last call saw, except at `now` itself. */
  void account(const SystemView& view) { account(view.now, view.jobs.size()); }
  /* The same at `now` with `jobs` jobs in the system. */
  void account(double now, size_t jobs)
  {
    while (next_period_ <= now + kTimeEpsilon) {
      charge(next_period_);
      for (auto& [id, e] : jobs_) {
        e.usage /= 2; // exact, so the order unchanged, unless the half is below the normal doubles
        if (e.usage < std::numeric_limits<double>::min() && e.usage != 0) ranked_grown_only_ = false;
      }
      const bool at_now = next_period_ >= now - kTimeEpsilon;
      load_ = ap::next_load(load_, static_cast<double>(at_now ? jobs : jobs_seen_));
      periods_++;
      next_period_ = static_cast<double>(periods_ + 1) * period_;
    }
    charge(now);
    jobs_seen_ = jobs;
  }
  /* The time from the last account to `until` charged to the jobs of the last plan. */
  void charge(double until)
  {
    const double length = until - accounted_until_;
    if (length > 0)
      for (const Held& h : held_)
        h.entry->usage += length * (usage_per_processor_ ? h.count : 1);
    accounted_until_ = std::max(accounted_until_, until);
  }
  /* A plan's `until` when it runs `planned` of the `jobs` in the system: the next quantum's end while some job waits;
   * else nothing changes before the next load sample. */
  double wake_up(size_t planned, size_t jobs) const
  {
    return planned < jobs ? std::min(next_quantum_, next_period_) : next_period_;
  }
  bool on_quantum_boundary(double t) const
  {
    return std::fabs(t - std::round(t / quantum_) * quantum_) <= kTimeEpsilon;
  }
  double quantum_after(double t) const { return (std::floor(t / quantum_ + kTimeEpsilon / quantum_) + 1) * quantum_; }

  /* Chooses the jobs that run (those that keep their processors are put already, the others compete in priority
   * order, ranked_'s, for the `idle_count` processors of `up` that these leave idle, which idle_ holds for a
   * placement-constrained allocator) and lists them in held_, in id order (held_ stays sorted). */
  void choose(const ResourceSet& up, int idle_count, bool any_keeps)
  {
    const std::vector<Entry*>* candidates = &ranked_; // all of them when none keeps its processors
    if (any_keeps) {
      candidates_.clear();
      for (Entry* e : ranked_)
        if (!e->keeps) candidates_.push_back(e);
      candidates = &candidates_;
    }
    if (contiguous_) {
      place_in_priority_order(*candidates, idle_);
    } else {
      select_by_counts(*candidates, up, idle_count);
    }
    held_.clear();
    for (Entry* e : by_id_)
      if (e->planned) held_.push_back({e->job->id, e->given, e});
  }

  /* The job's entry, at its submission (its order, its memory in processors, its bounds checked). */
  void add(const Job& job)
  {
    Entry e;
    e.order = submitted_++;
    // The workload leaves out the jobs larger than the machine by their memory (job_limit(), with
    // workload.jobs.memory_mb's); memory given to the jobs after it is built (workload.memory.model: paging) is
    // checked here, and so is a job's maximum (its shape's, known once the workload is built).
    const double memory_processors = memory_processors_exact(job);
    const double least = least_processors(job, memory_processors);
    if (least > processors_ || least > job.max_processors())
      throw InputError("job " + std::to_string(job.id) + " needs at least " + format_exact(least) +
                       " processors for its memory (" + job_limit().least_processors_reason + "), more than " +
                       (least > processors_ ? "the machine's " + std::to_string(processors_) +
                                                  " (its memory given after the workload was filtered: "
                                                  "workload.memory.model: paging)"
                                            : "its maximum " + std::to_string(job.max_processors()) +
                                                  " (workload.jobs.max_size; without it, its size)"));
    // f x min_j fits the machine; min_j itself may not (a tiny f): held as an int, at most the largest one.
    e.memory_processors = static_cast<int>(std::min(memory_processors, 2147483647.0));
    e.job = &job;
    jobs_.emplace(job.id, e);
    unconfigured_.push_back(job.id);
    view_entries_stale_ = true;
    ranked_grown_only_ = false;
  }

  void forget(JobId id)
  {
    jobs_.erase(id);
    view_entries_stale_ = true;
    ranked_grown_only_ = false;
    if (auto it = held_position(id); it != held_.end()) held_.erase(it);
  }

  const Allocator& allocator_;
  bool contiguous_; // the allocator constrains placement (a submesh): selection and placement in one pass
  /* Whether select_by_counts() asks disjoint_ whether a job goes back where it was, rather than the idle set
   * (placement by counts only): on machines of more than kPlainWords words of processors. There a job's last set
   * spans tens of words, and testing each against the idle processors, and building those at every pass, costs more
   * than remembering which last sets are disjoint: AP and APMC on 10,000 processors ran 5% and 10% faster; on 5,120
   * (80 words) APMC 10% faster but AP about 5% slower, a mixed result the threshold takes; on 2,560 processors and
   * fewer the plain arithmetic was 5-15% faster (AP, 10,000 jobs). */
  bool remember_disjoint_;
  static constexpr int kPlainWords = 64;
  int processors_;
  double quantum_;
  double period_;
  double load_; // L
  double switch_cost_;
  bool usage_per_processor_ = true;
  bool configure_at_arrival_ = true;
  ap::UnitRounding rounding_ = ap::UnitRounding::ceiling;
  int fixed_unit_ = 0;        // GS(p): p
  double node_memory_mb_ = 0; // 0: memory ignored (AP, GS)
  double fraction_ = 1;       // f
  double overhead_ = 0;       // O

  std::unordered_map<JobId, Entry> jobs_;

  /* Per plan, without a look-up or an allocation per job (a run of AP decides millions of times): */
  // the entry of each job of the view, in its order, found again only after an arrival or a departure;
  std::vector<Entry*> view_entries_;
  bool view_entries_stale_ = true;
  // every job's entry by priority (usage, then submission order), kept from one plan to the next: between two plans
  // only the usages of the jobs that held processors grow, and a period halves every usage, so the order is nearly
  // right and an insertion sort puts it right in a few moves; between two steps ahead only held_'s jobs move
  // (ranked_grown_only_: nothing else changed a usage since ranked_ was last sorted, nor the jobs), and only those
  // are moved (rank_held_grown());
  std::vector<Entry*> ranked_;
  bool ranked_grown_only_ = false;
  std::vector<size_t> grown_at_; // rank_held_grown()'s places of held_'s jobs in ranked_ (room for every job)
  // the view's entries by job id (the order of the plan's maps); the sets the plan being built chose anew (fresh_count_
  // of them, kept with their storage); the idle processors; the candidates, those chosen and those of these that move
  // (select_by_counts);
  std::vector<Entry*> by_id_;
  std::vector<ResourceSet> fresh_;
  int fresh_count_ = 0;
  ResourceSet idle_;
  std::vector<Entry*> candidates_; // ranked_'s entries that do not keep their processors
  std::vector<Entry*> chosen_;
  std::vector<Entry*> to_move_;
  std::vector<size_t> placed_slots_; // the slots of the sets placed in the pass under way: the first placed_count_
  size_t placed_count_ = 0;          // (room for every slot: no test of the capacity per placement)
  DisjointPairs disjoint_;           // which jobs' last sets are known to be disjoint (plan() forgets them all)
  // the maps of the last plan, handed back (reuse_plan), in whose nodes the next plan's are built.
  ReusedMap<ResourceSet> runs_;
  ReusedMap<double> image_bytes_;
  ReusedMap<double> slowdowns_;

  void find_view_entries(const SystemView& view)
  {
    bool same = !view_entries_stale_ && view_entries_.size() == view.jobs.size();
    for (size_t i = 0; same && i < view.jobs.size(); i++)
      same = view_entries_[i]->job == view.jobs[i]->job;
    if (same) return;
    view_entries_.clear();
    for (const JobState* s : view.jobs) {
      Entry& e = jobs_.at(s->job->id);
      e.slot = view_entries_.size();
      view_entries_.push_back(&e);
    }
    placed_slots_.resize(view_entries_.size());
    grown_at_.resize(view_entries_.size());
    ranked_ = view_entries_; // in any order: rank() sorts it
    ranked_grown_only_ = false;
    by_id_ = view_entries_;
    std::sort(by_id_.begin(), by_id_.end(), [](const Entry* a, const Entry* b) { return a->job->id < b->job->id; });
    view_entries_stale_ = false;
  }

  /* Priority: the lower usage first, then the earlier submission. */
  static bool before(const Entry* a, const Entry* b)
  {
    return a->usage < b->usage || (a->usage == b->usage && a->order < b->order);
  }
  /* Sorts ranked_ by priority. Usage and submission order are a strict order (no two entries compare equal), so there
   * is one sorted order, whichever sort finds it: an insertion sort while the entries are nearly in order, std::sort
   * when more than a few moves per entry would be needed. */
  void rank()
  {
    ranked_grown_only_ = true;
    size_t moves = 0;
    const size_t n = ranked_.size();
    const size_t most = 4 * n + 16;
    Entry** ranked = ranked_.data(); // (the vector's size and start are not read again at every move)
    for (size_t i = 1; i < n; i++) {
      Entry* e = ranked[i];
      if (!before(e, ranked[i - 1])) continue; // in place, as most are: nothing stored, no move counted
      ranked[i] = ranked[i - 1];
      size_t j = i - 1;
      for (; j > 0 && before(e, ranked[j - 1]); j--)
        ranked[j] = ranked[j - 1];
      ranked[j] = e;
      moves += i - j;
      if (moves > most) {
        std::sort(ranked_.begin(), ranked_.end(), before);
        return;
      }
    }
  }
  /* rank() where, since ranked_ was last sorted, only the usages of held_'s jobs (`planned`: the last plan's) grew and
   * every usage may have been halved exactly (ranked_grown_only_): the other entries are still in order among
   * themselves. held_'s jobs are found by a walk from the front that stops at the last of them, then each one, from the
   * last to the first, is moved later past the entries now before it. The entries after it are in order then (the
   * others, and those moved already, each placed among them), and it comes after every entry it passed: ranked_ ends
   * sorted, the one order there is. The insertion sort instead moved each other entry past the grown ones before it. */
  void rank_held_grown()
  {
    const size_t n = ranked_.size();
    Entry** ranked = ranked_.data();
    size_t* grown_at = grown_at_.data();
    size_t found = 0;
    for (size_t i = 0, m = held_.size(); found < m && i < n; i++)
      if (ranked[i]->planned) grown_at[found++] = i;
    while (found > 0) {
      size_t at = grown_at[--found];
      Entry* e = ranked[at];
      for (; at + 1 < n && before(ranked[at + 1], e); at++)
        ranked[at] = ranked[at + 1];
      ranked[at] = e;
    }
  }

  /* The job runs on `where` (a set that stays put until the plan is returned). */
  void put(Entry& e, const ResourceSet& where)
  {
    e.planned = true;
    e.where = &where;
    e.fresh = -1;
  }
  /* The job runs on the set returned, to be filled (kept with its storage from one plan to the next). */
  ResourceSet& put_fresh(Entry& e)
  {
    if (ahead_.stepping()) { // a set of the lookahead's, which stays put while the lookahead is out
      ResourceSet& set = ahead_.new_set();
      put(e, set);
      return set;
    }
    if (static_cast<size_t>(fresh_count_) == fresh_.size()) fresh_.emplace_back();
    e.planned = true;
    e.fresh = fresh_count_;
    return fresh_[static_cast<size_t>(fresh_count_++)];
  }
  std::vector<JobId> unconfigured_; // arrived since the last call (configure: arrival)
  /* The jobs of the last plan by id, their processor counts and entries (job_ended() takes a job out of both maps):
   * rebuilt at every plan in a vector that keeps its storage, where a map allocated a node per job per plan. */
  struct Held {
    JobId id;
    int count;
    Entry* entry;
  };
  std::vector<Held> held_;
  /* How many processors `last`, the set the job's last plan gave it, holds (Entry::given, else counted). */
  static int last_count(const Entry& e, const ResourceSet& last) { return e.given >= 0 ? e.given : last.count(); }
  std::vector<Held>::iterator held_position(JobId id)
  {
    auto it = std::lower_bound(held_.begin(), held_.end(), id, [](const Held& h, JobId key) { return h.id < key; });
    return it != held_.end() && it->id == id ? it : held_.end();
  }
  std::uint64_t submitted_ = 0;
  double next_quantum_ = 0;
  std::uint64_t periods_ = 0; // load samples taken
  double next_period_ = 0;
  double accounted_until_ = 0;
  size_t jobs_seen_ = 0; // jobs in the system after the last call

  /* The lookahead (Plan::lookahead, QuantaAhead). Between events AP's next plans follow from its own state: at each
   * quantum's end the usages charged, the jobs ranked and chosen again, nothing else. So when every job in the system
   * has started (the replay does not model a first start), no job is slowed by paging and nothing is charged per
   * switch, plan() also works out the plans of the next quanta, load samples and usage halvings included, by the same
   * code on the same state (step_ahead()), each job's last set being the one the step before gave it. */
  std::shared_ptr<const Lookahead> look_ahead(const SystemView& view, const Plan& plan)
  {
    if (!ahead_.worth_trying(view)) return nullptr;
    if (switch_cost_ > 0 || held_.empty()) return nullptr;
    for (const JobState* s : view.jobs)
      if (s->status != JobStatus::running && s->status != JobStatus::suspended) {
        // Only a job of this plan may be waiting: it starts now.
        if (held_position(s->job->id) == held_.end()) return nullptr;
      }
    for (const Entry* e : view_entries_)
      if (e->slowdown != 1.0) return nullptr; // APVM's paging: the replay does not model a slowdown
    up_ahead_ = &view.up;
    return ahead_.look_ahead(plan.until, *this);
  }

 public:
  // QuantaAhead's calls (quanta_ahead.hpp says what each does).

  /* Phase 0: this plan, on its sets (fresh_'s, or a job's record's where it stays), which stay put until the next
   * plan(): the steps put the jobs they move on sets of the lookahead's own. Each set's count is the job's in held_
   * (Entry::given when choose() listed it: its partition, or what the allocator gave), handed along so that the
   * replay need not count it. */
  void first_phase(Phase& phase, std::vector<int>& counts)
  {
    for (const Held& h : held_) {
      Entry& e = *h.entry;
      e.last = e.fresh >= 0 ? &fresh_[static_cast<size_t>(e.fresh)] : e.where;
      e.started = true;
      phase.emplace_back(h.id, e.last);
      counts.push_back(h.count);
    }
  }
  /* plan() at `t` is a step when `t` ends a quantum (else the jobs running would keep their processors). */
  bool steps_at(double t) const { return on_quantum_boundary(t); }
  /* The plan plan() would return at `t`, a quantum's end, with nothing happened since the last plan, on the
   * processors up then (up_ahead_): the jobs it moves are put on sets of the lookahead's. */
  double step_ahead(double t, Phase& phase, std::vector<int>& counts)
  {
    account(t, view_entries_.size()); // the jobs in the system: those of the lookahead's plan
    next_quantum_ = quantum_after(t);
    if (!remember_disjoint_) idle_ = *up_ahead_; // the idle processors, for the plain arithmetic
    placed_count_ = 0;
    disjoint_.clear_group();
    // Since the last choice only the usages of held_'s jobs (the last plan's) grew, and every usage may have been
    // halved: where those are a third of the jobs or fewer (APMC's steps on 10,000 processors, about 4 a step), they
    // alone are moved (rank_held_grown()); where most jobs run (AP), the insertion sort moves fewer entries.
    if (ranked_grown_only_ && 3 * held_.size() <= ranked_.size())
      rank_held_grown();
    else
      rank();
    for (const Held& h : held_) { // the entries planned (and those that kept their processors) are the last plan's
      h.entry->planned = false;
      h.entry->keeps = false;
    }
    choose(*up_ahead_, up_count_, false);
    for (const Held& h : held_) {
      Entry& e = *h.entry;
      e.last = e.where;
      phase.emplace_back(h.id, e.last);
      counts.push_back(h.count);
    }
    return wake_up(held_.size(), view_entries_.size());
  }
  /* What a step changes that a plan() reads: usages, counts given, the last plan's jobs, the clocks and the load (the
   * last sets it moves too, but plan() takes them from the records). (A period halves the usage of every job of jobs_,
   * which are those of the lookahead's plan: submissions wait while it is out.) The priority order is not saved: it
   * follows from the usages, one order (rank()), which the next plan() sorts ranked_ into from the order the steps
   * left, a few steps on and nearly right. Nor is the last plan's list (held_): it is the phase's jobs, by id, with
   * their counts, which the lookahead holds (restore_state()); copying it at every step was 1.4% of AP's run. It is
   * saved once per lookahead, at its first phase: the state at a later phase is that one with the steps up to it
   * redone (redo_step()), which cost less than a copy of every job's record before every step (93 M instructions of
   * APMC's 4,454 M at 10,000 jobs). */
  struct SavedState {
    struct Record {
      double usage;
      int given;
    };
    std::vector<Record> records; // view_entries_'s
    double accounted_until = 0;
    double next_quantum = 0;
    double load = 0;
    std::uint64_t periods = 0;
    double next_period = 0;
    size_t jobs_seen = 0;
  };
  void save_state(SavedState& to) const
  {
    to.records.resize(view_entries_.size());
    SavedState::Record* record = to.records.data();
    for (const Entry* e : view_entries_)
      *record++ = {e->usage, e->given};
    to.accounted_until = accounted_until_;
    to.next_quantum = next_quantum_;
    to.load = load_;
    to.periods = periods_;
    to.next_period = next_period_;
    to.jobs_seen = jobs_seen_;
  }
  /* `phase` is the plan whose state `from` is (first_phase()'s, or extend()'s copy of the last phase for an
   * extension's first: held_'s jobs by id, on their sets), `counts` its counts (held_'s, AP declares
   * them): held_ is those jobs with their entries, found along by_id_ (the lookahead's jobs: ends and submissions are
   * held back while it is out). */
  void restore_state(const SavedState& from, const Phase& phase, const int* counts)
  {
    ranked_grown_only_ = false; // the usages taken back: ranked_ is sorted again from the order the steps left
    const SavedState::Record* record = from.records.data();
    for (Entry* e : view_entries_) {
      e->usage = record->usage;
      e->given = record->given;
      record++;
    }
    hold_phase(phase, counts);
    accounted_until_ = from.accounted_until;
    next_quantum_ = from.next_quantum;
    load_ = from.load;
    periods_ = from.periods;
    next_period_ = from.next_period;
    jobs_seen_ = from.jobs_seen;
  }
  /* The state after the step at `t` that chose `phase` (with `counts`), from the state after the phase before it
   * (held_ its jobs): what step_ahead() did but rank and choose, the same arithmetic in the same order (account()),
   * so the same usages and load to the bit. */
  void redo_step(double t, const Phase& phase, const int* counts)
  {
    account(t, view_entries_.size());
    next_quantum_ = quantum_after(t);
    hold_phase(phase, counts);
    for (const Held& h : held_)
      h.entry->given = h.count;
  }
  void let_in(const Job& job) { add(job); }
  void let_out(JobId id) { forget(id); }

 private:
  /* held_ made `phase`'s jobs (by id) with `counts`, their entries found along by_id_. */
  void hold_phase(const Phase& phase, const int* counts)
  {
    // (Resized, then written: a second push_back of Held beside choose()'s made the compiler call it out of line in
    // both, 196 M instructions at AP on 10,000 jobs.)
    held_.resize(phase.size());
    Held* held = held_.data();
    size_t k = 0;
    for (const auto& [id, where] : phase) {
      while (by_id_[k]->job->id < id)
        k++;
      *held++ = {id, *counts++, by_id_[k]};
    }
  }
  QuantaAhead<SavedState> ahead_;
  // While looking ahead: the processors up (the plan's view's), up_count_ of them (plan() counts them).
  const ResourceSet* up_ahead_ = nullptr;
  int up_count_ = 0;
};

std::vector<ParamSpec> common_params(std::vector<ParamSpec> own)
{
  std::vector<ParamSpec> out = {
      {"quantum",
       "2.0",
       "seconds between dispatches (every job is preempted at a quantum's end)",
       {},
       ParamRange::at_least(kMinQuantum)},
      {"period", "100.0", "seconds between load samples and usage halvings", {}, ParamRange::at_least(kMinQuantum)},
      {"initial_load",
       "1.0",
       "L before the first sample (jobs in the system); GS(p) (ap with partition_size > 0) does not read it",
       {},
       ParamRange::at_least(0)},
      {"usage",
       "processor-seconds",
       "what priority counts: processor-seconds or seconds held",
       {"processor-seconds", "seconds"}},
      {"configure", "arrival", "when p_j is fixed: at arrival or at first dispatch", {"arrival", "dispatch"}},
      {"context_switch", "0.0", "seconds a job stalls each time it is switched in", {}, ParamRange::at_least(0)}};
  out.insert(out.end(), own.begin(), own.end());
  return out;
}

std::unique_ptr<TimeSharingPolicy> make(const PolicyEnv& env, Variant variant)
{
  return std::make_unique<AdaptivePartitioning>(env, variant);
}

const ParamSpec kRounding{
    "rounding",
    "ceiling",
    "P/L to a power of two: floor, nearest or ceiling; GS(p) (ap with partition_size > 0) does not read it",
    {"floor", "nearest", "ceiling"}};
const ParamSpec kNodeMemory{
    "node_memory_mb", "1.0", "memory of one processor (MB): min_j = job memory / this", {}, ParamRange::above(0)};

PolicyRegistration ap_registration{
    {"ap",
     "Setia's AP: time-shared adaptive partitioning, partitions of C = P/L (a power of two), feedback priority; with "
     "partition_size p, Setia's GS(p)",
     common_params({kRounding,
                    {"partition_size",
                     "0",
                     "0: adaptive (AP); p: every partition p processors, GS(p)",
                     {},
                     ParamRange::at_least(0)}}),
     nullptr, [](const PolicyEnv& env) {
       return make(env, env.params.get_int("partition_size") == 0 ? Variant::ap : Variant::gs);
     }}};

PolicyRegistration apmc_registration{
    {"apmc", "Setia's APMC: AP with partitions of the smallest multiple of C holding the job's memory",
     common_params({kRounding, kNodeMemory}), nullptr, [](const PolicyEnv& env) { return make(env, Variant::apmc); }}};

PolicyRegistration apvm_registration{
    {"apvm", "Setia's APVM(f): APMC down to f x the job's memory, paging overhead (1-c)/(1-f) x O below it",
     common_params(
         {kRounding,
          kNodeMemory,
          {"fraction", "0.5", "f: the least fraction of its memory a job is given", {}, ParamRange{0, 1, true, false}},
          {"overhead",
           "0.0",
           "O: the paging overhead at c = f (0.25 for 25%); at most 100: the paper studies 0 to 50%, and the slowdowns "
           "it cites (2 to 8 times at 90% of the memory) are O <= 70 in its linear model, whatever f",
           {},
           ParamRange::between(0, 100)}}),
     nullptr, [](const PolicyEnv& env) { return make(env, Variant::apvm); }}};

} // namespace
} // namespace jobsched
