/* jobsched plot on hand-made tables: a sweep's aggregate.csv (2 swept keys) and a run's jobs.csv + summary.json.
 * Checks the figures written (SVG well-formed enough and carrying the titles and axis labels we set, PNG signature
 * and size), the paths printed, and the bad-input errors. No SimGrid engine; the drawing tests are skipped when
 * gnuplot is not installed. */
#include "core/errors.hpp"
#include "experiment/tables.hpp"
#include "output/reports.hpp"
#include "plot/figures.hpp"
#include "plot/plot.hpp"
#include "support/input_error.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using jobsched::kFigureHeight;
using jobsched::kFigureWidth;
using jobsched::plot_main;
using jobsched::testing::input_error_of;
namespace jplot = jobsched::plot;

namespace {

bool gnuplot_installed()
{
  const char* env = std::getenv("PATH");
  std::istringstream dirs(env ? env : "");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && access((fs::path(dir) / "gnuplot").c_str(), X_OK) == 0) return true;
  return false;
}

std::string slurp(const fs::path& file)
{
  std::ifstream in(file, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void write(const fs::path& file, const std::string& content)
{
  std::ofstream(file, std::ios::binary) << content;
}

/* A folder of its own per test, removed afterwards. */
class PlotTest : public ::testing::Test {
 protected:
  void SetUp() override
  {
    std::string tmpl = (fs::temp_directory_path() / "jobsched-plot-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }

  /* 2 swept keys: policy.name in {fcfs, easy} x mean_interarrival in {300, 600}; one point with n = 1 (no CI). */
  fs::path make_sweep()
  {
    fs::path sweep = dir_ / "sweep";
    fs::create_directories(sweep);
    write(sweep / "aggregate.csv",
          "point,policy.name,workload.generator.mean_interarrival,metric,n,mean,std,ci95_half_width\n"
          "1,fcfs,300,mean_bounded_slowdown,5,42.5,6.1,7.57\n"
          "1,fcfs,300,mean_waiting_time,5,12000,800,993\n"
          "2,fcfs,600,mean_bounded_slowdown,5,8.25,1.2,1.49\n"
          "2,fcfs,600,mean_waiting_time,5,3000,400,497\n"
          "3,easy,300,mean_bounded_slowdown,5,18.75,3.3,4.1\n"
          "3,easy,300,mean_waiting_time,5,6000,500,621\n"
          "4,easy,600,mean_bounded_slowdown,1,3.5,,\n"
          "4,easy,600,mean_waiting_time,1,900,,\n");
    return sweep;
  }

  /* 4 jobs on processors 0-5 (job 4 never started, so it is skipped); summary.json says 8 processors. */
  fs::path make_run(bool with_summary)
  {
    fs::path run = dir_ / "run";
    fs::create_directories(run);
    write(run / "jobs.csv",
          "job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,success,"
          "final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,"
          "allocated_resources,consumed_energy,metadata,bounded_slowdown,trace_run_time,restarts\n"
          "1,w,rigid,0,4,100,1,COMPLETED_SUCCESSFULLY,0,100,100,0,100,1,0-3,-1,,1,100,0\n"
          "2,w,rigid,10,3,200,1,COMPLETED_SUCCESSFULLY,100,150,250,90,240,1.6,0-1 4,-1,,1.6,150,0\n"
          "3,w,rigid,20,1,50,1,COMPLETED_SUCCESSFULLY,20,50,70,0,50,1,5,-1,,1,50,0\n"
          "4,w,rigid,30,16,50,0,NOT_FINISHED,,,,,,,,-1,,,50,0\n");
    if (with_summary)
      write(run / "summary.json", "{\n  \"scenario\": \"tiny\",\n  \"policy\": \"easy\",\n  \"hosts\": 8,\n"
                                  "  \"processors\": 8,\n  \"jobs_skipped_by_reason\": {},\n  \"makespan\": 250\n}\n");
    return run;
  }

  /* Runs plot_main, returns the lines it printed. */
  std::vector<std::string> plot(const std::vector<std::string>& args)
  {
    ::testing::internal::CaptureStdout();
    int status = -1;
    try {
      status = plot_main(args);
    } catch (...) {
      ::testing::internal::GetCapturedStdout();
      throw;
    }
    std::istringstream out(::testing::internal::GetCapturedStdout());
    EXPECT_EQ(status, 0);
    std::vector<std::string> lines;
    for (std::string line; std::getline(out, line);)
      lines.push_back(line);
    return lines;
  }

  fs::path dir_;
};

void expect_svg(const fs::path& file, const std::vector<std::string>& texts)
{
  ASSERT_TRUE(fs::exists(file)) << file;
  std::string svg = slurp(file);
  EXPECT_TRUE(svg.rfind("<?xml", 0) == 0 || svg.rfind("<svg", 0) == 0) << file << " starts with " << svg.substr(0, 20);
  EXPECT_NE(svg.find("</svg>"), std::string::npos) << file;
  for (const auto& t : texts)
    EXPECT_NE(svg.find(t), std::string::npos) << file << " lacks the text '" << t << "'";
}

/* The numbers labelling the y axis in gnuplot's SVG (right-aligned texts), bottom first. */
std::vector<std::string> y_tic_labels(const std::string& svg)
{
  std::vector<std::string> labels;
  const std::string anchor = "text-anchor=\"end\">";
  for (size_t at = svg.find(anchor); at != std::string::npos; at = svg.find(anchor, at + 1)) {
    size_t open = svg.find("<text>", at);
    size_t close = svg.find("</text>", open);
    if (open == std::string::npos || close == std::string::npos) break;
    std::string text = svg.substr(open + 6, close - open - 6);
    text.erase(0, text.find_first_not_of(' '));
    if (!text.empty() && text.find_first_not_of("0123456789.-") == std::string::npos) labels.push_back(text);
  }
  return labels;
}

void expect_png(const fs::path& file)
{
  ASSERT_TRUE(fs::exists(file)) << file;
  std::string png = slurp(file);
  ASSERT_GT(png.size(), 24u) << file;
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8)) << file;
  EXPECT_EQ(png.substr(12, 4), "IHDR") << file;
  auto be32 = [&png](size_t at) {
    unsigned long v = 0;
    for (size_t i = 0; i < 4; i++)
      v = (v << 8) | static_cast<unsigned char>(png[at + i]);
    return v;
  };
  EXPECT_EQ(be32(16), static_cast<unsigned long>(kFigureWidth)) << file;
  EXPECT_EQ(be32(20), static_cast<unsigned long>(kFigureHeight)) << file;
}

TEST_F(PlotTest, SweepDefaultsMetricAgainstFirstKeyOneSeriesPerOtherKey)
{
  if (!gnuplot_installed()) GTEST_SKIP() << "gnuplot is not installed";
  fs::path sweep = make_sweep();
  auto printed = plot({sweep.string()});
  fs::path svg = sweep / "plots" / "mean_bounded_slowdown-vs-policy.name.svg";
  fs::path png = sweep / "plots" / "mean_bounded_slowdown-vs-policy.name.png";
  EXPECT_EQ(printed, (std::vector<std::string>{svg.string(), png.string()}));
  // Title, axis labels, categorical x tics, one legend entry per series.
  // Short names (policy.name is "policy"), the slowdown axis from 1.
  expect_svg(svg, {"mean bounded slowdown vs policy", "95% confidence interval", ">policy<", ">mean bounded slowdown<",
                   ">fcfs<", ">easy<", "mean interarrival time=300 s", "mean interarrival time=600 s"});
  EXPECT_EQ(slurp(svg).find("mean_bounded_slowdown"), std::string::npos);
  EXPECT_EQ(y_tic_labels(slurp(svg)).at(0), "1");
  expect_png(png);
  // Only the figures: no temporary file left in the output folder.
  EXPECT_EQ(std::distance(fs::directory_iterator(sweep / "plots"), fs::directory_iterator()), 2);
}

TEST_F(PlotTest, SweepNumericXChosenMetricAndOutputFolder)
{
  if (!gnuplot_installed()) GTEST_SKIP() << "gnuplot is not installed";
  fs::path sweep = make_sweep();
  fs::path out = dir_ / "figures";
  auto printed = plot({sweep.string(), "--metric", "mean_waiting_time", "--x=workload.generator.mean_interarrival",
                       "--series", "policy.name", "--out", out.string()});
  fs::path svg = out / "mean_waiting_time-vs-workload.generator.mean_interarrival.svg";
  EXPECT_EQ(printed.size(), 2u);
  expect_svg(svg, {"mean waiting time vs mean interarrival time", ">mean interarrival time (s)<",
                   ">mean waiting time (s)<", "policy=fcfs", "policy=easy"});
  expect_png(out / "mean_waiting_time-vs-workload.generator.mean_interarrival.png");
  EXPECT_FALSE(fs::exists(sweep / "plots"));
}

TEST_F(PlotTest, RunGanttAndUtilization)
{
  if (!gnuplot_installed()) GTEST_SKIP() << "gnuplot is not installed";
  fs::path run = make_run(true);
  auto printed = plot({run.string()});
  fs::path plots = run / "plots";
  EXPECT_EQ(printed,
            (std::vector<std::string>{(plots / "gantt.svg").string(), (plots / "gantt.png").string(),
                                      (plots / "utilization.svg").string(), (plots / "utilization.png").string()}));
  // 3 started jobs; the machine size comes from summary.json (8), not from the highest processor used (5).
  expect_svg(plots / "gantt.svg",
             {"Gantt chart: tiny under easy (3 jobs, 8 processors)", ">time since the first submission (s)<",
              ">processor<", "coloured and labelled by job id"});
  expect_svg(plots / "utilization.svg", {"Utilization: tiny under easy", ">time since the first submission (s)<",
                                         ">busy processors<", ">waiting jobs<", "processors (8)"});
  expect_png(plots / "gantt.png");
  expect_png(plots / "utilization.png");
}

/* From trace.csv: a suspended job's segments are not drawn, a context switch is grey; a run of days has a time axis
 * in days; --from/--to draw a window. Job 1 runs [0, 1 day) and [2, 3 days), suspended between; job 2 switches for a
 * minute then runs [1 day, 2 days). */
TEST_F(PlotTest, RunFromTraceInDaysWithAWindow)
{
  if (!gnuplot_installed()) GTEST_SKIP() << "gnuplot is not installed";
  fs::path run = dir_ / "long";
  fs::create_directories(run);
  write(run / "jobs.csv",
        "job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,success,"
        "final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,"
        "allocated_resources,consumed_energy,metadata\n"
        "1,w,rigid,0,2,200000,1,COMPLETED_SUCCESSFULLY,0,259200,259200,0,259200,1,0-1,-1,\n"
        "2,w,rigid,0,2,90000,1,COMPLETED_SUCCESSFULLY,86400,86460,172860,86400,172860,2,0-1,-1,\n");
  write(run / "trace.csv", "job_id,start,end,processors,state\n1,0,86400,0-1,running\n2,86400,86460,0-1,switching\n"
                           "1,86400,172860,0-1,suspended\n2,86460,172860,0-1,running\n1,172860,259200,0-1,running\n");
  plot({run.string()});
  expect_svg(run / "plots" / "gantt.svg",
             {">time since the first submission (days)<", "context switch or image transfer"});
  plot({run.string(), "--from", "86400", "--to=172800", "--out", (run / "window").string()});
  expect_svg(run / "window" / "gantt.svg", {">time since the first submission (h)<"}); // a one-day window, in hours
  std::string e = input_error_of([&] { plot_main({run.string(), "--from", "-5"}); });
  EXPECT_NE(e.find("--from '-5'"), std::string::npos) << e;
  e = input_error_of([&] { plot_main({run.string(), "--from", "100", "--to", "50"}); });
  EXPECT_NE(e.find("the window is empty"), std::string::npos) << e;
}

TEST_F(PlotTest, RunWithoutSummaryCountsProcessorsFromAllocations)
{
  if (!gnuplot_installed()) GTEST_SKIP() << "gnuplot is not installed";
  fs::path run = make_run(false);
  fs::path out = dir_ / "out";
  plot({(run / "jobs.csv").string(), "--out", out.string()}); // the table's path works too
  expect_svg(out / "gantt.svg", {"(3 jobs, 6 processors)"});
  expect_svg(out / "utilization.svg", {"processors (6)"});
}

TEST_F(PlotTest, BadInputIsAnInputErrorAndWritesNothing)
{
  fs::path sweep = make_sweep();
  std::string e = input_error_of([&] { plot_main({sweep.string(), "--metric", "throughput"}); });
  EXPECT_NE(e.find("unknown metric 'throughput'"), std::string::npos) << e;
  EXPECT_NE(e.find("known metrics: mean_bounded_slowdown, mean_waiting_time"), std::string::npos) << e;

  e = input_error_of([&] { plot_main({sweep.string(), "--x", "policy"}); });
  EXPECT_NE(e.find("--x 'policy' is not a swept key"), std::string::npos) << e;
  EXPECT_NE(e.find("swept keys: policy.name, workload.generator.mean_interarrival"), std::string::npos) << e;

  e = input_error_of([&] { plot_main({sweep.string(), "--series", "nope"}); });
  EXPECT_NE(e.find("--series 'nope' is not a swept key"), std::string::npos) << e;

  e = input_error_of([&] { plot_main({dir_.string()}); });
  EXPECT_NE(e.find("neither aggregate.csv"), std::string::npos) << e;
  EXPECT_NE(e.find("nor jobs.csv"), std::string::npos) << e;

  e = input_error_of([&] { plot_main({(dir_ / "missing").string()}); });
  EXPECT_NE(e.find("no such folder"), std::string::npos) << e;

  e = input_error_of([&] { plot_main({sweep.string(), "--colour", "red"}); });
  EXPECT_NE(e.find("unknown option '--colour'"), std::string::npos) << e;

  e = input_error_of([] { plot_main({}); });
  EXPECT_NE(e.find("no folder given"), std::string::npos) << e;

  fs::path run = make_run(true);
  e = input_error_of([&] { plot_main({run.string(), "--metric", "makespan"}); });
  EXPECT_NE(e.find("apply to sweep folders"), std::string::npos) << e;

  write(run / "jobs.csv", "job_id,submission_time,starting_time,finish_time,allocated_resources\n1,0,0,10,0-x\n");
  e = input_error_of([&] { plot_main({run.string()}); });
  EXPECT_NE(e.find("jobs.csv:2: allocated_resources '0-x'"), std::string::npos) << e;

  EXPECT_FALSE(fs::exists(sweep / "plots"));
  EXPECT_FALSE(fs::exists(run / "plots"));
}

/* What a run's figures cannot be drawn from is named, with what to do. A window where no job held processors (here
 * 185 to 195 s, while job 2 is suspended) said that trace.csv had not been written, beside trace.csv; --from alone
 * after the run's end (250 s) named a --to of 0, which was not given; a run folder written with output.jobs: false, a
 * sweep folder whose tables are not written yet, and a sweep's failed run were "neither aggregate.csv nor jobs.csv". */
TEST_F(PlotTest, WhatAFigureLacksIsNamed)
{
  auto error_of = [](const std::vector<std::string>& args) { return input_error_of([&args] { plot_main(args); }); };
  fs::path run = make_run(true);
  write(run / "trace.csv", "job_id,start,end,processors,state\n1,0,100,0-3,running\n3,20,70,5,running\n"
                           "2,100,180,0-1 4,running\n2,180,200,0-1 4,suspended\n2,200,250,0-2,running\n");
  EXPECT_EQ(error_of({run.string(), "--from", "185", "--to", "195"}),
            run.string() + ": no job held processors between 185 and 195 s after the first submission (the window of "
                           "--from and --to); in trace.csv jobs hold processors between 0 and 250 s, none in this "
                           "window: nothing to draw (give a window that meets them)");
  const std::string after_the_end = "--from 300: at or after the end of " + run.string() +
                                    ", 250 s after its first submission: nothing to draw (give --from below 250)";
  EXPECT_EQ(error_of({run.string(), "--from", "300"}), after_the_end);
  EXPECT_EQ(error_of({run.string(), "--from", "100", "--to", "50"}),
            "--from 100 and --to 50: the window is empty (--to must be above --from, 0 without it)");
  EXPECT_EQ(error_of({run.string(), "--to", "0"}),
            "--from 0 and --to 0: the window is empty (--to must be above --from, 0 without it)");
  fs::remove(run / "trace.csv"); // from jobs.csv's allocated_resources: the same end
  EXPECT_EQ(error_of({run.string(), "--from", "300"}), after_the_end);

  fs::remove(run / "jobs.csv");
  EXPECT_EQ(error_of({run.string()}),
            run.string() + ": a run folder (summary.json) without jobs.csv, which a run's figures are drawn from: the "
                           "run was made with output.jobs: false; rerun it (or its sweep) with output.jobs: true");
  fs::path failed = dir_ / "failed";
  fs::create_directories(failed);
  write(failed / "error.txt", "platform.xml: host 'frontend' was switched off\n");
  EXPECT_EQ(error_of({failed.string()}),
            failed.string() + ": a run that failed (error.txt: platform.xml: host 'frontend' was switched off): no "
                              "figure to draw");
  fs::path sweep = dir_ / "sweep";
  fs::create_directories(sweep);
  write(sweep / "plan.csv", "run,point,replication,seed,policy.name,hash\n1,0,0,1,fcfs,0123456789abcdef\n");
  EXPECT_EQ(error_of({sweep.string()}),
            sweep.string() + ": a sweep folder (plan.csv) without aggregate.csv: its tables are written when every " +
                "run is done (a shard, or a sweep stopped before the end, writes none): jobsched collect " +
                sweep.string() + " writes them from the runs done, then plot");
  for (const fs::path& folder : {run, failed, sweep})
    EXPECT_FALSE(fs::exists(folder / "plots")) << folder;
}

/* Without trace.csv, a job that was preempted (empty allocated_resources) would be missing from the Gantt chart
 * and counted on its 3 requested processors from 100 to 250 while jobs 1 and 3 hold theirs: refused, whatever the
 * other jobs hold. With its segments in trace.csv the same jobs.csv is drawn. */
TEST_F(PlotTest, RunWithoutTraceRefusesAJobThatRanWithoutAllocation)
{
  fs::path run = make_run(true);
  std::string jobs = slurp(run / "jobs.csv");
  const std::string job2_processors = ",0-1 4,";
  ASSERT_NE(jobs.find(job2_processors), std::string::npos);
  jobs.replace(jobs.find(job2_processors), job2_processors.size(), ",,");
  write(run / "jobs.csv", jobs);
  std::string e = input_error_of([&] { plot_main({run.string()}); });
  EXPECT_EQ(e, run.string() +
                   ": 1 of the 3 started jobs have no allocated_resources in jobs.csv (preempted, moved or resized: "
                   "their processors are in trace.csv, which this run did not write); rerun it (or its sweep) with "
                   "output.trace: true");
  EXPECT_FALSE(fs::exists(run / "plots"));

  write(run / "trace.csv", "job_id,start,end,processors,state\n1,0,100,0-3,running\n3,20,70,5,running\n"
                           "2,100,180,0-1 4,running\n2,180,200,0-1 4,suspended\n2,200,250,0-2,running\n");
  jplot::PlotJob job = jplot::run_figures(run, {});
  const auto utilization = std::find_if(job.data_files.begin(), job.data_files.end(),
                                        [](const auto& file) { return file.first == "utilization.dat"; });
  ASSERT_NE(utilization, job.data_files.end());
  // Busy processors by hand: 4 (job 1), 5 with job 3 from 20 to 70, then 4; from 100 job 2's 3 alone (job 1 ended),
  // none while it is suspended from 180 to 200, 3 again (moved to 0-2) until 250. Job 2 waits from 10 to 100.
  EXPECT_EQ(utilization->second, "# time (s)\tbusy processors\twaiting jobs\n0\t4\t0\n10\t4\t1\n20\t5\t1\n"
                                 "70\t4\t1\n100\t3\t0\n180\t0\t0\n200\t3\t0\n250\t0\t0\n");
}

TEST_F(PlotTest, MissingGnuplotIsAnInputError)
{
  fs::path sweep = make_sweep();
  const char* old = std::getenv("PATH");
  std::string saved = old ? old : "";
  setenv("PATH", (dir_ / "empty").c_str(), 1);
  std::string e = input_error_of([&] { plot_main({sweep.string()}); });
  if (old)
    setenv("PATH", saved.c_str(), 1);
  else
    unsetenv("PATH");
  EXPECT_EQ(e, "plotting needs gnuplot: apt-get install gnuplot-nox (the tables are unaffected)");
  EXPECT_FALSE(fs::exists(sweep / "plots"));
}

// ---------------------------------------------------------------------------------------------------------------
// Axis labels, y ranges and aggregated Gantt charts, on the gnuplot commands and data (no gnuplot needed)

/* The commands of the one figure a sweep folder gives, for these options. */
std::string sweep_commands(const fs::path& sweep, const jplot::SweepRequest& req)
{
  jplot::PlotJob job = jplot::sweep_figure(sweep, req);
  EXPECT_EQ(job.figures.size(), 1u);
  return job.figures.empty() ? "" : job.figures[0].commands;
}

/* The lines of the commands that start with `prefix`. */
std::vector<std::string> lines_starting(const std::string& commands, const std::string& prefix)
{
  std::vector<std::string> out;
  std::istringstream in(commands);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) out.push_back(line);
  return out;
}

TEST(PlotLabels, ShortNamesOfCommonKeysAndUnits)
{
  EXPECT_EQ(jplot::short_name("workload.load_factor"), "load factor");
  EXPECT_EQ(jplot::short_name("mean_bounded_slowdown"), "mean bounded slowdown");
  EXPECT_EQ(jplot::short_name("policy.name"), "policy");
  EXPECT_EQ(jplot::short_name("policy.allocation"), "allocation");
  EXPECT_EQ(jplot::short_name("utilization"), "utilization");
  EXPECT_EQ(jplot::short_name("workload.generator.mean_interarrival"), "mean interarrival time");
  EXPECT_EQ(jplot::axis_label("workload.generator.mean_interarrival"), "mean interarrival time (s)");
  EXPECT_EQ(jplot::axis_label("mean_waiting_time"), "mean waiting time (s)");
  EXPECT_EQ(jplot::axis_label("mean_bounded_slowdown"), "mean bounded slowdown");
  EXPECT_EQ(jplot::axis_label("workload.memory.node_memory_mb"), "node memory (MB)");
  // A policy's parameter by its own name; an unknown key as it is (and a time by its name's ending).
  EXPECT_EQ(jplot::short_name("policy.params.max_reservations"), "max reservations");
  EXPECT_EQ(jplot::short_name("workload.something_new"), "workload.something_new");
  EXPECT_EQ(jplot::axis_label("workload.something_new"), "workload.something_new");
  EXPECT_EQ(jplot::axis_label("custom.setup_time"), "custom.setup_time (s)");
  // The user's names win, and are the whole label.
  jplot::LabelNames names{{"workload.load_factor", "offered load (x KTH)"}};
  EXPECT_EQ(jplot::short_name("workload.load_factor", names), "offered load (x KTH)");
  EXPECT_EQ(jplot::axis_label("workload.load_factor", names), "offered load (x KTH)");
  EXPECT_EQ(jplot::short_name("policy.name", names), "policy");
}

/* Every number summary.json holds is a metric of aggregate.csv (but the seed, a column of the plan): each has a name
 * for the reader, with no underscore or dot left. */
TEST(PlotLabels, EveryMetricOfSummaryJsonHasAShortName)
{
  std::string tmpl = (fs::temp_directory_path() / "jobsched-plot-names-XXXXXX").string();
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  fs::path summary = fs::path(tmpl) / "summary.json";
  jobsched::Workload workload;
  workload.skipped["too large"] = 3; // an object with a number inside: not a metric
  write(summary, jobsched::summary_json(jobsched::RunDescription{}, workload, jobsched::RunMetrics{}));
  auto numbers = jobsched::read_summary_numbers(summary);
  fs::remove_all(tmpl);
  EXPECT_GE(numbers.size(), 30u);
  for (const auto& [key, value] : numbers) {
    std::string name = jplot::short_name(key);
    EXPECT_EQ(name.find_first_of("_."), std::string::npos) << key << " is shown as '" << name << "'";
  }
}

TEST_F(PlotTest, SweepAxisLabelsTitleAndLegendFromShortNamesOrTheUsers)
{
  fs::path sweep = make_sweep();
  jplot::SweepRequest req;
  req.x = "workload.generator.mean_interarrival";
  std::string c = sweep_commands(sweep, req);
  EXPECT_EQ(lines_starting(c, "set xlabel"), (std::vector<std::string>{"set xlabel 'mean interarrival time (s)'"}));
  EXPECT_EQ(lines_starting(c, "set ylabel"), (std::vector<std::string>{"set ylabel 'mean bounded slowdown'"}));
  EXPECT_NE(c.find("set title 'mean bounded slowdown vs mean interarrival time'"), std::string::npos) << c;
  EXPECT_NE(c.find("title 'policy=fcfs'"), std::string::npos) << c;
  EXPECT_NE(c.find("title 'policy=easy'"), std::string::npos) << c;

  // --label KEY=TEXT renames a key everywhere; --xlabel and --ylabel replace a whole label.
  req.names["policy.name"] = "scheduler";
  req.names["mean_bounded_slowdown"] = "BSLD";
  c = sweep_commands(sweep, req);
  EXPECT_EQ(lines_starting(c, "set ylabel"), (std::vector<std::string>{"set ylabel 'BSLD'"}));
  EXPECT_NE(c.find("set title 'BSLD vs mean interarrival time'"), std::string::npos) << c;
  EXPECT_NE(c.find("title 'scheduler=fcfs'"), std::string::npos) << c;
  req.xlabel = "inter-arrival (minutes / 60)";
  req.ylabel = "bounded slowdown, mean of 5";
  c = sweep_commands(sweep, req);
  EXPECT_EQ(lines_starting(c, "set xlabel"), (std::vector<std::string>{"set xlabel 'inter-arrival (minutes / 60)'"}));
  EXPECT_EQ(lines_starting(c, "set ylabel"), (std::vector<std::string>{"set ylabel 'bounded slowdown, mean of 5'"}));
}

/* --label KEY:VALUE=TEXT names one value of a series key; a point most of whose runs saturated (metric `saturated`,
 * mean >= 0.5) leaves its series' line for an open circle without an interval, and the legend says what those are. */
TEST_F(PlotTest, SweepValueLabelsAndSaturatedPoints)
{
  fs::path sweep = make_sweep();
  write(sweep / "aggregate.csv",
        "point,policy.name,workload.generator.mean_interarrival,metric,n,mean,std,ci95_half_width\n"
        "1,fcfs,300,mean_bounded_slowdown,5,42.5,6.1,7.57\n"
        "1,fcfs,300,saturated,5,0.8,0.4,0.5\n"
        "2,fcfs,600,mean_bounded_slowdown,5,8.25,1.2,1.49\n"
        "2,fcfs,600,saturated,5,0.2,0.4,0.5\n"
        "3,easy,300,mean_bounded_slowdown,5,18.75,3.3,4.1\n"
        "3,easy,300,saturated,5,0,0,0\n");
  jplot::SweepRequest req;
  req.x = "workload.generator.mean_interarrival";
  req.names["policy.name:fcfs"] = "FCFS";
  jplot::PlotJob job = jplot::sweep_figure(sweep, req);
  ASSERT_EQ(job.figures.size(), 1u);
  const std::string& c = job.figures[0].commands;
  EXPECT_NE(c.find("title 'FCFS'"), std::string::npos) << c;
  EXPECT_NE(c.find("title 'policy=easy'"), std::string::npos) << c;
  EXPECT_NE(c.find("open circle: saturated"), std::string::npos) << c;
  std::map<std::string, std::string> data(job.data_files.begin(), job.data_files.end());
  // fcfs (series 0): 600 on its line with its interval, 300 apart.
  ASSERT_EQ(data.count("saturated-0.dat"), 1u);
  EXPECT_NE(data["saturated-0.dat"].find("\t42.5\n"), std::string::npos) << data["saturated-0.dat"];
  EXPECT_EQ(data["series-0.dat"].find("42.5"), std::string::npos) << data["series-0.dat"];
  EXPECT_NE(data["series-0.dat"].find("8.25"), std::string::npos) << data["series-0.dat"];
  EXPECT_EQ(data["errors-0.dat"].find("42.5"), std::string::npos) << data["errors-0.dat"];
  EXPECT_EQ(data.count("saturated-1.dat"), 0u); // easy saturated nowhere
}

/* A series whose every point saturated keeps its legend entry (gnuplot drops the entry of a data file without
 * points: its open circles were there, unnamed), drawn from NaN in the series' style. */
TEST_F(PlotTest, AllSaturatedSeriesKeepsItsLegendEntry)
{
  fs::path sweep = make_sweep();
  write(sweep / "aggregate.csv",
        "point,policy.name,workload.generator.mean_interarrival,metric,n,mean,std,ci95_half_width\n"
        "1,fcfs,300,mean_bounded_slowdown,5,42.5,6.1,7.57\n"
        "1,fcfs,300,saturated,5,0,0,0\n"
        "2,easy,300,mean_bounded_slowdown,5,900,300,372\n"
        "2,easy,300,saturated,5,1,0,0\n"
        "3,easy,600,mean_bounded_slowdown,5,700,200,248\n"
        "3,easy,600,saturated,5,0.6,0.5,0.6\n");
  jplot::SweepRequest req;
  req.x = "workload.generator.mean_interarrival";
  jplot::PlotJob job = jplot::sweep_figure(sweep, req);
  ASSERT_EQ(job.figures.size(), 1u);
  const std::string& c = job.figures[0].commands;
  EXPECT_NE(c.find("'series-0.dat' using 1:2 with linespoints lt 1 lw 2 pt 7 ps 1.2 title 'policy=fcfs'"),
            std::string::npos)
      << c;
  EXPECT_NE(c.find("NaN with linespoints lt 2 lw 2 pt 7 ps 1.2 title 'policy=easy'"), std::string::npos) << c;
  std::map<std::string, std::string> data(job.data_files.begin(), job.data_files.end());
  EXPECT_EQ(data.count("series-1.dat"), 0u);
  ASSERT_EQ(data.count("saturated-1.dat"), 1u);
  EXPECT_NE(data["saturated-1.dat"].find("\t900\n"), std::string::npos) << data["saturated-1.dat"];
  EXPECT_NE(data["saturated-1.dat"].find("\t700\n"), std::string::npos) << data["saturated-1.dat"];
  if (gnuplot_installed()) { // the figure as drawn names both series
    plot({sweep.string(), "--x=workload.generator.mean_interarrival"});
    expect_svg(sweep / "plots" / "mean_bounded_slowdown-vs-workload.generator.mean_interarrival.svg",
               {"policy=fcfs", "policy=easy", "open circle: saturated"});
  }
}

/* A quantity that cannot be negative (every mean >= 0) starts at 0 when an interval reaches below it; gnuplot's
 * autoscale drew a turnaround axis from -500. Means of 300 +- 800 and 2000 +- 100 s. */
TEST_F(PlotTest, NonNegativeAxisStartsAtZero)
{
  fs::path sweep = make_sweep();
  write(sweep / "aggregate.csv", "point,policy.name,metric,n,mean,std,ci95_half_width\n"
                                 "1,fcfs,mean_turnaround_time,3,300,322,800\n"
                                 "2,easy,mean_turnaround_time,3,2000,40,100\n");
  jplot::SweepRequest req;
  req.metric = "mean_turnaround_time";
  std::string c = sweep_commands(sweep, req);
  EXPECT_EQ(lines_starting(c, "set yrange"), (std::vector<std::string>{"set yrange [0:*]"}));
  EXPECT_EQ(lines_starting(c, "set offsets"), (std::vector<std::string>{"set offsets 0, 0, graph 0.06, 0"}));
  // Intervals above 0: gnuplot's autoscale. A negative mean: the quantity can be negative, no floor.
  write(sweep / "aggregate.csv", "point,policy.name,metric,n,mean,std,ci95_half_width\n"
                                 "1,fcfs,mean_turnaround_time,3,300,40,100\n"
                                 "2,easy,mean_turnaround_time,3,2000,40,100\n");
  EXPECT_TRUE(lines_starting(sweep_commands(sweep, req), "set yrange").empty());
  write(sweep / "aggregate.csv", "point,policy.name,metric,n,mean,std,ci95_half_width\n"
                                 "1,fcfs,mean_turnaround_time,3,-300,40,100\n"
                                 "2,easy,mean_turnaround_time,3,2000,40,100\n");
  EXPECT_TRUE(lines_starting(sweep_commands(sweep, req), "set yrange").empty());
  if (gnuplot_installed()) { // the lowest y tic gnuplot draws is 0
    write(sweep / "aggregate.csv", "point,policy.name,metric,n,mean,std,ci95_half_width\n"
                                   "1,fcfs,mean_turnaround_time,3,300,322,800\n"
                                   "2,easy,mean_turnaround_time,3,2000,40,100\n");
    plot({sweep.string(), "--metric", "mean_turnaround_time"});
    EXPECT_EQ(y_tic_labels(slurp(sweep / "plots" / "mean_turnaround_time-vs-policy.name.svg")).at(0), "0");
  }
}

/* The plain columns aggregate.csv adds after a key swept over mappings (policy.name after policy) are not keys of the
 * figure by default: its series are the mappings, as labelled before (--label 'policy:{name: apmc}=APMC'). A leaf
 * named by --x or --series stands for its mapping when it tells the mapping's values apart (short labels). */
TEST_F(PlotTest, LeafColumnsOfASweptMappingAreNotSeriesKeys)
{
  fs::path sweep = make_sweep();
  write(sweep / "aggregate.csv",
        "point,policy,policy.name,policy.params.fraction,workload.load_factor,metric,n,mean,std,ci95_half_width\n"
        "0,{name: apmc},apmc,,0.5,mean_turnaround_time,1,100,,\n"
        "1,{name: apmc},apmc,,0.7,mean_turnaround_time,1,150,,\n"
        "2,\"{name: apvm, params: {fraction: 0.5}}\",apvm,0.5,0.5,mean_turnaround_time,1,120,,\n"
        "3,\"{name: apvm, params: {fraction: 0.5}}\",apvm,0.5,0.7,mean_turnaround_time,1,180,,\n");
  jplot::SweepRequest req;
  req.metric = "mean_turnaround_time";
  req.x = "workload.load_factor";
  req.names["policy:{name: apmc}"] = "APMC";
  std::string c = sweep_commands(sweep, req);
  EXPECT_NE(c.find("title 'APMC'"), std::string::npos) << c;
  EXPECT_NE(c.find("title 'policy={name: apvm, params: {fraction: 0.5}}'"), std::string::npos) << c;
  req.series = "policy";
  EXPECT_EQ(sweep_commands(sweep, req), c);
  req.x = "policy.name"; // stands for policy, labelled by the leaf's values
  req.series = "workload.load_factor";
  c = sweep_commands(sweep, req);
  EXPECT_NE(c.find("set xtics ('apmc' 0, 'apvm' 1)"), std::string::npos) << c;
  EXPECT_NE(c.find("title 'load factor=0.5'"), std::string::npos) << c;
  req.x = "policy.params.fraction"; // empty for apmc, 0.5 for apvm: tells them apart too
  EXPECT_NE(sweep_commands(sweep, req).find("set xtics"), std::string::npos);
  // A leaf that does not tell the mappings apart: one line naming the mapping key to use.
  write(sweep / "aggregate.csv",
        "point,policy,policy.name,policy.params.fraction,metric,n,mean,std,ci95_half_width\n"
        "0,\"{name: apvm, params: {fraction: 0.25}}\",apvm,0.25,mean_turnaround_time,1,100,,\n"
        "1,\"{name: apvm, params: {fraction: 0.5}}\",apvm,0.5,mean_turnaround_time,1,120,,\n");
  req.x = "policy.name";
  req.series.reset();
  std::string e = input_error_of([&] { jplot::sweep_figure(sweep, req); });
  EXPECT_NE(e.find("--x 'policy.name': points of 'policy' with different values"), std::string::npos) << e;
  EXPECT_NE(e.find("use --x policy"), std::string::npos) << e;
  req.x = "policy.params.nope";
  e = input_error_of([&] { jplot::sweep_figure(sweep, req); });
  EXPECT_NE(e.find("--x 'policy.params.nope' is not a swept key"), std::string::npos) << e;
  EXPECT_NE(e.find("swept keys: policy"), std::string::npos) << e;
}

/* Keys swept together (Setia's Figure 3: policy.name with the memory distribution): --series may leave out a key
 * that follows it, one value per series; a key that does not follow it is still an error naming it. */
TEST_F(PlotTest, SeriesMayLeaveOutAKeyThatFollowsIt)
{
  fs::path sweep = make_sweep();
  write(sweep / "aggregate.csv",
        "point,policy.name,workload.generator.memory_distribution,workload.load_factor,metric,n,mean,std,"
        "ci95_half_width\n"
        "0,ap,none,0.5,mean_turnaround_time,1,100,,\n"
        "1,ap,none,0.7,mean_turnaround_time,1,150,,\n"
        "2,apmc,A,0.5,mean_turnaround_time,1,120,,\n"
        "3,apmc,A,0.7,mean_turnaround_time,1,180,,\n"
        "4,apmc,B,0.5,mean_turnaround_time,1,110,,\n"
        "5,apmc,B,0.7,mean_turnaround_time,1,170,,\n");
  jplot::SweepRequest req;
  req.metric = "mean_turnaround_time";
  req.x = "workload.load_factor";
  req.series = "workload.generator.memory_distribution";
  req.names["workload.generator.memory_distribution:none"] = "AP";
  std::string c = sweep_commands(sweep, req);
  EXPECT_NE(c.find("title 'AP'"), std::string::npos) << c;
  EXPECT_NE(c.find("title 'workload.generator.memory_distribution=B'"), std::string::npos) << c;
  EXPECT_EQ(c.find("policy"), std::string::npos) << c; // not in the series' labels
  // apmc and ap under the same distribution: policy.name no longer follows the series.
  write(sweep / "aggregate.csv",
        "point,policy.name,workload.generator.memory_distribution,workload.load_factor,metric,n,mean,std,"
        "ci95_half_width\n"
        "0,ap,A,0.5,mean_turnaround_time,1,100,,\n"
        "1,apmc,A,0.5,mean_turnaround_time,1,120,,\n");
  std::string e = input_error_of([&] { jplot::sweep_figure(sweep, req); });
  EXPECT_NE(e.find("swept key 'policy.name' takes 2 values but is neither --x nor in --series"), std::string::npos)
      << e;
  // A key swept together with the x key follows the points too: one line per policy, two points each.
  write(sweep / "aggregate.csv",
        "point,workload.load_factor,workload.generator.mean_interarrival,policy.name,metric,n,mean,std,"
        "ci95_half_width\n"
        "0,0.5,20,fcfs,mean_turnaround_time,1,100,,\n"
        "1,0.5,20,easy,mean_turnaround_time,1,90,,\n"
        "2,0.7,14,fcfs,mean_turnaround_time,1,150,,\n"
        "3,0.7,14,easy,mean_turnaround_time,1,130,,\n");
  req.names.clear();
  req.series = "policy.name";
  c = sweep_commands(sweep, req);
  EXPECT_NE(c.find("title 'policy=fcfs'"), std::string::npos) << c;
  EXPECT_NE(c.find("title 'policy=easy'"), std::string::npos) << c;
  EXPECT_EQ(c.find("interarrival"), std::string::npos) << c;
}

TEST_F(PlotTest, LabelOptionsAreCheckedAndSweepOnly)
{
  fs::path sweep = make_sweep();
  std::string e = input_error_of([&] { plot_main({sweep.string(), "--label", "policy.name"}); });
  EXPECT_NE(e.find("--label 'policy.name': expected KEY=TEXT"), std::string::npos) << e;
  e = input_error_of([&] { plot_main({sweep.string(), "--label==x"}); });
  EXPECT_NE(e.find("expected KEY=TEXT"), std::string::npos) << e;
  e = input_error_of([&] { plot_main({sweep.string(), "--xlabel"}); });
  EXPECT_NE(e.find("--xlabel needs a value"), std::string::npos) << e;
  fs::path run = make_run(true);
  e = input_error_of([&] { plot_main({run.string(), "--label", "policy.name=scheduler"}); });
  EXPECT_NE(e.find("apply to sweep folders"), std::string::npos) << e;
  EXPECT_FALSE(fs::exists(sweep / "plots"));
  EXPECT_FALSE(fs::exists(run / "plots"));
}

TEST_F(PlotTest, RunAxisLabelsFromTheUser)
{
  fs::path run = make_run(true);
  jplot::RunWindow window;
  window.xlabel = "hours since 8:00";
  window.ylabel = "core";
  jplot::PlotJob job = jplot::run_figures(run, window);
  ASSERT_EQ(job.figures.size(), 2u);
  EXPECT_EQ(lines_starting(job.figures[0].commands, "set xlabel"),
            (std::vector<std::string>{"set xlabel 'hours since 8:00'"}));
  EXPECT_EQ(lines_starting(job.figures[0].commands, "set ylabel"), (std::vector<std::string>{"set ylabel 'core'"}));
  EXPECT_EQ(lines_starting(job.figures[1].commands, "set xlabel"),
            (std::vector<std::string>{"set xlabel 'hours since 8:00'"}));
}

/* The subtitle names the sweep's scenario (its runs' summary.json, found through plan.csv), not the folder, and
 * speaks of replications and intervals only when a point has more than one run. */
TEST_F(PlotTest, SweepSubtitleNamesTheScenarioAndItsReplications)
{
  fs::path sweep = make_sweep(); // folder "sweep", no plan.csv: the folder's name; n = 5 at three points
  EXPECT_EQ(
      lines_starting(sweep_commands(sweep, {}), "set title"),
      (std::vector<std::string>{"set title 'mean bounded slowdown vs policy' . \"\\n\" . 'sweep sweep: mean over the "
                                "replications, error bars = 95% confidence interval'"}));

  write(sweep / "aggregate.csv", "point,policy.name,metric,n,mean,std,ci95_half_width\n"
                                 "0,fcfs,mean_bounded_slowdown,1,42.5,,\n1,easy,mean_bounded_slowdown,1,18.75,,\n");
  write(sweep / "plan.csv", "run,point,replication,seed,policy.name,hash\n1,0,0,1,fcfs,aaaa\n2,1,0,1,easy,bbbb\n");
  fs::create_directories(sweep / "runs" / "bbbb"); // the first run has no summary.json (not run yet): the second's
  write(sweep / "runs" / "bbbb" / "summary.json", "{\"scenario\": \"sweep-policies\", \"policy\": \"easy\"}\n");
  EXPECT_EQ(
      lines_starting(sweep_commands(sweep, {}), "set title"),
      (std::vector<std::string>{"set title 'mean bounded slowdown vs policy' . \"\\n\" . 'sweep sweep-policies: one "
                                "run per point'"}));
}

/* A slowdown's axis starts at 1: linear, from 1 to a multiple of a 1-2-5 step past the highest error bar, labelled at
 * 1 and at the step's multiples (highest 42.5 + 7.57 = 50.07, and 6% of 49.07 is 53.01: 10 intervals of 5.2 -> a
 * step of 10, up to 60); other metrics keep gnuplot's autoscale. */
TEST_F(PlotTest, SlowdownAxisStartsAtOne)
{
  fs::path sweep = make_sweep();
  jplot::SweepRequest req;
  std::string c = sweep_commands(sweep, req);
  EXPECT_EQ(lines_starting(c, "set yrange"), (std::vector<std::string>{"set yrange [1:60]"}));
  EXPECT_EQ(lines_starting(c, "set ytics"), (std::vector<std::string>{"set ytics (1, 10, 20, 30, 40, 50, 60)"}));
  EXPECT_EQ(lines_starting(c, "set offsets"), // the range is ours at both ends
            (std::vector<std::string>{"set offsets 0, 0, 0, 0"}));
  req.metric = "mean_waiting_time";
  c = sweep_commands(sweep, req);
  EXPECT_TRUE(lines_starting(c, "set yrange").empty());
  EXPECT_EQ(lines_starting(c, "set offsets"), (std::vector<std::string>{"set offsets 0, 0, graph 0.06, graph 0.06"}));
  EXPECT_TRUE(jplot::is_slowdown("mean_slowdown"));
  EXPECT_TRUE(jplot::is_slowdown("mean_bounded_slowdown"));
  EXPECT_TRUE(jplot::is_slowdown("stretch"));
  EXPECT_FALSE(jplot::is_slowdown("utilization"));
}

/* The tic labels of gnuplot's SVG: text, anchor point, turn (degrees) and alignment. */
struct SvgLabel {
  std::string text;
  double x = 0, y = 0, angle = 0;
  std::string anchor;
};
std::vector<SvgLabel> svg_labels(const std::string& svg)
{
  std::vector<SvgLabel> labels;
  const std::string group = "<g transform=\"translate(";
  for (size_t at = svg.find(group); at != std::string::npos; at = svg.find(group, at + 1)) {
    SvgLabel l;
    const size_t end = svg.find('>', at);
    const std::string head = svg.substr(at, end - at);
    std::sscanf(head.c_str() + group.size(), "%lf,%lf", &l.x, &l.y);
    if (const size_t r = head.find("rotate("); r != std::string::npos) l.angle = std::atof(head.c_str() + r + 7);
    if (const size_t a = head.find("text-anchor=\""); a != std::string::npos)
      l.anchor = head.substr(a + 13, head.find('"', a + 13) - a - 13);
    const size_t open = svg.find("<text>", end);
    if (open == std::string::npos || open > svg.find("</g>", end)) continue;
    l.text = svg.substr(open + 6, svg.find("</text>", open) - open - 6);
    l.text.erase(0, l.text.find_first_not_of(' '));
    labels.push_back(l);
  }
  return labels;
}

/* A sweep over the policies of every family (kth-every-policy.yaml's, by --x policy.name): gnuplot's SVG turns the
 * category labels by 45 degrees, ending under their tics, so that two neighbours are farther apart across their
 * lines than a line is high, and none starts left of the figure; the slowdown axis has one label per height. */
TEST_F(PlotTest, CategoryLabelsOfManyPoliciesDoNotOverlap)
{
  if (!gnuplot_installed()) GTEST_SKIP() << "gnuplot is not installed";
  fs::path sweep = dir_ / "every";
  fs::create_directories(sweep);
  const std::vector<std::string> names{"fcfs",  "easy",  "conservative",       "gang",
                                       "equi",  "ap",    "memory-constrained", "gang-now",
                                       "ac-ds", "ag-ds", "equi-equi"};
  std::string table = "point,policy.name,metric,n,mean,std,ci95_half_width\n";
  for (size_t i = 0; i < names.size(); i++)
    table += std::to_string(i) + "," + names[i] + ",mean_slowdown,1," + std::to_string(1.5 + 100.0 * i) + ",,\n";
  write(sweep / "aggregate.csv", table);
  plot({sweep.string(), "--metric", "mean_slowdown"});
  const std::vector<SvgLabel> labels = svg_labels(slurp(sweep / "plots" / "mean_slowdown-vs-policy.name.svg"));
  std::vector<SvgLabel> x_labels;
  for (const auto& l : labels)
    if (std::find(names.begin(), names.end(), l.text) != names.end()) x_labels.push_back(l);
  ASSERT_EQ(x_labels.size(), names.size());
  for (size_t i = 0; i < x_labels.size(); i++) {
    EXPECT_EQ(x_labels[i].text, names[i]);
    EXPECT_EQ(x_labels[i].angle, -45) << names[i];
    EXPECT_EQ(x_labels[i].anchor, "end") << names[i];
    // the text's far end, cos 45 of its width (at most 9 px a character at 13 px) to the left of its anchor
    EXPECT_GE(x_labels[i].x - 9.0 * static_cast<double>(names[i].size()) * std::sqrt(0.5), 0) << names[i];
    if (i > 0) { // parallel lines at 45 degrees: across them, sin 45 of the anchors' distance, > a 13 px line
      EXPECT_GT((x_labels[i].x - x_labels[i - 1].x) * std::sqrt(0.5), 13 * 1.3) << names[i];
      EXPECT_DOUBLE_EQ(x_labels[i].y, x_labels[i - 1].y) << names[i];
    }
  }
  // y: 1 to 1001.5 + 6% -> a step of 200 up to 1200; each label at its own height, bottom first
  std::vector<SvgLabel> y_labels;
  for (const auto& l : labels)
    if (l.anchor == "end" && l.angle == 0 && !l.text.empty() &&
        l.text.find_first_not_of("0123456789.") == std::string::npos)
      y_labels.push_back(l);
  std::vector<std::string> texts;
  for (const auto& l : y_labels)
    texts.push_back(l.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"1", "200", "400", "600", "800", "1000", "1200"}));
  for (size_t i = 1; i < y_labels.size(); i++)
    EXPECT_GT(y_labels[i - 1].y - y_labels[i].y, 13 * 1.3) << texts[i];
}

/* On a log axis the range is the data's, out to the nearest 1-2-5 values. Bounded slowdowns 3.5 to 42.5 + 7.57:
 * from 1 (a slowdown within the first decade) to 100 (50.07 and 5% is 52.6). Waiting times 900 to 12000 + 993: 900
 * / 1.05 = 857 -> 500, 12993 * 1.05 = 13643 -> 20000, labelled at every 1-2-5 value (gnuplot's autoscale: 100 to
 * 100000, the decade 100-1000 and 10^4-10^5 mostly empty). */
TEST_F(PlotTest, LogAxisRangeFromTheData)
{
  fs::path sweep = make_sweep();
  jplot::SweepRequest req;
  req.log_y = true;
  std::string c = sweep_commands(sweep, req);
  EXPECT_EQ(lines_starting(c, "set yrange"), (std::vector<std::string>{"set yrange [1:100]"}));
  EXPECT_EQ(lines_starting(c, "set offsets"), (std::vector<std::string>{"set offsets 0, 0, 0, 0"}));
  EXPECT_EQ(lines_starting(c, "set ytics"), (std::vector<std::string>{"set ytics (1, 2, 5, 10, 20, 50, 100)"}));
  EXPECT_EQ(lines_starting(c, "set ylabel"),
            (std::vector<std::string>{"set ylabel 'mean bounded slowdown (log scale)'"}));
  req.metric = "mean_waiting_time";
  c = sweep_commands(sweep, req);
  EXPECT_EQ(lines_starting(c, "set yrange"), (std::vector<std::string>{"set yrange [500:20000]"}));
  EXPECT_EQ(lines_starting(c, "set ytics"),
            (std::vector<std::string>{"set ytics (500, 1000, 2000, 5000, 10000, 20000)"}));

  // A slowdown far from 1 does not start at 1 on a log axis: that would be a decade (or more) without data.
  fs::path high = dir_ / "high";
  fs::create_directories(high);
  write(high / "aggregate.csv", "point,workload.load_factor,metric,n,mean,std,ci95_half_width\n"
                                "1,0.5,mean_bounded_slowdown,1,40,,\n"
                                "2,1.5,mean_bounded_slowdown,1,3000,,\n");
  req.metric = "mean_bounded_slowdown";
  c = sweep_commands(high, req);
  EXPECT_EQ(lines_starting(c, "set yrange"), (std::vector<std::string>{"set yrange [20:5000]"})); // 38.1, 3150
  EXPECT_EQ(lines_starting(c, "set xlabel"), (std::vector<std::string>{"set xlabel 'load factor'"}));
  req.log_y = false; // 3000 + 6% of 2999 = 3179.94: a step of 500 (10 intervals of 318), up to 3500
  c = sweep_commands(high, req);
  EXPECT_EQ(lines_starting(c, "set yrange"), (std::vector<std::string>{"set yrange [1:3500]"}));
  EXPECT_EQ(lines_starting(c, "set ytics"),
            (std::vector<std::string>{"set ytics (1, 500, 1000, 1500, 2000, 2500, 3000, 3500)"}));
  if (gnuplot_installed()) { // gnuplot's own tics beside the 1 drew a 0 over it, at the same height
    plot({high.string()});
    EXPECT_EQ(y_tic_labels(slurp(high / "plots" / "mean_bounded_slowdown-vs-workload.load_factor.svg")),
              (std::vector<std::string>{"1", "500", "1000", "1500", "2000", "2500", "3000", "3500"}));
  }

  if (gnuplot_installed()) { // gnuplot labels the range as set: from 1, no decade without data
    plot({sweep.string(), "--log-y"});
    EXPECT_EQ(y_tic_labels(slurp(sweep / "plots" / "mean_bounded_slowdown-vs-policy.name.svg")),
              (std::vector<std::string>{"1", "2", "5", "10", "20", "50", "100"}));
  }

  // Nothing above 0: nothing to draw on a log axis.
  write(high / "aggregate.csv", "point,workload.load_factor,metric,n,mean,std,ci95_half_width\n"
                                "1,0.5,jobs_killed,1,0,,\n");
  req.metric = "jobs_killed";
  req.log_y = true;
  std::string e = input_error_of([&] { jplot::sweep_figure(high, req); });
  EXPECT_NE(e.find("--log-y: metric 'jobs_killed' has no value above 0"), std::string::npos) << e;
}

/* For any data, the log range holds the data and leaves less than a decade without data at either end. */
TEST(PlotAxes, LogRangeNeverHasAnEmptyDecade)
{
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> exponent(-4, 8);
  for (int i = 0; i < 10000; i++) {
    double a = std::pow(10.0, exponent(rng));
    double b = a * std::pow(10.0, exponent(rng) / 3 + 4.0 / 3); // 0 to 4 decades above
    bool slowdown = i % 2 == 1;
    if (slowdown) {
      a = std::max(a, 1.0);
      b = std::max(a, b);
    }
    jplot::AxisRange r = jplot::log_axis_range(a, b, slowdown);
    ASSERT_LE(r.lo, a) << a << " " << b;
    ASSERT_GE(r.hi, b) << a << " " << b;
    ASSERT_LT(a / r.lo, 10) << a << " " << b;
    ASSERT_LT(r.hi / b, 10) << a << " " << b;
    if (slowdown) {
      ASSERT_GE(r.lo, 1) << a << " " << b;
      if (a < 10) {
        ASSERT_EQ(r.lo, 1) << a << " " << b;
      }
    }
  }
}

/* The linear axis of a slowdown, checked against its definition for any data: from 1 to a multiple of a 1-2-5 step of
 * 4 to 10 intervals past the data and its margin, labels at 1 and at the step's multiples at least half a step above
 * it, in order. */
TEST(PlotAxes, SlowdownAxisLabelsNeverCrowdTheOne)
{
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> exponent(-3, 6);
  for (int i = 0; i < 20000; i++) {
    const double highest = 1 + std::pow(10.0, exponent(rng));
    const jplot::LinearAxis axis = jplot::linear_axis_from(1, highest);
    ASSERT_EQ(axis.range.lo, 1);
    const double top = highest + 0.06 * (highest - 1);
    ASSERT_GE(axis.range.hi, top * (1 - 1e-12)) << highest;
    ASSERT_GE(axis.tics.size(), 2u) << highest;
    const double step = axis.tics.back() - axis.tics[axis.tics.size() - 2];
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    ASSERT_TRUE(std::abs(mantissa - 1) < 1e-6 || std::abs(mantissa - 2) < 1e-6 || std::abs(mantissa - 5) < 1e-6)
        << highest << " step " << step;
    ASSERT_LT(axis.range.hi - step, top) << highest; // the first multiple past the top
    const double intervals = (axis.range.hi - 1) / step;
    ASSERT_GE(intervals, 3.5) << highest;
    ASSERT_LE(intervals, 11 + 1e-9) << highest;
    ASSERT_EQ(axis.tics.front(), 1);
    ASSERT_NEAR(axis.tics.back(), axis.range.hi, 1e-9 * axis.range.hi) << highest;
    for (size_t t = 1; t < axis.tics.size(); t++) {
      ASSERT_GE(axis.tics[t] - axis.tics[t - 1], step / 2 * (1 - 1e-9)) << highest << " tic " << t;
      ASSERT_NEAR(axis.tics[t] / step, std::round(axis.tics[t] / step), 1e-9) << highest << " tic " << t;
    }
  }
  // Every value at 1: one unit above it, in steps of 0.2.
  const jplot::LinearAxis flat = jplot::linear_axis_from(1, 1);
  EXPECT_DOUBLE_EQ(flat.range.hi, 2.2); // 2 + 6% of 1 = 2.06, in steps of 0.2
  EXPECT_EQ(flat.tics.size(), 7u);      // 1, 1.2, ..., 2.2
}

/* Category labels are turned when the widest is wider than its share of the axis, and the left margin is the smallest
 * (found here by trying every hundredth of a pixel) that keeps each turned label inside the figure. */
TEST(PlotAxes, CategoryLabelsTurnWhenTheyDoNotFit)
{
  EXPECT_FALSE(jplot::category_labels({"fcfs", "easy", "conservative"}, 1200).rotated);
  const std::vector<std::string> names{"fcfs",  "easy",  "conservative",       "gang",
                                       "equi",  "ap",    "memory-constrained", "gang-now",
                                       "ac-ds", "ag-ds", "equi-equi"};
  // 18 characters of 8.2 px and a gap of 8 = 155.6 px, where 11 categories have (1200 - 80 - 28) / 11 = 99.3 each.
  jplot::CategoryLabels layout = jplot::category_labels(names, 1200);
  EXPECT_TRUE(layout.rotated);
  EXPECT_EQ(layout.left_margin, 0); // "fcfs" reaches 31 px left of its tic, 80 + 50 px from the edge
  // Three labels of 49, 12 and 41 characters: 409.8 px, wider than a third of the axis (364 px) though not by much.
  const std::vector<std::string> three{"{name: memory-constrained, params: {quantum: 60}}", "{name: fcfs}",
                                       "{name: equi-equi, params: {quantum: 60}}"};
  EXPECT_TRUE(jplot::category_labels(three, 1200).rotated);
  std::vector<std::string> long_first = names;
  long_first[0] = three[0]; // 49 characters: 292 px to the left
  layout = jplot::category_labels(long_first, 1200);
  ASSERT_TRUE(layout.rotated);
  double smallest = 0;
  for (int hundredths = 0; hundredths < 120000; hundredths++) {
    const double left = hundredths / 100.0;
    bool inside = true;
    for (size_t i = 0; i < long_first.size(); i++) {
      const double tic = left + (1200 - 28 - left) * (static_cast<double>(i) + 0.5) / 11;
      inside = inside && tic >= static_cast<double>(long_first[i].size()) * 8.2 * std::sqrt(0.5) + 8;
    }
    if (inside) {
      smallest = left;
      break;
    }
  }
  EXPECT_NEAR(layout.left_margin * 1200, smallest, 0.01);
  EXPECT_GT(smallest, 80);
}

/* Segments that fill whole columns come out as they are: per processor, one rectangle per run of one state. */
TEST(PlotGantt, AggregationOfWholeColumnsIsExact)
{
  std::vector<jplot::GanttSegment> segments{
      {0, 50, 0, 1, true}, {50, 70, 0, 0, true}, {20, 30, 2, 2, false}, {80, 100, 2, 3, true}};
  jplot::GanttAggregation a = jplot::aggregate_gantt(segments, 4, 0, 100, 10, 100);
  EXPECT_EQ(a.columns, 10u);
  EXPECT_DOUBLE_EQ(a.column_seconds, 10);
  EXPECT_EQ(a.processors_per_row, 1);
  ASSERT_EQ(a.runs.size(), 5u);
  auto expect_run = [&](size_t i, double start, double end, long processor, bool computing) {
    EXPECT_NEAR(a.runs[i].start, start, 1e-9) << i;
    EXPECT_NEAR(a.runs[i].end, end, 1e-9) << i;
    EXPECT_EQ(a.runs[i].lowest, processor) << i;
    EXPECT_EQ(a.runs[i].highest, processor) << i;
    EXPECT_EQ(a.runs[i].computing, computing) << i;
  };
  expect_run(0, 0, 70, 0, true); // two jobs back to back: one state, one rectangle
  expect_run(1, 0, 50, 1, true);
  expect_run(2, 20, 30, 2, false);
  expect_run(3, 80, 100, 2, true);
  expect_run(4, 80, 100, 3, true);
}

/* Random jobs on 8 processors (back to back or with gaps, 2% of them switching), many per column: per processor, the
 * time drawn computing and switching is within one column of the time spent so. With 200 processors in rows of 10,
 * within one column of the band's processor-seconds. */
TEST(PlotGantt, AggregationKeepsBusyTimeWithinOneColumnPerRow)
{
  for (long processors : {8L, 200L}) {
    std::mt19937_64 rng(static_cast<unsigned long>(processors));
    std::exponential_distribution<double> length(1.0 / 30);
    std::uniform_real_distribution<double> unit(0, 1);
    const double t_begin = 1000;
    const double t_end = 101000;
    std::vector<jplot::GanttSegment> segments;
    for (long p = 0; p < processors; p++) {
      for (double t = 0; t < 102000;) { // some before and after the window: clipped
        double d = length(rng);
        if (unit(rng) < 0.6) segments.push_back({t, t + d, p, p, unit(rng) > 0.02});
        t += d;
      }
    }
    const long max_rows = 20;
    jplot::GanttAggregation a = jplot::aggregate_gantt(segments, processors, t_begin, t_end, 500, max_rows);
    const long per_row = (processors + max_rows - 1) / max_rows;
    EXPECT_EQ(a.processors_per_row, per_row);
    EXPECT_DOUBLE_EQ(a.column_seconds, 200);
    const long rows = (processors + per_row - 1) / per_row;
    std::vector<double> spent(size_t(rows) * 2, 0.0);
    std::vector<double> drawn(size_t(rows) * 2, 0.0);
    for (const auto& s : segments) {
      double overlap = std::min(s.end, t_end) - std::max(s.start, t_begin);
      if (overlap > 0) spent[size_t(s.lowest / per_row) * 2 + (s.computing ? 0 : 1)] += overlap;
    }
    for (const auto& r : a.runs) {
      ASSERT_EQ(r.lowest % per_row, 0);
      ASSERT_EQ(r.highest, std::min(r.lowest + per_row, processors) - 1);
      drawn[size_t(r.lowest / per_row) * 2 + (r.computing ? 0 : 1)] += (r.end - r.start) * double(per_row);
    }
    for (long row = 0; row < rows; row++)
      for (size_t state : {0u, 1u}) {
        size_t i = size_t(row) * 2 + state;
        EXPECT_GT(spent[i], 0);
        EXPECT_LE(std::abs(drawn[i] - spent[i]), a.column_seconds * double(per_row))
            << processors << " processors, row " << row << (state ? " switching" : " computing") << ": spent "
            << spent[i] << ", drawn " << drawn[i];
      }
  }
}

/* A random walk of 100,000 changes: thinned to at most 6 points per column (and the bucket before the window), with
 * the same first, last, lowest and highest busy and waiting in every column as the whole; few points stay as they
 * are. */
TEST(PlotUtilization, ThinnedStepsKeepEachColumnsExtremes)
{
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> step(-3, 3);
  std::vector<jplot::StepPoint> points;
  long busy = 500, waiting = 50;
  for (int i = 0; i < 100000; i++) {
    busy = std::max(0L, busy + step(rng));
    waiting = std::max(0L, waiting + step(rng));
    points.push_back({double(i) * 0.37 - 100, busy, waiting}); // from -100: some before the window
  }
  const double t_begin = 0, t_end = 30000;
  const size_t columns = 300;
  auto thinned = jplot::thin_steps(points, t_begin, t_end, columns);
  EXPECT_LE(thinned.size(), 6 * (columns + 2));
  EXPECT_TRUE(std::is_sorted(thinned.begin(), thinned.end(),
                             [](const jplot::StepPoint& a, const jplot::StepPoint& b) { return a.time < b.time; }));
  // Per column, independently: the extremes of each series and the last value (the value at the column's end).
  struct Extremes {
    long min_busy = LONG_MAX, max_busy = LONG_MIN, min_waiting = LONG_MAX, max_waiting = LONG_MIN;
    long last_busy = -1, last_waiting = -1;
  };
  auto per_column = [&](const std::vector<jplot::StepPoint>& ps) {
    std::map<long, Extremes> out;
    for (const auto& p : ps) {
      long c = p.time < t_begin ? -1 : p.time >= t_end ? long(columns) : long((p.time - t_begin) / 100);
      Extremes& e = out[c];
      e.min_busy = std::min(e.min_busy, p.busy);
      e.max_busy = std::max(e.max_busy, p.busy);
      e.min_waiting = std::min(e.min_waiting, p.waiting);
      e.max_waiting = std::max(e.max_waiting, p.waiting);
      e.last_busy = p.busy;
      e.last_waiting = p.waiting;
    }
    return out;
  };
  auto all = per_column(points);
  auto kept = per_column(thinned);
  ASSERT_EQ(all.size(), kept.size());
  for (const auto& [c, e] : all) {
    const Extremes& k = kept[c];
    EXPECT_EQ(k.min_busy, e.min_busy) << c;
    EXPECT_EQ(k.max_busy, e.max_busy) << c;
    EXPECT_EQ(k.min_waiting, e.min_waiting) << c;
    EXPECT_EQ(k.max_waiting, e.max_waiting) << c;
    EXPECT_EQ(k.last_busy, e.last_busy) << c;
    EXPECT_EQ(k.last_waiting, e.last_waiting) << c;
  }
}

/* A run folder with `jobs` jobs of one processor each, back to back on `processors` processors, with a trace.csv of
 * one segment per job (one in 50 switching before it runs). */
fs::path make_big_run(const fs::path& dir, long jobs, long processors)
{
  fs::create_directories(dir);
  std::ofstream csv(dir / "jobs.csv");
  std::ofstream trace(dir / "trace.csv");
  csv << "job_id,submission_time,starting_time,finish_time,allocated_resources,requested_number_of_resources\n";
  trace << "job_id,start,end,processors,state\n";
  std::vector<double> free_at(static_cast<size_t>(processors), 0.0);
  for (long j = 0; j < jobs; j++) {
    long p = j % processors;
    double start = free_at[size_t(p)] + double(j % 7) * 10;
    double run = 100 + double((j * 37) % 900);
    csv << j << "," << start << "," << start << "," << start + run << "," << p << ",1\n";
    if (j % 50 == 0) {
      trace << j << "," << start << "," << start + 5 << "," << p << ",switching\n";
      trace << j << "," << start + 5 << "," << start + run << "," << p << ",running\n";
    } else {
      trace << j << "," << start << "," << start + run << "," << p << ",running\n";
    }
    free_at[size_t(p)] = start + run;
  }
  return dir;
}

/* Small Gantt charts as before: one rectangle per job segment and interval of processors, bordered, coloured and
 * labelled by job. */
TEST_F(PlotTest, SmallGanttChartIsNotAggregated)
{
  jplot::PlotJob job = jplot::run_figures(make_run(true), {});
  ASSERT_FALSE(job.data_files.empty());
  EXPECT_EQ(job.data_files[0].first, "gantt.dat");
  std::istringstream rows(job.data_files[0].second);
  std::vector<std::string> lines;
  for (std::string line; std::getline(rows, line);)
    lines.push_back(line);
  ASSERT_EQ(lines.size(), 5u); // header; job 1 on 0-3; job 2 on 0-1 and 4; job 3 on 5
  EXPECT_EQ(lines[1].rfind("0\t100\t-0.5\t3.5\t", 0), 0u) << lines[1];
  EXPECT_NE(lines[1].find("# job 1"), std::string::npos);
  EXPECT_NE(lines[3].find("250\t3.5\t4.5\t"), std::string::npos) << lines[3];
  EXPECT_EQ(job.figures[0].commands.find("aggregated"), std::string::npos);
  EXPECT_NE(job.figures[0].commands.find("border lc rgb '#303030'"), std::string::npos);
  EXPECT_NE(job.figures[0].commands.find("coloured and labelled by job id"), std::string::npos);
}

/* 200,000 segments on 64 processors: aggregated into at most 25,000 rectangles, which the title says. */
TEST_F(PlotTest, LargeGanttChartIsAggregated)
{
  fs::path run = make_big_run(dir_ / "big", 196078, 64); // 3,922 of them (one in 50) switch first: 200,000 segments
  jplot::PlotJob job = jplot::run_figures(run, {});
  const std::string& data = job.data_files.at(0).second;
  size_t rows = static_cast<size_t>(std::count(data.begin(), data.end(), '\n')) - 1;
  EXPECT_GT(rows, 64u);
  EXPECT_LE(rows, 25000u);
  EXPECT_NE(data.find("aggregated, 1000 columns"), std::string::npos) << data.substr(0, 200);
  const std::string& g = job.figures.at(0).commands;
  EXPECT_NE(g.find("aggregated: 200000 segments as " + std::to_string(rows) + " rectangles"), std::string::npos) << g;
  EXPECT_NE(g.find("title 'computing (any job)'"), std::string::npos) << g;
  EXPECT_NE(g.find("noborder"), std::string::npos) << g;
}

/* The SVG of that chart is a few MB (one rectangle per segment would be about 27 MB, at 135 bytes each). */
TEST_F(PlotTest, LargeGanttSvgIsAFewMegabytes)
{
  if (!gnuplot_installed()) GTEST_SKIP() << "gnuplot is not installed";
  fs::path run = make_big_run(dir_ / "big", 196078, 64);
  plot({run.string()});
  auto size = fs::file_size(run / "plots" / "gantt.svg");
  std::printf("gantt.svg of 200,000 segments: %.2f MB; utilization.svg: %.2f MB\n", double(size) / 1e6,
              double(fs::file_size(run / "plots" / "utilization.svg")) / 1e6);
  EXPECT_LT(size, 5000000u);
  EXPECT_LT(fs::file_size(run / "plots" / "utilization.svg"), 5000000u);
  expect_svg(run / "plots" / "gantt.svg", {"aggregated: 200000 segments as"});
  expect_svg(run / "plots" / "utilization.svg", {"changes drawn as"});
}

} // namespace
