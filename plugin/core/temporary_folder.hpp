/* A folder of its own in the system's temporary folder (TMPDIR, else /tmp), removed with everything in it when it goes
 * out of scope unless kept: a process killed meanwhile leaves it, named by its prefix (jobsched-plot-*,
 * jobsched-sweep-check-*) so that its owner can be told. */
#pragma once

#include <filesystem>
#include <string>

namespace jobsched {

class TemporaryFolder {
 public:
  /* `prefix`: the folder's name before its six random characters. std::runtime_error when it cannot be made. */
  explicit TemporaryFolder(const std::string& prefix);
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  ~TemporaryFolder();
  const std::filesystem::path& path() const { return path_; }
  /* Left in place at the end of the scope (what it holds explains a failure). */
  void keep() { keep_ = true; }

 private:
  std::filesystem::path path_;
  bool keep_ = false;
};

} // namespace jobsched
