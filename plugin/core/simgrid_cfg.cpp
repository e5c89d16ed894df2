#include "core/simgrid_cfg.hpp"

namespace jobsched {

std::vector<std::string> cfg_settings(const std::vector<std::string>& simgrid_args)
{
  static const std::string prefix = "--cfg=";
  static const char* const separators = " \t\n,"; // SimGrid's (xbt/config.cpp, set_parse)
  std::vector<std::string> settings;
  for (const auto& arg : simgrid_args) {
    if (arg.compare(0, prefix.size(), prefix) != 0) continue;
    for (size_t start = arg.find_first_not_of(separators, prefix.size()); start != std::string::npos;) {
      const size_t end = arg.find_first_of(separators, start);
      settings.push_back(arg.substr(start, end == std::string::npos ? std::string::npos : end - start));
      start = end == std::string::npos ? end : arg.find_first_not_of(separators, end);
    }
  }
  return settings;
}

std::string cfg_setting_name(const std::string& setting)
{
  return setting.substr(0, setting.find(':'));
}

std::string cfg_setting_value(const std::string& setting)
{
  const size_t colon = setting.find(':');
  return colon == std::string::npos ? "" : setting.substr(colon + 1);
}

} // namespace jobsched
