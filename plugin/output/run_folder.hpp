/* A run's output folder.
 *
 * The files are written (streamed: trace.csv grows while the simulation runs) into a hidden folder,
 * `.NAME.tmp-HOST-PID`, beside the output folder when it is new, which commit() then renames into place, so a reader
 * sees every file of one run or none of them. Into an existing folder (`--out .` included), commit() renames each
 * output over the previous run's and removes the previous run's outputs this run does not write (run_output_names());
 * nothing else in the folder is ever removed or replaced: a sweep's scenario.yaml and stderr.txt, a user's notes,
 * `.git`, hidden files. The hidden folder is then inside the existing folder, so the renames stay on one file system.
 * A run that fails, or is destroyed before commit(), removes its hidden folder; a killed process leaves it behind,
 * under a name no reader looks for, and the next run into the same folder on the same host removes it (and a
 * `.NAME.old-HOST-PID` that an earlier version killed inside commit() left). */
#pragma once

#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace jobsched {

/* Whether `folder_name` is that of the hidden folder a run writes into (`.NAME.tmp-HOST-PID`), whose files are cut
 * short until the run ends. */
bool is_run_writing_folder(const std::string& folder_name);

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
  /* Close every file (InputError naming the file and the reason when a write failed, e.g. a full disk), and put them
   * in place: the hidden folder renamed into place when the folder is new, each output renamed over the previous
   * run's when it exists. */
  void commit();
  const std::filesystem::path& dir() const { return dir_; }
  /* The names of the files this run writes, in run_output_names()'s order (the launcher's summary lists them). */
  std::vector<std::string> written() const;

 private:
  void replace_outputs();
  class File; // a buffered POSIX file that remembers why a write failed (errno), for the error message
  std::filesystem::path dir_;
  std::filesystem::path tmp_;
  std::string name_; // the folder's name, in the hidden folders' names
  std::string host_; // this machine's name, in the hidden folders' names
  std::vector<std::pair<std::string, std::unique_ptr<File>>> files_;
  bool committed_ = false;
};

/* The names a run writes: the only entries commit() replaces or removes in an existing folder. */
const std::vector<std::string>& run_output_names();

} // namespace jobsched
