/* One simulation of one scenario, start to finish: platform and deployment into a SimGrid engine, workload, policy,
 * the actors, the run, and the output files. SimGrid allows one engine per process, so one call per process. */
#pragma once

#include "output/reports.hpp"
#include "scenario/scenario.hpp"

#include "model/job_state.hpp"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace jobsched {

struct RunOptions {
  std::string program = "jobsched";
  std::vector<std::string> simgrid_args; // --cfg=... and --log=... passed through to SimGrid
  bool progress = false;                 // a progress line on stderr
  bool keep_trace = false;               // also keep the trace in memory, in RunReport::trace (tests)
  bool keep_states = false;              // also keep every job's final record, in RunReport::states (tests)
  /* The process ends right after the run (the launcher): the run's jobs, policy and runtime are left to the process's
   * end instead of freed one by one (2% of a run of the KTH log). */
  bool process_ends_after = false;
  /* Set the run up (platform, deployment, policy, workload) and stop before simulating: its bad input is refused as
   * the run would refuse it, and nothing is written (jobsched run --check; a sweep checks each point so). */
  bool check_only = false;
  /* A policy that places processes: its running intervals are settled into the utilization's sum (BusyUnion) every
   * time this many wait (tests); 0: every 65,536 or 8 per processor, whichever is more. */
  std::size_t busy_settle_every = 0;
};

struct RunReport {
  std::filesystem::path out_dir;
  std::vector<std::string> files;           // the files written into out_dir (RunFolder::written())
  std::shared_ptr<const Workload> workload; // owns the jobs the states point to
  std::deque<JobState> states;              // in workload order, with RunOptions::keep_states only
  std::vector<TraceSegment> trace;          // with RunOptions::keep_trace only (trace.csv has them all; its
                                            // aggregated rows expanded here into the segments they stand for)
  std::string policy;
  size_t jobs = 0;
  RunMetrics metrics;
  PerformanceFigures performance;
};

RunReport run_scenario(const Scenario& scenario, const RunOptions& options);

/* Loads the libraries of the scenario's `plugins:` (policy/plugin_loader.hpp), before any policy name is looked up. */
void load_scenario_plugins(const Scenario& scenario);

/* Without simulating: the policy and the allocator the scenario names exist and its parameters are theirs, of the
 * right types (what a value means for the platform is checked when the run begins); an InputError naming the scenario
 * file and the key. A sweep checks every point with it before its first run. */
void check_policy_choices(const Scenario& scenario);

/* The files a run of the scenario writes into its folder, in run_output_names()'s order: summary.json and
 * performance.json, and as output.jobs and output.trace ask, jobs.csv, trace.csv and, under a time-sharing policy,
 * segments.csv (a fork_join study writes the first two only). The one place that decides them: a run opens the files
 * listed here (AttachedRun::prepare()), and a sweep reuses a finished run only when its folder holds all of them. The
 * policy is looked up by name: the scenario's plugins must be loaded (check_policy_choices()). */
std::vector<std::string> run_output_files(const Scenario& scenario);

} // namespace jobsched
