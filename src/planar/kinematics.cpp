// Kinematics streamed forward along the structural sequence [001 Fig. 3].
#include "linkdyn/planar/kinematics.hpp"

#include <cmath>

#include <fmt/format.h>

#include "linkdyn/planar/groups/group.hpp"
#include "planar/constraints.hpp"

namespace linkdyn::planar {

KinematicStatus solve_positions(const Mechanism& m, Workspace& ws) {
  const auto& groups = m.groups();
  for (size_t g = 0; g < groups.size(); ++g) {
    if (!groups[g]->solve_position(m, ws, static_cast<int>(g))) {
      return {KinematicFailure::cannot_close, static_cast<int>(g)};
    }
  }
  return {};
}

KinematicStatus solve_velocities(const Mechanism& m, Workspace& ws) {
  const auto& groups = m.groups();
  for (size_t g = 0; g < groups.size(); ++g) {
    if (ws.group[g].conditioning < ws.singular_tolerance) {
      return {KinematicFailure::singular, static_cast<int>(g)};
    }
    groups[g]->solve_velocity(m, ws, static_cast<int>(g));
  }
  return {};
}

void solve_accelerations(const Mechanism& m, Workspace& ws) {
  const auto& groups = m.groups();
  for (size_t g = 0; g < groups.size(); ++g) groups[g]->solve_acceleration(m, ws, static_cast<int>(g));
}

KinematicStatus solve_kinematics(const Mechanism& m, Workspace& ws) {
  KinematicStatus status = solve_positions(m, ws);
  if (!status.ok()) return status;
  status = solve_velocities(m, ws);
  if (!status.ok()) return status;
  solve_accelerations(m, ws);
  return status;
}

double constraint_residual(const Mechanism& m, const Workspace& ws) {
  JointRows rows;
  double worst = 0.0;
  for (const Joint& j : m.joints()) {
    joint_rows(j, ws, false, rows);
    for (int r = 0; r < rows.count; ++r) worst = std::max(worst, std::abs(rows.phi(r)));
  }
  return worst;
}

void check_compound_pins(const Mechanism& m, const Workspace& ws) {
  if (m.pins().empty()) return;
  double size = 0.0;  // the mechanism's size: its largest point coordinate
  for (const Body& b : m.bodies())
    for (const NamedPoint& p : b.points) size = std::max(size, p.local.norm());
  const double tolerance = 1e-9 * std::max(size, 1e-3);
  for (const CompoundPin& pin : m.pins()) {
    const Vec2 first = ws.body[pin.bodies[0]].position(pin.points[0]);
    for (size_t k = 1; k < pin.bodies.size(); ++k) {
      const double gap = (ws.body[pin.bodies[k]].position(pin.points[k]) - first).norm();
      if (!(gap <= tolerance))
        throw InputError(pin.where, "joint '" + pin.name + "'",
                         fmt::format("its points {}.{} and {}.{} do not coincide at the assembly ({:.3g} m apart)",
                                     m.bodies()[pin.bodies[0]].name, pin.point_names[0],
                                     m.bodies()[pin.bodies[k]].name, pin.point_names[k], gap),
                         "give each body's point at the pin so that they meet when the mechanism is assembled");
    }
  }
}

std::string describe(const Mechanism& m, const Workspace& ws, const KinematicStatus& status) {
  if (status.ok()) return "ok";
  std::string where;
  for (size_t d = 0; d < m.drivers().size(); ++d) {
    const Driver& drv = m.drivers()[d];
    if (!where.empty()) where += ", ";
    where += drv.type == DriverType::rotational
                 ? fmt::format("{} = {:.6g} rad ({:.4f} deg)", drv.name, ws.q[d], ws.q[d] * 180.0 / M_PI)
                 : fmt::format("{} = {:.6g} m", drv.name, ws.q[d]);
  }
  const Group& g = *m.groups()[status.group];
  std::string bodies;
  for (int b : g.bodies()) bodies += (bodies.empty() ? "" : ", ") + m.bodies()[b].name;
  const char* what = status.failure == KinematicFailure::cannot_close
                         ? "cannot close (the mechanism does not assemble)"
                         : "is at a singular (dead) position: velocities are not defined";
  return fmt::format("group {} ({}) {} at {}", g.type(), bodies, what, where);
}

}  // namespace linkdyn::planar
