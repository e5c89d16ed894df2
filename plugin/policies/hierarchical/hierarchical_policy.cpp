/* Cao, Sun, Qian and Wu's hierarchical scheduling of malleable jobs as time-sharing policies of the one runtime:
 * `ac-ds`, `ag-ds`, `equi-equi` and the mixed `ac-equi`, `ag-equi`, `equi-ds` (job scheduler - node allocator).
 *
 * The tree of schedulers (scheduler_tree.hpp) decides at every quantum boundary of the leaves, t = m L: each level-2
 * node (leaf) admits the jobs the policy assigned to it, turns what each job did in the last quantum into its desire
 * (feedback.hpp: A-Control, A-Greedy, or none under EQUI), and the nodes whose boundary it is report their children's
 * desire sums (DS) and unfinished counts upwards, then divide what their parent gave them among their children (DEQ or
 * EQUI: allocation.hpp), down to the jobs. Level k decides every L QF^(k - 2); a node's report reaches its parent at
 * the parent's boundary; a node whose children's allotments change passes them on after the reallocation delays its
 * subtree reported (section 4.3(4), as in the former run/hierarchy.hpp). This is the paper's model of messages
 * (`messages: free`: synchronous, no latency), so the rounds run here as calls, children before parents going up and
 * parents before children going down, in one instant: what each node decides depends on its children's messages only,
 * exactly as the actors of the former hierarchy: simulator decided.
 *
 * `messages: platform` (beyond the paper): each node sits on a platform host (place_nodes), and a message of
 * `message_bytes` from a node to its parent or back takes the time SimGrid's route gives one message alone (latency
 * plus bytes over the narrowest link, platform/routes.hpp's message_time), computed once at set-up: a static model,
 * without contention between messages (64-byte messages: a few microseconds against milliseconds of latency). The
 * timing rules are the old actors': a node above level 2 decides a round when the last of its children's feedback is in
 * (the latest of their decision instants plus their message time); nobody waits for allotments: an allotment arrives
 * its message time after its sender decided and applies at the receiver's first decision at or after its arrival (a
 * leaf's next boundary). Quanta stay on the clock; what latency costs is staleness.
 *
 * P is the number of the platform's processors that are up. A job's feedback is what it reports itself: the work done
 * and the span covered in the quantum, read from its JobState (JobState::work_done, span_done), never its profile.
 * Allotments reach the runtime as a plan: `allotments: whole` gives whole processors, kept where they were when
 * possible; `fractional` (the paper's) gives each job its share (Plan::share), laid out by McNaughton's wrap-around
 * rule over the processors in a stable order (the leaves', then the jobs' admission order), so a processor at the
 * boundary between two jobs is time-shared inside the quantum. A job computes at min(a, h). A job whose allotment
 * changes by x stalls x L CF (Plan::stall), carried over the next quanta when longer than one; a job allotted nothing
 * is suspended.
 *
 * Jobs go to a leaf drawn uniformly in submission order from the stream "hierarchy leaves" of the simulation's seed
 * (the stream and order of the old Downey generator, so the same scenario sends every job to the same leaf).
 *
 * When no job is in the system the tree decides one round with nothing to do and then sleeps until the next
 * submission, whose first boundary is the next multiple of L (idle rounds change nothing once the desires are 0).
 *
 * Section 3.4's analysis is measured on every run (report()): per job its transition factor, satisfied time, total
 * allotment and stall; the run's Theorem 1 bound and Lemma 1 ratios, and the quanta where a job is deprived while
 * fewer than P processors are allotted. `invariants: auto` checks them where the analysis applies (QF 1, CF 0,
 * fractional, DS + DEQ, identical processors that no profile or owner changes; Lemma 1 and Theorem 1 under A-Control
 * with convergence rate 0), `on` always, `off` never. */
#include "policies/hierarchical/analysis.hpp"
#include "policies/hierarchical/hierarchy_spec.hpp"
#include "policy/policy.hpp"
#include "policy/reused_map.hpp"

#include "core/errors.hpp"
#include "core/random.hpp"
#include "core/time.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>

namespace jobsched {
namespace {

namespace hs = hierarchical;

constexpr double kTimeTolerance = 1e-9; // of a quantum: an allotment effective this close to a boundary is due

std::string format_number(double v)
{
  std::ostringstream out;
  out.precision(12);
  out << v;
  return out.str();
}

class HierarchicalPolicy : public TimeSharingPolicy {
 public:
  HierarchicalPolicy(const PolicyEnv& env, hs::JobScheduler job_scheduler, hs::NodeAllocator allocator)
      : leaves_stream_(env.seed, "hierarchy leaves")
  {
    const Params& p = env.params;
    spec_.job_scheduler = job_scheduler;
    spec_.allocator = allocator;
    // The choices and ranges of the parameters are declared with them (hierarchical_params) and checked by Params.
    spec_.quantum = p.get_double("quantum");
    const long qf = p.get_int("quantum_factor");
    spec_.quantum_factor = static_cast<int>(qf);
    spec_.cost_factor = p.get_double("cost_factor");
    spec_.whole_processors = p.get_string("allotments") == "whole";
    spec_.convergence_rate = p.get_double("convergence_rate");
    spec_.a_greedy.utilization_threshold = p.get_double("utilization_threshold");
    spec_.a_greedy.responsiveness = p.get_double("responsiveness");
    spec_.invariants = p.get_string("invariants");
    // Desires come from one job scheduler: another's parameters would be read and ignored (a typo of the policy's name,
    // or of the study's intent), so they are refused, naming the key.
    const char* const scheduler = job_scheduler == hs::JobScheduler::a_control  ? "A-Control"
                                  : job_scheduler == hs::JobScheduler::a_greedy ? "A-Greedy"
                                                                                : "EQUI";
    const auto refuse_unless = [&](const char* key, hs::JobScheduler reader, const char* readers) {
      if (p.given(key) && job_scheduler != reader)
        throw InputError(std::string("policy.params.") + key + ": only " + readers +
                         " read it; this policy's desires come from " + scheduler + ": leave it out");
    };
    refuse_unless("convergence_rate", hs::JobScheduler::a_control, "A-Control's policies (ac-ds, ac-equi)");
    for (const char* key : {"utilization_threshold", "responsiveness"})
      refuse_unless(key, hs::JobScheduler::a_greedy, "A-Greedy's policies (ag-ds, ag-equi)");
    messages_over_platform_ = p.get_string("messages") == "platform";
    message_bytes_ = p.get_double("message_bytes");
    read_tree(p, env.seed);
    const size_t n = boost::num_vertices(tree_);
    levels_ = hs::levels(tree_);
    // A run simulates at least one quantum of the root, QF^(K - 2) of the leaves' (10^6 take seconds per leaf, 10^9
    // hours), and a larger power overflowed the nodes' periods (a division by zero: SIGFPE), as the hierarchy: section
    // refused it.
    const double root_quanta = std::pow(static_cast<double>(spec_.quantum_factor), levels_ - 2);
    if (root_quanta > 1e6)
      throw InputError("policy.params.quantum_factor: quantum_factor^(levels - 2) = " + std::to_string(qf) + "^" +
                       std::to_string(levels_ - 2) + " = " + format_number(root_quanta) +
                       " leaf quanta per quantum of the root, more than 1e6 (a run simulates at least one root "
                       "quantum: 1e6 leaf quanta take seconds per leaf, 1e9 hours)");
    nodes_.resize(n);
    for (hs::TreeVertex v = 0; v < n; v++) {
      Node& node = nodes_[v];
      node.level = tree_[v].level;
      node.parent = hs::parent(tree_, v);
      node.kids = hs::children(tree_, v);
      node.period = 1;
      for (int k = 2; k < node.level; k++)
        node.period *= spec_.quantum_factor;
      node.feedback.assign(node.kids.size(), Feedback{});
      node.sent.assign(node.kids.size(), 0.0);
    }
    for (hs::TreeVertex v = 0; v < n; v++)
      for (size_t i = 0; i < nodes_[v].kids.size(); i++)
        nodes_[nodes_[v].kids[i]].slot = i;
    if (messages_over_platform_) place_nodes(p, env.network);
    leaves_ = hs::leaves(tree_);
    leaf_jobs_.resize(n);
    // Section 3.4's setting (analysis.hpp): P identical processors, all there all along (a job's satisfied time on
    // slower or vanishing processors exceeds Lemma 1's bound through no fault of the schedule).
    bool identical_processors = env.steady_machine;
    for (int h = 1; h < env.machine.host_count() && identical_processors; h++)
      identical_processors = env.machine.speed(h) == env.machine.speed(0);
    const bool analysis_applies = spec_.quantum_factor == 1 && spec_.cost_factor == 0 && !spec_.whole_processors &&
                                  spec_.allocator == hs::NodeAllocator::deq &&
                                  spec_.job_scheduler != hs::JobScheduler::equi && !messages_over_platform_ &&
                                  identical_processors;
    check_ = spec_.invariants == "on" || (spec_.invariants == "auto" && analysis_applies);
    check_lemma_ = check_ && (spec_.invariants == "on" ||
                              (spec_.job_scheduler == hs::JobScheduler::a_control && spec_.convergence_rate == 0));
  }

  bool runs_parallelism_profiles() const override { return true; }

  void job_submitted(const Job& job, double /*now*/) override
  {
    const int leaf = leaves_stream_.uniform_int(0, static_cast<int>(leaves_.size()) - 1);
    arrive(job, leaf, job.submit_time);
  }

  /* Its host failed: its work starts again, on its leaf, released when it first was. */
  void job_requeued(const Job& job, double now) override
  {
    auto it = jobs_.find(job.id);
    if (it == jobs_.end()) {
      job_submitted(job, now);
      return;
    }
    JobEntry& e = it->second;
    leave(e, JobEnd::failed, now);
    arrive(job, e.leaf, e.record.release);
  }

  /* The job is gone for good, however it ended (a requeue comes to job_requeued()): completed, its record is kept for
   * the analysis; its entry goes in every case, or a long log's killed and failed jobs would stay here to the end. */
  void job_ended(const Job& job, JobEnd how, double now) override
  {
    auto it = jobs_.find(job.id);
    if (it == jobs_.end()) return;
    JobEntry& e = it->second;
    leave(e, how, now);
    if (how == JobEnd::completed && e.admitted) {
      close_quantum(e, now, true);
      e.record.finish = now;
      // Its work and span as it reported them (its measures at its end), for the analysis.
      if (e.state != nullptr) {
        e.record.work = e.state->work_done;
        e.record.span = e.state->span_done;
        e.record.average_parallelism = e.record.span > 0 ? e.record.work / e.record.span : 0;
      }
      records_.push_back(e.record);
      record_leaves_.push_back(e.leaf);
    }
    jobs_.erase(it);
  }

  Plan plan(const SystemView& view) override
  {
    const double L = spec_.quantum;
    if (unresolved_states_ > 0) { // a job's record stays where it is: look for the new ones only
      for (const JobState* s : view.jobs)
        if (auto it = jobs_.find(s->job->id); it != jobs_.end()) it->second.state = s;
      unresolved_states_ = 0;
    }
    if (std::isinf(next_boundary_)) // after an idle spell: the tree decides at the next boundary, not before
      next_boundary_ = std::ceil(view.now / L - kTimeTolerance) * L;
    // Within the runtime's instant (core/time.hpp) of the boundary is at the boundary: the scheduler serves no second
    // wake-up so close to a decision (a segment of a job that ends a hair before the boundary).
    if (view.now < next_boundary_ - kTimeEpsilon) {
      // Between boundaries: what the last round decided, less the jobs that ended; laid out again on the processors
      // still up when a host went down (an owner came back, a failure) since.
      // Every set of placed_ is within the processors up when it was laid out (up_listed_): those still up, all are.
      bool all_up = view.up == up_listed_;
      if (!all_up) {
        all_up = true;
        for (Placed& p : placed_)
          all_up = all_up && view.up.contains(processors_of(p));
      }
      Plan same;
      if (!all_up) {
        same = layout(view);
        relayout_ = true; // on the processors up now: the next boundary lays the plan out again
      } else if (holding_all() && !requeued_from_plan_) {
        return last_plan_again();
      } else {
        same = placed_plan();
      }
      requeued_from_plan_ = false;
      stalls_.recycle(same.stall);
      same.until = next_boundary_;
      return same;
    }
    const auto m = static_cast<long>(std::llround(view.now / L));
    const double t = static_cast<double>(m) * L;
    const double P = static_cast<double>(view.up.count());
    round(m, t, P);
    const bool idle = arrivals_.empty() && std::all_of(leaves_.begin(), leaves_.end(),
                                                       [this](hs::TreeVertex v) { return leaf_jobs_[v].empty(); });
    next_boundary_ = idle ? std::numeric_limits<double>::infinity() : t + L;
    // The round gave every job what it had (bit for bit), none came or left, the processors up are the same and every
    // job of the plan holds its processors: the plan would be the last one again, which the driver need not apply.
    if (!relayout_ && view.up == laid_out_up_ && holding_all()) {
      new_stall_.clear();
      return last_plan_again();
    }
    Plan laid_out = layout(view);
    relayout_ = false;
    requeued_from_plan_ = false;
    laid_out_up_ = view.up;
    laid_out.until = next_boundary_;
    return laid_out;
  }

  PolicyReport report() const override;

  /* The maps of each plan handed back are the next plan's (layout(), placed_plan()): the jobs of both keep their nodes,
   * in place (found, not inserted), and the others' nodes are reused: a plan per round built its maps' nodes anew, a
   * node per job (the run, the share) per round laid out. */
  void reuse_plan(Plan&& plan) override
  {
    runs_.keep(plan.run);
    shares_.keep(plan.share);
    stalls_.keep(plan.stall);
  }

 private:
  /* Every job of the plan in force holds its processors now (it is running, or stalled on them). */
  bool holding_all() const
  {
    for (const Placed& p : placed_)
      if (p.entry->state == nullptr || !p.entry->state->holds_processors()) return false;
    return true;
  }
  Plan last_plan_again()
  {
    Plan again;
    again.same_as_last = true;
    again.until = next_boundary_;
    again.repeats = true; // see layout()
    return again;
  }

  struct Feedback {
    double desire = 0;
    long unfinished = 0;
    double delay = 0;
  };
  struct Allotment {
    double processors = 0;
    double effective = 0;
    // Messages over the platform: when it reaches the child, and the boundary of the root's round it derives from (the
    // feedback it answers was sent then; -1: a share of nothing, sent before any root decision).
    double arrival = 0;
    double origin = -1;
    bool counted = false; // in the allotment delays
    long round = 0;       // the sender's round (m)
  };
  struct Node {
    int level = 2;
    long parent = -1;
    std::vector<hs::TreeVertex> kids;
    size_t slot = 0;
    long period = 1;                // its quantum in quanta of L
    std::vector<Feedback> feedback; // its children's latest
    std::vector<double> sent;
    std::deque<Allotment> pending;
    double allotment = 0;
    double delay_to_report = 0;
    double child_delay = 0;
    double desire = 0;
    long unfinished = 0;
    // Messages over the platform: one message's time to the parent and from it, the instant the node decides in the
    // round under way, and the origin (see Allotment) of the allotment it holds.
    double up_delay = 0;
    double down_delay = 0;
    double decides_at = 0;
    double origin = -1;
  };
  struct JobEntry {
    int leaf = 0;
    bool admitted = false;
    const JobState* state = nullptr;
    double desire = hs::kInitialDesire;
    double allotment = 0;
    double stall = 0; // seconds of stall still to come
    // The quantum in progress: its start, and the job's measures then.
    double quantum_start = -1;
    double work_mark = 0;
    double span_mark = 0;
    double stalled = 0; // of this quantum
    hs::QuantumFeedback last;
    bool ran = false;
    double previous_parallelism = hs::kInitialDesire;
    hs::JobRecord record;
  };

  JobEntry fresh_entry(JobId id, int leaf, double release) const
  {
    JobEntry e;
    e.leaf = leaf;
    e.record.id = id;
    e.record.release = release;
    return e;
  }

  /* The job arrives (submitted, or requeued after leave()) on `leaf`, released at `release`: a fresh entry, waiting to
   * be admitted. */
  void arrive(const Job& job, int leaf, double release)
  {
    unresolved_states_++;
    first_submission_ = std::min(first_submission_, job.submit_time);
    jobs_.insert_or_assign(job.id, fresh_entry(job.id, leaf, release));
    arrivals_.push_back(job.id);
  }

  /* The job `e` leaves the plan in force and its leaf (or the arrivals, not admitted yet), having ended `how` at `now`:
   * for good (job_ended()) or to come again (job_requeued(), as failed). */
  void leave(JobEntry& e, JobEnd how, double now)
  {
    // The common makespan's last finish (output/metrics.cpp): every job that ran, whatever its end. A requeued job's
    // start is cleared before it comes here (it ends again later), and one that never started does not count.
    if (how == JobEnd::completed || (e.state != nullptr && e.state->started()))
      last_finish_ = std::max(last_finish_, now);
    auto placed = std::find_if(placed_.begin(), placed_.end(), [&e](const Placed& p) { return p.entry == &e; });
    const bool in_plan = placed != placed_.end();
    relayout_ = relayout_ || in_plan; // the others' places along the processors move
    // Its host failed: requeued, it stays in the system without its processors, and the last plan cannot be claimed
    // again (Plan::same_as_last) until a plan without it is sent (a job failed for good counts alike).
    requeued_from_plan_ = requeued_from_plan_ || (how == JobEnd::failed && in_plan);
    if (in_plan) placed_.erase(placed);
    if (!e.admitted) {
      arrivals_.erase(std::remove(arrivals_.begin(), arrivals_.end(), e.record.id), arrivals_.end());
      return;
    }
    auto& list = leaf_jobs_[leaves_[static_cast<size_t>(e.leaf)]];
    list.erase(std::remove(list.begin(), list.end(), &e), list.end());
  }

  /* The plan in force again as a plan of its own (placed_: the last plan laid out, less the jobs that ended since). */
  Plan placed_plan()
  {
    Plan plan;
    auto run = runs_.build(plan.run);
    auto share = shares_.build(plan.share);
    for (Placed& p : placed_) {
      const JobId id = p.entry->record.id;
      run.put(id) = processors_of(p);
      if (!spec_.whole_processors) share.put(id) = p.share;
    }
    run.finish();
    share.finish();
    return plan;
  }
  /* Notes a job of the plan being laid out in placed_'s next slot (whose set keeps its storage from plan to plan). */
  void place(size_t& slot, const JobEntry* entry, const ResourceSet& processors, double share)
  {
    if (slot == placed_.size()) placed_.emplace_back();
    Placed& p = placed_[slot++];
    p.entry = entry;
    p.processors = processors;
    p.listed = false;
    p.share = share;
  }
  void read_tree(const Params& p, std::uint64_t seed)
  {
    const std::vector<std::string> parents = p.get_list("tree");
    const std::string& file = p.get_string("tree_file");
    const bool generated_keys_given = p.get_int("levels") != 3 || p.get_int("min_children") != 1 ||
                                      p.get_int("max_children") != 5 || p.get_int("tree_seed") != -1;
    if (!parents.empty() && !file.empty())
      throw InputError("policy.params.tree_file: give tree or tree_file, not both");
    if ((!parents.empty() || !file.empty()) && generated_keys_given)
      throw InputError(std::string("policy.params.") + (parents.empty() ? "tree_file" : "tree") +
                       ": an explicit tree has no generation settings (levels, min_children, max_children, tree_seed)");
    try {
      if (!parents.empty()) {
        std::vector<int> list;
        for (const std::string& item : parents) {
          size_t used = 0;
          long value = 0;
          try {
            value = std::stol(item, &used);
          } catch (const std::exception&) {
            used = 0;
          }
          if (used != item.size() || value < -1 || value > 10000)
            throw InputError("policy.params.tree: expected parent indices (-1 for the root), got '" + item + "'");
          list.push_back(static_cast<int>(value));
        }
        tree_ = hs::tree_from_parents(list);
        return;
      }
      if (!file.empty()) {
        std::ifstream in(file);
        if (!in) throw InputError("policy.params.tree_file: cannot open " + file);
        try {
          const hs::TreeDescription d = hs::tree_from_graphml(in);
          if (d.parents.size() > 10000) throw InputError(file + ": a tree of more than 10000 nodes");
          tree_ = hs::tree_from_parents(d.parents);
          graphml_hosts_ = d.hosts;
        } catch (const std::invalid_argument& e) {
          throw InputError(file + ": " + e.what());
        }
        return;
      }
    } catch (const std::invalid_argument& e) {
      throw InputError(std::string("policy.params.") + (parents.empty() ? "tree_file" : "tree") + ": " + e.what());
    }
    const long levels = p.get_int("levels");
    const long min_children = p.get_int("min_children");
    const long max_children = p.get_int("max_children");
    if (max_children < min_children || max_children > 1000)
      throw InputError("policy.params.max_children: must be in [min_children, 1000]");
    double largest = 0;
    for (long k = 0; k <= levels - 2; k++)
      largest += std::pow(static_cast<double>(max_children), static_cast<double>(k));
    if (largest > 10000)
      throw InputError("policy.params.levels: a generated tree of " + std::to_string(levels) + " levels and up to " +
                       std::to_string(max_children) + " children per node may have more than 10000 nodes");
    const long tree_seed = p.get_int("tree_seed");
    tree_ = hs::generate_tree(static_cast<int>(levels), static_cast<int>(min_children), static_cast<int>(max_children),
                              tree_seed < 0 ? seed : static_cast<std::uint64_t>(tree_seed));
  }

  /* The quantum that began at e.quantum_start ends at `end` (a boundary, or the job's completion): its measures go
   * into the job's record and its feedback (leaf_scheduler.cpp's run_quantum, on what the runtime measured). */
  void close_quantum(JobEntry& e, double end, bool finished)
  {
    if (e.quantum_start < 0) return;
    const double L = spec_.quantum;
    const double stalled = e.stalled;
    const double elapsed = finished ? std::max(0.0, end - e.quantum_start - stalled) : L - stalled;
    const double work = e.state != nullptr ? e.state->work_done - e.work_mark : 0;
    const double span = e.state != nullptr ? e.state->span_done - e.span_mark : 0;
    e.last = {work, span, e.allotment, L};
    e.ran = true;
    e.record.stall_time += stalled;
    if (spec_.job_scheduler != hs::JobScheduler::equi && e.allotment >= e.desire * (1 - 1e-12))
      e.record.satisfied_time += elapsed;
    e.record.total_allotment += e.allotment * (stalled + elapsed);
    if (span > 0) {
      const double A = work / span;
      // The larger of A / A' and A' / A, with one division: the larger ratio is the one whose numerator is larger.
      const double ratio = A >= e.previous_parallelism ? A / e.previous_parallelism : e.previous_parallelism / A;
      e.record.transition_factor = std::max(e.record.transition_factor, ratio);
      e.previous_parallelism = A;
    }
    if (e.record.start < 0 && e.allotment > 0) e.record.start = e.quantum_start;
    e.quantum_start = -1;
  }

  /* Messages over the platform: where each node runs (as the former hierarchy: simulator placed its actors): the host
   * the tree gives it (policy.params.tree_hosts, or a GraphML node's `host`), else the site front ends (role frontend,
   * natural name order): the root on the first, the root's i-th child and its whole subtree on front end i mod (their
   * number). Then each node's message times to its parent and back, from the routes (MessageNetwork::time). */
  void place_nodes(const Params& p, const MessageNetwork* network)
  {
    if (network == nullptr) throw InputError("policy.params.messages: platform needs a platform to send messages over");
    std::vector<std::string> named = p.get_list("tree_hosts");
    const bool from_graphml = named.empty();
    if (from_graphml) named = graphml_hosts_;
    const size_t n = nodes_.size();
    if (named.size() > n)
      throw InputError("policy.params.tree_hosts: " + std::to_string(named.size()) + " hosts for a tree of " +
                       std::to_string(n) + " nodes");
    hosts_.assign(n, std::string());
    std::vector<size_t> site(n, 0);
    for (size_t i = 0; i < nodes_[0].kids.size(); i++)
      site[nodes_[0].kids[i]] = i;
    for (size_t v = 0; v < n; v++) { // parents come before their children
      if (nodes_[v].parent > 0) site[v] = site[static_cast<size_t>(nodes_[v].parent)];
      if (v < named.size() && !named[v].empty()) {
        hosts_[v] = named[v];
        // A host not on the platform is the key's fault, not the messages': a message from the host to itself asks
        // only that the host exist (it takes no time).
        network->time(named[v], named[v], 0,
                      (from_graphml ? "policy.params.tree_file: the host attribute of tree node "
                                    : "policy.params.tree_hosts: the host of tree node ") +
                          std::to_string(v + 1));
        continue;
      }
      if (network->front_ends.empty())
        throw InputError("policy.params.messages: platform: the platform has no host with role 'frontend' to place "
                         "the schedulers on (or give every tree node a host: policy.params.tree_hosts)");
      hosts_[v] = network->front_ends[site[v] % network->front_ends.size()];
    }
    for (size_t v = 1; v < n; v++) {
      const std::string& parent = hosts_[static_cast<size_t>(nodes_[v].parent)];
      const std::string why =
          "policy.params.messages: tree node " + std::to_string(v + 1) + " and its parent exchange messages";
      nodes_[v].up_delay = network->time(hosts_[v], parent, message_bytes_, why);
      nodes_[v].down_delay = network->time(parent, hosts_[v], message_bytes_, why);
    }
  }

  void round(long m, double t, double P)
  {
    const size_t n = nodes_.size();
    // The leaves' boundary: close the last quantum of their jobs and compute their desires, admit the new ones (a
    // fresh entry has not run: its desire is the initial one). Each leaf's desire sum (DS) is added up on the way, in
    // its list's order (its jobs, then the new ones), as the up pass below would: one pass over the jobs, not three.
    if (leaf_desire_.size() != nodes_.size()) leaf_desire_.assign(nodes_.size(), 0.0);
    for (hs::TreeVertex v : leaves_) {
      double sum = 0;
      for (JobEntry* entry : leaf_jobs_[v]) {
        JobEntry& e = *entry;
        close_quantum(e, t, false);
        if (e.ran) {
          if (spec_.job_scheduler == hs::JobScheduler::a_control)
            e.desire = hs::a_control_desire(e.desire, e.last, spec_.convergence_rate);
          else if (spec_.job_scheduler == hs::JobScheduler::a_greedy)
            e.desire = hs::a_greedy_desire(e.desire, e.last, spec_.a_greedy);
        }
        sum += e.desire;
      }
      leaf_desire_[v] = sum;
    }
    for (JobId id : arrivals_) {
      JobEntry& e = jobs_.at(id);
      e.admitted = true;
      const hs::TreeVertex v = leaves_[static_cast<size_t>(e.leaf)];
      leaf_jobs_[v].push_back(&e);
      leaf_desire_[v] += e.desire;
    }
    arrivals_.clear();
    // Up: children (higher indices) before parents.
    for (size_t i = n; i-- > 0;) {
      Node& node = nodes_[i];
      if (m % node.period != 0) continue;
      node.desire = 0;
      node.unfinished = 0;
      node.child_delay = 0;
      // A node above level 2 decides when the last of its children's feedback is in (free messages: at t).
      node.decides_at = t;
      for (hs::TreeVertex kid : node.kids)
        node.decides_at = std::max(node.decides_at, nodes_[kid].decides_at + nodes_[kid].up_delay);
      if (node.kids.empty()) {
        const auto& list = leaf_jobs_[i];
        if (spec_.job_scheduler == hs::JobScheduler::equi)
          node.desire = list.empty() ? 0 : std::numeric_limits<double>::infinity();
        else
          node.desire = leaf_desire_[i];
        node.unfinished = static_cast<long>(list.size());
      } else {
        for (const Feedback& f : node.feedback) {
          node.desire += f.desire;
          node.unfinished += f.unfinished;
          node.child_delay += f.delay;
        }
        node.delay_to_report += node.child_delay;
      }
      if (node.parent >= 0 && m % nodes_[static_cast<size_t>(node.parent)].period == 0) {
        nodes_[static_cast<size_t>(node.parent)].feedback[node.slot] =
            Feedback{node.desire, node.unfinished, node.delay_to_report};
        node.delay_to_report = 0;
      }
    }
    // Down: parents before children.
    double allotted = 0;
    bool deprived = false;
    for (size_t i = 0; i < n; i++) {
      Node& node = nodes_[i];
      if (m % node.period != 0) continue;
      const double now = node.decides_at + kTimeTolerance * spec_.quantum;
      // Over the platform a parent decides this round after its child did (it waits for the child's feedback), so what
      // it sends now reaches the child's next decision at the earliest, even from the same host at the same instant.
      auto arrived = [&](const Allotment& a) { return a.arrival <= now && (!messages_over_platform_ || a.round < m); };
      if (node.kids.empty()) // a leaf's allotment delays: from the root's round to the arrival
        for (Allotment& a : node.pending)
          if (arrived(a) && !a.counted && a.origin >= 0) {
            a.counted = true;
            const double delay = a.arrival - a.origin;
            allotment_delay_min_ = allotments_received_ == 0 ? delay : std::min(allotment_delay_min_, delay);
            allotment_delay_max_ = std::max(allotment_delay_max_, delay);
            allotment_delay_sum_ += delay;
            allotments_received_++;
          }
      // Messages from one parent arrive in the order they were sent (the same time each): the first not yet arrived or
      // not yet effective holds back the later ones.
      while (!node.pending.empty() && arrived(node.pending.front()) && node.pending.front().effective <= now) {
        node.allotment = node.pending.front().processors;
        node.origin = node.pending.front().origin;
        node.pending.pop_front();
      }
      if (node.parent < 0) {
        node.allotment = P;
        node.origin = t;
      }
      if (node.kids.empty()) {
        allot_jobs(i, node, t, allotted, deprived);
        continue;
      }
      std::vector<bool>& active = all_unfinished_;
      std::vector<double>& desires = desires_scratch_;
      active.clear();
      desires.clear();
      for (const Feedback& f : node.feedback) {
        active.push_back(f.unfinished > 0);
        desires.push_back(f.desire);
      }
      std::vector<double>& shares = shares_scratch_;
      hs::divide_processors_into(shares, division_scratch_, spec_.allocator, spec_.job_scheduler, active, desires,
                                 node.allotment, spec_.whole_processors);
      const double effective = node.decides_at + (shares != node.sent ? node.child_delay : 0);
      for (size_t k = 0; k < node.kids.size(); k++)
        nodes_[node.kids[k]].pending.push_back(
            Allotment{shares[k], effective, node.decides_at + nodes_[node.kids[k]].down_delay, node.origin, false, m});
      node.sent.swap(shares); // the scratch list takes the old one, rewritten at the next division
    }
    leaf_quanta_ += static_cast<long>(leaves_.size());
    allotted_time_ += allotted * spec_.quantum;
    if (deprived) {
      deprived_quanta_++;
      if (allotted < P * (1 - 1e-9)) {
        deprived_with_idle_++;
        if (first_idle_violation_ < 0) {
          first_idle_violation_ = t;
          idle_at_violation_ = P - allotted;
        }
      }
    }
    processors_ = P;
  }

  /* A leaf divides its allotment among its jobs (every leaf decides at every boundary), and each job's next quantum
   * begins at t: its measures now, and the part of its stall that falls in that quantum. */
  void allot_jobs(hs::TreeVertex v, Node& node, double t, double& allotted, bool& deprived)
  {
    const auto& list = leaf_jobs_[v];
    std::vector<double>& desires = desires_scratch_;
    desires.clear();
    for (const JobEntry* e : list)
      desires.push_back(e->desire);
    leaf_unfinished_.resize(list.size(), true);
    std::vector<double>& shares = leaf_shares_scratch_;
    hs::divide_processors_into(shares, division_scratch_, spec_.allocator, spec_.job_scheduler, leaf_unfinished_,
                               desires, node.allotment, spec_.whole_processors);
    for (size_t i = 0; i < list.size(); i++) {
      JobEntry& e = *list[i];
      const double moved = std::fabs(shares[i] - e.allotment);
      const double stall = moved * spec_.quantum * spec_.cost_factor;
      relayout_ = relayout_ || shares[i] != e.allotment || stall > 0;
      e.stall += stall;
      node.delay_to_report += stall; // the leaf's delay, reported up at its parent's next boundary
      if (stall > 0) new_stall_[e.record.id] = stall; // none: 0 (layout())
      e.allotment = shares[i];
      allotted += shares[i];
      if (spec_.job_scheduler != hs::JobScheduler::equi && e.allotment < e.desire * (1 - 1e-12)) deprived = true;
      e.quantum_start = t;
      e.work_mark = e.state != nullptr ? e.state->work_done : 0;
      e.span_mark = e.state != nullptr ? e.state->span_done : 0;
      e.stalled = std::min(e.stall, spec_.quantum);
      e.stall -= e.stalled;
    }
  }

  /* The round's allotments as a plan on the processors that are up. */
  Plan layout(const SystemView& view)
  {
    Plan plan;
    // placed_ follows the plan's jobs.
    size_t placed = 0;
    if (!(view.up == up_listed_) || up_list_.empty()) { // the processors up, listed again only when they change
      up_listed_ = view.up;
      up_list_.clear();
      view.up.for_each([this](int p) { up_list_.push_back(p); });
      // Where the run of consecutive processors through each place of the list ends: a job's places are set a run (a
      // word) at a time, not a processor at a time (10,000 per layout on 10,000 hosts).
      up_run_end_.resize(up_list_.size());
      for (size_t k = up_list_.size(); k-- > 0;)
        up_run_end_[k] = k + 1 < up_list_.size() && up_list_[k + 1] == up_list_[k] + 1 ? up_run_end_[k + 1] : k + 1;
    }
    const std::vector<int>& up = up_list_;
    if (up.empty()) { // every host down: nothing runs until one comes back
      new_stall_.clear();
      placed_.clear();
      return plan;
    }
    const int capacity = view.up.capacity();
    auto run = runs_.build(plan.run); // the last plan's maps (reuse_plan), their jobs' nodes kept
    auto shares = shares_.build(plan.share);
    std::vector<std::pair<const JobEntry*, double>>& order = order_scratch_; // leaves, then admission order
    order.clear();
    double total = 0;
    for (hs::TreeVertex v : leaves_)
      for (const JobEntry* e : leaf_jobs_[v])
        if (e->allotment > 0) {
          order.emplace_back(e, e->allotment);
          total += e->allotment;
        }
    // With reallocation delays a subtree keeps its old shares until its new ones arrive, so the leaves' allotments may
    // add up to more than P for a while: on the machine, every share is then cut by the same factor (the policy's
    // records keep the allotments it decided).
    const auto P = static_cast<double>(up.size());
    if (total > P)
      for (auto& entry : order)
        entry.second *= P / total;
    if (spec_.whole_processors) {
      ResourceSet free = view.up;
      std::vector<ResourceSet> kept(order.size());
      for (size_t i = 0; i < order.size(); i++) {
        const JobState* s = order[i].first->state;
        if (s == nullptr || !s->holds_processors()) continue;
        ResourceSet mine = s->processors & free;
        const int want = static_cast<int>(std::lround(order[i].second));
        kept[i] = mine.count() > want ? mine.lowest(want) : mine;
        if (kept[i].capacity() == 0) kept[i] = ResourceSet(capacity);
        free -= kept[i];
      }
      for (size_t i = 0; i < order.size(); i++) {
        const int want = static_cast<int>(std::lround(order[i].second));
        ResourceSet mine = kept[i].capacity() != 0 ? kept[i] : ResourceSet(capacity);
        ResourceSet more = free.lowest(std::min(want - mine.count(), free.count())); // cut shares round to more
        free -= more;
        mine |= more;
        if (mine.empty()) continue;
        place(placed, order[i].first, mine, 0);
        run.put(order[i].first->record.id) = std::move(mine);
      }
      run.finish();
      shares.finish();
    } else {
      double x = 0; // McNaughton's wrap-around: each share after the previous one along the processors
      const auto last = static_cast<double>(up.size());
      for (const auto& [entry, share] : order) {
        const double lo = std::min(x, last);
        const double hi = std::min(x + share, last);
        x += share;
        // floor(lo) and ceil(hi - 1e-12) by conversions (lo >= 0, and hi - 1e-12 > -1 converts to 0 as its ceil
        // does): baseline x86-64 has no rounding instruction, and these two were a tenth of the layout's work.
        auto first = static_cast<size_t>(lo);
        const double top = hi - 1e-12;
        auto end = static_cast<size_t>(top);
        if (static_cast<double>(end) < top) end++;
        if (first >= up.size()) first = up.size() - 1;
        end = std::min(std::max(end, first + 1), up.size());
        if (placed == placed_.size()) placed_.emplace_back();
        Placed& p = placed_[placed++];
        p.entry = entry;
        p.first = first; // its set is written in the plan's map below; in placed_ only if asked for (processors_of())
        p.end = end;
        p.listed = true;
        p.share = std::min(share, static_cast<double>(end - first)); // its places in the list of processors up
      }
      // Into the plan's maps in id order: each build is then one walk along the last plan's map, a job of the last plan
      // found in place (ReusedMap::Builder::put()). The layout's order (leaves, then admission) is that order under one
      // leaf; under several, each job would be a look-up in both.
      std::vector<size_t>& by_id = by_id_scratch_;
      by_id.resize(placed);
      bool sorted = true;
      for (size_t k = 0; k < placed; k++) {
        by_id[k] = k;
        sorted = sorted && (k == 0 || placed_[k - 1].entry->record.id < placed_[k].entry->record.id);
      }
      if (!sorted)
        std::sort(by_id.begin(), by_id.end(),
                  [this](size_t a, size_t b) { return placed_[a].entry->record.id < placed_[b].entry->record.id; });
      for (size_t k : by_id) {
        const Placed& p = placed_[k];
        set_places(run.put(p.entry->record.id), p.first, p.end); // a node's set keeps its storage
        shares.put(p.entry->record.id) = p.share;
      }
      run.finish();
      shares.finish();
    }
    placed_.resize(placed);
    // A job holding processors stalls for the new reallocation on top of what remains of its stall; one that comes
    // back from suspension owes the whole of what remains (suspended, it could not pay it).
    auto stall_map = stalls_.build(plan.stall);
    if (spec_.cost_factor > 0) { // CF = 0: no allotment ever stalls a job (allot_jobs())
      for (const auto& [entry, share] : order) {
        const JobEntry& e = *entry;
        const JobId id = e.record.id;
        if (spec_.whole_processors && plan.run.count(id) == 0) continue; // given no processor
        const bool holds = e.state != nullptr && e.state->holds_processors();
        auto fresh = new_stall_.find(id);
        const double stall = holds ? (fresh == new_stall_.end() ? 0.0 : fresh->second) : e.stalled + e.stall;
        if (stall > 0) stall_map.put(id) = stall;
      }
    }
    stall_map.finish();
    new_stall_.clear();
    // The next round follows from the time and the jobs' measures, which the runtime brings to the boundary (w(q), l(q)
    // from their records): its boundary may be reached on the scheduler's virtual clock (Plan::repeats), which at a
    // fixed point (89-91% of ac-ds's and equi-equi's rounds on KTH) saves the SimGrid wake-up.
    plan.repeats = true;
    return plan;
  }

  hs::HierarchySpec spec_;
  bool messages_over_platform_ = false;
  double message_bytes_ = 0;
  std::vector<std::string> graphml_hosts_; // a GraphML tree's node hosts ("" where not given)
  std::vector<std::string> hosts_;         // by vertex, messages over the platform
  long allotments_received_ = 0;           // by leaves, and their delays
  double allotment_delay_sum_ = 0;
  double allotment_delay_min_ = 0;
  double allotment_delay_max_ = 0;
  RandomStream leaves_stream_;
  hs::SchedulerTree tree_;
  int levels_ = 2;
  std::vector<Node> nodes_;
  std::vector<hs::TreeVertex> leaves_;
  std::vector<std::vector<JobEntry*>> leaf_jobs_; // by vertex: the jobs a leaf holds (in jobs_), in admission order
  std::map<JobId, JobEntry> jobs_;
  std::vector<JobId> arrivals_; // submitted since the last boundary, in submission order
  std::map<JobId, double> new_stall_;
  std::vector<double> leaf_desire_;     // by vertex: a leaf's jobs' desire sum this round
  std::vector<double> desires_scratch_; // a node's children's desires and who is unfinished, kept between rounds
  std::vector<bool> all_unfinished_;
  // A leaf's jobs are all unfinished: all true, sized to the leaf divided last (the nodes above fill all_unfinished_,
  // so one list for both made each leaf's division fill it again).
  std::vector<bool> leaf_unfinished_;
  std::vector<double> shares_scratch_; // a node's division, likewise
  // A leaf's division: apart from the nodes' (whose lists are swapped with the shares sent), it keeps its length from
  // round to round as long as the leaf's jobs stay the same.
  std::vector<double> leaf_shares_scratch_;
  hs::DivisionScratch division_scratch_;
  std::vector<std::pair<const JobEntry*, double>> order_scratch_; // layout()'s jobs and shares
  std::vector<size_t> by_id_scratch_;                             // layout()'s places in placed_ by job id
  ResourceSet up_listed_;                                         // the processors up listed in up_list_
  std::vector<int> up_list_;
  std::vector<size_t> up_run_end_; // by place in up_list_: the end of the run of consecutive processors it is in
  // The maps of the plans handed back (reuse_plan), in whose nodes the next plans' are built.
  ReusedMap<ResourceSet> runs_;
  ReusedMap<double> shares_;
  ReusedMap<double> stalls_;
  /* A job of the plan in force: the last plan laid out, less the jobs that ended since (not sent again but claimed
   * again, Plan::same_as_last, or rebuilt by placed_plan()). Kept as a list that reuses its storage rather than as a
   * copy of the plan sent: at every plan laid out, a copy built and freed a map entry per job (ag-ds lays the plan out
   * again at 99% of the rounds). */
  struct Placed {
    const JobEntry* entry = nullptr; // in jobs_
    ResourceSet processors;
    double share = 0; // its Plan::share (fractional allotments; unused with whole processors)
    // A fractional layout's set is the places [first, end) of up_list_ (which only layout() lists again, laying out
    // placed_ anew), written in `processors` only when asked for (processors_of()): at a boundary it goes into the
    // plan's map only, not written here too and copied from here (ag-ds lays out every job at nearly every boundary).
    size_t first = 0;
    size_t end = 0;
    bool listed = false; // `processors` is not written yet: the places are
  };
  std::vector<Placed> placed_;
  /* The set of the places [first, end) of the list of processors up, a run of consecutive processors at a time (a
   * word, not a processor at a time: 10,000 per layout on 10,000 hosts). */
  void set_places(ResourceSet& set, size_t first, size_t end) const
  {
    set.clear(up_listed_.capacity());
    for (size_t k = first; k < end;) {
      const size_t run_end = std::min(up_run_end_[k], end);
      set.add_range(up_list_[k], static_cast<int>(run_end - k));
      k = run_end;
    }
  }
  /* A job's set in the plan in force, written out of its places in the list of processors up the first time it is
   * asked for (see Placed::listed). */
  const ResourceSet& processors_of(Placed& p) const
  {
    if (p.listed) {
      set_places(p.processors, p.first, p.end);
      p.listed = false;
    }
    return p.processors;
  }
  // The plan must be laid out again at the next boundary (a job came, left or got another allotment), else it is
  // the last plan again (placed_); the processors up when it was laid out; jobs submitted since their JobState was
  // looked up.
  bool relayout_ = true;
  bool requeued_from_plan_ = false; // a job of placed_ was requeued since its plan was sent
  ResourceSet laid_out_up_;
  long unresolved_states_ = 0;
  double next_boundary_ = std::numeric_limits<double>::infinity();
  double processors_ = 0;
  bool check_ = false;
  bool check_lemma_ = false;
  std::vector<hs::JobRecord> records_;
  std::vector<int> record_leaves_; // the leaf of each of records_ (a map by job cost an entry and a look-up per job)
  long leaf_quanta_ = 0;
  double allotted_time_ = 0; // processor-seconds the leaves allotted to jobs
  double first_submission_ = INFINITY; // the analysis counts time from it (analysis.hpp)
  double last_finish_ = -INFINITY;     // of every job that ran, killed or failed ones too: summary.json's last_finish
  long deprived_quanta_ = 0;
  long deprived_with_idle_ = 0;
  double first_idle_violation_ = -1;
  double idle_at_violation_ = 0;
};

PolicyReport HierarchicalPolicy::report() const
{
  PolicyReport r;
  r.job_columns = {"leaf", "transition_factor", "satisfied_time", "total_allotment", "stall_time"};
  for (size_t i = 0; i < records_.size(); i++) {
    const hs::JobRecord& rec = records_[i];
    r.job_values[rec.id] = {static_cast<double>(record_leaves_[i]), rec.transition_factor, rec.satisfied_time,
                            rec.total_allotment, rec.stall_time};
  }
  r.summary_texts = {{"algorithm", hs::algorithm_name(spec_)},
                     {"allotments", spec_.whole_processors ? "whole" : "fractional"},
                     {"messages", messages_over_platform_ ? "platform" : "free"}};
  const std::vector<long> per_level = hs::nodes_per_level(tree_);
  r.summary_numbers = {{"levels", levels_},
                       {"tree_nodes", static_cast<double>(nodes_.size())},
                       {"leaves", static_cast<double>(leaves_.size())},
                       {"quantum", spec_.quantum},
                       {"quantum_factor", spec_.quantum_factor},
                       {"cost_factor", spec_.cost_factor}};
  std::vector<hs::JobRecord> records = records_;
  std::sort(records.begin(), records.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  r.summary_numbers.emplace_back("reallocation_stall_time", 0);
  double stall = 0;
  for (const hs::JobRecord& rec : records)
    stall += rec.stall_time;
  r.summary_numbers.back().second = stall;
  r.summary_numbers.emplace_back("deprived_quanta", deprived_quanta_);
  r.summary_numbers.emplace_back("deprived_quanta_with_idle_processors", deprived_with_idle_);
  r.summary_numbers.emplace_back("leaf_quanta", leaf_quanta_);
  // From the boundary of the root's round an allotment derives from (its feedback was sent then) to its arrival at a
  // leaf: 0 with free messages.
  r.summary_numbers.emplace_back("allotment_delay_min", allotment_delay_min_);
  r.summary_numbers.emplace_back(
      "allotment_delay_mean",
      allotments_received_ > 0 ? allotment_delay_sum_ / static_cast<double>(allotments_received_) : 0.0);
  r.summary_numbers.emplace_back("allotment_delay_max", allotment_delay_max_);
  r.summary_flags = {{"invariants_checked", check_}};
  if (records.empty()) return r;
  // The analysis needs each job's work and span: the runtime's measures at its end (what the job reported). Its
  // instance starts at the first submission, as the common makespan does.
  // A job killed (walltime, owners) or failed has no whole work and span: the analysis's instance is the completed
  // jobs, and Theorem 1's check reads their last finish. The ratios use the common makespan, summary.json's.
  const hs::AnalysisFigures a = hs::analyse(records, processors_, first_submission_);
  const double makespan = std::max(a.makespan, last_finish_ - first_submission_);
  r.summary_numbers.emplace_back("total_work", a.total_work);
  r.summary_numbers.emplace_back("lower_bound", a.lower_bound);
  r.summary_numbers.emplace_back("makespan_over_lower_bound", makespan / a.lower_bound);
  r.summary_numbers.emplace_back("transition_factor", a.transition_factor);
  r.summary_numbers.emplace_back("theorem1_bound", a.theorem1_bound);
  r.summary_numbers.emplace_back("makespan_over_theorem1_bound", makespan / a.theorem1_bound);
  r.summary_numbers.emplace_back("lemma1_satisfied_ratio", a.lemma1_satisfied_ratio);
  r.summary_numbers.emplace_back("lemma1_allotment_ratio", a.lemma1_allotment_ratio);
  // The paper's utilization of what was allotted: the work over the processor time allotted. Its other one, the work
  // over P x makespan, is summary.json's work_utilization, which every family reports (output/metrics.hpp).
  r.summary_numbers.emplace_back("allotted_utilization", allotted_time_ > 0 ? a.total_work / allotted_time_ : 0);
  if (check_ && deprived_with_idle_ > 0) {
    r.invariant_violation = "at t = " + format_number(first_idle_violation_) + " a job is deprived but " +
                            format_number(idle_at_violation_) + " of " + format_number(processors_) +
                            " processors are not allotted (" + std::to_string(deprived_with_idle_) + " such quanta)";
    return r;
  }
  if (!check_lemma_) return r;
  auto job = [&records](long id) -> const hs::JobRecord& {
    return *std::find_if(records.begin(), records.end(), [id](const auto& x) { return x.id == id; });
  };
  if (a.lemma1_satisfied_ratio > 1 + 1e-9) {
    const hs::JobRecord& j = job(a.lemma1_satisfied_job);
    r.invariant_violation = "Lemma 1 violated by job " + std::to_string(j.id) + ": satisfied time " +
                            format_number(j.satisfied_time) +
                            " > (c + 1) x span = " + format_number((j.transition_factor + 1) * j.span);
  } else if (a.lemma1_allotment_ratio > 1 + 1e-9) {
    const hs::JobRecord& j = job(a.lemma1_allotment_job);
    r.invariant_violation = "Lemma 1 violated by job " + std::to_string(j.id) + ": total allotment " +
                            format_number(j.total_allotment) +
                            " > (c + 1) x work = " + format_number((j.transition_factor + 1) * j.work);
  } else if (a.makespan > a.theorem1_bound * (1 + 1e-9)) {
    r.invariant_violation = "Theorem 1 violated: makespan " + format_number(a.makespan) +
                            " > 2 (c + 1) x lower bound = " + format_number(a.theorem1_bound);
  }
  return r;
}

std::vector<ParamSpec> hierarchical_params()
{
  return {
      // A quantum is at least 100 of the runtime's instants (kTimeEpsilon), so that a boundary is one.
      {"quantum",
       "0.001",
       "L: seconds between two decisions of the level-2 schedulers",
       {},
       ParamRange::at_least(100 * kTimeEpsilon)},
      {"quantum_factor", "1", "QF: level k decides every L QF^(k - 2)", {}, ParamRange::between(1, 64)},
      {"cost_factor",
       "0.0",
       "CF: a job whose allotment changes by x processors stalls x L CF seconds",
       {},
       ParamRange::between(0, 1000)},
      {"allotments",
       "fractional",
       "fractional (time-shared processors, the paper's) or whole processors",
       {"fractional", "whole"}},
      {"levels", "3", "K of a generated tree (levels including the jobs')", {}, ParamRange::between(2, 20)},
      {"min_children",
       "1",
       "generated tree: fewest children of a node above level 2",
       {},
       ParamRange::between(1, 1000)},
      {"max_children",
       "5",
       "generated tree: most children of a node above level 2 (at least min_children)",
       {},
       ParamRange::between(1, 1000)},
      {"tree_seed", "-1", "generated tree: its seed (-1: the simulation's seed)", {}, ParamRange::at_least(-1)},
      {"tree", "[]", "explicit tree: parent indices, root first (-1), a parent before its children"},
      {"tree_file", "", "explicit tree: a GraphML file (edges from parent to child)"},
      {"messages",
       "free",
       "free: the paper's synchronous model without latency; platform: messages between the platform's hosts",
       {"free", "platform"}},
      {"message_bytes",
       "64.0",
       "bytes of one message (messages over the platform; unused under free)",
       {},
       ParamRange::between(0, 1e12)},
      {"tree_hosts", "[]",
       "messages over the platform: the host of each tree node in index order ('' or none: a front end)"},
      {"convergence_rate",
       "0.0",
       "A-Control's v in [0, 1): desire = v d + (1 - v) A",
       {},
       ParamRange{0, 1, false, true}},
      {"utilization_threshold",
       "0.8",
       "A-Greedy's delta: a quantum is efficient when w >= delta a L",
       {},
       ParamRange{0, 1, true, false}},
      {"responsiveness", "2.0", "A-Greedy's rho: the desire's factor up or down", {}, ParamRange::between(1, 1e6)},
      {"invariants", "auto", "check section 3.4's analysis: auto (where it applies), on, off", {"auto", "on", "off"}},
  };
}

struct Variant {
  const char* name;
  const char* description;
  hs::JobScheduler job_scheduler;
  hs::NodeAllocator allocator;
};

const Variant kVariants[] = {
    {"ac-ds", "Cao et al.'s hierarchical scheduling: A-Control desires, Desire-Sum up the tree, DEQ down",
     hs::JobScheduler::a_control, hs::NodeAllocator::deq},
    {"ag-ds", "Cao et al.'s hierarchical scheduling: A-Greedy desires, Desire-Sum up the tree, DEQ down",
     hs::JobScheduler::a_greedy, hs::NodeAllocator::deq},
    {"equi-equi", "Cao et al.'s hierarchical scheduling: EQUI among children with unfinished jobs, and among jobs",
     hs::JobScheduler::equi, hs::NodeAllocator::equi},
    {"ac-equi", "Cao et al.'s hierarchical scheduling: A-Control desires, EQUI between the nodes",
     hs::JobScheduler::a_control, hs::NodeAllocator::equi},
    {"ag-equi", "Cao et al.'s hierarchical scheduling: A-Greedy desires, EQUI between the nodes",
     hs::JobScheduler::a_greedy, hs::NodeAllocator::equi},
    {"equi-ds", "Cao et al.'s hierarchical scheduling: EQUI among a leaf's jobs, Desire-Sum and DEQ between the nodes",
     hs::JobScheduler::equi, hs::NodeAllocator::deq},
};

struct Registrations {
  Registrations()
  {
    for (const Variant& v : kVariants)
      policy_registry().add(
          PolicyInfo{v.name, v.description, hierarchical_params(), nullptr, [v](const PolicyEnv& env) {
                       return std::make_unique<HierarchicalPolicy>(env, v.job_scheduler, v.allocator);
                     }});
  }
} registrations;

} // namespace
} // namespace jobsched
