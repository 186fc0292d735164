// Elastic links: the eigen-analysis of a 10-element lever per position (the undamped symmetric
// problem alone, and with the gyroscopic quadratic problem), over a cycle of 360 positions of the
// pump example (kinematics, kinetostatics and both eigenproblems), and the steady response.
#include <benchmark/benchmark.h>

#include <string>

#include "linkdyn/flex/link.hpp"
#include "linkdyn/flex/modal.hpp"
#include "linkdyn/io/model_file.hpp"

using namespace linkdyn;

namespace {

const std::string pump_example = std::string(LINKDYN_EXAMPLES_DIR) + "/seed004-pump.yaml";

/// The pump's lever BC' (steel 20 x 6 mm, 0.50 m, examples/seed004-pump.yaml) in 10 elements.
flex::BeamModel lever() {
  return flex::make_beam({210e9, 7850.0, 1.2e-4, 3.6e-10}, 0.50, 10,
                         {flex::BeamSupport::pinned, flex::BeamSupport::sliding});
}

/// `basis` > 0: the gyroscopic problem on that many undamped modes (ModalWorkspace).
void eigen_per_position(benchmark::State& state, bool gyroscopic, int basis) {
  const flex::BeamModel beam = lever();
  flex::ModalWorkspace ws(beam, basis);
  flex::FrameMotion motion;
  motion.end_force = {Vec2(-40.0, 5.0), Vec2(35.0, -3.0)};
  long k = 0;
  for (auto _ : state) {
    motion.omega = 3.0 + 1e-3 * static_cast<double>(k % 360);
    motion.epsilon = 20.0 - 0.1 * static_cast<double>(k++ % 360);
    flex::analyze_modes(beam, motion, ws, gyroscopic);
    benchmark::DoNotOptimize(ws.lambda(0));
  }
  state.SetItemsProcessed(state.iterations());
}

void eigen_cycle_360(benchmark::State& state) {
  const io::Model model = io::read_model(pump_example);
  const planar::Mechanism m = planar::compile(model.mechanism);
  const std::vector<flex::ElasticLink> links = flex::make_elastic_links(m, model.elastic_links);
  planar::TimeGrid grid = m.default_grid();
  grid.steps = 360;
  for (auto _ : state) {
    const flex::EigenCycleResult r = flex::eigen_cycle(m, links, grid, flex::CycleOptions{4, true, {}});
    benchmark::DoNotOptimize(r.t.data());
  }
  state.SetItemsProcessed(state.iterations() * (grid.steps + 1));
}

void periodic_response_cycle(benchmark::State& state) {
  const io::Model model = io::read_model(pump_example);
  const planar::Mechanism m = planar::compile(model.mechanism);
  const std::vector<flex::ElasticLink> links = flex::make_elastic_links(m, model.elastic_links);
  planar::TimeGrid grid = m.default_grid();
  grid.steps = 360;
  for (auto _ : state) {
    const flex::LinkResponse r = flex::link_response(m, links.front(), grid, flex::ResponseOptions{});
    benchmark::DoNotOptimize(r.t.data());
  }
}

}  // namespace

BENCHMARK_CAPTURE(eigen_per_position, lever_10_elements_symmetric, false, 0);
BENCHMARK_CAPTURE(eigen_per_position, lever_10_elements_symmetric_and_gyroscopic, true, 0);
BENCHMARK_CAPTURE(eigen_per_position, lever_10_elements_symmetric_and_gyroscopic_on_8_modes, true, 8);
BENCHMARK(eigen_cycle_360)->Unit(benchmark::kMillisecond);
BENCHMARK(periodic_response_cycle)->Unit(benchmark::kMillisecond);
