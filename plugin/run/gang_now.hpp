/* One run of gang scheduling on a heterogeneous network of workstations (Al-Saqabi, Otto & Walpole, "Gang Scheduling
 * in Heterogeneous Distributed Systems"): the `gang_now:` section of a scenario (scenario/gang_now_spec.hpp).
 *
 * The compute hosts are the workstations (platform/host_roles.hpp; the front end, role master, runs the scheduler);
 * each has an `arch` property (absent: "any") and a capacity a_i = its speed / the slowest workstation's
 * (policies/gang_now/rational.hpp, capacity_from_speeds). One scheduler actor takes, at each instant, the VPs that
 * ended, the owners' changes (runtime/events/owner_source.hpp), the submissions (runtime/events/submitter.hpp, the
 * workload of workload/gang_now_workload.hpp) and the jobs' own new_VP and VP_exit, hands them to the driver
 * (runtime/drivers/gang_now_driver.hpp) and lets it bring the platform in line.
 *
 * Outputs: jobs.csv (one row per job), summary.json (below) and performance.json. summary.json: the mean, median and
 * largest turnaround (finish - submit, seconds), the mean stretch (turnaround over the job's dedicated turnaround: its
 * initial VPs alone on every workstation of its architecture, optimal MTAT), fairness = Jain's index of the stretches
 * ((sum s)^2 / (n sum s^2): 1 when every job is slowed alike, tending to 1/n as one job's stretch dominates), the
 * migrations and bytes moved, restarts and work lost, owner events, slices. One engine per process. */
#pragma once

#include "output/reports.hpp"
#include "run/simulation.hpp"
#include "scenario/scenario.hpp"

namespace jobsched {

struct GangNowJobResult {
  long id = 0;
  std::string arch;
  int vps = 0;
  double work = 0;
  double submit = 0;
  double first_run = -1;
  double finish = -1;
  double dedicated = 0;
  long migrations = 0;
  double bytes_moved = 0;
  long restarts = 0;
  double work_lost = 0;
  double turnaround() const { return finish - submit; }
  /* Turnaround over the dedicated time (`dedicated`: alone on every workstation of its architecture). */
  double stretch() const { return turnaround() / dedicated; }
};

struct GangNowReport {
  std::vector<GangNowJobResult> jobs; // the jobs that finished
  std::string summary_json;
  double backlog_stop_time = -1; // when the run stopped on simulation.max_backlog, -1 if it did not
  double mean_turnaround = 0;
  double fairness = 0;
  long migrations = 0;
  double bytes_moved = 0;
  PerformanceFigures performance;
  std::filesystem::path out_dir;
};

/* `scenario.gang_now` must be set. */
GangNowReport run_gang_now(const Scenario& scenario, const RunOptions& options);

} // namespace jobsched
