// malloc interposed to count allocations (operator new goes through it): link into one test
// program only, never into the library.
#include "allocation_counter.hpp"

#include <atomic>
#include <cstddef>

namespace {
std::atomic<long> allocations{0};
}

extern "C" void* __libc_malloc(std::size_t);
extern "C" void* malloc(std::size_t n) {
  ++allocations;
  return __libc_malloc(n);
}

namespace linkdyn::test {
long heap_allocations() { return allocations.load(); }
}  // namespace linkdyn::test
