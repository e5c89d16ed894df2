/* The end of a process on SIGINT, SIGTERM or SIGHUP.
 *
 * A run (`jobsched run`, `jobsched fork-join`) ends at once in the signal's handler: it removes the hidden folder its
 * outputs were being written into (unlink and rmdir of paths set aside beforehand, the only work a handler may do
 * safely at any instant), so the output folder keeps the previous run's outputs as they were, writes one line and
 * exits with status 128 + the signal. A process with children (`jobsched sweep`) asks for deferred ending instead: the
 * handler forwards the signal to the children listed and records it; the process waits for them, and ends through
 * Interrupted, its temporary files removed on the way.
 *
 * A signal the process was started with ignored (nohup's SIGHUP, SIGINT of a background job of a non-interactive
 * shell) stays ignored. SimGrid's Engine sets its own SIGINT handler (a status dump, exit 1): after making one, call
 * install_interruption_handlers() again. */
#pragma once

#include <csignal>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <sys/types.h>

namespace jobsched {

/* Thrown by a process in deferred mode once its children have ended; main() writes its line and exits with status(). */
class Interrupted : public std::runtime_error {
 public:
  explicit Interrupted(int signal);
  int signal() const { return signal_; }
  int status() const { return 128 + signal_; }

 private:
  int signal_;
};

/* The handlers for SIGINT, SIGTERM and SIGHUP (those not ignored when the process started). */
void install_interruption_handlers();

/* Deferred mode (see above): the handler forwards the signal to the children and returns. */
void defer_interruption();
/* The signal received in deferred mode, 0 if none. */
int interruption_signal();
/* Throws Interrupted if a signal was received in deferred mode. */
void throw_if_interrupted();
/* Children the handler forwards the signal to (at most 4,096 at once; more are not forwarded to). */
void add_interrupted_child(pid_t child);
void remove_interrupted_child(pid_t child);

/* The hidden output folder the handler removes, with the files added to it (at most 32): set when it is created,
 * cleared (empty path) once it is renamed into place or removed. */
void remove_on_interruption(const std::filesystem::path& folder);
void add_file_removed_on_interruption(const std::filesystem::path& file);

/* The three signals held back for the scope (delivered at its end): what must not be cut in the middle, such as the
 * renames that put a run's outputs in place. */
class InterruptionsHeld {
 public:
  InterruptionsHeld();
  InterruptionsHeld(const InterruptionsHeld&) = delete;
  InterruptionsHeld& operator=(const InterruptionsHeld&) = delete;
  ~InterruptionsHeld();

 private:
  sigset_t old_;
};

/* The line written on an interruption: "jobsched: interrupted by SIGTERM". */
std::string interruption_message(int signal);

} // namespace jobsched
