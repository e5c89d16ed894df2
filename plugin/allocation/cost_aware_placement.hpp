/* The cost-aware placement rule of the `smp` allocator (`adaptive: cost-aware`), as pure functions.
 *
 * The SMP-cluster paper trades communication cost against waiting: a compact placement (few SMP nodes) runs faster
 * but may have to wait for a hole. Its adaptive row encodes where that trade-off fell in its experiments (Tight from
 * the Level); this rule decides from the costs themselves. For a job with estimate E (the requested time: never its
 * actual run time), each option "start at t on n nodes" is expected to end at t + E x stretch(n), stretch(n) being
 * the job's estimated run-time stretch on n nodes. The options are the fewest nodes available now (t = now) and,
 * at each instant the running jobs' estimates free processors, the fewest nodes available then, when that is fewer
 * than before. The rule takes the option with the earliest expected finish. A tie (within kTimeEpsilon) goes to the
 * fewer nodes: the job is expected to end at the same time either way, and the compact option gives the machine less
 * work (size x E x stretch processor-seconds) and leaves the processors idle until its start to backfilling. The
 * allocator may weigh more than the finish (its spread_weight) by passing a stretch function that adds it. */
#pragma once

#include <functional>
#include <vector>

namespace jobsched {

/* Start at `start` on `nodes` nodes. */
struct PlacementOption {
  double start = 0;
  int nodes = 0;
};

struct PlacementChoice {
  PlacementOption option;
  double finish = 0; // expected: start + estimate x stretch(nodes)
};

/* The option with the earliest expected finish (ties: the fewer nodes, then the earlier start, then the first listed).
 * `options` must not be empty. */
PlacementChoice earliest_expected_finish(const std::vector<PlacementOption>& options, double estimate,
                                         const std::function<double(int)>& stretch);

/* A near-tie goes to the compact placement: the option on the fewest nodes (then the earliest start) among those
 * expected to end at most `tolerance` x estimate after the earliest expected finish. A job's own expected end is all
 * the rule above weighs; a compact placement also leaves larger holes for the jobs behind it, which the rule cannot
 * price (at Level 0 every option costs the same, so without a tolerance each job spreads at once). The tolerance is
 * what a job accepts to lose, as a fraction of its estimate, for that. tolerance 0 is earliest_expected_finish. */
PlacementChoice compact_within_tolerance(const std::vector<PlacementOption>& options, double estimate,
                                         const std::function<double(int)>& stretch, double tolerance);

/* The stretch the formula predicts on `nodes` nodes: 1 + base x nodes x level (the SMP-cluster paper's cost). */
double formula_stretch(double base, int level, int nodes);

/* The network model's estimate on `nodes` nodes with the measured network load (0..1): the formula's stretch, which
 * the network model gives a job alone on the machine, times the expected slowdown of its traffic by contention,
 * 1 + contention_weight x (1 - (1 - load)^nodes): one of its nodes' links is already busy with probability
 * 1 - (1 - load)^nodes, and a busy link divides the job's bandwidth by 1 + contention_weight (2 with the default
 * weight 1: one other flow). Its traffic is the bottleneck of its run, so the whole run stretches. A one-node job
 * talks over its node's loopback, which no other node shares: no contention term. */
double network_stretch(double base, int level, int nodes, double network_load, double contention_weight = 1.0);

/* Fewest nodes whose free cores hold `size` processors, given the free cores of each node; -1 when they do not. */
int fewest_nodes(std::vector<int> free_per_node, int size);

} // namespace jobsched
