/* The SimGrid engine of one run with its platform loaded, shared by every kind of scenario.
 *
 * The platform (and deployment) are first loaded in a child process, where SimGrid's aborts cannot reach us
 * (platform/platform_check.hpp); then the engine is made with the user's --cfg and --log options and the platform is
 * loaded for real. SimGrid's messages from then on (its warnings about unit-less values, say) are held back until the
 * caller says the set-up worked: shown then, dropped if the set-up fails, so that a failed set-up prints one line,
 * ours. */
#pragma once

#include "scenario/scenario.hpp"

#include <simgrid/s4u.hpp>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace jobsched {

namespace sg4 = simgrid::s4u;

/* --cfg=help: SimGrid's options, their descriptions and values, on stdout (SimGrid's --cfg-help); ends the process
 * with status 0. */
[[noreturn]] void print_simgrid_options();

/* stderr diverted to an unnamed temporary file until release(). */
class HeldBackMessages {
 public:
  HeldBackMessages();
  HeldBackMessages(const HeldBackMessages&) = delete;
  HeldBackMessages& operator=(const HeldBackMessages&) = delete;
  ~HeldBackMessages() { release(false); }
  /* Back to the real stderr; `show`: write what was held back there first. */
  void release(bool show);

 private:
  std::FILE* file_ = nullptr;
  int saved_ = -1;
};

/* SimGrid accepts a host speed of 0 or less, and then jobs never end, or an infinite one, and then they end at once: a
 * compute host's speed must lie between kMinHostSpeed and kMaxHostSpeed (the bounds of simulation.reference_speed). */
constexpr double kMinHostSpeed = 1e3;
constexpr double kMaxHostSpeed = 1e18;
void require_usable_speed(const sg4::Host& host, const std::filesystem::path& platform);

/* SimGrid accepts a link bandwidth of 0 or less, and then a message over it never arrives (a time-sharing policy's
 * quanta go on forever), an infinite one (no documented meaning), and a negative, infinite or NaN latency. A run may
 * send over any link of the platform (routes between compute hosts, and between them and the host of jobsched's
 * actors, can cross every one), so every link must have a positive, finite bandwidth and a finite latency of 0 or
 * more; the first that does not, in name order, is named (a SPLITDUPLEX link as SimGrid names its halves, ID_UP and
 * ID_DOWN). */
void require_usable_links(const sg4::Engine& engine, const std::filesystem::path& platform);

/* SimGrid accepts a disk read or write bandwidth of 0 or less, and then an image read or written on it never ends (a
 * run with simulation.images.store=local-disk stopped "saturated" with nothing done), or an infinite or NaN one. Every
 * disk of the platform must have a positive, finite read and write bandwidth, as every link must; the first that does
 * not, in host then disk name order, is named with its host. */
void require_usable_disks(const sg4::Engine& engine, const std::filesystem::path& platform);

class EngineSetup {
 public:
  /* Checks the files, makes the engine and loads the platform (InputError naming the file or option otherwise, or
   * naming a link or a disk whose bandwidth is not positive). */
  EngineSetup(const Scenario& sc, const std::string& program, const std::vector<std::string>& simgrid_args);
  sg4::Engine& engine() { return *engine_; }
  /* Loads the deployment (InputError naming it when SimGrid refuses it, or when it gives jobsched's actors what they
   * do not honour: platform/deployment_check.hpp). */
  void load_deployment(const std::filesystem::path& deployment);
  /* The set-up worked: SimGrid's messages held back so far are shown, and the next ones go straight to stderr. */
  void succeeded() { messages_->release(true); }

 private:
  // Before the engine, so that a failed set-up's engine is destroyed while its messages are still held.
  std::optional<HeldBackMessages> messages_;
  std::unique_ptr<sg4::Engine> engine_;
};

} // namespace jobsched
