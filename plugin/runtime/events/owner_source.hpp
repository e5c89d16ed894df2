/* Workstation owners coming back and leaving (model/owner_activity.hpp) as a polled event source: every change is
 * known in advance (drawn or read from a trace), so the scheduler wakes at each and takes the changes due then, as
 * events of kind `owner` (busy: processor_exit; idle: new_processor). Owners never stop coming and going: they do not
 * keep a run alive. */
#pragma once

#include "model/owner_activity.hpp"
#include "runtime/core/event_source.hpp"

namespace jobsched {

class OwnerSource : public EventSource {
 public:
  explicit OwnerSource(OwnerActivity& owners) : EventSource(nullptr), owners_(owners) {}
  bool pending_at(double) const override { return false; }
  bool exhausted() const override { return true; }
  double next_time() const override { return owners_.next_time(); }
  void poll(double now, std::vector<std::unique_ptr<Event>>& into) override;

 private:
  OwnerActivity& owners_;
};

} // namespace jobsched
