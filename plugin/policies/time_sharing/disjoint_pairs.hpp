/* Which pairs of a few sets are known to be disjoint, found out once and remembered while neither set changes: for
 * adaptive partitioning (adaptive_partitioning.cpp), whose jobs go back to the processors they had last time when
 * those are still idle. On 10,000 processors a job's last set spans about 90 of the machine's 157 words, and the same
 * ten or so jobs are tested against the idle processors at every quantum the policy looks ahead (hundreds of thousands
 * in a run); which of their last sets meet changes only when a job is given a new set. With the pairs remembered,
 * whether a set meets one of a group (the sets placed so far) is mostly a few word operations.
 *
 * The sets are numbered 0..slots-1 (the caller's numbering). A pair is unknown until found disjoint (by the caller's
 * test, or by construction) and becomes unknown again when either set changes. Only disjointness is remembered: a job
 * whose last set meets a set placed is given a new one at once, which would make the overlap found unknown again.
 * One group of sets at a time is kept here, as a bit per set. */
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace jobsched {

class DisjointPairs {
 public:
  /* `slots` sets, every pair unknown, the group empty (the storage is kept from one call to the next). */
  void reset(size_t slots)
  {
    slots_ = slots;
    row_words_ = (slots + 63) / 64;
    disjoint_.assign(slots_ * row_words_, 0);
    group_.assign(row_words_, 0);
    mark_.assign(row_words_, 0);
    marked_ = false;
  }

  void clear_group() { std::fill(group_.begin(), group_.end(), 0); }
  void join_group(size_t k) { group_[k / 64] |= bit(k); }

  /* The group remembered as it is (the mark), for a set the caller derives from the group's sets (AP's idle
   * processors: those up less the group's sets) to be brought up to date later from the sets that left the group and
   * those that joined it since, where these are few, rather than derived anew. reset() forgets the mark. */
  void mark_group()
  {
    mark_ = group_;
    marked_ = true;
  }
  bool marked() const { return marked_; }
  /* How many sets left or joined the group since the mark. */
  size_t changes_since_mark() const
  {
    size_t n = 0;
    for (size_t w = 0; w < row_words_; w++)
      n += static_cast<size_t>(__builtin_popcountll(group_[w] ^ mark_[w]));
    return n;
  }
  /* left(k) for every set k of the mark not of the group, then joined(k) for every set of the group not of the mark:
   * all those that left before any that joined, as a set that joined may meet one that left. */
  template <class Left, class Joined>
  void for_changes_since_mark(Left&& left, Joined&& joined) const
  {
    for (size_t w = 0; w < row_words_; w++)
      for (std::uint64_t bits = mark_[w] & ~group_[w]; bits != 0; bits &= bits - 1)
        left(w * 64 + static_cast<size_t>(__builtin_ctzll(bits)));
    for (size_t w = 0; w < row_words_; w++)
      for (std::uint64_t bits = group_[w] & ~mark_[w]; bits != 0; bits &= bits - 1)
        joined(w * 64 + static_cast<size_t>(__builtin_ctzll(bits)));
  }

  /* Whether set i (not in the group) meets a set of the group: overlaps_now(j) (whether set i meets set j as they are)
   * asked of the sets of the group not known to be disjoint from it, the disjoint ones remembered. */
  template <class Compute>
  bool meets_group(size_t i, Compute&& overlaps_now)
  {
    if (row_words_ == 1) { // up to 64 sets (AP's jobs in the system, nearly always): a row is a word
      std::uint64_t* rows = disjoint_.data();
      for (std::uint64_t unknown = group_[0] & ~rows[i]; unknown != 0; unknown &= unknown - 1) {
        const auto j = static_cast<size_t>(__builtin_ctzll(unknown));
        if (overlaps_now(j)) return true;
        rows[i] |= bit(j);
        rows[j] |= bit(i);
      }
      return false;
    }
    const std::uint64_t* known = disjoint_.data() + i * row_words_;
    for (size_t w = 0; w < row_words_; w++)
      for (std::uint64_t unknown = group_[w] & ~known[w]; unknown != 0; unknown &= unknown - 1) {
        const size_t j = w * 64 + static_cast<size_t>(__builtin_ctzll(unknown));
        if (overlaps_now(j)) return true;
        put(i, j, true);
        put(j, i, true);
      }
    return false;
  }

  /* Set k (of the group) changed and meets no other set of the group: disjoint from those, unknown with the others. */
  void changed_apart_from_group(size_t k)
  {
    if (row_words_ == 1) {
      // The table is symmetric (every pair is put both ways): column k is row k. So the rows whose bit k changes are
      // those where row k changes, and only those are touched.
      std::uint64_t* rows = disjoint_.data();
      const std::uint64_t k_bit = bit(k);
      const std::uint64_t row = group_[0] & ~k_bit;
      for (std::uint64_t flip = rows[k] ^ row; flip != 0; flip &= flip - 1)
        rows[__builtin_ctzll(flip)] ^= k_bit;
      rows[k] = row;
      return;
    }
    std::uint64_t* row = disjoint_.data() + k * row_words_;
    std::copy(group_.begin(), group_.end(), row);
    // Column k: bit k of every row, set to whether that row's set is of the group, without a branch (this runs for
    // every set a pass moves, over every slot); then row k's own bit cleared.
    const std::uint64_t k_bit = bit(k);
    const unsigned k_shift = static_cast<unsigned>(k % 64);
    std::uint64_t* column = disjoint_.data() + k / 64;
    for (size_t i = 0; i < slots_; i++, column += row_words_) {
      const std::uint64_t in_group = (group_[i / 64] >> (i % 64)) & 1;
      *column = (*column & ~k_bit) | (in_group << k_shift);
    }
    row[k / 64] &= ~k_bit;
  }

 private:
  static std::uint64_t bit(size_t j) { return std::uint64_t{1} << (j % 64); }
  void put(size_t i, size_t j, bool disjoint)
  {
    std::uint64_t& word = disjoint_[i * row_words_ + j / 64];
    word = disjoint ? word | bit(j) : word & ~bit(j);
  }

  size_t slots_ = 0;
  size_t row_words_ = 0;
  std::vector<std::uint64_t> disjoint_; // row i (row_words_ words), bit j: sets i and j are known to be disjoint
  std::vector<std::uint64_t> group_;
  std::vector<std::uint64_t> mark_; // the group at mark_group()
  bool marked_ = false;
};

} // namespace jobsched
