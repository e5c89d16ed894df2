/* The arithmetic of Setia's time-shared adaptive partitioning ("The Interaction between Memory Allocation and Adaptive
 * Partitioning in Message-Passing Multicomputers", sections 3, 3.1 and 4.1), apart from the policy so that tests can
 * check it on the paper's examples. The policies themselves (AP, APMC, APVM(f), GS(p)) are in
 * adaptive_partitioning.cpp; the readings of the paper are explained there. */
#pragma once

#include <string>

namespace jobsched::adaptive_partitioning {

/* How P/L is made a power of two. The paper's formula (2^i <= P/L < 2^(i+1)) is `floor`; its worked example (P = 128,
 * L = 5: C = 32) needs `ceiling` or `nearest` (nearest on a logarithmic scale: the power of two within a factor
 * sqrt(2) of P/L, halfway rounding up). */
enum class UnitRounding { floor, nearest, ceiling };
UnitRounding unit_rounding_from(const std::string& name); // InputError naming policy.params.rounding
const char* to_string(UnitRounding r);

/* The partition unit C for P processors and load L: P/L made a power of two, at most P (when L < 1, or when P is not
 * a power of two and the rounding goes above it) and at least 1 (when P/L < 1). L <= 0 gives P. */
int partition_unit(int processors, double load, UnitRounding rounding);

/* The partition p_j of a job whose memory fills `memory_processors` processors (min_j), under APVM(f) (APMC: f = 1;
 * AP: min_j = 1): C when ceil(f x min_j) <= C, else the smallest multiple k C with (k - 1) C < ceil(f x min_j) <=
 * k C; never more than P. */
int partition_size(int memory_processors, double fraction, int unit, int processors);

/* Setia's section 4.1 paging overhead of a job given c = p_j / min_j of its memory under APVM(f): 0 when c >= 1,
 * (1 - c) / (1 - f) x O for f <= c < 1 (O: the overhead at c = f). Its run time is (1 + overhead) x D / S(p_j). */
double paging_overhead(double c, double fraction, double overhead_at_fraction);

/* The load average's update from a sample of the number of jobs in the system (section 3, footnote 3):
 * L_{i+1} = L_i / 2 + sample / 2. */
double next_load(double load, double sample);

} // namespace jobsched::adaptive_partitioning
