/* How a node of the scheduler tree aggregates its children's feedback and divides its processors among them, after
 * Cao, Sun, Qian and Wu, "Scalable Hierarchical Scheduling for Malleable Parallel Jobs on Multiprocessor-based
 * Systems":
 *  - Desire-Sum (DS, section 3.2, equation 2): a node's desire is the sum of its children's desires;
 *  - DEQ, dynamic equi-partitioning (section 3.3, Algorithm 1, after McCann, Vaswani and Zahorjan 1993): the children
 *    whose desire is at most the equal share a / |N| get their desire, then the same on the others with what is left,
 *    until none can be satisfied (each of those gets the last equal share) or all are (the processors left over stay
 *    idle: DEQ never gives a child more than it desires);
 *  - EQUI (section 4.2, after Edmonds 1999): an equal share for every child that still holds unfinished jobs.
 * Allotments may be fractional (time-shared processors, as in the paper's analysis) or whole processors. */
#pragma once

#include "policies/hierarchical/feedback.hpp"

#include <cstddef>
#include <vector>

namespace jobsched::hierarchical {

enum class NodeAllocator { deq, equi };
const char* to_string(NodeAllocator a);

double desire_sum(const std::vector<double>& child_desires);

/* Algorithm 1, fractional. */
std::vector<double> deq_allotments(const std::vector<double>& desires, double processors);
/* Algorithm 1 on whole processors: a child is satisfied when ceil(desire) <= processors / |N| (it needs ceil(desire)
 * whole processors to have a >= d) and then gets ceil(desire); the others share what is left as evenly as whole
 * processors allow, the extra ones going to the largest desires first (ties: the first child). `processors` is
 * rounded down. */
std::vector<double> deq_allotments_whole(const std::vector<double>& desires, double processors);

/* EQUI: `processors` / (children with unfinished jobs) each; `whole`: whole processors, the extra ones to the first
 * children. */
std::vector<double> equi_allotments(const std::vector<bool>& unfinished, double processors, bool whole);

/* How a node (or a leaf, among its jobs) divides `processors`: EQUI among the children with unfinished jobs when the
 * allocator is EQUI or the jobs are scheduled by EQUI (whose desires say nothing), else DEQ on their desires; `whole`:
 * whole processors. */
std::vector<double> divide_processors(NodeAllocator allocator, JobScheduler job_scheduler,
                                      const std::vector<bool>& unfinished, const std::vector<double>& desires,
                                      double processors, bool whole);

/* The lists divide_processors_into() keeps between calls. */
struct DivisionScratch {
  std::vector<std::size_t> remaining;
  std::vector<std::size_t> deprived;
};
/* divide_processors() into `out` (resized to the children's number), with the same arithmetic in the same order: a
 * policy that divides at every quantum reuses `out` and `scratch` instead of allocating three lists per node. */
void divide_processors_into(std::vector<double>& out, DivisionScratch& scratch, NodeAllocator allocator,
                            JobScheduler job_scheduler, const std::vector<bool>& unfinished,
                            const std::vector<double>& desires, double processors, bool whole);

} // namespace jobsched::hierarchical
