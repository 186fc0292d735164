// Fuzz target: `linkdyn simulate` on a mutated model for a short time, by the method the build
// names (LINKDYN_FUZZ_METHOD: reduced, kane or full; built as fuzz_simulate_<method>), elastic
// links coupled as the command line couples them. The rows computed, also those of a run that
// stopped, hold finite values up to the kinematics columns.
#include "fuzz_support.hpp"
#include "linkdyn/dynamics/simulate.hpp"
#include "linkdyn/io/result_tables.hpp"
#include "linkdyn/planar/sweep.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace linkdyn;
  return fuzz::expect_clear_errors([&] {
    const fuzz::ModelInput in(data, size);
    planar::require_start_assembly(in.m, in.m.default_grid());
    dynamics::DynamicSystem system(in.m, in.model.machine);
    dynamics::SimulationOptions o;
    o.method = dynamics::Method::LINKDYN_FUZZ_METHOD;
    if (o.method != dynamics::Method::reduced && !in.model.elastic_links.empty())
      dynamics::couple_elastic_links(system, in.model.elastic_links, 1);
    o.t_end = 0.02, o.steps = fuzz::grid_steps, o.table_points = 16;
    o.rel_tol = 1e-8, o.abs_tol = 1e-10;
    o.max_integrator_steps = 100, o.max_events = 50;
    o.reactions = true;
    const dynamics::SimulationResult r = dynamics::simulate(system, o);
    const Table table = io::simulation_table(system, r);
    fuzz::require_finite(table, 0, static_cast<size_t>(table.column("stuck")));
    dynamics::throw_if_stopped(r);
  });
}
