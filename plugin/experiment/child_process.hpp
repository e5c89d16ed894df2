/* The launcher starting itself again: a sweep's runs and check-policy's cases are each one `jobsched run` in a child
 * process (SimGrid allows one simulation per process). */
#pragma once

#include <filesystem>
#include <string>
#include <sys/types.h>
#include <vector>

namespace jobsched {

/* The path of the running executable (/proc/self/exe). */
std::string self_executable();

/* Starts `args` (args[0] the executable) with no stdin or stdout and stderr written to `stderr_file`; returns its
 * process id. std::runtime_error when it cannot start. */
pid_t start_quiet_child(std::vector<std::string> args, const std::filesystem::path& stderr_file);

} // namespace jobsched
