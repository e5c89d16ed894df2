/* Fuzz target: scenarios and --set overrides. The input is a scenario's YAML text; lines after a line "--set" are
 * overrides. Any input must give a Scenario or an InputError, never a crash or another exception. */
#include "core/errors.hpp"
#include "scenario/scenario.hpp"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> overrides;
  auto cut = text.find("\n--set\n");
  if (cut != std::string::npos) {
    std::istringstream rest(text.substr(cut + 7));
    for (std::string line; std::getline(rest, line);)
      if (!line.empty()) overrides.push_back(line);
    text.resize(cut);
  }
  try {
    jobsched::parse_scenario(text, "/fuzz/scenario.yaml", overrides);
  } catch (const jobsched::InputError&) {
  }
  return 0;
}
