/* The pieces of `jobsched plot` (plot/plot.cpp reads the command line): reading the tables a run or a sweep wrote
 * (plot/table_reading.cpp), the figures of sweeps (plot/sweep_figure.cpp) and of runs (plot/run_figures.cpp), and
 * gnuplot, which draws them (plot/gnuplot.cpp). Internal to plot/. */
#pragma once

#include "experiment/csv.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace jobsched::plot {

namespace fs = std::filesystem;
using Table = CsvTable;

// Reading tables
std::optional<double> parse_number(const std::string& text);
/* The number in a cell, or an InputError naming the file, row and column. */
double number_at(const Table& t, size_t row, size_t col);
std::string join(const std::vector<std::string>& items, const std::string& sep = ", ");
/* A top-level field of a small JSON object (summary.json), as text. */
std::optional<std::string> json_field(const std::string& json, const std::string& key);
std::string read_file(const fs::path& file);
void write_file(const fs::path& file, const std::string& content);
/* The last component of a folder's path (its name in titles). */
std::string folder_name(const fs::path& dir);

// gnuplot
/* A gnuplot string literal. */
std::string gp_str(const std::string& s);
/* A number in a gnuplot script or data file. */
std::string num(double v);
/* Where a name is a time, its unit (" (s)"), else nothing. */
std::string unit_suffix(const std::string& name);
/* One figure: its file name without extension and the gnuplot commands that draw it (terminal and output excluded). */
struct Figure {
  std::string name;
  std::string commands;
};
/* Files needed by the figures' commands, written into the temporary folder before gnuplot runs. */
struct PlotJob {
  std::vector<Figure> figures;
  std::vector<std::pair<std::string, std::string>> data_files; // name in the temporary folder, content
};
/* Draw every figure as SVG and PNG with gnuplot and commit them to `out_dir`; returns the files written. */
std::vector<fs::path> render(const PlotJob& job, const fs::path& out_dir);

// Sweeps
struct SweepRequest {
  std::string metric = "mean_bounded_slowdown";
  std::optional<std::string> x;
  std::optional<std::string> series;
  bool log_y = false;
};
PlotJob sweep_figure(const fs::path& sweep_dir, const SweepRequest& req);

// Runs
struct RunWindow {
  std::optional<double> from, to; // seconds since the first submission
};
PlotJob run_figures(const fs::path& run_dir, const RunWindow& window);

} // namespace jobsched::plot
