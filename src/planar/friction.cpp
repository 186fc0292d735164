// Coulomb friction in the pairs' bearings [001 Eqs. 8-11].
#include "linkdyn/planar/friction.hpp"

#include <cmath>

#include "linkdyn/planar/kinetostatics.hpp"

namespace linkdyn::planar {

std::vector<Bearing> find_bearings(const Mechanism& m) {
  std::vector<Bearing> out;
  for (size_t k = 0; k < m.spec().joints.size(); ++k) {
    const Joint& j = m.joints()[k];
    if (!(j.friction > 0.0) || j.type == JointType::gear) continue;
    if (j.type == JointType::revolute && !(j.pin_radius > 0.0)) continue;
    Bearing b;
    b.kind = j.type == JointType::revolute ? Bearing::revolute : Bearing::prismatic;
    b.joint = static_cast<int>(k);
    b.body[0] = j.body[0], b.body[1] = j.body[1];
    b.coefficient = j.friction;
    b.static_coefficient = std::max(j.static_friction, j.friction);
    b.radius = j.pin_radius;
    b.label = j.name;
    out.push_back(b);
  }
  for (size_t p = 0; p < m.pins().size(); ++p) {
    const CompoundPin& pin = m.pins()[p];
    if (!(pin.friction > 0.0 && pin.pin_radius > 0.0)) continue;
    for (size_t k = 1; k < pin.bodies.size(); ++k) {
      Bearing b;
      b.kind = Bearing::pin_member;
      b.pin = static_cast<int>(p), b.member = static_cast<int>(k);
      b.body[0] = pin.bodies[0], b.body[1] = pin.bodies[k];
      b.coefficient = pin.friction;
      b.static_coefficient = std::max(pin.static_friction, pin.friction);
      b.radius = pin.pin_radius;
      b.label = pin.name + "." + m.bodies()[pin.bodies[k]].name;
      out.push_back(b);
    }
  }
  return out;
}

double bearing_speed(const Mechanism& m, const Workspace& ws, const Bearing& b) {
  if (b.kind != Bearing::prismatic) return ws.body[b.body[1]].omega - ws.body[b.body[0]].omega;
  Vec2 point;
  return sliding_speed(m.joints()[b.joint], ws, point);
}

double bearing_acceleration(const Mechanism& m, const Workspace& ws, const Bearing& b) {
  if (b.kind != Bearing::prismatic) return ws.body[b.body[1]].alpha - ws.body[b.body[0]].alpha;
  // v = u . (v_P - v_G(P)), u the guide's direction in the first body, P the slider point:
  // dv/dt = u' . (v_P - v_G) + u . (a_P - a_G(P) - omega_g x (v_P - v_G)) with u' = omega_g x u.
  const Joint& j = m.joints()[b.joint];
  const BodyState &g = ws.body[j.body[0]], &s = ws.body[j.body[1]];
  const Vec2 u = g.arm(j.guide_dir);
  const Vec2 P = s.position(j.point[1]), arm = P - g.r;
  const Vec2 v_rel = s.velocity(j.point[1]) - (g.v + g.omega * perp(arm));
  const Vec2 a_guide = g.a + g.alpha * perp(arm) - g.omega * g.omega * arm;
  const Vec2 a_rel = s.acceleration(j.point[1]) - a_guide - g.omega * perp(v_rel);
  return (g.omega * perp(u)).dot(v_rel) + u.dot(a_rel);
}

int slider_normals(const Joint& j, double normal, double moment, double normals[2]) {
  if (j.slider_length <= 0.0) {
    normals[0] = normal;
    return 1;
  }
  // N1 + N2 = N, (b / 2)(N2 - N1) = M.
  const double half = 0.5 * normal, shift = moment / j.slider_length;
  normals[0] = half - shift, normals[1] = half + shift;
  return 2;
}

int bearing_normals(const Mechanism& m, const Workspace& ws, const Bearing& b, double normals[2]) {
  if (b.kind != Bearing::prismatic) return 0;
  const JointReaction& r = ws.reaction[b.joint];
  return slider_normals(m.joints()[b.joint], r.normal, r.moment, normals);
}

double bearing_load(const Mechanism& m, const Workspace& ws, const Bearing& b) {
  switch (b.kind) {
    case Bearing::revolute: return b.radius * ws.reaction[b.joint].force.norm();
    case Bearing::pin_member: return b.radius * pin_force(m, ws, b.pin, b.member).norm();
    case Bearing::prismatic: {
      double normals[2];
      const int count = bearing_normals(m, ws, b, normals);
      double load = 0.0;
      for (int k = 0; k < count; ++k) load += std::abs(normals[k]);
      return load;
    }
  }
  return 0.0;
}

void add_bearing_effort(const Mechanism& m, const Workspace& ws, const Bearing& b, double effort,
                        std::vector<Wrench>& loads) {
  if (b.kind != Bearing::prismatic) {
    loads[b.body[1]](2) += effort;
    loads[b.body[0]](2) -= effort;
    return;
  }
  const Joint& j = m.joints()[b.joint];
  Vec2 point;
  sliding_speed(j, ws, point);
  add_guide_force(j, ws, point, effort, loads);
}

}  // namespace linkdyn::planar
