/* A test plugin with the version symbol and no registration: refused (a library that registers nothing). */
#include "policy/plugin.hpp"

JOBSCHED_PLUGIN;
