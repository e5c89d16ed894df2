#include "output/busy_union.hpp"

#include <algorithm>
#include <cfloat>
#include <cstring>

namespace jobsched {

void BusyUnion::add_term(std::size_t processor, double term)
{
  if (term == 0) return; // (area + 0 is area)
  std::deque<std::uint32_t>& terms = terms_[processor];
  if (term <= FLT_MAX && static_cast<double>(static_cast<float>(term)) == term) {
    const float narrow = static_cast<float>(term);
    std::uint32_t bits;
    std::memcpy(&bits, &narrow, sizeof bits);
    terms.push_back(bits);
    return;
  }
  std::uint64_t bits;
  std::memcpy(&bits, &term, sizeof bits);
  terms.push_back(kDouble);
  terms.push_back(static_cast<std::uint32_t>(bits));
  terms.push_back(static_cast<std::uint32_t>(bits >> 32));
}

void BusyUnion::settle(std::size_t p, double bound, bool all)
{
  std::vector<std::pair<double, double>>& intervals = pending_[p];
  if (intervals.empty()) return;
  // (They mostly come in order already, as segments close; equal intervals are interchangeable.)
  if (!std::is_sorted(intervals.begin(), intervals.end())) std::sort(intervals.begin(), intervals.end());
  double covered = covered_[p];
  std::size_t settled = 0;
  for (; settled < intervals.size() && (all || intervals[settled].first < bound); settled++) {
    const auto& [start, end] = intervals[settled];
    add_term(p, std::max(0.0, end - std::max(start, covered)));
    covered = std::max(covered, end);
  }
  covered_[p] = covered;
  intervals.erase(intervals.begin(), intervals.begin() + static_cast<std::ptrdiff_t>(settled));
  pending_count_ -= settled;
}

void BusyUnion::settle(double bound)
{
  for (std::size_t p = 0; p < pending_.size(); p++)
    settle(p, bound, false);
}

double BusyUnion::finish(double area)
{
  for (std::size_t p = 0; p < terms_.size(); p++) {
    settle(p, 0, true);
    const std::deque<std::uint32_t>& terms = terms_[p];
    for (auto word = terms.begin(); word != terms.end(); ++word) {
      if (*word != kDouble) {
        float narrow;
        std::memcpy(&narrow, &*word, sizeof narrow);
        area += static_cast<double>(narrow);
        continue;
      }
      const std::uint64_t low = *++word;
      const std::uint64_t bits = low | static_cast<std::uint64_t>(*++word) << 32;
      double term;
      std::memcpy(&term, &bits, sizeof term);
      area += term;
    }
  }
  return area;
}

} // namespace jobsched
