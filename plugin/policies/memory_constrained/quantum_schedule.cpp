/* The quantum schedule's measures and its validator (McCann & Zahorjan 1994, "Scheduling memory constrained jobs on
 * distributed memory parallel computers", section 2.3: the N x T rectangle, one piece per job, overhead = sum of
 * widths). */
#include "policies/memory_constrained/quantum_schedule.hpp"

#include <algorithm>
#include <sstream>

namespace jobsched::memory_constrained {

long long QuantumSchedule::overhead() const
{
  long long sum = 0;
  for (const auto& p : pieces)
    sum += p.width;
  return sum;
}

double QuantumSchedule::normalized_overhead() const
{
  return nodes > 0 ? static_cast<double>(overhead()) / nodes : 0.0;
}

double QuantumSchedule::assignments_tested_per_epoch() const
{
  return epochs.empty() ? 0.0 : static_cast<double>(assignments_tested) / static_cast<double>(epochs.size());
}

long long ceil_power_of_two(long long value)
{
  long long p = 1;
  while (p < value)
    p *= 2;
  return p;
}

bool is_power_of_two(long long value)
{
  return value > 0 && (value & (value - 1)) == 0;
}

namespace {

std::string text(const Fraction& f)
{
  std::ostringstream out;
  out << f.numerator();
  if (f.denominator() != 1) out << "/" << f.denominator();
  return out.str();
}

std::string describe(const Piece& p, size_t index)
{
  return "piece " + std::to_string(index) + " (job " + std::to_string(p.job) + ", nodes [" +
         std::to_string(p.first_node) + ", " + std::to_string(p.first_node + p.width) + "), time [" + text(p.start) +
         ", " + text(p.start + p.duration) + "))";
}

} // namespace

std::vector<std::string> validate(const QuantumSchedule& schedule, int nodes, const std::vector<int>& mins,
                                  const SchedulePromises& promises)
{
  std::vector<std::string> problems;
  if (nodes < 1) problems.push_back("N = " + std::to_string(nodes) + " is not a positive node count");
  if (schedule.nodes != nodes)
    problems.push_back("the schedule is for " + std::to_string(schedule.nodes) + " nodes, not " +
                       std::to_string(nodes));
  const auto& pieces = schedule.pieces;
  const Fraction zero(0);
  const Fraction one(1);
  Fraction area_sum(0);
  for (size_t i = 0; i < pieces.size(); i++) {
    const Piece& p = pieces[i];
    if (p.width < 1) problems.push_back(describe(p, i) + " has width " + std::to_string(p.width));
    if (p.duration <= zero) problems.push_back(describe(p, i) + " has duration " + text(p.duration));
    if (p.first_node < 0 || p.first_node + p.width > nodes || p.start < zero || p.start + p.duration > one)
      problems.push_back(describe(p, i) + " is outside the " + std::to_string(nodes) + " x 1 rectangle");
    if (p.job < 0 || p.job >= static_cast<int>(mins.size()))
      problems.push_back(describe(p, i) + " names no job");
    else if (p.width < mins[static_cast<size_t>(p.job)])
      problems.push_back(describe(p, i) + " is narrower than the job's minimum " +
                         std::to_string(mins[static_cast<size_t>(p.job)]));
    area_sum += Fraction(p.width) * p.duration;
  }
  for (size_t i = 0; i < pieces.size(); i++)
    for (size_t j = i + 1; j < pieces.size(); j++) {
      const Piece& a = pieces[i];
      const Piece& b = pieces[j];
      bool nodes_meet = a.first_node < b.first_node + b.width && b.first_node < a.first_node + a.width;
      bool times_meet = a.start < b.start + b.duration && b.start < a.start + a.duration;
      if (nodes_meet && times_meet) problems.push_back(describe(a, i) + " overlaps " + describe(b, j));
    }
  if (!pieces.empty() && area_sum != Fraction(nodes))
    problems.push_back("the pieces cover " + text(area_sum) + " node-quanta of the " + std::to_string(nodes) +
                       " (some node-time is idle or counted twice)");

  std::vector<int> pieces_of_job(mins.size(), 0);
  for (const auto& p : pieces)
    if (p.job >= 0 && p.job < static_cast<int>(mins.size())) pieces_of_job[static_cast<size_t>(p.job)]++;
  for (size_t j = 0; j < mins.size(); j++)
    if (pieces_of_job[j] != 1)
      problems.push_back("job " + std::to_string(j) + " has " + std::to_string(pieces_of_job[j]) +
                         " pieces (expected exactly one per quantum)");

  if (promises.equal_areas && !mins.empty()) {
    Fraction share(nodes, static_cast<long long>(mins.size()));
    for (size_t i = 0; i < pieces.size(); i++)
      if (Fraction(pieces[i].width) * pieces[i].duration != share)
        problems.push_back(describe(pieces[i], i) + " has area " +
                           text(Fraction(pieces[i].width) * pieces[i].duration) + ", not N/J = " + text(share));
  }

  std::vector<int> epoch_of_piece(pieces.size(), -1);
  Fraction epochs_end(0);
  for (size_t e = 0; e < schedule.epochs.size(); e++) {
    const Epoch& epoch = schedule.epochs[e];
    std::string name =
        "epoch " + std::to_string(e) + " [" + text(epoch.start) + ", " + text(epoch.start + epoch.duration) + ")";
    if (epoch.duration <= zero) problems.push_back(name + " has no duration");
    if (e > 0 && epoch.start < epochs_end) problems.push_back(name + " overlaps the epoch before it");
    if (promises.all_in_epochs && epoch.start != epochs_end)
      problems.push_back(name + " does not start where the previous epoch ends (" + text(epochs_end) + ")");
    epochs_end = epoch.start + epoch.duration;
    long long width_sum = 0;
    int narrowest = nodes + 1;
    int widest = 0;
    for (int index : epoch.pieces) {
      if (index < 0 || index >= static_cast<int>(pieces.size())) {
        problems.push_back(name + " lists a piece " + std::to_string(index) + " that does not exist");
        continue;
      }
      const Piece& p = pieces[static_cast<size_t>(index)];
      if (epoch_of_piece[static_cast<size_t>(index)] >= 0)
        problems.push_back(describe(p, static_cast<size_t>(index)) + " is in two epochs");
      epoch_of_piece[static_cast<size_t>(index)] = static_cast<int>(e);
      if (p.start != epoch.start || p.duration != epoch.duration)
        problems.push_back(describe(p, static_cast<size_t>(index)) + " does not span " + name);
      width_sum += p.width;
      narrowest = std::min(narrowest, p.width);
      widest = std::max(widest, p.width);
    }
    if (width_sum != nodes)
      problems.push_back(name + " has widths summing to " + std::to_string(width_sum) +
                         ", not N = " + std::to_string(nodes));
    if (promises.inequity && !epoch.pieces.empty() && widest - narrowest > *promises.inequity)
      problems.push_back(name + " has widths from " + std::to_string(narrowest) + " to " + std::to_string(widest) +
                         ", more than k = " + std::to_string(*promises.inequity) + " apart");
  }
  if (promises.all_in_epochs) {
    if (!pieces.empty() && epochs_end != one)
      problems.push_back("the epochs end at " + text(epochs_end) + ", not at the end of the quantum");
    for (size_t i = 0; i < pieces.size(); i++)
      if (epoch_of_piece[i] < 0) problems.push_back(describe(pieces[i], i) + " is in no epoch");
  }
  return problems;
}

} // namespace jobsched::memory_constrained
