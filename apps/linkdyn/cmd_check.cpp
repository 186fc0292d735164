// linkdyn check MODEL: degrees of freedom, structural sequence and the assembly at the start.
#include <fmt/core.h>

#include <cmath>

#include "commands.hpp"
#include "linkdyn/io/model_file.hpp"
#include "linkdyn/planar/groups/group.hpp"
#include "linkdyn/planar/kinematics.hpp"

namespace linkdyn::cli {
namespace {

struct CheckOptions {
  std::string model;
};

void run_check(const CheckOptions& o) {
  const planar::Mechanism m = io::load_mechanism(o.model);
  fmt::print("model: {} ({})\n", m.spec().name, o.model);
  fmt::print("bodies:");
  for (size_t b = 0; b < m.bodies().size(); ++b) fmt::print(" {}={}", b, m.bodies()[b].name);
  int counts[4] = {0, 0, 0, 0};
  for (const planar::Joint& j : m.spec().joints) ++counts[static_cast<int>(j.type())];
  fmt::print("\njoints: {} revolute, {} prismatic, {} gear", counts[0], counts[1], counts[2]);
  if (counts[3] > 0) fmt::print(", {} cam", counts[3]);
  for (const planar::CompoundPin& pin : m.pins())
    fmt::print(", compound {} ({} bodies, {} revolute pairs)", pin.name, pin.bodies.size(), pin.bodies.size() - 1);
  fmt::print("\n");
  fmt::print("degrees of freedom: {} (Gruebler-Kutzbach), drivers: {}\n", m.dof(), m.drivers().size());
  fmt::print("structural sequence: {}\n", m.structure_string());

  const planar::TimeGrid grid = m.default_grid();
  planar::Workspace ws(m);
  require_start_assembly(m, grid, ws);
  planar::check_compound_pins(m, ws);
  fmt::print("assembly at t = {:g} s ({}):\n", grid.t0, driver_values(m, ws.q));
  for (size_t b = 1; b < m.bodies().size(); ++b)
    fmt::print("  {:<16} angle {:>11.5f} deg\n", m.bodies()[b].name, ws.body[b].theta * 180.0 / M_PI);
  for (const planar::OutputPoint& p : m.output_points()) {
    const Vec2 x = ws.body[p.body].position(p.local);
    fmt::print("  {:<16} ({:.6f}, {:.6f}) m\n", p.label, x.x(), x.y());
  }
  for (size_t g = 0; g < m.groups().size(); ++g) {
    const planar::Group& grp = *m.groups()[g];
    if (const std::optional<double> mu = grp.transmission_angle(m, ws))
      fmt::print("  transmission angle at {}: {:.3f} deg\n", m.joints()[grp.label_joint()].name, *mu * 180.0 / M_PI);
  }
  fmt::print("loop-closure residual: {:.3g} m\n", planar::constraint_residual(m, ws));
}

}  // namespace

void add_check_command(CLI::App& app) {
  auto options = std::make_shared<CheckOptions>();
  CLI::App* cmd = app.add_subcommand("check", "Degrees of freedom, structural sequence and assembly at the start");
  cmd->add_option("MODEL", options->model, "Model file (YAML)")->required();
  cmd->callback([options] { run_check(*options); });
}

}  // namespace linkdyn::cli
