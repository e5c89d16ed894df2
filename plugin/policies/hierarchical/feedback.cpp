/* A-Control (Cao et al., section 3.1) and A-Greedy (section 3.5; Agrawal, He, Hsu and Leiserson, PPoPP 2006): the
 * desire rules are inline in feedback.hpp; their names here. */
#include "policies/hierarchical/feedback.hpp"

namespace jobsched::hierarchical {

const char* to_string(JobScheduler s)
{
  switch (s) {
  case JobScheduler::a_control:
    return "ac";
  case JobScheduler::a_greedy:
    return "ag";
  case JobScheduler::equi:
    return "equi";
  }
  return "?";
}

} // namespace jobsched::hierarchical
