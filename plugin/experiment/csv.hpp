/* The CSV dialect of the experiment tables: comma-separated, RFC 4180 quoting when a field needs it. */
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace jobsched {

std::string csv_field(const std::string& value);
std::string csv_row(const std::vector<std::string>& fields);
std::vector<std::string> csv_split(const std::string& line);

struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  /* Index of a column, or -1. */
  int column(const std::string& name) const;
};
/* InputError naming the file (and line) when it cannot be read or a row has the wrong number of fields. */
CsvTable read_csv(const std::filesystem::path& file);

} // namespace jobsched
