#include "core/input_file.hpp"

#include "core/errors.hpp"

#include <system_error>

namespace jobsched {

bool is_input_file(const std::filesystem::path& path, const std::string& where)
{
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory)
    throw InputError(where + ": file '" + path.string() + "' cannot be looked up (" + ec.message() + ")");
  return std::filesystem::is_regular_file(status);
}

} // namespace jobsched
