/* What a policy asks the runtime to do. The runtime checks each decision against the machine state and applies them
 * in order; an impossible one (busy processors, unknown job) is a PolicyError. */
#pragma once

#include "core/resource_set.hpp"
#include "model/job.hpp"

#include <vector>

namespace jobsched {

struct Decision {
  enum class Kind { start, kill, suspend, resume, resize, migrate };
  Kind kind = Kind::start;
  JobId job = 0;
  ResourceSet resources;  // start, resize, migrate: the new processors; resume: empty = the ones it had
  double image_bytes = 0; // migrate: bytes transferred from the old hosts to the new ones before the job continues

  static Decision start(JobId j, ResourceSet r) { return {Kind::start, j, std::move(r), 0}; }
  static Decision kill(JobId j) { return {Kind::kill, j, {}, 0}; }
  static Decision suspend(JobId j) { return {Kind::suspend, j, {}, 0}; }
  static Decision resume(JobId j) { return {Kind::resume, j, {}, 0}; }
  static Decision resize(JobId j, ResourceSet r) { return {Kind::resize, j, std::move(r), 0}; }
  static Decision migrate(JobId j, ResourceSet r, double bytes) { return {Kind::migrate, j, std::move(r), bytes}; }
};

using Decisions = std::vector<Decision>;

const char* to_string(Decision::Kind kind);

} // namespace jobsched
