/* Fuzz target: the SWF reader and the workload filters. Any input must give records or an InputError (one line for
 * the user), never a crash, a hang, undefined behaviour or another exception. */
#include "core/errors.hpp"
#include "workload/swf_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  std::string text(reinterpret_cast<const char*>(data), size);
  for (auto field : {jobsched::SizeField::requested, jobsched::SizeField::allocated}) {
    try {
      jobsched::SwfFile f = jobsched::parse_swf(text, "fuzz.swf", field);
      jobsched::WorkloadFilter filter;
      filter.load_factor = 1.5;
      jobsched::build_workload("fuzz", f.records, filter, 64, f.max_procs);
    } catch (const jobsched::InputError&) {
    }
  }
  return 0;
}
