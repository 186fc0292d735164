// The variants of sweeps and Monte Carlo studies: grids, Latin hypercubes, random samples.
#include <boost/math/distributions/normal.hpp>

#include <cmath>
#include <algorithm>
#include <cstdint>
#include <limits>

#include "linkdyn/study/study.hpp"
#include "study/hash.hpp"

namespace linkdyn::study {
namespace {

/// SplitMix64: a counter-based stream, so that sample i of parameter j is the same number
/// whatever thread or rank draws it, and whatever was drawn before.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// Random bits for the inputs (seed, purpose, index, parameter): each mixed in turn, so that
/// any change of any input gives independent bits.
std::uint64_t stream(std::uint64_t seed, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  return mix(mix(mix(mix(seed) ^ a) ^ b) ^ c);
}

/// A parameter's stream is named by the parameter (FNV-1a of its name): adding, removing or
/// reordering parameters leaves the others' draws as they were.
std::uint64_t name_hash(const io::Study& study, size_t j) { return fnv1a(study.parameters[j].name); }

/// A number in (0, 1) from 53 random bits.
double unit_interval(std::uint64_t bits) { return (static_cast<double>(bits >> 11) + 0.5) * 0x1.0p-53; }

/// The value of a parameter at probability u of its law (uniform or truncated normal).
double quantile(const io::ParameterLaw& law, double u) {
  if (const auto* normal = std::get_if<io::NormalLaw>(&law)) {
    const io::NormalLaw& n = *normal;
    const boost::math::normal standard;
    const double a = std::isfinite(n.low) ? boost::math::cdf(standard, (n.low - n.mean) / n.std) : 0.0;
    const double b = std::isfinite(n.high) ? boost::math::cdf(standard, (n.high - n.mean) / n.std) : 1.0;
    const double p = std::clamp(a + u * (b - a), 1e-300, 1.0 - 1e-16);
    return std::clamp(n.mean + n.std * boost::math::quantile(standard, p), n.low, n.high);
  }
  const io::UniformLaw& uniform = std::get<io::UniformLaw>(law);  // a grid sweep has no quantiles
  return uniform.low + u * (uniform.high - uniform.low);
}

/// Position of sample `index` in the strata of parameter j: a random permutation of 0..n-1
/// computed for one index without state (Kensler's hash-based permutation, "Correlated
/// multi-jittered sampling", Pixar Technical Memo 13-01, 2013: invertible steps on the
/// smallest power-of-two domain, cycle-walking back into [0, n)).
size_t stratum(const io::Study& study, size_t j, size_t index) {
  const auto n = static_cast<std::uint32_t>(study.samples);
  const auto p = static_cast<std::uint32_t>(stream(study.seed, 0x4c4853, name_hash(study, j), 0));
  std::uint32_t w = n - 1;
  w |= w >> 1, w |= w >> 2, w |= w >> 4, w |= w >> 8, w |= w >> 16;
  auto i = static_cast<std::uint32_t>(index);
  do {
    i ^= p;
    i *= 0xe170893d;
    i ^= p >> 16;
    i ^= (i & w) >> 4;
    i ^= p >> 8;
    i *= 0x0929eb3f;
    i ^= p >> 23;
    i ^= (i & w) >> 1;
    i *= 1 | p >> 27;
    i *= 0x6935fa69;
    i ^= (i & w) >> 11;
    i *= 0x74dcb303;
    i ^= (i & w) >> 2;
    i *= 0x9e501cc3;
    i ^= (i & w) >> 2;
    i *= 0xc860a3df;
    i &= w;
    i ^= i >> 5;
  } while (i >= n);
  return static_cast<size_t>((static_cast<std::uint64_t>(i) + p) % n);  // 64 bits: no wrap-around
}

}  // namespace

size_t design_size(const io::Study& study) {
  if (study.kind == io::StudyKind::monte_carlo || study.design == io::SweepDesign::latin_hypercube)
    return static_cast<size_t>(study.samples);
  size_t n = 1;
  for (const io::StudyParameter& p : study.parameters) {  // saturated: a grid too large to count is refused
    const size_t k = std::get<io::GridValues>(p.law).values.size();
    n = k > 0 && n > std::numeric_limits<size_t>::max() / k ? std::numeric_limits<size_t>::max() : n * k;
  }
  return n;
}

void design_point(const io::Study& study, size_t index, std::span<double> out) {
  const size_t count = study.parameters.size();
  if (study.kind == io::StudyKind::monte_carlo) {
    for (size_t j = 0; j < count; ++j)
      out[j] = quantile(study.parameters[j].law, unit_interval(stream(study.seed, 0x4d43, index, name_hash(study, j))));
  } else if (study.design == io::SweepDesign::latin_hypercube) {
    const double n = study.samples;
    for (size_t j = 0; j < count; ++j) {
      const double offset = unit_interval(stream(study.seed, 0x4c4843, index, name_hash(study, j)));
      out[j] = quantile(study.parameters[j].law, (static_cast<double>(stratum(study, j, index)) + offset) / n);
    }
  } else {
    size_t rest = index;  // mixed radix, the last parameter fastest
    for (size_t j = count; j-- > 0;) {
      const std::vector<double>& grid = std::get<io::GridValues>(study.parameters[j].law).values;
      out[j] = grid[rest % grid.size()];
      rest /= grid.size();
    }
  }
}

}  // namespace linkdyn::study
