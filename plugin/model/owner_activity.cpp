/* Workstation owners' busy and idle periods (model/owner_activity.hpp): drawn, or read from a trace. */
#include "model/owner_activity.hpp"

#include "core/errors.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

namespace jobsched {

double hyperexponential(RandomStream& random, double mean, double cv)
{
  if (cv <= 1) return random.exponential(mean);
  const double p = 0.5 * (1 + std::sqrt((cv * cv - 1) / (cv * cv + 1)));
  const bool first = random.uniform() < p;
  return random.exponential(first ? mean / (2 * p) : mean / (2 * (1 - p)));
}

namespace {

// The simulator's horizon (README): an owner's change later than this would never be reached.
constexpr double kOwnerTraceHorizon = 1e12;

std::string trim(const std::string& s)
{
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

} // namespace

std::vector<OwnerChange> read_owner_trace(const std::filesystem::path& file, const std::vector<std::string>& hosts,
                                          double grace, std::vector<bool>& initially_busy)
{
  std::ifstream in(file);
  if (!in) throw InputError(file.string() + ": cannot open the owner trace");
  std::map<std::string, int> index;
  for (size_t h = 0; h < hosts.size(); h++)
    index[hosts[h]] = static_cast<int>(h);
  initially_busy.assign(hosts.size(), false);
  std::vector<bool> busy(hosts.size(), false);
  std::vector<double> since(hosts.size(), 0);        // when the owner came back (busy)
  std::vector<bool> zero_start(hosts.size(), false); // busy from time 0 and not idle since
  std::vector<OwnerChange> out;
  std::string line;
  double last = 0;
  for (long number = 1; std::getline(in, line); number++) {
    const std::string where = file.string() + ":" + std::to_string(number) + ": ";
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, ',');)
      fields.push_back(trim(f));
    if (fields.size() != 3) throw InputError(where + "expected TIME,HOST,STATE (3 fields), got " + quoted_value(line));
    // A decimal number, as SWF's times (README): strtod would also take hexadecimal ("0x10") and a sign.
    double t = 0;
    const char* const time_end = fields[0].data() + fields[0].size();
    const auto [end, error] = std::from_chars(fields[0].data(), time_end, t);
    if (fields[0].empty() || error != std::errc() || end != time_end || !std::isfinite(t) || t < 0)
      throw InputError(where + "time " + quoted_value(fields[0]) + " is not a finite decimal number of seconds >= 0");
    if (t > kOwnerTraceHorizon)
      throw InputError(where + "time " + fields[0] + " is past the simulator's horizon (1e12 s)");
    if (t < last)
      throw InputError(where + "time " + fields[0] + " is before the previous line's: lines go in time order");
    last = t;
    auto it = index.find(fields[1]);
    if (it == index.end()) throw InputError(where + "no compute host named " + quoted_value(fields[1]));
    const int h = it->second;
    if (fields[2] != "busy" && fields[2] != "idle")
      throw InputError(where + "state " + quoted_value(fields[2]) + " is neither busy nor idle");
    const bool now_busy = fields[2] == "busy";
    if (now_busy == busy[static_cast<size_t>(h)])
      throw InputError(where + "host " + fields[1] + " is already " + fields[2]);
    const auto k = static_cast<size_t>(h);
    busy[k] = now_busy;
    if (now_busy) {
      since[k] = t;
      if (t == 0) initially_busy[k] = zero_start[k] = true;
    } else if (zero_start[k]) { // the end of the first busy period of a host busy from time 0: no guest to evict
      zero_start[k] = false;
      out.push_back({t, h, false});
    } else if (t - since[k] > grace) {
      out.push_back({since[k] + grace, h, true});
      out.push_back({t, h, false});
    }
  }
  // A trace without any line (empty, or comments alone) is no change at all: no owner activity, as SimGrid reads a
  // profile without events.
  // An owner still there at the end of the trace stays: the guests leave after the grace time.
  for (size_t h = 0; h < hosts.size(); h++)
    if (busy[h] && !zero_start[h]) out.push_back({since[h] + grace, static_cast<int>(h), true});
  return out;
}

OwnerActivity::OwnerActivity(const OwnerSpec& spec, const std::vector<std::string>& hosts, std::uint64_t seed)
    : spec_(spec)
{
  initially_busy_.assign(hosts.size(), false);
  if (spec.model == OwnerSpec::Model::none) return;
  if (spec.model == OwnerSpec::Model::trace) {
    for (const OwnerChange& c : read_owner_trace(spec.trace, hosts, spec.grace, initially_busy_))
      queue_.push(c);
    return;
  }
  for (size_t h = 0; h < hosts.size(); h++) {
    random_.emplace_back(seed, "owner-" + hosts[h]);
    RandomStream& r = random_.back();
    if (r.uniform() < spec.activity()) {
      initially_busy_[h] = true;
      queue_.push({hyperexponential(r, spec.mean_busy, spec.busy_cv), static_cast<int>(h), false});
    } else {
      draw_next(static_cast<int>(h), 0);
    }
  }
}

void OwnerActivity::draw_next(int host, double from)
{
  RandomStream& r = random_[static_cast<size_t>(host)];
  // Busy periods within the grace time are not seen: draw on until one is longer (at most 10^6 draws: with any
  // positive mean and a finite grace, one comes long before).
  for (int tries = 0; tries < 1000000; tries++) {
    const double back = from + hyperexponential(r, spec_.mean_idle, spec_.idle_cv);
    const double busy = hyperexponential(r, spec_.mean_busy, spec_.busy_cv);
    if (busy > spec_.grace) {
      queue_.push({back + spec_.grace, host, true});
      queue_.push({back + busy, host, false});
      return;
    }
    from = back + busy;
  }
}

double OwnerActivity::next_time() const
{
  return queue_.empty() ? std::numeric_limits<double>::infinity() : queue_.top().time;
}

std::vector<OwnerChange> OwnerActivity::take_due(double now)
{
  std::vector<OwnerChange> out;
  while (!queue_.empty() && queue_.top().time <= now) {
    OwnerChange c = queue_.top();
    queue_.pop();
    out.push_back(c);
    if (c.busy) exits_++;
    if (!c.busy && spec_.model == OwnerSpec::Model::alternating) draw_next(c.host, c.time);
  }
  return out;
}

} // namespace jobsched
