// malloc interposed to count allocations (operator new goes through it): link into one test
// program only, never into the library.
#include "allocation_counter.hpp"

#include <atomic>
#include <cstddef>

namespace {
std::atomic<long> allocations{0};
std::atomic<long> bytes{0};
}  // namespace

extern "C" void* __libc_malloc(std::size_t);
extern "C" void* __libc_calloc(std::size_t, std::size_t);
extern "C" void* __libc_realloc(void*, std::size_t);
extern "C" void* malloc(std::size_t n) {
  ++allocations;
  bytes += static_cast<long>(n);
  return __libc_malloc(n);
}
extern "C" void* calloc(std::size_t count, std::size_t n) {
  bytes += static_cast<long>(count * n);
  return __libc_calloc(count, n);
}
extern "C" void* realloc(void* p, std::size_t n) {
  bytes += static_cast<long>(n);
  return __libc_realloc(p, n);
}

namespace linkdyn::test {
long heap_allocations() { return allocations.load(); }
long heap_bytes() { return bytes.load(); }
}  // namespace linkdyn::test
