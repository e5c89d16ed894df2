#include "run/engine_setup.hpp"

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/interruption.hpp"
#include "core/simgrid_cfg.hpp"
#include "core/time_format.hpp"
#include "core/writable_file.hpp"
#include "platform/deployment_check.hpp"
#include "platform/platform_check.hpp"
#include "run/attached_run.hpp"

#include <xbt/config.hpp>
#include <xbt/log.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <tuple>
#include <utility>

#include <unistd.h>

namespace jobsched {

HeldBackMessages::HeldBackMessages()
{
  std::fflush(stderr);
  file_ = std::tmpfile();
  saved_ = file_ != nullptr ? dup(STDERR_FILENO) : -1;
  if (saved_ < 0 || dup2(fileno(file_), STDERR_FILENO) < 0) release(false);
}

void HeldBackMessages::release(bool show)
{
  if (saved_ >= 0) {
    std::fflush(stderr);
    dup2(saved_, STDERR_FILENO);
    close(saved_);
    saved_ = -1;
    if (show) {
      std::rewind(file_);
      char buffer[4096];
      size_t n;
      while ((n = std::fread(buffer, 1, sizeof buffer, file_)) > 0)
        std::fwrite(buffer, 1, n, stderr);
    }
  }
  if (file_ != nullptr) {
    std::fclose(file_);
    file_ = nullptr;
  }
}

void require_usable_speed(const sg4::Host& host, const std::filesystem::path& platform)
{
  const double speed = host.get_speed();
  if (!(speed > 0))
    throw InputError(platform.string() + ": host '" + host.get_name() +
                     "' has a speed of 0 or less: a compute host needs a positive speed");
  // Run times are scaled by reference speed / host speed: a speed far from any processor's makes every job end at
  // once or never (an infinite speed, or 1e-300 flop/s), as for simulation.reference_speed.
  if (speed < kMinHostSpeed || speed > kMaxHostSpeed)
    throw InputError(platform.string() + ": host '" + host.get_name() + "' has a speed of " + format_exact(speed) +
                     " flop/s: a compute host's speed must be between 1000 and 1e18 flop/s per core");
}

namespace {
/* Why a run cannot use `link`; "" when it can. */
std::string link_problem(const sg4::Link& link)
{
  // A Wi-Fi link's bandwidth is per station (its rates), not this value; jobsched's host model has no Wi-Fi.
  if (link.get_sharing_policy() == sg4::Link::SharingPolicy::WIFI) return "";
  const double bandwidth = link.get_bandwidth();
  if (!(bandwidth > 0)) return "has a bandwidth of 0 or less: a message over it would never arrive";
  if (std::isinf(bandwidth)) return "has an infinite bandwidth, which SimGrid gives no meaning";
  const double latency = link.get_latency();
  if (!(latency >= 0) || std::isinf(latency))
    return "has a latency of " + format_exact(latency) + " s: a latency must be finite and 0 or more";
  return "";
}
} // namespace

void require_usable_links(const sg4::Engine& engine, const std::filesystem::path& platform)
{
  // The offending link named first in name order, so that the message does not depend on SimGrid's storage order. One
  // pass keeping the least name: sorting every link by name cost about 50 M instructions on 10,000 hosts.
  const sg4::Link* first = nullptr;
  for (const auto* link : engine.get_all_links())
    if ((first == nullptr || link->get_name() < first->get_name()) && !link_problem(*link).empty()) first = link;
  if (first != nullptr)
    throw InputError(platform.string() + ": link '" + first->get_name() + "' " + link_problem(*first));
}

namespace {
/* Why a run cannot use `disk`; "" when it can. */
std::string disk_problem(const sg4::Disk& disk)
{
  for (const auto& [what, bandwidth] :
       {std::pair{"read", disk.get_read_bandwidth()}, std::pair{"write", disk.get_write_bandwidth()}})
    if (!(bandwidth > 0) || std::isinf(bandwidth))
      return std::string("has a ") + what + " bandwidth of " + format_exact(bandwidth) +
             " B/s: a disk's read and write bandwidths must be finite and above 0 (at 0 an image on it never ends)";
  return "";
}
} // namespace

void require_usable_disks(const sg4::Engine& engine, const std::filesystem::path& platform)
{
  // As for links: the least (host name, disk name) of the offending disks, whatever SimGrid's storage order.
  const sg4::Disk* first = nullptr;
  auto before = [](const sg4::Disk& a, const sg4::Disk& b) {
    return std::tie(a.get_host()->get_name(), a.get_name()) < std::tie(b.get_host()->get_name(), b.get_name());
  };
  for (const auto* host : engine.get_all_hosts())
    for (const auto* disk : host->get_disks())
      if ((first == nullptr || before(*disk, *first)) && !disk_problem(*disk).empty()) first = disk;
  if (first != nullptr)
    throw InputError(platform.string() + ": disk '" + first->get_name() + "' of host '" +
                     first->get_host()->get_name() + "' " + disk_problem(*first));
}

namespace {
/* The option the engine refused, named as given ("--cfg=network/model:Bogus"): SimGrid's messages for a bad value
 * ("invalid integer", "Model 'Bogus' is invalid!") do not name it. Called once the engine's constructor threw, which
 * left SimGrid's options declared: each --log, then each --cfg setting (SimGrid's order; several in one --cfg are
 * named one by one, core/simgrid_cfg.hpp) is applied again on its own until one is refused. "--cfg" when none is (the
 * process ends with the error anyway). */
std::string rejected_option(const std::vector<std::string>& simgrid_args)
{
  for (const auto& arg : simgrid_args) {
    if (arg.rfind("--log=", 0) != 0) continue;
    try {
      xbt_log_control_set(arg.c_str() + 6);
    } catch (const std::exception&) {
      return arg;
    }
  }
  for (const auto& setting : cfg_settings(simgrid_args)) {
    try {
      simgrid::config::set_parse(setting);
    } catch (const std::exception&) {
      return "--cfg=" + setting;
    }
  }
  return "--cfg";
}

/* SimGrid opens --cfg=tracing/filename as it loads the platform, and reports that it cannot as a fault of the
 * platform: checked first, from the settings as given (the last value of each wins, as in SimGrid). */
void check_trace_file(const std::vector<std::string>& simgrid_args)
{
  bool tracing = false;
  std::string file = "simgrid.trace"; // SimGrid's default
  for (const auto& setting : cfg_settings(simgrid_args)) {
    const std::string name = cfg_setting_name(setting);
    if (name == "tracing") {
      const std::string value = cfg_setting_value(setting);
      tracing = value == "yes" || value == "on" || value == "true" || value == "1";
    } else if (name == "tracing/filename") {
      file = cfg_setting_value(setting);
    }
  }
  if (!tracing) return;
  if (const std::string why = why_not_writable(file); !why.empty())
    throw InputError("--cfg=tracing/filename:" + file + ": " + why);
}
/* How the user set SimGrid's option `name`: "--cfg=NAME:VALUE" (the last such setting, the one that holds), or the
 * platform's <config>, which SimGrid applies as it loads the platform. */
std::string option_as_given(const std::string& name, const std::vector<std::string>& simgrid_args,
                            const std::filesystem::path& platform)
{
  std::string given;
  for (const auto& setting : cfg_settings(simgrid_args))
    if (cfg_setting_name(setting) == name) given = "--cfg=" + setting;
  return given.empty() ? platform.string() + ": <config> " + name : given;
}

/* SimGrid reads a double option with std::stod, which takes "nan" and "inf": --cfg=maxmin/precision:nan ran, with
 * other results. Every double option must be finite, and the solvers' precisions (which -1 changed too) above 0.
 * SimGrid 3.32 has no call listing its options; the text of the error it raises for an unknown key lists them all,
 * one "  NAME: (TYPE)VALUE" line each, with their current values: the double ones are read from there (and, should
 * that text change, the precisions are still checked by name). Called once the platform's <config> is applied. */
void check_numeric_options(const std::vector<std::string>& simgrid_args, const std::filesystem::path& platform)
{
  static const std::vector<std::string> precisions{"maxmin/precision", "surf/precision", "bmf/precision"};
  for (const auto& name : precisions) {
    const double value = simgrid::config::get_value<double>(name);
    if (!(std::isfinite(value) && value > 0))
      throw InputError(option_as_given(name, simgrid_args, platform) +
                       ": a precision must be finite and above 0, not " + format_exact(value));
  }
  std::string listing;
  try {
    simgrid::config::is_default(" "); // no option has this name
  } catch (const std::exception& e) {
    listing = e.what();
  }
  std::istringstream lines(listing);
  for (std::string line; std::getline(lines, line);) {
    static const std::string kind = ": (double)";
    const size_t at = line.find(kind);
    if (line.rfind("  ", 0) != 0 || at == std::string::npos) continue;
    const std::string value = line.substr(at + kind.size());
    if (value.find("nan") != std::string::npos || value.find("inf") != std::string::npos)
      throw InputError(option_as_given(line.substr(2, at - 2), simgrid_args, platform) +
                       ": not a finite number (SimGrid would take it)");
  }
}
} // namespace

void print_simgrid_options()
{
  std::string program = "jobsched";
  std::string help = "--cfg-help";
  char* argv[] = {program.data(), help.data(), nullptr};
  int argc = 2;
  sg4::Engine engine(&argc, argv); // prints the options and their values, and ends the process
  std::exit(0);                    // should a SimGrid version return instead
}

EngineSetup::EngineSetup(const Scenario& sc, const std::string& program, const std::vector<std::string>& simgrid_args)
{
  // A folder or a missing file would reach SimGrid's parser, which fails on a folder with no message.
  auto require_file = [&sc](const std::filesystem::path& p, const char* key) {
    const std::string where = sc.origins.where(key) + ": " + key;
    if (!is_input_file(p, where)) throw InputError(where + ": file '" + p.string() + "' does not exist");
  };
  require_file(sc.platform, "platform");
  if (!sc.deployment.empty()) require_file(sc.deployment, "deployment");
  check_trace_file(simgrid_args);
  // SimGrid aborts on many errors in these files: load them in a child process first (platform/platform_check.hpp).
  check_platform_in_child({program, simgrid_args, sc.simulation.host_model, sc.platform, sc.deployment});

  // SimGrid reads its own options from argv; quiet its configuration chatter unless the user asks otherwise.
  std::vector<std::string> args{program, "--log=xbt_cfg.thres:warning", "--log=ker_lmm.thres:warning"};
  args.insert(args.end(), simgrid_args.begin(), simgrid_args.end());
  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(args.size());
  // SimGrid rejects a bad --cfg by throwing with its whole list of keys: keep the first line.
  auto first_line = [](const std::string& text) { return text.substr(0, text.find('\n')); };
  try {
    engine_ = std::make_unique<sg4::Engine>(&argc, argv.data());
    install_interruption_handlers(); // SimGrid's SIGINT handler dumps its actors and exits 1, leaving the outputs
  } catch (const std::exception& e) {
    const std::string option = rejected_option(simgrid_args);
    throw InputError(option + ": " + first_line(e.what()) + (option.rfind("--cfg", 0) == 0 ? " (see --cfg=help)" : ""));
  }
  if (argc > 1)
    throw InputError(std::string("unknown option '") + argv[1] + "' (SimGrid options are --cfg=... and --log=...)");
  // jobsched's own SimGrid options are for a program of the user's (run/simgrid_plugin.hpp): here they would be
  // ignored, or attach jobsched a second time.
  for (const char* key : {"jobsched/scenario", "jobsched/out"})
    if (!simgrid::config::is_default(key))
      throw InputError(std::string("--cfg=") + key + ": for jobsched inside a program of one's own; jobsched " +
                       "run takes the scenario as its argument and the output folder as --out");
  if (plugin_initialized())
    throw InputError("--cfg=plugin:jobsched: for jobsched inside a program of one's own; the launcher is jobsched "
                     "already");
  // A stack too small for the actors' own frames (1 KiB, or the -1 SimGrid accepts) crashed the run with no message.
  if (const int kib = simgrid::config::get_value<int>("contexts/stack-size"); kib < kLeastStackKib)
    throw InputError("--cfg=contexts/stack-size: " + std::to_string(kib) +
                     " KiB is too small for jobsched's actors (at least " + std::to_string(kLeastStackKib) + " KiB)");
  engine_->set_config("host/model:" + sc.simulation.host_model);
  messages_.emplace();
  try {
    engine_->load_platform(sc.platform.string());
  } catch (const std::exception& e) {
    throw InputError(sc.platform.string() + ": invalid platform: " + first_error_line(e.what()));
  }
  check_numeric_options(simgrid_args, sc.platform);
  require_usable_links(*engine_, sc.platform);
  require_usable_disks(*engine_, sc.platform);
}

void EngineSetup::load_deployment(const std::filesystem::path& deployment)
{
  // Checked before SimGrid places the actors (a refusal with actors placed made SimGrid warn as the process ended);
  // a malformed file was already refused by the check in the child (platform/platform_check.hpp).
  check_deployment_actors(deployment, file_text(deployment));
  try {
    engine_->load_deployment(deployment.string());
  } catch (const std::exception& e) {
    throw InputError(deployment.string() + ": invalid deployment: " + first_error_line(e.what()));
  }
}

} // namespace jobsched
