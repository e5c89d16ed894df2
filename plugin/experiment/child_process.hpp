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

/* Starts a child as start_quiet_child() does, and lists it for the interruption handler (core/interruption.hpp), which
 * passes SIGINT, SIGTERM and SIGHUP on to it (a signal received just before it was listed is passed on here). */
pid_t start_interruptible_child(std::vector<std::string> args, const std::filesystem::path& stderr_file);
/* Waits for the child `pid` (-1: the next child to end), no longer listed for the interruption handler; returns its
 * process id and sets `status` (waitpid's). std::runtime_error when waitpid fails. */
pid_t wait_for_child(int& status, pid_t pid = -1);

/* `text` between single quotes for a shell (a quote in it written '\''): the launcher's command lines printed or
 * written into scripts. */
std::string shell_quote(const std::string& text);

} // namespace jobsched
