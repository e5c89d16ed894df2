/* The fork-join paging study of Setia, "The Interaction between Memory Allocation and Adaptive Partitioning in
 * Message-Passing Multicomputers", section 4.3: an SPMD program of `threads` threads, one per node, that computes in
 * phases of `granularity` seconds, each phase ended by a barrier, perfectly balanced. Every thread takes page faults
 * at `fault_rate` per second of its own computation, each one stopping it for `fault_service` seconds; the faults of
 * different threads are correlated: the k-th fault of every thread falls near a common instant, drawn uniformly in
 * the k-th interval of 1 / fault_rate seconds (so that it is not tied to the phase boundaries: with common instants
 * on a boundary, a window of faults spans one phase fewer, and 0.99 at 100 faults/s could never exceed 1.4).
 *
 * The paper says the threads' faults happen "within (1 - correlation)/rate of each other", which admits two readings;
 * `FaultOffsets` names them. `plus_minus` (the default) draws each thread's offset uniformly in [-W, +W] around the
 * common instant, W = (1 - correlation) / rate: it is the reading that gives the paper's own numbers (correlation
 * 0.99, 100 faults/s, 50 microseconds: a slowdown of 1.38 with 8 threads up to 1.5 with 128; 0.9: about 5 at 128
 * threads). `window` keeps all of a round's faults inside one window of width W, offsets uniform in [0, W].
 * At correlation 1 both give the same instant to every thread, and the slowdown is exactly 1 + rate x service.
 *
 * Every thread takes the same number of faults, floor(rate x computation): one per round. A fault whose offset would
 * fall before the start or after the end of the computation is moved to that edge (so that the count stays equal;
 * with W much shorter than the computation this changes nothing measurable). */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace jobsched {

enum class FaultOffsets { plus_minus, window };

struct ForkJoinSpec {
  int threads = 64;
  double granularity = 50e-6;  // seconds of computation per phase
  double computation = 1.0;    // seconds of computation per thread, the whole program (a whole number of phases)
  double fault_rate = 100;     // page faults per second of computation, per thread
  double fault_service = 1e-3; // seconds a fault stops its thread
  double correlation = 1.0;    // in [0, 1]
  FaultOffsets offsets = FaultOffsets::plus_minus;
  double barrier_cost = 0; // seconds every barrier costs (the paper's numbers need 0)
};

const char* to_string(FaultOffsets offsets);

/* Each thread's fault instants, in seconds of its own computation, sorted. */
std::vector<std::vector<double>> fault_schedule(const ForkJoinSpec& spec, std::uint64_t seed);

long phase_count(const ForkJoinSpec& spec);

/* The program's completion time computed directly: the sum over phases of the slowest thread's time in the phase
 * (its computation, `phase_length[thread]` seconds, plus its faults' service), plus the barriers. The simulation
 * must give the same. */
double fork_join_completion_time(const ForkJoinSpec& spec, const std::vector<std::vector<double>>& faults,
                                 const std::vector<double>& phase_length);

/* The phase (0-based) a fault at computation instant t falls in. */
long phase_of(const ForkJoinSpec& spec, double t);

} // namespace jobsched
