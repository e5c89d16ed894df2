/* The launcher's command line: one CLI11 parser for jobsched and every sub-command. Each command declares its own
 * options (add_*_command beside its code); this class reads argv, answers --help with the command's help text,
 * refuses anything unknown in one line, and runs the chosen command. */
#pragma once

#include "core/errors.hpp"

#include <charconv>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace jobsched {

/* What a command does once its command line is read: `command` is its parsed app (command.count("--opt") tells
 * whether an option was given). Returns the exit status. */
using CommandAction = std::function<int(const CLI::App& command)>;

class CommandLine {
 public:
  /* `usage`: what `jobsched --help` prints; `run_without_command`: what `jobsched [--version]` with no sub-command
   * does once its options are read (an unknown first word is refused before). */
  CommandLine(const std::string& usage, CommandAction run_without_command);
  ~CommandLine();
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  CLI::App& root() { return *app_; }
  /* Sub-command `name` of `parent`: `--help` (or -h) prints `usage`; after a successful parse, `run` does the command
   * and returns its exit status. The caller adds the command's options to the app returned. Unknown options and
   * extra words are collected (CLI11's allow_extras) and refused by run() with the command's name. */
  CLI::App* add_command(CLI::App& parent, const std::string& name, const std::string& usage, CommandAction run);
  /* Reads `args` (without the program's name) and runs the command they choose; returns its exit status. --help
   * prints the chosen command's help on stdout and returns 0. A bad command line throws ONE InputError naming the
   * option or word, e.g. "run: unknown option '--bogus' (see jobsched run --help)". */
  int run(const std::vector<std::string>& args);

 private:
  std::unique_ptr<CLI::App> app_;
  std::map<const CLI::App*, CommandAction> commands_;
};

/* `text` as a whole number from `lowest` to `highest` (decimal digits, an optional '-', nothing else). InputError
 * "OPTION: 'TEXT' is not a whole number" or "OPTION: TEXT is out of range (LOWEST to HIGHEST)". */
inline long long parse_whole(const std::string& option, const std::string& text, long long lowest, long long highest)
{
  long long value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size())
    throw InputError(option + ": '" + text + "' is not a whole number");
  if (value < lowest || value > highest)
    throw InputError(option + ": " + text + " is out of range (" + std::to_string(lowest) + " to " +
                     std::to_string(highest) + ")");
  return value;
}

/* `jobsched NAME ARGS...` with only the sub-command that `add` declares: for the commands that code and tests call. */
int run_one_command(const std::string& name, const std::function<void(CommandLine&)>& add,
                    const std::vector<std::string>& args);

} // namespace jobsched
