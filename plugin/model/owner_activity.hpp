/* Workstation owners (Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems", section 1:
 * a processor is available to parallel jobs only while its owner leaves it idle, and an owner who comes back evicts
 * the guests). Each workstation alternates between idle periods (available to guests) and busy periods (its owner
 * uses it), either drawn from distributions or read from a trace file.
 *
 * Distributions: the model of alternating available and non-available periods per workstation is the one of Mutka
 * and Livny's measurements of workstation availability behind Condor (M. W. Mutka and M. Livny, "The available
 * capacity of a privately owned workstation environment", Performance Evaluation 12(4), 1991; M. W. Mutka,
 * "Estimating capacity for sharing in a privately owned workstation environment", IEEE TSE 18(4), 1992, the paper's
 * reference [2]). As we recall those studies, available periods vary far more than an exponential distribution's and
 * are fitted with hyperexponential distributions; we have not checked that against their text here, so take the
 * family as our reading of them. We draw idle periods from a two-phase hyperexponential of mean `mean_idle` and
 * coefficient of variation `idle_cv` (>= 1; 1 gives the exponential) and busy periods likewise (`mean_busy`,
 * `busy_cv`). The parameter values are ours, not theirs: they are scenario parameters, and the experiments sweep the
 * owners' activity level busy / (busy + idle) = mean_busy / (mean_busy + mean_idle).
 * The two-phase hyperexponential with balanced means: with probability p = (1 + sqrt((c^2 - 1) / (c^2 + 1))) / 2 an
 * exponential of mean m / (2 p), else one of mean m / (2 (1 - p)); its mean is m and its coefficient of variation c.
 * At time 0 a workstation is busy with probability equal to the activity level, for a fresh busy period.
 *
 * Trace file: text, one change per line, `TIME,HOST,STATE` (seconds >= 0, a compute host's name, `busy` or `idle`),
 * in non-decreasing time order; blank lines and lines starting with '#' are ignored. Every workstation starts idle (a
 * `busy` line at time 0 makes it busy from the start, before any guest); a line that repeats a host's current state
 * is refused. Errors name the file and line.
 *
 * Grace time: guests may stay `grace` seconds after their owner comes back. The scheduler is told processor_exit at
 * (owner back + grace) if the owner is still there, and new_processor when the owner leaves again; an owner who leaves
 * within the grace time is never noticed. Until processor_exit the guests compute as usual (the owner's own load is
 * not simulated). Busy at time 0: no guest yet, no grace. */
#pragma once

#include "core/random.hpp"

#include <cstdint>
#include <filesystem>
#include <limits>
#include <queue>
#include <string>
#include <vector>

namespace jobsched {

struct OwnerSpec {
  enum class Model { none, alternating, trace };
  Model model = Model::none;
  double mean_idle = 3600; // seconds
  double mean_busy = 900;
  double idle_cv = 2;
  double busy_cv = 1;
  double grace = 0;
  std::filesystem::path trace;
  /* mean_busy / (mean_busy + mean_idle), 0 without owners. */
  double activity() const { return model == Model::alternating ? mean_busy / (mean_busy + mean_idle) : 0; }
};

/* What happens to a job whose processors are taken from it, by an owner's return or by a host failure (a SimGrid state
 * profile): `requeue` (the job goes back to the waiting queue at its original position, its work lost and counted, as
 * Slurm's JobRequeue does) or `kill` (it leaves: KILLED after an owner's return, FAILED after a host failure). Space
 * sharing applies it on both; time sharing applies it on host failures only (the memory of a job on a failed host is
 * gone) and suspends the jobs of a workstation whose owner came back, re-planning at once. */
enum class GuestEviction { requeue, kill };

/* What the scheduler sees: at `time`, workstation `host` leaves (busy: processor_exit) or joins (new_processor). */
struct OwnerChange {
  double time = 0;
  int host = 0;
  bool busy = false;
};

/* A draw from the two-phase hyperexponential of mean `mean` and coefficient of variation `cv` >= 1 (exponential for
 * cv = 1). */
double hyperexponential(RandomStream& random, double mean, double cv);

/* The changes of one workstation's owner as the scheduler sees them (grace applied), in time order. */
class OwnerActivity {
 public:
  /* `hosts`: the compute hosts' names, in the run's order. Reads and checks the trace (InputError naming the file and
   * line) for Model::trace. */
  OwnerActivity(const OwnerSpec& spec, const std::vector<std::string>& hosts, std::uint64_t seed);
  /* Busy at time 0: not available to the scheduler at the start. */
  bool initially_busy(int host) const { return initially_busy_[static_cast<size_t>(host)]; }
  /* When the next change is due (infinity: none). */
  double next_time() const;
  /* The changes due at or before `now`, in time order (ties: host order). */
  std::vector<OwnerChange> take_due(double now);
  /* Owner returns that were seen by the scheduler (processor_exit events) so far. */
  long exits() const { return exits_; }

 private:
  struct Later {
    bool operator()(const OwnerChange& a, const OwnerChange& b) const
    {
      return a.time > b.time || (a.time == b.time && a.host > b.host);
    }
  };
  /* Alternating model: queue the next visible change of `host` after time `from` (where it became idle). */
  void draw_next(int host, double from);

  OwnerSpec spec_;
  std::vector<RandomStream> random_;
  std::vector<bool> initially_busy_;
  std::priority_queue<OwnerChange, std::vector<OwnerChange>, Later> queue_;
  long exits_ = 0;
};

/* Reads a trace file into visible changes (grace applied) and the initial states; InputError names file and line. */
std::vector<OwnerChange> read_owner_trace(const std::filesystem::path& file, const std::vector<std::string>& hosts,
                                          double grace, std::vector<bool>& initially_busy);

} // namespace jobsched
