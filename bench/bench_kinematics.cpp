// Kinematics per position (positions, velocities, accelerations of every body) of the seed
// four-bar and the Watt six-bar: closed-form dyads against the same mechanisms solved by the
// generic Newton group (the slower, independent method).
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>

#include "linkdyn/io/model_file.hpp"
#include "linkdyn/planar/kinematics.hpp"

using namespace linkdyn;

namespace {

void kinematics_per_position(benchmark::State& state, const std::string& example, bool generic) {
  const planar::Mechanism m =
      io::load_mechanism(std::string(LINKDYN_EXAMPLES_DIR) + "/" + example + ".yaml", {.force_generic = generic});
  planar::Workspace ws(m);
  const double step = 2.0 * M_PI / 3600.0;  // 0.1 degree per position, tracked
  long k = 0;
  for (auto _ : state) {
    ws.q[0] = step * static_cast<double>(k++ % 3600);
    ws.qd[0] = 10.0;
    ws.qdd[0] = 0.0;
    const planar::KinematicStatus status = planar::solve_kinematics(m, ws);
    benchmark::DoNotOptimize(status);
    benchmark::DoNotOptimize(ws.body.back().alpha);
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK_CAPTURE(kinematics_per_position, seed_fourbar_closed_form, "seed001-fourbar", false);
BENCHMARK_CAPTURE(kinematics_per_position, seed_fourbar_generic_newton, "seed001-fourbar", true);
BENCHMARK_CAPTURE(kinematics_per_position, watt_sixbar_closed_form, "watt-sixbar", false);
BENCHMARK_CAPTURE(kinematics_per_position, watt_sixbar_generic_newton, "watt-sixbar", true);
BENCHMARK_CAPTURE(kinematics_per_position, class3_triad_generic, "class3-triad", false);
