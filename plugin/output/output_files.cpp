#include "output/output_files.hpp"

#include "core/errors.hpp"

#include <cstdio>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace jobsched {

void OutputFiles::commit() const
{
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw InputError(dir_.string() + ": cannot create the output folder (" + ec.message() + ")");
  std::vector<fs::path> temporaries;
  auto cleanup = [&temporaries] {
    for (const auto& t : temporaries)
      fs::remove(t);
  };
  for (const auto& [name, content] : files_) {
    fs::path tmp = dir_ / ("." + name + ".tmp." + std::to_string(getpid()));
    temporaries.push_back(tmp);
    std::ofstream out(tmp, std::ios::binary);
    out << content;
    out.close();
    if (!out) {
      cleanup();
      throw InputError((dir_ / name).string() + ": cannot write");
    }
  }
  for (size_t i = 0; i < files_.size(); i++) {
    fs::rename(temporaries[i], dir_ / files_[i].first, ec);
    if (ec) {
      cleanup();
      throw InputError((dir_ / files_[i].first).string() + ": cannot write (" + ec.message() + ")");
    }
  }
}

} // namespace jobsched
