/* jobsched plot: the command line. The figures come from plot/sweep_figure.cpp and plot/run_figures.cpp, drawn by
 * plot/gnuplot.cpp. */
#include "plot/plot.hpp"

#include "core/errors.hpp"
#include "plot/figures.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;

namespace jobsched {

const char* const kPlotUsage = R"(Usage: jobsched plot PATH [options]

Draws figures (SVG and PNG) from the files jobsched wrote, with gnuplot.
  PATH a sweep folder (with aggregate.csv): METRIC against a swept key, one line per series, error bars = 95%
       confidence interval of the mean over the replications; writes METRIC-vs-KEY.svg and .png
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

int plot_main(const std::vector<std::string>& args)
{
  using namespace plot;
  std::string path;
  SweepRequest sweep;
  bool sweep_option = false;
  std::string out;
  RunWindow window;
  bool run_option = false;
  for (size_t i = 0; i < args.size(); i++) {
    const std::string& a = args[i];
    auto value = [&](const std::string& name) -> std::string {
      std::string v;
      if (a == name) {
        if (i + 1 >= args.size()) throw InputError(name + " needs a value (see jobsched plot --help)");
        v = args[++i];
      } else {
        v = a.substr(name.size() + 1);
      }
      if (v.empty()) throw InputError(name + " needs a non-empty value (see jobsched plot --help)");
      return v;
    };
    auto is = [&a](const std::string& name) { return a == name || a.rfind(name + "=", 0) == 0; };
    if (a == "--help" || a == "-h") {
      std::fputs(kPlotUsage, stdout);
      return 0;
    } else if (is("--metric")) {
      sweep.metric = value("--metric");
      sweep_option = true;
    } else if (is("--x")) {
      sweep.x = value("--x");
      sweep_option = true;
    } else if (is("--series")) {
      sweep.series = value("--series");
      sweep_option = true;
    } else if (a == "--log-y") {
      sweep.log_y = true;
      sweep_option = true;
    } else if (is("--from") || is("--to")) {
      const std::string name = is("--from") ? "--from" : "--to";
      const std::string v = value(name);
      char* end = nullptr;
      double seconds = std::strtod(v.c_str(), &end);
      if (*end != '\0' || !std::isfinite(seconds) || seconds < 0)
        throw InputError(name + " '" + v + "': expected seconds since the first submission (a number >= 0)");
      (name == "--from" ? window.from : window.to) = seconds;
      run_option = true;
    } else if (is("--xlabel")) {
      sweep.xlabel = window.xlabel = value("--xlabel");
    } else if (is("--ylabel")) {
      sweep.ylabel = window.ylabel = value("--ylabel");
    } else if (is("--label")) {
      const std::string v = value("--label");
      size_t eq = v.find('=');
      if (eq == 0 || eq == std::string::npos || eq + 1 == v.size())
        throw InputError("--label '" + v + "': expected KEY=TEXT (e.g. --label workload.load_factor='offered load')");
      sweep.names[v.substr(0, eq)] = v.substr(eq + 1);
      sweep_option = true;
    } else if (is("--out")) {
      out = value("--out");
    } else if (a.rfind("-", 0) == 0 && a.size() > 1) {
      throw InputError("unknown option '" + a + "' for plot (see jobsched plot --help)");
    } else if (path.empty()) {
      path = a;
    } else {
      throw InputError("more than one folder given ('" + path + "', '" + a + "')");
    }
  }
  if (path.empty())
    throw InputError("no folder given: jobsched plot PATH (a sweep folder with aggregate.csv or a run folder with "
                     "jobs.csv)");

  fs::path dir = path;
  std::error_code ec;
  if (fs::is_regular_file(dir, ec) && (dir.filename() == "aggregate.csv" || dir.filename() == "jobs.csv"))
    dir = dir.parent_path().empty() ? fs::path(".") : dir.parent_path();
  if (!fs::is_directory(dir, ec)) throw InputError(path + ": no such folder");
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
  } else {
    throw InputError(path + ": neither aggregate.csv (a sweep folder) nor jobs.csv (a run folder) in this folder");
  }
  for (const auto& file : render(job, out_dir))
    std::printf("%s\n", file.string().c_str());
  std::fflush(stdout);
  return 0;
}

} // namespace jobsched
