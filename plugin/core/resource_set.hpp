/* A set of processor (core) indices, 0..capacity-1.
 *
 * Policies reason on sets rather than counts so that allocation constraints (contiguity, SMP nodes) can be expressed
 * by the allocator. A bit vector keeps the common operations (union, difference, count) cheap at cluster sizes.
 * The set also keeps the span of words its members may lie in (every word outside it is zero): a job's processors are
 * usually a few runs of a large machine (a piece of 600 processors is 10 of 10,000 processors' 157 words), and the
 * operations, comparisons and copies between sets of one capacity pass over those words only. */
#pragma once

#include "core/word_members.hpp"

// GCC 12 reports a false -Wstringop-overread inside small_vector's copy (it cannot see the inline capacity bound).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overread"
#include <boost/container/small_vector.hpp>
#pragma GCC diagnostic pop
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace jobsched {

// GCC 12 reports a false -Wmaybe-uninitialized where an inlined set() reads a word of a set just built: it does not
// follow that the constructor's zero_words() wrote every word it left uninitialized (default_init).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
class ResourceSet {
 public:
  ResourceSet() = default;
  /* The constructors, assignments and the queries below are inline, and copy or zero a set of up to four words (256
   * processors) word by word: out of line, and through small_vector's copy, they were calls of memmove, memset and
   * memcmp costing more than the one or two words of most sets (a seventh of AP's decision instant). */
  explicit ResourceSet(int capacity)
      : capacity_(capacity), words_(static_cast<size_t>((capacity + 63) / 64), boost::container::default_init)
  {
    zero_words(words_.data(), static_cast<int>(words_.size()));
  }
  ResourceSet(const ResourceSet& other)
      : capacity_(other.capacity_), first_word_(other.first_word_), end_word_(other.end_word_),
        words_(other.words_.size(), boost::container::default_init)
  {
    copy_words(words_.data(), other.words_.data(), static_cast<int>(words_.size()));
  }
  /* A moved-from set is the empty set of capacity 0 (ResourceSet()). */
  ResourceSet(ResourceSet&& other) noexcept
      : capacity_(other.capacity_), first_word_(other.first_word_), end_word_(other.end_word_)
  {
    take_words(other);
  }
  /* Up to four words (either capacity), every word copied one by one: cheaper than finding the spans' union, and the
   * words outside the spans are zero in both sets. Larger sets: copy_large_words(). */
  ResourceSet& operator=(const ResourceSet& other)
  {
    const size_t n = other.words_.size();
    if (n > kInlineWords) return copy_large_words(other);
    if (words_.size() != n) words_.resize(n, boost::container::default_init); // within the inline capacity
    copy_words(words_.data(), other.words_.data(), static_cast<int>(n));
    capacity_ = other.capacity_;
    first_word_ = other.first_word_;
    end_word_ = other.end_word_;
    return *this;
  }
  ResourceSet& operator=(ResourceSet&& other) noexcept
  {
    if (this == &other) return *this;
    capacity_ = other.capacity_;
    first_word_ = other.first_word_;
    end_word_ = other.end_word_;
    take_words(other);
    return *this;
  }
  static ResourceSet all(int capacity);
  static ResourceSet range(int capacity, int first, int count);

  int capacity() const { return capacity_; }
  bool test(int i) const { return (words_[i >> 6] >> (i & 63)) & 1U; }
  void set(int i)
  {
    words_[i >> 6] |= std::uint64_t{1} << (i & 63);
    widen_span(i >> 6, (i >> 6) + 1);
  }
  void reset(int i) { words_[i >> 6] &= ~(std::uint64_t{1} << (i & 63)); }
  /* Adds the members [first, first + count), a word at a time (inline when they lie in one word). */
  void add_range(int first, int count)
  {
    if (count <= 0) return;
    const int w = first >> 6;
    if (w != (first + count - 1) >> 6) return add_range_words(first, count);
    words_[static_cast<size_t>(w)] |= range_mask(w, first, first + count);
    widen_span(w, w + 1);
  }
  /* Removes every member, keeping the capacity and the storage (a set rebuilt at every decision allocates nothing). */
  void clear()
  {
    zero_words(words_.data() + first_word_, end_word_ - first_word_);
    first_word_ = end_word_ = 0;
  }
  /* Removes every member and makes the capacity `capacity`: the storage is kept when the capacity already is that (a
   * scratch set of the machine's width, emptied at every plan). */
  void clear(int capacity)
  {
    if (capacity_ != capacity)
      *this = ResourceSet(capacity);
    else
      clear();
  }
  int count() const
  {
    if (end_word_ - first_word_ > kInlineWords) return count_words(); // POPCNT where the CPU has it
    int n = 0;
    for (int w = first_word_; w < end_word_; w++)
      n += word_members(words_[static_cast<size_t>(w)]);
    return n;
  }
  bool empty() const
  {
    for (int w = first_word_; w < end_word_; w++)
      if (words_[static_cast<size_t>(w)] != 0) return false;
    return true;
  }
  bool contains(const ResourceSet& other) const // other is a subset of this
  {
    for (auto i = static_cast<size_t>(other.first_word_); i < static_cast<size_t>(other.end_word_); i++)
      if ((other.words_[i] & ~words_[i]) != 0) return false;
    return true;
  }
  bool intersects(const ResourceSet& other) const;
  /* The count, when this set is within `allowed` and apart from `taken` (one pass instead of three); else -1. Spans
   * of up to four words inline (word_members()), larger ones with POPCNT where the CPU has it. */
  int count_if_within_and_apart(const ResourceSet& allowed, const ResourceSet& taken) const
  {
    if (end_word_ - first_word_ > kInlineWords) return count_large_if_within_and_apart(allowed, taken);
    std::uint64_t outside = 0;
    int n = 0;
    for (auto i = static_cast<size_t>(first_word_); i < static_cast<size_t>(end_word_); i++) {
      outside |= words_[i] & (~allowed.words_[i] | taken.words_[i]);
      n += word_members(words_[i]);
    }
    return outside != 0 ? -1 : n;
  }
  /* The members of one set and not the other, counted without building either difference (a resize's moves). */
  int count_differences(const ResourceSet& other) const;

  /* |= and -= of spans of up to four words inline, word by word (most sets: a call cost more than their words). */
  ResourceSet& operator|=(const ResourceSet& other)
  {
    if (other.end_word_ - other.first_word_ > kInlineWords) return unite_large(other);
    if (other.first_word_ >= other.end_word_) return *this;
    for (auto i = static_cast<size_t>(other.first_word_); i < static_cast<size_t>(other.end_word_); i++)
      words_[i] |= other.words_[i];
    widen_span(other.first_word_, other.end_word_);
    return *this;
  }
  ResourceSet& operator&=(const ResourceSet& other);
  ResourceSet& operator-=(const ResourceSet& other) // set difference
  {
    const int first = std::max(first_word_, other.first_word_);
    const int end = std::min(end_word_, other.end_word_);
    if (end - first > kInlineWords) return subtract_large(other);
    for (int i = first; i < end; i++)
      words_[static_cast<size_t>(i)] &= ~other.words_[static_cast<size_t>(i)];
    return *this;
  }
  friend ResourceSet operator|(ResourceSet a, const ResourceSet& b) { return a |= b; }
  friend ResourceSet operator&(ResourceSet a, const ResourceSet& b) { return a &= b; }
  friend ResourceSet operator-(ResourceSet a, const ResourceSet& b) { return a -= b; }
  /* memcmp rather than small_vector's word-by-word loop: the time-sharing driver compares every running job's set with
   * its plan's at every decision, and on 10,000 processors each is 157 words, usually equal to the end. Up to four
   * words, a loop: the call cost more than the comparison. */
  bool operator==(const ResourceSet& other) const
  {
    if (capacity_ != other.capacity_ || words_.size() != other.words_.size()) return false;
    // Outside both spans both sets are zero.
    const int first = std::min(first_word_, other.first_word_);
    const int end = std::max(end_word_, other.end_word_);
    if (end - first <= kInlineWords) {
      std::uint64_t differ = 0;
      for (int w = first; w < end; w++)
        differ |= words_[static_cast<size_t>(w)] ^ other.words_[static_cast<size_t>(w)];
      return differ == 0;
    }
    return std::memcmp(words_.data() + first, other.words_.data() + first, static_cast<size_t>(end - first) * 8) == 0;
  }
  bool operator!=(const ResourceSet& other) const { return !(*this == other); }

  std::vector<int> members() const;
  /* Calls f(member) in increasing order while it returns true. */
  template <class F>
  void for_each_until(F&& f) const
  {
    for (auto w = static_cast<size_t>(first_word_); w < static_cast<size_t>(end_word_); w++)
      for (std::uint64_t bits = words_[w]; bits != 0; bits &= bits - 1)
        if (!f(static_cast<int>(w * 64) + __builtin_ctzll(bits))) return;
  }
  /* Calls f(member) in increasing order, without building the list (per job start on hot paths). */
  template <class F>
  void for_each(F&& f) const
  {
    for (auto w = static_cast<size_t>(first_word_); w < static_cast<size_t>(end_word_); w++)
      for (std::uint64_t bits = words_[w]; bits != 0; bits &= bits - 1)
        f(static_cast<int>(w * 64) + __builtin_ctzll(bits));
  }
  /* Calls f(first, last) for each run of consecutive members, in increasing order. Runs are found a word at a time
   * (trailing zeros, then trailing ones): a range "0-8824" costs 138 words, not 8,825 members. */
  template <class F>
  void for_each_run(F&& f) const
  {
    int run_start = -1;          // the open run's first member, -1 when none is open
    const int words = end_word_; // the words past the span are zero
    for (int w = first_word_; w < words; w++) {
      const std::uint64_t bits = words_[static_cast<size_t>(w)];
      int bit = 0; // bits below `bit` of this word are done
      while (bit < 64) {
        if (run_start >= 0) { // an open run: find where it stops
          const std::uint64_t ones = bits >> bit;
          const int length = ones == ~std::uint64_t{0} ? 64 : __builtin_ctzll(~ones);
          if (bit + length == 64) break; // the run goes on into the next word
          bit += length;
          f(run_start, w * 64 + bit - 1);
          run_start = -1;
          continue;
        }
        const std::uint64_t rest = bit == 0 ? bits : bits >> bit << bit;
        if (rest == 0) break;
        bit = __builtin_ctzll(rest);
        run_start = w * 64 + bit;
      }
    }
    if (run_start >= 0) f(run_start, words * 64 - 1); // bits past the capacity (and the span) are never set
  }
  /* The `n` lowest members, or an empty set when there are fewer than n. Sets of up to four words inline
   * (word_members()), larger ones with POPCNT where the CPU has it. */
  ResourceSet lowest(int n) const
  {
    if (words_.size() > kInlineWords) return lowest_large(n);
    ResourceSet out(capacity_);
    if (n <= 0) return out;
    int taken = 0;
    for (int w = first_word_; w < end_word_ && taken < n; w++) {
      std::uint64_t bits = words_[static_cast<size_t>(w)];
      const int in_word = word_members(bits);
      if (taken + in_word > n) { // the word's lowest n - taken members
        bits = lowest_members(bits, n - taken);
        taken = n;
      } else {
        taken += in_word;
      }
      out.words_[static_cast<size_t>(w)] = bits;
      out.widen_span(w, w + 1);
    }
    if (taken != n) return ResourceSet(capacity_);
    return out; // moved, not copied as the operand of a conditional would be
  }
  /* Moves the `n` lowest members into `to`, which becomes exactly them (its storage kept when its capacity is this
   * set's): to = lowest(n) and *this -= to, without building a set. When there are fewer than n, `to` becomes the
   * empty set of this capacity and this set is unchanged, as lowest() would have it. (A policy placing jobs one after
   * another on the lowest idle processors of 10,000.) */
  void take_lowest(int n, ResourceSet& to);
  /* Members in [first, first + count), counted a word at a time (an SMP node's free cores). */
  int count_in_range(int first, int count) const;
  /* Adds the members of `from` (of the same capacity) in [first, first + count), a word at a time. */
  void merge_range(const ResourceSet& from, int first, int count);
  /* The members 64w..64w+63 as the bits of one word (allocators that look at many small ranges at once). */
  int word_count() const { return static_cast<int>(words_.size()); }
  std::uint64_t word(int w) const { return words_[static_cast<size_t>(w)]; }
  /* The words [first, end) the members may lie in (every word outside is zero; inside, some may be too). */
  std::pair<int, int> word_span() const { return {first_word_, end_word_}; }
  /* Batsim's interval notation, e.g. "0-3 7 9-10". */
  std::string to_string() const;
  /* The same text, appended to `out` (no temporary string per call). */
  void append_to(std::string& out) const;
  /* Room enough for that text: 2 x (the digits of capacity - 1, and a separator) per run of members, the runs
   * counted when the set spans more than kUncountedSpan words, else 32 per word of its span. */
  std::size_t text_bound() const;
  static constexpr std::size_t kUncountedSpan = 16;
  /* Writes the text at `out`, which has room for text_bound() characters, and returns its end (a row assembled in
   * place). */
  char* write_text(char* out) const;

 private:
  static constexpr int kInlineWords = 4; // words_'s inline storage
  /* A move's words: those in the inline storage copied (moving them would copy them too), a heap buffer taken over;
   * `other` is left the empty set of capacity 0. */
  void take_words(ResourceSet& other) noexcept
  {
    if (other.words_.size() <= kInlineWords) {
      words_.resize(other.words_.size(), boost::container::default_init);
      copy_words(words_.data(), other.words_.data(), static_cast<int>(words_.size()));
    } else {
      words_ = std::move(other.words_);
    }
    other.capacity_ = 0;
    other.first_word_ = other.end_word_ = 0;
    other.words_.clear();
  }
  /* Copies or zeroes n words: up to four one by one (a loop would compile to a call of memmove or memset), more in one
   * call. */
  static void copy_words(std::uint64_t* to, const std::uint64_t* from, int n)
  {
    switch (n) {
    case 4:
      to[3] = from[3];
      [[fallthrough]];
    case 3:
      to[2] = from[2];
      [[fallthrough]];
    case 2:
      to[1] = from[1];
      [[fallthrough]];
    case 1:
      to[0] = from[0];
      [[fallthrough]];
    case 0:
      return;
    default:
      std::memcpy(to, from, static_cast<size_t>(n) * 8);
    }
  }
  static void zero_words(std::uint64_t* to, int n)
  {
    switch (n) {
    case 4:
      to[3] = 0;
      [[fallthrough]];
    case 3:
      to[2] = 0;
      [[fallthrough]];
    case 2:
      to[1] = 0;
      [[fallthrough]];
    case 1:
      to[0] = 0;
      [[fallthrough]];
    case 0:
      return;
    default:
      std::memset(to, 0, static_cast<size_t>(n) * 8);
    }
  }
  /* count() of a span of more than four words. */
  int count_words() const;
  /* The out-of-line paths of copy assignment and lowest() (sets of more than four words), add_range() (a range over
   * more than one word), count_if_within_and_apart(), |= and -= (spans of more than four words). */
  ResourceSet& copy_large_words(const ResourceSet& other);
  void add_range_words(int first, int count);
  int count_large_if_within_and_apart(const ResourceSet& allowed, const ResourceSet& taken) const;
  ResourceSet& unite_large(const ResourceSet& other);
  ResourceSet& subtract_large(const ResourceSet& other);
  ResourceSet lowest_large(int n) const;
  /* The bits of word `w` that lie in [first, end) (which overlaps the word). */
  static std::uint64_t range_mask(int w, int first, int end)
  {
    const int lo = std::max(first - w * 64, 0);
    const int hi = std::min(end - w * 64, 64); // lo < hi
    const std::uint64_t below_hi = hi == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << hi) - 1;
    return below_hi & ~((std::uint64_t{1} << lo) - 1);
  }
  /* Makes the span cover words [first, end) too. */
  void widen_span(int first, int end)
  {
    if (first_word_ >= end_word_) {
      first_word_ = first;
      end_word_ = end;
      return;
    }
    first_word_ = std::min(first_word_, first);
    end_word_ = std::max(end_word_, end);
  }

  int capacity_ = 0;
  // Every word outside [first_word_, end_word_) is zero (the span may hold zero words too); empty when equal.
  int first_word_ = 0;
  int end_word_ = 0;
  // Inline for up to 256 processors (kInlineWords): sets are built and combined on every decision, heap allocation
  // would dominate.
  boost::container::small_vector<std::uint64_t, kInlineWords> words_;
};
#pragma GCC diagnostic pop

} // namespace jobsched
