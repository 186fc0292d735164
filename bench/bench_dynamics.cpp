// Two steady cycles of each case study of [003], by the reduced method (tabulated parameters)
// and by the full constrained model, at the same integrator tolerance. Reported: time per run
// and how many times faster than real time (counter real_time_x).
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>

#include "linkdyn/dynamics/direct.hpp"
#include "linkdyn/io/model_file.hpp"

using namespace linkdyn;

namespace {

struct Case {
  std::unique_ptr<dynamics::DynamicSystem> system;
  dynamics::SimulationOptions options;
};

Case prepare(const std::string& example) {
  const planar::Mechanism m = io::load_mechanism(std::string(LINKDYN_EXAMPLES_DIR) + "/" + example + ".yaml");
  Case c{std::make_unique<dynamics::DynamicSystem>(m), {}};
  c.options.rel_tol = c.options.abs_tol = 1e-8;
  c.options.steps = 200;
  double qd = 2 * M_PI;
  if (example == "seed003-bicycle") {
    const auto hip = dynamics::solve_actuator_for_mean_speed(*c.system, c.options, {0, 1}, 2 * M_PI, qd);
    c.options.actuator_scale = {hip.scale, hip.scale, 1.0};
    qd = hip.qd0;
  } else {
    qd = 20.0;
  }
  const dynamics::SteadyRegime s = dynamics::steady_regime(*c.system, c.options, qd);
  c.options.qd0 = s.qd0;
  c.options.current0 = s.current0;
  c.options.t_end = 2 * s.period;
  return c;
}

void two_steady_cycles(benchmark::State& state, const std::string& example, dynamics::Method method) {
  Case c = prepare(example);
  c.options.method = method;
  dynamics::simulate(*c.system, c.options);  // builds and keeps the reduced tables
  for (auto _ : state) {
    const dynamics::SimulationResult r = dynamics::simulate(*c.system, c.options);
    benchmark::DoNotOptimize(r.final_state);
  }
  state.counters["real_time_x"] =
      benchmark::Counter(c.options.t_end - c.options.t0, benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace

BENCHMARK_CAPTURE(two_steady_cycles, bicycle_reduced, "seed003-bicycle", dynamics::Method::reduced)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(two_steady_cycles, bicycle_full, "seed003-bicycle", dynamics::Method::full)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(two_steady_cycles, dwell_reduced, "seed003-dwell", dynamics::Method::reduced)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(two_steady_cycles, dwell_full, "seed003-dwell", dynamics::Method::full)->Unit(benchmark::kMicrosecond);
