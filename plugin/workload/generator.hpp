/* The built-in synthetic workload: enough for the quickstart and for tests, with no external data.
 *
 * Poisson arrivals; sizes serial with probability `serial_fraction`, else a power of two up to `max_size` (chosen
 * uniformly among the exponents) with probability `power_of_two_fraction`, else uniform in 2..max_size; run times
 * log-uniform in [min_run_time, max_run_time]; estimates = run time x a factor uniform in [1, max_estimate_factor].
 * These are the qualitative features of real logs (Lublin & Feitelson 2003), not a calibrated model. Each quantity
 * draws from its own named stream, so changing one distribution leaves the others' numbers unchanged.
 *
 * run_time_distribution = two_class: run times exponential with mean `short_mean` or `long_mean`, the long class
 * with probability `long_fraction` (a two-stage hyperexponential): Setia's adaptive-partitioning workload (section
 * 4.1: 300 s, 3600 s, 0.25) and McCann & Zahorjan's (section 5.2: 400 s, 4000 s, 1/2).
 *
 * Two ways to give jobs a memory requirement (one or the other):
 *   - memory_distribution (Setia, section 4.1): each job's code and data fill min_j processors' memories
 *     (`node_memory_mb` each), min_j drawn from distribution A (uniform 1..P), B (1..P/2 with probability 0.75, else
 *     P/2+1..P) or C (uniform 1..P/2), P being the machine size (128 in the paper); the job's memory per processor of
 *     its requested size is then min_j x node_memory_mb / size (stream "memory requirements").
 *   - min_nodes (McCann & Zahorjan, section 5.2): every job gets a minimum node count M_j drawn as in the paper's
 *     Table 3 (Uniform(1 .. 2LN/J - 1), the draw of the overhead experiment below, N = the machine size) and says it
 *     through its memory: size 1 and M_j x node_memory_mb of memory, so that the memory-constrained policy
 *     (min_nodes: memory, the same node_memory_mb) finds M_j, the job's work at one node is its run time (its service
 *     demand, whatever the speedup model), and its memory image is M_j nodes' worth. */
#pragma once

#include "core/random.hpp"
#include "workload/workload.hpp"

#include <cstdint>
#include <optional>
#include <functional>
#include <string>
#include <vector>

namespace jobsched {

namespace memory_constrained {

/* Minimum node counts as Table 3 of McCann & Zahorjan 1994 draws them; used by the overhead experiment
 * (experiment/overhead_experiment.hpp, section 5.1) and by the generator's min_nodes (section 5.2).
 *   - Load factor = J x mean M_j / N. M_j ~ Uniform(1 .. 2LN/J - 1) has mean LN/J, which gives exactly that load.
 *   - When u = 2LN/J - 1 is not an integer, the upper end is rounded per job: floor(u) + 1 with probability
 *     u - floor(u), else floor(u) (rounding "mix"), which keeps the mean at LN/J exactly; "floor" and "nearest" are
 *     there to show how much the choice moves the results.
 *   - A point whose upper end can exceed N (ceil(u) > N) is left out, not capped; so is one with floor(u) < 1. */

/* How the upper end of Uniform(1 .. 2LN/J - 1) is made an integer when it is not one. */
enum class RangeRounding { mix, floor, nearest };

/* The distribution of one M_j: Uniform(1 .. upper) where upper is `low` with probability 1 - p_high and low + 1 with
 * probability p_high (p_high = 0 when 2LN/J - 1 is an integer or the rounding is not "mix"). */
struct MinsDistribution {
  int low = 0;
  double p_high = 0;
  /* The exact p_high as a fraction (p_high_numerator / p_high_denominator), used for drawing. */
  long long p_high_numerator = 0;
  long long p_high_denominator = 1;
  int largest() const { return p_high_numerator > 0 ? low + 1 : low; }
  /* The mean M_j: (low + 1) / 2 + p_high / 2. */
  double mean() const;
};

/* The distribution at N nodes, J jobs, load factor `load_percent` / 100; nullopt when the point is left out (the
 * range can exceed N, or its upper end is below 1). InputError when N, J or the load is not positive. */
std::optional<MinsDistribution> mins_distribution(int nodes, int jobs, int load_percent, RangeRounding rounding);

/* J draws from the distribution; each consumes exactly two numbers of the stream, whatever the rounding (so that
 * every rounding sees the same random numbers). */
std::vector<int> draw_mins(const MinsDistribution& distribution, int jobs, RandomStream& stream);

} // namespace memory_constrained

/* Table 3's minimum node counts, one per job (see the header comment). */
struct MinNodesSpec {
  bool enabled = false;
  int load_percent = 100; // L: the load factor, in percent
  int jobs = 0;           // J in 2LN/J: the multiprogramming level (the scenario puts workload.closed.jobs here)
  memory_constrained::RangeRounding rounding = memory_constrained::RangeRounding::mix;
  double node_memory_mb = 0; // memory of one node: a job's memory is M_j x this
};

enum class RunTimeDistribution { log_uniform, two_class };

/* Setia's memory requirement distributions (section 4.1); none: jobs have no memory figure. */
enum class MemoryDistribution { none, setia_a, setia_b, setia_c };

/* One min_j (processors' worth of memory) from `distribution` on a machine of `machine_size` processors; draws two
 * numbers of `stream` whatever the distribution. */
int draw_memory_processors(MemoryDistribution distribution, int machine_size, RandomStream& stream);

/* Which generator makes the jobs (workload.generator.model): `batch`, the generator above; `vp`, the VP jobs of the
 * gang-now study (generate_vp_jobs); `downey`, the phased malleable jobs of the hierarchical study
 * (DowneyGeneratorSpec). */
enum class GeneratorModel { batch, vp, downey };

/* The VP jobs of gang scheduling on networks of workstations (Al-Saqabi, Otto & Walpole). The paper has no workload
 * ("insufficient trace data on VP and processor behavior"): this one is ours, every number a scenario key.
 *   - arrivals: Poisson, mean interarrival `mean_interarrival` seconds (stream "gang-arrivals");
 *   - a job is X virtual processors (VPs: its size) of equal work, X uniform in [min_vps, max_vps] (stream "gang-vps");
 *   - work per VP (the job's run time): log-uniform in [min_work, max_work] seconds at the reference speed, which is
 *     the slowest compute host's under this model unless simulation.reference_speed says otherwise (stream
 *     "gang-work");
 *   - the memory image of one VP: `image_mb` MB (10^6 bytes; the job's memory per processor): what a migration moves;
 *   - one architecture per job, drawn among the platform's architectures (or those listed in `archs`) with
 *     probability proportional to the architecture's total capacity (sum of speed / slowest speed) (stream
 *     "gang-arch"), so that each pool gets work in proportion to what it can do;
 *   - while it is in the system a job creates VPs (new_VP) and ends VPs early (VP_exit) at the Poisson rates
 *     `new_vp_per_hour` and `vp_exit_per_hour` (runtime/events/process_source.hpp). */
struct VpGeneratorSpec {
  int min_vps = 2;
  int max_vps = 16;
  double min_work = 300;
  double max_work = 3000;
  double image_mb = 32;
  double new_vp_per_hour = 0;
  double vp_exit_per_hour = 0;
  std::vector<std::string> archs; // empty: every architecture of the platform
};

/* `workload.generator.model: downey`: Downey's moldable job model turned into phased malleable jobs, as Cao et al.'s
 * study draws them (model/malleable_job.hpp says how); the keys of the former hierarchy.workload. */
struct DowneyGeneratorSpec {
  double beta1 = -0.14;
  double beta2 = 0.073;
  double min_parallelism = 1;
  double max_parallelism = 256;
  double work_unit = 1e-6; // processor-seconds per Downey unit
  double jobs_per_unit_load = 160;
  double phase_length = 0.01;      // seconds of span (10 L, L = 1 ms)
  std::vector<std::string> shapes; // curve names; empty: all seven
};

struct GeneratorSpec {
  GeneratorModel model = GeneratorModel::batch;
  VpGeneratorSpec vp; // model vp
  DowneyGeneratorSpec downey; // model downey
  long jobs = 200;
  std::uint64_t seed = 1;
  double mean_interarrival = 60; // seconds
  int max_size = 0;              // 0: the machine size
  double serial_fraction = 0.25;
  double power_of_two_fraction = 0.75;
  RunTimeDistribution run_time_distribution = RunTimeDistribution::log_uniform;
  double min_run_time = 10;   // seconds, log_uniform
  double max_run_time = 7200; // seconds, log_uniform
  double short_mean = 400;    // seconds, two_class: mean of the short class
  double long_mean = 4000;    // seconds, two_class: mean of the long class
  double long_fraction = 0.5; // two_class: probability that a job is long
  double max_estimate_factor = 3;
  double time_resolution = 1; // submit, run and estimate times are multiples of this (0: continuous)
  MemoryDistribution memory_distribution = MemoryDistribution::none;
  double node_memory_mb = 1; // memory_distribution: the memory of one processor (MB)
  MinNodesSpec min_nodes;     // enabled: sizes are 1 and memories M_j x node_memory_mb
};

std::vector<JobRecord> generate_jobs(const GeneratorSpec& spec, int machine_size);
/* The same records, handed to `emit` one by one as they are drawn (a million-job workload is then never held twice:
 * as records and as jobs). */
void generate_jobs(const GeneratorSpec& spec, int machine_size, const std::function<void(JobRecord&&)>& emit);

/* `workload.generator.model: downey`: Cao et al.'s phased malleable jobs (model/malleable_job.hpp),
 * released at their arrival. Each job's parallelism profile is its phases' segments; it asks for ceil(A) processors
 * (its average parallelism, at most the machine's), its run time being how long it lasts alone on them. */
std::vector<JobRecord> generate_downey_jobs(const GeneratorSpec& spec, int processors);

/* Model vp: `archs` and `arch_weights` are the platform's architectures and their total capacities (positive), in
 * host order. InputError when `spec.vp.archs` names an architecture no host has. */
std::vector<JobRecord> generate_vp_jobs(const GeneratorSpec& spec, std::vector<std::string> archs,
                                        std::vector<double> arch_weights);

} // namespace jobsched
