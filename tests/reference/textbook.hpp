/* A textbook discrete-event simulator of rigid jobs on P identical processors, under FCFS or EASY backfilling
 * (Mu'alem & Feitelson 2001), used as the reference the real simulator is checked against.
 *
 * It is independent of the simulator on purpose: it counts processors (no ResourceSet, no allocator), keeps its own
 * queue and event loop, and shares no code with plugin/ (policies, runtime, SimGrid). Only the job list it is fed comes
 * from the library, so that both sides simulate the same workload. */
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace textbook {

struct Job {
  std::int64_t id = 0;
  double submit = 0;
  int size = 1;
  double run_time = 0; // the truth: the job ends at start + run_time
  double estimate = 0; // what reservations use; estimate >= run_time
};

enum class Policy { fcfs, easy };

/* Start time of every job, by job id. Jobs are queued in submission order (ties: order in `jobs`). At one instant:
 * all completions, then all submissions, then one scheduling pass. If `trace_time` is >= 0, `trace` receives a
 * description of the machine and queue at the pass at that instant (before its decisions), and of what it decided. */
std::map<std::int64_t, double> simulate(std::vector<Job> jobs, int processors, Policy policy, double trace_time = -1,
                                        std::string* trace = nullptr);

} // namespace textbook
