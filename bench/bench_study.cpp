// Design studies: variants per second of a Monte Carlo study of the seed four-bar
// (kinetostatics with friction, 360 positions, the metrics of examples/studies/
// fourbar-tolerances.yaml without the kinematics) on 1 and 2 threads, against the bare
// analysis of one variant: the study machinery's overhead per variant.
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>

#include "linkdyn/io/model_file.hpp"
#include "linkdyn/io/result_tables.hpp"
#include "linkdyn/io/study_file.hpp"
#include "linkdyn/planar/kinetostatics.hpp"
#include "linkdyn/planar/sweep.hpp"
#include "linkdyn/study/study.hpp"

using namespace linkdyn;

namespace {

constexpr int variants = 200;

/// The Monte Carlo study of the benchmark, written once beside the binary.
const std::string& study_file() {
  static const std::string path = [] {
    const std::string p = "bench-study-fourbar.yaml";
    std::ofstream(p) << "study: monte_carlo\nmodel: " << LINKDYN_EXAMPLES_DIR << R"(/seed001-fourbar.yaml
samples: )" << variants
                     << R"(
seed: 1
parameters:
  crank_AB:   {path: bodies.crank.points.B.x, tolerance: 0.5 mm}
  coupler_BC: {path: bodies.coupler.points.C.x, tolerance: 0.5 mm}
  rocker_DC:  {path: bodies.rocker.points.C.x, tolerance: 0.5 mm}
  ground_AD:  {path: ground.D.x, tolerance: 0.5 mm}
analysis: {steps: 360, kinetostatics: {friction: true}}
metrics:
  peak_torque:   {column: crank_drive.torque, stat: max_abs}
  rms_torque:    {column: crank_drive.torque, stat: rms}
  friction_loss: {value: kinetostatics.friction_work}
)";
    return p;
  }();
  return path;
}

/// The whole study (its variants, statistics and sensitivities) on `threads` threads.
void study_monte_carlo(benchmark::State& state) {
  const io::StudyFile file = io::load_study(study_file());
  study::ThreadExecutor executor(file.study, *file.model, static_cast<int>(state.range(0)));
  for (auto _ : state) {
    const study::StudyResult r = study::run_study(file.study, *file.model, executor);
    benchmark::DoNotOptimize(r.variants.data());
  }
  state.SetItemsProcessed(state.iterations() * variants);
}

/// One variant without a study: kinetostatics with friction of the compiled four-bar and the
/// three metrics from its table.
void bare_kinetostatics(benchmark::State& state) {
  const planar::Mechanism m = io::load_mechanism(std::string(LINKDYN_EXAMPLES_DIR) + "/seed001-fourbar.yaml");
  const planar::TimeGrid grid = planar::analysis_grid(m, 360);
  for (auto _ : state) {
    const planar::KinetostaticsResult r = planar::kinetostatics(m, grid, {});
    const Table table = io::kinetostatics_table(m, r);
    benchmark::DoNotOptimize(table.values.data());
    benchmark::DoNotOptimize(r.summary.friction_work);
  }
  state.SetItemsProcessed(state.iterations());
}

/// One variant as a script runs it: the variant's model file read and compiled, then analysed.
void bare_load_and_kinetostatics(benchmark::State& state) {
  const std::string path = std::string(LINKDYN_EXAMPLES_DIR) + "/seed001-fourbar.yaml";
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  for (auto _ : state) {
    const planar::Mechanism m = planar::compile(io::parse_model(text.str(), path).mechanism);
    const planar::KinetostaticsResult r = planar::kinetostatics(m, planar::analysis_grid(m, 360), {});
    const Table table = io::kinetostatics_table(m, r);
    benchmark::DoNotOptimize(table.values.data());
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK(study_monte_carlo)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bare_kinetostatics)->Unit(benchmark::kMicrosecond);
BENCHMARK(bare_load_and_kinetostatics)->Unit(benchmark::kMicrosecond);
