#include "experiment/child_process.hpp"

#include "core/interruption.hpp"

#include <cerrno>
#include <climits>
#include <cstring>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace jobsched {

std::string self_executable()
{
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) throw std::runtime_error("cannot find the jobsched executable (/proc/self/exe)");
  return std::string(buf, static_cast<size_t>(n));
}

pid_t start_quiet_child(std::vector<std::string> args, const std::filesystem::path& stderr_file)
{
  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  const std::string err = stderr_file.string();
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, args[0].c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot start " + args[0] + ": " + std::strerror(rc));
  return pid;
}

pid_t start_interruptible_child(std::vector<std::string> args, const std::filesystem::path& stderr_file)
{
  const pid_t pid = start_quiet_child(std::move(args), stderr_file);
  add_interrupted_child(pid);
  if (const int signal = interruption_signal(); signal != 0) kill(pid, signal);
  return pid;
}

pid_t wait_for_child(int& status, pid_t pid)
{
  pid_t ended = -1;
  do
    ended = waitpid(pid, &status, 0);
  while (ended < 0 && errno == EINTR);
  if (ended < 0) throw std::runtime_error(std::string("waitpid failed: ") + std::strerror(errno));
  remove_interrupted_child(ended);
  return ended;
}

std::string shell_quote(const std::string& text)
{
  std::string out = "'";
  for (char c : text)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

} // namespace jobsched
