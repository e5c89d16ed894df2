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
 * nodes serve the next new ones, and the ids put are the keys behind the walk: none is noted); from the first put out
 * of that order each put is a look-up, the ids put are noted (those behind the walk then, and each one after), and
 * finish() takes out the others. */
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
      // The job next along the map (in order: out of order, the cursor is at the end): its node, in place, the usual
      // case of a plan that follows one of the same jobs. Only the cursor moves: the keys behind it are the ids put.
      if (cursor_ != end_ && cursor_->first == id) return (cursor_++)->second;
      return put_elsewhere(id);
    }
    /* Takes out of the map the ids not put (their nodes become spare): the map then holds exactly the ids put. */
    void finish()
    {
      if (cursor_ != end_ || !in_order_) finish_elsewhere();
    }

   private:
    friend class ReusedMap;
    Builder(ReusedMap& owner, Map& map) : owner_(owner), map_(map), cursor_(map.begin()), end_(map.end()) {}
    /* put() for a job not next along the map: in order (above the last id put, the key behind the cursor), the jobs
     * passed over leave and a new one takes a node; out of order, a look-up. */
    Value& put_elsewhere(JobId id)
    {
      if (in_order_ && (cursor_ == map_.begin() || std::prev(cursor_)->first < id)) {
        while (cursor_ != end_ && cursor_->first < id) { // not put, since ids come in increasing order
          auto next = std::next(cursor_);
          owner_.spare_.push_back(map_.extract(cursor_));
          cursor_ = next;
        }
        if (cursor_ != end_ && cursor_->first == id) return (cursor_++)->second;
        return insert(cursor_, id);
      }
      std::vector<JobId>& ids = owner_.put_ids_;
      if (in_order_) { // the order breaks here: the keys behind the cursor are the ids put so far (the others left)
        in_order_ = false;
        ids.clear();
        for (auto it = map_.begin(); it != cursor_; ++it)
          ids.push_back(it->first);
        cursor_ = end_; // put() finds no job in place from now on: each is looked up here, and noted
      }
      ids.push_back(id);
      auto it = map_.lower_bound(id);
      if (it != end_ && it->first == id) return it->second;
      return insert(it, id);
    }
    void finish_elsewhere()
    {
      if (in_order_) {
        while (cursor_ != end_) {
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
      for (auto it = map_.begin(); it != end_;) {
        while (id != ids.end() && *id < it->first)
          ++id;
        auto next = std::next(it);
        if (id == ids.end() || *id != it->first) owner_.spare_.push_back(map_.extract(it));
        it = next;
      }
    }
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
    typename Map::iterator cursor_; // in order: the first key not yet passed; out of order: the end
    typename Map::iterator end_;    // the map's end (its header: the same whatever the map holds)
    bool in_order_ = true;
  };

  /* Starts building `map` (a new plan's, empty) as the map kept: one build at a time per ReusedMap. */
  Builder build(Map& map)
  {
    if (!map.empty()) recycle(map); // a new plan's map: empty, the usual case, without a call
    map.swap(kept_);
    return Builder(*this, map);
  }

 private:
  Map kept_;
  std::vector<typename Map::node_type> spare_;
  std::vector<JobId> put_ids_; // the ids put in the build under way once its order broke (in order: none kept)
};

} // namespace jobsched
