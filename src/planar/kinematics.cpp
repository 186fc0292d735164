// Kinematics streamed forward along the structural sequence [001 Fig. 3].
#include "linkdyn/planar/kinematics.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

#include <fmt/format.h>

#include "linkdyn/planar/groups/group.hpp"
#include "linkdyn/planar/constraints.hpp"

namespace linkdyn::planar {

PosePrediction predict_poses(const Workspace& ws) {
  // The drivers moved from the solved state by dq; along their path q(s) = q + qd s + qdd s^2/2
  // the step s that best matches dq (least squares on the velocity; for one driver the root of
  // the quadratic nearest to it).
  PosePrediction p;
  const SolvedState& solved = ws.solved;
  if (solved.level < SolvedState::velocities) return p;
  const bool with_acceleration = solved.level >= SolvedState::accelerations;
  double qd2 = 0.0, qd_dq = 0.0, qdd2 = 0.0, qdd_dq = 0.0;
  for (size_t d = 0; d < ws.q.size(); ++d) {
    const double dq = ws.q[d] - solved.q[d];
    qd2 += solved.qd[d] * solved.qd[d];
    qd_dq += solved.qd[d] * dq;
    if (with_acceleration) qdd2 += solved.qdd[d] * solved.qdd[d], qdd_dq += solved.qdd[d] * dq;
  }
  if (qd2 > 0.0) {
    p.s = qd_dq / qd2;
    p.order = with_acceleration ? 2 : 1;
    if (with_acceleration && ws.q.size() == 1 && solved.qdd[0] != 0.0) {
      // qdd s^2 / 2 + qd s - dq = 0.
      const double a = 0.5 * solved.qdd[0], b = solved.qd[0], c = -(ws.q[0] - solved.q[0]);
      const double disc = b * b - 4.0 * a * c;
      if (disc >= 0.0) {
        const double root = std::sqrt(disc);
        const double s1 = (-b + root) / (2.0 * a), s2 = (-b - root) / (2.0 * a);
        p.s = std::abs(s1 - p.s) <= std::abs(s2 - p.s) ? s1 : s2;
      }
    }
  } else if (with_acceleration && qdd2 > 0.0 && qdd_dq > 0.0) {
    // From rest: dq = qdd s^2 / 2.
    p.s = std::sqrt(2.0 * qdd_dq / qdd2);
    p.order = 2;
  }
  // Taylor's formula holds for small steps only: a step that turns a body by more than about
  // 30 degrees is not predicted (solve_positions walks it in smaller steps).
  for (const BodyState& b : ws.body) {
    const double turn = std::abs(p.s * b.omega) + (p.order >= 2 ? std::abs(0.5 * p.s * p.s * b.alpha) : 0.0);
    p.turn = std::max(p.turn, turn);
  }
  if (!(p.turn <= 0.5)) {
    PosePrediction none;
    none.turn = p.turn;
    return none;
  }
  return p;
}

namespace {

KinematicStatus solve_groups(const Mechanism& m, Workspace& ws) {
  ws.prediction = predict_poses(ws);
  ws.solved.level = SolvedState::nothing;
  const auto& groups = m.groups();
  for (size_t g = 0; g < groups.size(); ++g) {
    if (!groups[g]->solve_position(m, ws, static_cast<int>(g))) {
      return {KinematicFailure::cannot_close, static_cast<int>(g)};
    }
  }
  std::copy(ws.q.begin(), ws.q.end(), ws.solved.q.begin());
  ws.solved.level = SolvedState::positions;
  return {};
}

/// The step from the solved state to ws.q walked along the straight line in the drivers'
/// coordinates in n steps, each predicted from the rates of the last (continuation); the
/// intermediate rates are per step of that line. False where a step fails.
bool walk_in_steps(const Mechanism& m, Workspace& ws, int n) {
  SolvedState& goal = ws.walk_target;  // the drivers' state, kept while ws.q walks to it
  std::copy(ws.q.begin(), ws.q.end(), goal.q.begin());
  std::copy(ws.qd.begin(), ws.qd.end(), goal.qd.begin());
  std::copy(ws.qdd.begin(), ws.qdd.end(), goal.qdd.begin());
  const std::vector<double>&target = goal.q, &start = ws.start_solved.q;
  bool ok = true;
  for (int i = 1; i < n && ok; ++i) {
    for (size_t d = 0; d < target.size(); ++d) {
      ws.q[d] = start[d] + (target[d] - start[d]) * i / n;
      ws.qd[d] = (target[d] - start[d]) / n, ws.qdd[d] = 0.0;  // the path's rate per step
    }
    ok = solve_groups(m, ws).ok() && solve_velocities(m, ws).ok();
    if (ok) solve_accelerations(m, ws);
  }
  std::copy(goal.q.begin(), goal.q.end(), ws.q.begin());
  std::copy(goal.qd.begin(), goal.qd.end(), ws.qd.begin());
  std::copy(goal.qdd.begin(), goal.qdd.end(), ws.qdd.begin());
  return ok;
}

double largest_ambiguity(const Workspace& ws) {
  double worst = 0.0;
  for (const GroupState& g : ws.group) worst = std::max(worst, g.ambiguity);
  return worst;
}

/// Puts back the state a position solve started from.
void restart(Workspace& ws) {
  std::copy(ws.start_body.begin(), ws.start_body.end(), ws.body.begin());
  ws.solved.level = ws.start_solved.level;
  std::copy(ws.start_solved.q.begin(), ws.start_solved.q.end(), ws.solved.q.begin());
  std::copy(ws.start_solved.qd.begin(), ws.start_solved.qd.end(), ws.solved.qd.begin());
  std::copy(ws.start_solved.qdd.begin(), ws.start_solved.qdd.end(), ws.solved.qdd.begin());
}

}  // namespace

KinematicStatus solve_positions(const Mechanism& m, Workspace& ws) {
  assert(check(m, ws) && "the workspace was made for another mechanism");
  // A step whose prediction would turn a body by more than about 30 degrees, or whose choice of
  // assembly mode was unclear (near a bifurcation), is walked again in smaller steps from where
  // it started, each predicted from the last.
  const bool walkable = ws.solved.level >= SolvedState::velocities;
  if (walkable) {
    std::copy(ws.body.begin(), ws.body.end(), ws.start_body.begin());
    ws.start_solved.level = ws.solved.level;
    std::copy(ws.solved.q.begin(), ws.solved.q.end(), ws.start_solved.q.begin());
    std::copy(ws.solved.qd.begin(), ws.solved.qd.end(), ws.start_solved.qd.begin());
    std::copy(ws.solved.qdd.begin(), ws.solved.qdd.end(), ws.start_solved.qdd.begin());
  }
  const PosePrediction p = predict_poses(ws);
  int steps = (walkable && p.order == 0 && p.turn > 0.5 && std::isfinite(p.turn))
                  ? std::min(1000, static_cast<int>(std::ceil(p.turn / 0.25)))
                  : 1;
  KinematicStatus status;
  for (;;) {
    if (steps > 1) {
      restart(ws);
      walk_in_steps(m, ws, steps);
    }
    status = solve_groups(m, ws);
    if (!walkable || !status.ok() || largest_ambiguity(ws) < 0.25 || steps >= 1024) break;
    steps *= 4;
  }
  if (status.ok() || ws.group[status.group].tracked || ws.branch_only) return status;
  // A group assembled from the hints where its closed form degenerates (a rhombus started
  // with its crank on the next pivot) has no unique answer: assemble it at a nearby regular
  // position and come back along the branch.
  const std::vector<double> q = ws.q, qd = ws.qd;
  for (const double step : {1e-4, -1e-4}) {
    ws.reset_tracking();
    ws.q[0] = q[0] + step;
    if (!solve_groups(m, ws).ok()) continue;
    std::fill(ws.qd.begin(), ws.qd.end(), 0.0);
    ws.qd[0] = 1.0;
    const bool rates = solve_velocities(m, ws).ok();
    ws.q = q, ws.qd = qd;
    if (rates && solve_groups(m, ws).ok()) return {};
  }
  ws.q = q, ws.qd = qd;
  ws.reset_tracking();
  return status;
}

KinematicStatus solve_velocities(const Mechanism& m, Workspace& ws) {
  const auto& groups = m.groups();
  for (size_t g = 0; g < groups.size(); ++g) {
    if (ws.group[g].conditioning < ws.singular_tolerance) {
      ws.solved.level = std::min(ws.solved.level, SolvedState::positions);
      return {KinematicFailure::singular, static_cast<int>(g)};
    }
    groups[g]->solve_velocity(m, ws, static_cast<int>(g));
  }
  std::copy(ws.qd.begin(), ws.qd.end(), ws.solved.qd.begin());
  if (ws.solved.level >= SolvedState::positions) ws.solved.level = SolvedState::velocities;
  return {};
}

void solve_accelerations(const Mechanism& m, Workspace& ws) {
  const auto& groups = m.groups();
  for (size_t g = 0; g < groups.size(); ++g) groups[g]->solve_acceleration(m, ws, static_cast<int>(g));
  std::copy(ws.qdd.begin(), ws.qdd.end(), ws.solved.qdd.begin());
  if (ws.solved.level >= SolvedState::velocities) ws.solved.level = SolvedState::accelerations;
}

KinematicStatus solve_kinematics(const Mechanism& m, Workspace& ws) {
  KinematicStatus status = solve_positions(m, ws);
  if (!status.ok()) return status;
  status = solve_velocities(m, ws);
  if (!status.ok()) return status;
  solve_accelerations(m, ws);
  return status;
}

bool near_singular(const Mechanism& m, const Workspace& ws) {
  const auto& groups = m.groups();
  for (size_t g = 0; g < groups.size(); ++g)
    if (ws.group[g].conditioning < std::max(ws.singular_tolerance, groups[g]->near_singular_conditioning()))
      return true;
  return false;
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
                                     m.bodies()[pin.bodies[0]].name, pin.point_names[0], m.bodies()[pin.bodies[k]].name,
                                     pin.point_names[k], gap),
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
