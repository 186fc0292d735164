// Reduced parameters by Eksergian's method [003].
#include "linkdyn/dynamics/reduced.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <variant>

namespace linkdyn::dynamics {

using planar::Mechanism;
using planar::Workspace;

namespace {

void require_one_dof(const Mechanism& m) {
  if (m.drivers().size() != 1)
    throw InputError(
        m.spec().where, "drivers",
        fmt::format("reduced parameters need one degree of freedom, and the mechanism has {}", m.drivers().size()),
        "use a mechanism with one driver");
}

/// Kinematics at the current position with the given driver rates.
void kinematics_at(const Mechanism& m, Workspace& ws, double qd, double qdd) {
  ws.qd[0] = qd;
  ws.qdd[0] = qdd;
  const planar::KinematicStatus s = planar::solve_velocities(m, ws);
  if (!s.ok()) throw AnalysisError(planar::describe(m, ws, s));
  planar::solve_accelerations(m, ws);
}

/// Frictionless walk with the inertial loads alone.
void inertial_walk(const Mechanism& m, Workspace& ws) {
  for (auto& w : ws.applied) w.setZero();
  for (auto& w : ws.friction_load) w.setZero();
  planar::solve_reactions(m, ws);
}

}  // namespace

ReducedInertia reduced_inertia_from_energy(const Mechanism& m, Workspace& ws) {
  require_one_dof(m);
  kinematics_at(m, ws, 1.0, 0.0);
  ReducedInertia r;
  for (size_t b = 1; b < m.bodies().size(); ++b) {
    const planar::Body& body = m.bodies()[b];
    const planar::BodyState& s = ws.body[b];
    const Vec2 v = s.velocity(body.com), a = s.acceleration(body.com);
    r.m += body.mass * v.squaredNorm() + body.inertia * s.omega * s.omega;
    r.dm += 2.0 * (body.mass * v.dot(a) + body.inertia * s.omega * s.alpha);
  }
  return r;
}

double constraint_action(const Mechanism&, const Workspace& ws, const ConstraintAction& a) {
  const planar::JointReaction& r = ws.reaction[a.joint];
  return std::visit(
      [&](const auto& component) {
        using Component = std::decay_t<decltype(component)>;
        if constexpr (std::is_same_v<Component, AlongPoints>) {
          const planar::BodyState& b = ws.body[component.through[0].body];
          const Vec2 d = b.arm(component.through[1].local - component.through[0].local);
          return r.force.dot(d) / d.norm();
        } else if constexpr (std::is_same_v<Component, AlongDirection>) {
          return r.force.dot(component.direction);
        } else if constexpr (std::is_same_v<Component, NormalForce>) {
          return r.normal;
        } else {
          return r.moment;
        }
      },
      a.component);
}

KinetostaticReduction reduced_parameters_by_kinetostatics(const Mechanism& m, Workspace& ws,
                                                          const std::vector<ConstraintAction>& actions) {
  require_one_dof(m);
  KinetostaticReduction out;
  out.me1.resize(actions.size());
  out.me1q.resize(actions.size());
  kinematics_at(m, ws, 1.0, 0.0);  // (i) m' / 2 and m_e1q
  inertial_walk(m, ws);
  out.inertia.dm = 2.0 * ws.effort[0];
  for (size_t k = 0; k < actions.size(); ++k) out.me1q[k] = constraint_action(m, ws, actions[k]);
  kinematics_at(m, ws, 0.0, 1.0);  // (ii) m and m_e1
  inertial_walk(m, ws);
  out.inertia.m = ws.effort[0];
  for (size_t k = 0; k < actions.size(); ++k) out.me1[k] = constraint_action(m, ws, actions[k]);
  return out;
}

double reduced_force(const Mechanism& m, Workspace& ws, double t) {
  require_one_dof(m);
  const double qd = ws.qd[0];
  kinematics_at(m, ws, qd, 0.0);
  planar::evaluate_loads(m, ws, t);
  kinematics_at(m, ws, 1.0, 0.0);  // velocity coefficients
  double F = 0.0;
  for (size_t b = 1; b < m.bodies().size(); ++b) {
    const planar::BodyState& s = ws.body[b];
    F += ws.applied[b].dot(planar::Wrench(s.v.x(), s.v.y(), s.omega));
  }
  ws.qd[0] = qd;
  return F;
}

ReducedTable tabulate_reduced_parameters(const Mechanism& m, int points, const std::vector<ConstraintAction>& actions) {
  require_one_dof(m);
  const planar::TimeGrid grid = m.default_grid();
  const planar::Driver& drv = m.drivers()[0];
  const double q_start = planar::evaluate(drv.law, grid.t0).q, q_end = planar::evaluate(drv.law, grid.t_end).q;
  ReducedTable t;
  // A crank (a rotational driver whose law turns a full turn, or stands still) is tabulated over
  // one periodic turn; otherwise the law's range.
  t.periodic = drv.type == planar::DriverType::rotational &&
               (std::abs(q_end - q_start) >= 2.0 * M_PI * (1.0 - 1e-12) || q_end == q_start);
  const double span = t.periodic ? (q_end < q_start ? -2.0 * M_PI : 2.0 * M_PI) : q_end - q_start;
  if (span == 0.0)
    throw InputError(drv.where, "driver '" + drv.name + "'", "its motion law does not move, so it gives no range of q",
                     "give a law that covers the range of the coordinate");
  const auto n_actions = actions.size();
  for (const ConstraintAction& a : actions) t.actions.push_back(a.name);
  t.me1.assign(n_actions, {});
  t.me1q.assign(n_actions, {});
  Workspace ws(m);
  for (int k = 0; k <= points; ++k) {
    const double q = q_start + span * k / points;
    ws.q[0] = q;
    const planar::KinematicStatus s = planar::solve_positions(m, ws);
    if (!s.ok()) throw AnalysisError(planar::describe(m, ws, s));
    const ReducedInertia energy = reduced_inertia_from_energy(m, ws);
    const KinetostaticReduction kin = reduced_parameters_by_kinetostatics(m, ws, actions);
    t.q.push_back(q);
    t.m.push_back(energy.m);
    t.dm.push_back(energy.dm);
    t.m_kinetostatic.push_back(kin.inertia.m);
    t.dm_kinetostatic.push_back(kin.inertia.dm);
    for (size_t a = 0; a < n_actions; ++a) {
      t.me1[a].push_back(kin.me1[a]);
      t.me1q[a].push_back(kin.me1q[a]);
    }
  }
  return t;
}

Table reduced_table(const Mechanism& m, const ReducedTable& t) {
  const bool rot = m.drivers()[0].type == planar::DriverType::rotational;
  const std::string inertia = rot ? "kg m^2" : "kg", per_q = rot ? "kg m^2/rad" : "kg/m";
  Table table;
  table.add_column("q", rot ? "rad" : "m");
  table.add_column("m", inertia);
  table.add_column("dm_dq", per_q);
  table.add_column("m_kinetostatic", inertia);
  table.add_column("dm_dq_kinetostatic", per_q);
  for (const std::string& a : t.actions) {
    table.add_column(a + ".me1", "");
    table.add_column(a + ".me1q", "");
  }
  for (size_t k = 0; k < t.q.size(); ++k) {
    table.values.insert(table.values.end(), {t.q[k], t.m[k], t.dm[k], t.m_kinetostatic[k], t.dm_kinetostatic[k]});
    for (size_t a = 0; a < t.me1.size(); ++a) table.values.insert(table.values.end(), {t.me1[a][k], t.me1q[a][k]});
  }
  return table;
}

}  // namespace linkdyn::dynamics
