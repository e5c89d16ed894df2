/* The generated 2-D mesh on SimGrid (each simulation in its own process): routes are XY and as long as the Manhattan
 * distance, with no wraparound; a memory image loaded from the I/O node over known links takes the time computed by
 * hand; the mesh communication pattern's traffic is slowed by a scattered placement, not by a submesh. */
#include "platform/mesh_platform.hpp"
#include "run/simulation.hpp"
#include "runtime/execution/job_runtime.hpp"
#include "support/child_process.hpp"
#include "support/quiet_run.hpp"
#include "support/scratch_folder.hpp"
#include "support/test_engine.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

using namespace jobsched;
using jobsched::testing::in_child;
namespace sg4 = simgrid::s4u;

namespace {

/* Mesh links (not NICs) on the route from host a to host b, and all links, of the platform at `file`. */
std::vector<double> route_lengths(const std::string& file, const std::vector<std::pair<std::string, std::string>>& ends)
{
  return in_child([&] {
    auto engine = jobsched::testing::quiet_l07_engine(file);
    engine->seal_platform();
    std::vector<double> out;
    for (const auto& [a, b] : ends) {
      std::vector<sg4::Link*> links;
      double latency = 0;
      engine->host_by_name(a)->route_to(engine->host_by_name(b), links, &latency);
      double mesh = 0;
      for (auto* l : links)
        mesh += l->get_name().rfind("mesh-", 0) == 0 ? 1 : 0;
      out.push_back(mesh);
      out.push_back(static_cast<double>(links.size()));
    }
    return out;
  });
}

} // namespace

/* On 16 x 8: opposite corners node-0 (0,0) and node-127 (15,7) are 15 + 7 = 22 hops apart, and so are node-15 (15,0)
 * and node-112 (0,7); the two ends of row 0 are 15 apart (a torus would make them neighbours); vertical neighbours
 * node-0 and node-16 one. Every route also crosses the two NIC links. */
TEST(MeshRuntime, RoutesAreAsLongAsTheManhattanDistance)
{
  jobsched::testing::ScratchFolder f;
  auto file = f.write("mesh.xml", mesh_platform_xml(MeshSpec{}));
  auto got = route_lengths(file.string(), {{"node-0", "node-127"},
                                           {"node-127", "node-0"},
                                           {"node-15", "node-112"},
                                           {"node-0", "node-15"},
                                           {"node-0", "node-16"},
                                           {"node-127", "io-0"}});
  // io-0 hangs off router (0, 4): from (15, 7), 15 + 3 hops.
  const std::vector<double> want = {22, 24, 22, 24, 22, 24, 15, 17, 1, 3, 18, 20};
  EXPECT_EQ(got, want);
}

/* A mesh of one row, 8 x 1 (it has no Y stages): routes along the row, |x2 - x1| mesh links and the two NICs. The front
 * end hangs off (7, 0), io-0 off (0, 0). SimGrid's route search on the first W x 1 meshes never returned. */
TEST(MeshRuntime, AMeshOfOneRowRoutesAlongIt)
{
  jobsched::testing::ScratchFolder f;
  MeshSpec spec;
  spec.width = 8;
  spec.height = 1;
  auto file = f.write("row.xml", mesh_platform_xml(spec));
  auto got = route_lengths(
      file.string(),
      {{"node-0", "node-7"}, {"node-7", "node-0"}, {"node-3", "frontend"}, {"io-0", "node-5"}, {"node-2", "node-3"}});
  const std::vector<double> want = {7, 9, 7, 9, 4, 6, 5, 7, 1, 3};
  EXPECT_EQ(got, want);
}

namespace {

/* A 2 x 2 mesh whose links all carry 100 MB/s (1e8 bytes/s) with no latency; io-0 hangs off router (0, 1)
 * (row (2 x 0 + 1) x 2 / 2 = 1). */
std::string small_mesh_xml()
{
  MeshSpec spec;
  spec.width = 2;
  spec.height = 2;
  spec.bandwidth = spec.nic_bandwidth = spec.io_bandwidth = "100MBps";
  spec.latency = "0s";
  return mesh_platform_xml(spec);
}

/* One job on the 2 x 2 mesh. Returns finish time, transfer time and bytes moved. */
std::vector<double> one_job(const std::string& rest, const std::string& communication = "")
{
  jobsched::testing::ScratchFolder f;
  f.write("mesh.xml", small_mesh_xml());
  // Demand 10 s on one processor; 390,625 KB of memory = 4e8 bytes.
  f.write("w.swf", "1 0 -1 10 1 -1 390625 1 10 -1 1 1 1 1 1 1 -1 -1\n");
  auto file = f.write("s.yaml", "platform: mesh.xml\nworkload: {trace: w.swf, jobs: {shape: moldable, min_size: 1, "
                                "max_size: 4}" +
                                    communication + "}\n" + rest);
  return in_child([&] {
    RunReport r = jobsched::testing::run_quietly(file, f.dir / "out");
    const auto& s = r.states.at(0);
    return std::vector<double>{s.finish_time, s.counters.transfer_time, s.counters.bytes_moved};
  });
}

} // namespace

/* AP gives the lone job the whole machine (L = 1 at first: C = 4). Dispatching it loads its 4e8-byte image from io-0,
 * 1e8 bytes to each node; the four flows all leave io-0 through its NIC link (1e8 bytes/s, shared four ways: 2.5e7
 * each; the mesh links they share carry at most two of them), so the load takes 4e8 / 1e8 = 4 s. Then 10 s of demand
 * on 4 processors: 2.5 s. It ends at 6.5 s. Without an image store (the paper's model) it ends at 2.5 s. */
TEST(MeshRuntime, ImageLoadTakesTheHandComputedTime)
{
  auto loaded = one_job("policy: {name: ap}\nsimulation: {images: {store: host, host: io-0}}\n");
  EXPECT_NEAR(loaded.at(0), 6.5, 1e-6);
  EXPECT_NEAR(loaded.at(1), 4.0, 1e-6);
  EXPECT_DOUBLE_EQ(loaded.at(2), 4e8);
  auto free = one_job("policy: {name: ap}\n");
  EXPECT_NEAR(free.at(0), 2.5, 1e-6);
  EXPECT_DOUBLE_EQ(free.at(1), 0.0);
}

/* The same job with the mesh pattern, 0.2 bytes per flop: on 4 processors each process computes 2.5e9 flops and
 * sends 5e8 bytes, half to each of its two grid neighbours, which on the 2 x 2 submesh are its physical neighbours.
 * Each node's NIC link carries its two outgoing flows up (5e8 bytes at 1e8 bytes/s: 5 s) and two incoming ones down
 * (5 s); each mesh link direction carries one flow (2.5e8 bytes: 2.5 s). Under L07 the task lasts as long as its
 * slowest resource: the NICs, 5 s (the CPUs need 2.5 s). */
TEST(MeshRuntime, MeshTrafficGoesBetweenPhysicalNeighbours)
{
  auto got = one_job("policy: {name: ap}\n", ", communication: {pattern: mesh, bytes_per_flop: 0.2}");
  EXPECT_NEAR(got.at(0), 5.0, 1e-6);
}

/* A job resumed while its image is still being written, then suspended again before the write ends: the write goes
 * on and the job is suspended once it is done, so a job coming onto its processor waits for it. On the 2 x 2 mesh
 * (1e8 bytes/s, no latency), job 1 (one process on node-0, 10 s, a 1e8-byte image) is suspended at 2: its image goes
 * to io-0 from 2 to 3 (one flow: 1 s). Resumed at 2.5 (it would read its image back after the write), suspended again
 * at 2.7. Job 2 (1 s on node-0) starts at 2.8 after the writes still going out of node-0: it computes from 3 to 4.
 * (Before, the write was dropped at 2.7 and job 2 ended at 3.8.) */
TEST(MeshRuntime, AWriteInterruptedByAResumeStillEnds)
{
  jobsched::testing::ScratchFolder f;
  auto file = f.write("mesh.xml", small_mesh_xml());
  auto got = in_child([&] {
    auto engine = jobsched::testing::quiet_l07_engine(file.string());
    std::vector<sg4::Host*> hosts;
    Machine machine;
    for (const char* name : {"node-0", "node-1", "node-2", "node-3"}) {
      hosts.push_back(engine->host_by_name(name));
      machine.add_host(name, 1, 1e9);
    }
    WorkloadJob a;
    a.id = 1;
    a.run_time = a.estimate = 10;
    a.memory_kb = 1e8 / 1024;
    WorkloadJob b;
    b.id = 2;
    b.run_time = b.estimate = 1;
    std::vector<double> out;
    sg4::Actor::create("script", engine->host_by_name("frontend"), [&] {
      JobRuntime rt(machine, hosts, 1e9, {}, {}, ImageStoreSpec{ImageStoreSpec::Kind::host, "io-0"});
      ResourceSet first(4);
      first.set(0);
      rt.start(a, first);
      sg4::this_actor::sleep_until(2);
      rt.suspend(1, true);
      sg4::this_actor::sleep_until(2.5);
      rt.resume(1);
      sg4::this_actor::sleep_until(2.7);
      rt.suspend(1, true);
      sg4::this_actor::sleep_until(2.8);
      out.push_back(rt.table().at(1).status == JobStatus::transferring ? 1 : 0);
      Preparation after;
      after.after = rt.image_writes_on(first);
      rt.start(b, first, after);
      while (rt.is_running(2)) {
        auto activities = rt.activities();
        const double next = rt.next_timer();
        if (activities.empty())
          sg4::this_actor::sleep_until(next);
        else
          sg4::Activity::wait_any_for(activities, std::isinf(next) ? -1.0 : next - sg4::Engine::get_clock());
        for (const auto& [id, fate] : rt.collect_ended())
          if (id == 2) out.push_back(sg4::Engine::get_clock());
      }
      out.push_back(rt.table().at(1).status == JobStatus::suspended ? 1 : 0);
      rt.kill(1);
    });
    engine->run();
    return out;
  });
  ASSERT_EQ(got.size(), 3U);
  EXPECT_EQ(got[0], 1) << "job 1 is still writing its image at 2.8";
  EXPECT_NEAR(got[1], 4.0, 1e-6);
  EXPECT_EQ(got[2], 1) << "job 1 is suspended once its image is written";
}

/* Time slices shorter than the image loads that start them: the run stops as saturated instead of running forever.
 * Gang, whole machine, quantum 2 s: two jobs of 4 processors on the 2 x 2 mesh (1e8 bytes/s). Job 1 computes from 0
 * (nothing to read at a first start) and is preempted at 2, its image going out to io-0 (over 2 s). Job 2 is
 * dispatched at 2 and waits for that write: preempted at 4 without computing (1). Job 1 at 4 waits for its write, then
 * reads its image back (over 2 s): preempted at 6 (2). From then on each dispatch is a read of at least 4 s, each
 * preemption every 2 s is fruitless: the k-th at 2 + 2k, the 1000th at 2002, where the run stops. */
TEST(MeshRuntime, ARunWhoseSlicesEndBeforeTheirImagesLoadStopsAsSaturated)
{
  jobsched::testing::ScratchFolder f;
  f.write("mesh.xml", small_mesh_xml());
  f.write("w.swf", "1 0 -1 100 4 -1 390625 4 100 -1 1 1 1 1 1 1 -1 -1\n"
                   "2 0 -1 100 4 -1 390625 4 100 -1 1 1 1 1 1 1 -1 -1\n");
  auto file = f.write("s.yaml", "platform: mesh.xml\nworkload: {trace: w.swf}\n"
                                "policy: {name: gang, params: {partition_size: 0, quantum: 2}}\n"
                                "simulation: {images: {store: host, host: io-0}}\n");
  auto got = in_child([&] {
    RunReport r = jobsched::testing::run_quietly(file, f.dir / "out");
    return std::vector<double>{r.metrics.stall_stop_time, static_cast<double>(r.metrics.saturated),
                               r.states.at(0).finished() ? 1.0 : 0.0, r.states.at(1).finished() ? 1.0 : 0.0};
  });
  EXPECT_NEAR(got.at(0), 2002, 1e-6);
  EXPECT_EQ(got.at(1), 1);
  EXPECT_EQ(got.at(2), 0);
  EXPECT_EQ(got.at(3), 0);
}
