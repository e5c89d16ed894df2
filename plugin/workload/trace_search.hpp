/* Where traces are found. A trace named by a bare file name is looked for, in order, in: the scenario's folder,
 * ../shared/data/traces beside the repository, $JOBSCHED_DATA, and the user data directory
 * ($XDG_DATA_HOME/jobsched/traces, default ~/.local/share/jobsched/traces). A path with a '/' is taken relative to the
 * scenario's folder. Trace files are never part of the project. */
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace jobsched {

std::vector<std::filesystem::path> trace_search_path(const std::filesystem::path& scenario_dir);
std::filesystem::path user_data_dir();

/* The trace's path; InputError (naming `key`) that lists where it looked and where to download it when missing. */
std::filesystem::path find_trace(const std::string& name, const std::filesystem::path& scenario_dir,
                                 const std::string& key);

} // namespace jobsched
