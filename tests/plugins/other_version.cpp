/* A test library built "against another version": its version symbol says so. Refused before anything it registered
 * is kept. */
#include "plugins/never_starts.hpp"

extern "C" __attribute__((visibility("default"))) const char jobsched_plugin_version[] = "0.0.1-other";

namespace {

using namespace jobsched;
using jobsched::test_plugins::make_never_starts;

PolicyRegistration never{
    {"test-other-version", "a policy of a library built against another version", {}, make_never_starts}};

} // namespace
