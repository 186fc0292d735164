// Kane's equations [004 App. B] on the wind-pump example (two DOF): the direct dynamics over
// the same time span by Kane's equations and by the full constrained model, at the same
// integrator tolerance (counter sim_s_per_s: simulated seconds per second of computing); and
// one evaluation of Kane's equations with and without the liaison forces.
#include <benchmark/benchmark.h>

#include <string>

#include "linkdyn/dynamics/kane.hpp"
#include "linkdyn/dynamics/simulate.hpp"
#include "linkdyn/io/model_file.hpp"

using namespace linkdyn;

namespace {

const std::string pump = std::string(LINKDYN_EXAMPLES_DIR) + "/seed004-pump.yaml";

void pump_two_seconds(benchmark::State& state, dynamics::Method method) {
  const dynamics::DynamicSystem system = io::load_machine(pump);
  dynamics::SimulationOptions o;
  o.method = method;
  o.t_end = 2.0;
  o.steps = 200;
  o.rel_tol = o.abs_tol = 1e-8;
  for (auto _ : state) {
    const dynamics::SimulationResult r = dynamics::simulate(system, o);
    benchmark::DoNotOptimize(r.final_state);
  }
  state.counters["sim_s_per_s"] = benchmark::Counter(o.t_end - o.t0, benchmark::Counter::kIsIterationInvariantRate);
}

void kane_one_state(benchmark::State& state, bool with_liaisons) {
  const planar::Mechanism m = io::load_mechanism(pump);
  planar::Workspace ws(m);
  dynamics::KaneWorkspace kw(m);
  ws.q = {0.7, 0.47};
  ws.qd = {14.0, -0.3};
  if (!planar::solve_positions(m, ws).ok() || !planar::solve_velocities(m, ws).ok()) {
    state.SkipWithError("the four-bar does not assemble at the benchmark's state");
    return;
  }
  planar::evaluate_loads(m, ws, 0.0);
  for (auto _ : state) {
    dynamics::solve_kane(m, ws, kw);
    if (with_liaisons) dynamics::liaison_forces(m, ws, kw);
    benchmark::DoNotOptimize(kw.qdd.data());
  }
}

}  // namespace

BENCHMARK_CAPTURE(pump_two_seconds, kane, dynamics::Method::kane)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(pump_two_seconds, full, dynamics::Method::full)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(kane_one_state, equations, false);
BENCHMARK_CAPTURE(kane_one_state, with_liaison_forces, true);
