/* A scenario: platform, deployment, workload, policy, simulation settings and outputs, read from YAML.
 *
 * Unknown keys and values of the wrong type are InputErrors that name the file, the line and the key. */
#pragma once

#include "model/fork_join.hpp"
#include "model/job_model.hpp"
#include "model/job_shapes.hpp"
#include "model/owner_activity.hpp"
#include "scenario/value_origins.hpp"
#include "workload/generator.hpp"
#include "workload/swf_reader.hpp"
#include "workload/workload.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jobsched {

/* A closed population: `jobs` jobs always in the system, each finished job replaced at once by the next one. */
struct ClosedSpec {
  long jobs = 0;     // 0: open arrivals (the workload's submit times)
  double warmup = 0; // seconds: jobs submitted before are left out of the per-job means
};

struct WorkloadSpec {
  std::optional<std::string> trace; // SWF file (name searched on the trace path, or a path)
  std::filesystem::path trace_dir;  // where a relative trace path is looked for first (the scenario's folder, or the
                                    // current folder when --set gave it)
  SizeField size_field = SizeField::requested;
  std::optional<GeneratorSpec> generator;
  WorkloadFilter filter;
  CommSpec communication;
  MemorySpec memory;
  JobShapeSpec jobs;
  ClosedSpec closed;
};

struct PolicySpec {
  std::string name = "easy";
  std::map<std::string, std::string> params;
  std::string allocation = "first-fit";
  std::map<std::string, std::string> allocation_params;
  // The YAML tags of the parameters given with one (!!int 600): the component's declaration says which fit (Params).
  std::map<std::string, std::string> param_tags;
  std::map<std::string, std::string> allocation_param_tags;
};

struct SimulationSpec {
  std::uint64_t seed = 1;
  std::string host_model = "ptask_L07";
  double reference_speed = 0; // flop/s per core at which run times are measured; 0: the first compute host's speed
  ImageStoreSpec images;
  std::string execution = "auto"; // auto, ptask or timer (runtime/execution/job_runtime.hpp)
  long max_backlog = 0;           // stop the run once more jobs than this are in the system (0: never)
  bool virtual_wakeups = true;    // replay repeating instants on the scheduler's clock (SchedulerActor)
  bool cycles = true;             // advance a declared repeating schedule by whole cycles (SchedulerActor::set_cycles)
};

/* A shared library of policies or allocators the scenario loads (`plugins:`, policy/plugin_loader.hpp). */
struct PluginFile {
  std::filesystem::path path; // relative paths resolved against the scenario's folder (--set: the current folder)
  std::string origin;         // where the scenario names it, for errors: "x.yaml:3: plugins[0]"
};

struct Scenario {
  std::filesystem::path file;
  ValueOrigins origins; // the file or --set, key by key: what its errors name
  std::string name;
  std::filesystem::path platform;
  std::filesystem::path deployment; // empty: none, jobsched places its own actors (see platform/host_roles.hpp)
  WorkloadSpec workload;            // not read when fork_join is set
  PolicySpec policy;
  std::optional<ForkJoinSpec> fork_join; // the fork-join paging study (model/fork_join.hpp) instead of a workload
  OwnerSpec owners;                      // workstation owners of the compute hosts (`owners:`)
  GuestEviction eviction = GuestEviction::requeue; // what a job that loses its processors does (owners.eviction)
  SimulationSpec simulation;
  std::filesystem::path output_dir;
  bool write_trace = true; // output.trace: false leaves trace.csv out (a sweep of long time-shared runs: GBs)
  bool write_jobs = true;  // output.jobs: false leaves jobs.csv out (a sweep that reads only summary.json)
  // metrics.bounded_slowdown_tau, seconds: the threshold of jobs.csv's bounded_slowdown, max(1, turnaround /
  // max(dedicated time, tau)). 10 s as Feitelson et al. (output/metrics.hpp's kBoundedSlowdownTau); studies vary it.
  double bounded_slowdown_tau = 10;
  /* `plugins:`, loaded before the policy and the allocator are looked up. */
  std::vector<PluginFile> plugins;
};

/* The SWF file of `workload.trace` (searched as workload/trace_search.hpp says, from the scenario's folder); an
 * InputError naming the key and where it looked when it is not found. The scenario must have a trace. */
std::filesystem::path trace_path(const Scenario& scenario);

/* The files a run of the scenario reads that a load does not open (the platform, the deployment, the trace): an
 * InputError naming the key for the first that is missing. A sweep calls it for every point before its first run. */
void check_input_files(const Scenario& scenario);

/* `overrides` are "dotted.key=value" strings from --set, applied to the YAML before it is read. */
Scenario load_scenario(const std::filesystem::path& file, const std::vector<std::string>& overrides = {});

/* The scenario of a program that loads its own platform and deployment (jobsched inside a user's s4u program,
 * run/simgrid_plugin.hpp): the keys platform and deployment must be absent (an InputError naming the key otherwise: two
 * platforms would be ambiguous), and `platform` and `deployment` stay empty. */
Scenario load_program_scenario(const std::filesystem::path& file, const std::vector<std::string>& overrides = {});

/* Same, from YAML text (tests); relative paths resolve against `dir`. */
Scenario parse_scenario(const std::string& yaml_text, const std::filesystem::path& file,
                        const std::vector<std::string>& overrides = {});

} // namespace jobsched
