/* The one way a CSV file is written here (jobs.csv, trace.csv, the sweep tables, plans...): comma-separated, a field
 * quoted per RFC 4180 when it needs it (it holds a comma, a double quote, a carriage return or a newline), a double
 * quote doubled inside. Fields that hold user text (a workload's name, an architecture, a swept value) go through
 * csv_field; numbers written directly need no quoting. And the one way those files are read back (the sweep tables,
 * the figures). */
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace jobsched {

std::string csv_field(const std::string& value);
/* The fields, each through csv_field, joined by commas, ending in a newline. */
std::string csv_row(const std::vector<std::string>& fields);

/* The fields of one record (quotes undone); the inverse of csv_row without its newline. */
std::vector<std::string> csv_split(const std::string& line);

struct CsvTable {
  std::filesystem::path file;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<size_t> lines; // the line of each row in the file, for messages

  /* Index of a column, or -1. */
  int column(const std::string& name) const;
  /* Index of a column; InputError naming the file when it is absent. */
  size_t required_column(const std::string& name) const;
  /* "file:line" of a row. */
  std::string where(size_t row) const { return file.string() + ":" + std::to_string(lines[row]); }
};
/* InputError naming the file (and line) when it cannot be read, a row has the wrong number of fields, or the last
 * line has no line end (the file was cut short). */
CsvTable read_csv(const std::filesystem::path& file);

} // namespace jobsched
