/* Simulated time: when two events happen at the same instant. */
#pragma once

namespace jobsched {

/* Two events closer than this (seconds) happen at the same instant; SimGrid's clock carries rounding of ~1e-10 s. */
constexpr double kTimeEpsilon = 1e-6;

} // namespace jobsched
