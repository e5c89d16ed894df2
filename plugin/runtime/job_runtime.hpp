/* Jobs as SimGrid parallel tasks (ptask_L07): the primitives every policy's decisions are made of.
 *
 * Work model: a job of size n whose trace run time is R does n x R x reference_speed flops in all. Each of its
 * processes gets an equal share, so on n processors of the reference speed it lasts exactly R; on other processors
 * its duration follows their speed, and a resize to n' processors shares the remaining work among n' processes
 * (perfect malleability; speedup models come with the policies that need them). A processor is one core: a host with
 * c cores used by k processes of a job appears k times in the ptask's host list.
 *
 * Communication: each process sends bytes_per_flop x its flops over the job's lifetime, along the job's pattern
 * (ring: to the next process; neighbours: half to each neighbour; all-to-all: evenly to every other process). Under
 * L07 a ptask lasts as long as its slowest resource (CPU or link), so traffic slows a job only once its links, shared
 * with the other jobs' traffic, become the bottleneck. */
#pragma once

#include "core/job.hpp"
#include "core/machine.hpp"
#include "core/resource_set.hpp"
#include "runtime/job_model.hpp"
#include "scenario/scenario.hpp"

#include <simgrid/s4u.hpp>

#include <limits>
#include <map>
#include <vector>

namespace jobsched {

namespace sg4 = simgrid::s4u;

/* How a job left the machine. */
enum class JobFate { running, completed, walltime_reached, killed, failed };

class JobRuntime {
 public:
  /* Hosts' memory (for paging) is read from their property memory_mb. */
  JobRuntime(const Machine& machine, std::vector<sg4::Host*> hosts, double reference_speed, CommSpec comm,
             MemorySpec memory = {});

  void start(const Job& job, const ResourceSet& resources);
  void kill(JobId id);
  void suspend(JobId id);
  void resume(JobId id);
  /* Cancel and restart the remaining work on `resources` at once. */
  void resize(JobId id, const ResourceSet& resources);
  /* Cancel, send an image of `image_bytes` from the old hosts to the new ones, then restart the remaining work. */
  void migrate(JobId id, const ResourceSet& resources, double image_bytes);

  /* The activities the scheduler waits on: executions and image transfers in progress. */
  std::vector<sg4::ActivityPtr> activities() const;
  /* The next instant a job reaches its wall time (kill_at_estimate jobs), infinity if none. */
  double next_deadline() const;
  /* Jobs that left the machine since the last call (completed, reached their wall time, failed), in job id order.
   * Also restarts jobs whose image transfers have all arrived. */
  std::vector<std::pair<JobId, JobFate>> collect_ended();

  bool is_running(JobId id) const { return jobs_.count(id) != 0; }
  size_t size() const { return jobs_.size(); }
  /* Fraction of the job's work still to do (1 at start). */
  double remaining_fraction(JobId id) const;
  /* What the job's current placement costs it. */
  const PlacementCost& placement_cost(JobId id) const { return jobs_.at(id).cost; }

 private:
  struct Execution {
    const Job* job = nullptr;
    ResourceSet resources;
    double remaining = 1.0; // fraction of the job's total work left when `exec` started
    double used_time = 0;   // execution time accumulated before `segment_start` (wall time accounting)
    double segment_start = 0;
    bool suspended = false;
    PlacementCost cost;
    sg4::ExecPtr exec;
    std::vector<sg4::CommPtr> transfers; // image transfers of a migration in progress
  };
  Execution& get(JobId id);
  void launch(Execution& x);
  void stop_exec(Execution& x); // cancel the exec, keeping its remaining work
  std::vector<sg4::Host*> hosts_of(const ResourceSet& r) const;
  /* The network model's traffic: a ring over the job's nodes lasting `seconds` on an idle platform. */
  std::vector<double> calibrated_traffic(const std::vector<sg4::Host*>& hosts, double seconds) const;

  const Machine& machine_;
  std::vector<sg4::Host*> hosts_;
  double reference_speed_;
  JobModel model_; // holds the communication spec too
  std::map<JobId, Execution> jobs_;
};

} // namespace jobsched
