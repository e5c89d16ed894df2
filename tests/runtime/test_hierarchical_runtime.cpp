/* Cao et al.'s hierarchical policies (ac-ds, ...) on the one runtime against the pure code of
 * policies/hierarchical/: one Downey job under AC-DS with one level-2 scheduler, simulated by the runtime on a
 * platform of 256 processors, ends when the pure LeafScheduler (which runs the job itself, quantum by quantum) says,
 * with the same analysis figures; a platform of other size gives other results (P is the platform's). */
#include "policies/hierarchical/leaf_scheduler.hpp"
#include "support/child_process.hpp"
#include "support/quiet_run.hpp"
#include "support/scratch_folder.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace jobsched;
using jobsched::testing::in_child;
namespace hs = jobsched::hierarchical;

namespace {

using Folder = jobsched::testing::ScratchFolder;

/* One Downey job (`generator` adds keys to workload.generator) under AC-DS with one level-2 scheduler. */
std::string scenario(const std::string& platform, std::uint64_t seed, const std::string& generator)
{
  return "platform: " + std::string(SOURCE_DIR) + "/platforms/" + platform +
         "\nworkload:\n  generator: {model: downey, jobs: 1" + generator +
         "}\npolicy:\n  name: ac-ds\n  params: {levels: 2}\nsimulation: {seed: " + std::to_string(seed) + "}\n";
}

/* The run's finish time of its one job, and its transition factor and total allotment (jobs.csv's columns). */
std::vector<double> simulate(const Folder& f, const std::string& platform, std::uint64_t seed,
                             const std::string& generator = "")
{
  auto file = f.write("s.yaml", scenario(platform, seed, generator));
  return in_child([&] {
    RunReport r = jobsched::testing::run_quietly(file, f.dir / "out");
    std::vector<double> out{r.states.front().finish_time};
    std::ifstream jobs(f.dir / "out" / "jobs.csv");
    std::string header;
    std::string row;
    std::getline(jobs, header);
    std::getline(jobs, row);
    // The last five columns: leaf, transition_factor, satisfied_time, total_allotment, stall_time.
    std::vector<std::string> fields;
    size_t start = 0;
    for (size_t comma; (comma = row.find(',', start)) != std::string::npos; start = comma + 1)
      fields.push_back(row.substr(start, comma - start));
    fields.push_back(row.substr(start));
    const size_t n = fields.size();
    out.push_back(std::stod(fields[n - 4]));
    out.push_back(std::stod(fields[n - 2]));
    return out;
  });
}

/* The span l of the lone Step job of parallelism 64 the tests below generate (`step` in their scenarios). */
double step_job_span()
{
  hs::DowneyWorkloadSpec spec;
  spec.jobs = 1;
  spec.A_min = spec.A_max = 64;
  spec.shapes = {hs::ParallelismShape::step};
  spec.work_unit = 1e-2;
  return hs::generate_downey_jobs(spec, 256, 1, 1).front().job.span();
}

/* The pure code: the job the generator makes for this seed, run by one LeafScheduler with all P processors. */
hs::JobRecord pure(int processors, std::uint64_t seed)
{
  hs::DowneyWorkloadSpec spec;
  spec.jobs = 1;
  std::vector<hs::GeneratedJob> jobs = hs::generate_downey_jobs(spec, processors, 1, seed);
  hs::LeafSettings settings;
  hs::LeafScheduler leaf(settings);
  leaf.add_job(0, jobs.front().release, std::move(jobs.front().job));
  for (long m = 0; m < 100000000; m++) {
    const double t = static_cast<double>(m) * settings.quantum;
    leaf.begin_quantum(t);
    leaf.allot(processors);
    std::vector<hs::JobRecord> done = leaf.run_quantum(t);
    if (!done.empty()) return done.front();
  }
  ADD_FAILURE() << "the pure job never finished";
  return {};
}

TEST(Hierarchical, AcDsOnOneJobIsThePureCode)
{
  for (std::uint64_t seed : {1, 2, 3}) {
    Folder f;
    const std::vector<double> got = simulate(f, "smp-cluster-16x16.xml", seed);
    ASSERT_EQ(got.size(), 3U);
    const hs::JobRecord want = pure(256, seed);
    // The runtime's instant is 1e-6 s: a segment ending that close to a boundary makes the round there.
    EXPECT_NEAR(got[0], want.finish, 1e-5) << "seed " << seed;
    EXPECT_NEAR(got[1], want.transition_factor, 1e-3 * want.transition_factor) << "seed " << seed;
    EXPECT_NEAR(got[2], want.total_allotment, 1e-4 * want.total_allotment + 1e-6) << "seed " << seed;
  }
}

// P is the platform's. A lone Step job of parallelism 64 and span l (L = 1 ms): its first quantum on 1 processor
// (the initial desire) covers L / 64 of its span; then it desires 64. On 256 processors it gets them and covers L per
// L: it ends at L + l - L / 64. On the 16 of cluster-16.xml it gets 16, covers L / 4 per L: it ends at
// L + 4 (l - L / 64).
TEST(Hierarchical, ThePlatformSetsP)
{
  const std::string step = ", min_parallelism: 64, max_parallelism: 64, shapes: [step], work_unit: 1e-2";
  const double span = step_job_span();
  const double L = 0.001;
  ASSERT_GT(span, 10 * L);
  Folder f;
  const std::vector<double> small = simulate(f, "cluster-16.xml", 1, step);
  const std::vector<double> large = simulate(f, "smp-cluster-16x16.xml", 1, step);
  ASSERT_EQ(small.size(), 3U);
  ASSERT_EQ(large.size(), 3U);
  EXPECT_NEAR(large[0], L + span - L / 64, 1e-6);
  EXPECT_NEAR(small[0], L + 4 * (span - L / 64), 1e-6);
}

// A fixed point costs the runtime nothing: under equi-equi a lone job gets the whole machine's share at every quantum
// (EQUI reads no desire), so the plan of each round after the first is the first one again (Plan::same_as_last) and
// the driver applies nothing. A Step job of parallelism 64 and span l on 256 processors computes at full rate from
// t = 0: the run decides at the ceil(l / L) boundaries 0, L, ... before l and at its end, and makes one decision, its
// start (before the policy said so, every boundary resized it to what it had, and counted a decision: l / L of them).
TEST(Hierarchical, AFixedPointAppliesNothing)
{
  const double span = step_job_span();
  const double L = 0.001;
  ASSERT_GT(span, 10 * L);
  ASSERT_GT(std::ceil(span / L) - span / L, 1e-3); // the end is no boundary
  Folder f;
  auto file =
      f.write("s.yaml", "platform: " + std::string(SOURCE_DIR) +
                            "/platforms/smp-cluster-16x16.xml\nworkload:\n  generator: {model: downey, jobs: 1, "
                            "min_parallelism: 64, max_parallelism: 64, shapes: [step], work_unit: 1e-2}\n"
                            "policy:\n  name: equi-equi\n  params: {levels: 2}\nsimulation: {seed: 1}\n");
  const std::vector<double> got = in_child([&] {
    RunReport r = jobsched::testing::run_quietly(file, f.dir / "out");
    return std::vector<double>{r.states.front().finish_time, static_cast<double>(r.performance.instants),
                               static_cast<double>(r.performance.decisions)};
  });
  ASSERT_EQ(got.size(), 3U);
  EXPECT_NEAR(got[0], span, 1e-6);
  EXPECT_EQ(got[1], std::ceil(span / L) + 1);
  EXPECT_EQ(got[2], 1);
}

} // namespace
