// Fuzz target: `linkdyn kinetostatics` with friction on a mutated model, a few positions; where
// the friction iterations converge every effort, reaction and power is finite.
#include "fuzz_support.hpp"
#include "linkdyn/io/result_tables.hpp"
#include "linkdyn/planar/kinetostatics.hpp"
#include "linkdyn/planar/sweep.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace linkdyn;
  return fuzz::expect_clear_errors([&] {
    const fuzz::ModelInput in(data, size);
    const planar::TimeGrid grid = planar::analysis_grid(in.m, fuzz::grid_steps);
    const planar::KinetostaticsResult r = planar::kinetostatics(in.m, grid, planar::KinetostaticsOptions{});
    const Table table = io::kinetostatics_table(in.m, r);
    const size_t locking = static_cast<size_t>(table.column("self_locking"));
    fuzz::require_finite(table, 0, static_cast<size_t>(table.column("efficiency")),
                         [&](size_t row) { return table.at(row, locking) == 0.0; });
    planar::check_kinetostatics(in.m, r);
  });
}
