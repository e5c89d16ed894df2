/* `jobsched plan-sweep`: McCann & Zahorjan 1994, "Scheduling memory constrained jobs on distributed memory parallel
 * computers", section 5.1 (Figures 9, 10, 11): the normalized overhead of the six quantum schedulers by Monte Carlo,
 * one CSV table per figure, one markdown table per panel, and one gnuplot figure (SVG and PNG) per panel. Every value
 * written depends only on the options (seed included), never on the wall clock, so the tables are byte-identical from
 * run to run; timings go to stderr. */
#include "experiment/plan_sweep_command.hpp"

#include "core/command_line.hpp"
#include "core/errors.hpp"
#include "output/output_files.hpp"
#include "plot/gnuplot.hpp"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace jobsched::memory_constrained {

const char* const kPlanSweepUsage = R"(Usage: jobsched plan-sweep [--figure 9|10|11|all] [options]
       jobsched plan-sweep --nodes N --jobs J [--load PERCENT] [--k K] [options]

The Monte Carlo overhead experiment of McCann & Zahorjan 1994 (section 5.1): M_j uniform on the integers
1 .. 2LN/J - 1, every policy scheduling the same draws, trials in batches until every policy's confidence interval
is within the precision of its mean. Normalized overhead = sum of the pieces' widths / N.

  --figure F         9 (vs J, N = 128, loads 100% and 200%), 10 (vs N = 16..256, J = 8), 11 (vs k = 0..8 at
                     J = 7, 8 (load 100%) and 15, 16 (load 200%)), or all (default)
  --nodes N, --jobs J, --load PERCENT, --k K
                     one point instead of figures (defaults N = 128, J = 8, load 100, k = 1): CSV on stdout
  --seed S           seed of the M_j draws (default 1)
  --confidence C     confidence level of the interval (default 0.90, the paper's)
  --precision P      stop when half-width <= P x mean for every policy (default 0.01, the paper's)
  --batch B          trials between two checks, also the fewest trials (default 1000)
  --max-trials T     give up on a point after T trials (default 2000000; the row says converged = 0)
  --rounding R       upper end of the range when 2LN/J is fractional: mix (default: floor or ceiling at random,
                     so that the mean is exactly LN/J), floor, nearest
  --out DIR          output folder for figures (default results/plan-sweep)
  --no-plot          tables only (no gnuplot)
  --quiet            no progress on stderr

Outputs in DIR: figureF.csv (one row per point and series), figureF.md (markdown tables, one per panel) and,
unless --no-plot, figureF-PANEL.svg and .png. CSV columns: panel, nodes, jobs, load_percent, k, m_upper_low,
m_upper_p_high (the range's upper end is m_upper_low + 1 with this probability), mean_min, series (buddy, hybrid,
equi-epoch, opt-epoch, heuristic-epoch), policy (the scheduler run: buddy-star for the buddy series when J is not a
power of two), trials, converged, mean, std, half_width, relative_half_width, confidence, assignments_tested_per_epoch
and mean_epochs (opt-epoch: mean over trials of assignments tested / epochs; epoch policies: mean epochs).
Points whose range exceeds N (e.g. J = 1 at load 100%) are left out; BUDDY and HYBRID appear only when N is a power
of two, OPT-EPOCH only for k <= 1.
Exit status: 0, 1 if a point did not converge within --max-trials, 2 bad arguments.
)";

namespace {

std::string number(double value, const char* format = "%.10g")
{
  char buf[64];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

double parse_real(const std::string& option, const std::string& text)
{
  try {
    size_t used = 0;
    double value = std::stod(text, &used);
    if (used != text.size() || !std::isfinite(value)) throw std::invalid_argument(text);
    return value;
  } catch (const std::exception&) {
    throw InputError(option + ": " + quoted_value(text) + " is not a number");
  }
}

std::string x_value(const std::string& x, const OverheadPoint& p)
{
  if (x == "jobs") return std::to_string(p.jobs);
  if (x == "nodes") return std::to_string(p.nodes);
  return std::to_string(p.k);
}

const std::vector<std::string>& all_series()
{
  static const std::vector<std::string> names{"buddy", "hybrid", "equi-epoch", "opt-epoch", "heuristic-epoch"};
  return names;
}

/* One markdown table per panel: x, then each series' mean (a * marks BUDDY* standing in for BUDDY), then trials. */
std::string markdown_panel(const FigurePanel& panel, const std::vector<std::optional<PointResult>>& results)
{
  std::ostringstream md;
  md << "### " << panel.title << "\n\n";
  md << "| " << (panel.x == "jobs" ? "J" : panel.x == "nodes" ? "N" : "k");
  for (const auto& s : all_series())
    md << " | " << s;
  md << " | trials | M_j upper end |\n|---";
  for (size_t i = 0; i <= all_series().size() + 1; i++)
    md << "|---";
  md << "|\n";
  for (size_t i = 0; i < panel.points.size(); i++) {
    const auto& point = panel.points[i];
    md << "| " << x_value(panel.x, point);
    if (!results[i]) {
      for (size_t s = 0; s < all_series().size(); s++)
        md << " | ";
      md << " | left out | > N |\n";
      continue;
    }
    for (const auto& name : all_series()) {
      md << " | ";
      for (const auto& s : results[i]->series)
        if (s.which.series == name)
          md << number(s.estimate.mean, "%.4f") << (s.which.policy == "buddy-star" ? "*" : "");
    }
    const auto& d = results[i]->distribution;
    md << " | " << results[i]->trials << (results[i]->converged ? "" : " (not converged)") << " | " << d.low
       << (d.p_high_numerator > 0 ? " or " + std::to_string(d.low + 1) + " (p " + number(d.p_high, "%.3f") + ")" : "")
       << " |\n";
  }
  md << "\n";
  return md.str();
}

/* One figure per panel: the swept value on x, normalized overhead on y, one line per series with its confidence
 * interval as error bars. */
plot::Figure panel_figure(const FigurePanel& panel, const std::vector<std::optional<PointResult>>& results,
                          double confidence, std::vector<std::pair<std::string, std::string>>& data_files)
{
  std::ostringstream c;
  c << "set title " << plot::gp_str(panel.title) << " . \"\\n\" . "
    << plot::gp_str("Monte Carlo mean, error bars = " + number(confidence * 100, "%g") +
                    "% confidence interval; buddy = BUDDY* when J is not a power of two")
    << "\n";
  c << "set xlabel "
    << plot::gp_str(panel.x == "jobs"    ? "number of jobs J"
                    : panel.x == "nodes" ? "number of nodes N"
                                         : "allowed inequity k")
    << "\n";
  c << "set ylabel 'normalized overhead (reallocations per node per quantum)'\n";
  c << "set grid\nset key outside below center horizontal\nset datafile separator tab\n";
  c << "set offsets graph 0.02, graph 0.02, graph 0.05, graph 0.05\n";
  std::vector<std::string> plots;
  int style = 0;
  for (const auto& name : all_series()) {
    style++;
    std::string data = "# x\tmean\thalf_width\n";
    bool any = false;
    for (size_t i = 0; i < panel.points.size(); i++) {
      if (!results[i]) continue;
      for (const auto& s : results[i]->series)
        if (s.which.series == name) {
          data += x_value(panel.x, panel.points[i]) + "\t" + number(s.estimate.mean) + "\t" +
                  number(s.estimate.half_width) + "\n";
          any = true;
        }
    }
    if (!any) continue;
    std::string file = panel.name + "-" + name + ".dat";
    data_files.emplace_back(file, data);
    // Distinct points and dashes: OPT-EPOCH(1) and HEURISTIC-EPOCH(1) often coincide.
    static const int points[] = {7, 5, 9, 6, 2};
    plots.push_back(plot::gp_str(file) + " using 1:2:3 with yerrorlines lt " + std::to_string(style) + " dt " +
                    std::to_string(name == "heuristic-epoch" ? 2 : 1) + " lw 2 pt " +
                    std::to_string(points[style - 1]) + " ps 1.2 title " +
                    plot::gp_str(name == "buddy" ? "buddy (buddy* if J != 2^j)" : name));
  }
  c << "plot ";
  for (size_t i = 0; i < plots.size(); i++)
    c << (i ? ", \\\n     " : "") << plots[i];
  c << "\n";
  return plot::Figure{panel.name, c.str()};
}

} // namespace

std::string overhead_csv_header()
{
  return "panel,nodes,jobs,load_percent,k,m_upper_low,m_upper_p_high,mean_min,series,policy,trials,converged,mean,std,"
         "half_width,relative_half_width,confidence,assignments_tested_per_epoch,mean_epochs\n";
}

std::string overhead_csv_rows(const std::string& panel, const PointResult& r)
{
  std::string out;
  for (const auto& s : r.series) {
    const Estimate& e = s.estimate;
    out += panel + "," + std::to_string(r.point.nodes) + "," + std::to_string(r.point.jobs) + "," +
           std::to_string(r.point.load_percent) + "," + std::to_string(r.point.k) + "," +
           std::to_string(r.distribution.low) + "," + number(r.distribution.p_high) + "," +
           number(r.distribution.mean()) + "," + s.which.series + "," + s.which.policy + "," +
           std::to_string(r.trials) + "," + (r.converged ? "1" : "0") + "," + number(e.mean) + "," + number(e.std) +
           "," + number(e.half_width) + "," + number(e.mean != 0 ? e.half_width / e.mean : 0) + "," +
           number(r.confidence, "%g") + "," + number(s.assignments_tested_per_epoch) + "," + number(s.mean_epochs) +
           "\n";
  }
  return out;
}

/* The command line of `jobsched plan-sweep`, as CLI11 read it: text, checked by run_plan_sweep. */
struct PlanSweepArguments {
  std::string figure, nodes, jobs, load, k, seed, confidence, precision, batch, max_trials, rounding, out;
  bool no_plot = false;
  bool quiet = false;
};

int run_plan_sweep(const PlanSweepArguments& arguments, const CLI::App& command)
{
  std::string figure = "all";
  OverheadPoint single;
  bool single_point = false;
  std::uint64_t seed = 1;
  StoppingRule rule;
  RangeRounding rounding = RangeRounding::mix;
  std::string out_dir = "results/plan-sweep";
  const bool plot = !arguments.no_plot;
  const bool quiet = arguments.quiet;
  bool figure_given = false;
  auto given = [&command](const char* name) { return command.count(name) > 0; };
  if (given("--figure")) {
    const std::string& v = arguments.figure;
    if (v != "9" && v != "10" && v != "11" && v != "all")
      throw InputError("--figure: " + quoted_value(v) + " is not one of 9, 10, 11, all");
    figure = v;
    figure_given = true;
  }
  if (given("--nodes")) {
    single.nodes = static_cast<int>(parse_whole("--nodes", arguments.nodes, 1, 1'000'000));
    single_point = true;
  }
  if (given("--jobs")) {
    single.jobs = static_cast<int>(parse_whole("--jobs", arguments.jobs, 1, 1'000'000));
    single_point = true;
  }
  if (given("--load")) {
    single.load_percent = static_cast<int>(parse_whole("--load", arguments.load, 1, 1'000'000));
    single_point = true;
  }
  if (given("--k")) {
    single.k = static_cast<int>(parse_whole("--k", arguments.k, 0, 1'000'000));
    single_point = true;
  }
  if (given("--seed"))
    seed = static_cast<std::uint64_t>(parse_whole("--seed", arguments.seed, 0, std::numeric_limits<long long>::max()));
  if (given("--confidence")) {
    const std::string& v = arguments.confidence;
    rule.confidence = parse_real("--confidence", v);
    if (!(rule.confidence > 0 && rule.confidence < 1))
      throw InputError("--confidence: " + v + " must be strictly between 0 and 1");
  }
  if (given("--precision")) {
    const std::string& v = arguments.precision;
    rule.relative_precision = parse_real("--precision", v);
    if (!(rule.relative_precision > 0)) throw InputError("--precision: " + v + " must be positive");
  }
  if (given("--batch")) rule.batch = static_cast<long>(parse_whole("--batch", arguments.batch, 2, 100'000'000));
  if (given("--max-trials"))
    rule.max_trials = static_cast<long>(parse_whole("--max-trials", arguments.max_trials, 2, 1'000'000'000'000LL));
  if (given("--rounding")) rounding = parse_range_rounding(arguments.rounding);
  if (given("--out")) {
    if (arguments.out.empty()) throw InputError("--out: empty folder name");
    out_dir = arguments.out;
  }
  if (rule.max_trials < rule.batch)
    throw InputError("--max-trials: " + std::to_string(rule.max_trials) + " is below the batch size " +
                     std::to_string(rule.batch));
  if (single_point && figure_given)
    throw InputError("--figure: give either a figure or a point (--nodes ...), not both");

  const auto started = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };

  if (single_point) {
    auto result = run_point(single, seed, rule, rounding);
    if (!result)
      throw InputError("--jobs/--load: M_j uniform on 1 .. 2LN/J - 1 does not fit N = " + std::to_string(single.nodes) +
                       " (the range exceeds N or is empty): the paper's experiments leave such points out");
    std::fputs((overhead_csv_header() + overhead_csv_rows("point", *result)).c_str(), stdout);
    if (!quiet) std::fprintf(stderr, "plan-sweep: %ld trials in %.2f s\n", result->trials, elapsed());
    return result->converged ? 0 : 1;
  }

  bool all_converged = true;
  OutputFiles files{std::filesystem::path(out_dir)};
  plot::PlotJob plot_job;
  std::vector<std::string> written;
  for (const auto& spec : overhead_figures()) {
    if (figure != "all" && figure != spec.id) continue;
    std::string csv = overhead_csv_header();
    std::string md = "## Figure " + spec.id + ": " + spec.caption + "\n\n" + "Mean normalized overhead (the " +
                     number(rule.confidence * 100, "%g") + "% confidence half-width is within " +
                     number(rule.relative_precision * 100, "%g") +
                     "% of each mean); * = BUDDY* (J not a power of two); seed " + std::to_string(seed) +
                     ", rounding " + to_string(rounding) + ".\n\n";
    for (const auto& panel : spec.panels) {
      std::vector<std::optional<PointResult>> results;
      for (const auto& point : panel.points) {
        auto t0 = elapsed();
        results.push_back(run_point(point, seed, rule, rounding));
        if (results.back()) {
          csv += overhead_csv_rows(panel.name, *results.back());
          if (!results.back()->converged) {
            all_converged = false;
            std::fprintf(stderr, "plan-sweep: warning: %s %s = %s did not converge within %ld trials\n",
                         panel.name.c_str(), panel.x.c_str(), x_value(panel.x, point).c_str(), rule.max_trials);
          }
        }
        if (!quiet)
          std::fprintf(stderr, "plan-sweep: %s %s = %s: %s (%.2f s)\n", panel.name.c_str(), panel.x.c_str(),
                       x_value(panel.x, point).c_str(),
                       results.back() ? (std::to_string(results.back()->trials) + " trials").c_str() : "left out",
                       elapsed() - t0);
      }
      md += markdown_panel(panel, results);
      if (plot) plot_job.figures.push_back(panel_figure(panel, results, rule.confidence, plot_job.data_files));
    }
    files.add("figure" + spec.id + ".csv", csv);
    files.add("figure" + spec.id + ".md", md);
    written.push_back("figure" + spec.id + ".csv");
    written.push_back("figure" + spec.id + ".md");
  }
  files.commit();
  for (const auto& name : written)
    std::printf("%s\n", (std::filesystem::path(out_dir) / name).string().c_str());
  if (plot)
    for (const auto& path : plot::render(plot_job, out_dir))
      std::printf("%s\n", path.string().c_str());
  if (!quiet) std::fprintf(stderr, "plan-sweep: done in %.1f s\n", elapsed());
  return all_converged ? 0 : 1;
}

void add_plan_sweep_command(CommandLine& cli)
{
  auto o = std::make_shared<PlanSweepArguments>();
  CLI::App* command = cli.add_command(cli.root(), "plan-sweep", kPlanSweepUsage,
                                      [o](const CLI::App& parsed) { return run_plan_sweep(*o, parsed); });
  command->add_option("--figure", o->figure);
  command->add_option("--nodes", o->nodes);
  command->add_option("--jobs", o->jobs);
  command->add_option("--load", o->load);
  command->add_option("--k", o->k);
  command->add_option("--seed", o->seed);
  command->add_option("--confidence", o->confidence);
  command->add_option("--precision", o->precision);
  command->add_option("--batch", o->batch);
  command->add_option("--max-trials", o->max_trials);
  command->add_option("--rounding", o->rounding);
  command->add_option("--out", o->out);
  command->add_flag("--no-plot", o->no_plot);
  command->add_flag("-q,--quiet", o->quiet);
}

int plan_sweep_main(const std::vector<std::string>& args)
{
  return run_one_command("plan-sweep", add_plan_sweep_command, args);
}

} // namespace jobsched::memory_constrained
