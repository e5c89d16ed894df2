#include "core/input_file.hpp"

#include "core/errors.hpp"

#include <fstream>
#include <sstream>
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

PipeKind pipe_kind(const std::filesystem::path& path)
{
  std::error_code ec;
  if (std::filesystem::status(path, ec).type() != std::filesystem::file_type::fifo) return PipeKind::none;
  // An open pipe is reached through links (/dev/fd/63 -> /proc/self/fd/63 -> "pipe:[123]") that end in no file.
  std::filesystem::path at = path;
  for (int links = 0; links < 40 && std::filesystem::is_symlink(at, ec); links++) {
    const std::filesystem::path target = std::filesystem::read_symlink(at, ec);
    if (ec) break;
    if (target.string().rfind("pipe:[", 0) == 0) return PipeKind::open;
    at = target.is_absolute() ? target : at.parent_path() / target;
  }
  return PipeKind::named;
}

std::string file_text(const std::filesystem::path& path)
{
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string file_first_line(const std::filesystem::path& path)
{
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

} // namespace jobsched
