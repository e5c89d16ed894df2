/* A test plugin that registers a fresh policy name, then one jobsched already has (fcfs): refused whole, the fresh
 * name included. */
#include "plugins/never_starts.hpp"
#include "policy/plugin.hpp"

JOBSCHED_PLUGIN;

namespace {

using namespace jobsched;
using jobsched::test_plugins::make_never_starts;

PolicyRegistration fresh{{"test-fresh-name", "registered beside a taken name", {}, make_never_starts}};
PolicyRegistration taken{{"fcfs", "a second fcfs", {}, make_never_starts}};

} // namespace
