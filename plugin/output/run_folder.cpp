#include "output/run_folder.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace fs = std::filesystem;

namespace jobsched {

const std::vector<std::string>& run_output_names()
{
  static const std::vector<std::string> names{"jobs.csv", "trace.csv", "summary.json", "performance.json", "plots"};
  return names;
}

RunFolder::RunFolder(fs::path dir) : dir_(std::move(dir))
{
  fs::path name = dir_.filename().empty() ? dir_.parent_path().filename() : dir_.filename();
  if (dir_.filename().empty()) dir_ = dir_.parent_path();
  tmp_ = dir_.parent_path() / ("." + name.string() + ".tmp-" + std::to_string(getpid()));
}

RunFolder::~RunFolder()
{
  files_.clear();
  if (!committed_) {
    std::error_code ec;
    fs::remove_all(tmp_, ec);
  }
}

std::ofstream& RunFolder::open(const std::string& name)
{
  std::error_code ec;
  if (files_.empty()) {
    fs::remove_all(tmp_, ec); // a leftover of a killed run with the same process id
    fs::create_directories(tmp_, ec);
    if (ec) throw InputError(dir_.string() + ": cannot create the output folder (" + ec.message() + ")");
  }
  auto out = std::make_unique<std::ofstream>();
  // A large buffer: trace.csv of a long run is written row by row.
  buffers_.push_back(std::make_unique<char[]>(1 << 20));
  out->rdbuf()->pubsetbuf(buffers_.back().get(), 1 << 20);
  errno = 0;
  out->open(tmp_ / name, std::ios::binary);
  if (!*out)
    throw InputError((dir_ / name).string() + ": cannot write (" + (errno ? std::strerror(errno) : "open failed") +
                     ")");
  files_.emplace_back(name, std::move(out));
  return *files_.back().second;
}

void RunFolder::write(const std::string& name, const std::string& content)
{
  std::ofstream& out = open(name);
  out << content;
}

void RunFolder::close(const std::string& name, std::ofstream& out)
{
  errno = 0;
  out.flush();
  out.close();
  if (!out)
    throw InputError((dir_ / name).string() + ": cannot write (" + (errno ? std::strerror(errno) : "write failed") +
                     ")");
}

void RunFolder::commit()
{
  for (auto& [name, out] : files_)
    close(name, *out);
  std::error_code ec;
  if (fs::is_directory(dir_, ec)) {
    // Carry over what the previous folder holds besides a run's outputs, then swap the folders.
    for (const auto& entry : fs::directory_iterator(dir_, ec)) {
      std::string n = entry.path().filename().string();
      const auto& outputs = run_output_names();
      if (std::find(outputs.begin(), outputs.end(), n) != outputs.end() || n.rfind(".", 0) == 0) continue;
      fs::rename(entry.path(), tmp_ / n, ec);
      if (ec) throw InputError(entry.path().string() + ": cannot move into the new output folder (" + ec.message() + ")");
    }
    fs::path old = dir_.parent_path() / ("." + dir_.filename().string() + ".old-" + std::to_string(getpid()));
    fs::remove_all(old, ec);
    fs::rename(dir_, old, ec);
    if (ec) throw InputError(dir_.string() + ": cannot replace the output folder (" + ec.message() + ")");
    fs::rename(tmp_, dir_, ec);
    if (ec) throw InputError(dir_.string() + ": cannot write the output folder (" + ec.message() + ")");
    fs::remove_all(old, ec);
  } else if (fs::exists(dir_, ec)) {
    throw InputError(dir_.string() + ": exists and is not a folder");
  } else {
    fs::create_directories(dir_.parent_path(), ec);
    fs::rename(tmp_, dir_, ec);
    if (ec) throw InputError(dir_.string() + ": cannot write the output folder (" + ec.message() + ")");
  }
  committed_ = true;
}

} // namespace jobsched
