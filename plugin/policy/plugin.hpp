/* What makes a shared library a jobsched plugin: the version of jobsched it was built against and the digest of the
 * headers it was compiled with (JOBSCHED_PLUGIN_BUILT_AGAINST, core/version.hpp), which the loader
 * (`--plugin`, `plugins:`, JOBSCHED_PLUGIN_PATH) reads before it keeps anything the library registered.
 *
 * Write `JOBSCHED_PLUGIN;` at namespace scope in exactly one source file of the library (a second one is a link
 * error: two definitions of jobsched_plugin_version). The library's policies and allocators register themselves as
 * in-tree ones do (PolicyRegistration, AllocatorRegistration), in any of its files. */
#pragma once

#include "core/version.hpp"

/* The symbol the loader looks up in the library (and only there: one that another library defines does not count). */
#define JOBSCHED_PLUGIN_VERSION_SYMBOL "jobsched_plugin_version"

#define JOBSCHED_PLUGIN                                                                                                \
  extern "C" __attribute__((visibility("default"), used)) const char jobsched_plugin_version[] =                       \
      JOBSCHED_PLUGIN_BUILT_AGAINST
