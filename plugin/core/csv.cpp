#include "core/csv.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <fstream>

namespace jobsched {

std::string csv_field(const std::string& value)
{
  if (value.find_first_of(",\"\n\r") == std::string::npos) return value;
  std::string out = "\"";
  for (char c : value) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csv_row(const std::vector<std::string>& fields)
{
  std::string out;
  for (size_t i = 0; i < fields.size(); i++)
    out += (i == 0 ? "" : ",") + csv_field(fields[i]);
  return out + "\n";
}

std::vector<std::string> csv_split(const std::string& line)
{
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); i++) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        i++;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"' && out.back().empty()) {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else if (c != '\r') {
      out.back() += c;
    }
  }
  return out;
}

int CsvTable::column(const std::string& name) const
{
  for (size_t i = 0; i < header.size(); i++)
    if (header[i] == name) return static_cast<int>(i);
  return -1;
}

size_t CsvTable::required_column(const std::string& name) const
{
  int c = column(name);
  if (c < 0) throw InputError(file.string() + ": no column '" + name + "' in the header");
  return static_cast<size_t>(c);
}

CsvTable read_csv(const std::filesystem::path& file)
{
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string() + ": cannot read");
  CsvTable t;
  t.file = file;
  std::string line;
  size_t line_no = 0;
  // Every line jobsched writes ends with a line end: a file whose last line has none was cut short (copied or read
  // while a run wrote it, or its writer stopped), and its last row may be cut inside a field and still look whole.
  const auto refuse_cut_short = [&in, &file](size_t line) {
    if (in.eof())
      throw InputError(file.string() + ":" + std::to_string(line) +
                       ": the file ends inside this line (no line end after it): it was cut short, as when it is read "
                       "while a run writes it or its writer stopped");
  };
  while (std::getline(in, line)) {
    line_no++;
    const size_t first_line = line_no;
    if (!line.empty()) refuse_cut_short(first_line);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    // A quoted field may hold a line break (csv_field quotes it): the record goes on while a quote is open (an odd
    // number of double quotes so far, since a quote inside a field is doubled).
    while (std::count(line.begin(), line.end(), '"') % 2 == 1) {
      std::string more;
      if (!std::getline(in, more))
        throw InputError(file.string() + ":" + std::to_string(first_line) + ": a quoted field is not closed");
      line_no++;
      refuse_cut_short(first_line);
      if (!more.empty() && more.back() == '\r') more.pop_back();
      line += "\n" + more;
    }
    auto fields = csv_split(line);
    if (t.header.empty()) {
      t.header = std::move(fields);
      continue;
    }
    if (fields.size() != t.header.size())
      throw InputError(file.string() + ":" + std::to_string(first_line) + ": " + std::to_string(fields.size()) +
                       " fields, the header has " + std::to_string(t.header.size()));
    t.rows.push_back(std::move(fields));
    t.lines.push_back(first_line);
  }
  if (in.bad()) throw InputError(file.string() + ": cannot read");
  if (t.header.empty()) throw InputError(file.string() + ": empty file, expected a header line");
  return t;
}

} // namespace jobsched
