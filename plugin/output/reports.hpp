/* The text of the output files: jobs.csv (Batsim's columns first, so evalys and other Batsim tools read it, then
 * ours), trace.csv (execution segments), segments.csv (time-sharing runs: running segments in Batsim's columns),
 * summary.json (deterministic results) and performance.json (the simulator's own wall time and memory), the last two
 * written with nlohmann-json (core/json.hpp). */
#pragma once

#include "core/time_format.hpp"
#include "model/job_state.hpp"
#include "model/policy_report.hpp"
#include "output/metrics.hpp"
#include "output/run_folder.hpp"
#include "workload/workload.hpp"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace jobsched {

struct RunDescription {
  std::string scenario;
  std::string policy;
  std::string allocation;
  std::string workload;
  std::string platform;
  int processors = 0;
  int hosts = 0;
  std::uint64_t seed = 0;
  double warmup = 0; // closed populations: jobs submitted before are left out of the per-job means
  double bounded_slowdown_tau = kBoundedSlowdownTau; // metrics.bounded_slowdown_tau
};

/* Output text assembled in place: room(n) makes room for n more characters and says where they go, the writer puts
 * them there through a pointer and says where it stopped (set_end()). Neither zero-filled nor checked per field, as a
 * std::string's appends are (those, with their copies, were a tenth of a run writing trace.csv and segments.csv). */
class TextBuffer {
 public:
  TextBuffer() = default;
  TextBuffer(TextBuffer&& other) noexcept { *this = std::move(other); }
  TextBuffer& operator=(TextBuffer&& other) noexcept
  {
    data_ = std::move(other.data_);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    return *this;
  }
  char* room(std::size_t n) { return capacity_ - size_ >= n ? data_.get() + size_ : grow(n); }
  void set_end(const char* end) { size_ = static_cast<std::size_t>(end - data_.get()); }
  const char* data() const { return data_.get(); }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  void clear() { size_ = 0; }
  /* Drops the first n characters (n <= size()): the rest moves to the front. */
  void erase_front(std::size_t n)
  {
    if (n == 0) return;
    size_ -= n;
    std::memmove(data_.get(), data_.get() + n, size_);
  }
  /* Writes the text to `out` and clears it (the storage stays). */
  void write_to(std::ostream& out)
  {
    out.write(data_.get(), static_cast<std::streamsize>(size_));
    size_ = 0;
  }

 private:
  char* grow(std::size_t n);
  std::unique_ptr<char[]> data_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};
/* `states` and `jobs` in the same (workload) order; `stop_time`: when the run stopped (see job_metrics()). */
void write_jobs_csv(std::ostream& out, const std::deque<JobState>& states, const JobList& jobs,
                    const std::string& workload_name, double stop_time, const PolicyReport& extra = {});
/* jobs.csv row by row, in workload order, as jobs leave (a run writes a job's row once every job before it has left,
 * and drops its record). `spool`: the policy's own columns (PolicyReport::job_columns) are known only at the end of the
 * run: the rows wait in a temporary file, and finish() writes the header with those columns and every row with its
 * values. Without `spool` the rows go straight to `out`, after the header, and the policy has no columns of its own
 * (space-sharing policies). */
class JobsCsvWriter {
 public:
  /* InputError when there is no temporary file. `tau`: the bounded slowdown's threshold. */
  JobsCsvWriter(std::ostream& out, const std::string& workload_name, bool spool, double tau = kBoundedSlowdownTau);
  ~JobsCsvWriter();
  JobsCsvWriter(const JobsCsvWriter&) = delete;
  JobsCsvWriter& operator=(const JobsCsvWriter&) = delete;
  /* `stop_time` as for write_jobs_csv() (only an unfinished job's row depends on it). */
  void write(const JobState& state, const WorkloadJob& job, double stop_time);
  void finish(const PolicyReport& extra);

 private:
  std::ostream& out_;
  std::string name_field_;
  double tau_;
  std::FILE* spool_ = nullptr;
  TextBuffer row_; // the row being written, assembled in place
};
/* A column's recent numbers and their texts, kEntries of them in places by their bits (a number replaces the one in its
 * place): a number of the column that is in its place (the same bits) is copied instead of formatted again. The rows
 * of segments that close at one instant share their end, and often their start and length (every job of a gang, of a
 * quantum); segments.csv's waiting and turnaround times and its submissions (a job's end before) are each a few values
 * in turn (the jobs of a quantum, of a set), which a memo of the last number alone formatted again (under ap, 1.7
 * numbers of each segments.csv row). */
class NumberCache {
 public:
  static constexpr int kPlaceBits = 6;
  static constexpr std::size_t kEntries = std::size_t{1} << kPlaceBits;
  static constexpr std::size_t kTextRoom = 24; // longer texts are not kept
  NumberCache() : entries_(new Entry[kEntries]) {}
  /* The place of a number by its bits (a multiplicative hash: its top bits). */
  static std::size_t place_of(double key)
  {
    std::uint64_t bits;
    std::memcpy(&bits, &key, sizeof bits);
    return static_cast<std::size_t>((bits * 0x9e3779b97f4a7c15ULL) >> (64 - kPlaceBits));
  }
  /* Writes write_number(value_of(key)) at `out` (room for kNumberTextMax characters) and returns its end; value_of is
   * called only when `key` is not in its place. */
  template <class ValueOf>
  char* write(char* out, double key, ValueOf&& value_of)
  {
    std::uint64_t bits;
    std::memcpy(&bits, &key, sizeof bits);
    Entry& entry = entries_[(bits * 0x9e3779b97f4a7c15ULL) >> (64 - kPlaceBits)];
    if (entry.length > 0 && bits == entry.key_bits) {
      std::memcpy(out, entry.text, kTextRoom); // (out has room for more: a copy of fixed length, no call)
      return out + entry.length;
    }
    char* const end = write_number(out, value_of(key));
    const auto length = static_cast<std::size_t>(end - out);
    entry.length = length <= kTextRoom ? static_cast<std::uint32_t>(length) : 0; // (0: none kept)
    // (out's room goes on past the text: a copy of fixed length)
    std::memcpy(entry.text, out, kTextRoom);
    entry.key_bits = bits;
    return end;
  }
  char* write(char* out, double value)
  {
    return write(out, value, [](double v) { return v; });
  }

 private:
  struct Entry {
    std::uint64_t key_bits = 0;
    char text[kTextRoom];
    std::uint32_t length = 0;
  };
  std::unique_ptr<Entry[]> entries_;
};
/* What segments.csv needs of a job once it has left (its record is dropped then): how it ended, and its slowdown. */
struct JobOutcome {
  JobFate fate = JobFate::running;
  double slowdown = 0;
};
/* A running segment's start, end and processors as text: trace.csv's row of the segment has them already
 * (TraceWriter::last_row()), and segments.csv's row of it takes them from there. */
struct SegmentTexts {
  std::string_view start;
  std::string_view end;
  std::string_view processors;
  /* Each text's storage goes on for kPaddedRoom characters past its start at least (TraceWriter's row has that room):
   * a short text is copied at a fixed length (no call to memcpy): the start, end and processors, and the start again
   * when the job ran on from its previous segment. */
  bool padded = false;
  static constexpr std::size_t kPaddedRoom = 64;
};
/* segments.csv, for evalys and other Batsim tools: jobs.csv's Batsim columns, one row per running segment, the row's
 * submission being when the job became ready for that segment (its submission, then the end of its previous running
 * segment); success, final_state and stretch are the job's (jobs.csv's). A row is formatted when its segment closes,
 * all but those three fields, which are known once its job has left (job_left()); rows go out in the order their
 * segments closed, each as soon as its job and the jobs of every row before it have left, to `out` some at a time
 * (TraceWriter::kFlushSize characters or more; the last ones by flush() or finish()). The rows waiting meanwhile
 * are kept in memory up to `memory_limit` bytes, beyond which they move to a temporary file and are read back from it
 * in order, so that a long run's memory stays bounded. */
class SegmentsWriter {
 public:
  static constexpr std::size_t kMemoryLimit = std::size_t{32} << 20;
  /* Writes the header to `out`. `jobs`: the workload's, every job of the segments among them, kept by reference;
   * `table`: where they are registered (a job's position in `jobs` by its number), kept by reference. */
  SegmentsWriter(std::ostream& out, const JobList& jobs, const JobTable& table, const std::string& workload_name,
                 std::size_t memory_limit = kMemoryLimit);
  ~SegmentsWriter();
  SegmentsWriter(const SegmentsWriter&) = delete;
  SegmentsWriter& operator=(const SegmentsWriter&) = delete;
  void add(const TraceSegment& segment); // keeps running segments, ignores the others
  /* The same with the segment's own texts (TraceWriter::last_row() after writing it): not formatted again. */
  void add(const TraceSegment& segment, const SegmentTexts& texts);
  /* The job at `position` of `jobs` left with `outcome` (its slowdown from job_metrics()): its rows can go out. */
  void job_left(std::size_t position, const JobOutcome& outcome);
  /* Writes the rows that can go out and have not yet to the stream (a job's rows going out a few at a time, each few
   * written was a copy into the stream's buffer). */
  void flush() { out_text_.write_to(out_); }
  /* Every job has left: the last rows go out. std::logic_error when a row's job never left. */
  void finish();
  /* Bytes of rows that moved to the temporary file so far (none while they fit in memory). */
  std::uint64_t spilled_bytes() const { return spilled_total_; }

 private:
  /* A waiting row: `length` bytes of text follow, its final fields to go at `outcome_at` (success, final_state) and
   * `stretch_at`. */
  struct Waiting {
    std::uint64_t position;
    std::uint32_t outcome_at;
    std::uint32_t stretch_at;
    std::uint32_t length;
    std::uint32_t padding;
  };
  /* std::out_of_range for a job not in `table`. Kept by number modulo kKnownPositions (the table's lookup, out of line,
   * was a tenth of add()'s work under ag-ds): a job's position never changes. */
  std::size_t position_of(JobId id);
  static constexpr std::size_t kKnownPositions = 256;
  struct KnownPosition {
    JobId job = 0;
    std::size_t position_plus_one = 0; // 0: none
  };
  std::unique_ptr<KnownPosition[]> known_positions_{new KnownPosition[kKnownPositions]};
  void spill();
  void release_first_block();
  const char* next_spilled(std::size_t bytes);
  bool emit_next();
  void emit_ready();

  std::ostream& out_;
  const JobList& jobs_;
  const JobTable& table_;
  std::string workload_name_;
  std::size_t memory_limit_;
  std::vector<double> ready_;                    // when each job became ready for its next segment
  std::vector<double> ready_after_cycle_;        // see add()
  /* How a job that left ended, and its stretch's text, formatted once when it left: its rows, interleaved with other
   * jobs', formatted it each (a run's rows are jobs' segments: a fifth of the writer's work on the KTH log under
   * ag-ds). A stretch longer than the room (a slowdown of 10^14 or more) is kept as its bits and formatted per row. */
  struct LeftJob {
    static constexpr std::uint8_t kFormattedPerRow = 0xff;
    union {
      std::uint32_t text_slot; // until the job leaves: 1 + its slot of job_texts_ (0: none)
      char stretch[22];        // once it has left
    };
    std::uint8_t stretch_length;
    std::uint8_t fate; // a JobFate
  };
  std::vector<LeftJob> outcomes_;
  /* The fields of a job's rows that are the same on each (its number, the workload's name and the job's shape before
   * the submission, its size and estimate after), formatted at its first row and copied on the others: a job in the
   * system has a slot of kJobTextRoom + the name's length (the texts' two lengths, 16 bits each, then the texts), freed
   * when it leaves.
   * Texts too long for the slot (an estimate of many digits) and the rows of a job that has left are formatted per
   * row. */
  static constexpr std::size_t kJobTextRoom = 96;
  static constexpr std::uint32_t kTextsPerRow = 0xffffffff;           // (LeftJob::text_slot)
  const char* job_text(std::size_t position, const WorkloadJob& job); // the slot, or nullptr
  char* write_job_head(char* p, const WorkloadJob& job) const;        // "number,workload,shape,"
  static char* write_job_middle(char* p, const WorkloadJob& job);     // ",size,estimate,"
  std::size_t job_text_stride_;
  std::vector<char> job_texts_;
  std::vector<std::uint32_t> free_job_texts_;
  std::vector<char> left_;
  static constexpr std::size_t kBlockSize = std::size_t{1} << 20;
  std::deque<TextBuffer> blocks_; // rows in memory, in blocks of kBlockSize (the first read up to block_read_)
  std::size_t block_read_ = 0;
  std::size_t waiting_bytes_ = 0; // unread bytes of blocks_
  std::vector<TextBuffer> spare_blocks_;
  std::FILE* spill_ = nullptr;      // rows moved out of memory: [spill_loaded_ - (spilled_.size() - spilled_read_),
  std::uint64_t spill_written_ = 0; // spill_written_) of the file, before the ones in memory
  std::uint64_t spill_loaded_ = 0;
  TextBuffer spilled_; // what was read of the file, from spilled_read_ on
  std::size_t spilled_read_ = 0;
  std::uint64_t spilled_total_ = 0;
  TextBuffer out_text_;    // rows assembled before one write
  std::string processors_; // add() without texts: the segment's processors
  NumberCache ready_text_; // the columns' numbers formatted lately
  NumberCache execution_text_;
  NumberCache waiting_text_;
  NumberCache turnaround_text_;
};
/* trace.csv, one row per execution segment: job, start, end, processors (Batsim's interval notation), state. With
 * `cycles` (a policy that may declare repeating schedules) two more columns, period and repeats: empty on an ordinary
 * row; an aggregated row (TraceSegment::repeats) stands for `repeats` segments, the i-th spanning [start + i x period,
 * end + i x period). Rows are written to `out` some at a time (kFlushSize characters or more), the last ones by
 * flush() or the destructor. */
class TraceWriter {
 public:
  static constexpr std::size_t kFlushSize = std::size_t{1} << 18;
  static constexpr std::size_t kJobNumberRoom = 20;             // 19 digits and a sign
  explicit TraceWriter(std::ostream& out, bool cycles = false); // writes the header
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;
  void write(const TraceSegment& segment);
  /* Writes the rows not written yet to the stream. */
  void flush();
  /* The number of processors of the last row written, `processors` being its set: kept with its job's processors'
   * text, so counted once for the rows of a set the job keeps from segment to segment (a time-sharing job's; counting
   * them on each running row was 2% of a run's instructions under ap). */
  int last_row_processor_count(const ResourceSet& processors)
  {
    if (last_kept_ == nullptr || last_kept_->processors_length == kNoProcessors) return processors.count();
    if (last_kept_->processor_count < 0) last_kept_->processor_count = processors.count();
    return last_kept_->processor_count;
  }
  /* The start, end and processors of the last row written, valid until the next write() or flush(). */
  SegmentTexts last_row() const
  {
    const char* const row = rows_.data(); // (the places are where write() put them: no bounds to check)
    return {{row + start_at_, end_at_ - 1 - start_at_},
            {row + end_at_, processors_at_ - 1 - end_at_},
            {row + processors_at_, processors_end_ - processors_at_},
            true};
  }

 private:
  /* A job's texts, kept for its next rows: the rows of the jobs sharing the machine interleave, so the columns' memos
   * (NumberCache) rarely hold a job's own values. Its number (std::to_chars of it was a tenth of the writer's work);
   * the end of its last row, which is the start of its next one (a job's segments follow one another); its processors'
   * text with the words of the set it is of, while the set spans at most kKeptWords words (a time-sharing job keeps its
   * processors from segment to segment: their text was a fifth of a run's instructions under ap). By number modulo
   * kJobNumbers (a job in the system rarely shares its place with another: their numbers are close together); each
   * text copied at its room's fixed length (no call), the row having room for it. */
  static constexpr std::size_t kEndRoom = 24;
  static constexpr std::size_t kProcessorsRoom = 64;
  static constexpr int kKeptWords = 4;
  static constexpr std::uint8_t kNoProcessors = 0xff;
  struct JobTexts {
    JobId job = 0;
    std::uint8_t length = 0;     // of the number's text; 0: nothing kept
    std::uint8_t end_length = 0; // 0: no end kept
    std::uint8_t processors_length = kNoProcessors;
    int processor_count = -1; // of the kept processors, once asked for (last_row_processor_count()); -1: not counted
    char text[kJobNumberRoom];
    std::uint64_t end_bits = 0;
    int first_word = 0; // the words the processors' text is of: [first_word, first_word + word_count)
    int word_count = 0;
    std::uint64_t words[kKeptWords] = {};
    char end[kEndRoom];
    char processors[kProcessorsRoom];
  };
  static constexpr std::size_t kJobNumbers = 256;
  JobTexts& job_texts(JobId job); // the job's place, its texts dropped if they were another job's
  /* Whether `kept`'s processors' text is that of `processors` (a set of the same words). */
  static bool holds_set(const JobTexts& kept, const ResourceSet& processors);
  /* The processors' text at `p`: kept's when `held` (holds_set()), else written and kept when it fits. */
  static char* write_processors(char* p, JobTexts& kept, const ResourceSet& processors, bool held);

  std::ostream& out_;
  std::unique_ptr<JobTexts[]> job_texts_;
  JobTexts* last_kept_ = nullptr; // the last row's job's texts
  TextBuffer rows_;               // rows not written to out_ yet, the last one last
  NumberCache start_text_; // the starts and ends formatted lately
  NumberCache end_text_;
  std::size_t start_at_ = 0; // where last_row()'s texts are in rows_
  std::size_t end_at_ = 0;
  std::size_t processors_at_ = 0;
  std::size_t processors_end_ = 0;
  bool cycles_ = false;
};
std::string summary_json(const RunDescription& run, const Workload& workload, const RunMetrics& m);
/* With the policy's own keys after the common ones (model/policy_report.hpp). */
std::string summary_json(const RunDescription& run, const Workload& workload, const RunMetrics& m,
                         const PolicyReport& extra);

struct PerformanceFigures {
  double wall_seconds = 0;       // whole run: reading inputs, simulating, writing outputs
  double simulation_seconds = 0; // the simulation alone
  double peak_memory_mb = 0;
  long instants = 0;
  long decisions = 0;
  long jobs = 0;
  long segments = 0;     // segments recorded (trace.csv's rows when written; counted without it too)
  std::string execution; // how jobs executed: timer (fast path) or ptask

  long virtual_instants = 0; // of `instants`, reached without SimGrid (SchedulerActor::set_virtual_wakeups)
  long cycles = 0;           // whole cycles advanced without deciding (SchedulerActor::set_cycles)
  long cycle_instants = 0;   // the decision instants those cycles stood for, not in `instants`
};
std::string performance_json(const PerformanceFigures& p);
/* The last step of every kind of run: the peak memory and the wall time since `wall_start` go into `p`, which is
 * written as performance.json, and the folder is committed. */
void write_performance_and_commit(RunFolder& folder, PerformanceFigures& p,
                                  std::chrono::steady_clock::time_point wall_start);

/* Peak resident memory of this process, in MiB. */
double peak_memory_mb();

} // namespace jobsched
