#include "runtime/drivers/time_sharing_driver.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <tuple>

XBT_LOG_NEW_DEFAULT_CATEGORY(jobsched_time_sharing, "jobsched: time-sharing plans");

namespace jobsched {

TimeSharingDriver::TimeSharingDriver(const Machine& machine, TimeSharingPolicy& policy, JobRuntime& runtime)
    : machine_(machine), policy_(policy), runtime_(runtime)
{
}

void TimeSharingDriver::job_submitted(const WorkloadJob& job, double now)
{
  in_system_.push_back(&runtime_.table().at(job.id));
  in_system_order_.push_back(submitted_);
  in_system_ids_.push_back(job.id);
  submission_order_[job.id] = submitted_++;
  policy_.job_submitted(job, now);
}

void TimeSharingDriver::job_ended(const JobState& s, double now)
{
  process_jobs_.erase(s.job->id);
  // Taken out of in_system_ at the next decision, all at once (no linear erase per job).
  if (auto order = submission_order_.find(s.job->id); order != submission_order_.end()) {
    ended_orders_.push_back(order->second);
    submission_order_.erase(order);
    ended_since_plan_++;
  }
  policy_.job_ended(*s.job, job_end_of(s.fate), now);
}

/* Its host failed: requeued for the policy (by default an end, then a submission), and it comes again at its place
 * in submission order (in_system_ keeps it). */
void TimeSharingDriver::job_requeued(const JobState& s, double now)
{
  policy_.job_requeued(*s.job, now);
}

void TimeSharingDriver::process_ended(JobId job, int process, double now)
{
  policy_.process_ended(*runtime_.table().at(job).job, process, now);
}

void TimeSharingDriver::process_event(JobId job, bool added, double draw, double now)
{
  policy_.process_event(*runtime_.table().at(job).job, added, draw, now);
}

void TimeSharingDriver::host_changed(const HostChange& change, const ResourceSet&, double now)
{
  policy_.host_changed(change, now);
}

size_t TimeSharingDriver::waiting_count() const
{
  return static_cast<size_t>(std::count_if(in_system_.begin(), in_system_.end(),
                                           [](const JobState* s) { return s->status == JobStatus::waiting; }));
}

namespace {
/* How a plan's error names a job. */
std::string plan_job(JobId id)
{
  return "plan: job " + std::to_string(id);
}
/* Plan::share's rule for one job (check_shares() and check_chained_shares() alike): a share of its set of `count`
 * processors is above 0, at most the count, and more than the count less 2 (only the set's two ends are time-shared).
 */
bool share_fits(double share, int count)
{
  const auto n = static_cast<double>(count);
  return share > 0 && share <= n * (1 + 1e-12) && share > n - 2;
}
std::string share_error(JobId id, double share, const ResourceSet& set)
{
  return plan_job(id) + ": a share of " + std::to_string(share) + " processors on " + set.to_string();
}
/* A group of jobs linked by shared processors holds more shares than it has processors (named by its first job). */
bool group_overfull(double held, double processors)
{
  return held > processors * (1 + 1e-9);
}
std::string group_error(JobId first, double held, double processors)
{
  return plan_job(first) + " and the jobs time-sharing processors with it hold " + std::to_string(held) +
         " processors' worth on " + std::to_string(processors);
}
/* The plan's job is not in the system (check(), check_lookahead()). */
bool out_of_system(const JobState* s)
{
  return s == nullptr || s->status == JobStatus::pending || s->finished();
}
/* Why `processors` cannot be the job's, as a policy error naming it (`job()`): none, some down, or some given to
 * another job already (`given`). */
template <class Name>
[[noreturn]] void refuse_processors(const Name& job, const ResourceSet& processors, const ResourceSet& up,
                                    const ResourceSet& given)
{
  if (processors.empty()) throw PolicyError(job() + ": no processors given");
  if (!up.contains(processors)) throw PolicyError(job() + ": processors " + processors.to_string() + " are down");
  throw PolicyError(job() + ": processors " + (given & processors).to_string() + " given to two jobs");
}
/* `n` processors for job `j` (named by `job()`), within its bounds, or a policy error. */
template <class Name>
void check_bounds(const Name& job, const Job& j, int n)
{
  if (n < j.min_processors() || n > j.max_processors())
    throw PolicyError(job() + " on " + std::to_string(n) + " processors, outside its bounds [" +
                      std::to_string(j.min_processors()) + ", " + std::to_string(j.max_processors()) + "]");
}
const ResourceSet kWhereItWas; // JobRuntime::resume() on a set of capacity 0: the job's own processors
/* A lookahead's counts (Lookahead::counts) are one per entry of its phases, or none; `what` names it in the error
 * ("plan: a lookahead", "extend_lookahead: an extension"). */
void check_counts_declared(const Lookahead& ahead, const char* what)
{
  size_t entries = 0;
  for (const Phase& phase : ahead.phases)
    entries += phase.size();
  if (!ahead.counts.empty() && ahead.counts.size() != entries)
    throw PolicyError(std::string(what) + " of " + std::to_string(entries) + " entries declares " +
                      std::to_string(ahead.counts.size()) + " counts (one per entry, or none)");
}
double slowdown_of(const Plan& plan, JobId id)
{
  auto it = plan.slowdown.find(id);
  return it == plan.slowdown.end() ? 1.0 : it->second;
}
} // namespace

void TimeSharingDriver::find_run_records(const Plan& plan)
{
  run_states_.clear();
  run_orders_.clear();
  run_ids_.clear();
  run_sets_.clear();
  run_same_.assign(plan.run.size(), -1);
  // While no job ended since the last plan, each job of it is in the system with the record and order found then: the
  // jobs of both plans are found by a walk along the two (both by id), the others looked up.
  const bool last_in_system = ended_since_plan_ == 0;
  size_t last = 0;
  for (const auto& [id, processors] : plan.run) {
    run_ids_.push_back(id);
    run_sets_.push_back(&processors);
    if (last_in_system) {
      while (last < last_run_.size() && last_run_[last] < id)
        last++;
      if (last < last_run_.size() && last_run_[last] == id) {
        run_states_.push_back(last_run_states_[last]);
        run_orders_.push_back(last_run_orders_[last]);
        continue;
      }
    }
    const auto [state, order] = look_up_record(id);
    run_states_.push_back(state);
    run_orders_.push_back(order);
  }
}

std::pair<const JobState*, std::uint64_t> TimeSharingDriver::look_up_record(JobId id) const
{
  auto order = submission_order_.find(id);
  return {runtime_.table().find(id), order == submission_order_.end() ? kNoOrder : order->second};
}

void TimeSharingDriver::check(const Plan& plan, const ResourceSet& up,
                              const std::vector<const JobState*>& run_states) const
{
  ResourceSet& given = check_given_; // kept with its storage (a machine's worth of words)
  given.clear(machine_.resource_count());
  auto run = plan.run.begin(); // walked along plan.processes (both by id), not looked up per job
  for (const auto& [id, where] : plan.processes) {
    const JobState* s = runtime_.table().find(id);
    // Named only for an error: a string per listed job per plan was a tenth of a gang-now rotation's check.
    if (out_of_system(s)) throw PolicyError(plan_job(id) + " is not in the system");
    if (static_cast<int>(where.size()) < runtime_.process_count(id))
      throw PolicyError(plan_job(id) + ": " + std::to_string(where.size()) + " processes placed, it has " +
                        std::to_string(runtime_.process_count(id)));
    for (int p : where)
      if (p < Plan::kProcessEnded || p >= machine_.resource_count())
        throw PolicyError(plan_job(id) + ": a process on processor " + std::to_string(p) +
                          ", not one of the machine's");
    while (run != plan.run.end() && run->first < id)
      ++run;
    if (run != plan.run.end() && run->first == id) { // by a set of the processes' processors: not n look-ups of n
      // Kept with its storage (a machine's worth of words).
      ResourceSet& placed = check_placed_;
      placed.clear(machine_.resource_count());
      for (int p : where)
        if (p >= 0) placed.set(p);
      if (!placed.contains(run->second))
        run->second.for_each([&](int processor) {
          if (!placed.test(processor))
            throw PolicyError(plan_job(id) + " runs on processor " + std::to_string(processor) +
                              " where it has no process");
        });
    }
  }
  auto share_walk = plan.share.begin();
  run_shares_.resize(run_ids_.size()); // each written below (-1: not shared)
  share_runs_.clear();
  share_counts_.clear();
  for (size_t i = 0; i < run_ids_.size(); i++) {
    const JobId id = run_ids_[i];
    const ResourceSet& processors = *run_sets_[i];
    const JobState* s = run_states[i];
    // Named only for an error: a string per job per plan was a tenth of a quantum scheduler's check.
    const auto job = [id = id] { return plan_job(id); };
    if (out_of_system(s)) throw PolicyError(plan_job(id) + " is not in the system");
    if (processors.capacity() != machine_.resource_count()) throw PolicyError(plan_job(id) + ": no processors given");
    while (share_walk != plan.share.end() && share_walk->first < id) // both by id: a walk, not a look-up per job
      ++share_walk;
    const bool shared = share_walk != plan.share.end() && share_walk->first == id;
    // One pass over the words for the usual case: every processor up and none given yet (then their count). A shared
    // set may meet the sets given (check_shares() says so, after every job's), but it too is seen to be up and not
    // empty in that one pass, usually.
    const int n = processors.count_if_within_and_apart(up, given);
    if (shared && (n > 0 || (!processors.empty() && up.contains(processors)))) { // time-shared: check_shares()
      run_shares_[i] = share_walk->second;
      share_runs_.push_back(i);
      share_counts_.push_back(n); // its processors' count when known (n > 0), for check_shares()
      continue;
    }
    run_shares_[i] = -1.0;
    if (n <= 0) refuse_processors(job, processors, up, given);
    given |= processors;
    if (plan.processes.count(id) != 0) continue; // its processes, checked above
    const Job& j = *s->job;
    check_bounds(job, j, n);
    // A set equal to its own has its count: the comparison (a memcmp over the span) is cheaper than counting it.
    if (j.shape == JobShape::moldable && s->started() && !stays(i) && n != s->processors.count())
      throw PolicyError(plan_job(id) + " is moldable: its processor count is fixed once it started");
  }
  if (!plan.share.empty()) check_shares(plan, given);
  for (const auto& [id, seconds] : plan.stall)
    if (plan.run.count(id) == 0 || !(seconds >= 0) || std::isinf(seconds))
      throw PolicyError(plan_job(id) + ": a stall of " + std::to_string(seconds) +
                        " s, but it does not run or the stall is not a finite number >= 0");
  // Whether a job runs, for ids in increasing order: a walk along plan.run's ids rather than a look-up per job.
  size_t walk = 0;
  const auto runs = [this, &walk](JobId id) {
    while (walk < run_ids_.size() && run_ids_[walk] < id)
      walk++;
    return walk < run_ids_.size() && run_ids_[walk] == id;
  };
  for (const auto& [id, factor] : plan.slowdown) {
    if (!runs(id)) throw PolicyError(plan_job(id) + " has a slowdown but does not run");
    if (!(factor >= 1) || std::isinf(factor))
      throw PolicyError(plan_job(id) + ": slowdown " + std::to_string(factor) + " is not a finite factor >= 1");
  }
  walk = 0;
  for (const auto& [id, bytes] : plan.image_bytes) {
    if (!runs(id)) throw PolicyError(plan_job(id) + " has an image size but does not run");
    if (!(bytes >= 0) || std::isinf(bytes))
      throw PolicyError(plan_job(id) + ": image of " + std::to_string(bytes) + " bytes is not a finite size >= 0");
  }
}

void TimeSharingDriver::apply_processes(const Plan& plan)
{
  for (const auto& [id, where] : plan.processes)
    process_jobs_.insert(id);
  // Every process of every job made of processes, in job id order, then process order: suspensions, moves and
  // resumptions at one instant, so no processor computes for two jobs at any time.
  static const std::vector<int> kNowhere;
  if (plan.check_processes) runtime_.check_process_flags();
  runtime_.defer_group_records(true); // each job's record brought in line once, after its processes
  // Both passes below take the jobs in increasing id order: their sets in plan.run are found by a walk along it.
  auto run = plan.run.begin();
  const auto apply_job = [&](JobId id, const std::vector<int>& where) {
    const JobState& s = runtime_.table().at(id);
    if (s.finished()) return;
    while (run != plan.run.end() && run->first < id)
      ++run;
    const ResourceSet* computing = run != plan.run.end() && run->first == id ? &run->second : nullptr;
    // Looked up once for the pass over its processes (each process's questions were three look-ups of the job).
    const JobRuntime::ProcessList processes = runtime_.processes_of(id);
    while (processes.count() < static_cast<int>(where.size()))
      runtime_.add_process(id);
    const double image = s.job->memory_kb > 0 ? s.job->memory_kb * 1024.0 : 0.0;
    const int count = processes.count(); // no call below adds a process
    for (int p = 0; p < count; p++) {
      const int now_on = processes.processor(p);
      if (now_on == JobRuntime::kProcessEnded) continue;
      const int target = p < static_cast<int>(where.size()) ? where[static_cast<size_t>(p)] : now_on;
      if (target == Plan::kProcessEnded) {
        runtime_.end_process(id, p);
        decisions_++;
        continue;
      }
      const int to = target == Plan::kProcessNotPlaced ? now_on : target;
      const bool compute = target >= 0 && computing != nullptr && computing->test(target);
      if (to < 0 || (now_on < 0 && !compute)) continue; // not started, and not to compute now
      if (now_on >= 0 && to != now_on && plan.restart_moved_processes) {
        runtime_.restart_process(id, p, to, compute);
        decisions_++;
        continue;
      }
      if (now_on == to && compute == processes.computes(p)) continue;
      if (now_on >= 0 && to != now_on)
        XBT_VERB("process %d of job %ld moves from processor %d to %d", p, static_cast<long>(id), now_on, to);
      runtime_.place_process(id, p, to, compute, image, plan.switch_cost);
      decisions_++;
    }
  };
  if (plan.only_listed_processes) { // the listed jobs alone, in the same (id) order as process_jobs_ holds them
    for (const auto& [id, where] : plan.processes)
      apply_job(id, where);
  } else {
    for (JobId id : process_jobs_) {
      auto listed = plan.processes.find(id);
      apply_job(id, listed != plan.processes.end() ? listed->second : kNowhere);
    }
  }
  runtime_.defer_group_records(false);
  if (plan.check_processes) runtime_.check_process_flags();
}

/* Jobs with shares time-share the processors where their sets meet (Plan::share): none of those processors is given
 * whole to another job, each share fits its set, and every group of jobs linked by shared processors holds at most as
 * many shares as it has processors, which McNaughton's wrap-around rule then realizes without two jobs on one
 * processor at once.
 * The sets are combined a word at a time (within their spans): the processors held by two jobs or more are found
 * first, and only those are followed one by one to link the jobs; a job's processors not held before it are counted
 * from its set less the union of the sets before it. So a plan costs its sets' words and its shared processors, not
 * the machine's processors (10,000 per plan on a machine of 10,000 hosts, most of a Cao run's time). The links are
 * made in the same order as a walk over every processor of every set would make them. */
void TimeSharingDriver::check_shares(const Plan& plan, const ResourceSet& given) const
{
  std::vector<JobId>& ids = shares_ids_;
  std::vector<size_t>& parent = shares_parent_;
  std::vector<double>& first_held = shares_first_held_; // processors each job holds that no job before it holds
  ids.clear();
  parent.clear();
  first_held.clear();
  auto root = [&parent](size_t i) {
    while (parent[i] != i)
      i = parent[i] = parent[parent[i]];
    return i;
  };
  // check() listed the share jobs that run (share_runs_, in id order). When some share's job does not run, the shares
  // before it in id order are checked as usual and then its error is thrown, as a walk along plan.share would.
  size_t checked = share_runs_.size();
  JobId not_running = 0;
  if (checked != plan.share.size()) {
    checked = 0;
    for (const auto& [id, share] : plan.share) {
      if (checked == share_runs_.size() || run_ids_[share_runs_[checked]] != id) {
        not_running = id;
        break;
      }
      checked++;
    }
  }
  if (checked == plan.share.size() && given.empty() && check_chained_shares()) return;
  const int capacity = machine_.resource_count();
  // The union of the sets before each one and the processors held twice, as words (every set here has the machine's
  // capacity: check()), zero between checks outside [touched_first, touched_end). A set's words are combined inline,
  // from its first member's word to its last's: a few calls of ResourceSet per share job (a copy, an intersection,
  // two counts, two unions) cost more than the words themselves on a small machine (plans whose shares are not laid
  // out in id order: check_chained_shares() takes Cao's).
  std::vector<std::uint64_t>& covered = shares_covered_words_;
  std::vector<std::uint64_t>& twice = shares_twice_words_;
  const auto words = static_cast<size_t>((capacity + 63) / 64);
  if (covered.size() != words) {
    covered.assign(words, 0);
    twice.assign(words, 0);
  }
  size_t touched_first = words;
  size_t touched_end = 0;
  const auto clear_share_words = [&covered, &twice](size_t first, size_t end) {
    for (size_t w = first; w < end; w++)
      covered[w] = twice[w] = 0;
  };
  std::vector<std::pair<size_t, size_t>>& spans = shares_spans_; // each share job's words [first, end)
  spans.clear();
  bool any_twice = false;
  for (size_t k = 0; k < checked; k++) {
    const size_t i = share_runs_[k];
    const JobId id = run_ids_[i];
    const double share = run_shares_[i];
    const ResourceSet& set = *run_sets_[i];
    // Its count as check() found it (each word counted once per plan), else counted here.
    const bool counted = share_counts_[k] > 0;
    int count = counted ? share_counts_[k] : 0;
    int overlap = 0;
    bool meets_given = false;
    const auto [first, end] = set.word_span(); // (zero words inside it add nothing below)
    const auto first_word = static_cast<size_t>(first);
    const auto end_word = static_cast<size_t>(std::max(first, end));
    spans.emplace_back(first_word, end_word);
    if (first_word < end_word) {
      for (size_t w = first_word; w < end_word; w++) {
        const std::uint64_t bits = set.word(static_cast<int>(w));
        const std::uint64_t over = bits & covered[w];
        if (!counted) count += word_members(bits);
        // A laid-out plan's sets meet at one processor, if any: a single member is counted without the popcount.
        overlap += (over & (over - 1)) == 0 ? static_cast<int>(over != 0) : word_members(over);
        meets_given = meets_given || (bits & given.word(static_cast<int>(w))) != 0;
        twice[w] |= over;
        any_twice = any_twice || over != 0;
        covered[w] |= bits;
      }
      touched_first = std::min(touched_first, first_word);
      touched_end = std::max(touched_end, end_word);
    }
    if (!share_fits(share, count)) {
      clear_share_words(touched_first, touched_end);
      throw PolicyError(share_error(id, share, set));
    }
    if (meets_given) {
      clear_share_words(touched_first, touched_end);
      throw PolicyError(plan_job(id) + ": processors " + (given & set).to_string() + " given to two jobs");
    }
    ids.push_back(id);
    parent.push_back(parent.size());
    first_held.push_back(static_cast<double>(count - overlap));
  }
  if (checked != plan.share.size()) {
    clear_share_words(touched_first, touched_end);
    throw PolicyError(plan_job(not_running) + " has a share but does not run");
  }
  if (any_twice) {
    if (share_holders_.size() != static_cast<size_t>(capacity))
      share_holders_.assign(static_cast<size_t>(capacity), -1); // -1 between checks: a share job holding the processor
    std::vector<int>& held_once = shares_held_once_; // the entries of share_holders_ set here, -1 again at the end
    held_once.clear();
    for (size_t me = 0; me < checked; me++) {
      const ResourceSet& set = *run_sets_[share_runs_[me]];
      for (size_t w = spans[me].first; w < spans[me].second; w++) // its processors that some job holds twice
        for (std::uint64_t bits = set.word(static_cast<int>(w)) & twice[w]; bits != 0; bits &= bits - 1) {
          const int p = static_cast<int>(w * 64) + __builtin_ctzll(bits);
          long& h = share_holders_[static_cast<size_t>(p)];
          if (h < 0) {
            h = static_cast<long>(me);
            held_once.push_back(p);
          } else {
            parent[root(me)] = root(static_cast<size_t>(h));
          }
        }
    }
    for (int p : held_once)
      share_holders_[static_cast<size_t>(p)] = -1;
  }
  clear_share_words(touched_first, touched_end);
  std::vector<double>& held = shares_held_;
  std::vector<double>& processors = shares_processors_;
  held.assign(ids.size(), 0);
  processors.assign(ids.size(), 0);
  for (size_t i = 0; i < ids.size(); i++) { // each group's shares in the jobs' order; processors: whole numbers
    const size_t group = root(i);
    held[group] += run_shares_[share_runs_[i]];
    processors[group] += first_held[i];
  }
  for (size_t i = 0; i < ids.size(); i++)
    if (parent[i] == i && group_overfull(held[i], processors[i])) // a group's root
      throw PolicyError(group_error(ids[i], held[i], processors[i]));
}

namespace {
/* The lowest and highest members of `set` into `ends` (-1, -1: none), from the ends of its span of words. Written in
 * place, member by member: a pair returned and copied in was read back in one 8-byte load of two 4-byte stores not yet
 * landed, half of check_chained_shares()'s time. */
void set_ends(const ResourceSet& set, std::pair<int, int>& ends)
{
  const auto [first, end] = set.word_span();
  ends.first = -1;
  ends.second = -1;
  for (int w = first; w < end; w++)
    if (const std::uint64_t bits = set.word(w); bits != 0) {
      ends.first = w * 64 + __builtin_ctzll(bits);
      break;
    }
  if (ends.first < 0) return;
  for (int w = end - 1;; w--)
    if (const std::uint64_t bits = set.word(w); bits != 0) {
      ends.second = w * 64 + 63 - __builtin_clzll(bits);
      return;
    }
}
} // namespace

/* check_shares() for share sets laid out along the processors in id order, each from the previous one's last
 * processor or after it (McNaughton's wrap-around over jobs admitted in id order: Cao's layouts under one leaf), and
 * no processor given whole: a set then meets no set before it but at that one processor, held by the previous set, and
 * the groups of linked jobs are runs of consecutive ones. Their shares and processors add up as the general check adds
 * them (in the jobs' order, each job's processors less the one it meets), and the errors are the same, in the same
 * order: a job's share first, then the first group holding too much. False (nothing checked): the sets are not laid
 * out so. */
bool TimeSharingDriver::check_chained_shares() const
{
  std::vector<std::pair<int, int>>& ends = shares_ends_;
  ends.resize(share_runs_.size());
  int last = -1;
  for (size_t k = 0; k < share_runs_.size(); k++) {
    set_ends(*run_sets_[share_runs_[k]], ends[k]);
    if (ends[k].first < 0 || ends[k].first < last) return false;
    last = ends[k].second;
  }
  size_t too_much = share_runs_.size(); // the first group holding more than its processors, by its first job
  double group_held = 0;
  double group_processors = 0;
  double too_much_held = 0;
  double too_much_processors = 0;
  size_t group = 0;
  const auto close_group = [&] {
    if (too_much == share_runs_.size() && group_overfull(group_held, group_processors)) {
      too_much = group;
      too_much_held = group_held;
      too_much_processors = group_processors;
    }
  };
  for (size_t k = 0; k < share_runs_.size(); k++) {
    const size_t i = share_runs_[k];
    const double share = run_shares_[i];
    const int count = share_counts_[k] > 0 ? share_counts_[k] : run_sets_[i]->count();
    if (!share_fits(share, count)) throw PolicyError(share_error(run_ids_[i], share, *run_sets_[i]));
    const bool linked = k > 0 && ends[k].first == ends[k - 1].second; // it meets the previous set there
    if (!linked) {
      if (k > 0) close_group();
      group = k;
      group_held = 0;
      group_processors = 0;
    }
    group_held += share;
    group_processors += static_cast<double>(count - (linked ? 1 : 0));
  }
  if (!share_runs_.empty()) close_group();
  if (too_much < share_runs_.size())
    throw PolicyError(group_error(run_ids_[share_runs_[too_much]], too_much_held, too_much_processors));
  return true;
}

void TimeSharingDriver::decide(double now, const ResourceSet& up)
{
  if (policy_.runs_parallelism_profiles()) runtime_.measure_progress(); // the feedback such policies read
  if (!ended_orders_.empty()) { // the jobs that ended since the last decision leave, the others keep their order
    std::sort(ended_orders_.begin(), ended_orders_.end());
    auto out =
        static_cast<size_t>(std::lower_bound(in_system_order_.begin(), in_system_order_.end(), ended_orders_.front()) -
                            in_system_order_.begin());
    size_t leaving = 0; // the next of ended_orders_ to find
    for (size_t i = out; i < in_system_.size(); i++) {
      if (leaving < ended_orders_.size() && in_system_order_[i] == ended_orders_[leaving]) {
        leaving++;
        continue;
      }
      in_system_[out] = in_system_[i];
      in_system_order_[out] = in_system_order_[i];
      in_system_ids_[out] = in_system_ids_[i];
      out++;
    }
    in_system_.resize(out);
    in_system_order_.resize(out);
    in_system_ids_.resize(out);
    ended_orders_.clear();
  }
  SystemView& view = view_; // kept with the storage of its set of processors up
  view.now = now;
  view.machine = &machine_;
  view.up = up;
  view.jobs.swap(in_system_); // lent to the policy for the call, not copied
  view.replayed = replayed_;
  rotation_ = nullptr; // (a rotation is tried right after a plan that declares it)
  // A plan's replay also needs timers and no images (repeats_ below), which hold or not for the whole run.
  view.replays_possible = replays_possible_ && runtime_.uses_timers() && !runtime_.images_enabled();
  replayed_ = 0;
  lookahead_ = nullptr; // (a lookahead is tried right after its plan or never)
  Plan plan;
  try {
    plan = policy_.plan(view);
  } catch (...) {
    in_system_.swap(view.jobs);
    throw;
  }
  in_system_.swap(view.jobs);
  if (plan.same_as_last) { // nothing to apply (Plan::same_as_last), once it is seen to be the last plan indeed
    if (!plan.run.empty() || !plan.share.empty() || !plan.stall.empty() || !plan.processes.empty() ||
        !plan.slowdown.empty() || !plan.image_bytes.empty())
      throw PolicyError("plan: the last plan again (same_as_last), but with jobs of its own");
    for (size_t i = 0; i < last_run_.size(); i++) {
      const JobId id = last_run_[i];
      if (ended_since_plan_ != 0 && submission_order_.count(id) == 0) continue; // ended since
      const JobState& s = *last_run_states_[i];
      if (!s.holds_processors() || !up.contains(s.processors))
        throw PolicyError("plan: the last plan again (same_as_last), but job " + std::to_string(id) +
                          " no longer holds its processors");
    }
    until_ = plan.until;
    repeats_ = repeats_ && plan.repeats;
    cycle_ = nullptr;
    return;
  }
  find_run_records(plan);
  const std::vector<const JobState*>& run_states = run_states_;
  check(plan, up, run_states);
  const bool none_ended = ended_since_plan_ == 0; // every job of last_run_ is in the system, its order known
  ended_since_plan_ = 0;
  until_ = plan.until;
  repeats_ = plan.repeats && plan.switch_cost == 0 && plan.reallocation_cost == 0 && plan.stall.empty() &&
             plan.processes.empty() && process_jobs_.empty() && runtime_.uses_timers() && !runtime_.images_enabled();
  cycle_ = repeats_ && plan.slowdown.empty() && plan.share.empty() && plan.image_bytes.empty() ? plan.cycle : nullptr;
  if (cycle_) check_cycle(*cycle_, plan, up, now);
  // (Without images, which repeats_ excludes, a plan's image_bytes change nothing the replay models.)
  if (repeats_ && !plan.cycle && plan.slowdown.empty() && plan.share.empty() && plan.lookahead) {
    check_lookahead(*plan.lookahead, plan, up, now);
    lookahead_ = plan.lookahead;
  }
  // A rotation only of jobs made of processes, with a stall at each resumption (JobRuntime::replay_rotation()).
  if (plan.rotation && view.replays_possible && !plan.processes.empty() && plan.only_listed_processes &&
      plan.switch_cost > 0 && plan.switch_cost == plan.rotation->switch_cost && plan.share.empty() &&
      plan.stall.empty() && plan.slowdown.empty() && plan.rotation_phase < plan.rotation->phases &&
      plan.rotation->phase_jobs) {
    rotation_ = plan.rotation;
    rotation_phase_ = plan.rotation_phase;
    rotation_up_ = up;
  }
  const bool images = runtime_.images_enabled();

  // 1. Release: suspensions, and the first half of moves of jobs that cannot be resized; in submission order.
  auto& holders = holders_; // with where the plan puts each (nullptr: nowhere), found by a walk along both by id
  holders.clear();
  size_t planned = 0;
  for (size_t i = 0; i < last_run_.size(); i++) {
    std::uint64_t order = last_run_orders_[i];
    if (!none_ended) {
      auto found = submission_order_.find(last_run_[i]);
      if (found == submission_order_.end()) continue; // ended since
      order = found->second;
    }
    const JobState& s = *last_run_states_[i];
    if (!s.holds_processors()) continue;
    while (planned < run_ids_.size() && run_ids_[planned] < last_run_[i])
      planned++;
    const bool runs = planned < run_ids_.size() && run_ids_[planned] == last_run_[i];
    holders.emplace_back(order, &s, runs ? planned : kNotPlanned);
  }
  // By order, each a job's own (so the order alone sorts them as the whole tuples would), usually sorted already: the
  // plans' ids, in whose order they are found, are mostly in submission order.
  const auto by_order = [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); };
  if (!std::is_sorted(holders.begin(), holders.end(), by_order)) std::sort(holders.begin(), holders.end(), by_order);
  last_run_ = run_ids_;
  last_run_states_ = run_states; // the records check() found, in plan.run's order, for the passes below too
  last_run_orders_ = run_orders_;
  const bool reallots = !plan.share.empty() || !plan.stall.empty(); // reallot() takes every job's new set, below
  for (const auto& [order, state, where] : holders) {
    const JobState& s = *state;
    const JobId id = s.job->id;
    if (process_jobs_.count(id) != 0) continue; // apply_processes()
    if (where == kNotPlanned) {
      XBT_VERB("suspend job %ld", static_cast<long>(id));
      runtime_.suspend(id, images);
      decisions_++;
    } else if (s.job->shape != JobShape::malleable
                   ? !stays(where)
                   : !reallots && s.status != JobStatus::running && !stays(where) && !runtime_.resizable(id)) {
      // A move: resume() on the new processors counts it as a migration. (The cheap tests first.) A malleable job is
      // resized, unless a preparation stage is under way (its image loading or going out): then it moves like any
      // other job, its preparation started over on its new processors. reallot() changes a shared job's set whatever
      // it is doing.
      runtime_.suspend(id, images, false);
    }
  }
  if (reallots) { // shares and the policy's own stalls (Plan::share, Plan::stall)
    // The ids of plan.stall are among plan.run's (check()): walked along it, not looked up per job; each job's share
    // is the one check() found (run_shares_).
    auto stall = plan.stall.begin();
    for (size_t i = 0; i < run_ids_.size(); i++) {
      const JobId id = run_ids_[i];
      const ResourceSet& processors = *run_sets_[i];
      const JobState& s = *run_states[i];
      const bool stalled = stall != plan.stall.end() && stall->first == id;
      const double a = run_shares_[i];
      const double seconds = stalled ? (stall++)->second : 0.0;
      if (s.holds_processors()) {
        runtime_.reallot(id, processors, a, seconds);
        decisions_++;
        continue;
      }
      Preparation prep{plan.switch_cost + seconds, images, runtime_.image_writes_on(processors), slowdown_of(plan, id)};
      if (auto bytes = plan.image_bytes.find(id); bytes != plan.image_bytes.end()) prep.image_bytes = bytes->second;
      prep.share = a;
      if (s.status == JobStatus::waiting)
        runtime_.start(id, processors, std::move(prep));
      else
        runtime_.resume(id, processors, std::move(prep));
      decisions_++;
    }
    policy_.reuse_plan(std::move(plan));
    return;
  }
  // 2 and 3. Acquire: resizes (shrinks first), resumes and starts.
  // Each resize with whether it shrinks the job (its new set within its old one), found once per job rather than in
  // every comparison of the sort.
  std::vector<std::tuple<bool, JobId, const ResourceSet*>>& resizes = resizes_;
  resizes.clear();
  apply_processes(plan);
  for (size_t i = 0; i < run_ids_.size(); i++) {
    const JobId id = run_ids_[i];
    const ResourceSet& processors = *run_sets_[i];
    const JobState& s = *run_states[i];
    if (process_jobs_.count(id) != 0) continue;
    if (s.holds_processors() && !stays(i)) resizes.emplace_back(s.processors.contains(processors), id, &processors);
  }
  std::stable_sort(resizes.begin(), resizes.end(),
                   [](const auto& a, const auto& b) { return std::get<0>(a) && !std::get<0>(b); });
  for (const auto& [shrinks, id, processors] : resizes) {
    const JobState& s = runtime_.table().at(id);
    const int moved_processors = s.processors.count_differences(*processors);
    XBT_VERB("resize job %ld to %s", static_cast<long>(id), processors->to_string().c_str());
    // Without images no write can be in progress: the processors it gains are not worked out (a copy of the set).
    runtime_.resize(
        id, *processors,
        Preparation{plan.reallocation_cost * moved_processors, false,
                    images ? runtime_.image_writes_on(*processors - s.processors) : std::vector<sg4::ActivityPtr>{},
                    slowdown_of(plan, id)});
    decisions_++;
  }
  for (size_t i = 0; i < run_ids_.size(); i++) {
    const JobId id = run_ids_[i];
    const ResourceSet& processors = *run_sets_[i];
    const JobState& s = *run_states[i];
    if (s.holds_processors() || process_jobs_.count(id) != 0) continue;
    Preparation prep{plan.switch_cost, images, runtime_.image_writes_on(processors), slowdown_of(plan, id)};
    if (auto bytes = plan.image_bytes.find(id); bytes != plan.image_bytes.end()) prep.image_bytes = bytes->second;
    XBT_VERB("%s job %ld on %s", s.status == JobStatus::waiting ? "start" : "resume", static_cast<long>(id),
             processors.to_string().c_str());
    if (s.status == JobStatus::waiting)
      runtime_.start(id, processors, std::move(prep));
    else if (run_same_[i] > 0) // its own set, as check() found (an empty set: where it was, not compared again)
      runtime_.resume(id, kWhereItWas, std::move(prep));
    else
      runtime_.resume(id, processors, std::move(prep));
    decisions_++;
  }
  policy_.reuse_plan(std::move(plan)); // its maps' nodes for the policy's next plan
}

/* Whole cycles replayed by the runtime (JobRuntime::cycle_step), boundary by boundary on the clock the scheduler would
 * reach, with the phase the policy's own arithmetic (Cycle::position) puts in force there, from the phase in force now
 * until it is in force again. A cycle is tried once: an advance stops at the first cycle in which something else would
 * happen (a job's end, an arrival), and until that happens and the policy plans anew, a later try would stop there too.
 * A try the runtime refuses is not one.
 * Jobs of the cycle that have not started yet (after an arrival, until the new job's piece comes) are started by the
 * replay: the boundaries up to the one where the last of them starts are replayed one at a time and each kept, their
 * rows as decide() writes them (cycle_rows_as_applied()), as the instants each was decided at before; the whole cycles
 * then go from that boundary, as the advance that followed the decision there did. Each of those instants was a
 * decision (the policy's plan, its check, the runtime's suspensions and resumptions): after an arrival, two on
 * average, half the decision instants of a run. */
CycleAdvance TimeSharingDriver::advance_cycles(double now, const NextVirtualInstant& next_instant)
{
  if (replays_rotation()) return advance_rotation(now, next_instant);
  if (lookahead_ && repeats_) return advance_lookahead(now, next_instant);
  CycleAdvance advance;
  advance.clock = now;
  if (!may_advance_cycles() || !(cycle_->period > 0)) return advance; // (a cycle: the lookahead's case is above)
  const Cycle& cycle = *cycle_;
  const Cycle::Position start = cycle.position(now);
  if (start.phase + 1 >= cycle.phases.size() || cycle.phases.size() < 3) return advance;
  const size_t phases = cycle.phases.size();
  if (!fill_replay_runs(cycle.phases, true)) return advance;
  if (!runtime_.cycle_begin(cycle_ids_, cycle_run_first_, cycle_run_entries_, phases, start.phase, true)) {
    runtime_.cycle_end(cycle.period);
    return advance;
  }
  cycle_phase_seconds_.clear(); // phase p spans [boundaries[p], boundaries[p + 1]) of each period, the last nothing
  for (size_t p = 0; p < phases; p++)
    cycle_phase_seconds_.push_back(
        p + 1 < cycle.boundaries.size() ? (cycle.boundaries[p + 1] - cycle.boundaries[p]) * cycle.period : 0);
  runtime_.cycle_durations(cycle_phase_seconds_, cycle.period);
  size_t origin = start.phase; // the phase whose return ends a whole cycle
  // The next boundary after `from` (whose position is `at`) on the scheduler's clock, with the policy's wake-up before
  // it and its position; its clock -1 when something else would come first. The position of a boundary reached is that
  // of the next step's `from`: Cycle::until() of it, computed once. Written field by field into `b` (a boundary built
  // apart and copied in was read back in 16-byte halves of two 8-byte stores, which the processor cannot forward).
  // (`phases`, not cycle.phases.size(): a local the compiler need not read again after each boundary's stores.)
  auto reach = [&](double from, const Cycle::Position& at, CycleBoundary& b) {
    b.until = cycle.until(at);
    b.clock = next_instant(from, b.until);
    if (b.clock < 0) return;
    // Its phase is most often the one after the last (the first of the next period after the last phase).
    b.at = cycle.position(b.clock, at.phase + 2 < phases ? at.phase + 1 : 0);
  };
  // The next boundary and the runtime's replay up to it, `at` then its position; -1 (`at` unchanged) when something
  // else would come first or the runtime cannot replay it.
  auto step = [&](double from, Cycle::Position& at) {
    CycleBoundary b{};
    reach(from, at, b);
    if (b.clock < 0 || !runtime_.cycle_step(b.clock, b.until, b.at.phase)) return -1.0;
    at = b.at;
    return b.clock;
  };
  // A cycle's boundaries on the clock, found one at a time (they do not depend on the jobs): from `t` at position
  // `at`, until the phase in force at the start comes again (`whole`), something else would come first or more
  // boundaries than phases were found (`done`); `latest`: the largest of their clocks and wake-ups. The first `found`
  // of an array with room for phases + 1, sized once per advance: no size to work out from the vector's ends, no
  // capacity to test and no new element to value-initialize per boundary.
  struct Boundaries {
    double t;
    Cycle::Position at;
    double latest;
    size_t found = 0;
    bool done = false, whole = false;
  };
  auto find_next = [&](CycleBoundary* found, Boundaries& b) {
    if (b.done) return;
    if (b.found > phases) {
      b.done = true;
      return;
    }
    // From the last one found, read where it lies. A copy of its position, read back in 16-byte halves of 8-byte
    // stores not yet landed, stalled the chain of boundaries.
    const double from = b.found == 0 ? b.t : found[b.found - 1].clock;
    const Cycle::Position& at = b.found == 0 ? b.at : found[b.found - 1].at;
    CycleBoundary& next = found[b.found];
    reach(from, at, next);
    if (next.clock < 0) {
      b.done = true;
      return;
    }
    b.found++;
    b.latest = std::max({b.latest, next.clock, next.until});
    b.done = b.whole = next.at.phase == origin;
  };
  double clock = now;
  Cycle::Position at_clock = start; // the position of `clock`
  // The replay ends at `clock`: the policy's wake-up after its plan there, and that plan the phase in force.
  auto finish = [&] {
    runtime_.cycle_end(cycle.period);
    if (advance.instants > 0) {
      advance.clock = clock;
      until_ = cycle.until(at_clock);
      if (at_clock.phase != start.phase) take_phase_as_last_plan(cycle.phases[at_clock.phase]);
    }
    return advance;
  };
  // Boundaries replayed and kept one at a time (cycle_partial()), at most a cycle's, while `more()` and nothing else
  // comes first.
  auto one_by_one = [&](const auto& more) {
    runtime_.cycle_partial();
    for (size_t steps = 0; steps <= phases && more(); steps++) {
      const double next = step(clock, at_clock);
      if (next < 0) break;
      runtime_.cycle_commit_boundary();
      clock = next;
      advance.instants++;
    }
  };
  if (runtime_.cycle_waiting() > 0) {              // the boundaries up to the last first start, as decided one by one
    runtime_.cycle_rows_as_applied(cycle_orders_); // the rows as decide() writes them: suspensions in submission order
    one_by_one([this] { return runtime_.cycle_waiting() > 0; });
    // Whole cycles from there as from a decision there (its advance's conditions): else the next instant decides and
    // tries this cycle again.
    if (runtime_.cycle_waiting() > 0 || at_clock.phase + 1 >= phases) return finish();
    runtime_.cycle_whole();
    origin = at_clock.phase;
  }
  cycle_tried_ = cycle_;
  // Each cycle's boundaries are found before the runtime replays them, which tells it by when they all come: it can
  // then know the cycle kept before replaying it (JobRuntime::cycle_trial_until). The next cycle's are found one per
  // boundary replayed (the chain of arithmetic from one boundary's clock to the next overlaps the replay's own).
  for (auto* found : {&cycle_boundaries_, &next_cycle_boundaries_})
    if (found->size() < phases + 1) found->resize(phases + 1);
  Boundaries these{clock, at_clock, clock};
  while (!these.done)
    find_next(cycle_boundaries_.data(), these);
  while (these.whole) {
    runtime_.cycle_trial_until(these.latest);
    const CycleBoundary& last = cycle_boundaries_[these.found - 1]; // where the cycle ends, and the next begins
    Boundaries next{last.clock, last.at, last.clock};
    bool kept = true;
    for (size_t i = 0; i < these.found; i++) {
      const CycleBoundary& b = cycle_boundaries_[i];
      if (!runtime_.cycle_step(b.clock, b.until, b.at.phase)) {
        kept = false;
        break;
      }
      find_next(next_cycle_boundaries_.data(), next);
    }
    if (!kept) break;
    runtime_.cycle_commit();
    clock = last.clock;
    at_clock = last.at;
    advance.cycles++;
    advance.instants += static_cast<long>(these.found);
    while (!next.done)
      find_next(next_cycle_boundaries_.data(), next);
    std::swap(cycle_boundaries_, next_cycle_boundaries_);
    these = next;
  }
  // Then the boundaries of the cycle in which something else happens, up to the last one before it.
  one_by_one([] { return true; });
  return finish();
}

void TimeSharingDriver::check_lookahead(const Lookahead& ahead, const Plan& plan, const ResourceSet& up, double now)
{
  const size_t phases = ahead.phases.size();
  if (phases == 0 || ahead.instants.size() != phases)
    throw PolicyError("plan: a lookahead of " + std::to_string(phases) + " phases and " +
                      std::to_string(ahead.instants.size()) + " instants");
  if (ahead.instants.front() != plan.until)
    throw PolicyError("plan: the lookahead's first instant is not the plan's until");
  double last = now;
  for (const double t : ahead.instants) {
    if (!(t > last)) throw PolicyError("plan: the lookahead's instants do not ascend from now");
    last = t;
  }
  const Phase& first = ahead.phases.front();
  bool same = first.size() == plan.run.size();
  auto run = plan.run.begin();
  for (size_t i = 0; same && i < first.size(); i++, ++run) {
    same = first[i].first == run->first && first[i].second != nullptr && *first[i].second == run->second;
    // The plan's maps go back to the policy once applied (reuse_plan()), before the lookahead is replayed.
    if (first[i].second == &run->second)
      throw PolicyError("plan: the lookahead's phases point into the plan's own `run` map, which does not outlive the "
                        "plan: keep the sets in the policy until its next plan()");
  }
  if (!same) throw PolicyError("plan: the lookahead's first phase is not the plan itself");
  check_counts_declared(ahead, "plan: a lookahead");
  check_later_phases(ahead, &plan, up, "lookahead phase");
}

void TimeSharingDriver::check_extension(const Lookahead& ahead, const Phase& in_force, const ResourceSet& up,
                                        double now)
{
  const size_t phases = ahead.phases.size();
  if (phases < 2 || ahead.instants.size() != phases)
    throw PolicyError("extend_lookahead: an extension of " + std::to_string(phases) + " phases and " +
                      std::to_string(ahead.instants.size()) + " instants (2 phases or more, an instant each)");
  if (ahead.instants.front() != now)
    throw PolicyError("extend_lookahead: the extension's first instant is not now, the last one's last instant");
  for (size_t i = 1; i < phases; i++)
    if (!(ahead.instants[i] > ahead.instants[i - 1]))
      throw PolicyError("extend_lookahead: the extension's instants do not ascend from now");
  // Phase 0 is the phase in force: the replay takes the jobs' records as that phase's.
  const Phase& first = ahead.phases.front();
  bool same = first.size() == in_force.size();
  for (size_t i = 0; same && i < first.size(); i++)
    same = first[i].first == in_force[i].first && first[i].second != nullptr &&
           (first[i].second == in_force[i].second || *first[i].second == *in_force[i].second);
  if (!same) throw PolicyError("extend_lookahead: the extension's first phase is not the phase in force");
  check_counts_declared(ahead, "extend_lookahead: an extension");
  check_later_phases(ahead, nullptr, up, "extension phase");
}

void TimeSharingDriver::check_later_phases(const Lookahead& ahead, const Plan* plan, const ResourceSet& up,
                                           const char* what)
{
  // The later phases: their jobs by id, each on processors up that no other job of the phase has. (Whether they are
  // the plans plan() would return there is the policy's to keep: simulation.virtual_wakeups false compares.) Their
  // processors and bounds are checked in a run's first lookaheads (and extensions), then in one of every 64: a check
  // of every phase cost a sixth of AP's run, more than a policy's error there needs to show.
  const size_t phases = ahead.phases.size();
  const Phase& first = ahead.phases.front();
  for (size_t p = 1; p < phases; p++)
    check_phase_form(ahead.phases[p], what, p);
  if (lookaheads_seen_++ >= kPhasesChecked && lookaheads_seen_ % 64 != 0) return;
  if (plan != nullptr) refuse_sets_in_plan(*plan, ahead.phases, 1, phases, what);
  const int* counts = ahead.counts.empty() ? nullptr : ahead.counts.data(); // phase by phase
  if (counts != nullptr)
    for (const auto& [id, where] : first)
      if (*counts++ != where->count())
        throw PolicyError(plan_job(id) + " (" + what + " 0): its processors counted as " + std::to_string(counts[-1]) +
                          ", it has " + std::to_string(where->count()));
  for (size_t p = 1; p < phases; p++) {
    check_phase(ahead.phases[p], what, p, up, counts);
    if (counts != nullptr) counts += ahead.phases[p].size();
  }
}

void TimeSharingDriver::refuse_sets_in_plan(const Plan& plan, const std::vector<Phase>& phases, size_t from, size_t to,
                                            const char* what)
{
  // The plan's maps go back to the policy once applied (reuse_plan()), before the replay: a phase's set in them would
  // be read once freed. The addresses of the plan's sets, sorted (kept with their storage).
  std::vector<const ResourceSet*>& own = plan_sets_;
  own.clear();
  for (const auto& [id, where] : plan.run)
    own.push_back(&where);
  std::sort(own.begin(), own.end(), std::less<>());
  for (size_t p = from; p < to; p++)
    for (const auto& [id, where] : phases[p])
      if (std::binary_search(own.begin(), own.end(), where, std::less<>()))
        throw PolicyError(std::string("plan: ") + what + " " + std::to_string(p) +
                          " points into the plan's own `run` map, which does not outlive the plan: keep the sets in "
                          "the policy until they are replayed");
}

void TimeSharingDriver::check_phase_form(const Phase& phase, const char* what, size_t p) const
{
  // The replay walks the phases along the ids of their union: a phase out of order would put a job's set on another.
  const int resources = machine_.resource_count(); // (read once: the compiler could not keep it across the throws)
  for (size_t i = 0; i < phase.size(); i++) {
    const auto& [id, where] = phase[i];
    if (i > 0 && !(phase[i - 1].first < id))
      throw PolicyError(std::string("plan: ") + what + " " + std::to_string(p) + " does not list its jobs by id");
    if (where == nullptr || where->capacity() != resources)
      throw PolicyError(plan_job(id) + " (" + what + " " + std::to_string(p) + "): no processors given");
  }
}

void TimeSharingDriver::check_phase(const Phase& phase, const char* what, size_t p, const ResourceSet& up,
                                    const int* counts) const
{
  ResourceSet& given = check_given_;
  given.clear(machine_.resource_count());
  for (const auto& [id, where] : phase) {
    // Named only for an error (a string per job and phase would cost more than the check).
    const auto job = [what, p, id = id] { return plan_job(id) + " (" + what + " " + std::to_string(p) + ")"; };
    const int n = where->count_if_within_and_apart(up, given);
    if (n <= 0) refuse_processors(job, *where, up, given);
    if (counts != nullptr && *counts++ != n)
      throw PolicyError(job() + ": its processors counted as " + std::to_string(counts[-1]) + ", it has " +
                        std::to_string(n));
    given |= *where;
    // In the system (started once the plan is applied: Lookahead) and within its bounds, as check() asks of a plan.
    const JobState* s = runtime_.table().find(id);
    if (out_of_system(s)) throw PolicyError(job() + " is not in the system");
    check_bounds(job, *s->job, n);
  }
}

void TimeSharingDriver::check_cycle(const Cycle& cycle, const Plan& plan, const ResourceSet& up, double now)
{
  if (&cycle != cycle_checked_.get()) { // a cycle is shared by the plans of one schedule: its form checked once
    const auto& b = cycle.boundaries;
    if (!(cycle.period > 0) || std::isinf(cycle.period) || !std::isfinite(cycle.origin) || !(cycle.epsilon >= 0) ||
        !(cycle.epsilon < 1))
      throw PolicyError("plan: a cycle of period " + std::to_string(cycle.period) + " s from " +
                        std::to_string(cycle.origin) + " s, epsilon " + std::to_string(cycle.epsilon) +
                        " (a finite period > 0, origin and 0 <= epsilon < 1 expected)");
    bool ascending = b.size() >= 2 && b.front() == 0 && b.back() == 1;
    for (size_t i = 1; ascending && i < b.size(); i++)
      ascending = b[i - 1] < b[i];
    if (!ascending)
      throw PolicyError("plan: a cycle's boundaries are not fractions ascending from 0 to 1 (" +
                        std::to_string(b.size()) + " of them)");
    if (cycle.phases.size() != b.size() || !cycle.phases.back().empty())
      throw PolicyError("plan: a cycle of " + std::to_string(b.size()) + " boundaries has " +
                        std::to_string(cycle.phases.size()) + " phases (one per boundary, the last one empty)");
    for (size_t p = 0; p + 1 < cycle.phases.size(); p++)
      check_phase_form(cycle.phases[p], "cycle phase", p);
    refuse_sets_in_plan(plan, cycle.phases, 0, cycle.phases.size() - 1, "cycle phase");
    if (cycles_seen_++ < kPhasesChecked || cycles_seen_ % 64 == 0)
      for (size_t p = 0; p + 1 < cycle.phases.size(); p++)
        check_phase(cycle.phases[p], "cycle phase", p, up);
    cycle_checked_ = plan.cycle;
  }
  // The plan is the phase in force now, up to its wake-up: the replay starts from that phase.
  const Cycle::Position at = cycle.position(now);
  if (plan.until != cycle.until(at))
    throw PolicyError("plan: its until (" + std::to_string(plan.until) + " s) is not its cycle's next boundary (" +
                      std::to_string(cycle.until(at)) + " s)");
  const Phase& phase = cycle.phases[at.phase];
  bool same = phase.size() == plan.run.size();
  auto run = plan.run.begin();
  for (size_t i = 0; same && i < phase.size(); i++, ++run)
    same = phase[i].first == run->first && *phase[i].second == run->second;
  if (!same) throw PolicyError("plan: it is not its cycle's phase in force now (" + std::to_string(at.phase) + ")");
}

bool TimeSharingDriver::fill_replay_jobs(const std::vector<Phase>& phases, bool waiting)
{
  // Each job of the phases with where it computes in each (vectors reused from one advance to the next). The phases
  // list their jobs by id: their union is merged phase by phase, most often the jobs seen already.
  // (The walks read through local pointers: through the vectors' members, the compiler loaded them again per entry.)
  cycle_ids_.clear();
  for (const auto& run : phases) {
    const JobId* id = cycle_ids_.data();
    const JobId* const ids_end = id + cycle_ids_.size();
    if (run.size() == cycle_ids_.size()) { // most often the same jobs as the union so far, entry by entry
      size_t i = 0;
      while (i < run.size() && run[i].first == id[i])
        i++;
      if (i == run.size()) continue;
    }
    bool seen = true;
    for (const auto& entry : run) {
      while (id != ids_end && *id < entry.first)
        id++;
      if (id == ids_end || *id != entry.first) {
        seen = false;
        break;
      }
    }
    if (seen) continue;
    cycle_ids_merged_.clear();
    size_t j = 0;
    for (const auto& entry : run) {
      while (j < cycle_ids_.size() && cycle_ids_[j] < entry.first)
        cycle_ids_merged_.push_back(cycle_ids_[j++]);
      if (j < cycle_ids_.size() && cycle_ids_[j] == entry.first) j++;
      cycle_ids_merged_.push_back(entry.first);
    }
    cycle_ids_merged_.insert(cycle_ids_merged_.end(), cycle_ids_.begin() + static_cast<std::ptrdiff_t>(j),
                             cycle_ids_.end());
    cycle_ids_.swap(cycle_ids_merged_);
  }
  // Their records and submission orders, found by a walk along the jobs in the system when submission order is id
  // order (a generated workload's), looked up otherwise (a look-up per job and advance was a fortieth of a run). The
  // runtime refuses a job that has ended (or, without `waiting`, has not started): known from the records, before
  // the phases' table is built.
  cycle_states_.clear();
  cycle_orders_.clear();
  size_t k = 0;
  for (const JobId id : cycle_ids_) {
    while (k < in_system_ids_.size() && in_system_ids_[k] < id)
      k++;
    const bool walked = k < in_system_ids_.size() && in_system_ids_[k] == id;
    const auto [s, order] = walked ? std::pair{in_system_[k], in_system_order_[k]} : look_up_record(id);
    if (s == nullptr || (s->status != JobStatus::running && s->status != JobStatus::suspended &&
                         !(waiting && s->status == JobStatus::waiting)))
      return false;
    cycle_states_.push_back(s);
    cycle_orders_.push_back(order);
  }
  return true;
}

bool TimeSharingDriver::fill_replay_table(const std::vector<Phase>& phases, bool waiting, const int* counts)
{
  if (!fill_replay_jobs(phases, waiting)) return false;
  const size_t count = phases.size();
  cycle_where_.assign(cycle_ids_.size() * count, nullptr);
  const JobId* const ids = cycle_ids_.data();
  const ResourceSet** const where_of = cycle_where_.data();
  // With counts, each entry's count beside its set (-1 where the job computes not).
  int* count_of = nullptr;
  if (counts != nullptr) {
    cycle_counts_.assign(cycle_ids_.size() * count, -1);
    count_of = cycle_counts_.data();
  } else {
    cycle_counts_.clear();
  }
  for (size_t p = 0; p < count; p++) {
    const Phase& run = phases[p];
    if (run.size() == cycle_ids_.size()) { // every job of the union, in its order
      for (size_t j = 0; j < run.size(); j++)
        where_of[j * count + p] = run[j].second;
      if (count_of != nullptr)
        for (size_t j = 0; j < run.size(); j++)
          count_of[j * count + p] = *counts++;
      continue;
    }
    if (cycle_ids_.size() <= kIdsWalked) { // a walk along the phase and the ids, both by id
      size_t j = 0;
      for (const auto& [id, where] : run) {
        while (ids[j] < id) // (there: the ids are the union of the phases' jobs)
          j++;
        where_of[j * count + p] = where;
        if (count_of != nullptr) count_of[j * count + p] = *counts++;
      }
      continue;
    }
    // Each entry found among the ids by a search from the last one's (both by id): a phase names a few of many jobs
    // (under EQUI-EPOCH, an epoch's of a cycle of hundreds of jobs and dozens of phases), and a walk along the ids from
    // the first, phase after phase, was a pass over the whole table.
    const JobId* const ids_end = ids + cycle_ids_.size();
    const JobId* at = ids;
    for (const auto& [id, where] : run) {
      at = std::lower_bound(at, ids_end, id); // (there: the ids are the union of the phases' jobs)
      const size_t j = static_cast<size_t>(at - ids);
      where_of[j * count + p] = where;
      if (count_of != nullptr) count_of[j * count + p] = *counts++;
    }
  }
  return true;
}

bool TimeSharingDriver::fill_replay_runs(const std::vector<Phase>& phases, bool waiting)
{
  if (!fill_replay_jobs(phases, waiting)) return false;
  // Each phase's entries, by job then by phase: a count of each job's entries, a sum of the counts before each job
  // (where its entries begin), then each entry put in its job's next place, phase after phase. Each entry's job is
  // found once among the ids, by a search from the last one's (both by id), and kept for the second walk.
  const size_t jobs = cycle_ids_.size();
  cycle_run_first_.assign(jobs + 1, 0);
  cycle_entry_jobs_.clear();
  const JobId* const ids = cycle_ids_.data();
  const JobId* const ids_end = ids + jobs;
  size_t* const first = cycle_run_first_.data();
  for (const Phase& run : phases) {
    const JobId* at = ids;
    for (const auto& entry : run) {
      at = std::lower_bound(at, ids_end, entry.first); // (there: the ids are the union of the phases' jobs)
      const size_t j = static_cast<size_t>(at - ids);
      cycle_entry_jobs_.push_back(j);
      first[j + 1]++;
    }
  }
  for (size_t j = 0; j < jobs; j++)
    first[j + 1] += first[j];
  cycle_run_next_.assign(cycle_run_first_.begin(), cycle_run_first_.end() - 1);
  cycle_run_entries_.resize(cycle_entry_jobs_.size());
  size_t* const next = cycle_run_next_.data();
  JobRuntime::CyclePhaseEntry* const entries = cycle_run_entries_.data();
  const size_t* job = cycle_entry_jobs_.data();
  for (size_t p = 0; p < phases.size(); p++)
    for (const auto& entry : phases[p])
      entries[next[*job++]++] = {p, entry.second};
  return true;
}

void TimeSharingDriver::take_phase_as_last_plan(const Phase& run)
{
  // Its jobs, by id (plan.run's order), with the records and orders fill_replay_table() found (a walk along both).
  last_run_.clear();
  last_run_states_.clear();
  last_run_orders_.clear();
  size_t k = 0;
  for (const auto& [id, where] : run) {
    while (cycle_ids_[k] < id)
      k++;
    last_run_.push_back(id);
    last_run_states_.push_back(cycle_states_[k]);
    last_run_orders_.push_back(cycle_orders_[k]);
  }
}

/* A lookahead is replayed like the last, partial, cycle of advance_cycles(): boundary by boundary, each kept as it is
 * reached. A boundary is replayed only when the scheduler's clock would land exactly on the instant the policy planned
 * it for: the policy's plan there follows from that instant (its usage accounting), and another clock would be
 * another plan. */
CycleAdvance TimeSharingDriver::advance_lookahead(double now, const NextVirtualInstant& next_instant)
{
  CycleAdvance advance;
  advance.clock = now;
  std::shared_ptr<const Lookahead> tried = std::move(lookahead_); // tried once (moved from: empty)
  double clock = now;
  for (;;) {
    const Lookahead& ahead = *tried;
    const size_t phases = ahead.phases.size(); // as many as its instants (check_lookahead(), check_extension())
    if (phases < 2) break;
    if (!fill_replay_table(ahead.phases, false, ahead.counts.empty() ? nullptr : ahead.counts.data())) break;
    // The rows as decide() writes them, suspensions in submission order: given first, the runtime lists each step's
    // changes in that order as it begins.
    runtime_.cycle_rows_as_applied(cycle_orders_);
    if (!runtime_.cycle_begin(cycle_ids_, cycle_where_, phases, 0, false, &cycle_counts_)) {
      runtime_.cycle_end(0);
      break;
    }
    runtime_.cycle_partial();
    size_t phase = 0;
    while (phase + 1 < phases) {
      const double until = ahead.instants[phase];
      if (next_instant(clock, until) != until || !runtime_.cycle_step(until, until, phase + 1)) break;
      runtime_.cycle_commit_boundary();
      clock = until;
      phase++;
    }
    runtime_.cycle_end(0);
    if (phase == 0) break;
    advance.clock = clock;
    advance.instants += static_cast<long>(phase);
    until_ = ahead.instants[phase];
    replayed_ = phase;
    take_phase_as_last_plan(ahead.phases[phase]);
    // Replayed whole, and the policy's wake-up after its last phase is the next thing to happen: it may extend the
    // lookahead there (TimeSharingPolicy::extend_lookahead), learning only that its wake-up has come. next_instant()
    // does not see the jobs' timers (the replay's steps check them): a job ending by then, as it would end a virtual
    // wake-up in the scheduler's loop (virtual_wakeup_instant()'s `others`), comes first.
    if (phase + 1 < phases || next_instant(clock, until_) != until_ || !(until_ < runtime_.next_timer())) break;
    std::shared_ptr<const Lookahead> more = policy_.extend_lookahead(until_, view_.up);
    if (!more) break;
    check_extension(*more, ahead.phases.back(), view_.up, until_);
    replayed_ = 0; // (the next plan() counts the extension's instants replayed, from its phase 0: the phase in force)
    tried = std::move(more);
  }
  return advance;
}

CycleAdvance TimeSharingDriver::advance_rotation(double now, const NextVirtualInstant& next_instant)
{
  CycleAdvance advance;
  advance.clock = now;
  const Rotation& rotation = *rotation_;
  JobRuntime::RotationRequest request;
  request.phases = rotation.phases;
  request.phase_jobs = &rotation.phase_jobs;
  request.phase = rotation_phase_;
  request.until = until_;
  request.quantum = rotation.quantum;
  request.switch_cost = rotation.switch_cost;
  request.up = &rotation_up_;
  // (By reference: a std::function holds a lambda of one pointer in place, a copy of the rule on the heap.)
  const JobRuntime::RotationReplay replay = runtime_.replay_rotation(
      request, now, [&next_instant](double clock, double until) { return next_instant(clock, until); });
  if (!replay.retry) rotation_tried_ = rotation_;
  if (replay.boundaries == 0) return advance;
  decisions_ += replay.decisions;
  policy_.rotation_replayed(replay.boundaries, replay.last_boundary);
  until_ = replay.last_boundary + rotation.quantum; // the policy's next wake-up: its slice's start + quantum
  advance.clock = replay.clock;
  advance.instants = replay.boundaries;
  return advance;
}

} // namespace jobsched
