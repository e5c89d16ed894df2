/* The pieces of `jobsched plot` (plot/plot.cpp reads the command line): reading the tables a run or a sweep wrote
 * (plot/table_reading.cpp), the figures of sweeps (plot/sweep_figure.cpp) and of runs (plot/run_figures.cpp), and
 * gnuplot, which draws them (plot/gnuplot.hpp). Internal to plot/. */
#pragma once

#include "core/csv.hpp"
#include "plot/gnuplot.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jobsched::plot {

namespace fs = std::filesystem;
using Table = CsvTable;

// Reading tables
std::optional<double> parse_number(const std::string& text);
/* The number in a cell, or an InputError naming the file, row and column. */
double number_at(const Table& t, size_t row, size_t col);
std::string join(const std::vector<std::string>& items, const std::string& sep = ", ");
std::string read_file(const fs::path& file);
void write_file(const fs::path& file, const std::string& content);
/* The last component of a folder's path (its name in titles). */
std::string folder_name(const fs::path& dir);

// Axes
/* Names the user gave to keys (--label KEY=TEXT), by key. */
using LabelNames = std::map<std::string, std::string>;
/* What a metric or swept key is called in titles and legends: the user's name, else the table's ("policy.name" ->
 * "policy"), else the key itself. */
std::string short_name(const std::string& key, const LabelNames& names = {});
/* Where a key has a unit, that unit (" (s)"), else nothing. */
std::string unit_suffix(const std::string& key);
/* The label of an axis showing `key`: the user's name as given, else the short name and its unit. */
std::string axis_label(const std::string& key, const LabelNames& names = {});
/* Whether a metric is a slowdown or a stretch, which is at least 1 by definition. */
bool is_slowdown(const std::string& metric);
struct AxisRange {
  double lo = 0, hi = 0;
};
/* The range of a logarithmic axis for data in [lowest, highest] (both > 0): a small margin, then out to the nearest
 * 1-2-5 value, so that no decade is without data; for a slowdown, from 1 when the data reach the first decade. */
AxisRange log_axis_range(double lowest, double highest, bool slowdown);
/* The 1-2-5 values in a log range of at most three decades (to label), or none (gnuplot's decades will do). */
std::vector<double> log_axis_tics(const AxisRange& range);
/* A linear axis starting at `lo` (a slowdown's 1) and holding `highest` (> lo, else lo + 1 is taken): a 1-2-5 step
 * giving 4 to 10 intervals, the top the first multiple of it past `highest` plus a margin of 6% of the span, and the
 * labels at `lo` and at the multiples of the step above it that lie at least half a step from it. gnuplot's own tics
 * beside a set `lo` drew "0" over the "1" when the step was large (0 is within its tolerance of [1:1600]). */
struct LinearAxis {
  AxisRange range;
  std::vector<double> tics;
};
LinearAxis linear_axis_from(double lo, double highest);

/* How the labels of a categorical x axis are drawn, so that they do not run into each other: side by side when the
 * widest fits its category's width, else turned by 45 degrees (ending under their tic), with a left margin wide enough
 * for the first ones when they would reach past the figure's left edge. Widths are estimated from the number of
 * characters: kLabelCharWidth pixels each, measured on the PNG's 11-point Sans, the wider of the two fonts (7.9 pixels
 * a character on a label of 49, where the SVG's 13-pixel Sans gives 7.5). */
constexpr double kLabelCharWidth = 8.2;
/* gnuplot's right margin in these figures, in pixels (the graph's border and a few pixels). */
constexpr double kRightMargin = 28;
struct CategoryLabels {
  bool rotated = false;
  double left_margin = 0; // a fraction of the figure's width; 0: gnuplot's own
};
CategoryLabels category_labels(const std::vector<std::string>& labels, double figure_width);

// Sweeps
struct SweepRequest {
  std::string metric = "mean_bounded_slowdown";
  std::optional<std::string> x;
  std::optional<std::string> series;
  bool log_y = false;
  std::optional<std::string> xlabel, ylabel; // the whole axis label, as given
  LabelNames names;
};
PlotJob sweep_figure(const fs::path& sweep_dir, const SweepRequest& req);

// Runs
struct RunWindow {
  std::optional<double> from, to;            // seconds since the first submission
  std::optional<std::string> xlabel, ylabel; // the Gantt chart's (x also the utilization's), as given
};
PlotJob run_figures(const fs::path& run_dir, const RunWindow& window);

/* Above this many rectangles (segments times processor intervals in the window), a Gantt chart is aggregated. */
constexpr size_t kGanttAggregationThreshold = 20000;
/* What a segment of trace.csv did on processors lowest..highest from start to end. */
struct GanttSegment {
  double start = 0, end = 0;
  long lowest = 0, highest = 0;
  bool computing = true; // else switching or moving its image
};
/* A rectangle of an aggregated Gantt chart: a band of processors in one state over consecutive columns of time. */
struct GanttRun {
  double start = 0, end = 0;
  long lowest = 0, highest = 0;
  bool computing = true;
};
struct GanttAggregation {
  size_t columns = 0;
  double column_seconds = 0;
  long processors_per_row = 1; // processors drawn as one band
  std::vector<GanttRun> runs;  // by band, then time; idle is not drawn
};
/* The Gantt chart of `segments` over [t_begin, t_end] at a resolution of `columns` columns of time and at most
 * `max_rows` bands of processors: each band shows one state per column, chosen so that the time drawn in each state
 * stays within one column of the time the band spent in it; runs of columns in one state are one rectangle. */
/* A point of the utilization figure: from `time` on, `busy` processors and `waiting` jobs. */
struct StepPoint {
  double time = 0;
  long busy = 0, waiting = 0;
};
/* The points (in time order) to draw on an axis of `columns` columns over [t_begin, t_end]: in each column, the first,
 * the last, and those with the lowest and highest of each value; what is lost is only the order of the changes within
 * a column. */
std::vector<StepPoint> thin_steps(const std::vector<StepPoint>& points, double t_begin, double t_end, size_t columns);
GanttAggregation aggregate_gantt(const std::vector<GanttSegment>& segments, long processors, double t_begin,
                                 double t_end, size_t columns, long max_rows);

} // namespace jobsched::plot
