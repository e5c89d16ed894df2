#include "policy/plugin_loader.hpp"

#include "core/errors.hpp"
#include "core/fnv1a.hpp"
#include "core/version.hpp"
#include "policy/plugin.hpp"
#include "policy/policy.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <link.h>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace jobsched {

namespace {

std::vector<LoadedPlugin>& plugins()
{
  static std::vector<LoadedPlugin> loaded;
  return loaded;
}

std::string file_hash(const fs::path& file, const std::string& where)
{
  const std::optional<std::uint64_t> h = fnv1a_file(file);
  if (!h) throw InputError(where + ": cannot read it");
  return hex16(*h);
}

/* Who registered `name` first: a loaded library, or jobsched itself. */
std::string taken_by(const std::string& name, std::vector<std::string> LoadedPlugin::*names)
{
  for (const auto& p : plugins()) {
    const auto& list = p.*names;
    if (std::find(list.begin(), list.end(), name) != list.end()) return p.file.string();
  }
  return "jobsched itself";
}

/* The library's own version symbol: dlsym also searches the libraries it depends on, which must not answer for it. */
const char* own_version_symbol(void* handle)
{
  const void* symbol = dlsym(handle, JOBSCHED_PLUGIN_VERSION_SYMBOL);
  Dl_info info{};
  link_map* map = nullptr;
  if (symbol == nullptr || dladdr(symbol, &info) == 0 || dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr ||
      info.dli_fname == nullptr || map->l_name == nullptr || std::strcmp(info.dli_fname, map->l_name) != 0)
    return nullptr;
  return static_cast<const char*>(symbol);
}

} // namespace

void load_plugin(const fs::path& file, const std::string& origin)
{
  const std::string where = origin + ": " + file.string();
  std::error_code ec;
  if (!fs::exists(file, ec)) throw InputError(where + ": no such file");
  if (fs::is_directory(file, ec)) throw InputError(where + ": a folder, not a shared library");
  const fs::path canonical = fs::canonical(file, ec);
  if (ec) throw InputError(where + ": " + ec.message());
  for (const auto& p : plugins())
    if (p.file == canonical) return;
  LoadedPlugin plugin{canonical, file_hash(canonical, where), {}, {}};

  // The library registers while dlopen runs its static initialisers: set aside, nothing thrown.
  policy_registry().begin_staging();
  allocator_registry().begin_staging();
  void* handle = dlopen(canonical.c_str(), RTLD_NOW | RTLD_LOCAL);
  std::vector<PolicyInfo> policies = policy_registry().end_staging();
  std::vector<AllocatorInfo> allocators = allocator_registry().end_staging();
  if (handle == nullptr) {
    const char* error = dlerror();
    std::string why = error != nullptr ? error : "unknown error";
    throw InputError(where + ": cannot load it: " + why.substr(0, why.find('\n')));
  }
  // A refusal drops what the library registered before it closes the library (the entries hold its code).
  auto refuse = [&](const std::string& why) {
    policies.clear();
    allocators.clear();
    dlclose(handle);
    throw InputError(where + ": " + why);
  };
  const char* version = own_version_symbol(handle);
  if (version == nullptr)
    refuse("not a jobsched plugin: no " JOBSCHED_PLUGIN_VERSION_SYMBOL
           " symbol (write JOBSCHED_PLUGIN; from policy/plugin.hpp in one of its files)");
  const std::string built_against(version, strnlen(version, 64));
  // The version and the headers' digest: a plugin built against other headers of the same version may expect
  // another layout of the classes it derives from (a virtual function added), and would call the wrong code.
  if (built_against != JOBSCHED_PLUGIN_BUILT_AGAINST)
    refuse("built against jobsched " + quoted_value(built_against) +
           ", this is jobsched " JOBSCHED_PLUGIN_BUILT_AGAINST " (version+headers): rebuild it against this version");
  std::set<std::string> names;
  for (const auto& p : policies) {
    if (!names.insert(p.name).second) refuse("registers two policies named " + quoted_value(p.name));
    if (policy_registry().contains(p.name))
      refuse("policy " + quoted_value(p.name) + " is already registered by " +
             taken_by(p.name, &LoadedPlugin::policies));
  }
  names.clear();
  for (const auto& a : allocators) {
    if (!names.insert(a.name).second) refuse("registers two allocators named " + quoted_value(a.name));
    if (allocator_registry().contains(a.name))
      refuse("allocator " + quoted_value(a.name) + " is already registered by " +
             taken_by(a.name, &LoadedPlugin::allocators));
  }
  if (policies.empty() && allocators.empty())
    refuse("registers no policy and no allocator (a static PolicyRegistration or AllocatorRegistration does)");
  for (auto& p : policies) {
    plugin.policies.push_back(p.name);
    policy_registry().add(std::move(p));
  }
  for (auto& a : allocators) {
    plugin.allocators.push_back(a.name);
    allocator_registry().add(std::move(a));
  }
  plugins().push_back(std::move(plugin)); // the library stays loaded until the process ends
}

void load_plugin_path(const std::string& path, const std::string& origin)
{
  std::stringstream entries(path);
  for (std::string entry; std::getline(entries, entry, ':');) {
    if (entry.empty()) continue;
    std::error_code ec;
    if (!fs::is_directory(entry, ec)) {
      load_plugin(entry, origin);
      continue;
    }
    std::vector<fs::path> libraries;
    for (fs::directory_iterator it(entry, ec), end; !ec && it != end; it.increment(ec))
      if (it->path().extension() == ".so" && !it->is_directory()) libraries.push_back(it->path());
    if (ec) throw InputError(origin + ": " + entry + ": cannot list the folder (" + ec.message() + ")");
    std::sort(libraries.begin(), libraries.end());
    for (const auto& library : libraries)
      load_plugin(library, origin);
  }
}

void load_command_line_plugins(const std::vector<std::string>& plugin_options)
{
  if (const char* path = std::getenv("JOBSCHED_PLUGIN_PATH")) load_plugin_path(path, "JOBSCHED_PLUGIN_PATH");
  for (const auto& file : plugin_options)
    load_plugin(file, "--plugin");
}

const std::vector<LoadedPlugin>& loaded_plugins()
{
  return plugins();
}

} // namespace jobsched
