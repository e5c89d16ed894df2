#include "policy/lookahead_pace.hpp"

#include <algorithm>

namespace jobsched {

bool LookaheadPace::try_now()
{
  if (pause_ > 0) {
    pause_--;
    return false;
  }
  return true;
}

size_t LookaheadPace::most_phases() const
{
  return std::clamp<size_t>(static_cast<size_t>(replayed_mean_) + 8, 4, kMostPhases);
}

void LookaheadPace::record(size_t replayed, bool reached)
{
  replayed_mean_ += (static_cast<double>(replayed) - replayed_mean_) / 8;
  if (replayed > 0) {
    fruitless_ = 0;
  } else if (reached && ++fruitless_ >= 4) {
    pause_ = std::min<long>(1024, 16L << std::min<long>(6, fruitless_ - 4));
  }
}

} // namespace jobsched
