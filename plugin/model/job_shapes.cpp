#include "model/job_shapes.hpp"

#include "core/random.hpp"

#include <algorithm>

namespace jobsched {

void apply_job_shapes(JobList& jobs, const JobShapeSpec& spec, int machine_size, std::uint64_t seed)
{
  RandomStream betas(seed, "speedup");
  for (auto& j : jobs) {
    j.shape = spec.shape;
    if (spec.shape == JobShape::rigid) {
      j.min_size = j.max_size = j.size;
    } else {
      j.max_size = std::min(machine_size, spec.max_size > 0 ? spec.max_size : j.size);
      j.min_size = std::min({spec.min_size, j.size, j.max_size});
    }
    switch (spec.speedup) {
    case Speedup::Model::linear:
      j.speedup = Speedup::linear();
      break;
    case Speedup::Model::downey:
      j.speedup = Speedup::downey(spec.downey_A > 0 ? spec.downey_A : j.size, spec.downey_sigma);
      break;
    case Speedup::Model::beta:
      j.speedup = Speedup::with_beta(betas.uniform(spec.beta_min, spec.beta_max));
      break;
    case Speedup::Model::beta_static: // same beta draws as `beta`, so the two workloads differ only in the model
      j.speedup = Speedup::with_beta_static(betas.uniform(spec.beta_min, spec.beta_max),
                                            spec.static_threads > 0 ? spec.static_threads : machine_size);
      break;
    }
    if (!(j.memory_kb > 0) && spec.memory_mb > 0) j.memory_kb = spec.memory_mb * 1024.0;
  }
}

} // namespace jobsched
