// Kinetostatics per position (kinematics, loads, the backward walk and, with friction, the
// successive approximations) of the seed four-bar and the Watt six-bar; the closed-form dyads
// against the same mechanisms solved through the generic group's linear systems.
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>

#include "linkdyn/io/model_file.hpp"
#include "linkdyn/io/result_tables.hpp"
#include "linkdyn/planar/kinetostatics.hpp"

using namespace linkdyn;

namespace {

void kinetostatics_per_position(benchmark::State& state, const std::string& example, bool friction, bool generic) {
  const planar::Mechanism m =
      io::load_mechanism(std::string(LINKDYN_EXAMPLES_DIR) + "/" + example + ".yaml", {.force_generic = generic});
  planar::Workspace ws(m);
  planar::KinetostaticsOptions options;
  options.friction = friction;
  const planar::TimeGrid grid = m.default_grid();
  long k = 0, iterations = 0;
  for (auto _ : state) {
    const double t = grid.time(static_cast<int>(k++ % grid.steps));
    planar::set_drivers(m, ws, t);
    if (!planar::solve_kinematics(m, ws).ok()) state.SkipWithError("no position at a grid time");
    const planar::KinetostaticsStatus status = planar::solve_kinetostatics(m, ws, t, options);
    iterations += status.iterations;
    benchmark::DoNotOptimize(ws.effort[0]);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["friction_iterations"] = static_cast<double>(iterations) / static_cast<double>(state.iterations());
}

/// The whole sweep as the command line and the Python package run it: the model's grid at
/// `steps` positions, kinetostatics with friction, and its table (what linkdyn.kinetostatics
/// returns; bench/python_bench.py compares with it).
void kinetostatics_sweep(benchmark::State& state, const std::string& example, int steps) {
  const planar::Mechanism m = io::load_mechanism(std::string(LINKDYN_EXAMPLES_DIR) + "/" + example + ".yaml");
  const planar::TimeGrid grid = planar::analysis_grid(m, steps);
  for (auto _ : state) {
    const Table table = io::kinetostatics_table(m, planar::kinetostatics(m, grid, {}));
    benchmark::DoNotOptimize(table.values.data());
  }
}

}  // namespace

BENCHMARK_CAPTURE(kinetostatics_per_position, seed_fourbar_frictionless, "seed001-fourbar", false, false);
BENCHMARK_CAPTURE(kinetostatics_per_position, seed_fourbar_friction, "seed001-fourbar", true, false);
BENCHMARK_CAPTURE(kinetostatics_per_position, seed_fourbar_friction_generic, "seed001-fourbar", true, true);
BENCHMARK_CAPTURE(kinetostatics_per_position, watt_sixbar_frictionless, "watt-sixbar", false, false);
BENCHMARK_CAPTURE(kinetostatics_per_position, watt_sixbar_friction, "watt-sixbar", true, false);
BENCHMARK_CAPTURE(kinetostatics_per_position, watt_sixbar_friction_generic, "watt-sixbar", true, true);
BENCHMARK_CAPTURE(kinetostatics_sweep, seed_fourbar_360, "seed001-fourbar", 360)->Unit(benchmark::kMicrosecond);
