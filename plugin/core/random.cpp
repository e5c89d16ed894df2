#include "core/random.hpp"

#include "core/fnv1a.hpp"

#include <cmath>

namespace jobsched {

namespace {
std::uint64_t splitmix64(std::uint64_t x)
{
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
} // namespace

RandomStream::RandomStream(std::uint64_t seed, const std::string& name) : engine_(splitmix64(seed ^ fnv1a(name))) {}

double RandomStream::uniform()
{
  return static_cast<double>(engine_() >> 11) * 0x1.0p-53; // 53 random bits
}

int RandomStream::uniform_int(int lo, int hi)
{
  auto span = static_cast<std::uint64_t>(hi - lo + 1);
  return lo + static_cast<int>(static_cast<std::uint64_t>(uniform() * static_cast<double>(span)));
}

double RandomStream::exponential(double mean)
{
  return -mean * std::log1p(-uniform());
}

double RandomStream::log_uniform(double lo, double hi)
{
  return std::exp(uniform(std::log(lo), std::log(hi)));
}

} // namespace jobsched
