/* The members of a 64-bit word of a bit set, counted (and the lowest few taken) inline: the one popcount of processor
 * sets, plan checks and gang-now's rows. __builtin_popcountll is a call into libgcc on baseline x86-64, which Debian
 * builds for (a few functions that count many words at once pick the POPCNT instruction with target_clones instead). */
#pragma once

#include <cstdint>

namespace jobsched {

inline int word_members(std::uint64_t bits)
{
  bits -= (bits >> 1) & 0x5555555555555555ULL;
  bits = (bits & 0x3333333333333333ULL) + ((bits >> 2) & 0x3333333333333333ULL);
  bits = (bits + (bits >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return static_cast<int>((bits * 0x0101010101010101ULL) >> 56);
}

/* The `k` lowest members of `bits` (all of them when it has no more than `k`). */
inline std::uint64_t lowest_members(std::uint64_t bits, int k)
{
  std::uint64_t part = 0;
  for (; k > 0 && bits != 0; k--) {
    part |= bits & (~bits + 1);
    bits &= bits - 1;
  }
  return part;
}

} // namespace jobsched
