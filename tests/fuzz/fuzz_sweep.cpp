/* Fuzz target: sweep plans (grid, replications, stopping rule). The input is a scenario file; the plan is loaded and
 * its runs expanded. Any input must give a plan or an InputError, never a crash, a hang or another exception. */
#include "core/errors.hpp"
#include "experiment/sweep_plan.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  static const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("jobsched-fuzz-sweep-" + std::to_string(getpid()) + ".yaml");
  {
    std::ofstream out(file, std::ios::binary);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    jobsched::SweepPlan plan = jobsched::SweepPlan::load(file, {});
    plan.initial_runs();
  } catch (const jobsched::InputError&) {
  }
  return 0;
}
