#include "workload/workload.hpp"

#include "core/errors.hpp"
#include "core/random.hpp"
#include "core/time_format.hpp"

#include <algorithm>
#include <unordered_map>

namespace jobsched {

bool is_rejection_reason(const std::string& reason)
{
  return reason == "no_run_time" || reason == "no_size" || reason == "larger_than_machine";
}

Workload build_workload(std::string name, const std::vector<JobRecord>& records, const WorkloadFilter& filter,
                        int machine_size, int source_max_procs, int largest_job, const std::string& largest_job_reason,
                        const MemoryNeed& memory_need)
{
  WorkloadBuilder builder(std::move(name), filter, machine_size, source_max_procs, largest_job, largest_job_reason,
                          records.size());
  builder.set_memory_need(memory_need);
  builder.set_source_records(static_cast<long>(records.size()));
  for (const auto& rec : records)
    builder.add(rec);
  return builder.finish();
}

WorkloadBuilder::WorkloadBuilder(std::string name, const WorkloadFilter& filter, int machine_size, int source_max_procs,
                                 int largest_job, std::string largest_job_reason, size_t expected_jobs)
    : filter_(filter), machine_size_(machine_size), largest_job_(largest_job),
      largest_job_reason_(std::move(largest_job_reason))
{
  if (largest_job_ <= 0 || (largest_job_ > machine_size && largest_job_ != kAnyJobSize)) largest_job_ = machine_size;
  w_.name = std::move(name);
  w_.source_max_procs = source_max_procs;
  if (filter.max_jobs > 0) expected_jobs = std::min(expected_jobs, static_cast<size_t>(filter.max_jobs));
  w_.jobs.reserve(expected_jobs);
  origins_.reserve(expected_jobs);
}

void WorkloadBuilder::add(const JobRecord& rec)
{
  Workload& w = w_;
  const WorkloadFilter& filter = filter_;
  const int machine_size = machine_size_;
  const int largest_job = largest_job_;
  const std::string& largest_job_reason = largest_job_reason_;
  auto skip = [&w](const char* reason) { w.skipped[reason]++; };
  {
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
      return;
    }
    if (filter.end_time >= 0 && job.submit_time >= filter.end_time) {
      skip("after_end_time");
      return;
    }
    if (job.run_time <= 0 || job.size <= 0) {
      if (filter.reject_invalid)
        throw InputError(rec.origin + ": job " + std::to_string(job.id) +
                         (job.size <= 0 ? " has no processor count" : " has no positive run time"));
      skip(job.size <= 0 ? "no_size" : "no_run_time");
      return;
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
      return;
    }
    if (memory_need_.least_processors) {
      const double least = memory_need_.least_processors(job);
      if (least > machine_size) {
        if (filter.reject_oversize)
          throw InputError(rec.origin + ": job " + std::to_string(job.id) + " needs at least " + format_exact(least) +
                           " processors for its memory (" + memory_need_.reason + "), but the machine has " +
                           std::to_string(machine_size));
        skip("larger_than_machine");
        return;
      }
    }
    if (filter.max_size > 0 && job.size > filter.max_size) {
      skip("above_max_size");
      return;
    }
    if (filter.max_jobs > 0 && static_cast<long>(w.jobs.size()) >= filter.max_jobs) {
      skip("beyond_max_jobs");
      return;
    }
    if (job.estimate <= 0) job.estimate = job.run_time;
    job.requested_time = job.estimate;
    if (job.run_time > job.estimate) {
      w.overrun_jobs++;
      if (filter.overrun == Overrun::extend)
        job.estimate = job.run_time;
      else
        job.kill_at_estimate = true;
    }
    if (increasing_ && !w.jobs.empty() && job.id <= w.jobs.back().id) { // from now on, numbers are looked up
      increasing_ = false;
      for (size_t i = 0; i < w.jobs.size(); i++)
        origin_of_.emplace(w.jobs[i].id, origins_[i]);
      origins_ = {};
    }
    if (increasing_) {
      origins_.push_back(&rec.origin);
    } else {
      auto [first, fresh] = origin_of_.emplace(job.id, &rec.origin);
      if (!fresh)
        throw InputError(rec.origin + ": job number " + std::to_string(job.id) + " appears twice (first at " +
                         *first->second + ")");
    }
    w.jobs.push_back(std::move(job));
  }
}

Workload WorkloadBuilder::finish()
{
  Workload& w = w_;
  const WorkloadFilter& filter = filter_;
  const int machine_size = machine_size_;
  origins_ = {};
  origin_of_ = {};
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
  return std::move(w_);
}

} // namespace jobsched
