/* Reading the CSV files this program writes (core/csv.hpp: comma-separated, RFC 4180 quoting when a field needs it). */
#pragma once

#include "core/csv.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace jobsched {

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
/* InputError naming the file (and line) when it cannot be read or a row has the wrong number of fields. */
CsvTable read_csv(const std::filesystem::path& file);

} // namespace jobsched
