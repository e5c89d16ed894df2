/* The textbook FCFS / EASY simulator (see textbook.hpp): processor counts only, one event loop, no simulator code.
 *
 * EASY, as in Mu'alem & Feitelson 2001: start the queue head while it fits; the blocked head gets a reservation at the
 * shadow time (the earliest expected end, estimates sorted with ties by job id, after which enough processors are
 * free), and `extra` is the number of processors free then that the head does not need; a later job may start now if it
 * fits now and either ends (by its estimate) by the shadow time or uses no more than the extra processors. */
#include "reference/textbook.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace textbook {

namespace {

struct Running {
  const Job* job = nullptr;
  double start = 0;
  double end() const { return start + job->run_time; }          // when it really ends
  double expected_end() const { return start + job->estimate; } // when the scheduler believes it ends
};

} // namespace

std::map<std::int64_t, double> simulate(std::vector<Job> jobs, int processors, Policy policy, double trace_time,
                                        std::string* trace)
{
  std::stable_sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) { return a.submit < b.submit; });
  std::map<std::int64_t, double> start_of;
  std::vector<const Job*> queue; // waiting jobs, in submission order
  std::vector<Running> running;
  int free = processors;
  size_t next = 0; // the next job to submit
  double now = 0;
  std::ostringstream log;
  bool tracing = false;

  auto start = [&](size_t i) {
    const Job* job = queue[i];
    if (job->size > free) throw std::logic_error("textbook: job " + std::to_string(job->id) + " started without room");
    free -= job->size;
    running.push_back({job, now});
    start_of[job->id] = now;
    if (tracing)
      log << "  starts job " << job->id << " (size " << job->size << ", estimate " << job->estimate << "), free now "
          << free << "\n";
    queue.erase(queue.begin() + static_cast<long>(i));
  };

  while (next < jobs.size() || !queue.empty() || !running.empty()) {
    // The next instant: the earliest submission or real completion.
    now = std::numeric_limits<double>::infinity();
    if (next < jobs.size()) now = jobs[next].submit;
    for (const auto& r : running)
      now = std::min(now, r.end());
    if (now == std::numeric_limits<double>::infinity())
      throw std::runtime_error("textbook: jobs wait on an idle machine (a job larger than the machine?)");

    // All completions at `now`, then all submissions at `now`.
    for (size_t i = 0; i < running.size();) {
      if (running[i].end() <= now) {
        free += running[i].job->size;
        running.erase(running.begin() + static_cast<long>(i));
      } else {
        i++;
      }
    }
    while (next < jobs.size() && jobs[next].submit <= now)
      queue.push_back(&jobs[next++]);

    tracing = trace != nullptr && trace_time >= 0 && std::abs(now - trace_time) <= 1e-6;
    if (tracing) {
      log.precision(12);
      log << "textbook pass at t=" << now << ": " << free << " of " << processors << " processors free\n";
      log << "  running (id size start expected_end real_end):\n";
      for (const auto& r : running)
        log << "    " << r.job->id << " " << r.job->size << " " << r.start << " " << r.expected_end() << " " << r.end()
            << "\n";
      log << "  queue (id size submit estimate run_time):\n";
      for (const Job* j : queue)
        log << "    " << j->id << " " << j->size << " " << j->submit << " " << j->estimate << " " << j->run_time
            << "\n";
    }

    // One scheduling pass. First the head of the queue, while it fits (this is all of FCFS).
    while (!queue.empty() && queue.front()->size <= free)
      start(0);
    if (policy != Policy::easy || queue.empty()) continue;

    // EASY: the blocked head's shadow time and extra processors, from the running jobs' estimates.
    const Job& head = *queue.front();
    if (head.size > processors)
      throw std::runtime_error("textbook: job " + std::to_string(head.id) + " is larger than the machine");
    std::vector<Running> by_end = running;
    std::sort(by_end.begin(), by_end.end(), [](const Running& a, const Running& b) {
      return a.expected_end() < b.expected_end() || (a.expected_end() == b.expected_end() && a.job->id < b.job->id);
    });
    int available = free;
    double shadow = std::numeric_limits<double>::infinity();
    for (const auto& r : by_end) {
      available += r.job->size;
      if (available >= head.size) {
        shadow = r.expected_end();
        break;
      }
    }
    // Extra processors: all those free at the shadow time (every job expected to end by then) beyond the head's.
    int extra = free - head.size;
    for (const auto& r : running)
      if (r.expected_end() <= shadow) extra += r.job->size;
    if (tracing)
      log << "  head " << head.id << " (size " << head.size << ") blocked: shadow " << shadow << ", extra " << extra
          << "\n";

    // Backfilling: the rest of the queue in order.
    for (size_t i = 1; i < queue.size();) {
      const Job& job = *queue[i];
      bool ends_in_time = now + job.estimate <= shadow;
      if (job.size <= free && (ends_in_time || job.size <= extra)) {
        if (!ends_in_time) extra -= job.size;
        start(i); // the next candidate is now at index i
      } else {
        i++;
      }
    }
  }
  if (trace != nullptr) *trace += log.str();
  return start_of;
}

} // namespace textbook
