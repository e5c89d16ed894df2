/* Policies and allocators from shared libraries built outside the tree (plugins).
 *
 * A plugin library defines its version symbol (policy/plugin.hpp) and registers its policies and allocators as in-tree
 * files do, from static initialisers, which run inside dlopen. The loader stages what the library registers while it
 * loads (core/registry.hpp), checks the version, then the names, and keeps all of it or nothing. */
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace jobsched {

struct LoadedPlugin {
  std::filesystem::path file; // canonical
  std::string hash;           // FNV-1a of the file's bytes, 16 hexadecimal digits (a sweep's build.txt records it)
  std::vector<std::string> policies;
  std::vector<std::string> allocators;
};

/* Loads the library `file`; `origin` says where it was asked for ("--plugin", "JOBSCHED_PLUGIN_PATH",
 * "x.yaml:3: plugins[0]"). InputError, one line "ORIGIN: FILE: why", for a missing file, a library dlopen refuses,
 * one without the version symbol or built against another version of jobsched, one that registers a name already
 * taken (naming who took it) or registers nothing: then nothing it registered is kept. The same file (canonical path)
 * a second time does nothing. */
void load_plugin(const std::filesystem::path& file, const std::string& origin);

/* The entries of `path`, colon-separated (JOBSCHED_PLUGIN_PATH's form): each a library, or a folder whose *.so files
 * load in name order. Empty entries are skipped. */
void load_plugin_path(const std::string& path, const std::string& origin);

/* What a command line asks for, in this order: the environment's JOBSCHED_PLUGIN_PATH, then each --plugin in turn.
 * (A scenario's `plugins:` come after, when the scenario is run: run/simulation.hpp.) */
void load_command_line_plugins(const std::vector<std::string>& plugin_options);

/* The libraries loaded so far, in loading order. */
const std::vector<LoadedPlugin>& loaded_plugins();

} // namespace jobsched
