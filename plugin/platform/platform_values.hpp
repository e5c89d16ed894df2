/* Values of a platform file that SimGrid 3.32 takes without a word but that no run could use faithfully.
 *
 * A cluster's backbone, loopback and limiter links exist only when their bandwidth (or, for the backbone and the
 * loopback, their latency) is above 0: bb_bw="-1GBps", "0" or "NaN" without a bb_lat silently gives a cluster without
 * a backbone, whose messages then go faster than the user wrote. Such a link is not among the engine's links, so only
 * the file can tell. SimGrid also reads availability profiles loosely: a speed factor of inf, a state of 2 or NaN (a
 * value above 0 is "on", anything else "off") pass, and a negative value stops it with an assertion that names neither
 * the file nor the line. What SimGrid 3.32 reads as the user wrote it (ProfileBuilder::from_file) is taken: fields
 * after the value (a comment), '\r' line ends, PERIODICITY 0, PERIODICITY with LOOPAFTER 0, a file without events.
 *
 * These checks read the platform file's elements themselves (read_platform_elements) and throw InputError with the
 * line at fault. platform_check.cpp calls them in its child process: the profiles before SimGrid reads them, the
 * cluster's values after SimGrid has parsed them (so its own messages about malformed values come first). */
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace jobsched {

/* One start tag of an XML file: its name, its attributes (entities decoded) and the line it starts on. */
struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;
  int line = 0;
};

/* The start tags of `text`, in order; comments, processing instructions, the DOCTYPE, CDATA and end tags skipped.
 * Stops at the first construct it cannot read (SimGrid's parser reports malformed XML, not this one). */
std::vector<XmlElement> read_platform_elements(const std::string& text);

/* A cluster's backbone, loopback and limiter values (bb_bw, bb_lat, loopback_bw, loopback_lat, limiter_link), when
 * given: a bandwidth must be above 0 and finite, a latency 0 or more and finite. InputError("line LINE: cluster 'ID':
 * ...") otherwise (the caller names the platform file). The links SimGrid does make are checked on the engine
 * (run/engine_setup.hpp, require_usable_links). */
void check_cluster_links(const std::filesystem::path& platform, const std::vector<XmlElement>& elements);

/* The core counts of hosts and clusters (core="N"), when given: a whole number from 1 to 2147483647, spaces around it
 * allowed. SimGrid 3.32 said "Host b must have at least one core, not 0" for core="-2", read core="1.5" as 1, and
 * said only "stoi" for 99999999999. InputError("line LINE: host 'ID': core='VALUE' ...") otherwise (the caller names
 * the platform file). */
void check_core_counts(const std::vector<XmlElement>& elements);

/* What a profile's values mean, and so which ones are allowed. */
enum class ProfileKind { kSpeed, kBandwidth, kLatency, kState };

/* The profile files the platform names (speed_file, availability_file, state_file, bandwidth_file, latency_file, and
 * <trace file=...> as its <trace_connect> uses it), resolved as SimGrid does: from the working folder, else from each
 * folder of `search_path` (the --cfg=path:DIR options, in order), else from the platform's folder. A file found
 * nowhere is left to SimGrid, which names it. Refused as SimGrid 3.32 would refuse them, but naming the element: an
 * absolute profile name (SimGrid never opens one), and a name read twice (two resources with the same file, which
 * SimGrid aborts on; one <trace> connected to both is the way). */
void check_profile_files(const std::filesystem::path& platform, const std::vector<XmlElement>& elements,
                         const std::vector<std::string>& search_path);

/* One profile's text: InputError("NAME:LINE: ...") at the first line SimGrid would misread or abort on, or "NAME: ..."
 * for a repetition it would refuse or that never ends. Deterministic profiles only: a stochastic one (a STOCHASTIC
 * line, or laws such as NORM or UNIF) is left to SimGrid. */
void check_profile_text(const std::string& name, const std::string& text, ProfileKind kind);

} // namespace jobsched
