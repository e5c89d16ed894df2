/* The interface every scheduling policy implements: pure decision code, no SimGrid.
 *
 * The runtime calls the event hooks for everything that happened at one simulated instant (completions first, then
 * host changes, then submissions), then calls decide() once. The same calls drive a policy in unit tests. */
#pragma once

#include "allocation/allocator.hpp"
#include "core/params.hpp"
#include "core/registry.hpp"
#include "model/machine_events.hpp"
#include "policy/cluster_state.hpp"
#include "policy/decision.hpp"
#include "policy/time_sharing.hpp"

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace jobsched {

/* The platform's hosts as message end points, for a policy whose own decisions travel over the network (the
 * hierarchical policies' `messages: platform`). The runtime fills it from SimGrid's routes; the policy stays pure. */
struct MessageNetwork {
  std::vector<std::string> front_ends; // hosts whose role is frontend, in natural name order
  /* Seconds a message of `bytes` takes from host `from` to host `to` (any host of the platform, by name): 0 on one
   * host. Throws InputError naming the host or the missing route; `why` says who talks. */
  std::function<double(const std::string& from, const std::string& to, double bytes, const std::string& why)> time;
};

/* What a policy gets at construction. */
struct PolicyEnv {
  const Machine& machine;
  const Allocator& allocator;
  const Params& params;
  std::uint64_t seed = 1;                  // the simulation's seed, for policies that draw numbers (their own streams)
  const MessageNetwork* network = nullptr; // null in unit tests: no platform to send messages over
  bool steady_machine = true; // no profile changes a host's speed or state and no owner takes it: every processor is
                              // there all along at its speed (what an analysis of a dedicated machine assumes)
};

class Policy {
 public:
  virtual ~Policy() = default;
  virtual void job_submitted(const Job& job, double now) = 0;
  virtual void job_ended(const Job& /*job*/, JobEnd /*how*/, double /*now*/) {}
  virtual void host_changed(const HostChange& /*change*/, double /*now*/) {}
  /* A running job lost its processors (owner's return, host failure) and waits again, its work to do anew
   * (`owners.eviction: requeue`). By default it is submitted again; queue-based policies put it back at its original
   * place. */
  virtual void job_requeued(const Job& job, double now) { job_submitted(job, now); }
  /* Called once per instant after the event hooks, and when the wake-up time asked for has come. */
  virtual Decisions decide(const ClusterState& state) = 0;
  /* The next instant at which the policy wants decide() called even if nothing happens. */
  virtual double next_wakeup() const { return std::numeric_limits<double>::infinity(); }
  /* The instant at which the policy has planned to start a waiting job and will start it if its processors are free
   * (replay: a recorded start), infinity when it plans none. Until then the run waits for it: the runtime's
   * no-progress stop (SchedulerActor::kMaxWithoutProgress) does not count that wait, however long the log says it
   * was. A periodic re-plan is no such start. */
  virtual double next_planned_start() const { return std::numeric_limits<double>::infinity(); }
  /* Jobs submitted but not yet started (the runtime uses it to detect a policy that can never progress). */
  virtual size_t waiting_count() const = 0;
};

/* A registered policy: space-sharing (`make`, decisions) or time-sharing (`make_time_sharing`, plans); exactly one of
 * the two factories is set. */
struct PolicyInfo {
  std::string name;
  std::string description;
  std::vector<ParamSpec> params;
  std::function<std::unique_ptr<Policy>(const PolicyEnv&)> make;
  std::function<std::unique_ptr<TimeSharingPolicy>(const PolicyEnv&)> make_time_sharing = nullptr;
  bool time_sharing() const { return static_cast<bool>(make_time_sharing); }
};

Registry<PolicyInfo>& policy_registry();

/* A policy file registers itself with a static PolicyRegistration: no central list to edit. */
struct PolicyRegistration {
  explicit PolicyRegistration(PolicyInfo info) { policy_registry().add(std::move(info)); }
};

} // namespace jobsched
