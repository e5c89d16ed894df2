/* A rigid parallel job as the workload describes it.
 *
 * Policies see every field but `run_time`: that is the truth the runtime uses to size the job's work, and a policy that
 * read it would be clairvoyant. Policies plan with `estimate` (the user's requested time). */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace jobsched {

using JobId = std::int64_t;

struct Job {
  JobId id = 0;
  double submit_time = 0; // seconds since the start of the workload
  int size = 1;           // processors (cores) requested
  double estimate = 0;    // seconds: requested wall time, what policies plan with
  double run_time = 0;    // seconds at the platform's reference speed on dedicated processors (hidden truth)
  double memory_kb = -1;  // per processor, -1 when unknown
  int user = -1;
  bool kill_at_estimate = false; // the runtime stops the job when its execution time reaches `estimate`
};

using JobList = std::vector<Job>;

} // namespace jobsched
