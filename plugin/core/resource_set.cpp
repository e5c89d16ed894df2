#include "core/resource_set.hpp"

#include <algorithm>
#include <charconv>

namespace jobsched {

ResourceSet ResourceSet::all(int capacity)
{
  return range(capacity, 0, capacity);
}

ResourceSet ResourceSet::range(int capacity, int first, int count)
{
  ResourceSet s(capacity);
  s.add_range(first, count);
  return s;
}

// AVX2 where the CPU has it: the loop over the words vectorized four words an instruction.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
ResourceSet&
ResourceSet::copy_large_words(const ResourceSet& other)
{
  if (this == &other) return *this;
  if (words_.size() != other.words_.size()) {
    words_ = other.words_;
  } else {
    // Only the words either span covers can differ: the words of this span outside the other's are zeroed, then the
    // other's span is copied. (A pass over the union of the spans also went over the gap between two spans far apart:
    // a plan's map node holds its job's set of the last plan, and a new schedule moves a job across the machine.)
    std::uint64_t* to = words_.data();
    const std::uint64_t* from = other.words_.data();
    if (first_word_ < end_word_) {
      for (int w = first_word_, left_end = std::min(end_word_, other.first_word_); w < left_end; w++)
        to[w] = 0;
      for (int w = std::max(first_word_, other.end_word_); w < end_word_; w++)
        to[w] = 0;
    }
    for (int w = other.first_word_; w < other.end_word_; w++)
      to[w] = from[w];
  }
  capacity_ = other.capacity_;
  first_word_ = other.first_word_;
  end_word_ = other.end_word_;
  return *this;
}

// Counting bits is the hot spot of large machines (a set of 10,000 processors is 157 words). Debian builds for
// baseline x86-64, whose popcount is a library call: let the loader pick the POPCNT instruction where the CPU has it.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
int ResourceSet::count_words() const
{
  int n = 0;
  for (int w = first_word_; w < end_word_; w++)
    n += __builtin_popcountll(words_[static_cast<size_t>(w)]);
  return n;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
int ResourceSet::count_large_if_within_and_apart(const ResourceSet& allowed, const ResourceSet& taken) const
{
  std::uint64_t outside = 0;
  int n = 0;
  for (auto i = static_cast<size_t>(first_word_); i < static_cast<size_t>(end_word_); i++) {
    outside |= words_[i] & (~allowed.words_[i] | taken.words_[i]);
    n += __builtin_popcountll(words_[i]);
  }
  return outside != 0 ? -1 : n;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
int ResourceSet::count_differences(const ResourceSet& other) const
{
  int n = 0;
  const auto first = static_cast<size_t>(std::min(first_word_, other.first_word_));
  const auto end = static_cast<size_t>(std::max(end_word_, other.end_word_));
  for (size_t i = first; i < end; i++) // outside both spans both are zero
    n += __builtin_popcountll(words_[i] ^ other.words_[i]);
  return n;
}

bool ResourceSet::intersects(const ResourceSet& other) const
{
  const auto first = static_cast<size_t>(std::max(first_word_, other.first_word_));
  const auto end = static_cast<size_t>(std::min(end_word_, other.end_word_));
  for (size_t i = first; i < end; i++)
    if ((other.words_[i] & words_[i]) != 0) return true;
  return false;
}

// AVX2 where the CPU has it: the loop over the words vectorized four words an instruction.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
ResourceSet&
ResourceSet::unite_large(const ResourceSet& other)
{
  for (auto i = static_cast<size_t>(other.first_word_); i < static_cast<size_t>(other.end_word_); i++)
    words_[i] |= other.words_[i];
  widen_span(other.first_word_, other.end_word_);
  return *this;
}

ResourceSet& ResourceSet::operator&=(const ResourceSet& other)
{
  // The other's words outside its span are zero: this span's words there become zero, and the span shrinks to the
  // two spans' overlap.
  for (auto i = static_cast<size_t>(first_word_); i < static_cast<size_t>(end_word_); i++)
    words_[i] &= other.words_[i];
  first_word_ = std::max(first_word_, other.first_word_);
  end_word_ = std::max(first_word_, std::min(end_word_, other.end_word_));
  return *this;
}

// AVX2 where the CPU has it: the loop over the words vectorized four words an instruction.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
ResourceSet&
ResourceSet::subtract_large(const ResourceSet& other)
{
  const auto first = static_cast<size_t>(std::max(first_word_, other.first_word_));
  const auto end = static_cast<size_t>(std::min(end_word_, other.end_word_));
  for (size_t i = first; i < end; i++)
    words_[i] &= ~other.words_[i];
  return *this;
}

std::vector<int> ResourceSet::members() const
{
  std::vector<int> out;
  for (auto w = static_cast<size_t>(first_word_); w < static_cast<size_t>(end_word_); w++) {
    std::uint64_t bits = words_[w];
    while (bits != 0) {
      int b = __builtin_ctzll(bits);
      out.push_back(static_cast<int>(w * 64 + b));
      bits &= bits - 1;
    }
  }
  return out;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
ResourceSet
ResourceSet::lowest_large(int n) const
{
  ResourceSet out(capacity_);
  if (n <= 0) return out;
  int taken = 0;
  for (auto w = static_cast<size_t>(first_word_); w < static_cast<size_t>(end_word_) && taken < n; w++) {
    std::uint64_t bits = words_[w];
    const int in_word = __builtin_popcountll(bits);
    if (taken + in_word <= n) { // the whole word
      out.words_[w] = bits;
      out.widen_span(static_cast<int>(w), static_cast<int>(w) + 1);
      taken += in_word;
      continue;
    }
    while (bits != 0 && taken < n) {
      int b = __builtin_ctzll(bits);
      out.set(static_cast<int>(w * 64 + b));
      bits &= bits - 1;
      taken++;
    }
  }
  if (taken != n) return ResourceSet(capacity_);
  return out; // moved, not copied as the operand of a conditional would be
}

namespace {
/* The first word from `w` on (before `end`) that has members, else `end`: the empty words skipped four at a time (a
 * set of idle processors on 10,000 is mostly empty words, a few members spread over the machine). */
int first_nonzero_word(const std::uint64_t* words, int w, int end)
{
  while (w + 4 <= end && (words[w] | words[w + 1] | words[w + 2] | words[w + 3]) == 0)
    w += 4;
  while (w < end && words[w] == 0)
    w++;
  return w;
}
} // namespace

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
void ResourceSet::take_lowest(int n, ResourceSet& to)
{
  to.clear(capacity_);
  if (n <= 0) return;
  // One pass: each word's members move to `to` as they are counted: whole words, (n - taken) / 64 at a time (so many
  // cannot hold too many members: no test per word), then word by word, the last one in part. The words before the
  // last one taken are then empty: the span starts at the last one, or after it when that is emptied too (a second
  // pass over those words, finding the first member left, cost a third of the call on 10,000 processors).
  std::uint64_t* from = words_.data();
  std::uint64_t* into = to.words_.data();
  int w = first_nonzero_word(from, first_word_, end_word_);
  if (w == end_word_) return; // no member at all (n > 0)
  const int first_taken = w;
  int taken = 0;
  const int end = end_word_;
  for (int whole = std::min((n - taken) / 64, end - w); whole > 0; whole = std::min((n - taken) / 64, end - w)) {
    const int stop = w + whole;     // `whole` words fit whatever their members
    for (; w + 4 <= stop; w += 4) { // four at a time (a partition of 1,024 processors is 16 words or more)
      const std::uint64_t b0 = from[w], b1 = from[w + 1], b2 = from[w + 2], b3 = from[w + 3];
      taken += __builtin_popcountll(b0) + __builtin_popcountll(b1) + __builtin_popcountll(b2) +
               __builtin_popcountll(b3); // POPCNT where the CPU has it (target_clones above)
      into[w] = b0;
      into[w + 1] = b1;
      into[w + 2] = b2;
      into[w + 3] = b3;
      from[w] = from[w + 1] = from[w + 2] = from[w + 3] = 0;
    }
    for (; w < stop; w++) {
      const std::uint64_t bits = from[w];
      taken += __builtin_popcountll(bits);
      into[w] = bits;
      from[w] = 0;
    }
  }
  while (taken < n && w < end) {
    std::uint64_t bits = from[w];
    if (bits == 0) { // most words taken from are full ones: the empty ones are skipped apart
      w = first_nonzero_word(from, w + 1, end);
      continue;
    }
    const int in_word = __builtin_popcountll(bits);
    if (taken + in_word > n) { // the word's lowest n - taken members
      bits = lowest_members(bits, n - taken);
      taken = n;
    } else {
      taken += in_word;
    }
    into[w] = bits;
    from[w] &= ~bits;
    w++;
  }
  if (taken != n) { // fewer than n: the members taken put back
    for (int v = first_taken; v < w; v++) {
      from[v] |= into[v];
      into[v] = 0;
    }
    return;
  }
  to.first_word_ = first_taken;
  to.end_word_ = w;
  const int first = first_nonzero_word(from, from[w - 1] != 0 ? w - 1 : w, end_word_);
  if (first == end_word_)
    first_word_ = end_word_ = 0;
  else
    first_word_ = first;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
int ResourceSet::count_in_range(int first, int count) const
{
  if (count <= 0) return 0;
  const int end = first + count;
  int n = 0;
  for (int w = first >> 6; w <= (end - 1) >> 6; w++)
    n += __builtin_popcountll(words_[static_cast<size_t>(w)] & range_mask(w, first, end));
  return n;
}

void ResourceSet::add_range_words(int first, int count)
{
  const int end = first + count;
  for (int w = first >> 6; w <= (end - 1) >> 6; w++)
    words_[static_cast<size_t>(w)] |= range_mask(w, first, end);
  widen_span(first >> 6, ((end - 1) >> 6) + 1);
}

void ResourceSet::merge_range(const ResourceSet& from, int first, int count)
{
  if (count <= 0) return;
  const int end = first + count;
  for (int w = first >> 6; w <= (end - 1) >> 6; w++)
    words_[static_cast<size_t>(w)] |= from.words_[static_cast<size_t>(w)] & range_mask(w, first, end);
  widen_span(first >> 6, ((end - 1) >> 6) + 1);
}

std::string ResourceSet::to_string() const
{
  std::string out;
  append_to(out);
  return out;
}

void ResourceSet::append_to(std::string& out) const
{
  const std::size_t bound = text_bound();
  char block[512]; // most sets: no zero-filled room in the string
  if (bound <= sizeof block) {
    out.append(block, write_text(block));
    return;
  }
  const std::size_t size = out.size();
  out.resize(size + bound);
  out.resize(static_cast<std::size_t>(write_text(out.data() + size) - out.data()));
}

std::size_t ResourceSet::text_bound() const
{
  std::size_t digits = 1;
  for (int largest = capacity_ - 1; largest >= 10; largest /= 10)
    digits++;
  // A narrow span: its words' most runs (32 a word, every other bit) without counting them (a row's room is only
  // reserved, not filled).
  const auto span = static_cast<std::size_t>(std::max(0, end_word_ - first_word_));
  if (span <= kUncountedSpan) return span * 32 * 2 * (digits + 1);
  // A run begins at a member whose predecessor is not one (the bit below it, the last bit of the word before).
  std::size_t runs = 0;
  std::uint64_t carry = 0;
  for (int w = first_word_; w < end_word_; w++) {
    const std::uint64_t bits = words_[static_cast<size_t>(w)];
    runs += static_cast<std::size_t>(word_members(bits & ~(bits << 1 | carry)));
    carry = bits >> 63;
  }
  return runs * 2 * (digits + 1);
}

char* ResourceSet::write_text(char* out) const
{
  char* end = out;
  bool first_run = true;
  for_each_run([&](int first, int last) {
    if (!first_run) *end++ = ' ';
    first_run = false;
    end = std::to_chars(end, end + 11, first).ptr;
    if (last > first) {
      *end++ = '-';
      end = std::to_chars(end, end + 11, last).ptr;
    }
  });
  return end;
}

} // namespace jobsched
