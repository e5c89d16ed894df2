/* A registry of named components (policies, allocators). Each component's own source file adds itself through a
 * static Registration object, so adding one never means editing a central list. */
#pragma once

#include "core/errors.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace jobsched {

/* Info must have `name`. `what` names the scenario key in errors, e.g. "policy.name". */
template <class Info>
class Registry {
 public:
  explicit Registry(std::string what) : what_(std::move(what)) {}
  void add(Info info)
  {
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
};

} // namespace jobsched
