#include "experiment/run_outputs_check.hpp"

#include "core/csv.hpp"
#include "core/json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace jobsched {
namespace {

/* Batsim's interval notation ("0-3 7") as processor indices; false when malformed or outside [0, capacity). */
bool parse_processors(const std::string& text, int capacity, std::vector<int>& out)
{
  out.clear();
  std::istringstream in(text);
  std::string item;
  while (in >> item) {
    auto dash = item.find('-');
    char* end = nullptr;
    long first = std::strtol(item.c_str(), &end, 10);
    long last = first;
    if (dash != std::string::npos) {
      if (end != item.c_str() + dash) return false;
      last = std::strtol(item.c_str() + dash + 1, &end, 10);
    }
    if (*end != '\0' || first < 0 || last < first || last >= capacity) return false;
    for (long p = first; p <= last; p++)
      out.push_back(static_cast<int>(p));
  }
  return !out.empty();
}

double number(const std::string& text)
{
  return std::strtod(text.c_str(), nullptr);
}

struct Interval {
  double start;
  double end;
  long job;
  bool end_of_set; // the processor is the lowest or highest of the row's set
  size_t line;
};

} // namespace

std::string check_run_outputs(const fs::path& out, const CheckedRun& c)
{
  const double tick = 1.5e-6; // two rounded times may be this far apart and stand for one instant
  Json summary = read_json_file(out / "summary.json");
  auto count = [&summary](const char* key) { return summary.at(key).get<long>(); };
  if (count("records_read") != c.records)
    return "summary.json: records_read " + std::to_string(count("records_read")) + ", the generator made " +
           std::to_string(c.records);
  if (count("jobs_simulated") + count("jobs_rejected") + count("jobs_skipped") != c.records)
    return "summary.json: jobs simulated, rejected and skipped do not add up to the " + std::to_string(c.records) +
           " records";
  std::string saturated;
  for (const char* key : {"backlog_stop_time", "stall_stop_time", "no_progress_stop_time"})
    if (saturated.empty() && summary.at(key).get<double>() >= 0)
      saturated = std::string("the run stopped as saturated (summary.json ") + key + " " +
                  std::to_string(summary.at(key).get<double>()) + ")";

  CsvTable jobs = read_csv(out / "jobs.csv");
  const size_t id_col = jobs.required_column("job_id");
  const size_t state_col = jobs.required_column("final_state");
  // A starving policy: the jobs that never ran (not finished, no second of computation), named first, as the reason
  // the run stopped or the first job that ended badly (a table without computing_time, hand-made, names the first).
  const int computed_col = jobs.column("computing_time");
  std::vector<std::string> starved;
  for (const auto& row : jobs.rows)
    if (computed_col >= 0 && row[state_col] == "NOT_FINISHED" && number(row[static_cast<size_t>(computed_col)]) == 0)
      starved.push_back(row[id_col]);
  if (!starved.empty()) {
    constexpr size_t kNamed = 5;
    std::string ids;
    for (size_t i = 0; i < std::min(starved.size(), kNamed); i++)
      ids += (i ? ", " : "") + starved[i];
    if (starved.size() > kNamed) ids += " and " + std::to_string(starved.size() - kNamed) + " more";
    return "jobs.csv: " + std::to_string(starved.size()) + " of the " + std::to_string(jobs.rows.size()) +
           " jobs never started (job" + (starved.size() > 1 ? "s " : " ") + ids +
           ": NOT_FINISHED, no second computed): the policy starves them" + (saturated.empty() ? "" : "; " + saturated);
  }
  if (!saturated.empty()) return saturated + " on a lightly loaded case";
  const size_t size_col = jobs.required_column("requested_number_of_resources");
  const size_t run_col = jobs.required_column("trace_run_time");
  if (static_cast<long>(jobs.rows.size()) != count("jobs_simulated"))
    return "jobs.csv has " + std::to_string(jobs.rows.size()) + " rows for " + std::to_string(count("jobs_simulated")) +
           " jobs simulated";
  std::map<long, size_t> row_of;
  for (size_t r = 0; r < jobs.rows.size(); r++) {
    long id = std::strtol(jobs.rows[r][id_col].c_str(), nullptr, 10);
    if (!row_of.emplace(id, r).second) return jobs.where(r) + ": job " + std::to_string(id) + " has two rows";
    if (jobs.rows[r][state_col] != "COMPLETED_SUCCESSFULLY")
      return jobs.where(r) + ": job " + std::to_string(id) + " ended " + jobs.rows[r][state_col] +
             " (every job of these lightly loaded cases must complete)";
  }

  // trace.csv: intervals per processor of running (computing) and switching (holding the processor) rows.
  const int processors = static_cast<int>(c.speed.size()) * c.cores;
  CsvTable trace = read_csv(out / "trace.csv");
  const size_t tj = trace.required_column("job_id");
  const size_t ts = trace.required_column("start");
  const size_t te = trace.required_column("end");
  const size_t tp = trace.required_column("processors");
  const size_t tstate = trace.required_column("state");
  // Aggregated rows of a cycle advanced whole (their `repeats` not empty) stand for `repeats` segments, the i-th
  // shifted by i x period: each is checked as the segment it stands for.
  const int trepeats = trace.column("repeats");
  const int tperiod = trace.column("period");
  std::vector<std::vector<Interval>> on(static_cast<size_t>(processors));
  std::map<long, std::map<int, std::vector<std::pair<double, double>>>> running; // job -> processor -> intervals
  std::vector<int> members;
  for (size_t r = 0; r < trace.rows.size(); r++) {
    const auto& row = trace.rows[r];
    long job = std::strtol(row[tj].c_str(), nullptr, 10);
    if (row_of.count(job) == 0) return trace.where(r) + ": job " + row[tj] + " is not in jobs.csv";
    if (!parse_processors(row[tp], processors, members))
      return trace.where(r) + ": processors '" + row[tp] + "' are not processors of the machine";
    double start = number(row[ts]);
    double end = number(row[te]);
    if (!(end >= start)) return trace.where(r) + ": a segment ending before it starts";
    const std::string& state = row[tstate];
    if (state != "running" && state != "switching") continue;
    long repeats = 1;
    double period = 0;
    if (trepeats >= 0 && tperiod >= 0 && !row[static_cast<size_t>(trepeats)].empty()) {
      repeats = std::strtol(row[static_cast<size_t>(trepeats)].c_str(), nullptr, 10);
      period = number(row[static_cast<size_t>(tperiod)]);
      if (repeats < 1 || !(period > 0)) return trace.where(r) + ": an aggregated row without repeats or period";
    }
    for (long i = 0; i < repeats; i++) {
      const double shift = static_cast<double>(i) * period;
      for (int p : members) {
        on[static_cast<size_t>(p)].push_back(
            {start + shift, end + shift, job, p == members.front() || p == members.back(), trace.lines[r]});
        if (state == "running") running[job][p].emplace_back(start + shift, end + shift);
      }
    }
  }
  // A processor computes for one job at a time. Policies on fractional shares (Plan::share, McNaughton's wrap-around)
  // time-share a processor at the end of two jobs' sets within one segment, which trace.csv records whole: there
  // only, two jobs may overlap.
  for (size_t p = 0; p < on.size(); p++) {
    auto& list = on[p];
    std::sort(list.begin(), list.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
    for (size_t a = 0; a < list.size(); a++)
      for (size_t b = a + 1; b < list.size() && list[b].start < list[a].end - tick; b++) {
        const Interval& x = list[a];
        const Interval& y = list[b];
        if (x.job == y.job || y.end <= y.start + tick || x.end <= x.start + tick) continue;
        if (c.shares && x.end_of_set && y.end_of_set) continue;
        std::ostringstream why;
        why << "trace.csv lines " << x.line << " and " << y.line << ": processor " << p << " computes for jobs "
            << x.job << " and " << y.job << " at once, from " << std::max(x.start, y.start) << " to "
            << std::min(x.end, y.end);
        return why.str();
      }
  }
  // Work: each job's running processor-seconds (one processor counted once while several of the job's processes
  // share it), times its speed over the reference speed, cover its work.
  const double fastest = c.speed.empty() ? 1 : *std::max_element(c.speed.begin(), c.speed.end());
  for (const auto& [job, per_processor] : running) {
    double busy = 0;
    size_t segments = 0;
    for (auto [p, list] : per_processor) {
      std::sort(list.begin(), list.end());
      double speed = c.speed[static_cast<size_t>(p / c.cores)];
      double covered_to = -1;
      for (auto [s, e] : list) {
        s = std::max(s, covered_to);
        if (e > s) busy += (e - s) * speed;
        covered_to = std::max(covered_to, e);
        segments++;
      }
    }
    const auto& row = jobs.rows[row_of.at(job)];
    const double size = number(row[size_col]);
    const double run_time = number(row[run_col]);
    const double work = c.work_is_size_times_run_time ? size * run_time : run_time;
    // Rounding: each time in the files is within 5e-7 of the true one.
    const double slack = 1e-6 * (work + size) + 1e-6 * static_cast<double>(segments) * fastest;
    if (busy + slack < work) {
      std::ostringstream why;
      why << jobs.where(row_of.at(job)) << ": job " << job << " completed after " << busy
          << " processor-seconds of computing (at the reference speed, trace.csv), less than its work of " << work
          << (c.work_is_size_times_run_time ? " (requested size x trace_run_time)"
                                            : " (trace_run_time: every phase has parallelism >= 1)");
      return why.str();
    }
  }
  for (const auto& [job, r] : row_of)
    if (running.count(job) == 0 && number(jobs.rows[r][run_col]) > 0)
      return jobs.where(r) + ": job " + std::to_string(job) +
             " completed without computing (no running row in "
             "trace.csv)";
  return "";
}

} // namespace jobsched
