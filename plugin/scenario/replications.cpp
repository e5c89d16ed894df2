#include "scenario/replications.hpp"

#include "core/errors.hpp"
#include "core/yaml_tags.hpp"

#include <cmath>
#include <set>

namespace jobsched {

namespace {

/* Where an error about `replications:` is: its file and line, or --set. */
struct Origin {
  const ValueOrigins& origins;

  [[noreturn]] void fail(const YAML::Node& at, const std::string& key, const std::string& what) const
  {
    throw InputError(origins.where_read(key, at) + ": " + key + ": " + what);
  }

  template <class T>
  T scalar(const YAML::Node& n, const std::string& key, const std::string& expected) const
  {
    if (!n.IsScalar()) fail(n, key, "expected " + expected);
    try {
      return n.as<T>();
    } catch (const YAML::Exception&) {
      fail(n, key, "expected " + expected + ", got " + quoted_value(n.Scalar()));
    }
  }
  /* A tag must name the type asked (core/yaml_tags.hpp): yaml-cpp would read `!!str 20` as the number 20. */
  void require_fitting_tag(const YAML::Node& n, const std::string& key, const std::string& expected,
                           ScalarType type) const
  {
    if (n.IsScalar() && !tag_fits(n.Tag(), type))
      fail(n, key, "expected " + expected + ", got " + quoted_value(n.Scalar()) + " tagged " + quoted_value(n.Tag()));
  }
  long integer(const YAML::Node& n, const std::string& key) const
  {
    require_fitting_tag(n, key, "an integer", ScalarType::kInteger);
    return scalar<long>(n, key, "an integer");
  }
  double number(const YAML::Node& n, const std::string& key) const
  {
    require_fitting_tag(n, key, "a number", ScalarType::kNumber);
    const double v = scalar<double>(n, key, "a number");
    if (!std::isfinite(v)) fail(n, key, "expected a finite number, got " + quoted_value(n.Scalar()));
    return v;
  }
};

} // namespace

std::uint64_t ReplicationRule::seed_of(long replication) const
{
  if (!adaptive && replication < static_cast<long>(seeds.size())) return seeds[replication];
  return base_seed + static_cast<std::uint64_t>(replication);
}

ReplicationRule read_replications(const YAML::Node& reps, const ValueOrigins& origins, std::uint64_t base_seed)
{
  const Origin origin{origins};
  ReplicationRule rule;
  rule.base_seed = base_seed;
  if (!reps || reps.IsNull()) {
    rule.seeds = {base_seed};
  } else if (reps.IsScalar()) {
    long n = origin.integer(reps, "replications");
    if (n < 1) origin.fail(reps, "replications", "must be at least 1");
    if (n > kMaxReplications)
      origin.fail(reps, "replications", "at most " + std::to_string(kMaxReplications) + " per point");
    for (long r = 0; r < n; r++)
      rule.seeds.push_back(base_seed + static_cast<std::uint64_t>(r));
  } else if (reps.IsSequence()) {
    for (const auto& s : reps) {
      long seed = origin.integer(s, "replications");
      if (seed < 0) origin.fail(s, "replications", "seeds must be >= 0");
      rule.seeds.push_back(static_cast<std::uint64_t>(seed));
    }
    if (rule.seeds.empty()) origin.fail(reps, "replications", "empty list of seeds");
    if (static_cast<long>(rule.seeds.size()) > kMaxReplications)
      origin.fail(reps, "replications", "at most " + std::to_string(kMaxReplications) + " seeds per point");
  } else {
    // An empty section elsewhere is the section's absence (sweep: {}, owners: {}); here the absence is one run and a
    // mapping a stopping rule of 3 to 30 runs: which one {} meant is unknown, as for an empty list of seeds.
    if (reps.IsMap() && reps.size() == 0)
      origin.fail(reps, "replications",
                  "an empty stopping rule: give its keys (min, max, metric, relative_half_width, confidence, "
                  "stop_when; e.g. {min: 3, max: 30}), a count or a list of seeds, or remove it for one run");
    rule.adaptive = true;
    std::set<std::string> keys; // YAML keeps both of a key given twice; the second would silently win
    for (const auto& kv : reps)
      if (!keys.insert(kv.first.Scalar()).second)
        origin.fail(kv.first, "replications." + kv.first.Scalar(), "duplicate key");
    for (const auto& kv : reps) {
      const std::string k = kv.first.Scalar();
      if (k == "min")
        rule.min = origin.integer(kv.second, "replications.min");
      else if (k == "max")
        rule.max = origin.integer(kv.second, "replications.max");
      else if (k == "metric")
        rule.metric = origin.scalar<std::string>(kv.second, "replications.metric", "a metric name");
      else if (k == "relative_half_width")
        rule.relative_half_width = origin.number(kv.second, "replications.relative_half_width");
      else if (k == "confidence")
        rule.confidence = origin.number(kv.second, "replications.confidence");
      else if (k == "stop_when")
        rule.stop_when = origin.scalar<std::string>(kv.second, "replications.stop_when", "a metric name");
      else
        origin.fail(kv.first, "replications." + k,
                    "unknown key (known here: min, max, metric, relative_half_width, confidence, stop_when)");
    }
    if (rule.min < 2 || rule.max < rule.min)
      origin.fail(reps, "replications", "need 2 <= min <= max for a stopping rule");
    if (rule.max > kMaxReplications)
      origin.fail(reps, "replications.max", "at most " + std::to_string(kMaxReplications) + " per point");
    if (!(rule.relative_half_width > 0)) origin.fail(reps, "replications.relative_half_width", "must be > 0");
    if (!(rule.confidence >= 0.5 && rule.confidence < 1))
      origin.fail(reps, "replications.confidence", "must be at least 0.5 and below 1 (0.9 for a 90% interval)");
  }
  return rule;
}

} // namespace jobsched
