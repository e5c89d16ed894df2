/* A test library built against jobsched's version but other headers: its version symbol carries this version and
 * another digest of the public headers (core/version.hpp), as a plugin compiled before a header changed would. Refused
 * before anything it registered is kept. */
#include "core/version.hpp"
#include "plugins/never_starts.hpp"

extern "C" __attribute__((visibility("default"))) const char jobsched_plugin_version[] =
    JOBSCHED_VERSION "+000000000000";

namespace {

using namespace jobsched;
using jobsched::test_plugins::make_never_starts;

PolicyRegistration never{
    {"test-other-headers", "a policy of a library built against other headers of this version", {}, make_never_starts}};

} // namespace
