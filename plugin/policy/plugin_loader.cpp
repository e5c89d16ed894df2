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
#include <link.h>
#include <set>
#include <sstream>
#include <vector>

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

/* Reads parts of a file by offset, never past its end (as its size was when opened). */
class FileParts {
 public:
  explicit FileParts(const fs::path& file) : in_(file, std::ios::binary)
  {
    std::error_code ec;
    size_ = fs::file_size(file, ec);
    if (ec || !in_) size_ = 0;
  }
  bool fits(std::uint64_t offset, std::uint64_t size) const { return offset <= size_ && size <= size_ - offset; }
  /* `size` bytes at `offset` into `to`; false when the file does not hold them. */
  bool read(std::uint64_t offset, void* to, std::size_t size)
  {
    if (!fits(offset, size)) return false;
    in_.clear();
    in_.seekg(static_cast<std::streamoff>(offset));
    in_.read(static_cast<char*>(to), static_cast<std::streamsize>(size));
    return in_.gcount() == static_cast<std::streamsize>(size);
  }

 private:
  std::ifstream in_;
  std::uint64_t size_ = 0;
};

constexpr std::size_t kChunkBytes = 1 << 16; // what is read at once from a table of the file

/* The offsets in the string table `names` where the string `name` starts (it may end another string, a linker's
 * sharing of tails), read a chunk at a time. A string running to the table's end ends there. */
std::set<std::uint64_t> string_offsets(FileParts& file, const Elf64_Shdr& names, const std::string& name)
{
  const std::string wanted = name + '\0';
  std::set<std::uint64_t> found;
  std::string window; // the table's bytes from window_start on
  std::uint64_t window_start = 0;
  for (std::uint64_t done = 0; done < names.sh_size;) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(kChunkBytes, names.sh_size - done));
    const std::size_t old_size = window.size();
    window.resize(old_size + n);
    if (!file.read(names.sh_offset + done, window.data() + old_size, n)) return {};
    done += n;
    if (done == names.sh_size) window.push_back('\0');
    for (size_t at = window.find(wanted); at != std::string::npos; at = window.find(wanted, at + 1))
      found.insert(window_start + at);
    // A match not yet complete starts in the last wanted.size() - 1 bytes: only they are kept.
    const std::size_t keep = std::min(window.size(), wanted.size() - 1);
    window_start += window.size() - keep;
    window.erase(0, window.size() - keep);
  }
  return found;
}

/* Whether the shared library `file` defines (not merely uses, as a plugin does) the dynamic symbol `name`, read from
 * the file: dlopen would run the library's static initialisers first. Only the ELF header, the section headers and
 * the dynamic symbol and string tables are read, a chunk at a time (a plugin of 1 GB is not read into memory). False
 * for what is not a 64-bit ELF file, or one whose tables lie past its end (dlopen then says why it refuses it). */
bool defines_dynamic_symbol(const fs::path& file, const std::string& name)
{
  FileParts parts(file);
  Elf64_Ehdr header{};
  if (!parts.read(0, &header, sizeof header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_ident[EI_CLASS] != ELFCLASS64)
    return false;
  if (header.e_shentsize != sizeof(Elf64_Shdr) ||
      !parts.fits(header.e_shoff, std::uint64_t{header.e_shnum} * sizeof(Elf64_Shdr)))
    return false;
  auto section = [&](std::size_t i, Elf64_Shdr& s) { return parts.read(header.e_shoff + i * sizeof s, &s, sizeof s); };
  for (std::size_t i = 0; i < header.e_shnum; i++) {
    Elf64_Shdr symbols{};
    Elf64_Shdr names{};
    if (!section(i, symbols) || symbols.sh_type != SHT_DYNSYM || symbols.sh_link >= header.e_shnum ||
        !parts.fits(symbols.sh_offset, symbols.sh_size) || !section(symbols.sh_link, names) ||
        !parts.fits(names.sh_offset, names.sh_size))
      continue;
    const std::set<std::uint64_t> name_offsets = string_offsets(parts, names, name);
    if (name_offsets.empty()) continue;
    std::vector<Elf64_Sym> chunk(kChunkBytes / sizeof(Elf64_Sym));
    const std::uint64_t count = symbols.sh_size / sizeof(Elf64_Sym);
    for (std::uint64_t done = 0; done < count;) {
      const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size(), count - done));
      if (!parts.read(symbols.sh_offset + done * sizeof(Elf64_Sym), chunk.data(), n * sizeof(Elf64_Sym))) break;
      for (std::size_t k = 0; k < n; k++)
        if (chunk[k].st_shndx != SHN_UNDEF && name_offsets.count(chunk[k].st_name) > 0) return true;
      done += n;
    }
  }
  return false;
}

/* Why `file` is an ELF file cut short ("" when it is not a 64-bit ELF file, or holds all its headers say): dlopen maps
 * a library's loadable segments without checking that the file holds them, and the process then dies of SIGBUS. */
std::string elf_cut_short(const fs::path& file)
{
  FileParts parts(file);
  Elf64_Ehdr header{};
  if (!parts.read(0, &header, sizeof header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_ident[EI_CLASS] != ELFCLASS64)
    return "";
  const std::string cut = "the file is cut short (";
  if (header.e_shnum > 0 && !parts.fits(header.e_shoff, std::uint64_t{header.e_shnum} * header.e_shentsize))
    return cut + "its section headers lie past its end)";
  if (header.e_phentsize != sizeof(Elf64_Phdr) ||
      !parts.fits(header.e_phoff, std::uint64_t{header.e_phnum} * sizeof(Elf64_Phdr)))
    return cut + "its program headers lie past its end)";
  for (std::size_t i = 0; i < header.e_phnum; i++) {
    Elf64_Phdr segment{};
    if (!parts.read(header.e_phoff + i * sizeof segment, &segment, sizeof segment)) return cut + "unreadable)";
    if (segment.p_type == PT_LOAD && !parts.fits(segment.p_offset, segment.p_filesz))
      return cut + "a loadable segment lies past its end)";
  }
  return "";
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
  if (const std::string why = elf_cut_short(canonical); !why.empty())
    throw InputError(where + ": cannot load it: " + why);
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
