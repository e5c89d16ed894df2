/* A test library built "against another version": its version symbol says so. Refused before anything it registered
 * is kept. */
#include "policy/policy.hpp"

extern "C" __attribute__((visibility("default"))) const char jobsched_plugin_version[] = "0.0.1-other";

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
    {"test-other-version", "a policy of a library built against another version", {}, [](const PolicyEnv&) {
       return std::make_unique<NeverStarts>();
     }}};

} // namespace
