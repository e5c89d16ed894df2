#include "workload/workload.hpp"

#include "core/errors.hpp"
#include "core/random.hpp"
#include "core/time_format.hpp"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace jobsched {

bool is_rejection_reason(const std::string& reason)
{
  return reason == "no_run_time" || reason == "no_size" || reason == "larger_than_machine";
}

Workload build_workload(std::string name, const std::vector<JobRecord>& records, const WorkloadFilter& filter,
                        int machine_size, int source_max_procs, int largest_job, const std::string& largest_job_reason)
{
  if (largest_job <= 0 || (largest_job > machine_size && largest_job != kAnyJobSize)) largest_job = machine_size;
  Workload w;
  w.name = std::move(name);
  w.source_max_procs = source_max_procs;
  w.source_records = static_cast<long>(records.size());
  auto skip = [&w](const char* reason) { w.skipped[reason]++; };
  // A job number read twice is an error. Logs number their jobs in increasing order: while the kept jobs' numbers
  // increase, none can repeat and no table is needed; the first number that does not increase fills the table with
  // the jobs kept so far, which is then kept up to date.
  std::unordered_map<JobId, const std::string*> origin_of; // job number -> where it was read
  std::vector<const JobRecord*> kept;                       // the records of w.jobs, while numbers increase
  bool increasing = true;
  w.jobs.reserve(records.size());
  kept.reserve(records.size());
  for (const auto& rec : records) {
    WorkloadJob job = rec.job;
    // Times beyond about 31,700 years lose the simulator's precision (and 1e300 s of work is infinite flops).
    constexpr double kMaxSeconds = 1e12;
    for (auto [value, what] : {std::pair{job.submit_time, "submit time"}, std::pair{job.run_time, "run time"},
                               std::pair{job.estimate, "requested time"}})
      if (value > kMaxSeconds)
        throw InputError(rec.origin + ": job " + std::to_string(job.id) + ": " + what + " " + format_exact(value) +
                         " s is beyond what can be simulated (at most 1e12 s)");
    if (filter.start_time >= 0 && job.submit_time < filter.start_time) {
      skip("before_start_time");
      continue;
    }
    if (filter.end_time >= 0 && job.submit_time >= filter.end_time) {
      skip("after_end_time");
      continue;
    }
    if (job.run_time <= 0 || job.size <= 0) {
      if (filter.reject_invalid)
        throw InputError(rec.origin + ": job " + std::to_string(job.id) +
                         (job.size <= 0 ? " has no processor count" : " has no positive run time"));
      skip(job.size <= 0 ? "no_size" : "no_run_time");
      continue;
    }
    if (job.size > largest_job) {
      if (filter.reject_oversize && job.size > machine_size)
        throw InputError(rec.origin + ": job " + std::to_string(job.id) + " asks for " + std::to_string(job.size) +
                         " processors but the machine has " + std::to_string(machine_size));
      if (filter.reject_oversize)
        throw InputError(rec.origin + ": job " + std::to_string(job.id) + " asks for " + std::to_string(job.size) +
                         " processors but one job can have at most " + std::to_string(largest_job) + " of the " +
                         std::to_string(machine_size) + " (" + largest_job_reason + ")");
      skip("larger_than_machine");
      continue;
    }
    if (filter.max_size > 0 && job.size > filter.max_size) {
      skip("above_max_size");
      continue;
    }
    if (filter.max_jobs > 0 && static_cast<long>(w.jobs.size()) >= filter.max_jobs) {
      skip("beyond_max_jobs");
      continue;
    }
    if (job.estimate <= 0) job.estimate = job.run_time;
    if (job.run_time > job.estimate) {
      w.overrun_jobs++;
      if (filter.overrun == Overrun::extend)
        job.estimate = job.run_time;
      else
        job.kill_at_estimate = true;
    }
    if (increasing && !kept.empty() && job.id <= kept.back()->job.id) {
      increasing = false;
      for (const JobRecord* k : kept)
        origin_of.emplace(k->job.id, &k->origin);
      kept = {};
    }
    if (increasing) {
      kept.push_back(&rec);
    } else {
      auto [first, fresh] = origin_of.emplace(job.id, &rec.origin);
      if (!fresh)
        throw InputError(rec.origin + ": job number " + std::to_string(job.id) + " appears twice (first at " +
                         *first->second + ")");
    }
    w.jobs.push_back(std::move(job));
  }
  auto by_submission = [](const WorkloadJob& a, const WorkloadJob& b) { return a.submit_time < b.submit_time; };
  if (!std::is_sorted(w.jobs.begin(), w.jobs.end(), by_submission)) // logs usually are: skip moving every job
    std::stable_sort(w.jobs.begin(), w.jobs.end(), by_submission);
  if (!w.jobs.empty()) {
    // Load scaling: inter-arrival times divided by the factor, from the first submission on.
    const double first = w.jobs.front().submit_time;
    if (filter.load_factor != 1)
      for (auto& j : w.jobs) {
        j.submit_time = first + (j.submit_time - first) / filter.load_factor;
        j.recorded_start = -1; // the site's schedule does not scale with the load
      }
    if (filter.shake > 0) {
      RandomStream shifts(filter.shake_seed, "shake");
      for (auto& j : w.jobs) {
        j.submit_time = std::max(first, j.submit_time + shifts.uniform(-filter.shake, filter.shake));
        j.recorded_start = -1; // nor does it follow the shaken submissions
      }
      std::stable_sort(w.jobs.begin(), w.jobs.end(), by_submission);
    }
    double work = 0;
    for (const auto& j : w.jobs)
      work += j.size * j.run_time;
    const double span = w.jobs.back().submit_time - first;
    if (span > 0 && machine_size > 0) w.offered_load = work / (span * machine_size);
  }
  return w;
}

} // namespace jobsched
