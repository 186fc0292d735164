// Kinetostatics with Coulomb friction by successive approximations [001].
#include "linkdyn/planar/kinetostatics.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "linkdyn/planar/friction.hpp"
#include "linkdyn/planar/groups/group.hpp"
#include "linkdyn/planar/singular.hpp"

namespace linkdyn::planar {
namespace {

double sign(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }

/// D'Alembert's inertial load of a body: -m a_G at the centre of mass and -J alpha.
Wrench inertial_load(const Body& body, const BodyState& b) {
  const Vec2 F = -body.mass * b.acceleration(body.com);
  return {F.x(), F.y(), cross(b.arm(body.com), F) - body.inertia * b.alpha};
}

/// Largest change of any reaction (force components, normal force, gear torque) in N.
/// The largest change of a reaction between two approximations; infinite when a reaction is
/// not finite (std::max would drop a NaN and report convergence).
double reaction_change(const Workspace& ws) {
  double change = 0.0;
  for (size_t k = 0; k < ws.reaction.size(); ++k) {
    const JointReaction &a = ws.reaction[k], &b = ws.reaction_previous[k];
    const double d = std::max((a.force - b.force).lpNorm<Eigen::Infinity>(), std::abs(a.moment - b.moment));
    if (!std::isfinite(d) || !a.force.allFinite() || !std::isfinite(a.moment)) return INFINITY;
    change = std::max(change, d);
  }
  return change;
}

}  // namespace

double sliding_speed(const Joint& j, const Workspace& ws) {
  const BodyState &g = ws.body[j.body[0]], &s = ws.body[j.body[1]];
  const Vec2 v_guide = carried_velocity(g, s.position(j.point[1]));
  return g.arm(j.as<PrismaticPair>().guide_dir).dot(s.velocity(j.point[1]) - v_guide);
}

double sliding_acceleration(const Joint& j, const Workspace& ws) {
  // v = u . (v_P - v_G(P)), u the guide's direction in the first body, P the slider point:
  // dv/dt = u' . (v_P - v_G) + u . (a_P - a_G(P) - omega_g x (v_P - v_G)) with u' = omega_g x u.
  const BodyState &g = ws.body[j.body[0]], &s = ws.body[j.body[1]];
  const Vec2 u = g.arm(j.as<PrismaticPair>().guide_dir);
  const Vec2 P = s.position(j.point[1]);
  const Vec2 v_rel = s.velocity(j.point[1]) - carried_velocity(g, P);
  const Vec2 a_rel = s.acceleration(j.point[1]) - carried_acceleration(g, P) - g.omega * perp(v_rel);
  return (g.omega * perp(u)).dot(v_rel) + u.dot(a_rel);
}

void add_guide_force(const Joint& j, const Workspace& ws, double force, std::vector<Wrench>& loads) {
  add_pair_force(j, ws, ws.body[j.body[1]].position(j.point[1]),
                 force * ws.body[j.body[0]].arm(j.as<PrismaticPair>().guide_dir), loads);
}

void add_pair_force(const Joint& j, const Workspace& ws, const Vec2& point, const Vec2& force,
                    std::vector<Wrench>& loads) {
  for (int side = 0; side < 2; ++side) {
    const BodyState& b = ws.body[j.body[side]];
    const Vec2 f = side == 1 ? force : Vec2(-force);
    loads[j.body[side]] += Wrench(f.x(), f.y(), cross(Vec2(point - b.r), f));
  }
}

void solve_reactions(const Mechanism& m, Workspace& ws) {
  for (size_t b = 1; b < m.bodies().size(); ++b)
    ws.load[b] = ws.applied[b] + inertial_load(m.bodies()[b], ws.body[b]) + ws.friction_load[b];
  ws.load[0].setZero();
  const auto& groups = m.groups();
  for (size_t g = groups.size(); g-- > 0;) groups[g]->solve_reactions(m, ws, static_cast<int>(g));
}

namespace {
/// The power the seals of the cylinder in pair `joint` lost in the last walk (>= 0), or 0.
double seal_power(const Mechanism& m, const Workspace& ws, int joint) {
  for (size_t k = 0; k < m.cylinders().size(); ++k)
    if (m.cylinders()[k].slide_joint == joint) return -ws.seal_effort[k] * sliding_speed(m.joints()[joint], ws);
  return 0.0;
}
bool has_seal_friction(const Mechanism& m) {
  return std::any_of(m.cylinders().begin(), m.cylinders().end(),
                     [](const Cylinder& c) { return c.seal_friction > 0.0; });
}
}  // namespace

void update_friction(const Mechanism& m, Workspace& ws) {
  // Each bearing: -sgn(speed) f' r |F| or -sgn(speed) f N_p [001 Eqs. 9-11, 16].
  for (Wrench& w : ws.friction_load) w.setZero();
  for (size_t k = 0; k < m.bearings().size(); ++k) {
    const Bearing& b = m.bearings()[k];
    const double effort = -sign(bearing_speed(m, ws, b)) * b.coefficient * bearing_load(m, ws, b);
    ws.bearing_effort[k] = effort;
    add_bearing_effort(m, ws, b, effort, ws.friction_load);
  }
  // Each cylinder's seals: the Coulomb force -sgn(v) F0 along it on the rod, v its rate of length.
  for (size_t k = 0; k < m.cylinders().size(); ++k) {
    const Cylinder& c = m.cylinders()[k];
    const Joint& slide = m.joints()[c.slide_joint];
    ws.seal_effort[k] = -sign(sliding_speed(slide, ws)) * c.seal_friction;
    if (c.seal_friction > 0.0) add_guide_force(slide, ws, ws.seal_effort[k], ws.friction_load);
  }
  ws.friction_load[0].setZero();
}

Vec2 pin_force(const Mechanism& m, const Workspace& ws, int pin, int member) {
  // The pair force on body[1] is the stored reaction, on body[0] its opposite.
  const int body = m.pins()[pin].bodies[member];
  Vec2 force = Vec2::Zero();
  for (int k : m.pin_pairs(pin)) {
    const Joint& j = m.joints()[k];
    if (j.body[1] == body)
      force += ws.reaction[k].force;
    else if (j.body[0] == body)
      force -= ws.reaction[k].force;
  }
  return force;
}

double pin_friction_power(const Mechanism& m, const Workspace& ws, int pin) {
  double power = 0.0;
  for (int k : m.pin_bearings(pin)) power -= ws.bearing_effort[k] * bearing_speed(m, ws, m.bearings()[k]);
  return power;
}

double total_friction_power(const Mechanism& m, const Workspace& ws) {
  double power = 0.0;
  for (size_t k = 0; k < m.bearings().size(); ++k)
    power -= ws.bearing_effort[k] * bearing_speed(m, ws, m.bearings()[k]);
  for (const Cylinder& c : m.cylinders()) power += seal_power(m, ws, c.slide_joint);
  return power;
}

double friction_power(const Mechanism& m, const Workspace& ws, int joint) {
  // Power of the friction applied in the last walk, as lost (>= 0).
  double power = 0.0;
  auto in_joint = overloaded{[](const Bearing::PinMember&) { return false; },
                             [joint](const auto& pair) { return pair.joint == joint; }};
  for (size_t k = 0; k < m.bearings().size(); ++k)
    if (std::visit(in_joint, m.bearings()[k].kind))
      power -= ws.bearing_effort[k] * bearing_speed(m, ws, m.bearings()[k]);
  return power + seal_power(m, ws, joint);
}

double driver_power(const Mechanism& m, const Workspace& ws) {
  double power = 0.0;
  for (size_t d = 0; d < m.drivers().size(); ++d) power += ws.effort[d] * ws.qd[d];
  return power;
}

KinetostaticsStatus solve_kinetostatics(const Mechanism& m, Workspace& ws, double t,
                                        const KinetostaticsOptions& options) {
  assert(check(m, ws) && "the workspace was made for another mechanism");
  evaluate_loads(m, ws, t);
  for (Wrench& w : ws.friction_load) w.setZero();
  std::fill(ws.bearing_effort.begin(), ws.bearing_effort.end(), 0.0);
  std::fill(ws.seal_effort.begin(), ws.seal_effort.end(), 0.0);
  solve_reactions(m, ws);
  ws.effort_frictionless = ws.effort;
  return solve_friction(m, ws, options);
}

KinetostaticsStatus solve_friction(const Mechanism& m, Workspace& ws, const KinetostaticsOptions& options) {
  KinetostaticsStatus status;
  if (!options.friction || (m.bearings().empty() && !has_seal_friction(m))) return status;
  // Successive approximations [001 Eqs. 12-13]: friction from the last reactions, re-solve.
  double change = 0.0, last_change = 0.0;
  status.converged = false;
  for (int it = 1; it <= options.max_iterations; ++it) {
    ws.reaction_previous = ws.reaction;
    update_friction(m, ws);
    solve_reactions(m, ws);
    change = reaction_change(ws);
    status.iterations = it;
    if (it > 1 && last_change > 0.0) status.contraction = change / last_change;
    last_change = change;
    if (change < options.tolerance) {
      status.converged = true;
      break;
    }
    if (!std::isfinite(change)) break;  // diverged
  }
  status.self_locking = !status.converged;
  return status;
}

}  // namespace linkdyn::planar

namespace linkdyn::planar {

bool solve_kinetostatics_as_limits(const Mechanism& m, Workspace& ws, double t, const KinetostaticsOptions& options,
                                   SingularLimit& limits, KinetostaticsStatus& status) {
  // Per joint: force x, y, moment, normal, lambda 0, 1; per driver: effort with and without
  // friction; per bearing: friction effort; all forces (moments divided by the mechanism's
  // size), one kind.
  const size_t nj = m.joints().size(), nd = m.drivers().size(), nf = m.bearings().size();
  const double L = limits.length_scale();
  std::vector<double> scale;
  scale.reserve(6 * nj + 2 * nd + nf);
  for (const Joint& j : m.joints()) {
    const double lambda0 = j.is<RevolutePair>() || j.is<CamPair>() ? 1.0 : L;  // a force, or a moment
    scale.insert(scale.end(), {1.0, 1.0, L, 1.0, lambda0, 1.0});
  }
  for (const Driver& d : m.drivers()) {
    const double s = d.type == DriverType::rotational ? L : 1.0;
    scale.insert(scale.end(), {s, s});
  }
  for (const Bearing& b : m.bearings()) scale.push_back(bearing_slides(b) ? 1.0 : L);
  const std::vector<int> kinds(scale.size(), 0);
  int iterations = 0;
  bool locking = false;
  Eigen::VectorXd limit;
  const bool ok = limits.evaluate(
      m, ws, kinds,
      [&](Workspace& s, Eigen::Ref<Eigen::VectorXd> out) {
        const KinetostaticsStatus st = solve_kinetostatics(m, s, t, options);
        iterations = std::max(iterations, st.iterations);
        locking = locking || st.self_locking;
        for (size_t k = 0; k < nj; ++k) {
          const JointReaction& r = s.reaction[k];
          out.segment<6>(6 * k) << r.force.x(), r.force.y(), r.moment, r.normal, r.lambda(0), r.lambda(1);
        }
        for (size_t d = 0; d < nd; ++d) out.segment<2>(6 * nj + 2 * d) << s.effort[d], s.effort_frictionless[d];
        for (size_t k = 0; k < nf; ++k) out(static_cast<Eigen::Index>(6 * nj + 2 * nd + k)) = s.bearing_effort[k];
        for (size_t c = 0; c < scale.size(); ++c) out(static_cast<Eigen::Index>(c)) /= scale[c];
      },
      limit);
  if (!ok) return false;
  for (size_t c = 0; c < scale.size(); ++c) limit(static_cast<Eigen::Index>(c)) *= scale[c];
  for (size_t k = 0; k < nj; ++k) {
    JointReaction& r = ws.reaction[k];
    r.force = limit.segment<2>(6 * k);
    r.moment = limit(6 * k + 2), r.normal = limit(6 * k + 3);
    r.lambda = limit.segment<2>(6 * k + 4);
  }
  for (size_t d = 0; d < nd; ++d)
    ws.effort[d] = limit(6 * nj + 2 * d), ws.effort_frictionless[d] = limit(6 * nj + 2 * d + 1);
  for (size_t k = 0; k < nf; ++k) ws.bearing_effort[k] = limit(static_cast<Eigen::Index>(6 * nj + 2 * nd + k));
  status = {};
  status.iterations = iterations;
  status.self_locking = locking;
  status.converged = !locking;
  return true;
}

}  // namespace linkdyn::planar
