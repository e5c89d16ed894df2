/* Hierarchical scheduling of malleable jobs (policies/hierarchical/), after Cao, Sun, Qian and Wu: DEQ, EQUI and DS on
 * hand cases, AC and AG desires, the seven parallelism curves, the job's execution rate, the level-2 scheduler, the
 * generated trees. Every expected value is computed here by hand or by an independent integration. */
#include "model/malleable_job.hpp"
#include "policies/hierarchical/allocation.hpp"
#include "policies/hierarchical/analysis.hpp"
#include "policies/hierarchical/feedback.hpp"
#include "policies/hierarchical/leaf_scheduler.hpp"
#include "policies/hierarchical/scheduler_tree.hpp"
#include "policy/policy.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>

namespace jobsched::hierarchical {
namespace {

using V = std::vector<double>;

void expect_allotments(const V& got, const V& want)
{
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); i++)
    EXPECT_NEAR(got[i], want[i], 1e-12) << "child " << i;
}

TEST(Deq, AllSatisfiedLeavesTheRestIdle)
{
  // 1 + 2 + 3 = 6 of 10: each gets its desire, 4 stay idle.
  expect_allotments(deq_allotments({1, 2, 3}, 10), {1, 2, 3});
}

TEST(Deq, NoneSatisfiedGetTheEqualShare)
{
  // Share 12 / 3 = 4 is below every desire.
  expect_allotments(deq_allotments({5, 6, 7}, 12), {4, 4, 4});
}

TEST(Deq, SmallDesiresAreSatisfiedRecursively)
{
  // Share 5: {2, 5} satisfied, 13 left for two, share 6.5: 6 satisfied, 7 left for the last, below its 20.
  expect_allotments(deq_allotments({2, 5, 6, 20}, 20), {2, 5, 6, 7});
  // Share 4: {1, 3}; 12 left for two: share 6 below both 10s.
  expect_allotments(deq_allotments({10, 1, 10, 3}, 16), {6, 1, 6, 3});
  // Children without jobs desire nothing and get nothing.
  expect_allotments(deq_allotments({0, 0, 9}, 8), {0, 0, 8});
}

TEST(Deq, ADesireEqualToTheShareIsSatisfied)
{
  expect_allotments(deq_allotments({4, 4, 8}, 12), {4, 4, 4}); // the 8 ends with the same 4, but deprived
  expect_allotments(deq_allotments({3, 9}, 6), {3, 3});
  expect_allotments(deq_allotments({2, 2}, 4), {2, 2});
}

TEST(Deq, IntoReusedListsGivesTheSameShares)
{
  // One output list and one scratch through calls of other sizes and both allocators: each result as by hand.
  std::vector<double> out{99, 99, 99, 99, 99, 99};
  DivisionScratch scratch;
  const std::vector<bool> all4(4, true);
  // Share 5: {2, 5} satisfied, then 6.5: 6 satisfied, 7 left for the 20.
  divide_processors_into(out, scratch, NodeAllocator::deq, JobScheduler::a_control, all4, {2, 5, 6, 20}, 20, false);
  expect_allotments(out, {2, 5, 6, 7});
  // Fewer children after more: none fits 12 / 3 = 4.
  divide_processors_into(out, scratch, NodeAllocator::deq, JobScheduler::a_greedy, {true, true, true}, {5, 6, 7}, 12,
                         false);
  expect_allotments(out, {4, 4, 4});
  // EQUI among the unfinished: 9 / 2 each, nothing for the finished one.
  divide_processors_into(out, scratch, NodeAllocator::equi, JobScheduler::a_control, {true, false, true}, {1, 1, 1}, 9,
                         false);
  expect_allotments(out, {4.5, 0, 4.5});
  // EQUI jobs under DEQ nodes divide equally too (their desires say nothing); none unfinished: nothing.
  divide_processors_into(out, scratch, NodeAllocator::deq, JobScheduler::equi, {true, true}, {0, 0}, 3, false);
  expect_allotments(out, {1.5, 1.5});
  divide_processors_into(out, scratch, NodeAllocator::equi, JobScheduler::equi, {false, false}, {0, 0}, 3, false);
  expect_allotments(out, {0, 0});
  // Whole processors: ceil(1.5) = 2 and ceil(2.2) = 3 fit 10 / 3, 5 left for the 10.
  divide_processors_into(out, scratch, NodeAllocator::deq, JobScheduler::a_control, {true, true, true}, {1.5, 2.2, 10},
                         10, true);
  expect_allotments(out, {2, 3, 5});
  // All satisfied after a larger call: the rest (4) stays idle.
  divide_processors_into(out, scratch, NodeAllocator::deq, JobScheduler::a_control, {true, true, true}, {1, 2, 3}, 10,
                         false);
  expect_allotments(out, {1, 2, 3});
}

TEST(Deq, WholeProcessors)
{
  // ceil: 2 and 3 fit the share 10 / 3; 5 left for the 10.
  expect_allotments(deq_allotments_whole({1.5, 2.2, 10}, 10), {2, 3, 5});
  // None fits 10 / 3: 4, 3, 3, the extra one to the largest desire.
  expect_allotments(deq_allotments_whole({5, 6, 5}, 10), {3, 4, 3});
  // A whole desire equal to the share.
  expect_allotments(deq_allotments_whole({3, 7}, 6), {3, 3});
  // Fractional processors are rounded down.
  expect_allotments(deq_allotments_whole({8, 8}, 7.9), {4, 3});
}

TEST(Equi, EqualSharesForChildrenWithUnfinishedJobs)
{
  expect_allotments(equi_allotments({true, false, true, true}, 9, false), {3, 0, 3, 3});
  expect_allotments(equi_allotments({true, false, true, true}, 10, true), {4, 0, 3, 3});
  expect_allotments(equi_allotments({false, false}, 10, false), {0, 0});
}

TEST(DesireSum, SumsTheChildrensDesires)
{
  EXPECT_DOUBLE_EQ(desire_sum({1.5, 2.5, 0, 4}), 8.0);
  EXPECT_DOUBLE_EQ(desire_sum({}), 0.0);
}

MalleableJob one_phase_job(ParallelismShape shape, double A, double phase_length = 0.01)
{
  return MalleableJob(A * phase_length, A, phase_length, {shape});
}

TEST(AControl, DesireIsTheAverageParallelismOfTheLastQuantum)
{
  // A Step job of parallelism 8 on 3 processors for L = 1 ms: work 3 L, span 3 L / 8, so w / l = 8.
  MalleableJob job = one_phase_job(ParallelismShape::step, 8);
  QuantumProgress p = job.run(3, 0.001);
  EXPECT_NEAR(p.work, 0.003, 1e-15);
  EXPECT_NEAR(p.span, 0.003 / 8, 1e-15);
  QuantumFeedback f{p.work, p.span, 3, 0.001};
  EXPECT_NEAR(a_control_desire(kInitialDesire, f), 8, 1e-12);
  // Convergence rate 0.5: half the previous desire (1), half the measure (8).
  EXPECT_NEAR(a_control_desire(1, f, 0.5), 4.5, 1e-12);
  // A quantum without span says nothing: the desire is kept.
  EXPECT_DOUBLE_EQ(a_control_desire(6, QuantumFeedback{0, 0, 0, 0.001}), 6);
}

TEST(AControl, MeasuresTheMeanParallelismAlongTheSpanCovered)
{
  // Ramp, A = 5, a phase of 10 ms: h = 1 + 4 x / (1/2) = 1 + 8 x on the rising half, x = 2 u. With more processors
  // than h anywhere, one millisecond covers u in [0, 0.1], x in [0, 0.2]: mean h = 1 + 8 x 0.1 = 1.8.
  MalleableJob job = one_phase_job(ParallelismShape::ramp, 5);
  QuantumProgress p = job.run(1000, 0.001);
  EXPECT_NEAR(p.span, 0.001, 1e-15);
  EXPECT_NEAR(p.work / p.span, 1.8, 1e-12);
  EXPECT_NEAR(a_control_desire(1, {p.work, p.span, 1000, 0.001}), 1.8, 1e-12);
}

TEST(AGreedy, DoublesHalvesOrKeeps)
{
  const double L = 0.001;
  // Satisfied (4 >= 4) and efficient (90% >= 80%): doubled.
  EXPECT_DOUBLE_EQ(a_greedy_desire(4, {0.9 * 4 * L, 0, 4, L}), 8);
  // Inefficient (50%): halved, satisfied or not.
  EXPECT_DOUBLE_EQ(a_greedy_desire(4, {0.5 * 4 * L, 0, 4, L}), 2);
  EXPECT_DOUBLE_EQ(a_greedy_desire(4, {0.5 * 2 * L, 0, 2, L}), 2);
  // Efficient but deprived (2 < 4): kept.
  EXPECT_DOUBLE_EQ(a_greedy_desire(4, {0.9 * 2 * L, 0, 2, L}), 4);
  // Exactly at the threshold is efficient.
  EXPECT_DOUBLE_EQ(a_greedy_desire(4, {0.8 * 4 * L, 0, 4, L}), 8);
  // Never below one processor.
  EXPECT_DOUBLE_EQ(a_greedy_desire(1, {0.1 * L, 0, 1, L}), 1);
  // Other parameters: threshold 0.5, responsiveness 3.
  AGreedyParams p{0.5, 3};
  EXPECT_DOUBLE_EQ(a_greedy_desire(3, {0.6 * 3 * L, 0, 3, L}, p), 9);
  EXPECT_DOUBLE_EQ(a_greedy_desire(9, {0.4 * 9 * L, 0, 9, L}, p), 3);
}

TEST(AGreedy, OnAJobOfParallelismOneAndAHalfItOscillates)
{
  // h = 1.5: on 1 processor it is efficient and satisfied (doubles to 2); on 2 it uses 75% < 80% (halves back).
  MalleableJob job(1.5 * 0.1, 1.5, 0.01, std::vector<ParallelismShape>(10, ParallelismShape::step));
  double d = kInitialDesire;
  std::vector<double> seen;
  for (int q = 0; q < 4; q++) {
    QuantumProgress p = job.run(d, 0.001);
    d = a_greedy_desire(d, {p.work, p.span, d, 0.001});
    seen.push_back(d);
  }
  EXPECT_EQ(seen, (V{2, 1, 2, 1}));
}

TEST(ParallelismCurves, EveryShapeKeepsThePhasesWorkLengthAndAverage)
{
  const double A = 37.5;
  const double length = 0.01;
  for (int s = 0; s < kShapeCount; s++) {
    const auto shape = static_cast<ParallelismShape>(s);
    SCOPED_TRACE(to_string(shape));
    // The continuous curve, integrated independently (midpoint rule): work A x length, never below one thread.
    const int steps = 200000;
    double integral = 0;
    double lowest = std::numeric_limits<double>::infinity();
    for (int i = 0; i < steps; i++) {
      const double u = (i + 0.5) / steps;
      const double h = phase_parallelism(shape, A, u);
      integral += h / steps;
      lowest = std::min(lowest, h);
      // An increasing curve paired with its mirror image.
      EXPECT_NEAR(h, phase_parallelism(shape, A, 1 - u), 1e-9 * A);
    }
    EXPECT_NEAR(integral, A, 1e-3 * A);
    EXPECT_GE(lowest, 1 - 1e-12);
    // The job built of it, run with more processors than any h: it covers its span in exactly its length, doing the
    // work A x length, its average parallelism A.
    MalleableJob job = one_phase_job(shape, A, length);
    EXPECT_NEAR(job.span(), length, 1e-15);
    QuantumProgress p = job.run(1e6, 2 * length);
    EXPECT_TRUE(p.finished);
    EXPECT_NEAR(p.elapsed, length, 1e-12);
    EXPECT_NEAR(p.span, length, 1e-12);
    EXPECT_NEAR(p.work, A * length, 1e-9 * A * length);
    EXPECT_NEAR(p.work / p.span, A, 1e-9 * A);
  }
}

TEST(ParallelismCurves, ShapesDifferFromTheMostConcaveToTheMostConvex)
{
  // Early in the rise (u = 0.05, x = 0.1) the curves are ordered Step > Log > Poly(II) > Ramp > Poly(I) > Exp >
  // Impulse, as in Figure 2: h / A = 1, 0.72, 0.47, 0.2, 0.03, 0.017, 0 (g(0.1) / mean g) above the floor of 1.
  double previous = std::numeric_limits<double>::infinity();
  for (int s = 0; s < kShapeCount; s++) {
    const double h = phase_parallelism(static_cast<ParallelismShape>(s), 10, 0.05);
    EXPECT_LT(h, previous) << to_string(static_cast<ParallelismShape>(s));
    previous = h;
  }
  EXPECT_DOUBLE_EQ(phase_parallelism(ParallelismShape::ramp, 10, 0.25), 1 + 9 * 0.5 / 0.5);
  EXPECT_DOUBLE_EQ(phase_parallelism(ParallelismShape::impulse, 10, 0.5), 1 + 9 / 0.1); // the spike
}

TEST(MalleableJob, RunsAtTheRateMinOfAllotmentAndParallelism)
{
  // Step, A = 8, over three phases; on 2 processors: work 2 per second, span 2 / 8 per second.
  MalleableJob job(8 * 0.03, 8, 0.01, std::vector<ParallelismShape>(3, ParallelismShape::step));
  QuantumProgress p = job.run(2, 0.001);
  EXPECT_NEAR(p.work, 0.002, 1e-15);
  EXPECT_NEAR(p.span, 0.00025, 1e-15);
  // Fractional allotment.
  p = job.run(0.5, 0.001);
  EXPECT_NEAR(p.work, 0.0005, 1e-15);
  // No processor: nothing.
  p = job.run(0, 0.001);
  EXPECT_EQ(p.work, 0);
  // The last phase holds the rest of the span: 0.025 s of span is 3 phases, the last one 5 ms.
  MalleableJob partial(8 * 0.025, 8, 0.01, std::vector<ParallelismShape>(3, ParallelismShape::ramp));
  EXPECT_NEAR(partial.phase_span(2), 0.005, 1e-15);
  EXPECT_EQ(MalleableJob::phase_count(0.025, 0.01), 3);
  EXPECT_EQ(MalleableJob::phase_count(0.03, 0.01), 3);
  EXPECT_EQ(MalleableJob::phase_count(0.0001, 0.01), 1);
  QuantumProgress all = partial.run(1e6, 1);
  EXPECT_NEAR(all.work, 0.2, 1e-12);
  EXPECT_NEAR(all.elapsed, 0.025, 1e-12);
}

TEST(LeafScheduler, AControlFollowsTheJobsParallelismAndStallsOnReallocation)
{
  LeafSettings s;
  s.quantum = 0.001;
  LeafScheduler leaf(s);
  leaf.add_job(0, 0.0, MalleableJob(8 * 0.05, 8, 0.01, std::vector<ParallelismShape>(5, ParallelismShape::step)));
  leaf.add_job(1, 0.0015, one_phase_job(ParallelismShape::step, 2));
  leaf.begin_quantum(0);
  EXPECT_DOUBLE_EQ(leaf.desire(), 1); // the initial desire
  LeafAllotment a = leaf.allot(256);
  EXPECT_DOUBLE_EQ(a.allotted, 1);
  EXPECT_FALSE(a.some_job_deprived);
  leaf.run_quantum(0);
  leaf.begin_quantum(0.001); // job 1 is not released yet
  EXPECT_EQ(leaf.unfinished(), 1);
  EXPECT_DOUBLE_EQ(leaf.desire(), 8);
  leaf.allot(256);
  leaf.run_quantum(0.001);
  leaf.begin_quantum(0.002); // job 1 now, with desire 1: 8 + 1
  EXPECT_EQ(leaf.unfinished(), 2);
  EXPECT_DOUBLE_EQ(leaf.desire(), 9);
  a = leaf.allot(6); // DEQ: share 3 satisfies job 1 (1); job 0 gets 5 < 8, deprived
  EXPECT_DOUBLE_EQ(a.allotted, 6);
  EXPECT_TRUE(a.some_job_deprived);

  // Reallocation cost: CF = 0.5, a job going from 0 to 1 processor stalls 1 x L x 0.5 = L / 2.
  LeafSettings costly = s;
  costly.cost_factor = 0.5;
  LeafScheduler slow(costly);
  slow.add_job(0, 0, MalleableJob(4 * 0.01, 4, 0.01, {ParallelismShape::step}));
  slow.begin_quantum(0);
  a = slow.allot(10);
  EXPECT_DOUBLE_EQ(a.delay, 0.0005);
  slow.run_quantum(0);
  slow.begin_quantum(0.001); // it ran half a quantum on one processor: w / l = 4, the desire is 4
  EXPECT_DOUBLE_EQ(slow.desire(), 4);
  a = slow.allot(10); // 1 -> 4: 3 x L x 0.5
  EXPECT_DOUBLE_EQ(a.delay, 0.0015);
}

/* Lemma 1's measures on a job shorter than a quantum: a Step job of parallelism 4 spanning L / 8 (work L / 2). Its
 * first quantum gives it its initial desire, 1 processor: it needs 4 x L / 8 = L / 2 of time and ends there. By hand:
 * t^S = L / 2 (it executed half a quantum, satisfied: a = d = 1), a^T = 1 x L / 2, c = A(1) / d(1) = 4 / 1. Lemma 1:
 * t^S = L / 2 <= (c + 1) l = 5 L / 8 and a^T = L / 2 <= 5 w = 5 L / 2. The two other readings break it: a whole
 * quantum of satisfied time (L > 5 L / 8), or c without the first quantum (1, and L / 2 > 2 L / 8). */
TEST(Analysis, LemmaOneOnAJobShorterThanAQuantum)
{
  const double L = 0.001;
  LeafSettings s;
  s.quantum = L;
  LeafScheduler leaf(s);
  leaf.add_job(0, 0, MalleableJob(L / 2, 4, 10 * L, {ParallelismShape::step}));
  leaf.begin_quantum(0);
  EXPECT_DOUBLE_EQ(leaf.allot(256).allotted, 1);
  const std::vector<JobRecord> done = leaf.run_quantum(0);
  ASSERT_EQ(done.size(), 1u);
  const JobRecord& r = done[0];
  EXPECT_NEAR(r.span, L / 8, 1e-18);
  EXPECT_NEAR(r.finish, L / 2, 1e-15);
  EXPECT_NEAR(r.satisfied_time, L / 2, 1e-15);
  EXPECT_NEAR(r.total_allotment, L / 2, 1e-15);
  EXPECT_NEAR(r.transition_factor, 4, 1e-12);
  const AnalysisFigures a = analyse(done, 256, 0);
  EXPECT_NEAR(a.lemma1_satisfied_ratio, (L / 2) / (5 * L / 8), 1e-12); // 0.8
  EXPECT_NEAR(a.lemma1_allotment_ratio, (L / 2) / (5 * L / 2), 1e-12); // 0.2
  EXPECT_GT(L, 5 * r.span);                                            // whole quanta: broken
  EXPECT_GT(r.satisfied_time, 2 * r.span);                             // c = 1: broken
}

/* A Step job of parallelism 4 spanning 2.5 L (work 10 L) under a node that holds 2 processors. Quantum 1: d = 1, so
 * DEQ gives it 1 (never more than the desire): satisfied, it covers L / 4 of span, A(1) = 4 and c = 4. Quanta 2 to 5:
 * d = 4 > 2, deprived, L / 2 of span each (2.25 L in all); the sixth, deprived too, covers the last L / 4 in L / 2.
 * It ends at 5.5 L. t^S = L (quantum 1 only), a^T = 1 x L + 2 x 4.5 L = 10 L = w. */
TEST(Analysis, SatisfiedTimeCountsOnlySatisfiedQuanta)
{
  const double L = 0.001;
  LeafSettings s;
  s.quantum = L;
  LeafScheduler leaf(s);
  leaf.add_job(7, 0, MalleableJob(10 * L, 4, 10 * L, {ParallelismShape::step}));
  std::vector<JobRecord> done;
  int deprived = 0;
  for (int q = 0; q < 6; q++) {
    leaf.begin_quantum(q * L);
    deprived += leaf.allot(2).some_job_deprived ? 1 : 0;
    done = leaf.run_quantum(q * L);
  }
  EXPECT_EQ(deprived, 5);
  ASSERT_EQ(done.size(), 1u);
  const JobRecord& r = done[0];
  EXPECT_NEAR(r.finish, 5.5 * L, 1e-12);
  EXPECT_NEAR(r.satisfied_time, L, 1e-15);
  EXPECT_NEAR(r.total_allotment, 10 * L, 1e-14);
  EXPECT_NEAR(r.transition_factor, 4, 1e-12);
}

/* Theorem 1's figures on two hand-made records, P = 4, the instance starting at 0. Total work 8, so W / P = 2; the
 * last job to finish is job 0 (at 3): r + l = 0 + 1 = 1. Lower bound max(1, 2) = 2, c = max(1.5, 3) = 3, bound
 * 2 (3 + 1) 2 = 16. Lemma 1 with each job's own c: t^S ratios 2 / (2.5 x 1) = 0.8 and 2.5 / (4 x 0.5) = 1.25 (job 1,
 * a violation); a^T ratios 10 / (2.5 x 2) = 2 (job 0) and 12 / (4 x 6) = 0.5. */
TEST(Analysis, TheoremOneBoundAndLemmaRatiosByHand)
{
  JobRecord a;
  a.id = 0;
  a.release = 0;
  a.work = 2;
  a.span = 1;
  a.finish = 3;
  a.transition_factor = 1.5;
  a.satisfied_time = 2;
  a.total_allotment = 10;
  JobRecord b;
  b.id = 1;
  b.release = 1;
  b.work = 6;
  b.span = 0.5;
  b.finish = 2.5;
  b.transition_factor = 3;
  b.satisfied_time = 2.5;
  b.total_allotment = 12;
  const AnalysisFigures f = analyse({a, b}, 4, 0);
  EXPECT_DOUBLE_EQ(f.makespan, 3);
  EXPECT_EQ(f.last_job, 0);
  EXPECT_DOUBLE_EQ(f.total_work, 8);
  EXPECT_DOUBLE_EQ(f.lower_bound, 2);
  EXPECT_DOUBLE_EQ(f.transition_factor, 3);
  EXPECT_DOUBLE_EQ(f.theorem1_bound, 16);
  EXPECT_DOUBLE_EQ(f.lemma1_satisfied_ratio, 1.25);
  EXPECT_EQ(f.lemma1_satisfied_job, 1);
  EXPECT_DOUBLE_EQ(f.lemma1_allotment_ratio, 2);
  EXPECT_EQ(f.lemma1_allotment_job, 0);
  // The same instance submitted 100 s later (every release and finish + 100, the instance starting at job 0's
  // release): the same figures, counted from its first release.
  JobRecord late_a = a;
  JobRecord late_b = b;
  late_a.release += 100;
  late_a.finish += 100;
  late_b.release += 100;
  late_b.finish += 100;
  const AnalysisFigures late = analyse({late_a, late_b}, 4, 100);
  EXPECT_DOUBLE_EQ(late.makespan, 3);
  EXPECT_DOUBLE_EQ(late.lower_bound, 2);
  EXPECT_DOUBLE_EQ(late.theorem1_bound, 16);
  // With the last job's r + l the larger term: release job 0 at 5, finish 7: max(6, 2) = 6, bound 48.
  a.release = 5;
  a.finish = 7;
  EXPECT_DOUBLE_EQ(analyse({a, b}, 4, 0).theorem1_bound, 48);
  // Counted from the first release, job 1's at 1: makespan 7 - 1 = 6, lower bound max(5 - 1 + 1, 2) = 5, bound
  // 2 (3 + 1) 5 = 40.
  const AnalysisFigures from_first = analyse({a, b}, 4, 1);
  EXPECT_DOUBLE_EQ(from_first.makespan, 6);
  EXPECT_DOUBLE_EQ(from_first.lower_bound, 5);
  EXPECT_DOUBLE_EQ(from_first.theorem1_bound, 40);
}

TEST(SchedulerTree, GeneratedTreesHaveTheRequestedDepthAndFanOut)
{
  std::set<size_t> fanouts;
  for (int K = 2; K <= 5; K++) {
    for (std::uint64_t seed = 1; seed <= 30; seed++) {
      SchedulerTree tree = generate_tree(K, 1, 5, seed);
      ASSERT_EQ(levels(tree), K);
      for (auto [v, end] = boost::vertices(tree); v != end; ++v) {
        const auto kids = children(tree, *v);
        if (tree[*v].level == 2) {
          EXPECT_TRUE(kids.empty());
        } else {
          EXPECT_GE(kids.size(), 1U);
          EXPECT_LE(kids.size(), 5U);
          fanouts.insert(kids.size());
        }
        for (TreeVertex c : kids)
          EXPECT_EQ(tree[c].level, tree[*v].level - 1);
        // Depth below the root: K - level, every leaf at level 2.
        long depth = 0;
        for (long u = static_cast<long>(*v); parent(tree, static_cast<TreeVertex>(u)) >= 0;
             u = parent(tree, static_cast<TreeVertex>(u)))
          depth++;
        EXPECT_EQ(depth, K - tree[*v].level);
      }
    }
  }
  EXPECT_EQ(fanouts, (std::set<size_t>{1, 2, 3, 4, 5})); // every count of [1, 5] drawn
  // A fixed fan-out of 3 over K = 4: 1 + 3 + 9 nodes, 9 leaves.
  SchedulerTree full = generate_tree(4, 3, 3, 7);
  EXPECT_EQ(boost::num_vertices(full), 13U);
  EXPECT_EQ(leaves(full).size(), 9U);
  EXPECT_EQ(nodes_per_level(full), (std::vector<long>{0, 0, 9, 3, 1}));
  // K = 2: the root alone holds the jobs.
  EXPECT_EQ(boost::num_vertices(generate_tree(2, 1, 5, 3)), 1U);
}

TEST(SchedulerTree, ExplicitTreesNeedLeavesAtOneDepth)
{
  SchedulerTree tree = tree_from_parents({-1, 0, 0, 1, 1, 2});
  EXPECT_EQ(levels(tree), 4);
  EXPECT_EQ(leaves(tree), (std::vector<TreeVertex>{3, 4, 5}));
  EXPECT_EQ(children(tree, 1), (std::vector<TreeVertex>{3, 4}));
  EXPECT_EQ(parent(tree, 5), 2);
  EXPECT_EQ(levels(tree_from_parents({-1})), 2);
  EXPECT_THROW(tree_from_parents({-1, 0, 0, 1}), std::invalid_argument); // leaves at depths 2 and 1
  EXPECT_THROW(tree_from_parents({-1, 2, 0}), std::invalid_argument);    // a parent after its child
}

std::string graphml(const std::string& body, const std::string& keys = "")
{
  return "<?xml version=\"1.0\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
         "<key id=\"n\" for=\"node\" attr.name=\"name\" attr.type=\"string\"/>\n"
         "<key id=\"h\" for=\"node\" attr.name=\"host\" attr.type=\"string\"/>\n" +
         keys + "<graph id=\"g\" edgedefault=\"directed\">\n" + body + "</graph>\n</graphml>\n";
}

TreeDescription read_graphml_text(const std::string& text)
{
  std::istringstream in(text);
  return tree_from_graphml(in);
}

std::string graphml_error(const std::string& text)
{
  try {
    read_graphml_text(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

/* A root listed last, children in edge order: breadth-first renumbering puts the root first, then its children in the
 * order of its edges (b before a), then a's child. */
TEST(SchedulerTree, FromGraphml)
{
  const TreeDescription t = read_graphml_text(graphml("<node id=\"a\"><data key=\"n\">A</data></node>"
                                                      "<node id=\"x\"/>"
                                                      "<node id=\"b\"><data key=\"h\">site-1</data></node>"
                                                      "<node id=\"r\"><data key=\"n\">root</data></node>"
                                                      "<node id=\"y\"/>"
                                                      "<edge source=\"r\" target=\"b\"/>"
                                                      "<edge source=\"r\" target=\"a\"/>"
                                                      "<edge source=\"a\" target=\"x\"/>"
                                                      "<edge source=\"b\" target=\"y\"/>"));
  EXPECT_EQ(t.parents, (std::vector<int>{-1, 0, 0, 1, 2}));
  EXPECT_EQ(t.names, (std::vector<std::string>{"root", "", "A", "", ""}));
  EXPECT_EQ(t.hosts, (std::vector<std::string>{"", "site-1", "", "", ""}));
  const SchedulerTree tree = tree_from_parents(t.parents);
  EXPECT_EQ(levels(tree), 4);
  EXPECT_EQ(leaves(tree).size(), 2u);
}

TEST(SchedulerTree, GraphmlThatIsNotATreeIsOneLine)
{
  const auto one_line_with = [](const std::string& error, const std::string& words) {
    EXPECT_NE(error.find(words), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  };
  one_line_with(graphml_error("<graphml><graph>"), "malformed GraphML");
  one_line_with(graphml_error("not xml at all"), "malformed GraphML");
  one_line_with(graphml_error(graphml("<node id=\"a\"/><node id=\"b\"/><node id=\"c\"/>"
                                      "<edge source=\"a\" target=\"c\"/>")),
                "several roots: node 1 and node 2 have no parent");
  one_line_with(graphml_error(graphml("<node id=\"a\"/><node id=\"b\"/>"
                                      "<edge source=\"a\" target=\"b\"/><edge source=\"b\" target=\"a\"/>")),
                "no root");
  one_line_with(graphml_error(graphml("<node id=\"r\"/><node id=\"a\"/><node id=\"b\"/>"
                                      "<edge source=\"r\" target=\"a\"/><edge source=\"b\" target=\"b\"/>")),
                "a cycle: node 3 cannot be reached from the root"); // b is its own parent
  one_line_with(graphml_error(graphml("<node id=\"r\"/><node id=\"a\"/><node id=\"b\"/><node id=\"c\"/>"
                                      "<edge source=\"r\" target=\"a\"/><edge source=\"b\" target=\"c\"/>"
                                      "<edge source=\"c\" target=\"b\"/>")),
                "a cycle: node 3 cannot be reached from the root");
  one_line_with(graphml_error(graphml("<node id=\"r\"/><node id=\"a\"/><node id=\"b\"/>"
                                      "<edge source=\"r\" target=\"a\"/><edge source=\"r\" target=\"b\"/>"
                                      "<edge source=\"a\" target=\"b\"/>")),
                "node 3 has 2 parents");
  one_line_with(graphml_error(graphml("<node id=\"r\"><data key=\"w\">3</data></node>",
                                      "<key id=\"w\" for=\"node\" attr.name=\"weight\" attr.type=\"int\"/>")),
                "unknown attribute 'weight'");
  // What Boost's reader lets through, by line (graphml() puts <graph> on line 5 and the body on line 6): an edge to an
  // undefined node (it made one up), a node id given twice (it merged them), a second <graph> (it read the first).
  one_line_with(graphml_error(graphml("<node id=\"r\"/>\n<node id=\"a\"/>\n<edge source=\"r\" target=\"a\"/>\n"
                                      "<edge source=\"r\" target=\"zz\"/>\n")),
                "line 9: the edge from 'r' to 'zz' names node 'zz', which no <node> defines");
  one_line_with(graphml_error(graphml("<node id=\"r\"/>\n<!-- <node id=\"a\"/>\n -->\n<node id=\"a\"/>\n"
                                      "<edge source=\"r\" target=\"a\"/>\n<node id=\"r\"/>\n")),
                "line 11: a second node with id 'r' (the first is at line 6)"); // the commented-out node is not one
  one_line_with(
      graphml_error(graphml("<node id=\"r\"/>\n</graph>\n<graph edgedefault=\"directed\">\n<node id=\"s\"/>\n")),
      "line 8: a second <graph> (a file holds one tree)");
  one_line_with(graphml_error(graphml("<node id=\"r\"/>")), "no error"); // a lone scheduler is a tree (K = 2)
}

TEST(DowneyWorkload, DrawsFollowTableOne)
{
  DowneyWorkloadSpec spec;
  spec.jobs = 20000;
  spec.work_unit = 1e-6;
  auto jobs = generate_downey_jobs(spec, 256, 7, 11);
  ASSERT_EQ(jobs.size(), 20000U);
  // cdf(t) = -0.14 + 0.073 ln t: half the works below e^(0.64 / 0.073), half the A below 16 (log-uniform in [1, 256]).
  const double median_work = std::exp(0.64 / 0.073) * 1e-6;
  long below = 0;
  long narrow = 0;
  std::set<int> places;
  for (const auto& j : jobs) {
    below += j.job.work() < median_work;
    narrow += j.job.average_parallelism() < 16;
    EXPECT_GE(j.job.average_parallelism(), 1);
    EXPECT_LE(j.job.average_parallelism(), 256);
    EXPECT_GE(j.job.work(), std::exp(0.14 / 0.073) * 1e-6 * (1 - 1e-9));
    places.insert(j.leaf);
  }
  EXPECT_NEAR(below / 20000.0, 0.5, 0.02);
  EXPECT_NEAR(narrow / 20000.0, 0.5, 0.02);
  EXPECT_EQ(places.size(), 7U);
  // Poisson arrivals at load x P / mean work, load = jobs / 160: the last release near jobs / rate.
  const double rate = 20000 / 160.0 * 256 / spec.mean_work();
  EXPECT_NEAR(jobs.back().release, 20000 / rate, 0.05 * 20000 / rate);
  // Mean of the log-uniform on [e^(0.14/0.073), e^(1.14/0.073)], by hand.
  const double lo = std::exp(0.14 / 0.073);
  const double hi = std::exp(1.14 / 0.073);
  EXPECT_NEAR(spec.mean_work(), (hi - lo) / std::log(hi / lo) * 1e-6, 1e-12);
  // The same seed, the same jobs.
  auto again = generate_downey_jobs(spec, 256, 7, 11);
  EXPECT_EQ(again[123].job.work(), jobs[123].job.work());
  EXPECT_EQ(again[123].job.shapes(), jobs[123].job.shapes());
}

} // namespace
} // namespace jobsched::hierarchical

namespace jobsched::hierarchical {
namespace {

/* One of Cao's policies planning over views built by hand (no SimGrid), two copies given the same events. */
struct TwinPolicies {
  TwinPolicies(int processors, const std::string& name, const std::map<std::string, std::string>& values)
      : machine(Machine::uniform(processors)), info(policy_registry().get(name)),
        params(info.params, values, "policy.params"),
        allocator(allocator_registry().get("first-fit").make(AllocatorEnv{machine, allocator_params})),
        reused(info.make_time_sharing(PolicyEnv{machine, *allocator, params})),
        fresh(info.make_time_sharing(PolicyEnv{machine, *allocator, params}))
  {
  }
  Machine machine;
  const PolicyInfo& info;
  Params params;
  Params allocator_params{{}, {}, "policy.allocation_params"};
  std::unique_ptr<Allocator> allocator;
  std::unique_ptr<TimeSharingPolicy> reused; // handed its plans back (reuse_plan), as the driver does
  std::unique_ptr<TimeSharingPolicy> fresh;  // never
};

/* The plans Cao's policies build in the nodes of the plans handed back (reuse_plan) equal those they build in new maps:
 * for each of the six policies, whole and fractional allotments, with and without reallocation stalls, two copies given
 * the same random arrivals, departures, instants (boundaries and mid-quantum ones), processors going down and up, and
 * the same measures (work and span done by each running job, drawn at random). Each plan is applied to the jobs'
 * records as the driver would. */
TEST(HierarchicalPolicy, PlansInReusedMapsEqualNewOnes)
{
  const char* names[] = {"ac-ds", "ag-ds", "equi-equi", "ac-equi", "ag-equi", "equi-ds"};
  for (const char* name : names)
    for (const char* allotments : {"fractional", "whole"})
      for (const char* cost : {"0", "0.5"}) {
        const std::string what = std::string(name) + " " + allotments + " cost_factor " + cost;
        TwinPolicies twins(16, name,
                           {{"quantum", "1"}, {"allotments", allotments}, {"cost_factor", cost}, {"levels", "3"}});
        std::mt19937_64 random(11);
        std::deque<Job> jobs;
        std::deque<JobState> states;
        std::vector<JobState*> in_system;
        JobId next_id = 1;
        double t = 0;
        ResourceSet up = ResourceSet::all(16);
        size_t laid_out = 0;
        size_t with_shares = 0;
        size_t with_stalls = 0;
        for (int k = 0; k < 1500; k++) {
          const double step = random() % 2 == 0 ? 1.0 : 0.25 * static_cast<double>(1 + random() % 3);
          for (JobState* s : in_system) // what each job reports it did meanwhile (no more than its processors)
            if (s->holds_processors()) {
              const double span = step * static_cast<double>(random() % 5) / 4;
              s->span_done += span;
              s->work_done += span * static_cast<double>(1 + random() % static_cast<unsigned>(s->processors.count()));
            }
          t += step;
          if (!in_system.empty() && random() % 5 == 0) {
            const size_t i = random() % in_system.size();
            twins.reused->job_ended(*in_system[i]->job, JobEnd::completed, t);
            twins.fresh->job_ended(*in_system[i]->job, JobEnd::completed, t);
            in_system[i]->status = JobStatus::finished;
            in_system.erase(in_system.begin() + static_cast<long>(i));
          }
          if (random() % 3 == 0 && in_system.size() < 25) {
            Job& j = jobs.emplace_back();
            j.id = next_id++;
            j.submit_time = t;
            JobState& s = states.emplace_back();
            s.job = &j;
            s.status = JobStatus::waiting;
            in_system.push_back(&s);
            twins.reused->job_submitted(j, t);
            twins.fresh->job_submitted(j, t);
          }
          if (random() % 40 == 0) { // a processor goes down, or every one is up again
            if (up.count() == 16)
              up.reset(static_cast<int>(random() % 16));
            else
              up = ResourceSet::all(16);
          }
          SystemView view;
          view.now = t;
          view.machine = &twins.machine;
          view.up = up;
          view.jobs.assign(in_system.begin(), in_system.end());
          Plan a = twins.reused->plan(view);
          Plan b = twins.fresh->plan(view);
          ASSERT_EQ(a.same_as_last, b.same_as_last) << what << " at " << t;
          ASSERT_EQ(a.run, b.run) << what << " at " << t;
          ASSERT_EQ(a.share, b.share) << what << " at " << t;
          ASSERT_EQ(a.stall, b.stall) << what << " at " << t;
          ASSERT_EQ(a.until, b.until) << what << " at " << t;
          ASSERT_EQ(a.repeats, b.repeats) << what << " at " << t;
          if (!a.same_as_last) {
            laid_out += a.run.empty() ? 0 : 1;
            with_shares += a.share.empty() ? 0 : 1;
            with_stalls += a.stall.empty() ? 0 : 1;
            for (JobState* s : in_system) { // applied as the driver would
              auto it = a.run.find(s->job->id);
              if (it != a.run.end()) {
                if (s->start_time < 0) s->start_time = t;
                s->processors = it->second;
                s->status = JobStatus::running;
              } else if (s->started()) {
                s->status = JobStatus::suspended;
              }
            }
          } else {
            for (JobState* s : in_system) // the last plan again: every job of it holds processors still up
              if (s->holds_processors()) {
                EXPECT_TRUE(up.contains(s->processors)) << what << " at " << t;
              }
          }
          twins.reused->reuse_plan(std::move(a));
        }
        // Every kind of map was built and handed back many times.
        EXPECT_GT(laid_out, 200U) << what;
        if (std::string(allotments) == "fractional") {
          EXPECT_GT(with_shares, 200U) << what;
        }
        if (std::string(cost) != "0") {
          EXPECT_GT(with_stalls, 30U) << what;
        }
      }
}

/* How the policy ends the job submitted first in lone_job_lower_bound(): for good (job_ended(), killed or failed), or
 * requeued (job_requeued(), its host failed). */
enum class FirstEnd { killed, failed, requeued };

/* The analysis's lower bound, max(release - first submission + span, work / P), of a run of equi-equi on 16
 * processors (quantum 1 s) where one job completes, at 6, having reported span 3 and work 3. A job submitted at 0
 * under id `first_id` ends at 1 as `first_end` says; the job completing is, requeued, that job, and otherwise a job
 * submitted at 2 under id 1. */
double lone_job_lower_bound(FirstEnd first_end, JobId first_id)
{
  const Machine machine = Machine::uniform(16);
  const PolicyInfo& info = policy_registry().get("equi-equi");
  const Params params(info.params, {{"quantum", "1"}, {"levels", "3"}}, "policy.params");
  const Params allocator_params{{}, {}, "policy.allocation_params"};
  const auto allocator = allocator_registry().get("first-fit").make(AllocatorEnv{machine, allocator_params});
  const auto policy = info.make_time_sharing(PolicyEnv{machine, *allocator, params});
  std::deque<Job> jobs(2);
  std::deque<JobState> states(2);
  for (size_t i = 0; i < 2; i++) {
    states[i].job = &jobs[i];
    states[i].status = JobStatus::waiting;
  }
  jobs[0].id = first_id;
  jobs[0].submit_time = 0;
  jobs[1].id = 1;
  jobs[1].submit_time = 2;
  const size_t completing = first_end == FirstEnd::requeued ? 0 : 1;
  std::vector<const JobState*> in_system{&states[0]};
  auto plan_at = [&](double t) {
    SystemView view;
    view.now = t;
    view.machine = &machine;
    view.up = ResourceSet::all(16);
    view.jobs = in_system;
    policy->plan(view);
  };
  policy->job_submitted(jobs[0], 0);
  plan_at(0);
  if (first_end == FirstEnd::killed) policy->job_ended(jobs[0], JobEnd::killed, 1);
  if (first_end == FirstEnd::failed) policy->job_ended(jobs[0], JobEnd::failed, 1);
  if (first_end == FirstEnd::requeued) policy->job_requeued(jobs[0], 1);
  if (completing == 1) in_system.clear();
  plan_at(1);
  if (completing == 1) {
    policy->job_submitted(jobs[1], 2);
    in_system = {&states[1]};
  }
  for (double t = 2; t < 6; t++)
    plan_at(t);
  states[completing].span_done = 3;
  states[completing].work_done = 3;
  policy->job_ended(jobs[completing], JobEnd::completed, 6);
  for (const auto& [key, value] : policy->report().summary_numbers)
    if (key == "lower_bound") return value;
  ADD_FAILURE() << "no lower_bound in the report";
  return 0;
}

/* A job gone for good, killed (its walltime, its owner) or failed without requeue, leaves no entry in the policy: a
 * later job under its id is a new job, released at its submission (lower bound 2 - 0 + 3 = 5, as for a job under
 * another id), where the entry it left made the new job the requeue of the old one, released at 0 (lower bound 3). A
 * requeued job (job_requeued()) keeps its release: 0 - 0 + 3. */
TEST(HierarchicalPolicy, AJobGoneForGoodLeavesNoEntry)
{
  EXPECT_DOUBLE_EQ(lone_job_lower_bound(FirstEnd::killed, 9), 5);
  EXPECT_DOUBLE_EQ(lone_job_lower_bound(FirstEnd::killed, 1), 5);
  EXPECT_DOUBLE_EQ(lone_job_lower_bound(FirstEnd::failed, 9), 5);
  EXPECT_DOUBLE_EQ(lone_job_lower_bound(FirstEnd::failed, 1), 5);
  EXPECT_DOUBLE_EQ(lone_job_lower_bound(FirstEnd::requeued, 1), 3);
}

} // namespace
} // namespace jobsched::hierarchical
