/* A run's output folder, committed as a set.
 *
 * The files are written (streamed: trace.csv grows while the simulation runs) into a hidden sibling folder,
 * `.NAME.tmp-HOST-PID`, which commit() renames into place, replacing the previous run's folder, so a reader sees every
 * file of one run or none of them, never jobs.csv of one run beside summary.json of another. Files in the previous
 * folder that a run does not write (a sweep's scenario.yaml and stderr.txt, a user's notes) are carried over; the
 * previous run's outputs and figures are not. A run that fails, or is destroyed before commit(), removes its hidden
 * folder; a killed process leaves it behind, under a name no reader looks for, and the next run into the same folder
 * on the same host removes it (and a `.NAME.old-HOST-PID` that a process killed inside commit() left). */
#pragma once

#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace jobsched {

class RunFolder {
 public:
  explicit RunFolder(std::filesystem::path dir);
  RunFolder(const RunFolder&) = delete;
  RunFolder& operator=(const RunFolder&) = delete;
  ~RunFolder();

  /* A file to stream into (created in the hidden folder); InputError when it cannot be created. */
  std::ostream& open(const std::string& name);
  /* A file written whole. */
  void write(const std::string& name, const std::string& content);
  /* Close every file (InputError naming the file and the reason when a write failed, e.g. a full disk), carry over
   * the previous folder's other files, and rename the hidden folder into place. */
  void commit();
  const std::filesystem::path& dir() const { return dir_; }

 private:
  class File; // a buffered POSIX file that remembers why a write failed (errno), for the error message
  std::filesystem::path dir_;
  std::filesystem::path tmp_;
  std::string host_; // this machine's name, in the hidden folders' names
  std::vector<std::pair<std::string, std::unique_ptr<File>>> files_;
  bool committed_ = false;
};

/* The names a run writes: what commit() does not carry over from a previous run. */
const std::vector<std::string>& run_output_names();

} // namespace jobsched
