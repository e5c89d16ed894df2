/* Drawing with gnuplot (plot/gnuplot.cpp): figures given as gnuplot commands, drawn as SVG and PNG and committed to an
 * output folder. `jobsched plot` draws its figures with it, and so do the commands that draw their own (plan-sweep). */
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace jobsched::plot {

/* A gnuplot string literal. */
std::string gp_str(const std::string& s);
/* A number in a gnuplot script or data file. */
std::string num(double v);
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
std::vector<std::filesystem::path> render(const PlotJob& job, const std::filesystem::path& out_dir);

} // namespace jobsched::plot
