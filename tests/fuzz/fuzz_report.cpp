// Fuzz target: `linkdyn report` on a mutated model: the whole HTML page over a few positions,
// the kinetostatics and the direct dynamics (steady cycle or start-up) as the command line runs
// them.
#include "fuzz_support.hpp"
#include "linkdyn/planar/sweep.hpp"
#include "linkdyn/report/report.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace linkdyn;
  return fuzz::expect_clear_errors([&] {
    const fuzz::ModelInput in(data, size);
    const planar::TimeGrid grid = planar::analysis_grid(in.m, fuzz::grid_steps);
    if (report::planar_report_html(in.m, in.model.machine, grid).empty()) fuzz::finding("an empty report");
  });
}
