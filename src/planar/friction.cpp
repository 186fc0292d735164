// Coulomb friction in the pairs' bearings [001 Eqs. 8-11].
#include "linkdyn/planar/friction.hpp"

#include <cmath>

#include "linkdyn/planar/constraints.hpp"
#include "linkdyn/planar/kinetostatics.hpp"

namespace linkdyn::planar {

namespace {
/// A cam pair's contact point on the world's axes (a roller's rim, or the knife edge) and the
/// common normal and tangent there.
struct ContactPoint {
  Vec2 point, normal, tangent;
};
ContactPoint contact_point(const Joint& j, const Workspace& ws) {
  const CamCurveFoot foot = cam_curve_foot(j, ws);
  const CamFollower& f = j.as<CamPair>().follower;
  const double rim = f.contact == CamFollower::Contact::roller ? f.roller_radius : 0.0;
  return {ws.body[j.body[1]].position(j.point[1]) - rim * foot.normal, foot.normal, foot.tangent};
}
}  // namespace

std::vector<Bearing> find_bearings(const Mechanism& m) {
  std::vector<Bearing> out;
  for (size_t k = 0; k < m.spec().joints.size(); ++k) {
    const Joint& j = m.joints()[k];
    if (!(j.friction > 0.0)) continue;
    Bearing b;
    const int joint = static_cast<int>(k);
    if (const auto* pin = std::get_if<RevolutePair>(&j.kind)) {
      if (!(pin->pin_radius > 0.0)) continue;
      b.kind = Bearing::Revolute{joint, pin->pin_radius};
    } else if (j.is<PrismaticPair>()) {
      b.kind = Bearing::Prismatic{joint};
    } else if (const auto* cam = std::get_if<CamPair>(&j.kind)) {
      if (cam->follower.contact == CamFollower::Contact::roller && !(cam->roller_pin_radius > 0.0)) continue;
      b.kind = Bearing::Contact{joint};
    } else {
      continue;  // a gear pair
    }
    b.body[0] = j.body[0], b.body[1] = j.body[1];
    b.coefficient = j.friction;
    b.static_coefficient = std::max(j.static_friction, j.friction);
    b.label = j.name;
    out.push_back(b);
  }
  for (size_t p = 0; p < m.pins().size(); ++p) {
    const CompoundPin& pin = m.pins()[p];
    if (!(pin.friction > 0.0 && pin.pin_radius > 0.0)) continue;
    for (size_t k = 1; k < pin.bodies.size(); ++k) {
      Bearing b;
      b.kind = Bearing::PinMember{static_cast<int>(p), static_cast<int>(k), pin.pin_radius};
      b.body[0] = pin.bodies[0], b.body[1] = pin.bodies[k];
      b.coefficient = pin.friction;
      b.static_coefficient = std::max(pin.static_friction, pin.friction);
      b.label = pin.name + "." + m.bodies()[pin.bodies[k]].name;
      out.push_back(b);
    }
  }
  return out;
}

bool bearing_slides(const Bearing& b) { return b.is<Bearing::Prismatic>() || b.is<Bearing::Contact>(); }

double bearing_speed(const Mechanism& m, const Workspace& ws, const Bearing& b) {
  if (const auto* slide = std::get_if<Bearing::Prismatic>(&b.kind)) {
    return sliding_speed(m.joints()[slide->joint], ws);
  }
  if (const auto* contact = std::get_if<Bearing::Contact>(&b.kind)) {
    // The follower's point at the contact (a roller held on its pin) sliding over the cam's: a
    // rolling roller's turn on its pin times its radius.
    const ContactPoint c = contact_point(m.joints()[contact->joint], ws);
    return c.tangent.dot(carried_velocity(ws.body[b.body[1]], c.point) - carried_velocity(ws.body[b.body[0]], c.point));
  }
  return ws.body[b.body[1]].omega - ws.body[b.body[0]].omega;
}

double bearing_acceleration(const Mechanism& m, const Workspace& ws, const Bearing& b) {
  if (const auto* slide = std::get_if<Bearing::Prismatic>(&b.kind))
    return sliding_acceleration(m.joints()[slide->joint], ws);
  if (const auto* contact = std::get_if<Bearing::Contact>(&b.kind)) {
    // The same points' relative acceleration along the tangent: the sliding speed's rate where
    // it is zero (where sticking is decided; elsewhere the contact point's travel adds terms).
    const ContactPoint c = contact_point(m.joints()[contact->joint], ws);
    return c.tangent.dot(carried_acceleration(ws.body[b.body[1]], c.point) -
                         carried_acceleration(ws.body[b.body[0]], c.point));
  }
  return ws.body[b.body[1]].alpha - ws.body[b.body[0]].alpha;
}

int slider_normals(const Joint& j, double normal, double moment, double normals[2]) {
  const double length = j.as<PrismaticPair>().slider_length;
  if (length <= 0.0) {
    normals[0] = normal;
    return 1;
  }
  // N1 + N2 = N, (b / 2)(N2 - N1) = M.
  const double half = 0.5 * normal, shift = moment / length;
  normals[0] = half - shift, normals[1] = half + shift;
  return 2;
}

int bearing_normals(const Mechanism& m, const Workspace& ws, const Bearing& b, double normals[2]) {
  const auto* slide = std::get_if<Bearing::Prismatic>(&b.kind);
  if (!slide) return 0;  // a turning pair, or a cam's contact (its normal is the pair's reaction)
  const JointReaction& r = ws.reaction[slide->joint];
  return slider_normals(m.joints()[slide->joint], r.normal, r.moment, normals);
}

double bearing_radius(const Bearing& b) {
  return std::visit(
      overloaded{[](const Bearing::Prismatic&) { return 0.0; }, [](const Bearing::Contact&) { return 0.0; },
                 [](const auto& turning) { return turning.radius; }},
      b.kind);
}

double contact_load(const Joint& j, double normal, const Bearing& b) {
  // A roller, massless: its pin carries the contact force N n + T t, |T| = f' (r / r_roller)
  // |F| with |F| = sqrt(N^2 + T^2), so the load (r / r_roller) |F| = (r / r_roller) |N| /
  // sqrt(1 - (f' r / r_roller)^2). A knife edge: |N|.
  const CamPair& cam = j.as<CamPair>();
  if (cam.follower.contact != CamFollower::Contact::roller) return std::abs(normal);
  const double lever = cam.roller_pin_radius / cam.follower.roller_radius, mu = b.coefficient * lever;
  return lever * std::abs(normal) / std::sqrt(std::max(1.0 - mu * mu, 1e-12));
}

double bearing_load(const Mechanism& m, const Workspace& ws, const Bearing& b) {
  return std::visit(
      overloaded{
          [&](const Bearing::Revolute& r) { return r.radius * ws.reaction[r.joint].force.norm(); },
          [&](const Bearing::PinMember& p) { return p.radius * pin_force(m, ws, p.pin, p.member).norm(); },
          [&](const Bearing::Prismatic&) {
            double normals[2];
            const int count = bearing_normals(m, ws, b, normals);
            double load = 0.0;
            for (int k = 0; k < count; ++k) load += std::abs(normals[k]);
            return load;
          },
          [&](const Bearing::Contact& c) { return contact_load(m.joints()[c.joint], ws.reaction[c.joint].normal, b); }},
      b.kind);
}

void add_bearing_effort(const Mechanism& m, const Workspace& ws, const Bearing& b, double effort,
                        std::vector<Wrench>& loads) {
  if (const auto* slide = std::get_if<Bearing::Prismatic>(&b.kind)) {
    const Joint& j = m.joints()[slide->joint];
    add_guide_force(j, ws, effort, loads);
    return;
  }
  if (const auto* contact = std::get_if<Bearing::Contact>(&b.kind)) {
    // Along the tangent at the contact point: on the follower, the opposite on the cam.
    const Joint& j = m.joints()[contact->joint];
    const ContactPoint c = contact_point(j, ws);
    add_pair_force(j, ws, c.point, effort * c.tangent, loads);
    return;
  }
  loads[b.body[1]](2) += effort;
  loads[b.body[0]](2) -= effort;
}

}  // namespace linkdyn::planar
