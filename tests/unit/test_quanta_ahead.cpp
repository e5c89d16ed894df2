/* The machinery of a lookahead (plugin/policy/quanta_ahead.hpp, lookahead_pace.hpp) apart from any
 * policy: the pace (how many phases, the pauses after lookaheads reached and not replayed), and QuantaAhead driving a
 * toy policy whose state is a count of steps (the journal taken back to the boundary replayed, the events held back
 * and let in after it, in order, the phases' sets, no lookahead where nothing can be replayed). Every expected value is
 * worked out here from the rules the headers state. */
#include "policy/lookahead_pace.hpp"
#include "policy/quanta_ahead.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

using namespace jobsched;

namespace {

/* The plans the pace pauses for from now: calls of try_now() answering false before the first true (which it uses). */
long pause_length(LookaheadPace& pace)
{
  long paused = 0;
  while (!pace.try_now())
    if (++paused > 100000) return -1;
  return paused;
}

} // namespace

/* Four lookaheads in a row reached and not replayed pause the next 16 plans, each further one twice as many as the
 * last, up to 1024; the plans in between try again. */
TEST(LookaheadPace, PausesDoubleAfterTheFourthFruitlessLookahead)
{
  LookaheadPace pace;
  for (int i = 0; i < 3; i++) {
    pace.record(0, true);
    EXPECT_EQ(pause_length(pace), 0) << "after " << i + 1 << " fruitless";
  }
  long expected = 16;
  for (int k = 4; k <= 12; k++) {
    pace.record(0, true);
    EXPECT_EQ(pause_length(pace), expected) << "after " << k << " fruitless";
    expected = std::min(2 * expected, 1024L);
  }
}

/* A lookahead interrupted before its first boundary (reached false) neither counts as fruitless nor resets the count;
 * one with a boundary replayed resets it. */
TEST(LookaheadPace, InterruptedLookaheadsDoNotCountAndReplayedOnesReset)
{
  LookaheadPace pace;
  for (int i = 0; i < 3; i++)
    pace.record(0, true);
  for (int i = 0; i < 10; i++) {
    pace.record(0, false);
    EXPECT_EQ(pause_length(pace), 0);
  }
  pace.record(0, true); // the fourth fruitless in a row
  EXPECT_EQ(pause_length(pace), 16);

  LookaheadPace reset;
  for (int i = 0; i < 3; i++)
    reset.record(0, true);
  reset.record(1, true);
  for (int i = 0; i < 3; i++) {
    reset.record(0, true);
    EXPECT_EQ(pause_length(reset), 0) << "count not reset by a replay";
  }
  reset.record(0, true);
  EXPECT_EQ(pause_length(reset), 16);
}

/* A lookahead has the mean of the phases replayed (16 at first, each new count weighing 1/8) plus 8 phases, at most
 * 256: the mean computed here step by step. */
TEST(LookaheadPace, LengthFollowsTheMeanReplayed)
{
  LookaheadPace pace;
  EXPECT_EQ(pace.most_phases(), 24U);
  double mean = 16;
  for (size_t replayed : {40U, 0U, 0U, 3U, 100U, 7U}) {
    pace.record(replayed, true);
    mean += (static_cast<double>(replayed) - mean) / 8;
    EXPECT_EQ(pace.most_phases(), static_cast<size_t>(std::floor(mean)) + 8) << "mean " << mean;
  }
  for (int i = 0; i < 200; i++)
    pace.record(5000, true);
  EXPECT_EQ(pace.most_phases(), 256U);
  for (int i = 0; i < 200; i++)
    pace.record(0, false);
  EXPECT_EQ(pace.most_phases(), 8U);
}

namespace {

/* A policy whose state is the number of steps taken; it steps at every instant before `steps_until`, one second per
 * step, and step k (from 1) puts job 1 on processor k; plan() itself (phase 0) on processor 0. It logs the state
 * restored, the steps redone and the events let in. */
struct Toy {
  QuantaAhead<int>* ahead = nullptr;
  int steps = 0;
  double steps_until = 0;
  bool wrap = false; // step k on processor k mod 64 (else step 64 on is an error)
  JobId width = 1;   // jobs 1 to `width` on the step's set
  ResourceSet plan_set = ResourceSet(64);
  std::vector<std::string> log;

  std::vector<ResourceSet> singles; // {0}, {1}... {63}

  Toy()
  {
    plan_set.set(0);
    for (int i = 0; i < 64; i++) {
      singles.emplace_back(64);
      singles.back().set(i);
    }
  }
  void first_phase(Phase& phase, std::vector<int>& counts)
  {
    phase.emplace_back(1, &plan_set);
    counts.push_back(1);
  }
  bool steps_at(double t) const { return t < steps_until; }
  double step_ahead(double t, Phase& phase, std::vector<int>& counts)
  {
    steps++;
    ResourceSet& set = ahead->new_set();
    EXPECT_TRUE(ahead->stepping());
    set = singles.at(static_cast<size_t>(wrap ? steps % 64 : steps));
    for (JobId id = 1; id <= width; id++) {
      phase.emplace_back(id, &set);
      counts.push_back(1);
    }
    return t + 1;
  }
  void save_state(int& to) const { to = steps; }
  void restore_state(const int& from, const Phase& phase, const int* counts)
  {
    // The phase after which `from` was saved, the lookahead's first: a plan's (plan_set), or for an extension step
    // k's (processor k), with its counts.
    const ResourceSet* on = phase.at(0).second;
    if (on != &plan_set) {
      EXPECT_TRUE(on->test(wrap ? from % 64 : from)) << "restoring " << from;
    }
    EXPECT_EQ(phase.size(), on == &plan_set ? size_t{1} : static_cast<size_t>(width));
    EXPECT_TRUE(counts != nullptr && counts[0] == 1);
    steps = from;
    log.push_back("restore " + std::to_string(from));
  }
  void redo_step(double t, const Phase& phase, const int* counts)
  {
    // Step k again, at its instant k (the plan's wake-up being 1), from the state after step k - 1: its phase has
    // processor k, for `width` jobs, each of count 1.
    steps++;
    EXPECT_EQ(t, static_cast<double>(steps));
    EXPECT_EQ(phase.size(), static_cast<size_t>(width));
    EXPECT_TRUE(phase.at(0).second->test(wrap ? steps % 64 : steps)) << "redoing step " << steps;
    for (size_t i = 0; i < phase.size(); i++)
      EXPECT_TRUE(counts != nullptr && counts[i] == 1);
    log.push_back("redo " + std::to_string(steps));
  }
  void let_in(const Job& job) { log.push_back("in " + std::to_string(job.id)); }
  void let_out(JobId id) { log.push_back("out " + std::to_string(id)); }
};

SystemView view_at(double now, size_t replayed = 0, bool replays_possible = true)
{
  SystemView view;
  view.now = now;
  view.replayed = replayed;
  view.replays_possible = replays_possible;
  return view;
}

} // namespace

/* A plan at 0 whose wake-up is 1, the toy stepping before 6: phases 0 (the plan) and 1..5 (steps at 1..5), instants
 * 1..6, each step's job on its own processor, on sets that stay put; the toy's state is then 5 steps. At the next
 * plan, the state is the one after the phase the scheduler replayed to (replayed r: r steps), the first phase's
 * restored and steps 1..r redone at their instants on their phases, and none is restored when it replayed every
 * phase. */
TEST(QuantaAhead, StateTakenBackToTheBoundaryReplayed)
{
  for (size_t replayed = 0; replayed <= 5; replayed++) {
    QuantaAhead<int> ahead;
    Toy toy;
    toy.ahead = &ahead;
    toy.steps_until = 6;
    ASSERT_TRUE(ahead.worth_trying(view_at(0)));
    auto la = ahead.look_ahead(1, toy);
    ASSERT_NE(la, nullptr);
    EXPECT_FALSE(ahead.stepping());
    EXPECT_TRUE(ahead.out());
    ASSERT_EQ(la->phases.size(), 6U);
    EXPECT_EQ(la->instants, (std::vector<double>{1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(la->counts, std::vector<int>(6, 1)); // the policy's, one per entry
    for (size_t p = 0; p < 6; p++) {
      ASSERT_EQ(la->phases[p].size(), 1U);
      EXPECT_EQ(la->phases[p][0].first, 1);
      EXPECT_EQ(la->phases[p][0].second->count(), 1);
      EXPECT_TRUE(la->phases[p][0].second->test(static_cast<int>(p))) << "phase " << p;
    }
    EXPECT_EQ(toy.steps, 5);
    ahead.take_up_replay(view_at(1.0 + static_cast<double>(replayed), replayed), toy);
    EXPECT_FALSE(ahead.out());
    EXPECT_EQ(toy.steps, static_cast<int>(replayed));
    // The first phase's state restored, then the steps replayed redone; nothing when all of it was replayed.
    std::vector<std::string> expected;
    if (replayed < 5) {
      expected.push_back("restore 0");
      for (size_t k = 1; k <= replayed; k++)
        expected.push_back("redo " + std::to_string(k));
    }
    EXPECT_EQ(toy.log, expected) << "replayed " << replayed;
  }
}

/* Ends and submissions that come while a lookahead is out wait for the next plan, and are let in after the state is
 * taken back, in the order they came (job 7 submitted, then ended: requeued). None is held back while none is out. */
TEST(QuantaAhead, HeldBackEventsComeInOrderAfterTheState)
{
  QuantaAhead<int> ahead;
  Toy toy;
  toy.ahead = &ahead;
  toy.steps_until = 4;
  Job seven;
  seven.id = 7;
  Job nine;
  nine.id = 9;
  EXPECT_FALSE(ahead.hold_back_end(3));
  EXPECT_FALSE(ahead.hold_back_submission(seven));
  ASSERT_NE(ahead.look_ahead(1, toy), nullptr);
  EXPECT_TRUE(ahead.hold_back_end(3));
  EXPECT_TRUE(ahead.hold_back_submission(seven));
  EXPECT_TRUE(ahead.hold_back_end(7));
  EXPECT_TRUE(ahead.hold_back_submission(nine));
  ahead.take_up_replay(view_at(1.5, 1), toy);
  EXPECT_EQ(toy.log, (std::vector<std::string>{"restore 0", "redo 1", "out 3", "in 7", "out 7", "in 9"}));
  EXPECT_FALSE(ahead.hold_back_end(9));
  toy.log.clear();
  ahead.take_up_replay(view_at(2), toy); // none out: nothing again
  EXPECT_TRUE(toy.log.empty());
}

/* No step at the plan's wake-up: no lookahead, the state phase 0's, none out. */
TEST(QuantaAhead, NoLookaheadWithoutAStep)
{
  QuantaAhead<int> ahead;
  Toy toy;
  toy.ahead = &ahead;
  toy.steps = 3;
  toy.steps_until = 1; // the wake-up, 1, is not before it
  EXPECT_EQ(ahead.look_ahead(1, toy), nullptr);
  EXPECT_FALSE(ahead.out());
  EXPECT_EQ(toy.steps, 3);
  EXPECT_FALSE(ahead.hold_back_end(2));
}

/* The pace sets the length (half its 24 phases at first, half its 22 once a lookahead was reached and not replayed:
 * mean 14), and four
 * lookaheads reached without a replay pause the next 16 plans; an interrupted one (the next plan before its first
 * instant) does not count. Where nothing can be replayed (SystemView::replays_possible false) no plan is worth one. */
TEST(QuantaAhead, PaceAndReplaysDecideWhetherToTry)
{
  QuantaAhead<int> ahead;
  Toy toy;
  toy.ahead = &ahead;
  toy.steps_until = 1000;
  EXPECT_FALSE(ahead.worth_trying(view_at(0, 0, false)));
  auto first = ahead.look_ahead(1, toy);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->phases.size(), 12U);
  ahead.take_up_replay(view_at(0.5), toy); // interrupted: mean 14
  EXPECT_EQ(ahead.look_ahead(1, toy)->phases.size(), 11U);
  ahead.take_up_replay(view_at(1), toy); // reached (at its first instant), not replayed: the first in a row
  for (int i = 0; i < 3; i++) {
    ASSERT_TRUE(ahead.worth_trying(view_at(1))) << i;
    const auto la = ahead.look_ahead(2, toy); // (the last one's object, not held elsewhere: reused)
    ASSERT_NE(la, nullptr);
    EXPECT_EQ(la->counts.size(), la->phases.size()) << i; // the last one's counts cleared first
    ahead.take_up_replay(view_at(2), toy); // the second, third and fourth in a row
  }
  for (int i = 0; i < 16; i++)
    EXPECT_FALSE(ahead.worth_trying(view_at(2))) << i;
  EXPECT_TRUE(ahead.worth_trying(view_at(2)));
}

/* A replay of more phases than the lookahead has after phase 0 is a logic error, not a state restored from nowhere. */
TEST(QuantaAhead, ReplayOfMorePhasesThanItHadIsRefused)
{
  QuantaAhead<int> ahead;
  Toy toy;
  toy.ahead = &ahead;
  toy.steps_until = 3; // phases 0, 1 (at 1), 2 (at 2)
  ASSERT_NE(ahead.look_ahead(1, toy), nullptr);
  EXPECT_THROW(ahead.take_up_replay(view_at(3, 3), toy), std::logic_error);
}

/* A lookahead replayed whole (12 phases, half the pace's first length: steps 1..11 at 1..11, last instant 12)
 * extended at its last instant: phase 0 is its last phase on the same set (processor 11), which the extension's steps
 * leave as it is; then steps 12.. from the toy's state (11 steps), one per second, as many phases as the pace's length
 * once the lookahead counts as replayed whole (mean 16 + (11 - 16) / 8: 23 phases); the lookahead the driver holds is
 * another object, unchanged. The next plan takes the state back to the extension's boundary replayed, as for a plan's
 * lookahead. No extension at another instant, after an event came (held back), or where the toy does not step. */
TEST(QuantaAhead, ExtensionStepsOnFromTheLastPhase)
{
  for (const size_t replayed : {size_t{0}, size_t{5}, size_t{22}}) {
    QuantaAhead<int> ahead;
    Toy toy;
    toy.ahead = &ahead;
    toy.steps_until = 100;
    const auto la = ahead.look_ahead(1, toy);
    ASSERT_NE(la, nullptr);
    ASSERT_EQ(la->phases.size(), 12U);
    const ResourceSet* last_set = la->phases.back()[0].second;
    EXPECT_EQ(ahead.extend(11, toy), nullptr); // not its last instant
    EXPECT_EQ(toy.steps, 11);
    const auto more = ahead.extend(12, toy);
    ASSERT_NE(more, nullptr);
    EXPECT_NE(more.get(), la.get());
    ASSERT_EQ(la->phases.size(), 12U); // the driver's, as it was
    EXPECT_EQ(la->phases.back()[0].second, last_set);
    ASSERT_EQ(more->phases.size(), 23U);
    ASSERT_EQ(more->instants.size(), 23U);
    EXPECT_EQ(more->counts, std::vector<int>(23, 1));
    for (size_t p = 0; p < 23; p++) {
      EXPECT_EQ(more->instants[p], 12.0 + static_cast<double>(p));
      ASSERT_EQ(more->phases[p].size(), 1U);
      const ResourceSet& set = *more->phases[p][0].second;
      EXPECT_EQ(set.count(), 1) << "phase " << p;
      EXPECT_TRUE(set.test(11 + static_cast<int>(p))) << "phase " << p;
    }
    EXPECT_EQ(more->phases[0][0].second, last_set);
    EXPECT_EQ(toy.steps, 11 + 22);
    ahead.take_up_replay(view_at(12.0 + static_cast<double>(replayed), replayed), toy);
    EXPECT_FALSE(ahead.out());
    EXPECT_EQ(toy.steps, 11 + static_cast<int>(replayed));
    // The extension's first phase's state (11 steps) restored, then its steps replayed redone (12, 13...); replayed
    // whole, the state is the extension's last phase's, the toy's own.
    std::vector<std::string> expected;
    if (replayed < 22) {
      expected.push_back("restore 11");
      for (size_t k = 1; k <= replayed; k++)
        expected.push_back("redo " + std::to_string(11 + k));
    }
    EXPECT_EQ(toy.log, expected) << "replayed " << replayed;
  }
  QuantaAhead<int> ahead;
  Toy toy;
  toy.ahead = &ahead;
  toy.steps_until = 100;
  ASSERT_NE(ahead.look_ahead(1, toy), nullptr);
  ahead.hold_back_end(3);
  EXPECT_EQ(ahead.extend(12, toy), nullptr); // an end came
  toy.log.clear();
  ahead.take_up_replay(view_at(12, 11), toy);
  EXPECT_EQ(toy.log, (std::vector<std::string>{"out 3"}));
  toy.steps_until = 5; // phases 0..4, last instant 5, where the toy does not step
  ASSERT_NE(ahead.look_ahead(1, toy), nullptr);
  EXPECT_EQ(ahead.extend(5, toy), nullptr);
}

/* The pace counts each lookahead and extension on its own: a lookahead replayed whole (11 after phase 0: mean 16 + (11
 * - 16) / 8 = 15.375), then its extension's 10 (15.375 + (10 - 15.375) / 8 = 14.70...: length 22) make the next
 * lookahead 11 phases long. */
TEST(QuantaAhead, PaceCountsEachLookaheadAndExtension)
{
  QuantaAhead<int> ahead;
  Toy toy;
  toy.ahead = &ahead;
  toy.steps_until = 1000;
  ASSERT_EQ(ahead.look_ahead(1, toy)->phases.size(), 12U);
  ASSERT_EQ(ahead.extend(12, toy)->phases.size(), 23U);
  ahead.take_up_replay(view_at(22, 10), toy);
  EXPECT_EQ(ahead.look_ahead(23, toy)->phases.size(), 11U);
}

/* Each step of a chain of extensions takes a set, and none is freed before the next plan(): the extensions stop once
 * the sets taken since the plan reach 4,096 (the last one began below that), and the next plan's lookahead takes them
 * again from the first. */
TEST(QuantaAhead, ExtensionsStopOnceTheirSetsReachTheBound)
{
  QuantaAhead<int> ahead;
  Toy toy;
  toy.ahead = &ahead;
  toy.steps_until = 1e9;
  toy.wrap = true;
  std::shared_ptr<const Lookahead> out = ahead.look_ahead(1, toy);
  size_t sets = out->phases.size() - 1; // one per step
  size_t before_last = 0;
  for (;;) {
    std::shared_ptr<const Lookahead> more = ahead.extend(out->instants.back(), toy);
    if (!more) break;
    before_last = sets;
    sets += more->phases.size() - 1;
    out = std::move(more);
    ASSERT_LT(sets, 8192U);
  }
  EXPECT_GE(sets, 4096U);
  EXPECT_LT(before_last, 4096U);
  ahead.take_up_replay(view_at(out->instants.back(), out->phases.size() - 1), toy);
  const std::shared_ptr<const Lookahead> next = ahead.look_ahead(out->instants.back(), toy);
  ASSERT_NE(next, nullptr);
  EXPECT_NE(ahead.extend(next->instants.back(), toy), nullptr);
}

/* A lookahead shorter than the one before in the same Lookahead, then a longer one: the phases past the short one's
 * end come back with the storage they had (the long phases' 8 entries), not grown again from nothing (their
 * reallocations were 2% of AP's instructions), and hold only their own step's entries. */
TEST(QuantaAhead, PhasesCutOffKeepTheirStorageForTheNextLookahead)
{
  QuantaAhead<int> ahead;
  Toy toy;
  toy.ahead = &ahead;
  toy.steps_until = 100;
  toy.width = 8;
  size_t long_phases = 0;
  {
    const auto first = ahead.look_ahead(1, toy);
    ASSERT_NE(first, nullptr);
    long_phases = first->phases.size();
    ASSERT_EQ(long_phases, 12U);
    for (size_t p = 1; p < long_phases; p++)
      ASSERT_EQ(first->phases[p].size(), 8U);
  } // (dropped, as the driver drops a lookahead: the next one is filled in the same Lookahead)
  ahead.take_up_replay(view_at(12, 11), toy);
  toy.width = 1;
  toy.steps_until = 15; // steps at 12, 13 and 14: phases 0 to 3
  const Lookahead* filled = nullptr;
  {
    const auto short_one = ahead.look_ahead(12, toy);
    ASSERT_NE(short_one, nullptr);
    ASSERT_EQ(short_one->phases.size(), 4U);
    filled = short_one.get();
  }
  ahead.take_up_replay(view_at(15, 3), toy);
  toy.steps_until = 100;
  const auto again = ahead.look_ahead(15, toy);
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(again.get(), filled);
  ASSERT_GT(again->phases.size(), 6U); // (shorter than the first: the pace counted the short one)
  for (size_t p = 1; p < again->phases.size(); p++) {
    ASSERT_EQ(again->phases[p].size(), 1U) << "phase " << p;
    EXPECT_EQ(again->phases[p][0].first, 1) << "phase " << p;
    EXPECT_EQ(again->counts[p], 1) << "phase " << p;
    if (p < long_phases) {
      EXPECT_GE(again->phases[p].capacity(), 8U) << "phase " << p;
    }
  }
}
