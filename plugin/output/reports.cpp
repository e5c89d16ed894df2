#include "output/reports.hpp"

#include "core/csv.hpp"
#include "core/errors.hpp"
#include "core/json.hpp"
#include "core/time_format.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <charconv>
#include <cstring>
#include <sstream>
#include <string_view>
#include <sys/resource.h>
#include <unordered_map>

namespace jobsched {

namespace {
FormattedNumber num(double v)
{
  return FormattedNumber(v);
}
} // namespace

namespace {
/* The interval notation of the last set formatted. A running segment goes to trace.csv then to segments.csv: the
 * second writer finds its set here instead of formatting it again (EQUI's fragmented sets make rows of hundreds of
 * characters). Per thread, so runs in different threads never share it. */
std::string_view processors_text(const ResourceSet& processors)
{
  thread_local ResourceSet last;
  thread_local std::string text;
  if (!(processors == last) || text.empty()) {
    text.clear();
    processors.append_to(text);
    last = processors;
  }
  return text;
}

/* One output row assembled in a reused buffer and written with one call: streaming field by field through an ostream
 * costs a sentry per field, which on a million-row jobs.csv or trace.csv was most of the writing time. */
class Row {
 public:
  Row& operator<<(char c)
  {
    text_ += c;
    return *this;
  }
  Row& operator<<(std::string_view s)
  {
    text_.append(s);
    return *this;
  }
  Row& operator<<(long long v)
  {
    char buf[24];
    text_.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
    return *this;
  }
  Row& operator<<(long v) { return *this << static_cast<long long>(v); }
  Row& operator<<(int v) { return *this << static_cast<long long>(v); }
  Row& operator<<(const FormattedNumber& n)
  {
    text_.append(n.view());
    return *this;
  }
  void append_to(std::string& text)
  {
    text += text_;
    text_.clear();
  }
  void write_to(std::ostream& out)
  {
    out.write(text_.data(), static_cast<std::streamsize>(text_.size()));
    text_.clear();
  }

 private:
  std::string text_;
};
} // namespace

namespace {
const char* const kJobsCsvHeader =
    "job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,success,"
    "final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,"
    "allocated_resources,consumed_energy,metadata,bounded_slowdown,trace_run_time,restarts,nodes_used,"
    "communication_cost,page_fault_cost,preemptions,resizes,migrations,bytes_moved,switching_time,transfer_time,"
    "computing_time,dedicated_time,requeues,work_lost";

/* The policy's columns of job `id`, each after a comma, empty for the jobs it has no value for. */
void append_policy_values(Row& row, const PolicyReport& extra, JobId id)
{
  auto values = extra.job_values.find(id);
  for (size_t k = 0; k < extra.job_columns.size(); k++) {
    row << ',';
    if (values != extra.job_values.end() && k < values->second.size()) row << num(values->second[k]);
  }
}
} // namespace

JobsCsvWriter::JobsCsvWriter(std::ostream& out, const std::string& workload_name, bool spool)
    : out_(out), name_field_(csv_field(workload_name)) // the scenario's text: a comma in it is quoted
{
  if (spool) {
    spool_ = std::tmpfile();
    if (spool_ == nullptr)
      throw InputError(std::string("jobs.csv: cannot create a temporary file (") + std::strerror(errno) + ")");
  } else {
    out_ << kJobsCsvHeader << '\n';
  }
}

JobsCsvWriter::~JobsCsvWriter()
{
  if (spool_ != nullptr) std::fclose(spool_);
}

void JobsCsvWriter::write(const JobState& o, const WorkloadJob& j, double stop_time)
{
  const JobMetrics m = job_metrics(o, stop_time);
  const JobCounters& c = o.counters;
  Row row;
  row << j.id << ',' << name_field_ << ',' << to_string(j.shape) << ',' << num(j.submit_time) << ',' << j.size << ','
      << num(j.estimate) << ',' << (o.fate == JobFate::completed ? '1' : '0') << ',' << batsim_final_state(o.fate)
      << ',' << num(m.start) << ',' << num(m.execution) << ',' << num(m.end) << ',' << num(m.waiting) << ','
      << num(m.turnaround) << ',' << num(m.slowdown) << ',' << o.allocated << ",-1,," << num(m.bounded_slowdown) << ','
      << num(j.run_time) << ',' << c.resizes + c.migrations << ',' << o.cost.nodes_used << ',' << num(m.communication)
      << ',' << num(m.page_faults) << ',' << c.preemptions << ',' << c.resizes << ',' << c.migrations << ','
      << num(c.bytes_moved) << ',' << num(c.switching_time) << ',' << num(c.transfer_time) << ',' << num(o.service)
      << ',' << num(m.dedicated) << ',' << c.requeues << ',' << num(c.work_lost) << '\n';
  if (spool_ == nullptr) {
    row.write_to(out_);
    return;
  }
  row_.clear();
  row.append_to(row_);
  std::fwrite(row_.data(), 1, row_.size(), spool_);
}

void JobsCsvWriter::finish(const PolicyReport& extra)
{
  if (spool_ == nullptr) {
    if (!extra.job_columns.empty())
      throw std::logic_error("jobs.csv: the policy has columns of its own, and its rows were not kept for them");
    return;
  }
  out_ << kJobsCsvHeader;
  for (const std::string& column : extra.job_columns)
    out_ << ',' << column;
  out_ << '\n';
  if (std::fflush(spool_) != 0 || std::ferror(spool_) != 0)
    throw InputError(std::string("jobs.csv: cannot write its temporary file (") + std::strerror(errno) + ")");
  std::rewind(spool_);
  char* line = nullptr;
  size_t capacity = 0;
  ssize_t length = 0;
  Row row;
  while ((length = ::getline(&line, &capacity, spool_)) > 0) {
    const std::string_view text(line, static_cast<size_t>(length) - 1); // without its newline
    if (extra.job_columns.empty()) {
      out_.write(line, length);
      continue;
    }
    JobId id = 0;
    std::from_chars(text.data(), text.data() + text.size(), id);
    row << text;
    append_policy_values(row, extra, id);
    row << '\n';
    row.write_to(out_);
  }
  std::free(line);
  if (std::ferror(spool_) != 0)
    throw InputError(std::string("jobs.csv: cannot read its temporary file back (") + std::strerror(errno) + ")");
}

void write_jobs_csv(std::ostream& out, const std::deque<JobState>& states, const JobList& jobs,
                    const std::string& workload_name, double stop_time, const PolicyReport& extra)
{
  JobsCsvWriter writer(out, workload_name, !extra.job_columns.empty());
  for (size_t i = 0; i < states.size(); i++)
    writer.write(states[i], jobs[i], stop_time);
  writer.finish(extra);
}

SegmentsWriter::SegmentsWriter() : spool_(std::tmpfile())
{
  if (spool_ == nullptr)
    throw InputError(std::string("segments.csv: cannot create a temporary file (") + std::strerror(errno) + ")");
  // A buffer of 1 MiB instead of the file system's block: a long run spools gigabytes, written and read back.
  std::setvbuf(spool_, nullptr, _IOFBF, std::size_t{1} << 20);
}

SegmentsWriter::~SegmentsWriter()
{
  std::fclose(spool_);
}

void SegmentsWriter::add(const TraceSegment& s)
{
  if (s.status != JobStatus::running) return;
  const std::string_view text = processors_text(s.processors);
  const Spooled head{s.job, s.start, s.end, static_cast<std::uint32_t>(text.size()), s.repeats != 1 ? 1U : 0U};
  std::fwrite(&head, sizeof head, 1, spool_);
  if (head.aggregated != 0) {
    const SpooledRepeats cycle{s.repeats, s.period};
    std::fwrite(&cycle, sizeof cycle, 1, spool_);
  }
  std::fwrite(text.data(), 1, text.size(), spool_);
}

void SegmentsWriter::write(std::ostream& out, const std::deque<JobState>& states, const JobList& jobs,
                           const std::string& workload_name, double stop_time)
{
  std::vector<JobOutcome> outcomes;
  outcomes.reserve(states.size());
  for (const JobState& o : states)
    outcomes.push_back({o.fate, job_metrics(o, stop_time).slowdown});
  write(out, outcomes, jobs, workload_name);
}

void SegmentsWriter::write(std::ostream& out, const std::vector<JobOutcome>& outcomes, const JobList& jobs,
                           const std::string& workload_name)
{
  if (std::fflush(spool_) != 0 || std::ferror(spool_) != 0)
    throw InputError(std::string("segments.csv: cannot write its temporary file (") + std::strerror(errno) + ")");
  std::rewind(spool_);
  // A job's position from its number: by difference when the numbers are consecutive (generated workloads: no table
  // of a million entries at the end of a long run), else looked up.
  bool consecutive = true;
  for (size_t i = 0; i < jobs.size() && consecutive; i++)
    consecutive = jobs[i].id == jobs.front().id + static_cast<JobId>(i);
  std::unordered_map<JobId, size_t> index;
  if (!consecutive)
    for (size_t i = 0; i < jobs.size(); i++)
      index[jobs[i].id] = i;
  auto position = [&](JobId id) {
    if (!consecutive) return index.at(id);
    const JobId p = id - jobs.front().id;
    if (p < 0 || p >= static_cast<JobId>(jobs.size())) throw std::out_of_range("segments.csv: unknown job");
    return static_cast<size_t>(p);
  };
  std::vector<double> ready(jobs.size()); // when each job became ready for its next segment
  for (size_t i = 0; i < jobs.size(); i++)
    ready[i] = jobs[i].submit_time;
  // Aggregated rows (a cycle advanced whole) come after their job's ordinary rows of the same advance, each row's first
  // repetition ready at the end of the running segment before it; the job's next row after the advance is ready when
  // the last repetition of any of them ended (kept here until then; < 0: none).
  std::vector<double> ready_after_cycle;
  out << "job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,success,"
         "final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,"
         "allocated_resources,consumed_energy,metadata\n";
  Row row;
  Spooled head{};
  while (std::fread(&head, sizeof head, 1, spool_) == 1) {
    SpooledRepeats cycle{1, 0};
    if (head.aggregated != 0 && std::fread(&cycle, sizeof cycle, 1, spool_) != 1) break;
    text_.resize(head.processors_length);
    if (std::fread(text_.data(), 1, text_.size(), spool_) != text_.size()) break;
    const size_t i = position(head.job);
    const WorkloadJob& j = jobs[i];
    if (cycle.repeats != 1 && ready_after_cycle.empty()) ready_after_cycle.assign(jobs.size(), -1);
    // (an aggregated row of a later advance starts after the last repetition: a rounding error before it at most)
    if (!ready_after_cycle.empty() && ready_after_cycle[i] >= 0 &&
        (cycle.repeats == 1 || head.start >= ready_after_cycle[i] - 1e-6)) {
      ready[i] = ready_after_cycle[i];
      ready_after_cycle[i] = -1;
    }
    const JobOutcome& o = outcomes[i];
    const double execution = head.end - head.start;
    row << j.id << ',' << workload_name << ',' << to_string(j.shape) << ',' << num(ready[i]) << ',' << j.size << ','
        << num(j.estimate) << ',' << (o.fate == JobFate::completed ? '1' : '0') << ',' << batsim_final_state(o.fate)
        << ',' << num(head.start) << ',' << num(nine_decimals(execution)) << ',' << num(head.end) << ','
        << num(nine_decimals(head.start - ready[i])) << ',' << num(nine_decimals(head.end - ready[i])) << ','
        << num(o.slowdown) << ',' << std::string_view(text_) << ",-1,";
    // An aggregated row (a cycle advanced whole) says so in the metadata column; the job's next row is ready when its
    // last repetition of the cycle ended.
    if (cycle.repeats != 1) row << "repeats=" << cycle.repeats << ";period=" << num(cycle.period);
    row << '\n';
    row.write_to(out);
    ready[i] = head.end;
    if (cycle.repeats != 1)
      ready_after_cycle[i] =
          std::max(ready_after_cycle[i], head.end + static_cast<double>(cycle.repeats - 1) * cycle.period);
  }
  if (std::ferror(spool_) != 0 || std::feof(spool_) == 0)
    throw InputError(std::string("segments.csv: cannot read its temporary file back (") + std::strerror(errno) + ")");
}

TraceWriter::TraceWriter(std::ostream& out, bool cycles) : out_(out), cycles_(cycles)
{
  out_ << (cycles ? "job_id,start,end,processors,state,period,repeats\n" : "job_id,start,end,processors,state\n");
}

void TraceWriter::write(const TraceSegment& s)
{
  // One row assembled in a reused buffer and written with one call (see Row above).
  row_.clear();
  char buf[24];
  row_.append(buf, std::to_chars(buf, buf + sizeof buf, s.job).ptr);
  row_ += ',';
  row_.append(FormattedNumber(s.start).view());
  row_ += ',';
  row_.append(FormattedNumber(s.end).view());
  row_ += ',';
  row_.append(processors_text(s.processors));
  row_ += ',';
  row_.append(to_string(s.status));
  if (cycles_) {
    row_ += ',';
    if (s.repeats != 1 || s.period != 0) {
      row_.append(FormattedNumber(s.period).view());
      row_ += ',';
      row_.append(buf, std::to_chars(buf, buf + sizeof buf, s.repeats).ptr);
    } else {
      row_ += ',';
    }
  }
  row_ += '\n';
  out_.write(row_.data(), static_cast<std::streamsize>(row_.size()));
}

namespace {
Json summary_object(const RunDescription& run, const Workload& w, const RunMetrics& m)
{
  // Rejected: records the simulator cannot run. Skipped: jobs the scenario's filters left out.
  long skipped = 0;
  long rejected = 0;
  Json skipped_reasons = Json::object();
  Json rejected_reasons = Json::object();
  for (const auto& [reason, n] : w.skipped) {
    bool is_rejection = is_rejection_reason(reason);
    (is_rejection ? rejected : skipped) += n;
    (is_rejection ? rejected_reasons : skipped_reasons)[reason] = n;
  }
  Json s;
  s["scenario"] = run.scenario;
  s["policy"] = run.policy;
  s["allocation"] = run.allocation;
  s["workload"] = run.workload;
  s["platform"] = run.platform;
  s["hosts"] = run.hosts;
  s["processors"] = run.processors;
  s["seed"] = run.seed;
  s["records_read"] = w.source_records;
  s["jobs_simulated"] = w.jobs.size();
  s["jobs_skipped"] = skipped;
  s["jobs_skipped_by_reason"] = skipped_reasons;
  s["jobs_rejected"] = rejected;
  s["jobs_rejected_by_reason"] = rejected_reasons;
  s["jobs_over_estimate"] = w.overrun_jobs;
  s["offered_load"] = json_number(w.offered_load);
  s["jobs_completed"] = m.jobs_completed;
  s["jobs_walltime_reached"] = m.jobs_walltime_reached;
  s["jobs_killed"] = m.jobs_killed;
  s["jobs_failed"] = m.jobs_failed;
  s["jobs_unfinished"] = m.jobs_unfinished;
  s["first_submission"] = json_number(m.first_submission);
  s["last_finish"] = json_number(m.last_finish);
  s["makespan"] = json_number(m.makespan);
  s["utilization"] = json_number(m.utilization);
  s["mean_waiting_time"] = json_number(m.mean_wait);
  s["median_waiting_time"] = json_number(m.median_wait);
  s["max_waiting_time"] = json_number(m.max_wait);
  s["mean_turnaround_time"] = json_number(m.mean_turnaround);
  s["mean_slowdown"] = json_number(m.mean_slowdown);
  s["mean_bounded_slowdown"] = json_number(m.mean_bounded_slowdown);
  s["mean_nodes_used"] = json_number(m.mean_nodes_used);
  s["mean_communication_cost"] = json_number(m.mean_communication_cost);
  s["mean_page_fault_cost"] = json_number(m.mean_page_fault_cost);
  s["jobs_measured"] = m.jobs_measured;
  s["jobs_with_recorded_start"] = m.jobs_with_recorded_start;
  s["site_mean_waiting_time"] = json_number(m.site_mean_wait);
  s["jobs_started_late"] = m.jobs_started_late;
  s["warmup"] = json_number(run.warmup);
  s["preemptions"] = m.totals.preemptions;
  s["resizes"] = m.totals.resizes;
  s["migrations"] = m.totals.migrations;
  s["bytes_moved"] = json_number(m.totals.bytes_moved);
  s["switching_time"] = json_number(m.totals.switching_time);
  s["transfer_time"] = json_number(m.totals.transfer_time);
  s["requeues"] = m.totals.requeues;
  s["work_lost"] = json_number(m.totals.work_lost);
  s["jobs_in_system_middle_third"] = json_number(m.jobs_in_system_middle_third);
  s["jobs_in_system_last_third"] = json_number(m.jobs_in_system_last_third);
  s["saturated"] = m.saturated;
  s["backlog_stop_time"] = json_number(m.backlog_stop_time);
  s["stall_stop_time"] = json_number(m.stall_stop_time);
  s["no_progress_stop_time"] = json_number(m.no_progress_stop_time);
  s["bounded_slowdown_tau"] = json_number(kBoundedSlowdownTau);
  s["fairness"] = json_number(m.fairness);
  s["max_slowdown"] = json_number(m.max_slowdown);
  s["owner_returns"] = m.owner_returns;
  return s;
}
} // namespace

std::string summary_json(const RunDescription& run, const Workload& w, const RunMetrics& m)
{
  return json_text(summary_object(run, w, m));
}

std::string summary_json(const RunDescription& run, const Workload& w, const RunMetrics& m, const PolicyReport& extra)
{
  Json s = summary_object(run, w, m);
  for (const auto& [key, text] : extra.summary_texts)
    s[key] = text;
  for (const auto& [key, value] : extra.summary_numbers)
    s[key] = json_number(value);
  for (const auto& [key, flag] : extra.summary_flags)
    s[key] = flag;
  return json_text(s);
}

std::string performance_json(const PerformanceFigures& p)
{
  auto per_second = [&p](double count) {
    return json_number(p.simulation_seconds > 0 ? count / p.simulation_seconds : 0);
  };
  Json s;
  s["execution"] = p.execution;
  s["wall_time_s"] = json_number(p.wall_seconds);
  s["simulation_wall_time_s"] = json_number(p.simulation_seconds);
  s["peak_memory_mb"] = json_number(p.peak_memory_mb);
  s["jobs"] = p.jobs;
  s["decision_instants"] = p.instants;
  s["virtual_instants"] = p.virtual_instants;
  s["cycles"] = p.cycles;
  s["cycle_instants"] = p.cycle_instants;
  s["decisions"] = p.decisions;
  s["trace_segments"] = p.segments;
  s["segments_per_wall_second"] = per_second(static_cast<double>(p.segments));
  s["jobs_per_wall_second"] = per_second(static_cast<double>(p.jobs));
  s["instants_per_wall_second"] = per_second(static_cast<double>(p.instants));
  return json_text(s);
}

void write_performance_and_commit(RunFolder& folder, PerformanceFigures& p,
                                  std::chrono::steady_clock::time_point wall_start)
{
  p.peak_memory_mb = peak_memory_mb();
  p.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  folder.write("performance.json", performance_json(p));
  folder.commit();
}

double peak_memory_mb()
{
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;
}

} // namespace jobsched
