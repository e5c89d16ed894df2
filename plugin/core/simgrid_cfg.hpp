/* The settings of SimGrid's --cfg options, read as SimGrid 3.32 reads them.
 *
 * SimGrid splits the value of one --cfg=... at every space, tab, newline and comma, and takes each non-empty part as
 * one NAME:VALUE setting (NAME before the first ':'): "--cfg=tracing/filename:t.trace tracing/precision:6" sets two
 * options. What jobsched reads from the options itself (the trace file, the profile search path, the setting SimGrid
 * refused) is read from these settings, so that it sees what SimGrid sees. */
#pragma once

#include <string>
#include <vector>

namespace jobsched {

/* Each setting of the --cfg=... arguments among `simgrid_args`, as "NAME:VALUE" (as given: a part without ':', which
 * SimGrid refuses, is kept too), in SimGrid's order; other arguments (--log=...) are skipped. */
std::vector<std::string> cfg_settings(const std::vector<std::string>& simgrid_args);

/* The name of a setting ("tracing/filename" for "tracing/filename:t.trace"); the whole text when it has no ':'. */
std::string cfg_setting_name(const std::string& setting);

/* The value of a setting ("t.trace" for "tracing/filename:t.trace"); "" when it has no ':'. */
std::string cfg_setting_value(const std::string& setting);

} // namespace jobsched
