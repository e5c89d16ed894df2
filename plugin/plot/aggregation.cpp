/* Figures of long runs: what cannot be seen at the figure's resolution is aggregated, so that the SVGs of a run of
 * 200,000 jobs stay a few MB instead of one rectangle per segment and one step per change (tens of MB).
 * Time is cut into columns about a pixel wide and processors into at most one band per pixel row; in each band, each
 * column shows one state (computing, switching, idle), and runs of columns in one state are one rectangle. The
 * utilization's step functions keep, per column, the points a pixel column shows. */
#include "plot/figures.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace jobsched::plot {

GanttAggregation aggregate_gantt(const std::vector<GanttSegment>& segments, long processors, double t_begin,
                                 double t_end, size_t columns, long max_rows)
{
  GanttAggregation out;
  columns = std::max<size_t>(columns, 1);
  max_rows = std::max(max_rows, 1L);
  processors = std::max(processors, 1L);
  out.columns = columns;
  out.column_seconds = (t_end - t_begin) / double(columns);
  out.processors_per_row = (processors + max_rows - 1) / max_rows;
  const long per_band = out.processors_per_row;
  const long bands = (processors + per_band - 1) / per_band;
  const double width = out.column_seconds;
  if (!(width > 0)) return out;

  // Processor-seconds per band and column, computing and switching; columns a segment covers whole are counted in a
  // difference array (processors per column), so that a long segment costs O(1), not O(columns).
  enum State { computing = 0, switching = 1 };
  std::vector<double> seconds(size_t(bands) * columns * 2, 0.0);
  std::vector<double> whole(size_t(bands) * (columns + 1) * 2, 0.0);
  auto cell = [&](long band, size_t column, int state) -> double& {
    return seconds[(size_t(band) * columns + column) * 2 + size_t(state)];
  };
  auto column_of = [&](double t) {
    double c = std::floor((t - t_begin) / width);
    return static_cast<size_t>(std::clamp(c, 0.0, double(columns - 1)));
  };
  for (const auto& s : segments) {
    double start = std::max(s.start, t_begin);
    double end = std::min(s.end, t_end);
    long lowest = std::max(s.lowest, 0L);
    long highest = std::min(s.highest, processors - 1);
    if (!(end > start) || highest < lowest) continue;
    int state = s.computing ? computing : switching;
    size_t c0 = column_of(start);
    size_t c1 = column_of(end);
    for (long band = lowest / per_band; band <= highest / per_band; band++) {
      double n = double(std::min(highest, (band + 1) * per_band - 1) - std::max(lowest, band * per_band) + 1);
      if (c0 == c1) {
        cell(band, c0, state) += n * (end - start);
        continue;
      }
      cell(band, c0, state) += n * (t_begin + double(c0 + 1) * width - start);
      cell(band, c1, state) += n * (end - (t_begin + double(c1) * width));
      if (c1 > c0 + 1) {
        whole[(size_t(band) * (columns + 1) + c0 + 1) * 2 + size_t(state)] += n;
        whole[(size_t(band) * (columns + 1) + c1) * 2 + size_t(state)] -= n;
      }
    }
  }

  for (long band = 0; band < bands; band++) {
    const long lowest = band * per_band;
    const long highest = std::min(processors, lowest + per_band) - 1;
    const double capacity = double(highest - lowest + 1) * width;
    // Each column's state by error diffusion: every state accumulates its share of the column, the largest
    // accumulated share is drawn and pays one column. The time drawn in a state then stays within a column of the
    // time spent in it (over the whole row and over every prefix), where "largest share per column" would drop a
    // processor busy 40% of every column altogether.
    std::array<double, 3> carry{0, 0, 0}; // computing, switching, idle
    std::array<double, 2> running{0, 0};  // prefix sums of the whole-column counts
    int open_state = -1;                  // the run being extended, -1 for none (idle)
    size_t open_from = 0;
    auto close = [&](size_t column) {
      if (open_state >= 0)
        out.runs.push_back({t_begin + double(open_from) * width, t_begin + double(column) * width, lowest, highest,
                            open_state == computing});
    };
    for (size_t c = 0; c < columns; c++) {
      std::array<double, 3> share{0, 0, 0};
      for (int state : {computing, switching}) {
        running[size_t(state)] += whole[(size_t(band) * (columns + 1) + c) * 2 + size_t(state)];
        share[size_t(state)] = std::max(0.0, (cell(band, c, state) + running[size_t(state)] * width) / capacity);
      }
      double busy = share[0] + share[1];
      if (busy > 1) { // overlapping segments (not written by jobsched): shares of a full column
        share[0] /= busy;
        share[1] /= busy;
        busy = 1;
      }
      share[2] = 1 - busy;
      int chosen = 0;
      for (int k = 0; k < 3; k++) {
        carry[size_t(k)] += share[size_t(k)];
        if (carry[size_t(k)] > carry[size_t(chosen)]) chosen = k;
      }
      carry[size_t(chosen)] -= 1;
      int state = chosen == 2 ? -1 : chosen;
      if (state != open_state) {
        close(c);
        open_state = state;
        open_from = c;
      }
    }
    close(columns);
  }
  return out;
}

std::vector<StepPoint> thin_steps(const std::vector<StepPoint>& points, double t_begin, double t_end, size_t columns)
{
  columns = std::max<size_t>(columns, 1);
  const double width = (t_end - t_begin) / double(columns);
  // Bucket of a time: the columns, with everything before the window in one more (its last point is the value at the
  // window's start) and everything after in another.
  auto bucket = [&](double t) -> size_t {
    if (t < t_begin || !(width > 0)) return 0;
    if (t >= t_end) return columns + 1;
    return 1 + std::min(columns - 1, static_cast<size_t>((t - t_begin) / width));
  };
  std::vector<char> keep(points.size(), 0);
  for (size_t i = 0; i < points.size();) {
    size_t b = bucket(points[i].time);
    size_t first = i, min_busy = i, max_busy = i, min_waiting = i, max_waiting = i;
    for (; i < points.size() && bucket(points[i].time) == b; i++) {
      if (points[i].busy < points[min_busy].busy) min_busy = i;
      if (points[i].busy > points[max_busy].busy) max_busy = i;
      if (points[i].waiting < points[min_waiting].waiting) min_waiting = i;
      if (points[i].waiting > points[max_waiting].waiting) max_waiting = i;
    }
    for (size_t k : {first, min_busy, max_busy, min_waiting, max_waiting, i - 1})
      keep[k] = 1;
  }
  std::vector<StepPoint> out;
  for (size_t i = 0; i < points.size(); i++)
    if (keep[i]) out.push_back(points[i]);
  return out;
}

} // namespace jobsched::plot
