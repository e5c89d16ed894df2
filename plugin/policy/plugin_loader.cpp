#include "policy/plugin_loader.hpp"

#include "core/errors.hpp"
#include "core/fnv1a.hpp"
#include "core/version.hpp"
#include "policy/plugin.hpp"
#include "policy/policy.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <fstream>
#include <iterator>
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

/* Whether the shared library `file` defines (not merely uses, as a plugin does) the dynamic symbol `name`, read from
 * the file: dlopen would run the library's static initialisers first. False for what is not a 64-bit ELF file (dlopen
 * then says why it refuses it). */
bool defines_dynamic_symbol(const fs::path& file, const std::string& name)
{
  std::ifstream in(file, std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  auto fits = [&bytes](std::uint64_t offset, std::uint64_t size) {
    return offset <= bytes.size() && size <= bytes.size() - offset;
  };
  Elf64_Ehdr header{};
  if (!fits(0, sizeof header) || std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0 || bytes[EI_CLASS] != ELFCLASS64)
    return false;
  std::memcpy(&header, bytes.data(), sizeof header);
  if (header.e_shentsize != sizeof(Elf64_Shdr) ||
      !fits(header.e_shoff, std::uint64_t{header.e_shnum} * sizeof(Elf64_Shdr)))
    return false;
  auto section = [&](std::size_t i) {
    Elf64_Shdr s{};
    std::memcpy(&s, bytes.data() + header.e_shoff + i * sizeof s, sizeof s);
    return s;
  };
  for (std::size_t i = 0; i < header.e_shnum; i++) {
    const Elf64_Shdr symbols = section(i);
    if (symbols.sh_type != SHT_DYNSYM || symbols.sh_link >= header.e_shnum || !fits(symbols.sh_offset, symbols.sh_size))
      continue;
    const Elf64_Shdr names = section(symbols.sh_link);
    if (!fits(names.sh_offset, names.sh_size)) continue;
    for (std::uint64_t at = 0; at + sizeof(Elf64_Sym) <= symbols.sh_size; at += sizeof(Elf64_Sym)) {
      Elf64_Sym symbol{};
      std::memcpy(&symbol, bytes.data() + symbols.sh_offset + at, sizeof symbol);
      if (symbol.st_shndx == SHN_UNDEF || symbol.st_name >= names.sh_size) continue;
      const char* n = bytes.data() + names.sh_offset + symbol.st_name;
      if (strnlen(n, names.sh_size - symbol.st_name) == name.size() &&
          name.compare(0, name.size(), n, name.size()) == 0)
        return true;
    }
  }
  return false;
}

/* A symbol jobsched's own library defines and a plugin, which links against it, only uses: load_plugin's. Empty when
 * the library does not export it. */
std::string own_library_symbol()
{
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&load_plugin), &info) == 0 || info.dli_sname == nullptr) return {};
  return info.dli_sname;
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
  // A copy of jobsched's own library would register its SimGrid options again as dlopen loads it, and SimGrid aborts.
  static const std::string own_symbol = own_library_symbol();
  if (!own_symbol.empty() && defines_dynamic_symbol(canonical, own_symbol))
    throw InputError(where + ": a copy of jobsched's own library (it defines " + own_symbol +
                     "), not a plugin: a plugin links against jobsched");

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
