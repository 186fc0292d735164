// Fuzz target: `linkdyn kinematics` on a mutated model, a few positions streamed in chunks of 3
// rows; every row but a dead point's (rates left empty) finite.
#include "fuzz_support.hpp"
#include "linkdyn/io/result_tables.hpp"
#include "linkdyn/planar/sweep.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace linkdyn;
  return fuzz::expect_clear_errors([&] {
    const fuzz::ModelInput in(data, size);
    const planar::TimeGrid grid = planar::analysis_grid(in.m, fuzz::grid_steps);
    (void)planar::kinematics(in.m, grid, planar::default_singular_tolerance, 3, [&](planar::KinematicsResult& rows) {
      const Table table = io::kinematics_table(in.m, rows);
      const size_t singular = static_cast<size_t>(table.column("singular"));
      fuzz::require_finite(table, 0, singular, [&](size_t r) { return table.at(r, singular) != 2.0; });
    });
  });
}
