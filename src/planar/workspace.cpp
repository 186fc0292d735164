// The workspace of a mechanism: its buffers sized once, and the check that they fit it.
#include "linkdyn/planar/workspace.hpp"

#include <cmath>

#include "linkdyn/planar/groups/group.hpp"
#include "linkdyn/planar/loads.hpp"

namespace linkdyn::planar {

void BodyState::set_angle(double angle) {
  theta = angle;
  c = std::cos(angle);
  s = std::sin(angle);
}

void BodyState::set_rotation(const Vec2& rotation, double near) {
  c = rotation.x();
  s = rotation.y();
  theta = near + wrap_angle(std::atan2(s, c) - near);
}

Workspace::Workspace(const Mechanism& mechanism)
    : q(mechanism.drivers().size(), 0.0),
      qd(mechanism.drivers().size(), 0.0),
      qdd(mechanism.drivers().size(), 0.0),
      body(mechanism.bodies().size()),
      group(mechanism.groups().size()),
      scratch(mechanism.groups().size()),
      applied(mechanism.bodies().size(), Wrench::Zero()),
      load_segment(mechanism.spec().loads.size(), no_segment),
      cam_piece(mechanism.cam_pairs().size(), -1),
      friction_load(mechanism.bodies().size(), Wrench::Zero()),
      bearing_effort(mechanism.bearings().size(), 0.0),
      seal_effort(mechanism.cylinders().size(), 0.0),
      load(mechanism.bodies().size(), Wrench::Zero()),
      reaction(mechanism.joints().size()),
      reaction_previous(mechanism.joints().size()),
      effort(mechanism.drivers().size(), 0.0),
      effort_frictionless(mechanism.drivers().size(), 0.0) {
  solved.q.assign(q.size(), 0.0);
  solved.qd.assign(q.size(), 0.0);
  solved.qdd.assign(q.size(), 0.0);
  start_solved = solved;
  walk_target = solved;
  start_body = body;
  for (size_t g = 0; g < mechanism.groups().size(); ++g) {
    const auto n = static_cast<Eigen::Index>(mechanism.groups()[g]->newton_unknowns());
    if (n > 0) {
      scratch[g].jacobian.setZero(n, n);
      scratch[g].residual.setZero(n);
      scratch[g].step.setZero(n);
      scratch[g].unknowns.setZero(n);
      scratch[g].lu = Eigen::PartialPivLU<Eigen::MatrixXd>(n);
      scratch[g].cod = Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(n, n);
    }
  }
}

bool check(const Mechanism& m, const Workspace& ws) {
  const size_t nd = m.drivers().size(), nb = m.bodies().size(), ng = m.groups().size(), nj = m.joints().size();
  const auto sized = [](const auto& v, size_t n) { return v.size() == n; };
  bool ok = sized(ws.q, nd) && sized(ws.qd, nd) && sized(ws.qdd, nd) && sized(ws.effort, nd) &&
            sized(ws.effort_frictionless, nd) && sized(ws.solved.q, nd) && sized(ws.start_solved.q, nd) &&
            sized(ws.walk_target.q, nd) && sized(ws.body, nb) && sized(ws.start_body, nb) && sized(ws.applied, nb) &&
            sized(ws.friction_load, nb) && sized(ws.load, nb) && sized(ws.group, ng) && sized(ws.scratch, ng) &&
            sized(ws.reaction, nj) && sized(ws.reaction_previous, nj) &&
            sized(ws.bearing_effort, m.bearings().size()) && sized(ws.seal_effort, m.cylinders().size()) &&
            sized(ws.load_segment, m.spec().loads.size()) && sized(ws.cam_piece, m.cam_pairs().size());
  for (size_t g = 0; ok && g < ng; ++g)
    ok = ws.scratch[g].residual.size() == static_cast<Eigen::Index>(m.groups()[g]->newton_unknowns());
  return ok;
}

void Workspace::reset_tracking() {
  for (auto& g : group) g.tracked = false;
  solved.level = SolvedState::nothing;
}

}  // namespace linkdyn::planar
