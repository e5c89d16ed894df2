#include "workload/swf_reader.hpp"

#include "core/errors.hpp"
#include "core/time_format.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <zlib.h>

namespace jobsched {

namespace {

std::string read_whole_file(const std::string& path)
{
  gzFile f = gzopen(path.c_str(), "rb"); // reads plain files too
  if (f == nullptr) throw InputError(path + ": cannot open (" + std::strerror(errno) + ")");
  // Room for the whole text at once where its size is known (a plain file) or can be guessed (a gzip file: SWF logs
  // compress 5 to 7 times; room that is never written costs no memory), instead of doubling it from nothing.
  std::string text;
  std::error_code size_error;
  const auto file_size = std::filesystem::file_size(path, size_error);
  if (!size_error) text.reserve(gzdirect(f) != 0 ? file_size : std::min<std::uintmax_t>(8 * file_size, 1u << 28));
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0)
    text.append(buf, static_cast<size_t>(n));
  int err = 0;
  const char* msg = gzerror(f, &err);
  std::string message = (err != Z_OK && err != Z_STREAM_END) ? msg : "";
  gzclose(f);
  if (n < 0 || !message.empty())
    throw InputError(path + ": cannot read (" + (message.empty() ? "corrupt compressed data" : message) + ")");
  return text;
}

void read_header(const std::string& line, int& max_procs, int& max_nodes)
{
  auto value_of = [&line](const char* key) -> long {
    auto pos = line.find(key);
    if (pos == std::string::npos) return -1;
    return std::strtol(line.c_str() + pos + std::strlen(key), nullptr, 10);
  };
  if (long v = value_of("MaxProcs:"); v > 0) max_procs = static_cast<int>(v);
  if (long v = value_of("MaxNodes:"); v > 0) max_nodes = static_cast<int>(v);
}

} // namespace

SwfFile parse_swf(const std::string& text, const std::string& origin, SizeField size_field)
{
  static const char* const field_names[18] = {"job number",
                                              "submit time",
                                              "wait time",
                                              "run time",
                                              "allocated processors",
                                              "average CPU time",
                                              "used memory",
                                              "requested processors",
                                              "requested time",
                                              "requested memory",
                                              "status",
                                              "user id",
                                              "group id",
                                              "executable number",
                                              "queue number",
                                              "partition number",
                                              "preceding job",
                                              "think time"};
  SwfFile out;
  int max_procs = 0;
  int max_nodes = 0;
  // Lines are read in place, between newlines, instead of copied out one by one through a stream; one record per line
  // at most, so the records are reserved at once (a log has tens of thousands).
  const char* const text_end = text.data() + text.size();
  out.records.reserve(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1);
  long line_no = 0;
  for (const char* line_start = text.data(); line_start < text_end;) {
    const char* newline = static_cast<const char*>(std::memchr(line_start, '\n', text_end - line_start));
    const char* line_end = newline != nullptr ? newline : text_end;
    const char* const next_line = newline != nullptr ? newline + 1 : text_end;
    line_no++;
    if (line_end > line_start && line_end[-1] == '\r') line_end--;
    const char* first = line_start;
    while (first < line_end && (*first == ' ' || *first == '\t'))
      first++;
    if (first == line_end) {
      line_start = next_line;
      continue;
    }
    if (*first == ';') {
      read_header(std::string(line_start, line_end), max_procs, max_nodes);
      line_start = next_line;
      continue;
    }
    // A NUL ends the line's fields, as the end of the line does.
    const char* const fields_end = std::find(line_start, line_end, '\0');
    line_start = next_line;
    auto where = [&] { return origin + ":" + std::to_string(line_no); }; // built only when needed, not per line
    double f[18];
    const char* p = first;
    int count = 0;
    while (true) {
      while (p < fields_end && (*p == ' ' || *p == '\t'))
        p++;
      if (p == fields_end) break;
      if (count == 18) throw InputError(where() + ": more than 18 fields");
      // std::from_chars: no locale, several times faster than strtod on the 500,000 fields of a long log.
      double v = 0;
      const char* field_end = p;
      while (field_end < fields_end && *field_end != ' ' && *field_end != '\t')
        field_end++;
      // Most fields are small integers: read those as integers (exact, and several times cheaper), the rest as doubles.
      long long whole_value = 0;
      auto [int_end, int_error] = std::from_chars(p, field_end, whole_value);
      if (int_error == std::errc() && int_end == field_end && whole_value > -(1LL << 53) && whole_value < (1LL << 53)) {
        f[count++] = static_cast<double>(whole_value);
        p = field_end;
        continue;
      }
      auto [end, error] = std::from_chars(p, field_end, v);
      if (error != std::errc() || end != field_end || !std::isfinite(v))
        throw InputError(where() + ": field " + std::to_string(count + 1) + " (" + field_names[count] +
                         ") is not a number: " + quoted_value(std::string(p, field_end)));
      f[count++] = v;
      p = end;
    }
    if (count != 18) throw InputError(where() + ": expected 18 fields, found " + std::to_string(count));
    // Fields that are counts or identifiers must be whole numbers in range: a cast of 3e9 to int, or of 1e30 to an
    // id, is undefined behaviour, and 4.7 processors would silently become 4.
    auto whole = [&](int field, double limit) {
      double v = f[field];
      if (v != std::floor(v))
        throw InputError(where() + ": field " + std::to_string(field + 1) + " (" + field_names[field] +
                         ") is not a whole number: " + format_exact(v));
      if (std::fabs(v) > limit)
        throw InputError(where() + ": field " + std::to_string(field + 1) + " (" + field_names[field] + ") " +
                         format_exact(v) + " is out of range (at most " + format_exact(limit) + ")");
      return v;
    };
    constexpr double kMaxId = 9007199254740992.0; // 2^53: every whole number up to it is exact in a double
    constexpr double kMaxCount = 1e9;
    JobRecord rec;
    rec.origin = where();
    WorkloadJob& job = rec.job;
    job.id = static_cast<JobId>(whole(0, kMaxId));
    // SWF numbers jobs from 1 and writes -1 for a missing field: a negative job number is a missing one, which every
    // policy would otherwise take as an ordinary id except gang-now's allocation map, whose free entries are negative.
    if (job.id < 0)
      throw InputError(where() + ": field 1 (job number) " + format_exact(f[0]) +
                       " is negative (the Standard Workload Format numbers jobs from 1)");
    job.submit_time = f[1];
    job.run_time = f[3];
    const int primary = size_field == SizeField::requested ? 7 : 4; // field 8 or 5, the other one when missing
    const int fallback = primary == 7 ? 4 : 7;
    job.size = static_cast<int>(f[primary] > 0    ? whole(primary, kMaxCount)
                                : f[fallback] > 0 ? whole(fallback, kMaxCount)
                                                  : -1);
    job.estimate = f[8] > 0 ? f[8] : -1;
    job.memory_kb = f[6] > 0 ? f[6] : f[9] > 0 ? f[9] : -1; // used memory, else requested memory
    if (f[2] >= 0) job.recorded_start = f[1] + f[2];
    if (f[4] > 0) job.recorded_size = static_cast<int>(whole(4, kMaxCount));
    // The Standard Workload Format writes -1 for an unknown value and nothing else below 0: the average CPU time
    // (field 6) and the identifiers (user, group, executable, queue, partition, preceding job and think time, fields 12
    // to 18, whole numbers) are refused below -1, as the identifiers are when not whole or beyond an id's range.
    if (f[5] < 0 && f[5] != -1)
      throw InputError(where() + ": field 6 (" + std::string(field_names[5]) + ") " + format_exact(f[5]) +
                       " is negative (the Standard Workload Format writes -1 for unknown)");
    for (int field = 11; field < 18; field++) {
      whole(field, field == 11 ? kMaxCount : kMaxId);
      if (f[field] < -1)
        throw InputError(where() + ": field " + std::to_string(field + 1) + " (" + field_names[field] + ") " +
                         format_exact(f[field]) + " is negative (the Standard Workload Format writes -1 for unknown)");
    }
    job.user = static_cast<int>(f[11]);
    if (job.submit_time < 0) throw InputError(where() + ": field 2 (submit time) is negative");
    out.records.push_back(std::move(rec));
  }
  out.max_procs = max_procs > 0 ? max_procs : max_nodes;
  return out;
}

SwfFile read_swf(const std::string& path, SizeField size_field)
{
  return parse_swf(read_whole_file(path), path, size_field);
}

} // namespace jobsched
