/* gnuplot: one script and its data files in a temporary folder, one gnuplot process that draws each figure twice
 * (svg, then pngcairo or png), and the figures committed to the output folder like every other output (temporary
 * name, rename), so a failure anywhere leaves no partial figure behind. */
#include "plot/gnuplot.hpp"

#include "core/errors.hpp"
#include "core/temporary_folder.hpp"
#include "output/output_files.hpp"
#include "plot/figures.hpp"
#include "plot/plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <cerrno>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace jobsched::plot {

// ---------------------------------------------------------------------------------------------------------------
// gnuplot scripts

/* A gnuplot string literal: single quotes, where nothing is special but the quote itself (doubled). */
std::string gp_str(const std::string& s)
{
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    if (c == '\n' || c == '\r') c = ' ';
    out += c;
  }
  return out + "'";
}

std::string num(double v)
{
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

namespace {

std::optional<fs::path> find_gnuplot()
{
  const char* env = std::getenv("PATH");
  std::string path = env ? env : "/usr/local/bin:/usr/bin:/bin";
  std::istringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    fs::path candidate = fs::path(dir.empty() ? "." : dir) / "gnuplot";
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}
} // namespace

std::string read_file(const fs::path& file)
{
  std::ifstream in(file, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void write_file(const fs::path& file, const std::string& content)
{
  std::ofstream out(file, std::ios::binary);
  out << content;
  out.close();
  if (!out) throw std::runtime_error(file.string() + ": cannot write");
}

namespace {
/* The whole script: every figure as SVG, then as PNG (pngcairo when this gnuplot has it, else libgd's png). */
std::string gnuplot_script(const PlotJob& job, const fs::path& tmp)
{
  std::string size = std::to_string(kFigureWidth) + "," + std::to_string(kFigureHeight);
  std::ostringstream s;
  s << "# written by jobsched plot; data files are relative to this folder\n";
  s << "cd " << gp_str(tmp.string()) << "\n";
  for (const auto& f : job.figures) {
    s << "reset\n";
    s << "set terminal svg size " << size << " fixed noenhanced font 'Sans,13' background rgb 'white'\n";
    s << "set output " << gp_str((tmp / (f.name + ".svg")).string()) << "\n";
    s << f.commands << "unset output\n";
    s << "reset\n";
    s << "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
      << "  set terminal pngcairo size " << size << " noenhanced font 'Sans,11' background rgb 'white'\n"
      << "} else {\n"
      << "  set terminal png size " << size << " noenhanced font 'Sans,11' background rgb 'white'\n"
      << "}\n";
    s << "set output " << gp_str((tmp / (f.name + ".png")).string()) << "\n";
    s << f.commands << "unset output\n";
  }
  return s.str();
}

/* Runs gnuplot on the script; std::runtime_error (an internal error: we wrote the script) when it fails. */
void run_gnuplot(const fs::path& gnuplot, const fs::path& script, const fs::path& log, TemporaryFolder& tmp)
{
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::string arg0 = "gnuplot";
  std::string arg1 = "-d"; // default settings: no ~/.gnuplot
  std::string arg2 = script.string();
  char* argv[] = {arg0.data(), arg1.data(), arg2.data(), nullptr};
  pid_t pid = 0;
  int err = posix_spawn(&pid, gnuplot.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) throw InputError("cannot run " + gnuplot.string() + ": " + std::strerror(err));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waiting for gnuplot: " + std::string(std::strerror(errno)));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  std::string output = read_file(log);
  std::string first;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (line.find_first_not_of(" \t^") == std::string::npos) continue;
    first += (first.empty() ? "" : " | ") + line;
    if (first.size() > 300) break;
  }
  tmp.keep();
  throw std::runtime_error("gnuplot failed on " + script.string() + " (the folder is kept for inspection): " + first);
}
} // namespace

/* Draws every figure and commits them into out_dir; returns the paths written. */
std::vector<fs::path> render(const PlotJob& job, const fs::path& out_dir)
{
  auto gnuplot = find_gnuplot();
  if (!gnuplot) throw InputError("plotting needs gnuplot: apt-get install gnuplot-nox (the tables are unaffected)");
  TemporaryFolder tmp("jobsched-plot-");
  for (const auto& [name, content] : job.data_files)
    write_file(tmp.path() / name, content);
  fs::path script = tmp.path() / "plot.gp";
  write_file(script, gnuplot_script(job, tmp.path()));
  run_gnuplot(*gnuplot, script, tmp.path() / "gnuplot.log", tmp);

  OutputFiles files(out_dir);
  std::vector<fs::path> written;
  for (const auto& f : job.figures) {
    for (const char* ext : {".svg", ".png"}) {
      std::string name = f.name + ext;
      std::string content = read_file(tmp.path() / name);
      if (content.empty()) {
        tmp.keep();
        throw std::runtime_error("gnuplot wrote no " + name + " (see " + tmp.path().string() + ")");
      }
      files.add(name, std::move(content));
      written.push_back(out_dir / name);
    }
  }
  files.commit();
  return written;
}

} // namespace jobsched::plot
