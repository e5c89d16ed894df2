/* A plan's map by job (Plan::run, share, stall, slowdown, image_bytes, processes) built in the nodes of the same map of
 * the last plan, handed back (TimeSharingPolicy::reuse_plan): a policy that plans often (AP's quanta, Cao's rounds,
 * gang-now's rotations) would otherwise allocate a node, and a value's storage (a ResourceSet's words, a vector of
 * processes), per job per plan, where most jobs of one plan are again in the next.
 *
 *   ReusedMap<ResourceSet> runs_;                          // a policy's member
 *   void reuse_plan(Plan&& plan) override { runs_.keep(plan.run); }
 *   ... in plan(): auto run = runs_.build(plan.run);       // plan.run is now the last plan's map
 *                  run.put(id) = where; ...                // each job of the plan once, its value overwritten
 *                  run.finish();                           // the jobs not put leave; plan.run holds exactly those put
 *
 * A job of both plans keeps its node in place (found, not inserted); the nodes of the jobs that left serve those that
 * came. Put in increasing id order, a build is one walk along the map (the jobs passed over leave as it goes, so their
 * nodes serve the next new ones); in any other order each put is a look-up, and finish() takes out the ids not put. */
#pragma once

#include "model/job.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <vector>

namespace jobsched {

template <class Value>
class ReusedMap {
 public:
  using Map = std::map<JobId, Value>;

  /* A map of a plan handed back: kept whole for the next build when none is kept (the plan handed back was built from
   * it), else its nodes join the spare ones. `handed_back` is left empty. */
  void keep(Map& handed_back)
  {
    if (kept_.empty())
      kept_.swap(handed_back);
    else
      recycle(handed_back);
  }
  /* Every node of `map` becomes spare, with its value's storage; `map` is left empty. */
  void recycle(Map& map)
  {
    while (!map.empty())
      spare_.push_back(map.extract(map.begin()));
  }
  size_t spare_count() const { return spare_.size(); }

  class Builder {
   public:
    /* `map`'s value for `id`, as a node of the last plan left it (a value of a job of the last plan, another job's, or
     * Value{} in a new node) for the caller to overwrite. Each id at most once per build. */
    Value& put(JobId id)
    {
      owner_.put_ids_.push_back(id);
      if (in_order_ && (owner_.put_ids_.size() == 1 || id > last_)) {
        last_ = id;
        while (cursor_ != map_.end() && cursor_->first < id) { // not put, since ids come in increasing order
          auto next = std::next(cursor_);
          owner_.spare_.push_back(map_.extract(cursor_));
          cursor_ = next;
        }
        if (cursor_ != map_.end() && cursor_->first == id) return (cursor_++)->second;
        return insert(cursor_, id);
      }
      in_order_ = false;
      auto it = map_.lower_bound(id);
      if (it != map_.end() && it->first == id) return it->second;
      return insert(it, id);
    }
    /* Takes out of the map the ids not put (their nodes become spare): the map then holds exactly the ids put. */
    void finish()
    {
      if (in_order_) {
        while (cursor_ != map_.end()) {
          auto next = std::next(cursor_);
          owner_.spare_.push_back(map_.extract(cursor_));
          cursor_ = next;
        }
        return;
      }
      std::vector<JobId>& ids = owner_.put_ids_;
      if (map_.size() == ids.size()) return; // each id put once, and every id put is in the map
      std::sort(ids.begin(), ids.end());
      auto id = ids.begin();
      for (auto it = map_.begin(); it != map_.end();) {
        while (id != ids.end() && *id < it->first)
          ++id;
        auto next = std::next(it);
        if (id == ids.end() || *id != it->first) owner_.spare_.push_back(map_.extract(it));
        it = next;
      }
    }

   private:
    friend class ReusedMap;
    Builder(ReusedMap& owner, Map& map) : owner_(owner), map_(map), cursor_(map.begin()) {}
    /* A node for `id` just before `hint`: a spare one when there is one. */
    Value& insert(typename Map::iterator hint, JobId id)
    {
      if (owner_.spare_.empty()) return map_.emplace_hint(hint, id, Value{})->second;
      auto node = std::move(owner_.spare_.back());
      owner_.spare_.pop_back();
      node.key() = id;
      return map_.insert(hint, std::move(node))->second;
    }
    ReusedMap& owner_;
    Map& map_;
    typename Map::iterator cursor_; // in order: the first key not yet passed
    JobId last_ = 0;
    bool in_order_ = true;
  };

  /* Starts building `map` (a new plan's, empty) as the map kept: one build at a time per ReusedMap. */
  Builder build(Map& map)
  {
    recycle(map);
    map.swap(kept_);
    put_ids_.clear();
    return Builder(*this, map);
  }

 private:
  Map kept_;
  std::vector<typename Map::node_type> spare_;
  std::vector<JobId> put_ids_; // the ids put in the build under way
};

} // namespace jobsched
