// Direct dynamics [003]: the reduced method against the constrained models (full, Kane).
//  - equal_accuracy: each method at the loosest --rtol whose final coordinate is within
//    1e-8 rad of a Kane run at --rtol 1e-13 (the rtol is found before timing); the reduced
//    method with its tables kept (a design study's repeated runs) and with the tables built in
//    the run; the seed four-bar with and without its pair friction. Counters: the rtol used, the error reached,
//    right-hand sides per run, ns per right-hand side, and how many times faster than real time.
//  - friction: one simulated second at --rtol 1e-10 with pair friction on and off.
//  - chain: a chain of N parallelogram four-bars (examples/tools/parallelogram_chain.py) released
//    from rest, one simulated second, reactions off: the constrained methods' cost against N.
//  - two_steady_cycles: the case studies of [003] from their periodic regime.
#include <benchmark/benchmark.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>

#include "linkdyn/dynamics/simulate.hpp"
#include "linkdyn/io/model_file.hpp"

using namespace linkdyn;

namespace {

std::unique_ptr<dynamics::DynamicSystem> load_system(const std::string& path) {
  return std::make_unique<dynamics::DynamicSystem>(io::load_machine(path));
}

std::string example(const std::string& name) { return std::string(LINKDYN_EXAMPLES_DIR) + "/" + name + ".yaml"; }

/// One simulated second from the law's start (the seed four-bar under its motor from 10 rad/s).
dynamics::SimulationOptions one_second(const std::string& name, dynamics::Method method, double rtol,
                                       bool friction = true) {
  dynamics::SimulationOptions o;
  o.friction = friction;
  o.method = method;
  o.t_end = 1.0;
  o.steps = 100;
  o.rel_tol = rtol, o.abs_tol = rtol;
  o.kinematics = false;
  if (name == "seed001-fourbar-motor") o.qd0 = 10.0;
  return o;
}

double final_q(const dynamics::DynamicSystem& system, const dynamics::SimulationOptions& o) {
  const dynamics::SimulationResult r = dynamics::simulate(system, o);
  if (r.stopped) throw std::runtime_error(r.stop_message);
  return r.final_state[0];
}

/// The loosest rtol (decades 1e-5 .. 1e-13) whose final q is within `target` of the reference,
/// and the error it reaches; cached per (example, method).
std::pair<double, double> rtol_for(const std::string& name, dynamics::Method method, bool friction, double target) {
  static std::map<std::pair<std::string, int>, std::pair<double, double>> cache;
  const auto key = std::make_pair(name, static_cast<int>(method) + (friction ? 10 : 0));
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  const auto system = load_system(example(name));
  const double reference = final_q(*system, one_second(name, dynamics::Method::kane, 1e-13, friction));
  std::pair<double, double> found{1e-13, 0.0};
  for (int decade = 5; decade <= 13; ++decade) {
    const double rtol = std::pow(10.0, -decade);
    const double error = std::abs(final_q(*system, one_second(name, method, rtol, friction)) - reference);
    if (error <= target) {
      found = {rtol, error};
      break;
    }
  }
  return cache[key] = found;
}

void report(benchmark::State& state, const dynamics::SimulationResult& r, double simulated) {
  state.counters["rhs"] = r.rhs_evaluations;
  state.counters["ns_per_rhs"] = benchmark::Counter(
      r.rhs_evaluations, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["real_time_x"] = benchmark::Counter(simulated, benchmark::Counter::kIsIterationInvariantRate);
}

void equal_accuracy(benchmark::State& state, const std::string& name, dynamics::Method method, bool build_tables,
                    bool friction = true) {
  const auto [rtol, error] = rtol_for(name, method, friction, 1e-8);
  const dynamics::SimulationOptions o = one_second(name, method, rtol, friction);
  auto system = load_system(example(name));
  dynamics::SimulationResult r = dynamics::simulate(*system, o);  // builds and keeps the reduced tables
  for (auto _ : state) {
    if (build_tables) {
      state.PauseTiming();
      system = load_system(example(name));
      state.ResumeTiming();
    }
    r = dynamics::simulate(*system, o);
    benchmark::DoNotOptimize(r.final_state);
  }
  report(state, r, o.t_end - o.t0);
  state.counters["rtol"] = rtol;
  state.counters["error"] = error;
}

void friction(benchmark::State& state, const std::string& name, dynamics::Method method, bool with_friction) {
  dynamics::SimulationOptions o = one_second(name, method, 1e-10);
  o.friction = with_friction;
  const auto system = load_system(example(name));
  dynamics::SimulationResult r = dynamics::simulate(*system, o);
  for (auto _ : state) {
    r = dynamics::simulate(*system, o);
    benchmark::DoNotOptimize(r.final_state);
  }
  report(state, r, o.t_end - o.t0);
  state.counters["events"] = r.events;
}

/// The 3200 rpm slider-crank's first 0.1 s with its rod rigid (range(0) < 0) or coupled on
/// range(0) modes (0: every dof of its beam), with or without friction.
void elastic_rod(benchmark::State& state, dynamics::Method method, bool with_friction) {
  const io::Model model = io::read_model(example("fast-slider-crank-elastic"));
  dynamics::DynamicSystem system(planar::compile(model.mechanism), model.machine);
  const int modes = static_cast<int>(state.range(0));
  if (modes >= 0) dynamics::couple_elastic_links(system, model.elastic_links, modes);
  dynamics::SimulationOptions o;
  o.method = method;
  o.t_end = 0.1;
  o.steps = 100;
  o.kinematics = false;
  o.friction = with_friction;
  dynamics::SimulationResult r = dynamics::simulate(system, o);
  for (auto _ : state) {
    r = dynamics::simulate(system, o);
    benchmark::DoNotOptimize(r.final_state);
  }
  report(state, r, o.t_end - o.t0);
  state.counters["steps"] = r.steps;
}

void chain(benchmark::State& state, dynamics::Method method) {
  const int n = static_cast<int>(state.range(0));
  const auto system =
      load_system(std::string(LINKDYN_BENCH_MODELS_DIR) + "/parallelogram-chain-" + std::to_string(n) + ".yaml");
  dynamics::SimulationOptions o;
  o.method = method;
  o.t_end = 1.0;
  o.steps = 100;
  o.rel_tol = o.abs_tol = 1e-10;
  o.kinematics = false;
  // Released from rest with every bar horizontal (the law's start): each four-bar starts on its
  // singular position.
  dynamics::SimulationResult r;
  for (auto _ : state) {
    r = dynamics::simulate(*system, o);
    benchmark::DoNotOptimize(r.final_state);
  }
  report(state, r, o.t_end - o.t0);
  state.counters["bodies"] = 2 * n + 1;
}

void two_steady_cycles(benchmark::State& state, const std::string& name, dynamics::Method method) {
  const auto system = load_system(example(name));
  dynamics::SimulationOptions o;
  o.rel_tol = o.abs_tol = 1e-8;
  o.steps = 200;
  o.kinematics = false;
  double qd = 20.0;
  if (name == "seed003-bicycle") {  // pedalling at 1 Hz [003 Sect. 3.1]
    const auto hip = dynamics::solve_actuator_for_mean_speed(*system, o, {0, 1}, 2 * M_PI, 2 * M_PI);
    o.actuator_scale = {hip.scale, hip.scale, 1.0};
    qd = hip.qd0;
  }
  const dynamics::SteadyRegime s = dynamics::steady_regime(*system, o, qd);
  o.qd0 = s.qd0;
  o.current0 = s.current0;
  o.t_end = 2 * s.period;
  o.method = method;
  dynamics::SimulationResult r = dynamics::simulate(*system, o);  // builds and keeps the reduced tables
  for (auto _ : state) {
    r = dynamics::simulate(*system, o);
    benchmark::DoNotOptimize(r.final_state);
  }
  report(state, r, o.t_end - o.t0);
}

using dynamics::Method;

}  // namespace

BENCHMARK_CAPTURE(equal_accuracy, fourbar_motor_reduced, "seed001-fourbar-motor", Method::reduced, false)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(equal_accuracy, fourbar_motor_reduced_with_tables, "seed001-fourbar-motor", Method::reduced, true)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(equal_accuracy, fourbar_motor_kane, "seed001-fourbar-motor", Method::kane, false)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(equal_accuracy, fourbar_motor_full, "seed001-fourbar-motor", Method::full, false)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(equal_accuracy, fourbar_motor_no_friction_reduced, "seed001-fourbar-motor", Method::reduced, false,
                  false)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(equal_accuracy, fourbar_motor_no_friction_reduced_with_tables, "seed001-fourbar-motor",
                  Method::reduced, true, false)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(equal_accuracy, fourbar_motor_no_friction_kane, "seed001-fourbar-motor", Method::kane, false, false)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(equal_accuracy, fourbar_motor_no_friction_full, "seed001-fourbar-motor", Method::full, false, false)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(equal_accuracy, dwell_reduced, "seed003-dwell", Method::reduced, false)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(equal_accuracy, dwell_reduced_with_tables, "seed003-dwell", Method::reduced, true)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(equal_accuracy, dwell_kane, "seed003-dwell", Method::kane, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(equal_accuracy, dwell_full, "seed003-dwell", Method::full, false)->Unit(benchmark::kMicrosecond);

BENCHMARK_CAPTURE(friction, toggle_press_reduced_on, "toggle-press", Method::reduced, true)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(friction, toggle_press_reduced_off, "toggle-press", Method::reduced, false)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(friction, toggle_press_kane_on, "toggle-press", Method::kane, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(friction, toggle_press_kane_off, "toggle-press", Method::kane, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(friction, toggle_press_full_on, "toggle-press", Method::full, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(friction, toggle_press_full_off, "toggle-press", Method::full, false)->Unit(benchmark::kMicrosecond);

#ifdef LINKDYN_BENCH_MODELS_DIR
// Coupled elastodynamics (docs/elastic-links.md): rigid rod (-1) against 1 and 4 modes.
BENCHMARK_CAPTURE(elastic_rod, kane, Method::kane, true)->Arg(-1)->Arg(1)->Arg(4)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(elastic_rod, full, Method::full, true)->Arg(-1)->Arg(4)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(elastic_rod, kane_no_friction, Method::kane, false)->Arg(-1)->Arg(4)->Unit(benchmark::kMillisecond);

BENCHMARK_CAPTURE(chain, kane, Method::kane)->Arg(2)->Arg(10)->Arg(40)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(chain, full, Method::full)->Arg(2)->Arg(10)->Arg(40)->Unit(benchmark::kMillisecond);
#endif

BENCHMARK_CAPTURE(two_steady_cycles, bicycle_reduced, "seed003-bicycle", Method::reduced)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(two_steady_cycles, bicycle_full, "seed003-bicycle", Method::full)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(two_steady_cycles, dwell_reduced, "seed003-dwell", Method::reduced)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(two_steady_cycles, dwell_full, "seed003-dwell", Method::full)->Unit(benchmark::kMicrosecond);
