#pragma once
// Heap allocations counted in a test program that links tests/allocation_counter.cpp (which
// interposes malloc): the "no allocation in sweeps and integrator steps" checks, and the bytes
// a model takes to read and build.

namespace linkdyn::test {

/// Number of malloc calls since the program started (calloc and realloc not counted).
long heap_allocations();
/// Bytes asked of malloc, calloc and realloc since the program started (what is freed is not
/// subtracted: an upper bound of the peak).
long heap_bytes();

}  // namespace linkdyn::test
