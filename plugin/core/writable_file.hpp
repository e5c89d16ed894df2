/* Whether a file SimGrid is asked to write (a --log file appender's, --cfg=tracing/filename) could be opened: SimGrid
 * aborts the process when it cannot open it, or reports it as a fault of the platform. */
#pragma once

#include <filesystem>
#include <string>

namespace jobsched {

/* Why `path` cannot be opened for writing ("'PATH' is a folder", "cannot write 'PATH' (REASON)"), "" when it can.
 * Nothing is created: a run refused later must leave no file behind. */
std::string why_not_writable(const std::filesystem::path& path);

} // namespace jobsched
