/* A registry of named components (policies, allocators). Each component's own source file adds itself through a
 * static Registration object, so adding one never means editing a central list. */
#pragma once

#include "core/errors.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace jobsched {

/* Info must have `name`. `what` names the scenario key in errors, e.g. "policy.name". */
template <class Info>
class Registry {
 public:
  explicit Registry(std::string what) : what_(std::move(what)) {}
  void add(Info info)
  {
    if (staging_) {
      staged_.push_back(std::move(info));
      return;
    }
    for (const auto& i : items_)
      if (i.name == info.name) throw PolicyError("two components registered under the name " + quoted_value(info.name));
    items_.push_back(std::move(info));
  }
  const Info& get(const std::string& name) const
  {
    for (const auto& i : items_)
      if (i.name == name) return i;
    std::string known;
    for (const auto* i : all())
      known += (known.empty() ? "" : ", ") + i->name;
    throw InputError(what_ + ": unknown name " + quoted_value(name) + " (known: " + known + ")");
  }
  bool contains(const std::string& name) const
  {
    return std::any_of(items_.begin(), items_.end(), [&](const Info& i) { return i.name == name; });
  }
  /* A plugin library registers from its static initialisers, inside dlopen, where an exception must not escape:
   * between begin_staging() and end_staging(), add() sets aside what it gets, unchecked, and the plugin loader
   * (policy/plugin_loader.hpp) checks the lot, then adds it or drops it. */
  void begin_staging()
  {
    staging_ = true;
    staged_.clear();
  }
  std::vector<Info> end_staging()
  {
    staging_ = false;
    return std::exchange(staged_, {});
  }
  std::vector<const Info*> all() const
  {
    std::vector<const Info*> out;
    for (const auto& i : items_)
      out.push_back(&i);
    std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->name < b->name; });
    return out;
  }

 private:
  std::string what_;
  std::vector<Info> items_;
  bool staging_ = false;
  std::vector<Info> staged_;
};

} // namespace jobsched
