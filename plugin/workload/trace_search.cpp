#include "workload/trace_search.hpp"

#include "core/errors.hpp"
#include "core/input_file.hpp"

#include <cstdlib>

#ifndef JOBSCHED_SOURCE_DIR
#define JOBSCHED_SOURCE_DIR "."
#endif

namespace fs = std::filesystem;

namespace jobsched {

fs::path user_data_dir()
{
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg != nullptr && *xdg != '\0')
    return fs::path(xdg) / "jobsched" / "traces";
  const char* home = std::getenv("HOME");
  return fs::path(home != nullptr ? home : ".") / ".local" / "share" / "jobsched" / "traces";
}

std::vector<fs::path> trace_search_path(const fs::path& scenario_dir)
{
  std::vector<fs::path> path{scenario_dir, fs::path(JOBSCHED_SOURCE_DIR).parent_path() / "shared" / "data" / "traces"};
  if (const char* env = std::getenv("JOBSCHED_DATA"); env != nullptr && *env != '\0') path.emplace_back(env);
  path.push_back(user_data_dir());
  return path;
}

fs::path find_trace(const std::string& name, const fs::path& scenario_dir, const std::string& key)
{
  if (name.find('/') != std::string::npos) {
    fs::path p = fs::path(name).is_absolute() ? fs::path(name) : scenario_dir / name;
    if (!is_input_file(p, key)) throw InputError(key + ": trace file '" + p.string() + "' does not exist");
    return p.lexically_normal();
  }
  std::string looked;
  for (const auto& dir : trace_search_path(scenario_dir)) {
    fs::path p = dir / name;
    if (is_input_file(p, key)) return p.lexically_normal();
    looked += (looked.empty() ? "" : ", ") + dir.lexically_normal().string();
  }
  throw InputError(key + ": trace '" + name + "' not found (looked in " + looked +
                   "); download it from the Parallel Workloads Archive, "
                   "https://www.cs.huji.ac.il/labs/parallel/workload/logs.html, and put it in " +
                   user_data_dir().string() + " or in $JOBSCHED_DATA");
}

} // namespace jobsched
