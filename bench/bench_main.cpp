// One Google Benchmark program for all the benchmarks.
#include <benchmark/benchmark.h>

BENCHMARK_MAIN();
