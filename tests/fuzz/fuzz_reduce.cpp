// Fuzz target: `linkdyn reduce` on a mutated model: the reduced parameters at a few points, each
// finite.
#include "fuzz_support.hpp"
#include "linkdyn/dynamics/reduced.hpp"
#include "linkdyn/planar/sweep.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace linkdyn;
  return fuzz::expect_clear_errors([&] {
    const fuzz::ModelInput in(data, size);
    planar::require_start_assembly(in.m, in.m.default_grid());
    const dynamics::ReducedTable t =
        dynamics::tabulate_reduced_parameters(in.m, fuzz::grid_steps, in.model.machine.constraint_actions);
    const Table table = dynamics::reduced_table(in.m, t);
    fuzz::require_finite(table, 0, table.width());
  });
}
