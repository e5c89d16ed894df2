/* jobsched plot: figures from the files a sweep or a run wrote.
 *
 * A sweep folder (aggregate.csv) gives one figure: a metric against a swept key, one line per series, with 95%
 * confidence intervals as error bars. A run folder (jobs.csv) gives a Gantt chart and a utilization plot (busy
 * processors and waiting jobs over time). gnuplot draws them, as SVG and PNG; the tables themselves never depend on
 * it. */
#pragma once

#include <string>
#include <vector>

namespace jobsched {

/* Size of every figure in pixels: the SVG's nominal size and the PNG's. */
constexpr int kFigureWidth = 1200;
constexpr int kFigureHeight = 720;

/* The help of `jobsched plot` (printed by `jobsched plot --help`). */
extern const char* const kPlotUsage;

/* The body of `jobsched plot PATH [options]` (the options in kPlotUsage); args excludes
 * "plot". Prints the paths of the files written on stdout and returns 0. Throws InputError on bad input (unknown
 * option, metric or key, a folder with neither aggregate.csv nor jobs.csv, malformed tables, gnuplot missing), and
 * std::runtime_error when gnuplot fails on the script we wrote (an internal error). Writes no file on failure. */
class CommandLine;
/* Declares `jobsched plot PATH [options]` on `cli`. */
void add_plot_command(CommandLine& cli);
/* `jobsched plot ARGS...`: its exit status; bad arguments are InputErrors. */
int plot_main(const std::vector<std::string>& args);

} // namespace jobsched
