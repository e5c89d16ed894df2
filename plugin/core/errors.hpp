/* Errors that reach the user as one line.
 *
 * Every bad input (scenario, trace, platform, command line) is reported by throwing InputError with a message that
 * already names the file, the line or the key at fault. The launcher prints it on one line and exits with status 2. */
#pragma once

#include <stdexcept>
#include <string>

namespace jobsched {

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& what) : std::runtime_error(what) {}
};

/* A policy asked the runtime for something impossible (start a job on busy processors...): a bug, not bad input. */
class PolicyError : public std::logic_error {
 public:
  explicit PolicyError(const std::string& what) : std::logic_error(what) {}
};

} // namespace jobsched
