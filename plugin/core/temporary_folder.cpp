#include "core/temporary_folder.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace jobsched {

TemporaryFolder::TemporaryFolder(const std::string& prefix)
{
  std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "XXXXXX")).string();
  if (mkdtemp(pattern.data()) == nullptr)
    throw std::runtime_error("cannot create a temporary folder " + pattern + ": " + std::strerror(errno));
  path_ = pattern;
}

TemporaryFolder::~TemporaryFolder()
{
  if (keep_) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

} // namespace jobsched
