#include "output/reports.hpp"

#include "core/errors.hpp"
#include "core/time_format.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <sstream>
#include <string_view>
#include <sys/resource.h>
#include <unordered_map>

namespace jobsched {

std::string json_string(const std::string& s)
{
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      continue;
    }
    out += c;
  }
  return out + "\"";
}

namespace {
FormattedNumber num(double v)
{
  return FormattedNumber(v);
}
} // namespace

namespace {
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
  void write_to(std::ostream& out)
  {
    out.write(text_.data(), static_cast<std::streamsize>(text_.size()));
    text_.clear();
  }

 private:
  std::string text_;
};
} // namespace

void write_jobs_csv(std::ostream& out, const std::deque<JobState>& states, const JobList& jobs,
                    const std::string& workload_name, double stop_time)
{
  out << "job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,success,"
         "final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,"
         "allocated_resources,consumed_energy,metadata,bounded_slowdown,trace_run_time,restarts,nodes_used,"
         "communication_cost,page_fault_cost,preemptions,resizes,migrations,bytes_moved,switching_time,transfer_time,"
         "computing_time,dedicated_time\n";
  Row row;
  for (size_t i = 0; i < states.size(); i++) {
    const JobState& o = states[i];
    const WorkloadJob& j = jobs[i];
    const JobMetrics m = job_metrics(o, stop_time);
    const JobCounters& c = o.counters;
    row << j.id << ',' << workload_name << ',' << to_string(j.shape) << ',' << num(j.submit_time) << ',' << j.size
        << ',' << num(j.estimate) << ',' << (o.fate == JobFate::completed ? '1' : '0') << ','
        << batsim_final_state(o.fate) << ',' << num(m.start) << ',' << num(m.execution) << ',' << num(m.end) << ','
        << num(m.waiting) << ',' << num(m.turnaround) << ',' << num(m.slowdown) << ',' << o.allocated << ",-1,,"
        << num(m.bounded_slowdown) << ',' << num(j.run_time) << ',' << c.resizes + c.migrations << ','
        << o.cost.nodes_used << ',' << num(m.communication) << ',' << num(m.page_faults) << ',' << c.preemptions << ','
        << c.resizes << ',' << c.migrations << ',' << num(c.bytes_moved) << ',' << num(c.switching_time) << ','
        << num(c.transfer_time) << ',' << num(o.service) << ',' << num(m.dedicated) << '\n';
    row.write_to(out);
  }
}

SegmentsWriter::SegmentsWriter() : spool_(std::tmpfile())
{
  if (spool_ == nullptr)
    throw InputError(std::string("segments.csv: cannot create a temporary file (") + std::strerror(errno) + ")");
}

SegmentsWriter::~SegmentsWriter()
{
  std::fclose(spool_);
}

void SegmentsWriter::add(const TraceSegment& s)
{
  if (s.status != JobStatus::running) return;
  text_.clear();
  s.processors.append_to(text_);
  const Spooled head{s.job, s.start, s.end, static_cast<std::uint32_t>(text_.size())};
  std::fwrite(&head, sizeof head, 1, spool_);
  std::fwrite(text_.data(), 1, text_.size(), spool_);
}

void SegmentsWriter::write(std::ostream& out, const std::deque<JobState>& states, const JobList& jobs,
                           const std::string& workload_name, double stop_time)
{
  if (std::fflush(spool_) != 0 || std::ferror(spool_) != 0)
    throw InputError(std::string("segments.csv: cannot write its temporary file (") + std::strerror(errno) + ")");
  std::rewind(spool_);
  std::unordered_map<JobId, size_t> index;
  for (size_t i = 0; i < jobs.size(); i++)
    index[jobs[i].id] = i;
  std::vector<double> ready(jobs.size()); // when each job became ready for its next segment
  for (size_t i = 0; i < jobs.size(); i++)
    ready[i] = jobs[i].submit_time;
  out << "job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,success,"
         "final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,"
         "allocated_resources,consumed_energy,metadata\n";
  Row row;
  Spooled head{};
  while (std::fread(&head, sizeof head, 1, spool_) == 1) {
    text_.resize(head.processors_length);
    if (std::fread(text_.data(), 1, text_.size(), spool_) != text_.size()) break;
    const size_t i = index.at(head.job);
    const WorkloadJob& j = jobs[i];
    const JobState& o = states[i];
    const double execution = head.end - head.start;
    row << j.id << ',' << workload_name << ',' << to_string(j.shape) << ',' << num(ready[i]) << ',' << j.size << ','
        << num(j.estimate) << ',' << (o.fate == JobFate::completed ? '1' : '0') << ',' << batsim_final_state(o.fate)
        << ',' << num(head.start) << ',' << num(nine_decimals(execution)) << ',' << num(head.end) << ','
        << num(nine_decimals(head.start - ready[i])) << ',' << num(nine_decimals(head.end - ready[i])) << ','
        << num(job_metrics(o, stop_time).slowdown) << ',' << std::string_view(text_) << ",-1,\n";
    row.write_to(out);
    ready[i] = head.end;
  }
  if (std::ferror(spool_) != 0 || std::feof(spool_) == 0)
    throw InputError(std::string("segments.csv: cannot read its temporary file back (") + std::strerror(errno) + ")");
}

TraceWriter::TraceWriter(std::ostream& out) : out_(out)
{
  out_ << "job_id,start,end,processors,state\n";
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
  s.processors.append_to(row_);
  row_ += ',';
  row_.append(to_string(s.status));
  row_ += '\n';
  out_.write(row_.data(), static_cast<std::streamsize>(row_.size()));
}

std::string summary_json(const RunDescription& run, const Workload& w, const RunMetrics& m)
{
  std::ostringstream out;
  // Rejected: records the simulator cannot run. Skipped: jobs the scenario's filters left out.
  long skipped = 0;
  long rejected = 0;
  std::string skipped_reasons;
  std::string rejected_reasons;
  for (const auto& [reason, n] : w.skipped) {
    bool is_rejection = is_rejection_reason(reason);
    (is_rejection ? rejected : skipped) += n;
    std::string& list = is_rejection ? rejected_reasons : skipped_reasons;
    list += (list.empty() ? "" : ", ") + json_string(reason) + ": " + std::to_string(n);
  }
  out << "{\n";
  out << "  \"scenario\": " << json_string(run.scenario) << ",\n";
  out << "  \"policy\": " << json_string(run.policy) << ",\n";
  out << "  \"allocation\": " << json_string(run.allocation) << ",\n";
  out << "  \"workload\": " << json_string(run.workload) << ",\n";
  out << "  \"platform\": " << json_string(run.platform) << ",\n";
  out << "  \"hosts\": " << run.hosts << ",\n";
  out << "  \"processors\": " << run.processors << ",\n";
  out << "  \"seed\": " << run.seed << ",\n";
  out << "  \"records_read\": " << w.source_records << ",\n";
  out << "  \"jobs_simulated\": " << w.jobs.size() << ",\n";
  out << "  \"jobs_skipped\": " << skipped << ",\n";
  out << "  \"jobs_skipped_by_reason\": {" << skipped_reasons << "},\n";
  out << "  \"jobs_rejected\": " << rejected << ",\n";
  out << "  \"jobs_rejected_by_reason\": {" << rejected_reasons << "},\n";
  out << "  \"jobs_over_estimate\": " << w.overrun_jobs << ",\n";
  out << "  \"offered_load\": " << num(w.offered_load) << ",\n";
  out << "  \"jobs_completed\": " << m.jobs_completed << ",\n";
  out << "  \"jobs_walltime_reached\": " << m.jobs_walltime_reached << ",\n";
  out << "  \"jobs_killed\": " << m.jobs_killed << ",\n";
  out << "  \"jobs_failed\": " << m.jobs_failed << ",\n";
  out << "  \"jobs_unfinished\": " << m.jobs_unfinished << ",\n";
  out << "  \"first_submission\": " << num(m.first_submission) << ",\n";
  out << "  \"last_finish\": " << num(m.last_finish) << ",\n";
  out << "  \"makespan\": " << num(m.makespan) << ",\n";
  out << "  \"utilization\": " << num(m.utilization) << ",\n";
  out << "  \"mean_waiting_time\": " << num(m.mean_wait) << ",\n";
  out << "  \"median_waiting_time\": " << num(m.median_wait) << ",\n";
  out << "  \"max_waiting_time\": " << num(m.max_wait) << ",\n";
  out << "  \"mean_turnaround_time\": " << num(m.mean_turnaround) << ",\n";
  out << "  \"mean_slowdown\": " << num(m.mean_slowdown) << ",\n";
  out << "  \"mean_bounded_slowdown\": " << num(m.mean_bounded_slowdown) << ",\n";
  out << "  \"mean_nodes_used\": " << num(m.mean_nodes_used) << ",\n";
  out << "  \"mean_communication_cost\": " << num(m.mean_communication_cost) << ",\n";
  out << "  \"mean_page_fault_cost\": " << num(m.mean_page_fault_cost) << ",\n";
  out << "  \"jobs_measured\": " << m.jobs_measured << ",\n";
  out << "  \"jobs_with_recorded_start\": " << m.jobs_with_recorded_start << ",\n";
  out << "  \"site_mean_waiting_time\": " << num(m.site_mean_wait) << ",\n";
  out << "  \"jobs_started_late\": " << m.jobs_started_late << ",\n";
  out << "  \"warmup\": " << num(run.warmup) << ",\n";
  out << "  \"preemptions\": " << m.totals.preemptions << ",\n";
  out << "  \"resizes\": " << m.totals.resizes << ",\n";
  out << "  \"migrations\": " << m.totals.migrations << ",\n";
  out << "  \"bytes_moved\": " << num(m.totals.bytes_moved) << ",\n";
  out << "  \"switching_time\": " << num(m.totals.switching_time) << ",\n";
  out << "  \"transfer_time\": " << num(m.totals.transfer_time) << ",\n";
  out << "  \"jobs_in_system_middle_third\": " << num(m.jobs_in_system_middle_third) << ",\n";
  out << "  \"jobs_in_system_last_third\": " << num(m.jobs_in_system_last_third) << ",\n";
  out << "  \"saturated\": " << m.saturated << ",\n";
  out << "  \"backlog_stop_time\": " << num(m.backlog_stop_time) << ",\n";
  out << "  \"stall_stop_time\": " << num(m.stall_stop_time) << ",\n";
  out << "  \"bounded_slowdown_tau\": " << num(kBoundedSlowdownTau) << "\n";
  out << "}\n";
  return out.str();
}

std::string performance_json(const PerformanceFigures& p)
{
  std::ostringstream out;
  out << "{\n";
  out << "  \"execution\": " << json_string(p.execution) << ",\n";
  out << "  \"wall_time_s\": " << num(p.wall_seconds) << ",\n";
  out << "  \"simulation_wall_time_s\": " << num(p.simulation_seconds) << ",\n";
  out << "  \"peak_memory_mb\": " << num(p.peak_memory_mb) << ",\n";
  out << "  \"jobs\": " << p.jobs << ",\n";
  out << "  \"decision_instants\": " << p.instants << ",\n";
  out << "  \"decisions\": " << p.decisions << ",\n";
  out << "  \"trace_segments\": " << p.segments << ",\n";
  out << "  \"segments_per_wall_second\": " << num(p.simulation_seconds > 0 ? p.segments / p.simulation_seconds : 0)
      << ",\n";
  out << "  \"jobs_per_wall_second\": " << num(p.simulation_seconds > 0 ? p.jobs / p.simulation_seconds : 0) << ",\n";
  out << "  \"instants_per_wall_second\": " << num(p.simulation_seconds > 0 ? p.instants / p.simulation_seconds : 0)
      << "\n";
  out << "}\n";
  return out.str();
}

std::string fork_join_summary_json(const ForkJoinResult& r)
{
  std::ostringstream out;
  const ForkJoinSpec& f = r.spec;
  out << "{\n";
  out << "  \"scenario\": " << json_string(r.scenario) << ",\n";
  out << "  \"kind\": \"fork-join\",\n";
  out << "  \"platform\": " << json_string(r.platform) << ",\n";
  out << "  \"seed\": " << r.seed << ",\n";
  out << "  \"threads\": " << f.threads << ",\n";
  out << "  \"granularity\": " << num(f.granularity) << ",\n";
  out << "  \"fault_rate\": " << num(f.fault_rate) << ",\n";
  out << "  \"fault_service\": " << num(f.fault_service) << ",\n";
  out << "  \"correlation\": " << num(f.correlation) << ",\n";
  out << "  \"offsets\": " << json_string(to_string(f.offsets)) << ",\n";
  out << "  \"barrier_cost\": " << num(f.barrier_cost) << ",\n";
  out << "  \"phases\": " << r.phases << ",\n";
  out << "  \"faults_per_thread\": " << r.faults_per_thread << ",\n";
  out << "  \"computation_time\": " << num(static_cast<double>(r.phases) * f.granularity) << ",\n";
  out << "  \"completion_time\": " << num(r.completion_time) << ",\n";
  out << "  \"expected_completion_time\": " << num(r.expected_completion_time) << ",\n";
  out << "  \"slowdown\": " << num(r.slowdown) << "\n";
  out << "}\n";
  return out.str();
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
