/* A scenario: platform, deployment, workload, policy, simulation settings and outputs, read from YAML.
 *
 * Unknown keys and values of the wrong type are InputErrors that name the file, the line and the key. */
#pragma once

#include "workload/generator.hpp"
#include "workload/workload.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jobsched {

/* How a job's processes talk while it computes (its ptask's bytes matrix). */
enum class CommPattern { none, ring, neighbours, all_to_all };
const char* to_string(CommPattern p);

/* How communication costs a job time (see runtime/job_model.hpp). */
enum class CommCostModel {
  traffic, // the job's `pattern` at `bytes_per_flop` goes through the platform's network
  formula, // the SMP-cluster paper's cost = base x nodes used x level, a stretch of the run time
  network  // traffic calibrated so that an idle machine gives the formula's stretch; contention adds to it
};

struct CommSpec {
  CommPattern pattern = CommPattern::none;
  double bytes_per_flop = 0; // bytes each process sends in total per flop it computes
  CommCostModel model = CommCostModel::traffic;
  int level = 0;      // the paper's communication Level (0 to 5)
  double base = 0.05; // the paper's BASE
};

/* Memory and paging (see runtime/job_model.hpp). */
struct MemorySpec {
  bool paging = false;
  double min_mb = 16; // synthetic memory per processor when the trace has none: log-uniform in [min_mb, max_mb]
  double max_mb = 256;
  double threshold = 1.0;          // fraction of a node's memory (host property memory_mb) a job may use
  double page_fault_penalty = 2.0; // run-time increase per unit of the fraction of memory that does not fit
  double node_memory_mb = 0;       // when > 0, overrides the platform's memory_mb
};

struct WorkloadSpec {
  std::optional<std::string> trace; // SWF file (name searched on the trace path, or a path)
  std::optional<GeneratorSpec> generator;
  WorkloadFilter filter;
  CommSpec communication;
  MemorySpec memory;
};

struct PolicySpec {
  std::string name = "easy";
  std::map<std::string, std::string> params;
  std::string allocation = "first-fit";
  std::map<std::string, std::string> allocation_params;
};

struct SimulationSpec {
  std::uint64_t seed = 1;
  std::string host_model = "ptask_L07";
  double reference_speed = 0; // flop/s per core at which run times are measured; 0: the first compute host's speed
};

struct Scenario {
  std::filesystem::path file;
  std::string name;
  std::filesystem::path platform;
  std::filesystem::path deployment;
  WorkloadSpec workload;
  PolicySpec policy;
  SimulationSpec simulation;
  std::filesystem::path output_dir;
};

/* `overrides` are "dotted.key=value" strings from --set, applied to the YAML before it is read. */
Scenario load_scenario(const std::filesystem::path& file, const std::vector<std::string>& overrides = {});

/* Same, from YAML text (tests); relative paths resolve against `dir`. */
Scenario parse_scenario(const std::string& yaml_text, const std::filesystem::path& file,
                        const std::vector<std::string>& overrides = {});

} // namespace jobsched
