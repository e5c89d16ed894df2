/* The platform and deployment check in a forked child (why: see platform_check.hpp).
 *
 * The child tells the parent how far it got with marker lines written straight to its stderr (unbuffered, so they
 * stay in order with SimGrid's own lines): "jobsched-check: stage NAME" before each step, "jobsched-check: error: TEXT"
 * for an exception. The parent reads the pipe to its end while the child runs (a host list can be longer than a pipe
 * holds), then looks at how the child ended. */
#include "platform/platform_check.hpp"

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/simgrid_cfg.hpp"
#include "core/writable_file.hpp"
#include "platform/platform_values.hpp"

#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <regex>
#include <sstream>
#include <sys/resource.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/wait.h>
#include <unistd.h>

XBT_LOG_NEW_DEFAULT_CATEGORY(jobsched_platform_check, "jobsched: platform and deployment check in a child process");

namespace sg4 = simgrid::s4u;

namespace jobsched {

namespace {

const std::string kMarker = "jobsched-check: ";
const std::string kStage = kMarker + "stage ";
const std::string kError = kMarker + "error: ";
constexpr size_t kMaxOutput = 1 << 20; // bytes of the child's output kept; the rest is read and dropped
constexpr size_t kMaxLine = 400;       // characters of the reported line

enum ChildStatus { kLoaded = 0, kFailed = 1, kOptionsRejected = 2 };

void say(const std::string& text) // to the pipe, unbuffered
{
  std::string line = text + "\n";
  const char* p = line.data();
  size_t left = line.size();
  while (left > 0) {
    ssize_t n = write(STDERR_FILENO, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    p += n;
    left -= static_cast<size_t>(n);
  }
}

/* The start tags of an XML platform; none for the platforms SimGrid loads otherwise (a Lua file, a C++ library). */
std::vector<XmlElement> platform_elements(const std::filesystem::path& platform)
{
  const std::string name = platform.string();
  for (const char* other : {".lua", ".so"})
    if (name.size() >= std::strlen(other) &&
        name.compare(name.size() - std::strlen(other), std::string::npos, other) == 0)
      return {};
  return read_platform_elements(file_text(platform));
}

/* Everything the child does; returns its exit status (SimGrid may also abort it). */
int child_main(const PlatformCheck& check)
{
  // The options the real engine gets, but SimGrid's default log format (so its lines can be read back) and quiet
  // configuration chatter: --log options only change what is printed, and what is printed here goes to the parent.
  std::vector<std::string> args{check.program, "--log=xbt_cfg.thres:warning", "--log=ker_lmm.thres:warning"};
  for (const auto& a : check.simgrid_args)
    if (a.rfind("--log=", 0) != 0) args.push_back(a);
  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(args.size());

  write_no_simgrid_trace(); // the real engine writes the run's trace (to /dev/null for a --check)
  say(kStage + "options");
  sg4::Engine* engine = nullptr; // never destroyed: the child ends with _exit, tearing SimGrid down is not needed
  try {
    engine = new sg4::Engine(&argc, argv.data());
    engine->set_config("host/model:" + check.host_model);
  } catch (const std::exception& e) {
    say(kError + e.what()); // the parent names the option (refused_option)
    return kFailed;
  } catch (...) {
    return kOptionsRejected; // the real set-up reports it
  }
  if (simgrid::config::get_value<int>("contexts/stack-size") < kLeastStackKib)
    return kOptionsRejected; // loading a deployment's actors on such stacks crashed; the real set-up says why
  try {
    say(kStage + "platform");
    // What SimGrid would take without a word (platform/platform_values.hpp): the profiles before SimGrid reads them,
    // the cluster's optional links once SimGrid has parsed their values (its own messages about them come first).
    const std::vector<XmlElement> elements = platform_elements(check.platform);
    std::vector<std::string> search_path; // SimGrid's --cfg=path:DIR, where it looks for profile files
    for (const auto& setting : cfg_settings(check.simgrid_args))
      if (cfg_setting_name(setting) == "path") search_path.push_back(cfg_setting_value(setting));
    check_profile_files(check.platform, elements, search_path);
    check_core_counts(elements); // before SimGrid, which aborts on core="-2" naming neither the line nor the value
    engine->load_platform(check.platform.string());
    check_cluster_links(check.platform, elements);
    say(kStage + "seal");
    engine->seal_platform();
    if (!check.deployment.empty()) {
      say(kStage + "deployment");
      engine->register_function(kSchedulerFunction, [](std::vector<std::string>) {});
      engine->register_function(kSubmitterFunction, [](std::vector<std::string>) {});
      engine->load_deployment(check.deployment.string());
    }
  } catch (const std::exception& e) {
    say(kError + e.what());
    return kFailed;
  } catch (...) {
    say(kError + "unknown exception");
    return kFailed;
  }
  return kLoaded;
}

std::vector<std::string> split_lines(const std::string& text)
{
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    lines.push_back(line);
  return lines;
}

/* SimGrid messages that do not say where to look. */
std::string explained(const std::string& line)
{
  if (line == "Not a valid model!")
    return line +
           " (a zone's routing is not one of Full, Floyd, Dijkstra, DijkstraCache, Cluster, Vivaldi, Wifi, None)";
  return line;
}

/* A deployment written for another platform (scenarios/kth-sp2-easy.yaml's, with --set platform=...) names a host
 * the platform lacks: say which platform, and that without a deployment jobsched places its actors itself. */
std::string explained_deployment(const PlatformCheck& check, const std::string& line)
{
  static const std::regex missing_host(R"(host '[^']*' does not exist$)");
  if (!std::regex_search(line, missing_host)) return line;
  return line + " in " + check.platform.string() +
         " (--set deployment=null places jobsched's actors by the platform's roles)";
}

std::string describe_end(int status)
{
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    const char* name = strsignal(sig);
    return "SimGrid stopped with signal " + std::to_string(sig) + (name ? std::string(" (") + name + ")" : "") +
           " while loading it";
  }
  return "SimGrid could not load it (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
}

} // namespace

std::string first_error_line(const std::string& text)
{
  std::string line = text.substr(0, text.find('\n'));
  if (!line.empty() && line.back() == '\r') line.pop_back();
  static const std::regex stars(R"(\*{3,})");
  static const std::regex spaces(R"(\s{2,})");
  line = std::regex_replace(line, stars, " ");
  line = std::regex_replace(line, spaces, " ");
  auto first = line.find_first_not_of(" \t");
  auto last = line.find_last_not_of(" \t");
  line = first == std::string::npos ? "" : line.substr(first, last - first + 1);
  if (line.size() > kMaxLine) line = line.substr(0, kMaxLine) + "...";
  return line;
}

std::string simgrid_error_line(const std::string& output)
{
  std::vector<std::string> lines = split_lines(output);
  // An exception's text, as the child reported it.
  for (const auto& l : lines)
    if (l.rfind(kError, 0) == 0) return first_error_line(l.substr(kError.size()));
  // SimGrid's log lines: "[host:actor:(pid) time] file:line: [category/PRIORITY] message", the host, actor and
  // file:line parts depending on the context.
  static const std::regex log_line(R"(^\[[^\]]*\]\s+(?:\S+:\d+:\s+)?\[[^\]/]+/([A-Z]+)\]\s?(.*)$)");
  for (const char* priority : {"CRITICAL", "ERROR"})
    for (const auto& l : lines) {
      std::smatch m;
      if (std::regex_match(l, m, log_line) && m[1] == priority) {
        std::string message = first_error_line(m[2]);
        if (!message.empty()) return message;
      }
    }
  // Anything else SimGrid printed, but its backtraces, its lesser log lines and the markers.
  for (const auto& l : lines) {
    if (l.rfind(kMarker, 0) == 0 || l.rfind("Backtrace", 0) == 0 || l.rfind("  ->", 0) == 0) continue;
    std::smatch m;
    bool logged = std::regex_match(l, m, log_line);
    if (logged && m[1] != "WARNING") continue;
    std::string message = first_error_line(logged ? std::string(m[2]) : l);
    if (!message.empty()) return message;
  }
  return "";
}

/* The first --cfg setting SimGrid refuses, as given ("--cfg=network/model:Bogus"): its messages name the value, not
 * the option ("invalid integer", "Model 'Bogus' is invalid!"), and some abort the process. An engine is made in a
 * forked child with the settings up to each one in turn (each on its own, so that one of several in one --cfg is
 * named: core/simgrid_cfg.hpp); the first with which it fails is the one. "--cfg" when none does, or when the child
 * cannot be forked. Only called when the check failed on the options: a run with good ones pays nothing. */
std::string refused_option(const PlatformCheck& check)
{
  std::vector<std::string> args{check.program, "--log=root.thres:critical"};
  for (const auto& setting : cfg_settings(check.simgrid_args)) {
    const std::string option = "--cfg=" + setting;
    args.push_back(option);
    std::fflush(nullptr);
    pid_t pid = fork();
    if (pid < 0) break;
    if (pid == 0) {
      const int null = open("/dev/null", O_WRONLY);
      dup2(null, STDOUT_FILENO);
      dup2(null, STDERR_FILENO);
      rlimit no_core{0, 0};
      setrlimit(RLIMIT_CORE, &no_core);
      std::vector<char*> argv;
      for (auto& a : args)
        argv.push_back(a.data());
      argv.push_back(nullptr);
      int argc = static_cast<int>(args.size());
      try {
        auto* engine = new sg4::Engine(&argc, argv.data()); // never destroyed: the child ends with _exit
        engine->set_config("host/model:" + check.host_model);
      } catch (...) {
        _exit(1);
      }
      _exit(0);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
      if (errno != EINTR) return "--cfg";
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return option;
  }
  return "--cfg";
}

void write_no_simgrid_trace()
{
  static bool connected = false;
  if (connected) return;
  connected = true;
  sg4::Engine::on_platform_creation_cb([] {
    // A file SimGrid could not open is left to it: the check child then reports it as the real set-up would (there,
    // the exception thrown while the first zone is made crashes the process at its end).
    if (simgrid::config::get_value<bool>("tracing") &&
        why_not_writable(simgrid::config::get_value<std::string>("tracing/filename")).empty())
      simgrid::config::set_value<std::string>("tracing/filename", "/dev/null");
  });
}

void check_platform_in_child(const PlatformCheck& check)
{
  int fds[2];
  if (pipe(fds) != 0) {
    XBT_WARN("cannot check the platform in a child process (pipe: %s)", std::strerror(errno));
    return;
  }
  std::fflush(nullptr); // nothing buffered may be written twice
  pid_t pid = fork();
  if (pid < 0) {
    XBT_WARN("cannot check the platform in a child process (fork: %s)", std::strerror(errno));
    close(fds[0]);
    close(fds[1]);
    return;
  }
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    close(fds[1]);
    rlimit no_core{0, 0}; // an abort here is expected: no core file, not even for a core_pattern pipe
    setrlimit(RLIMIT_CORE, &no_core);
#ifdef __linux__
    prctl(PR_SET_DUMPABLE, 0);
#endif
    int status = kFailed;
    try {
      status = child_main(check);
    } catch (...) {
      status = kFailed;
    }
    _exit(status);
  }

  close(fds[1]);
  std::string output;
  char buffer[4096];
  while (true) {
    ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (output.size() < kMaxOutput) output.append(buffer, static_cast<size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) {
      XBT_WARN("cannot check the platform in a child process (waitpid: %s)", std::strerror(errno));
      return;
    }
  if (WIFEXITED(status) && (WEXITSTATUS(status) == kLoaded || WEXITSTATUS(status) == kOptionsRejected)) return;

  std::string stage;
  for (const auto& l : split_lines(output))
    if (l.rfind(kStage, 0) == 0) stage = l.substr(kStage.size());
  std::string line = explained(simgrid_error_line(output));
  if (line.empty()) line = describe_end(status);
  if (stage == "options") throw InputError(refused_option(check) + ": " + line + " (see --cfg=help)");
  if (stage == "deployment")
    throw InputError(check.deployment.string() + ": invalid deployment: " + explained_deployment(check, line));
  throw InputError(check.platform.string() + ": invalid platform: " + line);
}

} // namespace jobsched
