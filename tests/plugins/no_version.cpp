/* A test library that registers a policy but lacks the version symbol (no JOBSCHED_PLUGIN): refused. */
#include "plugins/never_starts.hpp"

namespace {

using namespace jobsched;
using jobsched::test_plugins::make_never_starts;

PolicyRegistration never{
    {"test-no-version", "a policy of a library without the version symbol", {}, make_never_starts}};

} // namespace
