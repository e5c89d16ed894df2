/* The policy the refused test plugins register: it never starts a job (they are refused before any run). */
#pragma once

#include "policy/policy.hpp"

#include <memory>

namespace jobsched::test_plugins {

class NeverStarts : public Policy {
 public:
  void job_submitted(const Job&, double) override { waiting_++; }
  size_t waiting_count() const override { return waiting_; }
  Decisions decide(const ClusterState&) override { return {}; }

 private:
  size_t waiting_ = 0;
};

inline std::unique_ptr<Policy> make_never_starts(const PolicyEnv&)
{
  return std::make_unique<NeverStarts>();
}

} // namespace jobsched::test_plugins
