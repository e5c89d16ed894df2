/* The figures of a run: a Gantt chart (from trace.csv: which job computed on which processors when; from jobs.csv
 * for runs older than trace.csv) and its utilization (busy processors and waiting jobs over time). */
#include "plot/figures.hpp"

#include "core/errors.hpp"
#include "core/json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace jobsched::plot {

// ---------------------------------------------------------------------------------------------------------------
// Runs: Gantt chart and utilization

namespace {
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

constexpr long kSwitchingColour = 0x909090; // a job switching or moving its image, in every Gantt chart
constexpr long kComputingColour = 0x4c72b0; // any job computing, in aggregated Gantt charts
/* Aggregated Gantt charts: about one column per pixel of the plot's width and one row per pixel of its height. */
constexpr size_t kGanttColumns = 1000;
constexpr long kGanttRows = 500;
/* Utilization figures: more changes than this are thinned to what a pixel column shows. */
constexpr size_t kUtilizationMaxPoints = 8 * kGanttColumns;
/* An SVG rectangle takes about 135 bytes (measured with gnuplot 5.4): a few MB at most. Columns are halved down to
 * 1/16 of kGanttColumns to get there, where even a chart alternating between states in every cell has at most
 * kGanttRows x 62 = 31,000 rectangles. */
constexpr size_t kGanttMaxRectangles = 25000;

/* A duration in the unit that reads best, to 3 significant digits: "42 s", "29.7 min", "2.5 h", "1.2 days". */
std::string duration_text(double seconds)
{
  const std::pair<double, const char*> units[] = {{86400, "days"}, {3600, "h"}, {60, "min"}, {1, "s"}};
  for (const auto& [unit, name] : units)
    if (seconds >= 2 * unit || unit == 1) {
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.3g %s", seconds / unit, name);
      return buf;
    }
  return "";
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
  std::string unit_name;
  std::string label;
  TimeAxis(double first, double span)
      : origin(first), unit(span >= 3 * 86400  ? 86400
                            : span >= 3 * 3600 ? 3600
                                               : 1),
        unit_name(unit == 86400  ? "days"
                  : unit == 3600 ? "h"
                                 : "s"),
        label("time since the first submission (" + unit_name + ")")
  {
  }
  /* A gnuplot expression mapping data column `col` (seconds) to the axis. */
  std::string column(int col) const { return "(($" + std::to_string(col) + "-" + num(origin) + ")/" + num(unit) + ")"; }
  std::string at(double seconds) const { return num((seconds - origin) / unit); }
};
} // namespace

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
    const Json summary = read_json_file(summary_file);
    if (!summary.is_object()) throw InputError(summary_file.string() + ": a summary is a JSON object");
    if (auto p = summary.find("processors"); p != summary.end()) {
      if (!p->is_number_integer() || p->get<long long>() < 1)
        throw InputError(summary_file.string() + ": processors " + p->dump() + " is not a positive integer");
      processors = std::max(processors, static_cast<long>(p->get<long long>()));
    }
    auto text = [&](const char* key) {
      auto it = summary.find(key);
      if (it == summary.end()) return std::string();
      if (!it->is_string())
        throw InputError(summary_file.string() + ": " + key + " " + it->dump() + " is not a string");
      return it->get<std::string>();
    };
    if (std::string s = text("scenario"); !s.empty()) run_name = s;
    policy = text("policy");
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
  const double run_length = t_end - t_begin;
  if (window.from) t_begin = first_submission + *window.from;
  if (window.to) t_end = first_submission + *window.to;
  if (t_end <= t_begin) {
    const double from = window.from.value_or(0);
    if (window.to && *window.to <= from)
      throw InputError("--from " + num(from) + " and --to " + num(*window.to) +
                       ": the window is empty (--to must be above --from, 0 without it)");
    // --from alone, at or after the end (it named a --to of 0, which nobody gave).
    throw InputError("--from " + num(from) + ": at or after the end of " + run_dir.string() + ", " + num(run_length) +
                     " s after its first submission: nothing to draw (give --from below " + num(run_length) + ")");
  }
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
  // When the jobs held processors, in or out of the window: what a window that meets none of it is told.
  double held_from = INFINITY;
  double held_to = -INFINITY;
  auto held = [&held_from, &held_to](double from, double to) {
    held_from = std::min(held_from, from);
    held_to = std::max(held_to, to);
  };
  const bool traced = fs::exists(run_dir / "trace.csv", ec);
  if (traced) {
    Table tr = read_csv(run_dir / "trace.csv");
    size_t job_col = tr.required_column("job_id");
    size_t from_col = tr.required_column("start");
    size_t to_col = tr.required_column("end");
    size_t procs_col = tr.required_column("processors");
    size_t state_col = tr.required_column("state");
    // An aggregated row of a cycle advanced whole (its `repeats` not empty) stands for `repeats` segments, the i-th
    // shifted by i x period: the ones that meet the window are drawn.
    const int repeats_col = tr.column("repeats");
    const int period_col = tr.column("period");
    std::map<std::string, const RunJob*> by_id;
    for (const auto& j : jobs)
      by_id[j.id] = &j;
    for (size_t r = 0; r < tr.rows.size(); r++) {
      const std::string& state = tr.rows[r][state_col];
      if (state != "running" && state != "suspended" && state != "switching" && state != "transferring")
        throw InputError(tr.where(r) + ": state '" + state +
                         "': expected running, suspended, switching or transferring (the states of trace.csv's rows)");
      if (state == "suspended") continue;
      auto it = by_id.find(tr.rows[r][job_col]);
      if (it == by_id.end()) throw InputError(tr.where(r) + ": job " + tr.rows[r][job_col] + " is not in jobs.csv");
      const double from = number_at(tr, r, from_col);
      const double to = number_at(tr, r, to_col);
      if (repeats_col < 0 || period_col < 0 || tr.rows[r][static_cast<size_t>(repeats_col)].empty()) {
        segments.push_back({it->second, from, to, parse_intervals(tr, r, procs_col), state == "running"});
        if (!segments.back().intervals.empty()) held(from, to);
        continue;
      }
      const double repeats = number_at(tr, r, static_cast<size_t>(repeats_col));
      const double period = number_at(tr, r, static_cast<size_t>(period_col));
      if (!(repeats >= 1) || !(period > 0))
        throw InputError(tr.where(r) + ": an aggregated row without repeats or period");
      const auto intervals = parse_intervals(tr, r, procs_col);
      if (!intervals.empty()) held(from, to + (repeats - 1) * period);
      const double first = std::max(0.0, std::ceil((t_begin - to) / period));
      const double last = std::min(repeats - 1, std::floor((t_end - from) / period));
      for (double i = first; i <= last; i++)
        segments.push_back({it->second, from + i * period, to + i * period, intervals, state == "running"});
    }
  } else {
    // A job preempted, moved or resized has no allocated_resources: without its trace.csv segments it would be
    // missing from the Gantt chart and counted on the requested processors all along (more than the machine).
    const auto lacking = std::count_if(jobs.begin(), jobs.end(), [](const RunJob& j) { return j.intervals.empty(); });
    if (lacking > 0)
      throw InputError(run_dir.string() + ": " + std::to_string(lacking) + " of the " + std::to_string(jobs.size()) +
                       " started jobs have no allocated_resources in jobs.csv (preempted, moved or resized: their "
                       "processors are in trace.csv, which this run did not write); rerun it (or its sweep) with "
                       "output.trace: true");
    for (const auto& j : jobs) {
      segments.push_back({&j, j.start, j.finish.value_or(t_end), j.intervals, true});
      held(j.start, j.finish.value_or(t_end));
    }
  }

  PlotJob job;
  // Gantt chart: one rectangle per segment and interval of processors, or an aggregate of them when there are too
  // many to see (and to open: 200,000 rectangles make an SVG of tens of MB).
  struct Rectangle {
    const Box* box;
    long lo, hi;
  };
  std::vector<Rectangle> rectangles;
  long highest_processor = processors - 1;
  for (const auto& b : segments) {
    if (b.end < t_begin || b.start > t_end) continue; // outside the window: not drawn (smaller files)
    for (const auto& [lo, hi] : b.intervals) {
      rectangles.push_back({&b, lo, hi});
      highest_processor = std::max(highest_processor, hi);
    }
  }
  if (rectangles.empty()) {
    const std::string source = traced ? "trace.csv" : "jobs.csv (allocated_resources)";
    if (held_from > held_to) // every started job had an allocation without trace.csv (checked above)
      throw InputError((run_dir / "trace.csv").string() +
                       ": no row of a started job holds processors (every row suspended, or none): nothing to draw "
                       "in a Gantt chart");
    const bool windowed = window.from || window.to;
    throw InputError(run_dir.string() + ": no job held processors between " + num(t_begin - first_submission) +
                     " and " + num(t_end - first_submission) + " s after the first submission (" +
                     (windowed ? "the window of --from and --to" : "the run's jobs") + "); in " + source +
                     " jobs hold processors between " + num(held_from - first_submission) + " and " +
                     num(held_to - first_submission) + " s, none in this window: nothing to draw" +
                     (windowed ? " (give a window that meets them)" : ""));
  }
  std::string boxes = "# start\tend\tlowest\thighest\tcolour (job_id)\n";
  std::string labels;
  std::string aggregation_note;
  bool grey = false;
  const bool aggregated = rectangles.size() > kGanttAggregationThreshold;
  if (!aggregated) {
    bool label_jobs = jobs.size() <= 60;
    grey = std::any_of(segments.begin(), segments.end(), [](const Box& b) { return !b.computing; });
    for (const auto& [b, lo, hi] : rectangles) {
      long colour = b->computing ? job_colour(b->job->id) : kSwitchingColour;
      boxes += num(b->start) + "\t" + num(b->end) + "\t" + num(double(lo) - 0.5) + "\t" + num(double(hi) + 0.5) + "\t" +
               std::to_string(colour) + "\t# job " + b->job->id + "\n";
      if (label_jobs && b->computing && b->end - b->start >= 0.03 * (t_end - t_begin))
        labels += axis.at((std::max(b->start, t_begin) + std::min(b->end, t_end)) / 2) + "\t" +
                  num((double(lo) + double(hi)) / 2) + "\t" + b->job->id + "\n";
    }
  } else {
    std::vector<GanttSegment> parts;
    parts.reserve(rectangles.size());
    for (const auto& [b, lo, hi] : rectangles)
      parts.push_back({b->start, b->end, lo, hi, b->computing});
    // About a pixel per column and per band of processors; coarser columns while the rectangles would still weigh
    // more than a few MB (a processor busy part of every column alternates between states).
    size_t columns = kGanttColumns;
    GanttAggregation a = aggregate_gantt(parts, highest_processor + 1, t_begin, t_end, columns, kGanttRows);
    while (a.runs.size() > kGanttMaxRectangles && columns > kGanttColumns / 16) {
      columns /= 2;
      a = aggregate_gantt(parts, highest_processor + 1, t_begin, t_end, columns, kGanttRows);
    }
    boxes = "# start\tend\tlowest\thighest\tcolour (state): aggregated, " + std::to_string(a.columns) + " columns of " +
            num(a.column_seconds) + " s, " + std::to_string(a.processors_per_row) + " processor(s) per row\n";
    for (const auto& r : a.runs) {
      grey = grey || !r.computing;
      boxes += num(r.start) + "\t" + num(r.end) + "\t" + num(double(r.lowest) - 0.5) + "\t" +
               num(double(r.highest) + 0.5) + "\t" + std::to_string(r.computing ? kComputingColour : kSwitchingColour) +
               "\n";
    }
    aggregation_note =
        "aggregated: " + std::to_string(rectangles.size()) + " segments as " + std::to_string(a.runs.size()) +
        " rectangles (columns of " + duration_text(a.column_seconds) +
        (a.processors_per_row > 1 ? ", rows of " + std::to_string(a.processors_per_row) + " processors" : "") +
        ", each in its main state)";
  }
  job.data_files.emplace_back("gantt.dat", boxes);
  std::ostringstream g;
  g << "set title "
    << gp_str("Gantt chart: " + run_title + " (" + std::to_string(jobs.size()) + " jobs, " +
              std::to_string(processors) + " processors)");
  if (!aggregation_note.empty()) g << " . \"\\n\" . " << gp_str(aggregation_note);
  g << "\n";
  g << "set xlabel " << gp_str(window.xlabel.value_or(axis.label)) << "\n";
  g << "set ylabel " << gp_str(window.ylabel.value_or("processor")) << "\n";
  g << "set xrange [" << axis.at(t_begin) << ":" << axis.at(t_end) << "]\n";
  g << "set yrange [-0.5:" << num(double(processors) - 0.5) << "]\n";
  if (processors <= 32) g << "set ytics 0, 1, " << processors - 1 << "\n";
  g << "set grid xtics\n";
  g << "set key outside below center horizontal\n";
  g << "set datafile separator tab\n";
  g << "plot 'gantt.dat' using ((" << axis.column(1) << "+" << axis.column(2) << ")/2):(($3+$4)/2):" << axis.column(1)
    << ":" << axis.column(2) << ":3:4:5 with boxxyerror fill solid 0.9 "
    << (rectangles.size() <= 2000 ? "border lc rgb '#303030'" : "noborder") << " lc rgb variable";
  if (aggregated)
    g << " title 'computing (any job)'";
  else
    g << " title 'one rectangle per job segment and processor interval, coloured"
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
  std::vector<StepPoint> points;
  points.reserve(changes.size() + 1);
  long busy = 0;
  long waiting = 0;
  long max_waiting = 0;
  for (const auto& [time, change] : changes) {
    busy += change.first;
    waiting += change.second;
    max_waiting = std::max(max_waiting, waiting);
    points.push_back({time, busy, waiting});
  }
  if (changes.rbegin()->first < t_end) // the last row holds until the end of the x range
    points.push_back({t_end, busy, waiting});
  // Long runs change more often than there are pixels (200,000 jobs: 6 MB of SVG): keep what a pixel column shows.
  std::string thinned_note;
  if (points.size() > kUtilizationMaxPoints) {
    size_t all = points.size();
    points = thin_steps(points, t_begin, t_end, kGanttColumns);
    thinned_note = " (" + std::to_string(all) + " changes drawn as " + std::to_string(points.size()) +
                   ": the first, last, lowest and highest in each 1/" + std::to_string(kGanttColumns) +
                   " of the time axis)";
  }
  std::string steps = "# time (s)\tbusy processors\twaiting jobs\n";
  for (const auto& p : points)
    steps += num(p.time) + "\t" + std::to_string(p.busy) + "\t" + std::to_string(p.waiting) + "\n";
  job.data_files.emplace_back("utilization.dat", steps);
  std::ostringstream u;
  u << "set datafile separator tab\n";
  u << "set multiplot layout 2,1 title " << gp_str("Utilization: " + run_title + thinned_note) << "\n";
  u << "set lmargin 12\nset rmargin 4\n";
  u << "set xrange [" << axis.at(t_begin) << ":" << axis.at(t_end) << "]\n";
  u << "set grid\n";
  u << "set key outside top right horizontal\n";
  u << "set xlabel " << gp_str(window.xlabel.value_or(axis.label)) << "\n";
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

} // namespace jobsched::plot
