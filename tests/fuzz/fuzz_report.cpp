// Fuzz target: `linkdyn report` on a mutated model: the whole HTML page over a few positions,
// with the kinetostatics and, for a one-DOF machine with actuators, a start-up of 0.02 s (`report
// --start-up --t-end 0.02`; the steady cycle takes seconds under the sanitizers).
#include "fuzz_support.hpp"
#include "linkdyn/planar/sweep.hpp"
#include "linkdyn/report/report.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace linkdyn;
  return fuzz::expect_clear_errors([&] {
    const fuzz::ModelInput in(data, size);
    const planar::TimeGrid grid = planar::analysis_grid(in.m, fuzz::grid_steps);
    report::ReportOptions options;  // the direct dynamics bounded: a short start-up, not the steady cycle
    if (!in.model.machine.actuators.empty() && in.m.dof() == 1)
      options.dynamics = report::DynamicsRun::start_up, options.start_up_duration = 0.02;
    if (report::planar_report_html(in.m, in.model.machine, grid, options).empty()) fuzz::finding("an empty report");
  });
}
