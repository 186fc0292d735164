// Fuzz target: `linkdyn check` on a mutated model: the structure and the assembly at the start,
// whose angles, points, transmission angles and loop-closure residual must be finite.
#include "fuzz_support.hpp"
#include "linkdyn/planar/groups/group.hpp"
#include "linkdyn/planar/kinematics.hpp"
#include "linkdyn/planar/sweep.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace linkdyn;
  return fuzz::expect_clear_errors([&] {
    const fuzz::ModelInput in(data, size);
    const planar::Mechanism& m = in.m;
    (void)m.structure_string();
    planar::Workspace ws(m);
    planar::require_start_assembly(m, m.default_grid(), ws);
    planar::check_compound_pins(m, ws);
    for (size_t b = 1; b < m.bodies().size(); ++b)
      fuzz::require_finite(ws.body[b].theta, m.bodies()[b].name + " angle");
    for (const planar::OutputPoint& p : m.output_points()) {
      const Vec2 x = ws.body[p.body].position(p.local);
      fuzz::require_finite(x.x(), p.label + ".x"), fuzz::require_finite(x.y(), p.label + ".y");
    }
    for (const auto& group : m.groups())
      if (const std::optional<double> mu = group->transmission_angle(m, ws))
        fuzz::require_finite(*mu, "a transmission angle");
    fuzz::require_finite(planar::constraint_residual(m, ws), "the loop-closure residual");
  });
}
