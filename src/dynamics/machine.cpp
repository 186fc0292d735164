// The machine of direct dynamics: rotors, motors and Coulomb elements.
#include "linkdyn/dynamics/machine.hpp"

#include "linkdyn/planar/friction.hpp"
#include "linkdyn/planar/kinetostatics.hpp"

namespace linkdyn::dynamics {

using planar::Actuator;

namespace {

planar::MechanismSpec with_rotors(planar::MechanismSpec spec) {
  for (const Actuator& a : spec.actuators) spec.bodies[a.body].inertia += a.added_inertia();
  return spec;
}

}  // namespace

double element_speed(const planar::Mechanism& m, const planar::Workspace& ws, const CoulombElement& e) {
  switch (e.kind) {
    case CoulombElement::pair_friction: return planar::bearing_speed(m, ws, m.bearings()[e.bearing]);
    case CoulombElement::body_resistance: return ws.body[m.spec().actuators[e.actuator].body].omega;
    case CoulombElement::guide_resistance: {
      Vec2 point;
      return planar::sliding_speed(m.joints()[m.spec().actuators[e.actuator].joint], ws, point);
    }
  }
  return 0.0;
}

double element_acceleration(const planar::Mechanism& m, const planar::Workspace& ws, const CoulombElement& e) {
  switch (e.kind) {
    case CoulombElement::pair_friction: return planar::bearing_acceleration(m, ws, m.bearings()[e.bearing]);
    case CoulombElement::body_resistance: return ws.body[m.spec().actuators[e.actuator].body].alpha;
    case CoulombElement::guide_resistance: {
      planar::Bearing guide;  // the pair's sliding rate, as a prismatic bearing's
      guide.kind = planar::Bearing::prismatic;
      guide.joint = m.spec().actuators[e.actuator].joint;
      return planar::bearing_acceleration(m, ws, guide);
    }
  }
  return 0.0;
}

double element_load(const planar::Mechanism& m, const planar::Workspace& ws, const CoulombElement& e) {
  return e.kind == CoulombElement::pair_friction ? planar::bearing_load(m, ws, m.bearings()[e.bearing]) : 1.0;
}

double held_normal_load(int count, const double normals[2], const std::array<double, 2>& held) {
  double load = 0.0;
  for (int k = 0; k < count; ++k) load += held[k] != 0.0 ? held[k] * normals[k] : std::abs(normals[k]);
  return load;
}

double element_load(const planar::Mechanism& m, const planar::Workspace& ws, const CoulombElement& e,
                    const std::array<double, 2>& held, std::array<double, 2>& normals) {
  normals = {0.0, 0.0};
  if (e.kind != CoulombElement::pair_friction) return 1.0;
  const planar::Bearing& b = m.bearings()[e.bearing];
  if (b.kind != planar::Bearing::prismatic) return planar::bearing_load(m, ws, b);
  double n[2] = {0.0, 0.0};
  const int count = planar::bearing_normals(m, ws, b, n);
  normals = {n[0], n[1]};
  return held_normal_load(count, n, held);
}

void add_element_effort(const planar::Mechanism& m, const planar::Workspace& ws, const CoulombElement& e,
                        double effort, std::vector<planar::Wrench>& loads) {
  switch (e.kind) {
    case CoulombElement::pair_friction:
      planar::add_bearing_effort(m, ws, m.bearings()[e.bearing], effort, loads);
      break;
    case CoulombElement::body_resistance:
      loads[m.spec().actuators[e.actuator].body](2) += effort;
      break;
    case CoulombElement::guide_resistance: {
      const planar::Joint& j = m.joints()[m.spec().actuators[e.actuator].joint];
      Vec2 point;
      planar::sliding_speed(j, ws, point);
      planar::add_guide_force(j, ws, point, effort, loads);
      break;
    }
  }
}

DynamicSystem::DynamicSystem(const planar::Mechanism& m)
    : mechanism(std::make_shared<const planar::Mechanism>(planar::compile(with_rotors(m.spec())))) {
  const planar::Mechanism& mm = *mechanism;
  for (size_t k = 0; k < mm.spec().actuators.size(); ++k)
    if (mm.spec().actuators[k].type == Actuator::dc_motor) motors.push_back(static_cast<int>(k));
  for (size_t k = 0; k < mm.bearings().size(); ++k) {
    const planar::Bearing& b = mm.bearings()[k];
    CoulombElement e;
    e.kind = CoulombElement::pair_friction;
    e.bearing = static_cast<int>(k);
    e.kinetic = b.coefficient;
    e.static_limit = std::max(b.static_coefficient, b.coefficient);
    e.name = b.label;
    coulomb.push_back(e);
  }
  for (size_t k = 0; k < mm.spec().actuators.size(); ++k) {
    const Actuator& a = mm.spec().actuators[k];
    if (a.type != Actuator::resistance || !(a.T0 > 0.0)) continue;
    CoulombElement e;
    e.kind = a.joint >= 0 ? CoulombElement::guide_resistance : CoulombElement::body_resistance;
    e.actuator = static_cast<int>(k);
    e.kinetic = a.T0;
    e.static_limit = std::max(a.T0_static, a.T0);
    e.name = a.name;
    coulomb.push_back(e);
  }
}

}  // namespace linkdyn::dynamics
