/* jobsched plot: figures from a sweep folder (aggregate.csv) or a run folder (jobs.csv, summary.json).
 *
 * We read the tables ourselves, write gnuplot data files and one script into a temporary folder, and run gnuplot
 * once: each figure is drawn twice, with the svg and the pngcairo (else png) terminals, into that temporary folder.
 * The figures are then committed to the output folder like every other output (temporary name, rename), so a
 * failure anywhere leaves no partial figure behind. */
#include "plot/plot.hpp"

#include "experiment/csv.hpp"

#include "core/errors.hpp"
#include "output/output_files.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

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
  --x KEY                sweeps: the swept key on the x axis (default: the first swept key)
  --series KEY[,KEY...]  sweeps: one line per value of these keys (default: the other swept keys that vary)
  --log-y                sweeps: logarithmic y axis (for metrics that span orders of magnitude)
  --from S, --to S       runs: draw only the window [S, S] in seconds since the first submission (long runs)
  --out DIR              write the figures to DIR (default: PATH/plots)

Prints the paths of the files written. Needs gnuplot (Debian: apt-get install gnuplot-nox).
Exit status: 0 success, 2 bad input (the message names the file, line or key), 3 internal error.
)";

namespace {

// ---------------------------------------------------------------------------------------------------------------
// Tables

using Table = CsvTable;

std::optional<double> parse_number(const std::string& text)
{
  size_t b = text.find_first_not_of(" \t");
  size_t e = text.find_last_not_of(" \t");
  if (b == std::string::npos) return std::nullopt;
  std::string s = text.substr(b, e - b + 1);
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
  return v;
}

double number_at(const Table& t, size_t row, size_t col)
{
  auto v = parse_number(t.rows[row][col]);
  if (!v) throw InputError(t.where(row) + ": " + t.header[col] + " '" + t.rows[row][col] + "' is not a number");
  return *v;
}

std::string join(const std::vector<std::string>& items, const std::string& sep = ", ")
{
  std::string out;
  for (const auto& s : items)
    out += (out.empty() ? "" : sep) + s;
  return out;
}

/* A flat field of a JSON object as text (strings unquoted, simple escapes undone); nullopt when absent. Enough for
 * summary.json, whose fields we look up are top-level scalars. */
std::optional<std::string> json_field(const std::string& json, const std::string& key)
{
  std::string quoted = "\"" + key + "\"";
  for (size_t pos = json.find(quoted); pos != std::string::npos; pos = json.find(quoted, pos + 1)) {
    size_t i = json.find_first_not_of(" \t\r\n", pos + quoted.size());
    if (i == std::string::npos || json[i] != ':') continue;
    i = json.find_first_not_of(" \t\r\n", i + 1);
    if (i == std::string::npos) return std::nullopt;
    if (json[i] == '"') {
      std::string out;
      for (size_t j = i + 1; j < json.size() && json[j] != '"'; j++) {
        if (json[j] == '\\' && j + 1 < json.size()) j++;
        out += json[j];
      }
      return out;
    }
    size_t end = json.find_first_of(",}\r\n", i);
    std::string raw = json.substr(i, end == std::string::npos ? std::string::npos : end - i);
    while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\t'))
      raw.pop_back();
    return raw;
  }
  return std::nullopt;
}

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

/* Where a name is a time, its unit. */
std::string unit_suffix(const std::string& name)
{
  std::string last = name.substr(name.rfind('.') == std::string::npos ? 0 : name.rfind('.') + 1);
  auto ends_with = [&last](const std::string& tail) {
    return last.size() >= tail.size() && last.compare(last.size() - tail.size(), tail.size(), tail) == 0;
  };
  static const std::set<std::string> times{"makespan",          "first_submission", "last_finish",
                                           "mean_interarrival", "time_resolution",  "bounded_slowdown_tau"};
  if (ends_with("_time") || ends_with("_time_s") || times.count(last)) return " (s)";
  return "";
}

/* A removed-on-exit temporary folder. */
class TempDir {
 public:
  TempDir()
  {
    std::string pattern = (fs::temp_directory_path() / "jobsched-plot-XXXXXX").string();
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) throw std::runtime_error("cannot create a temporary folder in " + pattern);
    path_ = buf.data();
  }
  ~TempDir()
  {
    if (keep_) return;
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  void keep() { keep_ = true; }

 private:
  fs::path path_;
  bool keep_ = false;
};

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
void run_gnuplot(const fs::path& gnuplot, const fs::path& script, const fs::path& log, TempDir& tmp)
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

/* Draws every figure and commits them into out_dir; returns the paths written. */
std::vector<fs::path> render(const PlotJob& job, const fs::path& out_dir)
{
  auto gnuplot = find_gnuplot();
  if (!gnuplot) throw InputError("plotting needs gnuplot: apt-get install gnuplot-nox (the tables are unaffected)");
  TempDir tmp;
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

// ---------------------------------------------------------------------------------------------------------------
// Sweeps: a metric against a swept key

struct SweepRequest {
  std::string metric = "mean_bounded_slowdown";
  std::optional<std::string> x;
  std::optional<std::string> series;
  bool log_y = false;
};

/* One point of one series. */
struct SweepPoint {
  std::string x;
  double mean = 0;
  std::optional<double> ci;
};

/* The last component of a folder's path, also for "." and "runs/abc/". */
std::string folder_name(const fs::path& dir)
{
  fs::path p = fs::absolute(dir).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  return p.filename().string();
}

std::string file_safe(std::string name)
{
  for (char& c : name)
    if (c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x20) c = '_';
  return name;
}

PlotJob sweep_figure(const fs::path& sweep_dir, const SweepRequest& req)
{
  Table t = read_csv(sweep_dir / "aggregate.csv");
  const std::string file = t.file.string();
  if (t.header.empty() || t.header[0] != "point")
    throw InputError(file + ": the header must start with 'point' (point,<swept keys...>,metric,n,mean,...)");
  size_t metric_col = t.required_column("metric");
  size_t mean_col = t.required_column("mean");
  size_t ci_col = t.required_column("ci95_half_width");
  std::vector<std::string> keys(t.header.begin() + 1, t.header.begin() + static_cast<long>(metric_col));
  if (keys.empty()) throw InputError(file + ": no swept key (no column between point and metric): nothing to plot");

  std::vector<std::string> metrics;
  std::vector<size_t> rows;
  for (size_t r = 0; r < t.rows.size(); r++) {
    const std::string& m = t.rows[r][metric_col];
    if (std::find(metrics.begin(), metrics.end(), m) == metrics.end()) metrics.push_back(m);
    if (m == req.metric) rows.push_back(r);
  }
  if (rows.empty())
    throw InputError("unknown metric '" + req.metric + "' in " + file +
                     "; known metrics: " + (metrics.empty() ? "(none: the file has no rows)" : join(metrics)));

  auto key_index = [&](const std::string& key, const char* option) {
    auto it = std::find(keys.begin(), keys.end(), key);
    if (it == keys.end())
      throw InputError(std::string(option) + " '" + key + "' is not a swept key of " + file +
                       "; swept keys: " + join(keys));
    return static_cast<size_t>(it - keys.begin());
  };
  size_t x = req.x ? key_index(*req.x, "--x") : 0;

  // Values each key takes (in order of appearance) among the metric's rows.
  std::vector<std::vector<std::string>> values(keys.size());
  for (size_t r : rows)
    for (size_t k = 0; k < keys.size(); k++)
      if (std::find(values[k].begin(), values[k].end(), t.rows[r][k + 1]) == values[k].end())
        values[k].push_back(t.rows[r][k + 1]);

  std::vector<size_t> series_keys;
  if (req.series) {
    std::istringstream items(*req.series);
    for (std::string item; std::getline(items, item, ',');) {
      if (item.empty()) throw InputError("--series '" + *req.series + "': empty key");
      size_t k = key_index(item, "--series");
      if (k == x) throw InputError("--series '" + item + "' is also the --x key");
      if (std::find(series_keys.begin(), series_keys.end(), k) == series_keys.end()) series_keys.push_back(k);
    }
    for (size_t k = 0; k < keys.size(); k++)
      if (k != x && values[k].size() > 1 && std::find(series_keys.begin(), series_keys.end(), k) == series_keys.end())
        throw InputError("swept key '" + keys[k] + "' takes " + std::to_string(values[k].size()) +
                         " values but is neither --x nor in --series: add it, e.g. --series " + *req.series + "," +
                         keys[k]);
  } else {
    for (size_t k = 0; k < keys.size(); k++)
      if (k != x && values[k].size() > 1) series_keys.push_back(k);
  }

  // Points by series, series in order of appearance.
  std::vector<std::string> series_labels;
  std::map<std::string, std::vector<SweepPoint>> series;
  size_t missing = 0;
  for (size_t r : rows) {
    std::vector<std::string> parts;
    for (size_t k : series_keys)
      parts.push_back(keys[k] + "=" + t.rows[r][k + 1]);
    std::string label = join(parts);
    if (!series.count(label)) series_labels.push_back(label);
    auto& points = series[label];
    if (t.rows[r][mean_col].empty()) {
      missing++;
      continue;
    }
    SweepPoint p;
    p.x = t.rows[r][x + 1];
    p.mean = number_at(t, r, mean_col);
    if (!t.rows[r][ci_col].empty()) p.ci = number_at(t, r, ci_col);
    points.push_back(p);
  }
  if (missing == rows.size())
    throw InputError(file + ": metric '" + req.metric + "' has no value (every mean is empty: did all runs fail?)");

  bool numeric =
      std::all_of(values[x].begin(), values[x].end(), [](const std::string& v) { return parse_number(v).has_value(); });
  std::map<std::string, size_t> category; // categorical x: position of each value
  for (size_t i = 0; i < values[x].size(); i++)
    category[values[x][i]] = i;
  auto position = [&](const std::string& v) { return numeric ? *parse_number(v) : double(category[v]); };

  PlotJob job;
  std::ostringstream c;
  const std::string& xkey = keys[x];
  c << "set xlabel " << gp_str(xkey + (numeric ? unit_suffix(xkey) : "")) << "\n";
  c << "set ylabel " << gp_str(req.metric + unit_suffix(req.metric) + (req.log_y ? " (log scale)" : "")) << "\n";
  if (req.log_y) c << "set logscale y\n";
  c << "set grid\n";
  c << "set key outside below center horizontal samplen 3 width 2 height 1\n";
  // Series drawn side by side around each x value ("dodged") so that their error bars do not hide each other:
  // over a fraction of a category, or of the smallest gap between numeric x values.
  double unit = 1;
  if (numeric) {
    std::vector<double> xs;
    for (const auto& v : values[x])
      xs.push_back(*parse_number(v));
    std::sort(xs.begin(), xs.end());
    unit = 0;
    for (size_t i = 1; i < xs.size(); i++)
      if (xs[i] > xs[i - 1] && (unit == 0 || xs[i] - xs[i - 1] < unit)) unit = xs[i] - xs[i - 1];
    c << "set offsets graph 0.04, graph 0.04, graph 0.06, graph 0.06\n";
  } else {
    c << "set xrange [-0.5:" << num(double(values[x].size()) - 0.5) << "]\n";
    c << "set offsets 0, 0, graph 0.06, graph 0.06\n";
    c << "set xtics (";
    for (size_t i = 0; i < values[x].size(); i++)
      c << (i ? ", " : "") << gp_str(values[x][i]) << " " << i;
    c << ")\n";
  }
  double spread =
      series_labels.size() > 1 ? unit * std::min(numeric ? 0.1 : 0.5, 0.06 * double(series_labels.size() - 1)) : 0;
  c << "set title " << gp_str(req.metric + " vs " + xkey) << " . \"\\n\" . "
    << gp_str("sweep " + folder_name(sweep_dir) + ": mean over the replications, error bars = 95% confidence interval" +
              (numeric && spread > 0 ? " (series shifted apart along x)" : ""))
    << "\n";
  std::vector<std::string> plots;
  for (size_t i = 0; i < series_labels.size(); i++) {
    auto points = series[series_labels[i]];
    if (points.empty()) continue;
    double shift = series_labels.size() > 1 ? spread * (double(i) / double(series_labels.size() - 1) - 0.5) : 0;
    std::stable_sort(points.begin(), points.end(),
                     [&](const SweepPoint& a, const SweepPoint& b) { return position(a.x) < position(b.x); });
    std::string means = "# " + xkey + "\t" + req.metric + "\n";
    std::string errors = "# " + xkey + "\t" + req.metric + "\tci95_half_width\n";
    bool any_error = false;
    for (const auto& p : points) {
      std::string xs = num(position(p.x) + shift);
      means += xs + "\t" + num(p.mean) + "\n";
      if (p.ci) {
        errors += xs + "\t" + num(p.mean) + "\t" + num(*p.ci) + "\n";
        any_error = true;
      }
    }
    std::string mean_file = "series-" + std::to_string(i) + ".dat";
    std::string error_file = "errors-" + std::to_string(i) + ".dat";
    job.data_files.emplace_back(mean_file, means);
    std::string title = series_keys.empty() ? req.metric : series_labels[i];
    std::string style = " lt " + std::to_string(i + 1) + " lw 2 pt 7 ps 1.2";
    if (any_error) { // first, so that the means are drawn over the error bars
      job.data_files.emplace_back(error_file, errors);
      plots.push_back(gp_str(error_file) + " using 1:2:3 with yerrorbars" + style + " notitle");
    }
    plots.push_back(gp_str(mean_file) + " using 1:2 with " + (numeric ? "linespoints" : "points") + style + " title " +
                    gp_str(title));
  }
  c << "set datafile separator tab\n";
  c << "plot " << join(plots, ", \\\n     ") << "\n";
  job.figures.push_back({file_safe(req.metric + "-vs-" + xkey), c.str()});
  return job;
}

// ---------------------------------------------------------------------------------------------------------------
// Runs: Gantt chart and utilization

struct RunWindow {
  std::optional<double> from, to; // seconds since the first submission
};

struct RunJob {
  std::string id;
  double submit = 0;
  double start = 0;
  std::optional<double> finish; // none: still running at the end
  long processors = 0;          // from allocated_resources, else the requested size
  std::vector<std::pair<long, long>> intervals;
};

std::vector<std::pair<long, long>> parse_intervals(const Table& t, size_t row, size_t col)
{
  std::vector<std::pair<long, long>> out;
  std::istringstream items(t.rows[row][col]);
  for (std::string item; items >> item;) {
    auto bad = [&] {
      return InputError(t.where(row) + ": allocated_resources '" + t.rows[row][col] +
                        "' is not in interval notation (e.g. 0-3 7)");
    };
    size_t dash = item.find('-');
    std::string a = item.substr(0, dash);
    std::string b = dash == std::string::npos ? a : item.substr(dash + 1);
    auto digits = [](const std::string& s) {
      return !s.empty() && s.size() < 10 && s.find_first_not_of("0123456789") == std::string::npos;
    };
    if (!digits(a) || !digits(b)) throw bad();
    long lo = std::stol(a);
    long hi = std::stol(b);
    if (hi < lo) throw bad();
    out.emplace_back(lo, hi);
  }
  return out;
}

/* A colour per job id, far from its neighbours' (golden-ratio hues), as gnuplot's 0xRRGGBB integer. */
long job_colour(const std::string& id)
{
  double key = 0;
  if (auto v = parse_number(id)) {
    key = *v;
  } else {
    for (char ch : id)
      key = std::fmod(key * 31 + static_cast<unsigned char>(ch), 1e6);
  }
  double h = std::fmod(key * 0.6180339887498949, 1.0) * 6;
  double s = 0.55;
  double v = 0.9;
  double f = h - std::floor(h);
  double p = v * (1 - s), q = v * (1 - s * f), u = v * (1 - s * (1 - f));
  double r = v, g = u, b = p;
  switch (static_cast<int>(h) % 6) {
  case 0:
    r = v, g = u, b = p;
    break;
  case 1:
    r = q, g = v, b = p;
    break;
  case 2:
    r = p, g = v, b = u;
    break;
  case 3:
    r = p, g = q, b = v;
    break;
  case 4:
    r = u, g = p, b = v;
    break;
  default:
    r = v, g = p, b = q;
    break;
  }
  auto byte = [](double x) { return static_cast<long>(std::lround(x * 255)); };
  return (byte(r) << 16) | (byte(g) << 8) | byte(b);
}

/* The time axis of a run's figures: seconds, hours or days since the first submission, whichever reads best. */
struct TimeAxis {
  double origin = 0; // the first submission
  double unit = 1;   // seconds per axis unit
  std::string label;
  TimeAxis(double first, double span)
      : origin(first), unit(span >= 3 * 86400  ? 86400
                            : span >= 3 * 3600 ? 3600
                                               : 1),
        label(std::string("time since the first submission (") +
              (unit == 86400  ? "days"
               : unit == 3600 ? "h"
                              : "s") +
              ")")
  {
  }
  /* A gnuplot expression mapping data column `col` (seconds) to the axis. */
  std::string column(int col) const { return "(($" + std::to_string(col) + "-" + num(origin) + ")/" + num(unit) + ")"; }
  std::string at(double seconds) const { return num((seconds - origin) / unit); }
};

PlotJob run_figures(const fs::path& run_dir, const RunWindow& window)
{
  Table t = read_csv(run_dir / "jobs.csv");
  size_t id_col = t.required_column("job_id");
  size_t submit_col = t.required_column("submission_time");
  size_t start_col = t.required_column("starting_time");
  size_t finish_col = t.required_column("finish_time");
  size_t alloc_col = t.required_column("allocated_resources");
  int size_col = t.column("requested_number_of_resources");

  std::vector<RunJob> jobs;
  long max_index = -1;
  for (size_t r = 0; r < t.rows.size(); r++) {
    if (t.rows[r][start_col].empty()) continue;
    RunJob j;
    j.id = t.rows[r][id_col];
    j.submit = number_at(t, r, submit_col);
    j.start = number_at(t, r, start_col);
    if (!t.rows[r][finish_col].empty()) j.finish = number_at(t, r, finish_col);
    j.intervals = parse_intervals(t, r, alloc_col);
    for (const auto& [lo, hi] : j.intervals) {
      j.processors += hi - lo + 1;
      max_index = std::max(max_index, hi);
    }
    if (j.intervals.empty() && size_col >= 0 && !t.rows[r][size_col].empty())
      j.processors = static_cast<long>(number_at(t, r, static_cast<size_t>(size_col)));
    jobs.push_back(std::move(j));
  }
  if (jobs.empty())
    throw InputError(t.file.string() + ": no job started (every starting_time is empty): nothing to plot");

  // summary.json (optional): the machine size and names for the titles.
  long processors = max_index + 1;
  std::string run_name = folder_name(run_dir);
  std::string policy;
  fs::path summary_file = run_dir / "summary.json";
  std::error_code ec;
  if (fs::exists(summary_file, ec)) {
    std::string summary = read_file(summary_file);
    if (auto p = json_field(summary, "processors")) {
      auto v = parse_number(*p);
      if (!v || *v < 1 || *v != std::floor(*v))
        throw InputError(summary_file.string() + ": processors '" + *p + "' is not a positive integer");
      processors = std::max(processors, static_cast<long>(*v));
    }
    if (auto s = json_field(summary, "scenario"); s && !s->empty()) run_name = *s;
    if (auto s = json_field(summary, "policy")) policy = *s;
  }
  std::string run_title = run_name + (policy.empty() ? "" : " under " + policy);

  double t_begin = jobs.front().submit;
  double t_end = jobs.front().start;
  for (const auto& j : jobs) {
    t_begin = std::min(t_begin, j.submit);
    t_end = std::max({t_end, j.start, j.finish.value_or(j.start)});
  }
  if (t_end <= t_begin) t_end = t_begin + 1;
  // --from/--to: a window of the run, in seconds since the first submission.
  const double first_submission = t_begin;
  if (window.from) t_begin = first_submission + *window.from;
  if (window.to) t_end = first_submission + *window.to;
  if (t_end <= t_begin)
    throw InputError("--from " + num(window.from.value_or(0)) + " and --to " + num(window.to.value_or(0)) +
                     ": the window is empty");
  const TimeAxis axis(first_submission, t_end - t_begin);

  // trace.csv (written by every run since time-sharing): what each job did on which processors, segment by segment.
  // Without it (older runs), a job is drawn on its processors from its start to its finish.
  struct Box {
    const RunJob* job;
    double start, end;
    std::vector<std::pair<long, long>> intervals;
    bool computing; // running; otherwise switching or moving its image (drawn grey)
  };
  std::vector<Box> segments;
  if (fs::exists(run_dir / "trace.csv", ec)) {
    Table tr = read_csv(run_dir / "trace.csv");
    size_t job_col = tr.required_column("job_id");
    size_t from_col = tr.required_column("start");
    size_t to_col = tr.required_column("end");
    size_t procs_col = tr.required_column("processors");
    size_t state_col = tr.required_column("state");
    std::map<std::string, const RunJob*> by_id;
    for (const auto& j : jobs)
      by_id[j.id] = &j;
    for (size_t r = 0; r < tr.rows.size(); r++) {
      const std::string& state = tr.rows[r][state_col];
      if (state == "suspended") continue;
      auto it = by_id.find(tr.rows[r][job_col]);
      if (it == by_id.end()) throw InputError(tr.where(r) + ": job " + tr.rows[r][job_col] + " is not in jobs.csv");
      segments.push_back({it->second, number_at(tr, r, from_col), number_at(tr, r, to_col),
                          parse_intervals(tr, r, procs_col), state == "running"});
    }
  } else {
    for (const auto& j : jobs)
      segments.push_back({&j, j.start, j.finish.value_or(t_end), j.intervals, true});
  }

  PlotJob job;
  // Gantt chart: one rectangle per segment and interval of processors.
  std::string boxes = "# start\tend\tlowest\thighest\tcolour (job_id)\n";
  std::string labels;
  size_t drawn = 0;
  bool label_jobs = jobs.size() <= 60;
  bool grey = std::any_of(segments.begin(), segments.end(), [](const Box& b) { return !b.computing; });
  for (const auto& b : segments) {
    if (b.end < t_begin || b.start > t_end) continue; // outside the window: not drawn (smaller files)
    long colour = b.computing ? job_colour(b.job->id) : 0x909090;
    for (const auto& [lo, hi] : b.intervals) {
      boxes += num(b.start) + "\t" + num(b.end) + "\t" + num(double(lo) - 0.5) + "\t" + num(double(hi) + 0.5) + "\t" +
               std::to_string(colour) + "\t# job " + b.job->id + "\n";
      drawn++;
      if (label_jobs && b.computing && b.end - b.start >= 0.03 * (t_end - t_begin))
        labels += axis.at((std::max(b.start, t_begin) + std::min(b.end, t_end)) / 2) + "\t" +
                  num((double(lo) + double(hi)) / 2) + "\t" + b.job->id + "\n";
    }
  }
  if (drawn == 0)
    throw InputError(t.file.string() + ": no started job has allocated_resources: nothing to draw in a Gantt chart");
  job.data_files.emplace_back("gantt.dat", boxes);
  std::ostringstream g;
  g << "set title "
    << gp_str("Gantt chart: " + run_title + " (" + std::to_string(jobs.size()) + " jobs, " +
              std::to_string(processors) + " processors)")
    << "\n";
  g << "set xlabel " << gp_str(axis.label) << "\n";
  g << "set ylabel 'processor'\n";
  g << "set xrange [" << axis.at(t_begin) << ":" << axis.at(t_end) << "]\n";
  g << "set yrange [-0.5:" << num(double(processors) - 0.5) << "]\n";
  if (processors <= 32) g << "set ytics 0, 1, " << processors - 1 << "\n";
  g << "set grid xtics\n";
  g << "set key outside below center horizontal\n";
  g << "set datafile separator tab\n";
  g << "plot 'gantt.dat' using ((" << axis.column(1) << "+" << axis.column(2) << ")/2):(($3+$4)/2):" << axis.column(1)
    << ":" << axis.column(2) << ":3:4:5 with boxxyerror fill solid 0.9 "
    << (drawn <= 2000 ? "border lc rgb '#303030'" : "noborder") << " lc rgb variable"
    << " title 'one rectangle per job segment and processor interval, coloured"
    << (labels.empty() ? "" : " and labelled") << " by job id'";
  if (grey) g << ", NaN with boxes fill solid 0.9 lc rgb '#909090' title 'context switch or image transfer'";
  if (!labels.empty()) {
    job.data_files.emplace_back("gantt-labels.dat", labels);
    g << ", \\\n     'gantt-labels.dat' using 1:2:3 with labels font ',9' notitle";
  }
  g << "\n";
  job.figures.push_back({"gantt", g.str()});

  // Utilization: busy processors and waiting jobs, as step functions of time.
  std::map<double, std::pair<long, long>> changes; // time -> (busy change, waiting change)
  for (const auto& j : jobs) {
    changes[j.submit].second += 1;
    changes[j.start].second -= 1;
  }
  for (const auto& b : segments) {
    if (!b.computing) continue;
    long n = 0;
    for (const auto& [lo, hi] : b.intervals)
      n += hi - lo + 1;
    if (b.intervals.empty()) n = b.job->processors;
    changes[b.start].first += n;
    if (b.end < t_end || b.job->finish) changes[b.end].first -= n;
  }
  std::string steps = "# time (s)\tbusy processors\twaiting jobs\n";
  long busy = 0;
  long waiting = 0;
  long max_waiting = 0;
  for (const auto& [time, change] : changes) {
    busy += change.first;
    waiting += change.second;
    max_waiting = std::max(max_waiting, waiting);
    steps += num(time) + "\t" + std::to_string(busy) + "\t" + std::to_string(waiting) + "\n";
  }
  if (changes.rbegin()->first < t_end) // the last row holds until the end of the x range
    steps += num(t_end) + "\t" + std::to_string(busy) + "\t" + std::to_string(waiting) + "\n";
  job.data_files.emplace_back("utilization.dat", steps);
  std::ostringstream u;
  u << "set datafile separator tab\n";
  u << "set multiplot layout 2,1 title " << gp_str("Utilization: " + run_title) << "\n";
  u << "set lmargin 12\nset rmargin 4\n";
  u << "set xrange [" << axis.at(t_begin) << ":" << axis.at(t_end) << "]\n";
  u << "set grid\n";
  u << "set key outside top right horizontal\n";
  u << "set xlabel " << gp_str(axis.label) << "\n";
  u << "set ylabel 'busy processors'\n";
  u << "set yrange [0:" << num(double(processors) * 1.05) << "]\n";
  u << "plot 'utilization.dat' using " << axis.column(1)
    << ":2 with steps lw 1.5 lc rgb '#1f77b4' title 'busy processors', \\\n"
    << "     " << processors << " with lines dt 2 lw 1.5 lc rgb '#555555' title "
    << gp_str("processors (" + std::to_string(processors) + ")") << "\n";
  u << "set ylabel 'waiting jobs'\n";
  u << "set yrange [0:" << num(std::max(1.0, double(max_waiting) * 1.05)) << "]\n";
  u << "plot 'utilization.dat' using " << axis.column(1)
    << ":3 with steps lw 1.5 lc rgb '#d62728' title 'waiting jobs (submitted, not "
       "started)'\n";
  u << "unset multiplot\n";
  job.figures.push_back({"utilization", u.str()});
  return job;
}

} // namespace

// ---------------------------------------------------------------------------------------------------------------

int plot_main(const std::vector<std::string>& args)
{
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
      throw InputError("--metric, --x and --series apply to sweep folders (with aggregate.csv); " + path +
                       " is a run folder (jobs.csv)");
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
