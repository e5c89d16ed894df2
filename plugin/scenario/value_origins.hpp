/* Where each value of a scenario comes from, for its errors to name: the scenario file (and a line of it), or --set
 * for the keys the command line set (jobsched run and sweep, and a sweep's own runs, whose swept values come as --set
 * assignments). Every error about a key names it through here: "FILE:LINE: KEY: what" or "--set: KEY: what". */
#pragma once

#include <set>
#include <string>
#include <vector>

namespace YAML {
class Node;
}

namespace jobsched {

class ValueOrigins {
 public:
  ValueOrigins() = default;
  /* `overrides`: the --set assignments ("dotted.key=value") applied over `file`. */
  ValueOrigins(std::string file, const std::vector<std::string>& overrides);

  const std::string& file() const { return file_; }
  /* The value at dotted `key` was given by --set: the key itself, or a section holding it. */
  bool set_by_override(const std::string& key) const;
  /* As set_by_override, or --set gave a key below it, which made it a mapping (--set policy.name.x=1). */
  bool shaped_by_override(const std::string& key) const;
  /* "--set" for a key set by --set, else the file, with ":LINE" when `line` (from 1) is known. */
  std::string where(const std::string& key, int line = 0) const;
  /* Where the value read at `key` from node `at` came from, for an error about that value: "--set" for a key --set set
   * or made a mapping (shaped_by_override), else the file with `at`'s line when it has one. */
  std::string where_read(const std::string& key, const YAML::Node& at) const;
  /* `message`, "KEY: what" (KEY the dotted key at fault, as the scenario's errors begin), prefixed by where KEY's
   * value came from. */
  std::string error(const std::string& message) const;

 private:
  std::string file_;
  std::set<std::string> overridden_;
};

} // namespace jobsched
