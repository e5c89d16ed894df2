/* Desire-Sum (Cao et al., section 3.2), DEQ (section 3.3, Algorithm 1) and EQUI (section 4.2): see allocation.hpp. */
#include "policies/hierarchical/allocation.hpp"

#include "policies/hierarchical/hierarchy_spec.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

namespace jobsched::hierarchical {

namespace {

/* Whole processors: `total` spread over `who` as evenly as possible, the extra ones in the order of `who`. */
void share_whole(std::vector<double>& out, const std::vector<size_t>& who, long total)
{
  if (who.empty() || total <= 0) return;
  const long n = static_cast<long>(who.size());
  for (long i = 0; i < n; i++)
    out[who[static_cast<size_t>(i)]] = static_cast<double>(total / n + (i < total % n ? 1 : 0));
}

} // namespace

const char* to_string(NodeAllocator a)
{
  return a == NodeAllocator::deq ? "deq" : "equi";
}

std::string algorithm_name(const HierarchySpec& spec)
{
  return std::string(to_string(spec.job_scheduler)) + "-" + (spec.allocator == NodeAllocator::deq ? "ds" : "equi");
}

double desire_sum(const std::vector<double>& child_desires)
{
  return std::accumulate(child_desires.begin(), child_desires.end(), 0.0);
}

namespace {
/* Algorithm 1, fractional, into `out`. */
void deq_into(std::vector<double>& out, DivisionScratch& scratch, const std::vector<double>& desires, double processors)
{
  out.resize(desires.size()); // every child's share is written below (its desire, or the equal share): none zeroed
  std::vector<size_t>& remaining = scratch.remaining;
  remaining.resize(desires.size());
  std::iota(remaining.begin(), remaining.end(), 0);
  double left = processors;
  std::vector<size_t>& deprived = scratch.deprived; // swapped with `remaining` from round to round
  deprived.reserve(desires.size());
  // The recursion of Algorithm 1 as a loop: each round satisfies every child whose desire fits the current share.
  while (!remaining.empty()) {
    const double share = left / static_cast<double>(remaining.size());
    deprived.clear();
    double given = 0;
    for (size_t c : remaining) {
      if (desires[c] <= share) {
        out[c] = desires[c];
        given += desires[c];
      } else {
        deprived.push_back(c);
      }
    }
    if (deprived.size() == remaining.size()) { // S is empty: the equal share for each (lines 4-7)
      for (size_t c : remaining)
        out[c] = share;
      return;
    }
    left -= given;
    remaining.swap(deprived);
  }
  // all satisfied: `left` stays idle
}

/* EQUI, fractional, into `out`. */
void equi_into(std::vector<double>& out, const std::vector<bool>& unfinished, double processors)
{
  out.assign(unfinished.size(), 0.0);
  const auto active = static_cast<size_t>(std::count(unfinished.begin(), unfinished.end(), true));
  if (active == 0) return;
  const double share = processors / static_cast<double>(active); // once: the compiler divided again for every child
  for (size_t c = 0; c < unfinished.size(); c++)
    if (unfinished[c]) out[c] = share;
}
} // namespace

std::vector<double> deq_allotments(const std::vector<double>& desires, double processors)
{
  std::vector<double> out;
  DivisionScratch scratch;
  deq_into(out, scratch, desires, processors);
  return out;
}

std::vector<double> deq_allotments_whole(const std::vector<double>& desires, double processors)
{
  std::vector<double> out(desires.size(), 0.0);
  std::vector<size_t> remaining(desires.size());
  std::iota(remaining.begin(), remaining.end(), 0);
  long left = static_cast<long>(std::floor(processors + 1e-9));
  while (!remaining.empty()) {
    const double share = static_cast<double>(left) / static_cast<double>(remaining.size());
    std::vector<size_t> deprived;
    long given = 0;
    for (size_t c : remaining) {
      const double need = std::ceil(desires[c] - 1e-9);
      if (need <= share) {
        out[c] = need;
        given += static_cast<long>(need);
      } else {
        deprived.push_back(c);
      }
    }
    if (deprived.size() == remaining.size()) {
      std::stable_sort(remaining.begin(), remaining.end(),
                       [&desires](size_t a, size_t b) { return desires[a] > desires[b]; });
      share_whole(out, remaining, left);
      return out;
    }
    left -= given;
    remaining = std::move(deprived);
  }
  return out;
}

std::vector<double> equi_allotments(const std::vector<bool>& unfinished, double processors, bool whole)
{
  std::vector<double> out(unfinished.size(), 0.0);
  if (!whole) {
    equi_into(out, unfinished, processors);
    return out;
  }
  std::vector<size_t> active;
  for (size_t c = 0; c < unfinished.size(); c++)
    if (unfinished[c]) active.push_back(c);
  share_whole(out, active, static_cast<long>(std::floor(processors + 1e-9)));
  return out;
}

void divide_processors_into(std::vector<double>& out, DivisionScratch& scratch, NodeAllocator allocator,
                            JobScheduler job_scheduler, const std::vector<bool>& unfinished,
                            const std::vector<double>& desires, double processors, bool whole)
{
  if (allocator == NodeAllocator::equi || job_scheduler == JobScheduler::equi) {
    if (whole)
      out = equi_allotments(unfinished, processors, true);
    else
      equi_into(out, unfinished, processors);
  } else if (whole) {
    out = deq_allotments_whole(desires, processors);
  } else {
    deq_into(out, scratch, desires, processors);
  }
}

std::vector<double> divide_processors(NodeAllocator allocator, JobScheduler job_scheduler,
                                      const std::vector<bool>& unfinished, const std::vector<double>& desires,
                                      double processors, bool whole)
{
  std::vector<double> out;
  DivisionScratch scratch;
  divide_processors_into(out, scratch, allocator, job_scheduler, unfinished, desires, processors, whole);
  return out;
}

} // namespace jobsched::hierarchical
