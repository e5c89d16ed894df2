/* Simulated time: when two events happen at the same instant. */
#pragma once

namespace jobsched {

/* Two events closer than this (seconds) happen at the same instant; SimGrid's clock carries rounding of ~1e-10 s. */
constexpr double kTimeEpsilon = 1e-6;

/* The shortest time slice (quantum) a scenario may ask for: a thousand instants, so that consecutive slices never
 * merge into one instant (a quantum of 1e-300 s would not move the clock and the run would never end). */
constexpr double kMinQuantum = 1e-3;

} // namespace jobsched
