/* FNV-1a, 64 bits: the one hash of names, scenarios and files (random streams' names, sweep runs, builds). */
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace jobsched {

constexpr std::uint64_t kFnv1aOffset = 0xcbf29ce484222325ULL;
constexpr std::uint64_t kFnv1aPrime = 0x100000001b3ULL;

/* The hash of `n` bytes, continuing from `h` (the offset basis for a fresh hash). */
inline std::uint64_t fnv1a(const char* data, std::size_t n, std::uint64_t h = kFnv1aOffset)
{
  for (std::size_t i = 0; i < n; i++) {
    h ^= static_cast<unsigned char>(data[i]);
    h *= kFnv1aPrime;
  }
  return h;
}

/* FNV-1a's steps a 64-bit word at a time, not byte by byte: a quick hash of `n` words of bits (the rows of free
 * entries gang-now compares), to find equal ones among many. Not fnv1a() of the same bytes. */
inline std::uint64_t fnv1a_words(const std::uint64_t* words, std::size_t n, std::uint64_t h = kFnv1aOffset)
{
  for (std::size_t i = 0; i < n; i++)
    h = (h ^ words[i]) * kFnv1aPrime;
  return h;
}

inline std::uint64_t fnv1a(const std::string& s, std::uint64_t h = kFnv1aOffset)
{
  return fnv1a(s.data(), s.size(), h);
}

/* The hash of a file's bytes, continuing from `h`; nothing when the file cannot be read. */
inline std::optional<std::uint64_t> fnv1a_file(const std::filesystem::path& file, std::uint64_t h = kFnv1aOffset)
{
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0)
    h = fnv1a(buf, static_cast<std::size_t>(in.gcount()), h);
  return h;
}

/* 16 lowercase hexadecimal digits. */
inline std::string hex16(std::uint64_t h)
{
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

} // namespace jobsched
