#include "output/reports.hpp"

#include "core/csv.hpp"
#include "core/errors.hpp"
#include "core/json.hpp"
#include "core/time_format.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <sys/resource.h>
#include <unistd.h>

namespace jobsched {

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

char* TextBuffer::grow(std::size_t n)
{
  const std::size_t capacity = std::max({capacity_ * 2, size_ + n, std::size_t{256}});
  std::unique_ptr<char[]> data(new char[capacity]); // (not zero-filled)
  if (size_ > 0) std::memcpy(data.get(), data_.get(), size_);
  data_ = std::move(data);
  capacity_ = capacity;
  return data_.get() + size_;
}

namespace {
/* Rows assembled in place (TextBuffer::room() made the room): each put returns where the text after it goes. */
char* put(char* p, std::string_view text)
{
  std::memcpy(p, text.data(), text.size());
  return p + text.size();
}
/* put() of a text whose storage goes on for `Room` characters past its start, `padded`: a short one copied at that
 * fixed length (the row has room for it past the text). */
template <std::size_t Room>
char* put_padded(char* p, std::string_view text, bool padded)
{
  if (padded && text.size() <= Room) {
    std::memcpy(p, text.data(), Room);
    return p + text.size();
  }
  return put(p, text);
}
char* put_integer(char* p, long long value)
{
  return std::to_chars(p, p + 20, value).ptr; // (19 digits and a sign at most)
}

/* The text of each of an enum's `Count` values, by `Text`, with its length, taken once: those are C strings, and
 * trace.csv's and segments.csv's rows took their length (strlen) on each row. Every value is looked up by its number,
 * so a value added to the enum has its own text (past `Count`, asked each time). */
template <class Enum, std::size_t Count, const char* (*Text)(Enum)>
std::string_view enum_text(Enum value)
{
  static const auto texts = [] {
    std::array<std::string_view, Count> t;
    for (std::size_t k = 0; k < Count; k++)
      t[k] = Text(static_cast<Enum>(k));
    return t;
  }();
  const auto index = static_cast<std::size_t>(value);
  return index < Count ? texts[index] : Text(value);
}
std::string_view status_text(JobStatus status)
{
  return enum_text<JobStatus, 7, to_string>(status);
}
std::string_view final_state_text(JobFate fate)
{
  return enum_text<JobFate, 5, batsim_final_state>(fate);
}
/* A status's text in room of a fixed length, copied whole into a row (a copy of fixed length: no call, where
 * status_text()'s was one of each trace.csv row); nullptr for a text too long for the room. */
struct PaddedText {
  char text[16];
  std::uint8_t length;
};
const PaddedText* padded_status_text(JobStatus status)
{
  static const auto texts = [] {
    std::array<PaddedText, 7> t{};
    for (std::size_t k = 0; k < t.size(); k++) {
      const std::string_view text = status_text(static_cast<JobStatus>(k));
      t[k].length = text.size() <= sizeof t[k].text ? static_cast<std::uint8_t>(text.size()) : 0xff;
      std::memcpy(t[k].text, text.data(), std::min(text.size(), sizeof t[k].text));
    }
    return t;
  }();
  const auto index = static_cast<std::size_t>(status);
  return index < texts.size() && texts[index].length != 0xff ? &texts[index] : nullptr;
}
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

JobsCsvWriter::JobsCsvWriter(std::ostream& out, const std::string& workload_name, bool spool, double tau)
    : out_(out), name_field_(csv_field(workload_name)), tau_(tau) // the scenario's text: a comma in it is quoted
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
  const JobMetrics m = job_metrics(o, stop_time, tau_);
  const JobCounters& c = o.counters;
  const std::string_view shape = to_string(j.shape);
  const std::string_view final_state = batsim_final_state(o.fate);
  // Room for 18 numbers, 8 integers, the texts and the 33 separators and the row's end.
  row_.clear();
  char* p = row_.room(18 * kNumberTextMax + 8 * 20 + name_field_.size() + shape.size() + final_state.size() +
                      o.allocated.size() + 64);
  const auto number = [&p](double value) {
    p = write_number(p, value);
    *p++ = ',';
  };
  const auto integer = [&p](long long value) {
    p = put_integer(p, value);
    *p++ = ',';
  };
  integer(j.id);
  p = put(p, name_field_);
  *p++ = ',';
  p = put(p, shape);
  *p++ = ',';
  number(j.submit_time);
  integer(j.size);
  number(j.requested_time);
  *p++ = o.fate == JobFate::completed ? '1' : '0';
  *p++ = ',';
  p = put(p, final_state);
  *p++ = ',';
  number(m.start);
  number(m.execution);
  number(m.end);
  number(m.waiting);
  number(m.turnaround);
  number(m.slowdown);
  p = put(p, o.allocated);
  p = put(p, ",-1,,");
  number(m.bounded_slowdown);
  number(j.run_time);
  integer(c.resizes + c.migrations);
  integer(o.cost.nodes_used);
  number(m.communication);
  number(m.page_faults);
  integer(c.preemptions);
  integer(c.resizes);
  integer(c.migrations);
  number(c.bytes_moved);
  number(c.switching_time);
  number(c.transfer_time);
  number(o.service);
  number(m.dedicated);
  integer(c.requeues);
  p = write_number(p, c.work_lost);
  *p++ = '\n';
  row_.set_end(p);
  if (spool_ == nullptr)
    out_.write(row_.data(), static_cast<std::streamsize>(row_.size()));
  else
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

SegmentsWriter::SegmentsWriter(std::ostream& out, const JobList& jobs, const JobTable& table,
                               const std::string& workload_name, std::size_t memory_limit)
    : out_(out), jobs_(jobs), table_(table), workload_name_(workload_name), memory_limit_(memory_limit),
      job_text_stride_(kJobTextRoom + workload_name.size())
{
  // (NaN: the job's submission, read when its first segment comes: a closed population's jobs are submitted as the
  // run goes)
  ready_.assign(jobs.size(), std::nan(""));
  outcomes_.resize(jobs.size());
  left_.resize(jobs.size());
  out_ << "job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,success,"
          "final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,"
          "allocated_resources,consumed_energy,metadata\n";
}

SegmentsWriter::~SegmentsWriter()
{
  if (spill_ != nullptr) std::fclose(spill_);
}

inline std::size_t SegmentsWriter::position_of(JobId id)
{
  KnownPosition& known = known_positions_[static_cast<std::uint64_t>(id) % kKnownPositions];
  if (known.position_plus_one != 0 && known.job == id) return known.position_plus_one - 1;
  const long p = table_.position_of(id);
  if (p < 0 || static_cast<size_t>(p) >= jobs_.size())
    throw std::out_of_range("segments.csv: unknown job " + std::to_string(id));
  known.job = id;
  known.position_plus_one = static_cast<std::size_t>(p) + 1;
  return static_cast<size_t>(p);
}

void SegmentsWriter::add(const TraceSegment& s)
{
  if (s.status != JobStatus::running) return;
  const FormattedNumber start(s.start);
  const FormattedNumber end(s.end);
  processors_.clear();
  s.processors.append_to(processors_);
  add(s, {start.view(), end.view(), processors_});
}

void SegmentsWriter::add(const TraceSegment& s, const SegmentTexts& texts)
{
  if (s.status != JobStatus::running) return;
  const size_t i = position_of(s.job);
  const WorkloadJob& j = jobs_[i];
  // Aggregated rows (a cycle advanced whole) come after their job's ordinary rows of the same advance, each row's first
  // repetition ready at the end of the running segment before it; the job's next row after the advance is ready when
  // the last repetition of any of them ended (kept until then; < 0: none).
  if (s.repeats != 1 && ready_after_cycle_.empty()) ready_after_cycle_.assign(jobs_.size(), -1);
  // (an aggregated row of a later advance starts after the last repetition: a rounding error before it at most)
  if (!ready_after_cycle_.empty() && ready_after_cycle_[i] >= 0 &&
      (s.repeats == 1 || s.start >= ready_after_cycle_[i] - 1e-6)) {
    ready_[i] = ready_after_cycle_[i];
    ready_after_cycle_[i] = -1;
  }
  const double ready = std::isnan(ready_[i]) ? j.submit_time : ready_[i];
  const std::string_view processors = texts.processors;
  // The row is formatted into the last block when it has room for the longest row this one can be (nine numbers of at
  // most kNumberTextMax characters), else into a new block.
  const size_t longest = sizeof(Waiting) + 4096 + workload_name_.size() + processors.size();
  if (blocks_.empty() || blocks_.back().capacity() - blocks_.back().size() < longest) {
    TextBuffer block;
    if (!spare_blocks_.empty()) {
      block = std::move(spare_blocks_.back());
      spare_blocks_.pop_back();
    }
    block.room(std::max(kBlockSize, longest));
    blocks_.push_back(std::move(block));
    if (blocks_.size() == 1) block_read_ = 0;
  }
  TextBuffer& text = blocks_.back();
  char* const head_at = text.room(longest);
  char* const text_at = head_at + sizeof(Waiting);
  // A job that ran on from its previous segment was ready at its start: its turnaround is its execution time.
  const std::string_view start = texts.start;
  const bool ran_on = ready == s.start && std::signbit(ready) == std::signbit(s.start);
  const char* const job_texts = job_text(i, j);
  std::uint16_t lengths[2] = {}; // of the job's two texts
  if (job_texts != nullptr) std::memcpy(lengths, job_texts, sizeof lengths);
  char* p = job_texts != nullptr ? put(text_at, {job_texts + sizeof lengths, lengths[0]}) : write_job_head(text_at, j);
  p = ran_on ? put_padded<32>(p, start, texts.padded) : ready_text_.write(p, ready);
  p = job_texts != nullptr ? put(p, {job_texts + sizeof lengths + lengths[0], lengths[1]}) : write_job_middle(p, j);
  char* const outcome_at = p;
  *p++ = ',';
  p = put_padded<32>(p, start, texts.padded);
  *p++ = ',';
  char* const execution = p;
  p = execution_text_.write(p, s.end - s.start, nine_decimals);
  const std::string_view execution_text(execution, static_cast<size_t>(p - execution));
  *p++ = ',';
  p = put_padded<32>(p, texts.end, texts.padded);
  *p++ = ',';
  p = waiting_text_.write(p, s.start - ready, nine_decimals);
  *p++ = ',';
  p = ran_on ? put(p, execution_text) : turnaround_text_.write(p, s.end - ready, nine_decimals);
  *p++ = ',';
  char* const stretch_at = p;
  *p++ = ',';
  p = put_padded<SegmentTexts::kPaddedRoom>(p, processors, texts.padded);
  p = put(p, ",-1,");
  // An aggregated row (a cycle advanced whole) says so in the metadata column; the job's next row is ready when its
  // last repetition of the cycle ended.
  if (s.repeats != 1) {
    p = put(p, "repeats=");
    p = put_integer(p, s.repeats);
    p = put(p, ";period=");
    p = write_number(p, s.period);
  }
  *p++ = '\n';
  // The head's fields put one by one where they go: a Waiting made on the stack and copied whole was read back before
  // its narrow fields' stores had reached it (a stall of each row).
  const auto put_field = [head_at](std::size_t offset, auto value) {
    std::memcpy(head_at + offset, &value, sizeof value);
  };
  put_field(offsetof(Waiting, position), std::uint64_t{i});
  put_field(offsetof(Waiting, outcome_at), static_cast<std::uint32_t>(outcome_at - text_at));
  put_field(offsetof(Waiting, stretch_at), static_cast<std::uint32_t>(stretch_at - text_at));
  put_field(offsetof(Waiting, length), static_cast<std::uint32_t>(p - text_at));
  put_field(offsetof(Waiting, padding), std::uint32_t{0});
  text.set_end(p);
  waiting_bytes_ += static_cast<size_t>(p - head_at);
  ready_[i] = s.end;
  if (s.repeats != 1)
    ready_after_cycle_[i] = std::max(ready_after_cycle_[i], s.end + static_cast<double>(s.repeats - 1) * s.period);
  if (left_[i] != 0)
    emit_ready(); // its job left already: the row goes out once the rows before it have
  else if (waiting_bytes_ > memory_limit_)
    spill();
}

char* SegmentsWriter::write_job_head(char* p, const WorkloadJob& job) const
{
  p = put_integer(p, job.id);
  *p++ = ',';
  p = put(p, workload_name_);
  *p++ = ',';
  p = put(p, to_string(job.shape));
  *p++ = ',';
  return p;
}

char* SegmentsWriter::write_job_middle(char* p, const WorkloadJob& job)
{
  *p++ = ',';
  p = put_integer(p, job.size);
  *p++ = ',';
  p = write_number(p, job.requested_time);
  *p++ = ',';
  return p;
}

const char* SegmentsWriter::job_text(std::size_t position, const WorkloadJob& job)
{
  if (left_[position] != 0) return nullptr; // (its slot is free again)
  std::uint32_t& slot = outcomes_[position].text_slot;
  if (slot == kTextsPerRow) return nullptr;
  if (slot == 0) {
    std::uint32_t index = 0;
    if (!free_job_texts_.empty()) {
      index = free_job_texts_.back();
      free_job_texts_.pop_back();
    } else {
      index = static_cast<std::uint32_t>(job_texts_.size() / job_text_stride_);
      job_texts_.resize(job_texts_.size() + job_text_stride_);
    }
    char* const text = job_texts_.data() + std::size_t{index} * job_text_stride_;
    std::uint16_t lengths[2];
    // (the head always fits: 20 digits, the name, a shape and 3 commas)
    char* const middle = write_job_head(text + sizeof lengths, job);
    char middle_text[kNumberTextMax + 24];
    const std::size_t middle_length = static_cast<std::size_t>(write_job_middle(middle_text, job) - middle_text);
    const std::size_t head_length = static_cast<std::size_t>(middle - (text + sizeof lengths));
    if (static_cast<std::size_t>(middle - text) + middle_length > job_text_stride_ || head_length > 0xffff) {
      free_job_texts_.push_back(index);
      slot = kTextsPerRow;
      return nullptr;
    }
    std::memcpy(middle, middle_text, middle_length);
    lengths[0] = static_cast<std::uint16_t>(head_length);
    lengths[1] = static_cast<std::uint16_t>(middle_length);
    std::memcpy(text, lengths, sizeof lengths);
    slot = index + 1;
  }
  return job_texts_.data() + std::size_t{slot - 1} * job_text_stride_;
}

void SegmentsWriter::spill()
{
  if (spill_ == nullptr) {
    spill_ = std::tmpfile();
    if (spill_ == nullptr)
      throw InputError(std::string("segments.csv: cannot create a temporary file (") + std::strerror(errno) + ")");
  }
  spilled_total_ += waiting_bytes_;
  for (TextBuffer& block : blocks_) {
    const char* p = block.data() + block_read_;
    size_t left = block.size() - block_read_;
    block_read_ = 0; // (the blocks after the first are unread)
    while (left > 0) {
      const ssize_t n = ::pwrite(fileno(spill_), p, left, static_cast<off_t>(spill_written_));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        throw InputError(std::string("segments.csv: cannot write its temporary file (") +
                         std::strerror(n < 0 ? errno : EIO) + ")");
      p += n;
      left -= static_cast<size_t>(n);
      spill_written_ += static_cast<std::uint64_t>(n);
    }
  }
  while (!blocks_.empty())
    release_first_block();
  waiting_bytes_ = 0;
}

/* The first block, read to its end, is kept for reuse (two at most) or freed. */
void SegmentsWriter::release_first_block()
{
  if (spare_blocks_.size() < 2) {
    spare_blocks_.push_back(std::move(blocks_.front()));
    spare_blocks_.back().clear();
  }
  blocks_.pop_front();
  block_read_ = 0;
}

/* The next `bytes` of the rows in the temporary file, read in blocks of 1 MiB or more. */
const char* SegmentsWriter::next_spilled(std::size_t bytes)
{
  if (spilled_.size() - spilled_read_ < bytes) {
    spilled_.erase_front(spilled_read_);
    spilled_read_ = 0;
    const size_t have = spilled_.size();
    const size_t want = std::max<std::size_t>(bytes - have, std::size_t{1} << 20);
    const size_t wanted = static_cast<size_t>(std::min<std::uint64_t>(want, spill_written_ - spill_loaded_));
    char* const at = spilled_.room(wanted); // (not zero-filled: a std::string's resize() filled each MiB first)
    size_t got = 0;
    while (got < wanted) {
      const ssize_t n = ::pread(fileno(spill_), at + got, wanted - got, static_cast<off_t>(spill_loaded_));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        throw InputError(std::string("segments.csv: cannot read its temporary file back (") +
                         std::strerror(n < 0 ? errno : EIO) + ")");
      got += static_cast<size_t>(n);
      spill_loaded_ += static_cast<std::uint64_t>(n);
    }
    spilled_.set_end(at + wanted);
    if (spilled_.size() < bytes) throw std::logic_error("segments.csv: a row cut short in its temporary file");
  }
  const char* p = spilled_.data() + spilled_read_;
  spilled_read_ += bytes;
  return p;
}

/* The oldest waiting row, if its job has left: written, true. */
bool SegmentsWriter::emit_next()
{
  const bool from_file = spill_loaded_ < spill_written_ || spilled_read_ < spilled_.size();
  Waiting head;
  if (from_file) {
    std::memcpy(&head, next_spilled(sizeof head), sizeof head);
    if (left_[head.position] == 0) {
      spilled_read_ -= sizeof head; // stays first
      return false;
    }
  } else {
    while (!blocks_.empty() && block_read_ == blocks_.front().size())
      release_first_block();
    if (blocks_.empty()) return false;
    std::memcpy(&head, blocks_.front().data() + block_read_, sizeof head);
    if (left_[head.position] == 0) return false;
  }
  const char* text = from_file ? next_spilled(head.length) : blocks_.front().data() + block_read_ + sizeof head;
  if (!from_file) {
    block_read_ += sizeof head + head.length;
    waiting_bytes_ -= sizeof head + head.length;
  }
  const LeftJob& o = outcomes_[head.position];
  const auto fate = static_cast<JobFate>(o.fate);
  const std::string_view final_state = final_state_text(fate);
  char* p = out_text_.room(head.length + 2 + final_state.size() + kNumberTextMax);
  p = put(p, std::string_view(text, head.outcome_at));
  *p++ = fate == JobFate::completed ? '1' : '0';
  *p++ = ',';
  p = put(p, final_state);
  p = put(p, std::string_view(text + head.outcome_at, head.stretch_at - head.outcome_at));
  if (o.stretch_length != LeftJob::kFormattedPerRow) {
    p = put(p, std::string_view(o.stretch, o.stretch_length));
  } else {
    double slowdown;
    std::memcpy(&slowdown, o.stretch, sizeof slowdown);
    p = write_number(p, slowdown);
  }
  p = put(p, std::string_view(text + head.stretch_at, head.length - head.stretch_at));
  out_text_.set_end(p);
  return true;
}

/* Writes the rows whose job and every job before them have left. */
void SegmentsWriter::emit_ready()
{
  if (!emit_next()) return;
  do {
    if (out_text_.size() >= TraceWriter::kFlushSize) out_text_.write_to(out_);
  } while (emit_next());
  if (spill_written_ > 0 && spill_loaded_ == spill_written_ && spilled_read_ == spilled_.size()) {
    spill_written_ = spill_loaded_ = 0; // the file is read to its end: its room is used again
    spilled_.clear();
    spilled_read_ = 0;
  }
}

void SegmentsWriter::job_left(std::size_t position, const JobOutcome& outcome)
{
  LeftJob& left = outcomes_.at(position);
  if (left_[position] == 0 && left.text_slot != 0 && left.text_slot != kTextsPerRow)
    free_job_texts_.push_back(left.text_slot - 1);
  left.fate = static_cast<std::uint8_t>(outcome.fate);
  const FormattedNumber stretch(outcome.slowdown);
  if (stretch.view().size() <= sizeof left.stretch) {
    std::memcpy(left.stretch, stretch.view().data(), stretch.view().size());
    left.stretch_length = static_cast<std::uint8_t>(stretch.view().size());
  } else {
    std::memcpy(left.stretch, &outcome.slowdown, sizeof outcome.slowdown);
    left.stretch_length = LeftJob::kFormattedPerRow;
  }
  left_[position] = 1;
  emit_ready();
}

void SegmentsWriter::finish()
{
  emit_ready();
  flush();
  if (waiting_bytes_ > 0 || spill_written_ > 0) throw std::logic_error("segments.csv: rows of a job that never left");
}

TraceWriter::TraceWriter(std::ostream& out, bool cycles)
    : out_(out), job_texts_(new JobTexts[kJobNumbers]), cycles_(cycles)
{
  out_ << (cycles ? "job_id,start,end,processors,state,period,repeats\n" : "job_id,start,end,processors,state\n");
}

TraceWriter::~TraceWriter()
{
  flush();
}

void TraceWriter::flush()
{
  rows_.write_to(out_);
}

inline TraceWriter::JobTexts& TraceWriter::job_texts(JobId job)
{
  JobTexts& kept = job_texts_[static_cast<std::uint64_t>(job) % kJobNumbers];
  if (kept.length == 0 || kept.job != job) { // another job's place, or none's yet: its texts are not this job's
    kept.job = job;
    kept.length = static_cast<std::uint8_t>(put_integer(kept.text, job) - kept.text);
    kept.end_length = 0;
    kept.processors_length = kNoProcessors;
    kept.processor_count = -1;
  }
  return kept;
}

inline bool TraceWriter::holds_set(const JobTexts& kept, const ResourceSet& processors)
{
  const auto [first, end] = processors.word_span();
  if (kept.processors_length == kNoProcessors || first != kept.first_word || end - first != kept.word_count)
    return false;
  for (int w = 0; w < kept.word_count; w++)
    if (processors.word(first + w) != kept.words[w]) return false;
  return true;
}

inline char* TraceWriter::write_processors(char* p, JobTexts& kept, const ResourceSet& processors, bool held)
{
  if (held) {
    std::memcpy(p, kept.processors, kProcessorsRoom);
    return p + kept.processors_length;
  }
  char* const end = processors.write_text(p);
  const auto length = static_cast<std::size_t>(end - p);
  const auto [first, last] = processors.word_span();
  kept.processor_count = -1; // (another set's)
  if (last - first > kKeptWords || length > kProcessorsRoom) {
    kept.processors_length = kNoProcessors;
    return end;
  }
  kept.first_word = first;
  kept.word_count = last - first;
  for (int w = 0; w < kept.word_count; w++)
    kept.words[w] = processors.word(first + w);
  std::memcpy(kept.processors, p, length);
  kept.processors_length = static_cast<std::uint8_t>(length);
  return end;
}

void TraceWriter::write(const TraceSegment& s)
{
  // The rows before go out once they fill kFlushSize (one call for many rows): this row stays for last_row().
  if (rows_.size() >= kFlushSize) flush();
  const PaddedText* const padded_status = padded_status_text(s.status);
  const std::string_view status = padded_status != nullptr ? std::string_view() : status_text(s.status);
  JobTexts& kept = job_texts(s.job);
  last_kept_ = &kept;
  // Room for the job, three numbers, the processors (a kept text is copied at kProcessorsRoom), the state, the repeats
  // and the separators.
  const bool held = holds_set(kept, s.processors);
  const std::size_t processors_room = held ? kProcessorsRoom : s.processors.text_bound();
  char* p = rows_.room(3 * kNumberTextMax + std::max(processors_room, kProcessorsRoom) +
                       std::max(status.size(), sizeof PaddedText::text) + 64);
  const char* const rows = p - rows_.size(); // (last_row()'s places are from there)
  std::memcpy(p, kept.text, kJobNumberRoom); // (a copy of fixed length: no call)
  p += kept.length;
  *p++ = ',';
  start_at_ = static_cast<size_t>(p - rows);
  std::uint64_t start_bits;
  std::memcpy(&start_bits, &s.start, sizeof start_bits);
  if (kept.end_length != 0 && start_bits == kept.end_bits) { // the job's segment before ended where this one starts
    std::memcpy(p, kept.end, kEndRoom);
    p += kept.end_length;
  } else {
    p = start_text_.write(p, s.start);
  }
  *p++ = ',';
  end_at_ = static_cast<size_t>(p - rows);
  char* const end = p;
  p = end_text_.write(p, s.end);
  const auto end_length = static_cast<std::size_t>(p - end);
  kept.end_length = end_length <= kEndRoom ? static_cast<std::uint8_t>(end_length) : 0;
  std::memcpy(kept.end, end, kEndRoom); // (the row's room goes on past the end's text)
  std::memcpy(&kept.end_bits, &s.end, sizeof kept.end_bits);
  *p++ = ',';
  processors_at_ = static_cast<size_t>(p - rows);
  p = write_processors(p, kept, s.processors, held);
  processors_end_ = static_cast<size_t>(p - rows);
  *p++ = ',';
  if (padded_status != nullptr) {
    std::memcpy(p, padded_status->text, sizeof padded_status->text);
    p += padded_status->length;
  } else {
    p = put(p, status);
  }
  if (cycles_) {
    *p++ = ',';
    if (s.repeats != 1 || s.period != 0) {
      p = write_number(p, s.period);
      *p++ = ',';
      p = put_integer(p, s.repeats);
    } else {
      *p++ = ',';
    }
  }
  *p++ = '\n';
  rows_.set_end(p);
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
  s["work_utilization"] = json_number(m.work_utilization);
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
  s["bounded_slowdown_tau"] = json_number(run.bounded_slowdown_tau);
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
