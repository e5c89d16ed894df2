/* Gang scheduling on a heterogeneous network of workstations: one run (run/gang_now.hpp). */
#include "run/gang_now.hpp"

#include "core/csv.hpp"
#include "core/errors.hpp"
#include "core/json.hpp"
#include "core/time.hpp"
#include "core/time_format.hpp"
#include "output/run_folder.hpp"
#include "platform/host_roles.hpp"
#include "run/engine_setup.hpp"
#include "runtime/drivers/gang_now_driver.hpp"
#include "runtime/events/owner_source.hpp"
#include "runtime/events/submitter.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <sstream>

XBT_LOG_NEW_DEFAULT_CATEGORY(jobsched_gang_now_run, "jobsched: gang scheduling runs on networks of workstations");

namespace jobsched {

namespace gn = gang_now;

namespace {

const char* eviction_name(Eviction e)
{
  return e == Eviction::migrate ? "migrate" : e == Eviction::wait ? "wait" : "restart";
}

double median_of(std::vector<double> v)
{
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string summary_json(const Scenario& sc, const GangNowReport& r, const GangNowCounters& c, int workstations,
                         double slowest, double makespan, long owner_exits, long unfinished, double backlog_stop_time)
{
  const GangNowSpec& spec = *sc.gang_now;
  std::vector<double> turnarounds;
  std::vector<double> stretches;
  long restarts = 0;
  double lost = 0;
  for (const GangNowJobResult& j : r.jobs) {
    turnarounds.push_back(j.turnaround());
    stretches.push_back(j.stretch());
    restarts += j.restarts;
    lost += j.work_lost;
  }
  double sum = 0;
  for (double s : stretches)
    sum += s;
  const double n = static_cast<double>(stretches.size());
  const gn::SchedulerOptions& o = spec.policy.options;
  Json s;
  s["scenario"] = sc.name;
  s["kind"] = "gang_now";
  s["seed"] = sc.simulation.seed;
  s["platform"] = sc.platform.filename().string();
  s["workstations"] = workstations;
  s["slowest_speed"] = json_number(slowest);
  s["mtat"] = gn::mtat_variant_name(o.allocation.mtat);
  s["compression"] = gn::compression_variant_name(o.allocation.compression);
  s["pool_target"] = gn::pool_target_name(o.allocation.pool_target);
  s["expansion"] = gn::expansion_search_name(o.expansion);
  s["new_slice_rule"] = gn::new_slice_rule_name(o.new_slice_rule);
  s["eviction"] = eviction_name(spec.policy.eviction);
  s["quantum"] = json_number(spec.policy.quantum);
  s["switch_cost"] = json_number(spec.policy.switch_cost);
  s["owner_activity"] = json_number(spec.owners.activity());
  s["jobs"] = r.jobs.size();
  s["unfinished_jobs"] = unfinished;
  // As in the main runs: the run stopped on simulation.max_backlog, the one saturation stop every kind shares.
  s["saturated"] = backlog_stop_time >= 0 ? 1 : 0;
  s["backlog_stop_time"] = json_number(backlog_stop_time);
  s["makespan"] = json_number(makespan);
  s["mean_turnaround"] = json_number(n > 0 ? r.mean_turnaround : 0);
  s["median_turnaround"] = json_number(median_of(turnarounds));
  s["max_turnaround"] =
      json_number(turnarounds.empty() ? 0 : *std::max_element(turnarounds.begin(), turnarounds.end()));
  s["mean_stretch"] = json_number(n > 0 ? sum / n : 0);
  s["max_stretch"] = json_number(stretches.empty() ? 0 : *std::max_element(stretches.begin(), stretches.end()));
  s["fairness"] = json_number(r.fairness);
  s["migrations"] = r.migrations;
  s["bytes_moved"] = json_number(r.bytes_moved);
  s["restarts"] = restarts;
  s["work_lost"] = json_number(lost);
  s["owner_returns"] = owner_exits;
  s["processor_exits"] = c.processor_exits;
  s["new_processors"] = c.new_processors;
  s["scheduler_events"] = c.events;
  s["rotations"] = c.rotations;
  s["max_slices"] = c.max_slices;
  return json_text(s);
}

std::string jobs_csv(const std::vector<GangNowJobResult>& jobs)
{
  std::ostringstream out;
  out << "job_id,arch,vps,work,submit,first_run,finish,turnaround,dedicated,stretch,migrations,bytes_moved,restarts,"
         "work_lost\n";
  for (const GangNowJobResult& j : jobs)
    out << j.id << ',' << csv_field(j.arch) << ',' << j.vps << ',' << FormattedNumber(j.work) << ','
        << FormattedNumber(j.submit) << ',' << FormattedNumber(j.first_run) << ',' << FormattedNumber(j.finish) << ','
        << FormattedNumber(j.turnaround()) << ',' << FormattedNumber(j.dedicated) << ',' << FormattedNumber(j.stretch())
        << ',' << j.migrations << ',' << FormattedNumber(j.bytes_moved) << ',' << j.restarts << ','
        << FormattedNumber(j.work_lost) << '\n';
  return out.str();
}

} // namespace

GangNowReport run_gang_now(const Scenario& sc, const RunOptions& options)
{
  const auto wall_start = std::chrono::steady_clock::now();
  const GangNowSpec& spec = *sc.gang_now;
  if (!sc.deployment.empty())
    throw InputError(sc.file.string() + ": deployment: a gang_now scenario places its scheduler itself (on the host "
                                        "whose role is master): remove the deployment");
  EngineSetup setup(sc, options.program, options.simgrid_args);
  sg4::Engine& engine = setup.engine();
  std::vector<sg4::Host*> hosts = compute_hosts(engine, {});
  if (hosts.empty()) throw InputError(sc.platform.string() + ": no compute host (no workstation)");
  double slowest = std::numeric_limits<double>::infinity();
  for (const auto* h : hosts) {
    require_usable_speed(*h, sc.platform);
    slowest = std::min(slowest, h->get_speed());
  }
  Machine machine;
  std::vector<gn::Processor> processors;
  std::vector<std::string> names;
  std::vector<std::string> archs;
  std::vector<double> arch_weights;
  for (auto* h : hosts) {
    machine.add_host(h->get_name(), 1, h->get_speed()); // a workstation is one processor
    const char* arch = h->get_property("arch");
    gn::Processor p{h->get_name(),
                    gn::capacity_from_speeds(h->get_speed(), slowest, sc.platform.string() + ": host " + h->get_name()),
                    arch != nullptr && *arch != '\0' ? arch : "any"};
    auto a = std::find(archs.begin(), archs.end(), p.arch);
    if (a == archs.end()) {
      archs.push_back(p.arch);
      arch_weights.push_back(0);
      a = archs.end() - 1;
    }
    arch_weights[static_cast<size_t>(a - archs.begin())] += boost::rational_cast<double>(p.capacity);
    names.push_back(p.name);
    processors.push_back(p);
  }
  // VPs migrate between workstations of one architecture: every such pair needs a route of links (SimGrid would fail
  // the first transfer in the middle of the run, or make it free).
  engine.seal_platform();
  for (size_t a = 0; a < hosts.size(); a++)
    for (size_t b = a + 1; b < hosts.size(); b++) {
      if (processors[a].arch != processors[b].arch) continue;
      std::vector<sg4::Link*> links;
      double latency = 0;
      bool routed = true;
      try {
        hosts[a]->route_to(hosts[b], links, &latency);
      } catch (const std::exception&) {
        routed = false;
      }
      // An empty route (two hosts of one Full zone without a <route>) would make migrations free.
      if (!routed || links.empty())
        throw InputError(sc.platform.string() + ": no route between workstations " + names[a] + " and " + names[b] +
                         " (both " + processors[a].arch + ": VPs may migrate between them, over a route of links)");
    }
  sg4::Host* front_end = actors_host(engine);

  if (!spec.workload.archs.empty()) { // only the architectures listed
    std::vector<std::string> kept;
    std::vector<double> weights;
    for (const std::string& a : spec.workload.archs) {
      auto it = std::find(archs.begin(), archs.end(), a);
      if (it == archs.end())
        throw InputError(sc.file.string() + ": gang_now.workload.archs: no workstation of " + sc.platform.string() +
                         " has architecture '" + a + "'");
      kept.push_back(a);
      weights.push_back(arch_weights[static_cast<size_t>(it - archs.begin())]);
    }
    archs = kept;
    arch_weights = weights;
  }
  const std::vector<GangJob> gang_jobs = generate_gang_jobs(spec.workload, archs, arch_weights, sc.simulation.seed);
  JobList arrivals;
  for (const GangJob& g : gang_jobs) {
    WorkloadJob w;
    w.id = g.id;
    w.submit_time = g.submit;
    w.size = g.vps;
    arrivals.push_back(w);
  }
  OwnerActivity owners(spec.owners, names, sc.simulation.seed); // reads the trace: errors before the run
  std::vector<bool> busy;
  for (size_t h = 0; h < hosts.size(); h++)
    busy.push_back(owners.initially_busy(static_cast<int>(h)));

  std::unique_ptr<JobRuntime> runtime;
  std::unique_ptr<GangNowDriver> driver;
  Submitter submitter(arrivals);
  OwnerSource owner_source(owners);
  std::exception_ptr failure;
  long instants = 0;
  double simulated_wall = 0;
  double backlog_stop_time = -1;
  try {
    // Doubled-up VPs share their workstation's CPU: executions are SimGrid activities (ptasks), not timers.
    runtime = std::make_unique<JobRuntime>(machine, hosts, slowest, CommSpec{}, MemorySpec{}, ImageStoreSpec{},
                                           ExecutionMode::ptask);
    driver = std::make_unique<GangNowDriver>(machine, processors, *runtime, spec.policy, spec.workload.new_vp_per_hour,
                                             spec.workload.vp_exit_per_hour, sc.simulation.seed, busy);
  } catch (const InputError& e) {
    throw InputError(sc.file.string() + ": " + e.what());
  }
  sg4::Actor::create("gang-now-scheduler", front_end, [&] {
    try {
      const auto start = std::chrono::steady_clock::now();
      std::vector<std::unique_ptr<Event>> inbox;
      while (!(submitter.exhausted() && driver->empty())) {
        // The jobs left cannot progress and nothing will change that: their workstations' owners never leave (an
        // owner trace that ends with them busy).
        if (submitter.exhausted() && std::isinf(owner_source.next_time()) && driver->all_blocked_by_owners())
          throw InputError(sc.file.string() + ": gang_now: jobs wait at " + format_exact(sg4::Engine::get_clock()) +
                           " s for workstations whose owners never leave (the owner trace ends with them busy)");
        double wake =
            std::min({driver->next_wakeup(), runtime->next_timer(), owner_source.next_time(), submitter.next_time()});
        auto activities = runtime->activities();
        const double now = sg4::Engine::get_clock();
        if (activities.empty()) {
          if (std::isinf(wake)) throw PolicyError("gang scheduler: jobs left with nothing to wait for");
          sg4::this_actor::sleep_until(wake);
        } else {
          sg4::Activity::wait_any_for(activities, std::isinf(wake) ? -1.0 : std::max(0.0, wake - now));
        }
        const double t = sg4::Engine::get_clock();
        instants++;
        for (const auto& [id, fate] : runtime->collect_ended())
          driver->vp_ended(id, fate, t);
        if (owner_source.next_time() <= t + kTimeEpsilon) owner_source.poll(t, inbox);
        if (submitter.next_time() <= t + kTimeEpsilon) submitter.poll(t, inbox);
        for (const auto& e : inbox) {
          if (e->kind == Event::Kind::owner)
            driver->owner_changed(e->host, e->owner_busy, t);
          else
            for (const WorkloadJob* j : e->jobs)
              driver->submit(gang_jobs[static_cast<size_t>(j->id)], t);
        }
        inbox.clear();
        driver->tick(t);
        driver->reconcile(t);
        if (sc.simulation.max_backlog > 0 && driver->jobs_in_system() > sc.simulation.max_backlog) {
          backlog_stop_time = t;
          driver->stop();
          break;
        }
      }
      simulated_wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    } catch (const simgrid::ForcefulKillException&) {
      throw;
    } catch (...) {
      failure = std::current_exception();
      sg4::Actor::kill_all();
    }
  });
  setup.succeeded();
  engine.run();
  if (failure) std::rethrow_exception(failure);

  GangNowReport report;
  double makespan = 0;
  long unfinished = 0;
  for (const GangJobRecord& rec : driver->records()) {
    if (rec.finish < 0) { // the run stopped on simulation.max_backlog first: not in the jobs' figures
      unfinished++;
      continue;
    }
    GangNowJobResult j;
    j.id = rec.job->id;
    j.arch = rec.job->arch;
    j.vps = rec.job->vps;
    j.work = rec.job->work;
    j.submit = rec.submit;
    j.first_run = rec.first_run;
    j.finish = rec.finish;
    j.dedicated = rec.dedicated;
    j.migrations = rec.migrations;
    j.bytes_moved = rec.bytes_moved;
    j.restarts = rec.restarts;
    j.work_lost = rec.work_lost;
    report.jobs.push_back(j);
    report.migrations += j.migrations;
    report.bytes_moved += j.bytes_moved;
    makespan = std::max(makespan, j.finish);
  }
  std::sort(report.jobs.begin(), report.jobs.end(),
            [](const GangNowJobResult& a, const GangNowJobResult& b) { return a.id < b.id; });
  double sum = 0;
  double sum_s = 0;
  double sum_s2 = 0;
  for (const GangNowJobResult& j : report.jobs) {
    const double s = j.stretch();
    sum += j.turnaround();
    sum_s += s;
    sum_s2 += s * s;
  }
  const auto n = static_cast<double>(report.jobs.size());
  report.mean_turnaround = n > 0 ? sum / n : 0;
  report.fairness = sum_s2 > 0 ? sum_s * sum_s / (n * sum_s2) : 1;
  report.backlog_stop_time = backlog_stop_time;
  report.summary_json = summary_json(sc, report, driver->counters(), static_cast<int>(hosts.size()), slowest, makespan,
                                     owners.exits(), unfinished, backlog_stop_time);
  PerformanceFigures& perf = report.performance;
  perf.execution = "ptask";
  perf.simulation_seconds = simulated_wall;
  perf.jobs = static_cast<long>(report.jobs.size());
  perf.instants = instants;
  perf.decisions = driver->counters().events;
  RunFolder folder(sc.output_dir);
  folder.write("summary.json", report.summary_json);
  if (sc.write_jobs) folder.write("jobs.csv", jobs_csv(report.jobs));
  write_performance_and_commit(folder, perf, wall_start);
  report.out_dir = folder.dir();
  return report;
}

} // namespace jobsched
