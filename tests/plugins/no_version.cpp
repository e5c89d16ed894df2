/* A test library that registers a policy but lacks the version symbol (no JOBSCHED_PLUGIN): refused. */
#include "policy/policy.hpp"

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

PolicyRegistration never{
    {"test-no-version", "a policy of a library without the version symbol", {}, [](const PolicyEnv&) {
       return std::make_unique<NeverStarts>();
     }}};

} // namespace
