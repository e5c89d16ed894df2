#include "platform/deployment_check.hpp"

#include "core/errors.hpp"
#include "platform/platform_check.hpp"
#include "platform/platform_values.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace jobsched {

namespace {
/* Whether SimGrid reads `value` of the actor attribute `name` as it reads the attribute left out. SimGrid 3.32 reads
 * start_time and kill_time with std::stod (leading blanks skipped, the rest after the number ignored) when the
 * deployment is loaded, at time 0: an actor whose start_time is not above the clock starts at once, and a kill_time
 * not above the clock sets no kill timer; on_failure is DIE or RESTART (the DTD's list). NaN is neither (kill_time
 * NaN would set a timer at NaN), and a value std::stod cannot read made SimGrid abort. */
bool means_simgrid_default(const std::string& name, const std::string& value)
{
  if (name == "on_failure") return value == "DIE";
  if (name != "start_time" && name != "kill_time") return false;
  try {
    const double time = std::stod(value);
    return time <= 0; // false for NaN
  } catch (const std::exception&) {
    return false;
  }
}
} // namespace

void check_deployment_actors(const std::filesystem::path& file, const std::string& text)
{
  const std::vector<XmlElement> elements = read_platform_elements(text);
  const XmlElement* ours = nullptr; // the last actor started, when it is one of jobsched's
  for (const XmlElement& e : elements) {
    const std::string where = file.string() + ":" + std::to_string(e.line) + ": ";
    if (e.name == "argument" || e.name == "prop") {
      // The DTD puts these inside an actor only: the last actor started is theirs (end tags are not read).
      if (ours != nullptr)
        throw InputError(where + "<" + e.name + "> in <" + ours->name + " function=\"" +
                         ours->attributes.at("function") + "\">: jobsched's actors take no " +
                         (e.name == "argument" ? "arguments" : "properties") +
                         " (their settings come from the scenario)");
      continue;
    }
    ours = nullptr;
    if (e.name != "actor" && e.name != "process") continue;
    auto function = e.attributes.find("function");
    if (function == e.attributes.end() ||
        (function->second != kSchedulerFunction && function->second != kSubmitterFunction))
      continue;
    ours = &e;
    for (const auto& [name, value] : e.attributes)
      if (name != "host" && name != "function" && !means_simgrid_default(name, value))
        throw InputError(where + "<" + e.name + " function=\"" + function->second + "\">: attribute " + name +
                         " is not supported with value '" + value +
                         "' (jobsched's actors run from the start of the simulation to its end: only start_time and "
                         "kill_time of 0 or less and on_failure DIE, SimGrid's defaults, are accepted)");
  }
}

} // namespace jobsched
