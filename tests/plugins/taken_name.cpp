/* A test plugin that registers a fresh policy name, then one jobsched already has (fcfs): refused whole, the fresh
 * name included. */
#include "policy/plugin.hpp"
#include "policy/policy.hpp"

JOBSCHED_PLUGIN;

namespace {

using namespace jobsched;

class NeverStarts : public Policy {
 public:
  void job_submitted(const Job&, double) override { waiting_++; }
  size_t waiting_count() const override { return waiting_; }
  Decisions decide(const ClusterState&) override { return {}; }

 private:
  size_t waiting_ = 0;
};

std::unique_ptr<Policy> make(const PolicyEnv&)
{
  return std::make_unique<NeverStarts>();
}

PolicyRegistration fresh{{"test-fresh-name", "registered beside a taken name", {}, make}};
PolicyRegistration taken{{"fcfs", "a second fcfs", {}, make}};

} // namespace
