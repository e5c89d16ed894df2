/* The allocation step: which processors a job gets, kept apart from the policy that decides when it runs.
 *
 * Policies ask the allocator whether and where a job fits in a set of processors; contiguous (mesh) and SMP-aware
 * placements are further allocators registered by name. */
#pragma once

#include "core/machine.hpp"
#include "core/params.hpp"
#include "core/registry.hpp"
#include "core/resource_set.hpp"
#include "model/job.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace jobsched {

/* A running job's expected end (its start plus its estimate, never in the past), its processors, and the start and
 * estimate it was computed from (an allocator with a cost model may stretch the estimate by the job's placement). */
struct ExpectedRelease {
  double end = 0;
  ResourceSet resources;
  double start = 0;
  double estimate = 0;
};

/* What the runtime tells an allocator before a decision pass, when it asks for it. */
struct AllocatorView {
  double now = 0;
  double network_load = 0;               // mean utilization (0..1) of the links between hosts (wants_network_load)
  std::vector<ExpectedRelease> releases; // running jobs, by expected end (wants_releases)
};

class Allocator {
 public:
  virtual ~Allocator() = default;
  /* Processors for `job` taken from `available`, or nothing when it does not fit. Where the allocator has a choice it
   * takes members of `preferred` first (EASY uses it to reserve processors that are busy now, leaving the idle ones
   * to backfilling); whether it fits does not depend on `preferred`. */
  virtual std::optional<ResourceSet> select(const Job& job, const ResourceSet& available,
                                            const ResourceSet* preferred = nullptr) const = 0;
  bool fits(const Job& job, const ResourceSet& available) const { return select(job, available).has_value(); }
  /* True when any `size` idle processors will do, so that planning with processor counts is exact. */
  virtual bool any_processors_will_do() const { return false; }
  /* Called by the runtime before every decision pass when wants_network_load() or wants_releases() (an adaptive
   * allocator reacts to them). */
  virtual void observe(AllocatorView /*view*/) {}
  /* True when the allocator reads the network load (measuring it costs a pass over the links). */
  virtual bool wants_network_load() const { return false; }
  /* True when the allocator reads the running jobs' expected ends (a copy of their processor sets per pass). */
  virtual bool wants_releases() const { return false; }
  /* Policies call it for every job they start in a pass, so that an allocator that plans ahead counts its expected
   * end (the pass's instant plus its estimate) among the releases it read (a per-pass record: hence const). */
  virtual void started(const Job& /*job*/, const ResourceSet& /*resources*/) const {}
};

/* What an allocator gets at construction. */
struct AllocatorEnv {
  const Machine& machine;
  const Params& params;
  int communication_level = 0;      // the workload's communication Level (workload.communication.level)
  double communication_base = 0.05; // workload.communication.base
  bool network_model = false;       // workload.communication.model is network
};

struct AllocatorInfo {
  std::string name;
  std::string description;
  std::vector<ParamSpec> params;
  std::function<std::unique_ptr<Allocator>(const AllocatorEnv&)> make;
};

Registry<AllocatorInfo>& allocator_registry();

struct AllocatorRegistration {
  explicit AllocatorRegistration(AllocatorInfo info) { allocator_registry().add(std::move(info)); }
};

} // namespace jobsched
