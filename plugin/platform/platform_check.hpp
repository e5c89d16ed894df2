/* Checking a platform and a deployment before the real set-up, so that bad input is one line, never an abort.
 *
 * SimGrid reports many errors in platform and deployment files (a deployment naming a missing host or an unregistered
 * function, routing="bogus", core="0", a missing speed_file...) with xbt_die: it prints a CRITICAL line, a list of
 * hosts or a backtrace, and aborts the process (exit 134). No try/catch can stop that. So the files are first loaded
 * in a forked child process, with the same SimGrid options and host model, the two function names registered and
 * nothing run; the child's output goes to a pipe. When the child dies or fails, the most informative line of what it
 * printed becomes an InputError naming the file (exit status 2 in the launcher), and the parent never hands the files
 * to SimGrid. Errors SimGrid raises as exceptions (malformed XML) take the same path, and are also caught in the
 * parent, where only their first line is kept (first_error_line). */
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace jobsched {

/* The function names a deployment may use. */
inline constexpr const char* kSchedulerFunction = "jobsched_scheduler";
inline constexpr const char* kSubmitterFunction = "jobsched_submitter";

/* SimGrid maps one stack per actor, of `contexts/stack-size` KiB (8 MiB by default); it accepts -1 or 1, and a run
 * then crashed with no message. 16 KiB suffice to jobsched's actors with verbose logging: a smaller size is refused
 * (the child leaves it to the real set-up, which names the option). */
inline constexpr int kLeastStackKib = 16;

struct PlatformCheck {
  std::string program = "jobsched";
  std::vector<std::string> simgrid_args; // as given to the real engine; the child keeps the --cfg=... ones
  std::string host_model = "ptask_L07";
  std::filesystem::path platform;
  std::filesystem::path deployment; // empty: none
};

/* Loads the files in a child process; throws InputError("FILE: invalid platform: LINE") (or deployment) when SimGrid
 * cannot load them. Returns quietly when they load, and when the check itself cannot run (no fork): the real set-up
 * then goes on as before. Call it before constructing the process's engine (one engine per process). */
void check_platform_in_child(const PlatformCheck& check);

/* Makes the engines of this process open no SimGrid trace file, whatever the options and the platform's <config> say
 * (the check child, jobsched run --check: "nothing is written"). SimGrid opens the file (tracing:yes) when the first
 * zone is made, after the platform's <config> is applied: its file becomes /dev/null just before that, by a callback
 * that runs before SimGrid's own only when connected before the process's first engine is made, so call this before.
 * Tracing itself stays on: the errors only tracing raises (a platform whose links it cannot give a container) are met
 * here as in the run, whose set-up they would otherwise abort. A file SimGrid could not open (a missing folder) is
 * left to SimGrid, which then refuses it without writing. */
void write_no_simgrid_trace();

/* The line of a failed check's output (SimGrid's log, backtraces, an exception text) that says what went wrong,
 * without SimGrid's log prefix ("[host:actor:(pid) time] file:line: [category/CRITICAL] "); "" when none does. */
std::string simgrid_error_line(const std::string& output);

/* The first line of an error text, without the decorations of SimGrid's messages (runs of '*'). */
std::string first_error_line(const std::string& text);

} // namespace jobsched
