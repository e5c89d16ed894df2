/* The runtime's timers (JobRuntime): an indexed binary min-heap of (end, id), one entry per owner at most.
 *
 * Each owner keeps the slot of its entry (`timer_slot`, kNoTimerSlot when it has none), so a re-timing moves the
 * entry up or down in place and a stop takes it out: the heap holds live timers only (a lazy heap under time sharing
 * piles up one stale entry per job and quantum). Entries are ordered by end, then by id: owners ending together come
 * out in id order, whatever the order they were timed in. */
#pragma once

#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

namespace jobsched {

inline constexpr std::size_t kNoTimerSlot = std::numeric_limits<std::size_t>::max();

/* Owner: any type with a member `std::size_t timer_slot` (kNoTimerSlot when it has no entry); Id: a totally ordered
 * key, distinct among the owners in the heap. Owners must stay where they are while they have an entry. */
template <class Owner, class Id>
class TimerHeap {
 public:
  struct Entry {
    double end;
    Id id;
    Owner* owner;
  };

  bool empty() const { return entries_.empty(); }
  std::size_t size() const { return entries_.size(); }
  /* The earliest entry (the smallest id among those ending then). The heap must not be empty. */
  const Entry& top() const { return entries_.front(); }
  static bool contains(const Owner& o) { return o.timer_slot != kNoTimerSlot; }

  /* The owner's timer ends at `end`: a new entry, or its entry moved. */
  void set(Owner& o, Id id, double end)
  {
    if (o.timer_slot == kNoTimerSlot) {
      o.timer_slot = entries_.size();
      entries_.push_back(Entry{end, id, &o});
      sift_up(o.timer_slot);
      return;
    }
    Entry& e = entries_[o.timer_slot];
    const bool earlier = before(Entry{end, id, &o}, e);
    e.end = end;
    e.id = id;
    if (earlier)
      sift_up(o.timer_slot);
    else
      sift_down(o.timer_slot);
  }

  /* The owner has no timer any more (nothing when it had none). */
  void erase(Owner& o)
  {
    const std::size_t slot = o.timer_slot;
    if (slot == kNoTimerSlot) return;
    o.timer_slot = kNoTimerSlot;
    const std::size_t last = entries_.size() - 1;
    if (slot != last) {
      const Entry moved = entries_[last];
      entries_.pop_back();
      place(slot, moved);
      // The last entry may belong above or below the erased one's slot.
      if (slot > 0 && before(moved, entries_[(slot - 1) / 2]))
        sift_up(slot);
      else
        sift_down(slot);
    } else {
      entries_.pop_back();
    }
  }

  /* Take the earliest entry out (its owner then has none). */
  void pop() { erase(*entries_.front().owner); }

 private:
  static bool before(const Entry& a, const Entry& b) { return a.end < b.end || (a.end == b.end && a.id < b.id); }
  void place(std::size_t slot, const Entry& e)
  {
    entries_[slot] = e;
    e.owner->timer_slot = slot;
  }
  void sift_up(std::size_t slot)
  {
    const Entry e = entries_[slot];
    while (slot > 0) {
      const std::size_t parent = (slot - 1) / 2;
      if (!before(e, entries_[parent])) break;
      place(slot, entries_[parent]);
      slot = parent;
    }
    place(slot, e);
  }
  void sift_down(std::size_t slot)
  {
    const Entry e = entries_[slot];
    const std::size_t n = entries_.size();
    for (;;) {
      std::size_t child = 2 * slot + 1;
      if (child >= n) break;
      if (child + 1 < n && before(entries_[child + 1], entries_[child])) child++;
      if (!before(entries_[child], e)) break;
      place(slot, entries_[child]);
      slot = child;
    }
    place(slot, e);
  }

  std::vector<Entry> entries_;
};

} // namespace jobsched
