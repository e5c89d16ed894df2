/* Errors that reach the user as one line.
 *
 * Every bad input (scenario, trace, platform, command line) is reported by throwing InputError with a message that
 * already names the file, the line or the key at fault. The launcher prints it on one line and exits with status 2. */
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace jobsched {

/* `text` on one line: control characters (a YAML block scalar's newline, a tab, a carriage return) written as the
 * escapes \n, \t, \r or \xNN, so an error message is always exactly one line. */
std::string one_line(std::string_view text);

/* A user's value as an error message quotes it: between single quotes, on one line (one_line), and cut after
 * kQuotedLength characters with "..." so a whole file pasted into a value does not fill the terminal. */
std::string quoted_value(std::string_view value);
inline constexpr std::size_t kQuotedLength = 80;

class InputError : public std::runtime_error {
 public:
  /* The message is made one line here (one_line), whatever a caller put in it. */
  explicit InputError(const std::string& what) : std::runtime_error(one_line(what)) {}
};

/* A policy asked the runtime for something impossible (start a job on busy processors...): a bug, not bad input. */
class PolicyError : public std::logic_error {
 public:
  explicit PolicyError(const std::string& what) : std::logic_error(what) {}
};

/* A check of a paper's analysis failed (the hierarchical policies' `invariants`): the launcher prints it on one line and
 * exits with kExitInvariantViolated, distinct from bad input (2) and internal errors (3): the run did what it was asked,
 * and what it found contradicts the paper. */
inline constexpr int kExitInvariantViolated = 4;

class InvariantViolation : public std::logic_error {
 public:
  explicit InvariantViolation(const std::string& what) : std::logic_error("invariant violated: " + what) {}
};

} // namespace jobsched
