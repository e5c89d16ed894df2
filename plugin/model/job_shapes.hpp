/* Shapes and speedups given to a workload's jobs (traces say nothing of them): rigid, moldable or malleable bounds,
 * a speedup model with its parameters, and memory for jobs that have none. */
#pragma once

#include "model/job.hpp"

#include <cstdint>

namespace jobsched {

/* How every job of the workload is shaped beyond what a trace says (model/speedup.hpp, core/job.hpp). */
struct JobShapeSpec {
  JobShape shape = JobShape::rigid;
  int min_size = 1; // moldable, malleable: fewest processors (capped at the job's size)
  int max_size = 0; // moldable, malleable: most processors; 0 = the job's requested size
  Speedup::Model speedup = Speedup::Model::linear;
  double downey_A = 0;     // downey: average parallelism; 0 = the job's requested size
  double downey_sigma = 0; // downey: variance of parallelism
  double beta_min = 0;     // beta, beta_static: drawn uniform in [beta_min, beta_max] per job (stream "speedup")
  double beta_max = 0;
  int static_threads = 0; // beta_static: the threads N each job is cut into; 0 = the machine size
  double memory_mb = 0;   // per processor, for jobs the workload gives none (0: leave unknown)
};

/* Give every job the spec's shape, bounds, speedup (beta drawn from the "speedup" stream of `seed`, in job order) and
 * memory. Bounds are clipped to [1, machine_size]. */
void apply_job_shapes(JobList& jobs, const JobShapeSpec& spec, int machine_size, std::uint64_t seed);

} // namespace jobsched
