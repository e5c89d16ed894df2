/* Gang scheduling with fixed partitions, GS(p) (Ousterhout 1982; the baseline of Setia, "The Interaction between
 * Memory Allocation and Adaptive Partitioning in Message-Passing Multicomputers", section 3, and of McCann &
 * Zahorjan). The machine is cut into partitions of p processors (processors left over when p does not divide the
 * machine stay idle, and a job larger than the floor(P / p) x p processors of the partitions is left out of the
 * workload as larger than the machine, by workload.oversize_jobs); a job takes ceil(size / p) partitions in one row of
 * an Ousterhout matrix (rows = time slices), the first row with enough free partitions, else a new row. Rows take turns
 * for a quantum Q each, round-robin; a row emptied by departures is removed and the next row starts its slice at once.
 * With one row there is no switch. Every job switched in stalls `context_switch` seconds first. */
#include "policy/cluster_state.hpp"
#include "policy/policy.hpp"

#include "core/errors.hpp"
#include "core/time.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace jobsched {
namespace {

class Gang : public TimeSharingPolicy {
 public:
  explicit Gang(const PolicyEnv& env) : machine_(env.machine), switch_cost_(env.params.get_double("context_switch"))
  {
    long p = env.params.get_int("partition_size");
    const int processors = machine_.resource_count();
    if (p > processors) // p >= 0 is declared below; the machine's size is known here
      throw InputError("policy.params.partition_size: must be between 1 and the machine's " +
                       std::to_string(processors) + " processors (0: the whole machine)");
    partition_size_ = p == 0 ? processors : static_cast<int>(p);
    partitions_ = processors / partition_size_;
    quantum_ = env.params.get_double("quantum");
  }

  JobLimit job_limit() const override
  {
    if (partitions_ * partition_size_ == machine_.resource_count()) return {};
    return {partitions_ * partition_size_,
            "policy.params.partition_size: " + std::to_string(partitions_) + " partitions of " +
                std::to_string(partition_size_) + " processors",
            nullptr, ""};
  }

  void job_submitted(const Job& job, double now) override
  {
    const int k = (job.min_processors() + partition_size_ - 1) / partition_size_;
    if (k > partitions_) // the workload leaves such jobs out (job_limit)
      throw PolicyError("gang: job " + std::to_string(job.id) + " needs " + std::to_string(job.min_processors()) +
                        " processors, more than the " + std::to_string(partitions_) + " partitions of " +
                        std::to_string(partition_size_) + " hold");
    if (rows_.empty()) { // the matrix was empty: this job's row starts a slice now
      current_ = 0;
      slice_end_ = now + quantum_;
    }
    Row* row = nullptr;
    for (auto& r : rows_)
      if (r->free >= k) {
        row = r.get();
        break;
      }
    if (row == nullptr) {
      rows_.push_back(std::make_unique<Row>());
      row = rows_.back().get();
      row->free_cells = ResourceSet::range(partitions_, 0, partitions_);
      row->free = partitions_;
    }
    // Its processors: the first ones of the first k free partitions, as many as it may use. The partitions are taken
    // a word at a time (a job of thousands of processors would otherwise cost thousands of steps at each arrival and
    // departure); with one processor per partition, its processors are its partitions.
    Placement placement{row, row->free_cells.lowest(k), ResourceSet(machine_.resource_count())};
    int wanted = std::min(job.max_processors(), k * partition_size_);
    if (partition_size_ == 1 && wanted == k) {
      placement.processors = placement.cells;
    } else {
      placement.cells.for_each([&](int part) {
        for (int i = 0; i < partition_size_ && wanted > 0; i++, wanted--)
          placement.processors.set(part * partition_size_ + i);
      });
    }
    row->free_cells -= placement.cells;
    row->free -= k;
    row->jobs.push_back(job.id);
    placement_.emplace(job.id, std::move(placement));
  }

  void job_ended(const Job& job, JobEnd, double now) override
  {
    auto it = placement_.find(job.id);
    Row* row = it->second.row;
    row->free_cells |= it->second.cells;
    row->free += it->second.cells.count();
    row->jobs.erase(std::find(row->jobs.begin(), row->jobs.end(), job.id));
    placement_.erase(it);
    if (!row->jobs.empty()) return;
    // The row is empty: remove it. If it was running, the next row starts its slice now.
    const size_t index = static_cast<size_t>(
        std::find_if(rows_.begin(), rows_.end(), [row](const auto& r) { return r.get() == row; }) - rows_.begin());
    rows_.erase(rows_.begin() + static_cast<long>(index));
    if (index < current_) {
      current_--;
    } else if (index == current_) {
      if (current_ >= rows_.size()) current_ = 0;
      slice_end_ = now + quantum_;
    }
  }

  Plan plan(const SystemView& view) override
  {
    Plan plan;
    plan.switch_cost = switch_cost_;
    if (rows_.empty()) return plan;
    // A row alone keeps the machine and asks for no wake-up at its slices' ends (a job of 1e12 s would otherwise cost
    // 1e9 of them). Its slices went on all the same: put the slice end back on their grid, the last boundary at or
    // before now (a rotation now) or the next one (mid-slice).
    if (alone_ && view.now >= slice_end_ - kTimeEpsilon) {
      slice_end_ += std::floor((view.now + kTimeEpsilon - slice_end_) / quantum_) * quantum_;
      if (view.now > slice_end_ + kTimeEpsilon) slice_end_ += quantum_;
    }
    if (view.now >= slice_end_ - kTimeEpsilon) { // the slice is over: the next row (the same one when alone)
      current_ = (current_ + 1) % rows_.size();
      slice_end_ = view.now + quantum_;
    }
    const bool all_up = view.up.count() == machine_.resource_count();
    for (JobId id : rows_[current_]->jobs) {
      const ResourceSet& processors = placement_.at(id).processors;
      if (all_up || view.up.contains(processors)) plan.run[id] = processors; // a job on a lost host waits for it
    }
    alone_ = rows_.size() == 1;
    plan.until = alone_ ? std::numeric_limits<double>::infinity() : slice_end_;
    return plan;
  }

 private:
  /* A row of the Ousterhout matrix: one time slice over all partitions. */
  struct Row {
    ResourceSet free_cells; // its free partitions (a job takes the lowest ones)
    int free = 0;
    std::vector<JobId> jobs; // the jobs of this row, in placement order
  };
  struct Placement {
    Row* row;
    ResourceSet cells; // its partitions
    ResourceSet processors;
  };

  const Machine& machine_;
  double quantum_;
  bool alone_ = false; // the last plan had one row, and asked for no wake-up at its slice's end
  double switch_cost_;
  int partition_size_ = 1;
  int partitions_ = 1;
  std::vector<std::unique_ptr<Row>> rows_; // the Ousterhout matrix
  std::map<JobId, Placement> placement_;
  size_t current_ = 0;   // the row running now
  double slice_end_ = 0; // when its slice ends
};

PolicyRegistration gang{
    {"gang",
     "gang scheduling GS(p): partitions of p processors time-shared round-robin (Ousterhout matrix)",
     {{"partition_size", "1", "p, processors per partition (0: the whole machine)", {}, ParamRange::at_least(0)},
      {"quantum", "600.0", "Q, seconds each row of the matrix runs in turn", {}, ParamRange::at_least(kMinQuantum)},
      {"context_switch", "0.0", "seconds a job stalls each time it is switched in", {}, ParamRange::at_least(0)}},
     nullptr,
     [](const PolicyEnv& env) { return std::make_unique<Gang>(env); }}};

} // namespace
} // namespace jobsched
