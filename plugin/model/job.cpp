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

double ParallelismProfile::total_span() const
{
  double sum = 0;
  for (double s : span)
    sum += s;
  return sum;
}

double ParallelismProfile::total_work() const
{
  double sum = 0;
  for (size_t k = 0; k < span.size(); k++)
    sum += span[k] * parallelism[k];
  return sum;
}

} // namespace jobsched
