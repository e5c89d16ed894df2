/* workload.generator.model: downey (workload/generator.hpp): Cao et al.'s phased malleable jobs as workload jobs. */
#include "model/malleable_job.hpp"
#include "workload/generator.hpp"

#include <algorithm>
#include <cmath>

namespace jobsched {

std::vector<JobRecord> generate_downey_jobs(const GeneratorSpec& gs, int processors)
{
  namespace hs = hierarchical;
  hs::DowneyWorkloadSpec spec;
  spec.jobs = gs.jobs;
  spec.beta1 = gs.downey.beta1;
  spec.beta2 = gs.downey.beta2;
  spec.A_min = gs.downey.min_parallelism;
  spec.A_max = gs.downey.max_parallelism;
  spec.work_unit = gs.downey.work_unit;
  spec.jobs_per_unit_load = gs.downey.jobs_per_unit_load;
  spec.phase_length = gs.downey.phase_length;
  if (!gs.downey.shapes.empty()) {
    spec.shapes.clear();
    for (const std::string& name : gs.downey.shapes)
      for (int k = 0; k < hs::kShapeCount; k++)
        if (name == hs::to_string(static_cast<hs::ParallelismShape>(k)))
          spec.shapes.push_back(static_cast<hs::ParallelismShape>(k));
  }
  // Leaves: the policy places jobs (policies/hierarchical/hierarchical_policy.cpp); the draw here is not used.
  std::vector<hs::GeneratedJob> generated = hs::generate_downey_jobs(spec, processors, 1, gs.seed);
  std::vector<JobRecord> out;
  out.reserve(generated.size());
  for (size_t i = 0; i < generated.size(); i++) {
    const hs::MalleableJob& m = generated[i].job;
    WorkloadJob j;
    j.id = static_cast<JobId>(i);
    j.submit_time = generated[i].release;
    j.size = std::max(1, std::min(processors, static_cast<int>(std::ceil(m.average_parallelism() - 1e-9))));
    j.shape = JobShape::malleable;
    j.min_size = 1;
    j.max_size = processors;
    const auto phases = static_cast<long>(m.shapes().size());
    double alone = 0;
    for (long p = 0; p < phases; p++) {
      const double segment_span = m.phase_span(p) / hs::kSegmentsPerPhase;
      for (int k = 0; k < hs::kSegmentsPerPhase; k++) {
        const double h = m.segment_parallelism(p, k);
        j.profile.span.push_back(segment_span);
        j.profile.parallelism.push_back(h);
        alone += h > 0 ? segment_span * h / std::min(h, static_cast<double>(j.size)) : segment_span;
      }
    }
    j.run_time = alone;
    j.estimate = alone;
    j.speedup = Speedup{};
    out.push_back({j, "downey job " + std::to_string(i)});
  }
  return out;
}

} // namespace jobsched
