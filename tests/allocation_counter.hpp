#pragma once
// Heap allocations counted in a test program that links tests/allocation_counter.cpp (which
// interposes malloc): the "no allocation in sweeps and integrator steps" checks.

namespace linkdyn::test {

/// Number of malloc calls since the program started.
long heap_allocations();

}  // namespace linkdyn::test
