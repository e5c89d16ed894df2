#include "platform/deployment_check.hpp"

#include "core/errors.hpp"
#include "platform/platform_check.hpp"
#include "platform/platform_values.hpp"

#include <vector>

namespace jobsched {

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
      if (name != "host" && name != "function")
        throw InputError(where + "<" + e.name + " function=\"" + function->second + "\">: attribute " + name +
                         " is not supported (jobsched's actors run from the start of the simulation to its end)");
  }
}

} // namespace jobsched
