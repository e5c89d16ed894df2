#include "core/csv.hpp"

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

} // namespace jobsched
