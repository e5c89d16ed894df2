/* A sweep: a grid over scenario values times replications, each run an independent simulation.
 *
 * In the scenario:
 *   sweep:                          # a grid: every combination of the listed values
 *     policy.name: [fcfs, easy]
 *     workload.generator.mean_interarrival: [300, 600]
 *     # or keys swept together, one point per listed pair rather than a grid:
 *     # policy.params.fraction, policy.params.overhead: [[0.5, 0], [0.75, 0.25]]
 *   replications: 5                 # or a list of seeds [11, 12, 13], or a stopping rule:
 *   # replications: {min: 3, max: 30, metric: mean_bounded_slowdown, relative_half_width: 0.05}
 *
 * Replication r of every point runs with simulation.seed = seeds[r] (default: the scenario's seed + r), so every
 * policy sees the same workload for the same replication (common random numbers). A run is named by a hash of its
 * settings (the resolved scenario with its file names absolute, whatever file, sweep or --set gave them), which is what
 * makes an interrupted sweep resumable, and a run shared by two sweeps of the same folder done once. */
#pragma once

#include "scenario/replications.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>
#include <yaml-cpp/yaml.h>

namespace jobsched {

struct Scenario;

/* The numeric fields of the summary.json that a run of `scenario` writes, read off that file's writer itself (fed
 * empty results), so that a stopping rule naming another field fails before the first run. */
std::vector<std::string> summary_metrics(const Scenario& scenario);

struct SweepAxis {
  std::string key;                 // dotted scenario key
  std::vector<std::string> values; // YAML text of each value
  size_t group = 0;                // index of the first of the keys swept together with this one (its own if alone)
  std::string origin;              // where its list is, for errors: "FILE:LINE" (of `sweep:`'s list) or "--set"
};

struct SweepRun {
  long point = 0;
  long replication = 0;
  std::uint64_t seed = 0;
  std::vector<std::string> overrides; // --set assignments for `jobsched run` (command line, point, seed)
  std::string resolved_yaml;          // the scenario this run simulates
  std::string hash; // 16 hex digits of the run's settings (its file names absolute): the run's folder name
};

class SweepPlan {
 public:
  /* Reads `sweep:` and `replications:` from the scenario after the command line's --set overrides. Every point's
   * scenario is loaded once to check it; `check_point`, when given, is called with each point's number and scenario,
   * in point order, and checks it further (jobsched sweep: its files and its policy, without which every run of the
   * point would fail, one by one; and notes the files its runs write). */
  static SweepPlan load(const std::filesystem::path& scenario, const std::vector<std::string>& overrides,
                        const std::function<void(long point, const Scenario&)>& check_point = {});

  const std::filesystem::path& scenario() const { return scenario_; }
  const std::vector<SweepAxis>& axes() const { return axes_; }
  const ReplicationRule& replications() const { return rule_; }
  long point_count() const;
  /* The value of every axis at `point` (grid order: the last axis varies fastest). */
  std::vector<std::string> point_values(long point) const;
  SweepRun make_run(long point, long replication) const;
  /* `message`, an error of a run of `point`, naming the point and its swept values (the scenario's own errors, of a
   * plan without a sweep, as they are). */
  std::string point_error(long point, std::string message) const;
  /* The runs of fixed replications, or the first `min` replications of a stopping rule, in plan order. */
  std::vector<SweepRun> initial_runs() const;
  std::string output_dir() const { return output_dir_; }
  /* The runs are of the fork-join study (`jobsched fork-join`), not scheduling runs (`jobsched run`). */
  bool fork_join() const { return fork_join_; }

 private:
  std::filesystem::path scenario_;
  std::vector<std::string> cli_overrides_;
  YAML::Node tree_;
  YAML::Node settings_; // tree_ with every file name absolute (what a run's name hashes, with its point and seed)
  std::vector<SweepAxis> axes_;
  ReplicationRule rule_;
  std::string output_dir_;
  bool fork_join_ = false;
};

} // namespace jobsched
