/* A parallel job as the workload describes it, in two parts.
 *
 * `Job` is what policies see: submission, requested size, shape and bounds, estimate, memory. `WorkloadJob` adds the
 * hidden truth the runtime uses to size the job's work: its actual run time and speedup function. Policy hooks take
 * `const Job&`, so a policy cannot read the truth without a deliberate cast: non-clairvoyance holds by construction.
 * Policies plan with `estimate` (the user's requested time). */
#pragma once

#include "model/speedup.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace jobsched {

using JobId = std::int64_t;

/* Rigid: exactly `size` processors. Moldable: any count in [min_size, max_size], chosen at start and fixed after.
 * Malleable: the allotment may change while the job runs (a resize costs what the policy charges). */
enum class JobShape { rigid, moldable, malleable };
const char* to_string(JobShape shape);

struct Job {
  JobId id = 0;
  double submit_time = 0; // seconds since the start of the workload
  int size = 1;           // processors (cores) requested
  double estimate = 0;    // seconds on `size` processors: requested wall time, what policies plan with
  double memory_kb = -1;  // per processor, -1 when unknown
  int user = -1;
  double recorded_start = -1;    // what the site's scheduler did (SWF submit + wait), -1 when unknown: for replay
  int recorded_size = -1;        // processors the site allocated (SWF field 5), -1 when unknown
  bool kill_at_estimate = false; // the runtime stops the job when its execution time reaches `estimate`
  JobShape shape = JobShape::rigid;
  int min_size = 1; // moldable and malleable jobs: fewest processors (e.g. its memory does not fit on fewer)
  int max_size = 1; // moldable and malleable jobs: most processors it can use
  /* The architecture its code is built for (the hosts' property `arch`), empty when the workload gives none. Only
   * gang-now reads it: a job without one takes the architecture of the platform's largest total capacity. */
  std::string arch;

  /* The allotment bounds a policy must respect: [size, size] for a rigid job. */
  int min_processors() const { return shape == JobShape::rigid ? size : min_size; }
  int max_processors() const { return shape == JobShape::rigid ? size : max_size; }
  /* Bytes of the job's memory image (all its processes), 0 when unknown. */
  double image_bytes() const { return memory_kb > 0 ? memory_kb * 1024.0 * size : 0.0; }
};

/* How a job's parallelism varies along its span (Cao et al.'s phased malleable jobs): segment k covers span[k]
 * seconds of span (its critical path, at the reference speed) with parallelism[k] >= 0 threads, so its work is
 * span[k] x parallelism[k] processor-seconds. On an allotment of a processors (fractional allowed) the job does
 * min(a, h) work per second and covers span at min(a, h) / h. Empty: the job follows its speedup function instead. */
struct ParallelismProfile {
  std::vector<double> span;
  std::vector<double> parallelism;
  bool empty() const { return span.empty(); }
  double total_span() const;
  double total_work() const;
};

/* The workload's full record of a job: the public part and the hidden truth. */
struct WorkloadJob : Job {
  double run_time = 0; // seconds at the reference speed on `size` dedicated processors
  Speedup speedup;     // progress rate on n processors, relative to one
  ParallelismProfile profile; // phase-varying parallelism (hidden like the run time); empty for most workloads
  /* The wall time it asked for (the run time where the source gave none), as reported in jobs.csv's and segments.csv's
   * requested_time: `estimate` is the same unless workload.overrun: extend raised it to the run time. */
  double requested_time = 0;

  /* Work at one processor, in seconds at the reference speed: run time x S(size). */
  double work() const { return run_time * speedup(size); }
};

using JobList = std::vector<WorkloadJob>;

} // namespace jobsched
