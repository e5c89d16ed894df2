/* Output files are built in memory and committed together at the end of a run: each is written to a temporary file
 * in the output folder and renamed into place, so a failed or interrupted run leaves no partial file. */
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace jobsched {

class OutputFiles {
 public:
  explicit OutputFiles(std::filesystem::path dir) : dir_(std::move(dir)) {}
  void add(const std::string& name, std::string content) { files_.emplace_back(name, std::move(content)); }
  /* Create the folder, write every file under a temporary name, then rename them all. InputError on failure. */
  void commit() const;
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
  std::vector<std::pair<std::string, std::string>> files_;
};

} // namespace jobsched
