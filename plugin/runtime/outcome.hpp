/* What happened to each job: the raw material of jobs.csv and summary.json. */
#pragma once

#include "core/job.hpp"
#include "core/resource_set.hpp"
#include "runtime/job_model.hpp"
#include "runtime/job_runtime.hpp"

#include <vector>

namespace jobsched {

struct JobOutcome {
  const Job* job = nullptr;
  JobFate fate = JobFate::running; // running = never finished (the simulation stopped first)
  double start_time = -1;          // first start
  double finish_time = -1;
  ResourceSet resources; // the last allocation
  int restarts = 0;      // resizes and migrations
  PlacementCost cost;    // of the last placement: nodes used, communication and paging stretches
};

} // namespace jobsched
