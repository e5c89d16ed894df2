/* jobsched plot: the command line. The figures come from plot/sweep_figure.cpp and plot/run_figures.cpp, drawn by
 * plot/gnuplot.cpp. */
#include "plot/plot.hpp"

#include "core/command_line.hpp"
#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "output/run_folder.hpp"
#include "plot/figures.hpp"

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;

namespace jobsched {

const char* const kPlotUsage = R"(Usage: jobsched plot PATH [options]

Draws figures (SVG and PNG) from the files jobsched wrote, with gnuplot.
  PATH a sweep folder (with aggregate.csv): METRIC against a swept key, one line per series, error bars = the
       confidence interval of the mean over the replications at aggregate.csv's level (replications.confidence or
       collect --confidence; 95% by default), which the title gives; writes METRIC-vs-KEY.svg and .png
  PATH a run folder (with jobs.csv): gantt.svg and .png (which job held which processor when, from trace.csv) and
       utilization.svg and .png (busy processors and waiting jobs over time); time in seconds, hours or days since
       the first submission

Options:
  --metric NAME          sweeps: the metric to plot (default mean_bounded_slowdown)
  --x KEY                sweeps: the swept key on the x axis (default: the first swept key); for a key swept over
                         mappings, one of its leaves (policy.name for policy) labels the points by that leaf
  --series KEY[,KEY...]  sweeps: one line per value of these keys (default: the other swept keys that vary)
  --log-y                sweeps: logarithmic y axis (for metrics that span orders of magnitude)
  --from S, --to S       runs: draw only the window [S, S] in seconds since the first submission (long runs)
  --xlabel TEXT          the x axis label, as given (sweeps: instead of the key's short name and unit; runs: the
                         time axis)
  --ylabel TEXT          the y axis label, as given (sweeps: instead of the metric's; runs: the Gantt chart's)
  --label KEY=TEXT       sweeps: call KEY (a metric or swept key) TEXT in labels, titles and legends; repeatable.
                         Without it, keys have short names (workload.load_factor: load factor, policy.name: policy,
                         mean_bounded_slowdown: mean bounded slowdown); a key not in the table is shown as is.
                         KEY:VALUE=TEXT names one value of a series key in legends (policy.params.partition_size:16=
                         'GS(16)'). Points most of whose runs were saturated (summary.json's `saturated`) are drawn
                         as open circles, apart from their series' line
  --out DIR              write the figures to DIR (default: PATH/plots)

Prints the paths of the files written. Needs gnuplot (Debian: apt-get install gnuplot-nox).
Exit status: 0 success, 2 bad input (the message names the file, line or key), 3 internal error.
)";

namespace {

/* The command line of jobsched plot, as CLI11 read it. */
struct PlotOptions {
  std::string path;
  std::string metric, x, series, from, to, xlabel, ylabel, out;
  std::vector<std::string> labels; // --label KEY=TEXT, in order
  bool log_y = false;
};

int run_plot(const PlotOptions& o, const CLI::App& command)
{
  using namespace plot;
  const std::string& path = o.path;
  SweepRequest sweep;
  bool sweep_option = false;
  std::string out;
  RunWindow window;
  bool run_option = false;
  auto given = [&command](const std::string& name) { return command.count(name) > 0; };
  auto value = [&](const std::string& name, const std::string& v) -> const std::string& {
    if (v.empty()) throw InputError(name + " needs a non-empty value (see jobsched plot --help)");
    return v;
  };
  if (given("--metric")) {
    sweep.metric = value("--metric", o.metric);
    sweep_option = true;
  }
  if (given("--x")) {
    sweep.x = value("--x", o.x);
    sweep_option = true;
  }
  if (given("--series")) {
    sweep.series = value("--series", o.series);
    sweep_option = true;
  }
  if (o.log_y) {
    sweep.log_y = true;
    sweep_option = true;
  }
  for (const std::string name : {"--from", "--to"}) {
    if (!given(name)) continue;
    const std::string& v = value(name, name == "--from" ? o.from : o.to);
    char* end = nullptr;
    double seconds = std::strtod(v.c_str(), &end);
    if (*end != '\0' || !std::isfinite(seconds) || seconds < 0)
      throw InputError(name + " '" + v + "': expected seconds since the first submission (a number >= 0)");
    (name == "--from" ? window.from : window.to) = seconds;
    run_option = true;
  }
  if (given("--xlabel")) sweep.xlabel = window.xlabel = value("--xlabel", o.xlabel);
  if (given("--ylabel")) sweep.ylabel = window.ylabel = value("--ylabel", o.ylabel);
  for (const std::string& label : o.labels) {
    const std::string& v = value("--label", label);
    size_t eq = v.find('=');
    if (eq == 0 || eq == std::string::npos || eq + 1 == v.size())
      throw InputError("--label '" + v + "': expected KEY=TEXT (e.g. --label workload.load_factor='offered load')");
    sweep.names[v.substr(0, eq)] = v.substr(eq + 1);
    sweep_option = true;
  }
  if (given("--out")) out = value("--out", o.out);
  if (path.empty())
    throw InputError("no folder given: jobsched plot PATH (a sweep folder with aggregate.csv or a run folder with "
                     "jobs.csv)");

  fs::path dir = path;
  std::error_code ec;
  if (fs::is_regular_file(dir, ec) && (dir.filename() == "aggregate.csv" || dir.filename() == "jobs.csv"))
    dir = dir.parent_path().empty() ? fs::path(".") : dir.parent_path();
  if (!fs::is_directory(dir, ec))
    throw InputError(path + (fs::exists(fs::symlink_status(dir, ec))
                                 ? ": not a folder (a sweep folder with aggregate.csv "
                                   "or a run folder with jobs.csv, or that file)"
                                 : ": no such folder"));
  // A run writes its outputs into a hidden folder, renamed into place when it ends (or left behind by a run that was
  // killed): its files are cut short.
  if (is_run_writing_folder(fs::absolute(dir, ec).lexically_normal().filename().string()))
    throw InputError(path + ": the hidden folder of a run still writing its outputs (or killed while it wrote them): " +
                     "they are renamed into place when the run ends; plot the run's folder then");
  fs::path out_dir = out.empty() ? dir / "plots" : fs::path(out);

  PlotJob job;
  if (fs::exists(dir / "aggregate.csv", ec)) {
    if (run_option) throw InputError("--from and --to apply to run folders (with jobs.csv); " + path + " is a sweep");
    job = sweep_figure(dir, sweep);
  } else if (fs::exists(dir / "jobs.csv", ec)) {
    if (sweep_option)
      throw InputError("--metric, --x, --series, --log-y and --label apply to sweep folders (with aggregate.csv); " +
                       path + " is a run folder (jobs.csv)");
    job = run_figures(dir, window);
  } else if (fs::exists(dir / "plan.csv", ec)) { // a sweep whose tables are not written yet
    throw InputError(path +
                     ": a sweep folder (plan.csv) without aggregate.csv: its tables are written when every run is "
                     "done (a shard, or a sweep stopped before the end, writes none): jobsched collect " +
                     path + " writes them from the runs done, then plot");
  } else if (fs::exists(dir / "error.txt", ec) && !fs::exists(dir / "summary.json", ec)) { // a sweep's failed run
    throw InputError(path + ": a run that failed (error.txt: " + file_first_line(dir / "error.txt") +
                     "): no figure to draw");
  } else if (fs::exists(dir / "summary.json", ec)) {
    throw InputError(path +
                     ": a run folder (summary.json) without jobs.csv, which a run's figures are drawn from: the run "
                     "was made with output.jobs: false; rerun it (or its sweep) with output.jobs: true");
  } else {
    throw InputError(path + ": neither aggregate.csv (a sweep folder) nor jobs.csv (a run folder) in this folder");
  }
  for (const auto& file : render(job, out_dir))
    std::printf("%s\n", file.string().c_str());
  std::fflush(stdout);
  return 0;
}

} // namespace

void add_plot_command(CommandLine& cli)
{
  auto o = std::make_shared<PlotOptions>();
  CLI::App* command =
      cli.add_command(cli.root(), "plot", kPlotUsage, [o](const CLI::App& parsed) { return run_plot(*o, parsed); });
  command->add_option("path", o->path);
  command->add_option("--metric", o->metric);
  command->add_option("--x", o->x);
  command->add_option("--series", o->series);
  command->add_flag("--log-y", o->log_y);
  command->add_option("--from", o->from);
  command->add_option("--to", o->to);
  command->add_option("--xlabel", o->xlabel);
  command->add_option("--ylabel", o->ylabel);
  command->add_option("--label", o->labels)->allow_extra_args(false);
  command->add_option("--out", o->out);
}

int plot_main(const std::vector<std::string>& args)
{
  return run_one_command("plot", add_plot_command, args);
}

} // namespace jobsched
