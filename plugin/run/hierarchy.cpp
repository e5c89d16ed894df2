#include "run/hierarchy.hpp"

#include "core/errors.hpp"
#include "core/time_format.hpp"
#include "output/run_folder.hpp"
#include "platform/host_roles.hpp"
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

/* Down the tree: the processors the child may use from `effective` on. */
struct AllotmentMessage {
  double processors = 0;
  double effective = 0;
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
  long total_jobs = 0;
  long completed = 0;
  std::vector<hs::JobRecord> records;
  std::vector<int> leaf_of_job;
  long decisions = 0;
  long leaf_quanta = 0;
  double allotted_time = 0; // processor-seconds allotted to jobs
  // "Whenever some job is deprived, all P processors are allotted", checked per quantum (QF = 1: every leaf decides
  // at every L).
  bool check_deprivation = false;
  size_t leaf_count = 0;
  long check_quantum = -1;
  size_t leaves_reported = 0;
  double allotted_now = 0;
  bool deprived_now = false;
  long deprived_quanta = 0;
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
  if (run.allotted_now < P * (1 - 1e-9))
    throw std::logic_error("invariant violated at t = " + format_exact(sg4::Engine::get_clock()) +
                           ": a job is deprived but only " + format_exact(run.allotted_now) + " of " + format_exact(P) +
                           " processors are allotted");
}

void node_actor(SharedRun* run, hs::TreeVertex v)
{
  const hs::HierarchySpec& spec = *run->spec;
  const int level = run->tree[v].level;
  const long qf = spec.quantum_factor;
  const double quantum = spec.quantum * static_cast<double>(integer_power(qf, level - 2));
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
  double delay_to_report = 0;

  for (long m = 0;; m++) {
    const double t = static_cast<double>(m) * quantum;
    sg4::this_actor::sleep_until(t);
    // At a root boundary every node is at a boundary and none has run its jobs yet: all see the same count.
    if (m % root_period == 0 && run->completed == run->total_jobs) break;
    const bool parent_boundary = parent >= 0 && m % qf == 0;

    double desire = 0;
    long unfinished = 0;
    double child_delay = 0;
    if (leaf != nullptr) {
      leaf->begin_quantum(t);
      desire = leaf->desire();
      unfinished = leaf->unfinished();
    } else {
      for (size_t i = 0; i < kids.size(); i++) {
        auto msg = run->up[v]->get_unique<FeedbackMessage>();
        feedback[msg->child] = *msg;
      }
      for (const FeedbackMessage& f : feedback) {
        desire += f.desire;
        unfinished += f.unfinished;
        child_delay += f.delay;
      }
      delay_to_report += child_delay;
    }

    if (parent_boundary) {
      run->up[static_cast<size_t>(parent)]->put(
          new FeedbackMessage{run->slot_in_parent[v], desire, unfinished, delay_to_report}, 0);
      delay_to_report = 0;
      pending.push_back(*run->down[v]->get_unique<AllotmentMessage>());
    }
    while (!pending.empty() && pending.front().effective <= t + kTimeTolerance) {
      allotment = pending.front().processors;
      pending.pop_front();
    }
    run->decisions++;

    if (leaf != nullptr) {
      const hs::LeafAllotment a = leaf->allot(allotment);
      delay_to_report += a.delay;
      run->allotted_time += a.allotted * quantum;
      run->leaf_quanta++;
      if (run->check_deprivation) check_quantum(*run, m, a);
      for (hs::JobRecord& r : leaf->run_quantum(t)) {
        run->records.push_back(r);
        run->completed++;
      }
      continue;
    }
    std::vector<double> shares;
    if (spec.allocator == hs::NodeAllocator::equi || spec.job_scheduler == hs::JobScheduler::equi) {
      std::vector<bool> active;
      for (const FeedbackMessage& f : feedback)
        active.push_back(f.unfinished > 0);
      shares = hs::equi_allotments(active, allotment, whole);
    } else {
      std::vector<double> desires;
      for (const FeedbackMessage& f : feedback)
        desires.push_back(f.desire);
      shares = whole ? hs::deq_allotments_whole(desires, allotment) : hs::deq_allotments(desires, allotment);
    }
    const bool changed = shares != sent;
    const double effective = t + (changed ? child_delay : 0);
    for (size_t i = 0; i < kids.size(); i++)
      run->down[kids[i]]->put(new AllotmentMessage{shares[i], effective}, 0);
    sent = std::move(shares);
  }
}

std::string summary_json(const Scenario& sc, const SharedRun& run, const std::vector<hs::JobRecord>& records,
                         bool invariants_checked)
{
  const hs::HierarchySpec& spec = *sc.hierarchy;
  const double P = spec.processors;
  double total_work = 0;
  double makespan = 0;
  double response = 0;
  double c = 1;
  double stall = 0;
  const hs::JobRecord* last = nullptr;
  for (const hs::JobRecord& r : records) {
    total_work += r.work;
    if (last == nullptr || r.finish > last->finish) last = &r;
    makespan = std::max(makespan, r.finish);
    response += r.finish - r.release;
    c = std::max(c, r.transition_factor);
    stall += r.stall_time;
  }
  const double lower_bound = std::max(last->release + last->span, total_work / P);
  const std::vector<long> per_level = hs::nodes_per_level(run.tree);
  std::ostringstream out;
  out << "{\n";
  out << "  \"scenario\": \"" << sc.name << "\",\n";
  out << "  \"kind\": \"hierarchy\",\n";
  out << "  \"seed\": " << sc.simulation.seed << ",\n";
  out << "  \"algorithm\": \"" << hs::algorithm_name(spec) << "\",\n";
  out << "  \"levels\": " << run.levels << ",\n";
  out << "  \"tree_nodes\": " << boost::num_vertices(run.tree) << ",\n";
  out << "  \"leaves\": " << run.leaf_count << ",\n";
  out << "  \"nodes_per_level\": [";
  for (int k = 2; k <= run.levels; k++)
    out << (k > 2 ? ", " : "") << per_level[static_cast<size_t>(k)];
  out << "],\n";
  out << "  \"processors\": " << spec.processors << ",\n";
  out << "  \"quantum\": " << FormattedNumber(spec.quantum) << ",\n";
  out << "  \"quantum_factor\": " << spec.quantum_factor << ",\n";
  out << "  \"cost_factor\": " << FormattedNumber(spec.cost_factor) << ",\n";
  out << "  \"allotments\": \"" << (spec.whole_processors ? "whole" : "fractional") << "\",\n";
  out << "  \"jobs\": " << records.size() << ",\n";
  out << "  \"offered_load\": " << FormattedNumber(spec.workload.offered_load()) << ",\n";
  out << "  \"total_work\": " << FormattedNumber(total_work) << ",\n";
  out << "  \"makespan\": " << FormattedNumber(makespan) << ",\n";
  out << "  \"lower_bound\": " << FormattedNumber(lower_bound) << ",\n";
  out << "  \"makespan_over_lower_bound\": " << FormattedNumber(makespan / lower_bound) << ",\n";
  out << "  \"utilization\": " << FormattedNumber(run.allotted_time > 0 ? total_work / run.allotted_time : 0) << ",\n";
  out << "  \"machine_utilization\": " << FormattedNumber(total_work / (P * makespan)) << ",\n";
  out << "  \"mean_response_time\": " << FormattedNumber(response / static_cast<double>(records.size())) << ",\n";
  out << "  \"transition_factor\": " << FormattedNumber(c) << ",\n";
  out << "  \"theorem1_bound\": " << FormattedNumber(2 * (c + 1) * lower_bound) << ",\n";
  out << "  \"reallocation_stall_time\": " << FormattedNumber(stall) << ",\n";
  out << "  \"deprived_quanta\": " << run.deprived_quanta << ",\n";
  out << "  \"leaf_quanta\": " << run.leaf_quanta << ",\n";
  out << "  \"invariants_checked\": " << (invariants_checked ? "true" : "false") << "\n";
  out << "}\n";
  return out.str();
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

} // namespace

HierarchyReport run_hierarchy(const Scenario& sc, const RunOptions& options)
{
  const auto wall_start = std::chrono::steady_clock::now();
  const hs::HierarchySpec& spec = *sc.hierarchy;
  if (!std::filesystem::exists(sc.platform))
    throw InputError(sc.file.string() + ": platform: no such file: " + sc.platform.string());
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
  const bool analysis_applies = spec.quantum_factor == 1 && spec.cost_factor == 0 && !spec.whole_processors &&
                                spec.allocator == hs::NodeAllocator::deq &&
                                spec.job_scheduler != hs::JobScheduler::equi;
  const bool check = spec.invariants == "auto" && analysis_applies;
  run.check_deprivation = check;

  EngineSetup setup(sc, options.program, options.simgrid_args);
  sg4::Engine& engine = setup.engine();
  std::vector<sg4::Host*> hosts = compute_hosts(engine, {});
  if (hosts.empty()) throw InputError(sc.platform.string() + ": no host to run the scheduler actors on");
  for (hs::TreeVertex v = 0; v < n; v++) {
    run.up.push_back(sg4::Mailbox::by_name("hierarchy-up-" + std::to_string(v)));
    run.down.push_back(sg4::Mailbox::by_name("hierarchy-down-" + std::to_string(v)));
  }
  for (hs::TreeVertex v = 0; v < n; v++)
    sg4::Actor::create("scheduler-" + std::to_string(v), hosts.front(), node_actor, &run, v);
  setup.succeeded();
  const auto simulation_start = std::chrono::steady_clock::now();
  engine.run();
  if (run.completed != run.total_jobs)
    throw std::logic_error("the simulation ended with " + std::to_string(run.total_jobs - run.completed) +
                           " jobs unfinished");

  std::vector<hs::JobRecord> records = run.records;
  std::sort(records.begin(), records.end(), [](const hs::JobRecord& a, const hs::JobRecord& b) { return a.id < b.id; });
  if (check && spec.job_scheduler == hs::JobScheduler::a_control) {
    // Theorem 1 with the measured transition factor.
    double total_work = 0;
    double c = 1;
    const hs::JobRecord* last = &records.front();
    for (const hs::JobRecord& r : records) {
      total_work += r.work;
      c = std::max(c, r.transition_factor);
      if (r.finish > last->finish) last = &r;
    }
    const double bound = 2 * (c + 1) * std::max(last->release + last->span, total_work / spec.processors);
    if (last->finish > bound * (1 + 1e-9))
      throw std::logic_error("Theorem 1 violated: makespan " + format_exact(last->finish) + " > 2 (c + 1) x " +
                             "lower bound = " + format_exact(bound) + " (c = " + format_exact(c) + ")");
  }

  HierarchyReport report;
  HierarchyResult& r = report.result;
  r.summary_json = summary_json(sc, run, records, check);
  r.jobs = run.total_jobs;
  r.levels = run.levels;
  r.tree_nodes = static_cast<long>(n);
  for (const hs::JobRecord& j : records)
    r.makespan = std::max(r.makespan, j.finish);
  double total_work = 0;
  for (const hs::JobRecord& j : records)
    total_work += j.work;
  r.utilization = run.allotted_time > 0 ? total_work / run.allotted_time : 0;
  PerformanceFigures& perf = report.performance;
  perf.execution = "actors";
  perf.simulation_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - simulation_start).count();
  perf.jobs = run.total_jobs;
  perf.instants = run.leaf_quanta;
  perf.decisions = run.decisions;
  RunFolder folder(sc.output_dir);
  folder.write("summary.json", r.summary_json);
  folder.write("jobs.csv", jobs_csv(records, run.leaf_of_job));
  write_performance_and_commit(folder, perf, wall_start);
  report.out_dir = folder.dir();
  return report;
}

} // namespace jobsched
