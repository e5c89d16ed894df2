#include "run/hierarchy.hpp"

#include "core/errors.hpp"
#include "core/json.hpp"
#include "core/time_format.hpp"
#include "output/run_folder.hpp"
#include "platform/host_roles.hpp"
#include "platform/routes.hpp"
#include "policies/hierarchical/analysis.hpp"
#include "policies/hierarchical/leaf_scheduler.hpp"
#include "policies/hierarchical/scheduler_tree.hpp"
#include "run/engine_setup.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <memory>
#include <sstream>
#include <stdexcept>

XBT_LOG_NEW_DEFAULT_CATEGORY(jobsched_hierarchy, "jobsched: hierarchical scheduling of malleable jobs");

namespace jobsched {

namespace hs = hierarchical;

namespace {

/* Up the tree, at the parent's quantum boundary. */
struct FeedbackMessage {
  size_t child = 0;    // the sender's place among its parent's children
  double desire = 0;   // DS: the sum over the sender's subtree (+infinity under EQUI's job scheduler)
  long unfinished = 0; // jobs released to the subtree and not finished (what EQUI looks at)
  double delay = 0;    // reallocation delay accumulated since the last report (section 4.3(4))
};

/* Down the tree: the processors the child may use from `effective` on. `origin` is the boundary of the root's round
 * that this share derives from (the root's division then, passed on by each node with the allotment it held when it
 * divided): the feedback it answers was sent at `origin`. */
struct AllotmentMessage {
  double processors = 0;
  double effective = 0;
  double origin = 0;
};

/* An allotment as a level-2 node's inbox received it (messages over the platform). */
struct ArrivedAllotment {
  AllotmentMessage message;
  double arrival = 0;
};

constexpr double kTimeTolerance = 1e-12;

/* The run's bookkeeping, shared by the actors: the outputs, and the checks of the paper's analysis, which look at all
 * the jobs at once. No scheduling decision reads it. */
struct SharedRun {
  const hs::HierarchySpec* spec = nullptr;
  hs::SchedulerTree tree;
  int levels = 2;
  std::vector<size_t> slot_in_parent;
  std::vector<std::unique_ptr<hs::LeafScheduler>> leaf; // by vertex; null above level 2
  std::vector<sg4::Mailbox*> up;
  std::vector<sg4::Mailbox*> down;
  // Messages over the platform: what each node's inbox received.
  bool network = false;
  double message_bytes = 0;
  std::vector<std::deque<ArrivedAllotment>> inbox;
  long allotments_received = 0; // by level-2 nodes (the delays below are theirs)
  double allotment_delay_sum = 0;
  double allotment_delay_min = 0;
  double allotment_delay_max = 0;
  double last_quantum_start = -1; // of the quantum in which the last job finished
  long total_jobs = 0;
  long completed = 0;
  std::vector<hs::JobRecord> records;
  std::vector<int> leaf_of_job;
  long decisions = 0;
  long leaf_quanta = 0;
  double allotted_time = 0; // processor-seconds allotted to jobs
  // "Whenever some job is deprived, all P processors are allotted", measured per quantum of L (every leaf decides at
  // every L) on every run, checked where the analysis applies.
  size_t leaf_count = 0;
  long check_quantum = -1;
  size_t leaves_reported = 0;
  double allotted_now = 0;
  bool deprived_now = false;
  long deprived_quanta = 0;
  long deprived_with_idle_processors = 0; // quanta where a job is deprived and fewer than P processors are allotted
  double first_idle_violation = -1;       // its time
  double idle_at_violation = 0;
};

long integer_power(long base, int exponent)
{
  long r = 1;
  for (int i = 0; i < exponent; i++)
    r *= base;
  return r;
}

void check_quantum(SharedRun& run, long m, const hs::LeafAllotment& a)
{
  if (run.check_quantum != m) {
    run.check_quantum = m;
    run.leaves_reported = 0;
    run.allotted_now = 0;
    run.deprived_now = false;
  }
  run.leaves_reported++;
  run.allotted_now += a.allotted;
  run.deprived_now = run.deprived_now || a.some_job_deprived;
  if (run.leaves_reported < run.leaf_count || !run.deprived_now) return;
  run.deprived_quanta++;
  const double P = run.spec->processors;
  if (run.allotted_now >= P * (1 - 1e-9)) return;
  run.deprived_with_idle_processors++;
  if (run.first_idle_violation < 0) { // reported after the run: an exception in an actor aborts SimGrid
    run.first_idle_violation = sg4::Engine::get_clock();
    run.idle_at_violation = P - run.allotted_now;
  }
}

/* Messages over the platform: a node's allotments arrive while it does something else (runs its jobs, waits for its
 * children), so a daemon on its host receives them and notes their arrival; the node applies them when it decides. */
void inbox_actor(SharedRun* run, hs::TreeVertex v)
{
  sg4::Actor::self()->daemonize();
  for (;;) {
    auto msg = run->down[v]->get_unique<AllotmentMessage>();
    run->inbox[v].push_back({*msg, sg4::Engine::get_clock()});
  }
}

/* A node's feedback goes to its own mailbox, which only its parent reads: one message per round of the parent, in
 * order, however late its siblings' come. */
void send_up(SharedRun* run, hs::TreeVertex v, const FeedbackMessage& f)
{
  if (run->network)
    run->up[v]->put_init(new FeedbackMessage(f), static_cast<uint64_t>(run->message_bytes))->detach();
  else
    run->up[v]->put(new FeedbackMessage(f), 0);
}

void send_down(SharedRun* run, hs::TreeVertex child, const AllotmentMessage& a)
{
  if (run->network)
    run->down[child]->put_init(new AllotmentMessage(a), static_cast<uint64_t>(run->message_bytes))->detach();
  else
    run->down[child]->put(new AllotmentMessage(a), 0);
}

/* This round's feedback from each child. Over the platform the messages travel at once (a get posted per child). */
void gather_feedback(SharedRun* run, const std::vector<hs::TreeVertex>& kids, std::vector<FeedbackMessage>& feedback)
{
  if (!run->network) {
    for (size_t i = 0; i < kids.size(); i++)
      feedback[i] = *run->up[kids[i]]->get_unique<FeedbackMessage>();
    return;
  }
  std::vector<FeedbackMessage*> got(kids.size(), nullptr);
  std::vector<sg4::CommPtr> comms;
  for (size_t i = 0; i < kids.size(); i++)
    comms.push_back(run->up[kids[i]]->get_async<FeedbackMessage>(&got[i]));
  sg4::Comm::wait_all(comms);
  for (size_t i = 0; i < kids.size(); i++) {
    const std::unique_ptr<FeedbackMessage> owned(got[i]);
    feedback[i] = *owned;
  }
}

void node_actor(SharedRun* run, hs::TreeVertex v)
{
  const hs::HierarchySpec& spec = *run->spec;
  const int level = run->tree[v].level;
  const long qf = spec.quantum_factor;
  const double quantum = spec.quantum * static_cast<double>(integer_power(qf, level - 2));
  const double root_quantum = spec.quantum * static_cast<double>(integer_power(qf, run->levels - 2));
  const long root_period = integer_power(qf, run->levels - level); // this node's quanta per root quantum
  const long parent = hs::parent(run->tree, v);
  const std::vector<hs::TreeVertex> kids = hs::children(run->tree, v);
  hs::LeafScheduler* leaf = run->leaf[v].get();
  const bool whole = spec.whole_processors;

  std::vector<FeedbackMessage> feedback(kids.size());
  std::vector<double> sent; // the last shares sent down (assigned, not constructed sized: GCC 12 warns wrongly then)
  sent.assign(kids.size(), 0.0);
  std::deque<AllotmentMessage> pending;
  double allotment = parent < 0 ? spec.processors : 0;
  double origin = -1; // of `allotment` (see AllotmentMessage); -1: none received yet
  double delay_to_report = 0;

  for (long m = 0;; m++) {
    const double t = static_cast<double>(m) * quantum;
    sg4::this_actor::sleep_until(t);
    // Every node stops at the same root boundary: the first after the quantum in which the last job finished. A node
    // late on its boundaries (waiting for messages over the platform) decides the same, since the leaves, which are
    // never late, ran every quantum before t by then.
    if (m % root_period == 0 && run->completed == run->total_jobs &&
        run->last_quantum_start < t - kTimeTolerance * root_quantum)
      break;
    const bool parent_boundary = parent >= 0 && m % qf == 0;

    double desire = 0;
    long unfinished = 0;
    double child_delay = 0;
    if (leaf != nullptr) {
      leaf->begin_quantum(t);
      desire = leaf->desire();
      unfinished = leaf->unfinished();
    } else {
      gather_feedback(run, kids, feedback);
      for (const FeedbackMessage& f : feedback) {
        desire += f.desire;
        unfinished += f.unfinished;
        child_delay += f.delay;
      }
      delay_to_report += child_delay;
    }

    if (parent_boundary) {
      send_up(run, v, FeedbackMessage{run->slot_in_parent[v], desire, unfinished, delay_to_report});
      delay_to_report = 0;
      // Free messages: the answer comes at once. Over the platform the node goes on with what it holds; the answer
      // reaches its inbox later.
      if (!run->network) pending.push_back(*run->down[v]->get_unique<AllotmentMessage>());
    }
    if (run->network) { // what arrived since the last decision
      for (const ArrivedAllotment& a : run->inbox[v]) {
        if (leaf != nullptr && a.message.origin >= 0) { // not a share of nothing sent before any root decision
          const double delay = a.arrival - a.message.origin;
          run->allotment_delay_min = run->allotments_received == 0 ? delay : std::min(run->allotment_delay_min, delay);
          run->allotment_delay_max = std::max(run->allotment_delay_max, delay);
          run->allotment_delay_sum += delay;
          run->allotments_received++;
        }
        pending.push_back(a.message);
      }
      run->inbox[v].clear();
    }
    // Over the platform a node above level 2 decides when its children's messages are in, after its boundary.
    const double now = run->network && leaf == nullptr ? sg4::Engine::get_clock() : t;
    while (!pending.empty() && pending.front().effective <= now + kTimeTolerance) {
      allotment = pending.front().processors;
      origin = pending.front().origin;
      pending.pop_front();
    }
    if (parent < 0) origin = t;
    run->decisions++;

    if (leaf != nullptr) {
      const hs::LeafAllotment a = leaf->allot(allotment);
      delay_to_report += a.delay;
      run->allotted_time += a.allotted * quantum;
      run->leaf_quanta++;
      check_quantum(*run, m, a);
      for (hs::JobRecord& r : leaf->run_quantum(t)) {
        run->records.push_back(r);
        run->completed++;
        if (run->completed == run->total_jobs) run->last_quantum_start = t;
      }
      continue;
    }
    std::vector<bool> active;
    std::vector<double> desires;
    for (const FeedbackMessage& f : feedback) {
      active.push_back(f.unfinished > 0);
      desires.push_back(f.desire);
    }
    const std::vector<double> shares =
        hs::divide_processors(spec.allocator, spec.job_scheduler, active, desires, allotment, whole);
    const bool changed = shares != sent;
    const double effective = now + (changed ? child_delay : 0);
    for (size_t i = 0; i < kids.size(); i++)
      send_down(run, kids[i], AllotmentMessage{shares[i], effective, origin});
    sent = std::move(shares);
  }
}

std::string summary_json(const Scenario& sc, const SharedRun& run, const std::vector<hs::JobRecord>& records,
                         const hs::AnalysisFigures& analysis, bool invariants_checked)
{
  const hs::HierarchySpec& spec = *sc.hierarchy;
  const double P = spec.processors;
  const double total_work = analysis.total_work;
  const double makespan = analysis.makespan;
  double response = 0;
  double stall = 0;
  for (const hs::JobRecord& r : records) {
    response += r.finish - r.release;
    stall += r.stall_time;
  }
  const double lower_bound = analysis.lower_bound;
  const std::vector<long> per_level = hs::nodes_per_level(run.tree);
  Json nodes_per_level = Json::array();
  for (int k = 2; k <= run.levels; k++)
    nodes_per_level.push_back(per_level[static_cast<size_t>(k)]);
  Json s;
  s["scenario"] = sc.name;
  s["kind"] = "hierarchy";
  s["seed"] = sc.simulation.seed;
  s["algorithm"] = hs::algorithm_name(spec);
  s["levels"] = run.levels;
  s["tree_nodes"] = boost::num_vertices(run.tree);
  s["leaves"] = run.leaf_count;
  s["nodes_per_level"] = nodes_per_level;
  s["processors"] = spec.processors;
  s["quantum"] = json_number(spec.quantum);
  s["quantum_factor"] = spec.quantum_factor;
  s["cost_factor"] = json_number(spec.cost_factor);
  s["allotments"] = spec.whole_processors ? "whole" : "fractional";
  s["messages"] = spec.messages_over_platform ? "platform" : "free";
  s["jobs"] = records.size();
  s["offered_load"] = json_number(spec.workload.offered_load());
  s["total_work"] = json_number(total_work);
  s["makespan"] = json_number(makespan);
  s["lower_bound"] = json_number(lower_bound);
  s["makespan_over_lower_bound"] = json_number(makespan / lower_bound);
  s["utilization"] = json_number(run.allotted_time > 0 ? total_work / run.allotted_time : 0);
  s["machine_utilization"] = json_number(total_work / (P * makespan));
  s["mean_response_time"] = json_number(response / static_cast<double>(records.size()));
  s["transition_factor"] = json_number(analysis.transition_factor);
  s["theorem1_bound"] = json_number(analysis.theorem1_bound);
  s["makespan_over_theorem1_bound"] = json_number(makespan / analysis.theorem1_bound);
  s["lemma1_satisfied_ratio"] = json_number(analysis.lemma1_satisfied_ratio);
  s["lemma1_allotment_ratio"] = json_number(analysis.lemma1_allotment_ratio);
  s["reallocation_stall_time"] = json_number(stall);
  s["deprived_quanta"] = run.deprived_quanta;
  s["deprived_quanta_with_idle_processors"] = run.deprived_with_idle_processors;
  s["leaf_quanta"] = run.leaf_quanta;
  // Messages over the platform: from the boundary of the root's round an allotment derives from (its feedback was sent
  // then) to the allotment's arrival at a level-2 node.
  const double received = static_cast<double>(run.allotments_received);
  s["allotment_delay_min"] = json_number(run.allotment_delay_min);
  s["allotment_delay_mean"] = json_number(received > 0 ? run.allotment_delay_sum / received : 0);
  s["allotment_delay_max"] = json_number(run.allotment_delay_max);
  s["invariants_checked"] = invariants_checked;
  return json_text(s);
}

std::string jobs_csv(const std::vector<hs::JobRecord>& records, const std::vector<int>& leaf_of_job)
{
  std::ostringstream out;
  out << "job_id,leaf,release,work,span,average_parallelism,phases,start,finish,response_time,transition_factor,"
         "satisfied_time,total_allotment,stall_time\n";
  for (const hs::JobRecord& r : records)
    out << r.id << ',' << leaf_of_job[static_cast<size_t>(r.id)] << ',' << FormattedNumber(r.release) << ','
        << FormattedNumber(r.work) << ',' << FormattedNumber(r.span) << ',' << FormattedNumber(r.average_parallelism)
        << ',' << r.phases << ',' << FormattedNumber(r.start) << ',' << FormattedNumber(r.finish) << ','
        << FormattedNumber(r.finish - r.release) << ',' << FormattedNumber(r.transition_factor) << ','
        << FormattedNumber(r.satisfied_time) << ',' << FormattedNumber(r.total_allotment) << ','
        << FormattedNumber(r.stall_time) << '\n';
  return out.str();
}

/* Where each node's actor runs. Free messages: all on one host (the actors' host, platform/host_roles.hpp), so that no
 * message crosses a link. Over the platform: a node's `host` from an explicit tree, else the site front ends (hosts
 * whose `role` is `frontend`, in natural name order): the root on the first, the root's i-th child and its whole
 * subtree on front end i mod (number of front ends). So the root's messages to and from its children cross the
 * wide-area links (but for the subtrees on the root's own site), and a site's own tree talks on its front end. */
std::vector<sg4::Host*> place_schedulers(const sg4::Engine& engine, const Scenario& sc, const hs::SchedulerTree& tree)
{
  const hs::HierarchySpec& spec = *sc.hierarchy;
  const size_t n = boost::num_vertices(tree);
  if (!spec.messages_over_platform) {
    sg4::Host* host = actors_host(engine);
    if (host == nullptr) throw InputError(sc.platform.string() + ": no host to run the scheduler actors on");
    return std::vector<sg4::Host*>(n, host);
  }
  std::vector<sg4::Host*> front_ends;
  for (sg4::Host* h : engine.get_all_hosts()) {
    const char* role = h->get_property("role");
    if (role != nullptr && std::string(role) == "frontend") front_ends.push_back(h);
  }
  std::sort(front_ends.begin(), front_ends.end(),
            [](const sg4::Host* a, const sg4::Host* b) { return natural_less(a->get_name(), b->get_name()); });
  std::vector<sg4::Host*> out(n, nullptr);
  std::vector<size_t> site(n, 0);
  const std::vector<hs::TreeVertex> root_children = hs::children(tree, 0);
  for (size_t i = 0; i < root_children.size(); i++)
    site[root_children[i]] = i;
  for (hs::TreeVertex v = 0; v < n; v++) { // parents come before their children
    const long p = hs::parent(tree, v);
    if (p > 0) site[v] = site[static_cast<size_t>(p)];
    const std::string& named = v < spec.tree_hosts.size() ? spec.tree_hosts[v] : std::string();
    if (!named.empty()) {
      out[v] = engine.host_by_name_or_null(named);
      if (out[v] == nullptr)
        throw InputError(sc.file.string() + ": hierarchy.tree: node " + std::to_string(v + 1) + ": host '" + named +
                         "' is not in " + sc.platform.string());
      continue;
    }
    if (front_ends.empty())
      throw InputError(sc.file.string() + ": hierarchy.messages: platform " + sc.platform.string() +
                       " has no host with role 'frontend' to place the schedulers on (or give every tree node a host)");
    out[v] = front_ends[site[v] % front_ends.size()];
  }
  return out;
}

} // namespace

HierarchyReport run_hierarchy(const Scenario& sc, const RunOptions& options)
{
  const auto wall_start = std::chrono::steady_clock::now();
  const hs::HierarchySpec& spec = *sc.hierarchy;
  if (!sc.deployment.empty())
    throw InputError(sc.file.string() + ": deployment: a hierarchy scenario places its scheduler actors itself: "
                                        "remove the deployment");
  SharedRun run;
  run.spec = &spec;
  if (spec.tree_parents) {
    try {
      run.tree = hs::tree_from_parents(*spec.tree_parents);
    } catch (const std::invalid_argument& e) {
      throw InputError(sc.file.string() + ": hierarchy.tree: " + e.what());
    }
  } else {
    run.tree = hs::generate_tree(spec.levels, spec.min_children, spec.max_children,
                                 spec.tree_seed ? *spec.tree_seed : sc.simulation.seed);
  }
  run.levels = hs::levels(run.tree);
  const size_t n = boost::num_vertices(run.tree);
  run.slot_in_parent.assign(n, 0);
  for (hs::TreeVertex v = 0; v < n; v++) {
    const auto kids = hs::children(run.tree, v);
    for (size_t i = 0; i < kids.size(); i++)
      run.slot_in_parent[kids[i]] = i;
  }
  const std::vector<hs::TreeVertex> leaves = hs::leaves(run.tree);
  run.leaf_count = leaves.size();
  hs::LeafSettings settings;
  settings.job_scheduler = spec.job_scheduler;
  settings.allocator = spec.allocator;
  settings.whole_processors = spec.whole_processors;
  settings.quantum = spec.quantum;
  settings.cost_factor = spec.cost_factor;
  settings.convergence_rate = spec.convergence_rate;
  settings.a_greedy = spec.a_greedy;
  run.leaf.resize(n);
  for (hs::TreeVertex v : leaves)
    run.leaf[v] = std::make_unique<hs::LeafScheduler>(settings);
  std::vector<hs::GeneratedJob> jobs =
      hs::generate_downey_jobs(spec.workload, spec.processors, static_cast<int>(leaves.size()), sc.simulation.seed);
  run.total_jobs = static_cast<long>(jobs.size());
  for (size_t i = 0; i < jobs.size(); i++) {
    run.leaf_of_job.push_back(jobs[i].leaf);
    run.leaf[leaves[static_cast<size_t>(jobs[i].leaf)]]->add_job(static_cast<long>(i), jobs[i].release,
                                                                 std::move(jobs[i].job));
  }
  // Section 3.4's setting: DS + DEQ with feedback desires, the same quantum at every level, no reallocation cost,
  // fractional allotments, free messages; Lemma 1 and Theorem 1 need A-Control with a convergence rate of 0 too.
  const bool analysis_applies = spec.quantum_factor == 1 && spec.cost_factor == 0 && !spec.whole_processors &&
                                !spec.messages_over_platform && spec.allocator == hs::NodeAllocator::deq &&
                                spec.job_scheduler != hs::JobScheduler::equi;
  const bool check = spec.invariants == "on" || (spec.invariants == "auto" && analysis_applies);
  const bool check_lemma = check && (spec.invariants == "on" ||
                                     (spec.job_scheduler == hs::JobScheduler::a_control && spec.convergence_rate == 0));

  EngineSetup setup(sc, options.program, options.simgrid_args);
  sg4::Engine& engine = setup.engine();
  const std::vector<sg4::Host*> placement = place_schedulers(engine, sc, run.tree);
  run.network = spec.messages_over_platform;
  run.message_bytes = spec.message_bytes;
  if (run.network) { // every node talks with its parent both ways: their routes, before the run
    engine.seal_platform();
    for (hs::TreeVertex v = 1; v < n; v++) {
      sg4::Host* up = placement[static_cast<size_t>(hs::parent(run.tree, v))];
      if (up == placement[v]) continue;
      const std::string why = "tree node " + std::to_string(v + 1) + " and its parent exchange messages";
      require_route(*placement[v], *up, sc.platform, why);
      require_route(*up, *placement[v], sc.platform, why);
    }
  }
  run.inbox.resize(n);
  for (hs::TreeVertex v = 0; v < n; v++) {
    run.up.push_back(sg4::Mailbox::by_name("hierarchy-up-" + std::to_string(v)));
    run.down.push_back(sg4::Mailbox::by_name("hierarchy-down-" + std::to_string(v)));
  }
  fit_actor_stacks(run.network ? 2 * n - 1 : n,
                   sc.file.string() + ": hierarchy: the tree's " + std::to_string(n) + " scheduler nodes");
  std::vector<sg4::ActorPtr> actors;
  for (hs::TreeVertex v = 0; v < n; v++)
    actors.push_back(sg4::Actor::create("scheduler-" + std::to_string(v), placement[v], node_actor, &run, v));
  if (run.network) {
    // Messages flow as soon as they are sent, as over TCP, not when their receiver asks: a node's feedback to its
    // parent, an allotment to the child's inbox.
    for (hs::TreeVertex v = 1; v < n; v++) {
      run.up[v]->set_receiver(actors[static_cast<size_t>(hs::parent(run.tree, v))]);
      run.down[v]->set_receiver(sg4::Actor::create("inbox-" + std::to_string(v), placement[v], inbox_actor, &run, v));
    }
  }
  setup.succeeded();
  const auto simulation_start = std::chrono::steady_clock::now();
  engine.run();
  if (run.completed != run.total_jobs)
    throw std::logic_error("the simulation ended with " + std::to_string(run.total_jobs - run.completed) +
                           " jobs unfinished");

  std::vector<hs::JobRecord> records = run.records;
  std::sort(records.begin(), records.end(), [](const hs::JobRecord& a, const hs::JobRecord& b) { return a.id < b.id; });
  const hs::AnalysisFigures analysis = hs::analyse(records, spec.processors);
  if (check && run.deprived_with_idle_processors > 0)
    throw InvariantViolation("at t = " + format_exact(run.first_idle_violation) + " a job is deprived but " +
                             format_exact(run.idle_at_violation) + " of " + format_exact(spec.processors) +
                             " processors are not allotted (" + std::to_string(run.deprived_with_idle_processors) +
                             " such quanta)");
  if (check_lemma) {
    const auto& by_id = records; // records are sorted by id, ids are 0..n-1
    if (analysis.lemma1_satisfied_ratio > 1 + 1e-9) {
      const hs::JobRecord& j = by_id[static_cast<size_t>(analysis.lemma1_satisfied_job)];
      throw InvariantViolation("Lemma 1 violated by job " + std::to_string(j.id) + ": satisfied time " +
                               format_exact(j.satisfied_time) +
                               " > (c + 1) x span = " + format_exact((j.transition_factor + 1) * j.span) +
                               " (c = " + format_exact(j.transition_factor) + ")");
    }
    if (analysis.lemma1_allotment_ratio > 1 + 1e-9) {
      const hs::JobRecord& j = by_id[static_cast<size_t>(analysis.lemma1_allotment_job)];
      throw InvariantViolation("Lemma 1 violated by job " + std::to_string(j.id) + ": total allotment " +
                               format_exact(j.total_allotment) +
                               " > (c + 1) x work = " + format_exact((j.transition_factor + 1) * j.work) +
                               " (c = " + format_exact(j.transition_factor) + ")");
    }
    // Theorem 1 with the measured transition factor.
    if (analysis.makespan > analysis.theorem1_bound * (1 + 1e-9))
      throw InvariantViolation("Theorem 1 violated: makespan " + format_exact(analysis.makespan) +
                               " > 2 (c + 1) x lower bound = " + format_exact(analysis.theorem1_bound) +
                               " (c = " + format_exact(analysis.transition_factor) + ")");
  }

  HierarchyReport report;
  HierarchyResult& r = report.result;
  r.summary_json = summary_json(sc, run, records, analysis, check);
  r.jobs = run.total_jobs;
  r.levels = run.levels;
  r.tree_nodes = static_cast<long>(n);
  r.makespan = analysis.makespan;
  r.utilization = run.allotted_time > 0 ? analysis.total_work / run.allotted_time : 0;
  PerformanceFigures& perf = report.performance;
  perf.execution = "actors";
  perf.simulation_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - simulation_start).count();
  perf.jobs = run.total_jobs;
  perf.instants = run.leaf_quanta;
  perf.decisions = run.decisions;
  RunFolder folder(sc.output_dir);
  folder.write("summary.json", r.summary_json);
  if (sc.write_jobs) folder.write("jobs.csv", jobs_csv(records, run.leaf_of_job));
  write_performance_and_commit(folder, perf, wall_start);
  report.out_dir = folder.dir();
  return report;
}

} // namespace jobsched
