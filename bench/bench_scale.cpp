// Scaling with the number of bodies: chains of 5, 50 and 500 parallelogram four-bars (11, 101
// and 1001 moving bodies; examples/tools/parallelogram_chain.py). The structural analysis (read
// and compile: Gruebler, the group search, the pins' pairs) and one position of kinematics and
// of kinetostatics per group: flat ns per group means O(n).
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>

#include "linkdyn/io/model_file.hpp"
#include "linkdyn/planar/kinematics.hpp"
#include "linkdyn/planar/kinetostatics.hpp"

#ifdef LINKDYN_BENCH_MODELS_DIR
using namespace linkdyn;

namespace {

std::string chain_file(int four_bars) {
  return std::string(LINKDYN_BENCH_MODELS_DIR) + "/parallelogram-chain-" + std::to_string(four_bars) + ".yaml";
}

void set_groups_counter(benchmark::State& state, const planar::Mechanism& m) {
  state.counters["bodies"] = static_cast<double>(m.bodies().size() - 1);
  state.counters["time_per_group"] =
      benchmark::Counter(static_cast<double>(m.groups().size()),
                         benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void structure(benchmark::State& state) {
  const std::string path = chain_file(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    const planar::Mechanism m = io::load_mechanism(path);
    benchmark::DoNotOptimize(m.groups().size());
  }
  set_groups_counter(state, io::load_mechanism(path));
}

/// Positions between 30 and 150 deg, away from the chain's singular positions at 0 and 180.
double position(long k) { return (30.0 + 0.1 * static_cast<double>(k % 1200)) * M_PI / 180.0; }

void kinematics_per_position(benchmark::State& state) {
  const planar::Mechanism m = io::load_mechanism(chain_file(static_cast<int>(state.range(0))));
  planar::Workspace ws(m);
  long k = 0;
  for (auto _ : state) {
    ws.q[0] = position(k++), ws.qd[0] = 1.0, ws.qdd[0] = 0.0;
    benchmark::DoNotOptimize(planar::solve_kinematics(m, ws));
  }
  set_groups_counter(state, m);
}

void kinetostatics_per_position(benchmark::State& state) {
  const planar::Mechanism m = io::load_mechanism(chain_file(static_cast<int>(state.range(0))));
  planar::Workspace ws(m);
  const planar::KinetostaticsOptions options;
  long k = 0;
  for (auto _ : state) {
    ws.q[0] = position(k++), ws.qd[0] = 1.0, ws.qdd[0] = 0.0;
    if (!planar::solve_kinematics(m, ws).ok()) state.SkipWithError("no position at this driver value");
    benchmark::DoNotOptimize(planar::solve_kinetostatics(m, ws, 0.0, options));
  }
  set_groups_counter(state, m);
}

}  // namespace

BENCHMARK(structure)->Arg(5)->Arg(50)->Arg(500)->Unit(benchmark::kMillisecond);
BENCHMARK(kinematics_per_position)->Arg(5)->Arg(50)->Arg(500)->Unit(benchmark::kMicrosecond);
BENCHMARK(kinetostatics_per_position)->Arg(5)->Arg(50)->Arg(500)->Unit(benchmark::kMicrosecond);
#endif
