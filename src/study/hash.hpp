#pragma once
// FNV-1a, 64 bits: names of random streams, fingerprints of a study's files.
#include <cstdint>
#include <string_view>

namespace linkdyn::study {

[[nodiscard]] inline std::uint64_t fnv1a(std::string_view text, std::uint64_t hash = 0xcbf29ce484222325ULL) {
  for (unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ULL;
  return hash;
}

}  // namespace linkdyn::study
