/* jobsched plot on hand-made tables: a sweep's aggregate.csv (2 swept keys) and a run's jobs.csv + summary.json.
 * Checks the figures written (SVG well-formed enough and carrying the titles and axis labels we set, PNG signature
 * and size), the paths printed, and the bad-input errors. No SimGrid engine; the drawing tests are skipped when
 * gnuplot is not installed. */
#include "core/errors.hpp"
#include "plot/plot.hpp"
#include "support/input_error.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using jobsched::kFigureHeight;
using jobsched::kFigureWidth;
using jobsched::plot_main;
using jobsched::testing::input_error_of;

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
  expect_svg(svg, {"mean_bounded_slowdown vs policy.name", "95% confidence interval", ">policy.name<",
                   ">mean_bounded_slowdown<", ">fcfs<", ">easy<", "workload.generator.mean_interarrival=300",
                   "workload.generator.mean_interarrival=600"});
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
  expect_svg(svg,
             {"mean_waiting_time vs workload.generator.mean_interarrival", ">workload.generator.mean_interarrival (s)<",
              ">mean_waiting_time (s)<", "policy.name=fcfs", "policy.name=easy"});
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

} // namespace
