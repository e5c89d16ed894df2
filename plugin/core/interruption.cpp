#include "core/interruption.hpp"

#include <array>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace jobsched {

namespace {

constexpr std::array<int, 3> kSignals{SIGINT, SIGTERM, SIGHUP};
constexpr int kMaxFiles = 32;
constexpr int kMaxChildren = 4096;

// What the handler reads. Written with the three signals held back (InterruptionsHeld), so the handler never sees a
// half-written path or count.
bool ignored_at_start[kSignals.size()] = {};
bool started = false;
int message_fd = STDERR_FILENO; // stderr as it was at the start: a run diverts its stderr while it sets up
volatile sig_atomic_t deferred = 0;
volatile sig_atomic_t received = 0;
char folder[PATH_MAX] = {};
char files[kMaxFiles][PATH_MAX] = {};
volatile sig_atomic_t file_count = 0;
pid_t children[kMaxChildren] = {};
volatile sig_atomic_t child_count = 0;

const char* signal_name(int signal)
{
  switch (signal) {
  case SIGINT:
    return "SIGINT";
  case SIGTERM:
    return "SIGTERM";
  case SIGHUP:
    return "SIGHUP";
  default:
    return "a signal";
  }
}

void write_all(int fd, const char* text)
{
  size_t left = std::strlen(text);
  while (left > 0) {
    const ssize_t n = ::write(fd, text, left);
    if (n <= 0) return;
    text += n;
    left -= static_cast<size_t>(n);
  }
}

extern "C" void on_interruption(int signal)
{
  const int saved_errno = errno;
  if (deferred != 0) {
    if (received == 0) received = signal;
    for (sig_atomic_t i = 0; i < child_count; i++)
      ::kill(children[i], signal);
    errno = saved_errno;
    return;
  }
  for (sig_atomic_t i = 0; i < file_count; i++)
    ::unlink(files[i]);
  if (folder[0] != '\0') ::rmdir(folder);
  write_all(message_fd, "jobsched: interrupted by ");
  write_all(message_fd, signal_name(signal));
  write_all(message_fd, "\n");
  ::_exit(128 + signal);
}

bool copy_path(char* to, const std::filesystem::path& from)
{
  const std::string& text = from.native();
  if (text.size() >= PATH_MAX) return false;
  std::memcpy(to, text.c_str(), text.size() + 1);
  return true;
}

} // namespace

InterruptionsHeld::InterruptionsHeld()
{
  sigset_t set;
  sigemptyset(&set);
  for (int s : kSignals)
    sigaddset(&set, s);
  pthread_sigmask(SIG_BLOCK, &set, &old_);
}

InterruptionsHeld::~InterruptionsHeld()
{
  pthread_sigmask(SIG_SETMASK, &old_, nullptr);
}

Interrupted::Interrupted(int signal) : std::runtime_error(interruption_message(signal)), signal_(signal) {}

std::string interruption_message(int signal)
{
  return std::string("jobsched: interrupted by ") + signal_name(signal);
}

void install_interruption_handlers()
{
  if (!started) {
    started = true;
    for (size_t i = 0; i < kSignals.size(); i++) {
      struct sigaction old = {};
      sigaction(kSignals[i], nullptr, &old);
      ignored_at_start[i] = old.sa_handler == SIG_IGN;
    }
    const int copy = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    if (copy >= 0) message_fd = copy;
  }
  struct sigaction action = {};
  action.sa_handler = on_interruption;
  sigemptyset(&action.sa_mask);
  for (int s : kSignals)
    sigaddset(&action.sa_mask, s);
  action.sa_flags = SA_RESTART; // a sweep waiting for its children goes on waiting: they end on the forwarded signal
  struct sigaction ignore = {};
  ignore.sa_handler = SIG_IGN;
  for (size_t i = 0; i < kSignals.size(); i++)
    sigaction(kSignals[i], ignored_at_start[i] ? &ignore : &action, nullptr);
}

void defer_interruption()
{
  deferred = 1;
}

int interruption_signal()
{
  return received;
}

void throw_if_interrupted()
{
  if (received != 0) throw Interrupted(received);
}

void add_interrupted_child(pid_t child)
{
  InterruptionsHeld held;
  if (child_count < kMaxChildren) children[child_count++] = child;
}

void remove_interrupted_child(pid_t child)
{
  InterruptionsHeld held;
  for (sig_atomic_t i = 0; i < child_count; i++)
    if (children[i] == child) {
      children[i] = children[child_count - 1];
      child_count--;
      return;
    }
}

void remove_on_interruption(const std::filesystem::path& path)
{
  InterruptionsHeld held;
  file_count = 0;
  if (!copy_path(folder, path)) folder[0] = '\0';
}

void add_file_removed_on_interruption(const std::filesystem::path& file)
{
  InterruptionsHeld held;
  if (file_count < kMaxFiles && copy_path(files[file_count], file)) file_count++;
}

} // namespace jobsched
