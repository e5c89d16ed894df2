#include "core/writable_file.hpp"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace fs = std::filesystem;

namespace jobsched {

std::string why_not_writable(const fs::path& path)
{
  if (path.empty()) return "no file name";
  std::error_code ec;
  if (fs::is_directory(path, ec)) return "'" + path.string() + "' is a folder";
  // An existing file must be writable; a new one needs a folder it may create files in.
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
  const bool exists = fs::exists(path, ec);
  if (exists ? access(path.c_str(), W_OK) != 0 : access(folder.c_str(), W_OK | X_OK) != 0)
    return "cannot write '" + path.string() + "' (" + std::strerror(errno) + ")";
  if (!exists && !fs::is_directory(folder, ec)) return "cannot write '" + path.string() + "' (Not a directory)";
  return "";
}

} // namespace jobsched
