/* A workload for gang scheduling on networks of workstations (Al-Saqabi, Otto & Walpole, "Gang Scheduling in
 * Heterogeneous Distributed Systems"). The paper has none ("insufficient trace data on VP and processor behavior"):
 * this one is ours, every number a scenario parameter.
 *
 *   - arrivals: Poisson, mean interarrival `mean_interarrival` seconds (stream "gang-arrivals");
 *   - a job is X virtual processors (VPs) of equal work, X uniform in [min_vps, max_vps] (stream "gang-vps");
 *   - work per VP: log-uniform in [min_work, max_work] seconds on the slowest workstation of the network, the same
 *     for all VPs of a job (MTAT treats them as identical units) (stream "gang-work");
 *   - the memory image of one VP: `image_mb` MB (10^6 bytes): what a migration moves;
 *   - one architecture per job, drawn among the platform's architectures (or those listed in `archs`) with
 *     probability proportional to the architecture's total capacity (sum of a_i) (stream "gang-arch"), so that each
 *     pool gets work in proportion to what it can do;
 *   - while it runs, a job creates VPs (new_VP) and ends VPs early (VP_exit) at the Poisson rates `new_vp_per_hour`
 *     and `vp_exit_per_hour` (per job, per hour of its life, from its arrival): see the driver. A VP also exits when
 *     its work is done; the job ends with its last VP. */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace jobsched {

struct GangWorkloadSpec {
  long jobs = 20;
  double mean_interarrival = 600;
  int min_vps = 2;
  int max_vps = 16;
  double min_work = 300;
  double max_work = 3000;
  double image_mb = 32;
  double new_vp_per_hour = 0;
  double vp_exit_per_hour = 0;
  std::vector<std::string> archs; // empty: every architecture of the platform
};

struct GangJob {
  long id = 0;
  double submit = 0;
  int vps = 1;
  double work = 0; // seconds per VP on the slowest workstation
  double image_bytes = 0;
  std::string arch;
};

/* `archs` and `arch_weights`: the platform's architectures and their total capacities (positive). */
std::vector<GangJob> generate_gang_jobs(const GangWorkloadSpec& spec, const std::vector<std::string>& archs,
                                        const std::vector<double>& arch_weights, std::uint64_t seed);

} // namespace jobsched
