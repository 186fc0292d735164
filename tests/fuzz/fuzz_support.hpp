#pragma once
// Shared by the fuzz targets: the input as a file (the readers take paths), and the rule of
// every target: bad input is an InputError or an AnalysisError, anything else (another
// exception, a crash, a sanitizer's report, a hang) is a finding.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <new>
#include <string>

#include "linkdyn/core/error.hpp"

namespace linkdyn::fuzz {

/// The input written to a file of this process with the given extension; its path.
inline std::string as_file(const std::uint8_t* data, std::size_t size, const char* extension) {
  const std::string path = "/tmp/linkdyn-fuzz-" + std::to_string(getpid()) + extension;
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path;
}

/// Runs `body`; errors linkdyn reports to users pass, anything else aborts (a finding).
template <class Body>
int expect_clear_errors(Body&& body) {
  try {
    body();
  } catch (const InputError&) {
  } catch (const AnalysisError&) {
  } catch (const std::bad_alloc&) {  // the CLI's exit 3: a request too large for memory
  } catch (const std::exception& e) {
    std::fprintf(stderr, "finding: an exception that is not a clear error: %s\n", e.what());
    std::abort();
  }
  return 0;
}

}  // namespace linkdyn::fuzz
