/* Looking up a file the user named (a platform, a trace...) without letting std::filesystem end the program. */
#pragma once

#include <filesystem>
#include <string>

namespace jobsched {

/* Whether `path` is a regular file: false when nothing is there (or a folder is). When the path cannot even be looked
 * up (a component longer than the file system allows, a loop of symbolic links, a folder it may not search), an
 * InputError "WHERE: file 'PATH' cannot be looked up (REASON)": std::filesystem's throwing calls would report these
 * as an internal error. */
bool is_input_file(const std::filesystem::path& path, const std::string& where);

/* What kind of pipe `path` is: none (a file, a folder, a device, nothing), `named` (a FIFO made by mkfifo, whose
 * opening for reading waits, forever, for a writer) or `open` (a pipe a writer holds already: the /dev/fd/N of a
 * shell's process substitution, <(...), which can be read once). */
enum class PipeKind { none, named, open };
PipeKind pipe_kind(const std::filesystem::path& path);

/* Every byte of `path`, "" when it cannot be opened (callers look the file up first, or read "" as SimGrid does). */
std::string file_text(const std::filesystem::path& path);
/* The first line of `path` without its line end, "" when it cannot be opened (a run's build.txt or error.txt). */
std::string file_first_line(const std::filesystem::path& path);

} // namespace jobsched
