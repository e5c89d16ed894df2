/* The Expansion round's scan of the map, its shared rows and column search, and the bounds on a job's turnaround, for
 * the scheduling events of Al-Saqabi, Otto & Walpole, "Gang Scheduling in Heterogeneous Distributed Systems"
 * (sections 4.3 and 4.4.2; shared_rows.hpp). */
#include "policies/gang_now/shared_rows.hpp"

#include "core/errors.hpp"
#include "core/fnv1a.hpp"
#include "core/word_members.hpp"

#include <algorithm>
#include <numeric>

namespace jobsched::gang_now {

namespace {

bool within(const std::uint64_t* a, const std::uint64_t* b, size_t words)
{
  for (size_t w = 0; w < words; w++)
    if ((a[w] & ~b[w]) != 0) return false;
  return true;
}

bool same_row(const std::uint64_t* a, const std::uint64_t* b, size_t words)
{
  for (size_t w = 0; w < words; w++)
    if (a[w] != b[w]) return false;
  return true;
}

long long count_of(const std::uint64_t* row, size_t words)
{
  long long count = 0;
  for (size_t w = 0; w < words; w++)
    count += word_members(row[w]);
  return count;
}

long long units_of(const std::uint64_t* row, const std::vector<long long>& units, size_t words)
{
  long long sum = 0;
  for (size_t w = 0; w < words; w++)
    for (std::uint64_t bits = row[w]; bits != 0; bits &= bits - 1)
      sum += units[w * 64 + static_cast<size_t>(__builtin_ctzll(bits))];
  return sum;
}

/* The capacities of the processors of `mask` in whole units (MaskUnits). */
MaskUnits mask_units(const AllocationMap& map, const std::vector<std::uint64_t>& mask)
{
  MaskUnits out;
  out.units.assign(map.processors.size(), 0);
  std::vector<size_t> members;
  for (size_t w = 0; w < mask.size(); w++)
    for (std::uint64_t bits = mask[w]; bits != 0; bits &= bits - 1)
      members.push_back(w * 64 + static_cast<size_t>(__builtin_ctzll(bits)));
  for (size_t p : members) {
    const long long d = map.processors[p].capacity.denominator();
    if (out.denominator % d == 0) continue;
    out.denominator = out.denominator / std::gcd(out.denominator, d) * d;
    if (out.denominator > 1000000000LL) {
      out.whole = false;
      return out;
    }
  }
  for (size_t p : members) {
    const Rational& a = map.processors[p].capacity;
    const __int128 unit = static_cast<__int128>(a.numerator()) * (out.denominator / a.denominator());
    if (unit > (static_cast<__int128>(1) << 40)) {
      out.whole = false;
      return out;
    }
    out.units[p] = static_cast<long long>(unit);
  }
  out.uniform = !members.empty() && std::all_of(members.begin(), members.end(), [&](size_t p) {
    return map.processors[p].capacity == map.processors[members.front()].capacity;
  });
  if (out.uniform) {
    out.capacity = map.processors[members.front()].capacity;
    out.unit = out.units[members.front()];
  }
  return out;
}

/* The job's row x (SharedPick::rows): the shared row x / 2, with the job's entries when x is odd. */
const std::uint64_t* job_row(const SharedRows& shared, const SharedPick& pick, size_t x)
{
  return x % 2 == 0 ? shared.row(x / 2) : &pick.rows[x * shared.words];
}

} // namespace

ArchMasks arch_masks(const AllocationMap& map)
{
  ArchMasks masks;
  const size_t words = (map.processors.size() + 63) / 64;
  std::vector<std::uint64_t>* mask = nullptr;
  const std::string* arch = nullptr;
  for (size_t p = 0; p < map.processors.size(); p++) {
    if (!arch || *arch != map.processors[p].arch) {
      arch = &map.processors[p].arch;
      mask = &masks[*arch];
      mask->resize(words, 0);
    }
    (*mask)[p / 64] |= std::uint64_t{1} << (p % 64);
  }
  return masks;
}

void point_at_index(const AllocationMap& map, MapScan& scan)
{
  scan.free = {map.index.free.data(), map.slices.size(), map.processors.size(), map.index.words};
  scan.free_entries = map.index.free_entries;
}

void scan_map(const AllocationMap& map, MapScan& scan, bool from_entries)
{
  scan.from_index = map.index.built && !from_entries;
  scan.shared_count = 0;
  scan.shared_of_mask = -1;
  scan.mask_free_found = false;
  if (scan.from_index) {
    point_at_index(map, scan);
    return;
  }
  scan.scanned = FreeRows(map.slices.size(), map.processors.size());
  scan.free = {scan.scanned.bits.data(), scan.scanned.slices, scan.scanned.processors, scan.scanned.words};
  scan.free_entries = 0;
  scan.slices_of.resize(map.jobs.size());
  for (auto& held : scan.slices_of)
    held.clear();
  const size_t words = scan.free.words;
  for (size_t s = 0; s < map.slices.size(); s++) {
    const auto& slice = map.slices[s];
    // The free entries a word of bits at a time (no branch per entry), then the jobs' runs of entries.
    for (size_t w = 0; w < words; w++) {
      std::uint64_t word = 0;
      const size_t end = std::min(slice.size(), (w + 1) * 64);
      for (size_t p = w * 64; p < end; p++)
        word |= static_cast<std::uint64_t>(slice[p].job == kFreeEntry) << (p % 64);
      scan.scanned.bits[s * words + w] = word;
      scan.free_entries += word_members(word);
    }
    JobId last = kFreeEntry; // a job's entries are often side by side: look it up once per run of them
    for (const Entry& e : slice) {
      if (e.job == last || e.free()) continue;
      last = e.job;
      const int place = scan.place.of(e.job);
      if (place < 0) continue; // not a job of the queue: no turn reads it
      auto& held = scan.slices_of[static_cast<size_t>(place)];
      if (held.empty() || held.back() != static_cast<int>(s)) held.push_back(static_cast<int>(s));
    }
  }
}

Pattern search_free_rows(const AllocationMap& map, const FreeRows& free, const std::vector<size_t>& usable,
                         const SchedulerOptions& options)
{
  ExpansionSearch search = options.expansion;
  if (search == ExpansionSearch::exhaustive && options.exhaustive_falls_back) {
    long with_free = 0;
    for (size_t s = 0; s < free.slices; s++)
      with_free += free.row_empty(s) ? 0 : 1;
    if (with_free > options.max_exhaustive_slices) search = ExpansionSearch::column;
  }
  // Only the capacities of the processors the job may use are read.
  std::vector<Rational> capacities(map.processors.size(), Rational(1));
  for (size_t p : usable)
    capacities[p] = map.processors[p].capacity;
  return find_pattern(free, capacities, search, options.max_exhaustive_slices);
}

void build_shared_rows(AllocationMap& map, const FreeView& free, const std::vector<std::string>& archs,
                       const std::vector<std::uint64_t>& mask, SharedRows& out, bool validate)
{
  out.mask = mask;
  out.words = free.words;
  if (map.index.built) {
    auto& kept = map.index.mask_units[archs];
    if (!kept)
      kept = std::make_shared<const MaskUnits>(mask_units(map, mask));
    else if (validate && !(*kept == mask_units(map, mask)))
      throw PolicyError("gang scheduler: the capacities in units the map's index kept are not its processors'");
    out.capacities = kept;
  } else {
    out.capacities = std::make_shared<const MaskUnits>(mask_units(map, mask));
  }
  out.rows.clear();
  out.row_units.clear();
  out.copies.clear();
  out.hashes.clear();
  if (!out.capacities->whole) { // no rows: the job's own search; none of an earlier build's left either
    out.of_slice.clear();
    out.by_row.clear();
    out.row_start.clear();
    out.contained.clear();
    out.width_of.clear();
    return;
  }
  const MaskUnits& caps = *out.capacities;
  const size_t words = out.words;
  size_t buckets = 16; // a power of two, at least twice the slices: open addressing's chains stay short
  while (buckets < 2 * free.slices)
    buckets *= 2;
  out.table.assign(buckets, -1);
  out.of_slice.resize(free.slices);
  std::uint64_t* row = nullptr; // the slice's row, written in place at the end of `rows` (kept if it is new)
  int empty_row = -1;           // the distinct row without free entries, once met (most slices have it)
  for (size_t s = 0; s < free.slices; s++) {
    out.rows.resize((out.copies.size() + 1) * words);
    row = out.rows.data() + out.copies.size() * words;
    std::uint64_t any = 0;
    for (size_t w = 0; w < words; w++) {
      row[w] = free.bits[s * words + w] & mask[w];
      any |= row[w];
    }
    int d = any == 0 ? empty_row : -1;
    if (d < 0) {
      const std::uint64_t hash = fnv1a_words(row, words);
      size_t bucket = hash & (buckets - 1);
      for (; out.table[bucket] >= 0; bucket = (bucket + 1) & (buckets - 1)) {
        const int k = out.table[bucket];
        if (out.hashes[static_cast<size_t>(k)] == hash && same_row(row, out.row(static_cast<size_t>(k)), words)) {
          d = k;
          break;
        }
      }
      if (d < 0) {
        d = static_cast<int>(out.copies.size());
        out.table[bucket] = d;
        out.hashes.push_back(hash);
        out.row_units.push_back(caps.uniform ? caps.unit * count_of(row, words) : units_of(row, caps.units, words));
        out.copies.push_back(0);
        if (any == 0) empty_row = d;
      }
    }
    out.copies[static_cast<size_t>(d)]++;
    out.of_slice[s] = d;
  }
  const size_t distinct = out.copies.size();
  out.rows.resize(distinct * words); // the last slice's row, if it was not new
  // The slices by distinct row (a counting sort: increasing within each row).
  out.row_start.assign(distinct + 1, 0);
  for (size_t d = 0; d < distinct; d++)
    out.row_start[d + 1] = out.row_start[d] + out.copies[d];
  out.by_row.resize(free.slices);
  std::vector<int>& next = out.table; // the table is no longer needed: each row's next place in by_row
  next.assign(out.row_start.begin(), out.row_start.end() - 1);
  for (size_t s = 0; s < free.slices; s++)
    out.by_row[static_cast<size_t>(next[static_cast<size_t>(out.of_slice[s])]++)] = static_cast<int>(s);
  out.contained.assign(distinct * distinct, 0);
  for (size_t x = 0; x < distinct; x++)
    for (size_t y = 0; y < distinct; y++)
      out.contained[x * distinct + y] = within(out.row(x), out.row(y), words) ? 1 : 0;
  out.width_of.assign(distinct, 0);
  for (size_t x = 0; x < distinct; x++)
    for (size_t y = 0; y < distinct; y++)
      if (out.contained[x * distinct + y] != 0) out.width_of[x] += out.copies[y];
}

void shared_column_search(const SharedRows& shared, const std::vector<int>& held, const std::vector<std::uint64_t>& own,
                          SharedPick& pick)
{
  const size_t words = shared.words;
  const size_t distinct = shared.copies.size();
  const size_t none = shared.of_slice.size();
  const MaskUnits& caps = *shared.capacities;
  pick.pattern.processors.clear();
  pick.pattern.slices.clear();
  pick.pattern.size = Rational(0);
  pick.width = 0;
  pick.row = nullptr;
  pick.processor_count = 0;
  // Job row 2d: d where it does not hold the slice; 2d + 1: d with its entries. Their slices, and each one's first.
  pick.count.assign(2 * distinct, 0);
  std::vector<size_t>& first = pick.first;
  first.assign(2 * distinct, none);
  std::vector<size_t>& held_rows = pick.held_rows; // the distinct rows of the slices it holds, each once
  held_rows.clear();
  for (int s : held) {
    const auto d = static_cast<size_t>(shared.of_slice[static_cast<size_t>(s)]);
    if (pick.count[2 * d + 1]++ == 0) {
      first[2 * d + 1] = static_cast<size_t>(s);
      held_rows.push_back(d);
    }
  }
  pick.rows.resize(2 * distinct * words);
  std::vector<long long>& units = pick.units;
  units.assign(2 * distinct, 0);
  for (size_t d = 0; d < distinct; d++) {
    pick.count[2 * d] = shared.copies[d] - pick.count[2 * d + 1];
    units[2 * d] = shared.row_units[d];
    if (pick.count[2 * d + 1] > 0) {
      for (size_t w = 0; w < words; w++)
        pick.rows[(2 * d + 1) * words + w] = shared.row(d)[w] | own[w];
      units[2 * d + 1] = caps.uniform ? caps.unit * count_of(&pick.rows[(2 * d + 1) * words], words)
                                      : units_of(&pick.rows[(2 * d + 1) * words], caps.units, words);
    }
    if (pick.count[2 * d] > 0 && units[2 * d] > 0) { // its first slice the job does not hold (both lists increasing)
      auto h = held.begin();
      for (int r = shared.row_start[d]; r < shared.row_start[d + 1]; r++) {
        const int s = shared.by_row[static_cast<size_t>(r)];
        h = std::lower_bound(h, held.end(), s); // (a search: a job may hold hundreds of slices, this row's first few)
        if (h == held.end() || *h != s) {
          first[2 * d] = static_cast<size_t>(s);
          break;
        }
      }
    }
  }
  size_t best = 2 * distinct;
  __int128 best_size = 0;
  const auto slices = static_cast<__int128>(none); // the widest a candidate can be
  for (size_t x = 0; x < 2 * distinct; x++) {
    if (pick.count[x] == 0 || units[x] == 0) continue;
    if (static_cast<__int128>(units[x]) * slices < best_size) continue; // it cannot reach the best, even in every slice
    int width = 0;
    if (x % 2 == 0) { // the shared rows containing it, less the slices the job holds there, plus its held rows'
      const size_t d = x / 2;
      width = shared.width_of[d];
      for (size_t h : held_rows) {
        const int held_there = pick.count[2 * h + 1];
        if (shared.contained[d * distinct + h] != 0) width -= held_there;
        if (within(shared.row(d), &pick.rows[(2 * h + 1) * words], words)) width += held_there;
      }
    } else { // a held row (few): every job row that contains it
      for (size_t y = 0; y < 2 * distinct; y++)
        if (pick.count[y] != 0 && (y == x || within(&pick.rows[x * words], job_row(shared, pick, y), words)))
          width += pick.count[y];
    }
    const __int128 size = static_cast<__int128>(units[x]) * width;
    if (size > best_size || (size == best_size && best < 2 * distinct && first[x] < first[best])) {
      best_size = size;
      best = x;
      pick.width = width;
    }
  }
  if (best == 2 * distinct) return;
  pick.row = job_row(shared, pick, best);
  pick.processor_count = count_of(pick.row, words);
  pick.pattern.size = Rational(units[best], caps.denominator) * Rational(static_cast<long long>(pick.width));
}

void add_pattern_processors(const SharedRows& shared, SharedPick& pick)
{
  pick.pattern.processors.reserve(static_cast<size_t>(pick.processor_count));
  for (size_t w = 0; w < shared.words; w++)
    for (std::uint64_t bits = pick.row[w]; bits != 0; bits &= bits - 1)
      pick.pattern.processors.push_back(static_cast<int>(w * 64 + static_cast<size_t>(__builtin_ctzll(bits))));
}

void add_pattern_slices(const SharedRows& shared, const std::vector<int>& held, SharedPick& pick)
{
  const size_t words = shared.words;
  // The pattern's processors as bits are its row, pick.row (its processors are read from it).
  std::vector<char> contains(pick.count.size(), 0);
  for (size_t y = 0; y < contains.size(); y++)
    contains[y] = pick.count[y] > 0 && within(pick.row, job_row(shared, pick, y), words) ? 1 : 0;
  auto h = held.begin();
  for (size_t j = 0; j < shared.of_slice.size(); j++) {
    while (h != held.end() && static_cast<size_t>(*h) < j)
      ++h;
    const bool holds = h != held.end() && static_cast<size_t>(*h) == j;
    if (contains[2 * static_cast<size_t>(shared.of_slice[j]) + (holds ? 1 : 0)] != 0)
      pick.pattern.slices.push_back(static_cast<int>(j));
  }
}

Rational least_shared_turnaround(const JobRecord& job, long long k, const Rational& a, bool equal, const Rational& size,
                                 int width)
{
  const long long n = job.total_vps();
  if (!(job.vps.size() == 1 && equal)) return Rational(n) / size;
  return Rational((n + k - 1) / k) / a / Rational(static_cast<long long>(width));
}

std::optional<bool> bound_reaches(const JobRecord& job, long long k, const Rational& a, int width, const Rational& now,
                                  size_t held)
{
  const long long n = job.total_vps();
  const __int128 c = (n + k - 1) / k;
  __int128 left = 0;
  __int128 right = 0;
  if (__builtin_mul_overflow(c, static_cast<__int128>(a.denominator()), &left) ||
      __builtin_mul_overflow(left, static_cast<__int128>(now.denominator()), &left) ||
      __builtin_mul_overflow(left, static_cast<__int128>(held), &left) ||
      __builtin_mul_overflow(static_cast<__int128>(now.numerator()), static_cast<__int128>(a.numerator()), &right) ||
      __builtin_mul_overflow(right, static_cast<__int128>(width), &right))
    return std::nullopt;
  return left >= right;
}

Rational least_shared_turnaround(const AllocationMap& map, const JobRecord& job, const std::vector<int>& processors,
                                 const Rational& size, int width)
{
  const Rational& a = map.processors[static_cast<size_t>(processors.front())].capacity;
  const bool equal = job.vps.size() == 1 && std::all_of(processors.begin(), processors.end(), [&](int p) {
                       return map.processors[static_cast<size_t>(p)].capacity == a;
                     });
  return least_shared_turnaround(job, static_cast<long long>(processors.size()), a, equal, size, width);
}

FreeRows rows_on_mask(const std::uint64_t* rows, size_t slices, size_t processors,
                      const std::vector<std::uint64_t>& mask, std::vector<size_t>& usable)
{
  FreeRows free(slices, processors);
  usable.clear();
  for (size_t w = 0; w < free.words; w++)
    for (std::uint64_t bits = mask[w]; bits != 0; bits &= bits - 1)
      usable.push_back(w * 64 + static_cast<size_t>(__builtin_ctzll(bits)));
  for (size_t s = 0; s < free.slices; s++)
    for (size_t w = 0; w < free.words; w++)
      free.bits[s * free.words + w] = rows[s * free.words + w] & mask[w];
  return free;
}

bool gains_nothing(AllocationMap& map, const JobRecord& job, const std::vector<int>& held, const Rational& now,
                   MapScan& scan, bool validate)
{
  if (!map.index.built || job.vps.size() != 1 || held.empty()) return false;
  const std::vector<std::uint64_t>& mask = scan.mask;
  if (!scan.mask_capacities) {
    auto& kept = map.index.mask_units[scan.mask_archs];
    if (!kept)
      kept = std::make_shared<const MaskUnits>(mask_units(map, mask));
    else if (validate && !(*kept == mask_units(map, mask)))
      throw PolicyError("gang scheduler: the capacities in units the map's index kept are not its processors'");
    scan.mask_capacities = kept;
    scan.mask_processors = count_of(mask.data(), mask.size());
  }
  const MaskUnits& caps = *scan.mask_capacities;
  if (!caps.uniform || scan.mask_processors == 0) return false;
  const Rational most = now * caps.capacity; // n_max
  if (most.denominator() != 1) return false;
  const long long n_max = most.numerator();
  const long long n = job.total_vps();
  if (n_max > (n + scan.mask_processors - 1) / scan.mask_processors) return false;
  const size_t words = scan.free.words;
  // Each slice's free entries on the mask: on a mask of every processor, its processors less its held entries (the
  // index's count, which follows the scan: both are the map's between turns), else counted from the scan's rows.
  const bool every = scan.mask_processors == static_cast<long long>(map.processors.size());
  if (!scan.mask_free_found && (!every || validate)) {
    scan.mask_free.assign(scan.free.slices, 0);
    for (size_t s = 0; s < scan.free.slices; s++)
      for (size_t w = 0; w < words; w++)
        scan.mask_free[s] += word_members(scan.free.bits[s * words + w] & mask[w]);
    scan.mask_free_found = true;
    if (every)
      for (size_t s = 0; s < scan.free.slices; s++)
        if (scan.mask_free[s] != scan.mask_processors - map.index.held[s])
          throw PolicyError("gang scheduler: the index's count of held entries of a slice is not the scan's");
  }
  auto free_on_mask = [&](size_t s) { return every ? scan.mask_processors - map.index.held[s] : scan.mask_free[s]; };
  long long most_free = 0; // F
  auto h = held.begin();
  for (size_t s = 0; s < scan.free.slices; s++) {
    if (h != held.end() && static_cast<size_t>(*h) == s) {
      ++h;
      continue;
    }
    most_free = std::max(most_free, free_on_mask(s));
  }
  if (most_free == 0) return true;
  const __int128 left = static_cast<__int128>(n_max) * static_cast<__int128>(scan.free.slices);
  const __int128 right = static_cast<__int128>((n + most_free - 1) / most_free) * static_cast<__int128>(held.size());
  return left <= right;
}

} // namespace jobsched::gang_now
