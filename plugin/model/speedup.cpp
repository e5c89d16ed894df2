#include "model/speedup.hpp"

#include <algorithm>
#include <cmath>

namespace jobsched {

double Speedup::operator()(double n) const
{
  switch (model) {
  case Model::linear:
    return n;
  case Model::beta:
    return (1 + beta) * n / (beta + n);
  case Model::beta_static: {
    // The threads of the busiest node run one after the other: ceil(N/n) of them where N/n would be the even share.
    const double dynamic = (1 + beta) * n / (beta + n);
    const double per_node = std::ceil(static_cast<double>(threads) / n - 1e-9);
    return dynamic * threads / (n * per_node);
  }
  case Model::downey: {
    // Downey's two regimes (his equations for low and high variance), continuous at sigma = 1.
    if (sigma <= 1) {
      if (n <= A) return A * n / (A + sigma * (n - 1) / 2);
      if (n <= 2 * A - 1) return A * n / (sigma * (A - 0.5) + n * (1 - sigma / 2));
      return A;
    }
    if (n <= A + A * sigma - sigma) return n * A * (sigma + 1) / (sigma * (n + A - 1) + A);
    return A;
  }
  }
  return n;
}

const char* to_string(Speedup::Model m)
{
  switch (m) {
  case Speedup::Model::linear:
    return "linear";
  case Speedup::Model::downey:
    return "downey";
  case Speedup::Model::beta:
    return "beta";
  case Speedup::Model::beta_static:
    return "beta-static";
  }
  return "?";
}

} // namespace jobsched
