#include "model/job.hpp"

namespace jobsched {

const char* to_string(JobShape shape)
{
  switch (shape) {
  case JobShape::rigid:
    return "rigid";
  case JobShape::moldable:
    return "moldable";
  case JobShape::malleable:
    return "malleable";
  }
  return "?";
}

} // namespace jobsched
