/* `jobsched plan`: the memory-constrained schedulers of McCann & Zahorjan 1994, "Scheduling memory constrained jobs on
 * distributed memory parallel computers" (sections 3 and 4), on the command line. Every schedule printed has passed
 * the validator with its policy's promises. */
#include "experiment/plan_command.hpp"

#include "core/command_line.hpp"
#include "core/errors.hpp"
#include "core/json.hpp"
#include "experiment/gang_now_plan.hpp"
#include "policies/memory_constrained/policies.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <limits>

namespace jobsched::memory_constrained {

const char* const kPlanUsage = R"(Usage: jobsched plan POLICY --nodes N --mins M1,M2,... [--k K] [--max-partitions P]

One scheduling quantum for jobs with minimum node counts (McCann & Zahorjan 1994), as JSON on stdout.
POLICY: buddy, buddy-star, hybrid, equi-epoch, opt-epoch, heuristic-epoch.
  --nodes N             the machine's node count
  --mins M1,M2,...      each job's minimum node count (job j is the j-th, from 0)
  --k K                 allowed inequity for hybrid, opt-epoch and heuristic-epoch (default 1)
  --max-partitions P    opt-epoch: give up after examining P partitions (default 10000000; needed for k > 1)
Exit status: 0 success, 2 bad arguments or an input the policy cannot schedule.

Gang scheduling on heterogeneous workstations (Al-Saqabi, Otto & Walpole): 'jobsched plan mtat|compress|expand',
see 'jobsched plan mtat --help'.
)";

namespace {

/* A quotient of the schedule as a JSON number, to 12 significant digits. */
Json decimal(double value)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.12g", value);
  return json_decimal(buf);
}

Json decimal(const Fraction& f)
{
  return decimal(boost::rational_cast<double>(f));
}

/* A fraction as an exact JSON string: "3/4", "2". */
Json fraction_string(const Fraction& f)
{
  std::string s = std::to_string(f.numerator());
  if (f.denominator() != 1) s += "/" + std::to_string(f.denominator());
  return s;
}

int parse_int(const std::string& option, const std::string& text, long long lowest)
{
  return static_cast<int>(parse_whole(option, text, lowest, 1'000'000'000));
}

} // namespace

std::string schedule_json(const QuantumSchedule& schedule, const std::string& policy, const std::vector<int>& mins,
                          std::optional<int> k)
{
  Json pieces = Json::array();
  for (const Piece& p : schedule.pieces)
    pieces.push_back(Json{{"job", p.job},
                          {"min", mins[static_cast<size_t>(p.job)]},
                          {"first_node", p.first_node},
                          {"width", p.width},
                          {"start", decimal(p.start)},
                          {"duration", decimal(p.duration)},
                          {"start_fraction", fraction_string(p.start)},
                          {"duration_fraction", fraction_string(p.duration)}});
  Json epochs = Json::array();
  for (const Epoch& epoch : schedule.epochs) {
    std::vector<int> widths;
    for (int index : epoch.pieces)
      widths.push_back(schedule.pieces[static_cast<size_t>(index)].width);
    epochs.push_back(Json{{"start", decimal(epoch.start)},
                          {"duration", decimal(epoch.duration)},
                          {"start_fraction", fraction_string(epoch.start)},
                          {"duration_fraction", fraction_string(epoch.duration)},
                          {"widths", widths},
                          {"pieces", epoch.pieces}});
  }
  Json out;
  out["policy"] = policy;
  out["nodes"] = schedule.nodes;
  out["k"] = k ? Json(*k) : Json(nullptr);
  out["mins"] = mins;
  out["overhead"] = schedule.overhead();
  out["normalized_overhead"] = decimal(schedule.normalized_overhead());
  out["epoch_count"] = schedule.epochs.size();
  out["assignments_tested"] = schedule.assignments_tested;
  out["assignments_tested_per_epoch"] = decimal(schedule.assignments_tested_per_epoch());
  out["pieces"] = pieces;
  out["epochs"] = epochs;
  return json_text(out);
}

namespace {

/* The command line of `jobsched plan POLICY ...`, as CLI11 read it. */
struct PlanArguments {
  std::string policy;
  std::string nodes, mins, k, max_partitions;
};

int run_plan(const PlanArguments& arguments, const CLI::App& command)
{
  const std::string& policy_name = arguments.policy;
  std::optional<int> nodes;
  std::optional<std::vector<int>> mins;
  std::optional<int> k;
  PlanOptions options;
  if (command.count("--nodes") > 0) nodes = parse_int("--nodes", arguments.nodes, 1);
  if (command.count("--k") > 0) k = parse_int("--k", arguments.k, 0);
  if (command.count("--max-partitions") > 0) {
    const std::string& value = arguments.max_partitions;
    long long bound = parse_whole("--max-partitions", value, std::numeric_limits<long long>::min(),
                                  std::numeric_limits<long long>::max());
    if (bound < 1) throw InputError("--max-partitions: " + value + " must be at least 1");
    options.opt_epoch.max_partitions_examined = bound;
  }
  if (command.count("--mins") > 0) {
    const std::string& value = arguments.mins;
    mins.emplace();
    std::string item;
    std::istringstream items(value);
    while (std::getline(items, item, ','))
      mins->push_back(parse_int("--mins", item, 1));
    if (mins->empty() || value.back() == ',') throw InputError("--mins: expected M1,M2,... (at least one job)");
  }
  if (policy_name.empty()) throw InputError("plan: no policy given: jobsched plan POLICY --nodes N --mins M1,M2,...");
  const MemoryConstrainedPolicy& policy = memory_constrained_policy(policy_name);
  if (!nodes) throw InputError("plan: --nodes N is required");
  if (!mins) throw InputError("plan: --mins M1,M2,... is required");
  if (k && !policy.takes_k) throw InputError("plan: " + policy.name + " takes no --k");
  if (options.opt_epoch.max_partitions_examined && policy.name != "opt-epoch")
    throw InputError("plan: --max-partitions applies to opt-epoch only");
  if (k) options.k = *k;
  QuantumSchedule schedule = policy.plan(*nodes, *mins, options);
  auto problems = validate(schedule, *nodes, *mins, policy.promises(options.k));
  if (!problems.empty())
    throw PolicyError(policy.name + " produced an invalid schedule: " + problems.front() + " (and " +
                      std::to_string(problems.size() - 1) + " more problems)");
  std::fputs(schedule_json(schedule, policy.name, *mins, policy.takes_k ? std::optional<int>(options.k) : std::nullopt)
                 .c_str(),
             stdout);
  return 0;
}

} // namespace

void add_plan_command(CommandLine& cli)
{
  auto o = std::make_shared<PlanArguments>();
  CLI::App* command =
      cli.add_command(cli.root(), "plan", kPlanUsage, [o](const CLI::App& parsed) { return run_plan(*o, parsed); });
  command->add_option("policy", o->policy);
  command->add_option("--nodes", o->nodes);
  command->add_option("--mins", o->mins);
  command->add_option("--k", o->k);
  command->add_option("--max-partitions", o->max_partitions);
  // The gang-scheduling algorithms have their own words and options.
  gang_now::add_gang_plan_commands(cli, *command);
}

} // namespace jobsched::memory_constrained
