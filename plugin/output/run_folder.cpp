#include "output/run_folder.hpp"

#include "core/errors.hpp"
#include "core/interruption.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <memory>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace jobsched {

const std::vector<std::string>& run_output_names()
{
  static const std::vector<std::string> names{"jobs.csv",     "trace.csv",        "segments.csv",
                                              "summary.json", "performance.json", "plots"};
  return names;
}

std::vector<std::string> RunFolder::written() const
{
  std::vector<std::string> names;
  for (const auto& name : run_output_names())
    for (const auto& file : files_)
      if (file.first == name) names.push_back(name);
  return names;
}

class RunFolder::File {
 public:
  explicit File(const fs::path& path) : fd_(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644)), out_(&buf_)
  {
    if (fd_ < 0) buf_.error = errno;
    buf_.fd = fd_;
  }
  ~File()
  {
    if (fd_ >= 0) ::close(fd_);
  }
  std::ostream& stream() { return out_; }
  /* The errno of a failed open, 0 when the file is open. */
  int finish_error_if_unopened() const { return fd_ < 0 ? buf_.error : 0; }
  /* 0 when every byte reached the file, else the errno of the first failure. */
  int finish()
  {
    out_.flush();
    if (fd_ >= 0 && ::close(fd_) != 0 && buf_.error == 0) buf_.error = errno;
    fd_ = -1;
    return buf_.error != 0 ? buf_.error : out_ ? 0 : EIO;
  }

 private:
  struct Buffer : std::streambuf {
    int fd = -1;
    int error = 0;
    // trace.csv of a long run is written row by row. Left uninitialised: zero-filling 1 MiB for each output file was
    // 2-3% of a short run.
    static constexpr size_t size = 1 << 20;
    std::unique_ptr<char[]> data{new char[size]};
    Buffer() { setp(data.get(), data.get() + size); }
    // Pieces this long (the rows trace.csv's and segments.csv's writers assembled) go to the file from where they are,
    // after what the buffer holds: copying them into it first was a copy of every byte of those files.
    static constexpr std::streamsize kDirectSize = std::streamsize{1} << 15;
    bool write_all(const char* p, const char* end)
    {
      while (p < end && error == 0) {
        ssize_t n = ::write(fd, p, static_cast<size_t>(end - p));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
          error = n < 0 ? errno : EIO;
        else
          p += n;
      }
      return error == 0;
    }
    bool drain()
    {
      write_all(pbase(), pptr());
      setp(data.get(), data.get() + size);
      return error == 0;
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override
    {
      if (n < kDirectSize) return std::streambuf::xsputn(s, n);
      return drain() && write_all(s, s + n) ? n : 0;
    }
    int overflow(int c) override
    {
      if (!drain()) return traits_type::eof();
      if (c != traits_type::eof()) sputc(static_cast<char>(c));
      return traits_type::not_eof(c);
    }
    int sync() override { return drain() ? 0 : -1; }
  };
  int fd_;
  Buffer buf_;
  std::ostream out_;
};

namespace {

std::string host_name()
{
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "localhost";
  return name;
}

/* Whether process `pid` of this host still runs: a zombie (killed, not yet waited for by its parent) does not. */
bool process_runs(pid_t pid)
{
  if (kill(pid, 0) != 0 && errno == ESRCH) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true; // no /proc: kill() said it exists
  const auto name_end = line.rfind(')');      // the command name, in parentheses, may hold spaces
  return name_end == std::string::npos || name_end + 2 >= line.size() ||
         (line[name_end + 2] != 'Z' && line[name_end + 2] != 'X');
}

/* What marks the hidden folders' names: `.NAME.tmp-HOST-PID`, written into; `.NAME.old-HOST-PID`, an earlier version's
 * previous outputs. */
constexpr const char* kWritingMark = ".tmp-";
constexpr const char* kOldMark = ".old-";

/* `.NAME.tmp-HOST-PID` and `.NAME.old-HOST-PID` folders in `where` that processes of this host which no longer run
 * left behind (a killed run: its partial trace.csv can be tens of MB). A live process's folders are kept (two runs
 * into the same folder at once), and so are other hosts' (a shared file system), whose processes cannot be asked. */
void remove_dead_runs_folders(const fs::path& where, const std::string& name, const std::string& host)
{
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(where.empty() ? fs::path(".") : where, ec)) {
    const std::string n = entry.path().filename().string();
    std::string rest;
    for (const char* kind : {kWritingMark, kOldMark}) {
      const std::string prefix = "." + name + kind + host + "-";
      if (n.size() > prefix.size() && n.compare(0, prefix.size(), prefix) == 0) rest = n.substr(prefix.size());
    }
    if (rest.empty() || rest.find_first_not_of("0123456789") != std::string::npos || rest.size() > 9) continue;
    const auto pid = static_cast<pid_t>(std::stol(rest));
    if (pid == getpid() || !process_runs(pid)) fs::remove_all(entry.path(), ec);
  }
}

} // namespace

bool is_run_writing_folder(const std::string& folder_name)
{
  return folder_name.size() > 1 && folder_name[0] == '.' && folder_name.find(kWritingMark, 1) != std::string::npos;
}

RunFolder::RunFolder(fs::path dir) : dir_(std::move(dir))
{
  if (dir_.filename().empty() && dir_.has_parent_path() && dir_ != dir_.root_path()) dir_ = dir_.parent_path();
  // The folder's own name, also for `.`, `./` or `e2/..` (the current folder, whose name the path does not hold).
  std::error_code ec;
  fs::path full = fs::absolute(dir_, ec).lexically_normal();
  if (full.filename().empty()) full = full.parent_path();
  name_ = full.filename().empty() ? "output" : full.filename().string();
  host_ = host_name();
}

RunFolder::~RunFolder()
{
  files_.clear();
  if (!committed_ && !tmp_.empty()) {
    std::error_code ec;
    fs::remove_all(tmp_, ec);
    remove_on_interruption({});
  }
}

std::ostream& RunFolder::open(const std::string& name)
{
  std::error_code ec;
  if (files_.empty()) {
    // An existing folder gets the hidden folder inside it: renaming the files out of it then stays on one file system,
    // and the folder's parent need not be writable (`--out .` in one's home folder). A new folder's is beside it,
    // renamed into place whole.
    const std::string hidden = "." + name_ + kWritingMark + host_ + "-" + std::to_string(getpid());
    const bool existed = fs::is_directory(dir_, ec);
    // This process's own leftover too (a killed run with the same id).
    remove_dead_runs_folders(dir_.parent_path(), name_, host_);
    if (existed) remove_dead_runs_folders(dir_, name_, host_);
    tmp_ = existed ? dir_ / hidden : dir_.parent_path() / hidden;
    remove_on_interruption(tmp_); // set first: a signal right after the folder is made removes it
    fs::create_directories(tmp_, ec);
    if (ec) throw InputError(dir_.string() + ": cannot create the output folder (" + ec.message() + ")");
  }
  add_file_removed_on_interruption(tmp_ / name);
  auto file = std::make_unique<File>(tmp_ / name);
  if (int error = file->finish_error_if_unopened())
    throw InputError((dir_ / name).string() + ": cannot write (" + std::strerror(error) + ")");
  files_.emplace_back(name, std::move(file));
  return files_.back().second->stream();
}

void RunFolder::write(const std::string& name, const std::string& content)
{
  open(name) << content;
}

void RunFolder::commit()
{
  for (auto& [name, file] : files_)
    if (int error = file->finish())
      throw InputError((dir_ / name).string() + ": cannot write (" + std::strerror(error) + ")");
  // An interruption now would leave some outputs replaced and others not: it waits for the end of the renames.
  const InterruptionsHeld held;
  std::error_code ec;
  if (fs::is_directory(dir_, ec)) {
    replace_outputs();
  } else if (fs::exists(dir_, ec)) {
    throw InputError(dir_.string() + ": exists and is not a folder");
  } else {
    fs::create_directories(dir_.parent_path(), ec);
    fs::rename(tmp_, dir_, ec);
    if (ec) throw InputError(dir_.string() + ": cannot write the output folder (" + ec.message() + ")");
  }
  committed_ = true;
  remove_on_interruption({});
}

namespace {
/* Whether `dir` holds only figures `jobsched plot` writes (files *.svg and *.png): a `plots` folder of an earlier run,
 * stale once the run is replaced; a folder holding anything else is a user's, and stays. */
bool holds_only_figures(const fs::path& dir)
{
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const fs::path& file = entry.path();
    if (!fs::is_regular_file(fs::symlink_status(file, ec)) ||
        (file.extension() != ".svg" && file.extension() != ".png"))
      return false;
  }
  return !ec;
}
} // namespace

/* Into an existing folder only a run's outputs go: each one this run wrote is renamed over the previous run's, the
 * previous run's outputs this run does not write are removed (trace.csv of a run with `output.trace: false`, a
 * `plots` folder of figures only), and nothing else in the folder is touched (a user's notes, `.git`, the file the
 * shell redirects stdout into, a folder of the user's that bears an output's name). Every check comes before the first
 * rename: a refused run leaves the folder as it was. */
void RunFolder::replace_outputs()
{
  std::error_code ec;
  std::vector<std::pair<fs::path, bool>> targets; // each output's place, and whether this run wrote it
  for (const auto& name : run_output_names()) {
    const fs::path target = dir_ / name;
    const bool written =
        std::any_of(files_.begin(), files_.end(), [&name](const auto& file) { return file.first == name; }) ||
        fs::exists(tmp_ / name, ec);
    const fs::file_status there = fs::symlink_status(target, ec);
    if (written && fs::is_directory(there))
      throw InputError(target.string() + ": a folder stands where the run writes its file; it is not replaced");
    targets.emplace_back(target, written);
  }
  for (const auto& [target, written] : targets) {
    if (written) {
      fs::rename(tmp_ / target.filename(), target, ec);
      if (ec) throw InputError(target.string() + ": cannot write (" + ec.message() + ")");
      continue;
    }
    const fs::file_status there = fs::symlink_status(target, ec);
    if (!fs::exists(there)) continue;
    if (fs::is_directory(there) ? !holds_only_figures(target) : !fs::is_regular_file(there) && !fs::is_symlink(there))
      continue;
    fs::remove_all(target, ec);
    if (ec) throw InputError(target.string() + ": cannot remove the previous run's output (" + ec.message() + ")");
  }
  fs::remove_all(tmp_, ec);
}

} // namespace jobsched
