/* Shared by the memory-constrained policies' sources (not a public API): input checks, stable job orders, and the
 * assembly of epochs into a QuantumSchedule. */
#pragma once

#include "policies/memory_constrained/quantum_schedule.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace jobsched::memory_constrained::detail {

/* Throws InputError (one line, starting with the policy's name) unless N >= 1, 1 <= M_j <= N for every job, and
 * k >= 0 when given. */
void check_input(const std::string& policy, int nodes, const std::vector<int>& mins, std::optional<int> k = {});

/* Job indices sorted by M_j, ties by index. */
std::vector<int> jobs_by_increasing_min(const std::vector<int>& mins, const std::vector<int>& jobs);
std::vector<int> jobs_by_decreasing_min(const std::vector<int>& mins, const std::vector<int>& jobs);
std::vector<int> all_jobs(const std::vector<int>& mins);

/* One epoch as (job, width) pairs, in placement order (first_node increases along it). */
using EpochAssignment = std::vector<std::pair<int, int>>;

/* Appends the epochs, one after the other from `start`, each lasting (its number of jobs) / total_jobs of the
 * quantum; each piece's nodes follow the previous piece's in its epoch. */
void append_epochs(QuantumSchedule& schedule, const std::vector<EpochAssignment>& epochs, Fraction start,
                   int total_jobs);

/* HEURISTIC-EPOCH(k)'s epochs for the jobs `jobs` (indices into mins) on `nodes` nodes: the rules are in
 * policies.hpp. */
std::vector<EpochAssignment> heuristic_epochs(int nodes, const std::vector<int>& mins, const std::vector<int>& jobs,
                                              int k);

} // namespace jobsched::memory_constrained::detail
