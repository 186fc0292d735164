// The machine of direct dynamics: rotors, motors and Coulomb elements.
#include "linkdyn/dynamics/machine.hpp"

#include <algorithm>
#include <variant>

#include "linkdyn/planar/friction.hpp"
#include "linkdyn/planar/kinetostatics.hpp"
#include "linkdyn/planar/loads.hpp"

namespace linkdyn::dynamics {

namespace {

/// A body's moment of inertia with the rotors of the actuators on it added, in their order.
double with_rotors(double inertia, int body, const MachineSpec& machine) {
  for (const Actuator& a : machine.actuators)
    if (a.body == body) inertia += a.added_inertia();
  return inertia;
}

planar::MechanismSpec with_rotors(planar::MechanismSpec spec, const MachineSpec& machine) {
  for (size_t b = 0; b < spec.bodies.size(); ++b)
    spec.bodies[b].inertia = with_rotors(spec.bodies[b].inertia, static_cast<int>(b), machine);
  return spec;
}

}  // namespace

double element_speed(const planar::Mechanism& m, const planar::Workspace& ws, const CoulombElement& e) {
  if (const auto* f = std::get_if<PairFriction>(&e.site)) return planar::bearing_speed(m, ws, m.bearings()[f->bearing]);
  if (const auto* r = std::get_if<BodyResistance>(&e.site)) return ws.body[r->body].omega;
  return planar::sliding_speed(m.joints()[std::get<GuideResistance>(e.site).joint], ws);
}

double element_acceleration(const planar::Mechanism& m, const planar::Workspace& ws, const CoulombElement& e) {
  if (const auto* f = std::get_if<PairFriction>(&e.site))
    return planar::bearing_acceleration(m, ws, m.bearings()[f->bearing]);
  if (const auto* r = std::get_if<BodyResistance>(&e.site)) return ws.body[r->body].alpha;
  return planar::sliding_acceleration(m.joints()[std::get<GuideResistance>(e.site).joint], ws);
}

double element_load(const planar::Mechanism& m, const planar::Workspace& ws, const CoulombElement& e) {
  const auto* friction = std::get_if<PairFriction>(&e.site);
  return friction ? planar::bearing_load(m, ws, m.bearings()[friction->bearing]) : 1.0;
}

double held_normal_load(int count, const double normals[2], const std::array<double, 2>& held) {
  double load = 0.0;
  for (int k = 0; k < count; ++k) load += held[k] != 0.0 ? held[k] * normals[k] : std::abs(normals[k]);
  return load;
}

double element_load(const planar::Mechanism& m, const planar::Workspace& ws, const CoulombElement& e,
                    const std::array<double, 2>& held, std::array<double, 2>& normals) {
  normals = {0.0, 0.0};
  const auto* friction = std::get_if<PairFriction>(&e.site);
  if (!friction) return 1.0;
  const planar::Bearing& b = m.bearings()[friction->bearing];
  if (!b.is<planar::Bearing::Prismatic>()) return planar::bearing_load(m, ws, b);
  double n[2] = {0.0, 0.0};
  const int count = planar::bearing_normals(m, ws, b, n);
  normals = {n[0], n[1]};
  return held_normal_load(count, n, held);
}

void add_element_effort(const planar::Mechanism& m, const planar::Workspace& ws, const CoulombElement& e, double effort,
                        std::vector<planar::Wrench>& loads) {
  if (const auto* f = std::get_if<PairFriction>(&e.site)) {
    planar::add_bearing_effort(m, ws, m.bearings()[f->bearing], effort, loads);
  } else if (const auto* r = std::get_if<BodyResistance>(&e.site)) {
    loads[r->body](2) += effort;
  } else {
    const planar::Joint& j = m.joints()[std::get<GuideResistance>(e.site).joint];
    planar::add_guide_force(j, ws, effort, loads);
  }
}

int CylinderForce::segment_of(double x) const {
  return static_cast<int>(std::upper_bound(this->x.begin(), this->x.end(), x) - this->x.begin()) - 1;
}

double CylinderForce::inside(int segment, double x) const {
  const int last = static_cast<int>(this->x.size()) - 1;
  if (segment < 0) return this->x.front() - x;
  if (segment >= last) return x - this->x.back();
  const double a = this->x[static_cast<size_t>(segment)], b = this->x[static_cast<size_t>(segment) + 1];
  return (x - a) * (b - x) / ((b - a) * (b - a));
}

double CylinderForce::at(double length, double speed, int segment) const {
  double F = value;
  if (tabulated()) {
    const double s = against == Against::length ? length : speed;
    if (segment == planar::no_segment) segment = segment_of(s);
    const int last = static_cast<int>(x.size()) - 1;
    if (segment < 0) {
      F = force.front();
    } else if (segment >= last) {
      F = force.back();
    } else {
      const size_t k = static_cast<size_t>(segment);
      const double w = (s - x[k]) / (x[k + 1] - x[k]);
      F = (1.0 - w) * force[k] + w * force[k + 1];
    }
  }
  return std::clamp(F, -max_pull, max_push);
}

double actuator_speed(const planar::Mechanism& m, const planar::Workspace& ws, const Actuator& a) {
  return a.joint() >= 0 ? planar::sliding_speed(m.joints()[a.joint()], ws) : ws.body[a.body].omega;
}

void add_actuator_effort(const planar::Mechanism& m, const planar::Workspace& ws, const Actuator& a, double effort,
                         std::vector<planar::Wrench>& loads) {
  if (a.joint() < 0) {
    loads[a.body](2) += effort;
    return;
  }
  const planar::Joint& j = m.joints()[a.joint()];
  planar::add_guide_force(j, ws, effort, loads);
}

DynamicSystem::DynamicSystem(const planar::Mechanism& m, MachineSpec machine_spec)
    : mechanism(std::make_shared<const planar::Mechanism>(planar::compile(with_rotors(m.spec(), machine_spec)))),
      machine(std::move(machine_spec)) {
  const planar::Mechanism& mm = *mechanism;
  for (size_t k = 0; k < machine.actuators.size(); ++k)
    if (machine.actuators[k].is<DcMotor>()) motors.push_back(static_cast<int>(k));
  for (size_t k = 0; k < mm.bearings().size(); ++k) {
    const planar::Bearing& b = mm.bearings()[k];
    CoulombElement e;
    e.site = PairFriction{static_cast<int>(k)};
    e.kinetic = b.coefficient;
    e.static_limit = std::max(b.static_coefficient, b.coefficient);
    e.name = b.label;
    coulomb.push_back(e);
  }
  for (size_t k = 0; k < machine.actuators.size(); ++k) {
    const Actuator& a = machine.actuators[k];
    if (!a.is<Resistance>() || !(a.as<Resistance>().T0 > 0.0)) continue;
    const Resistance& r = a.as<Resistance>();
    CoulombElement e;
    if (r.joint >= 0)
      e.site = GuideResistance{static_cast<int>(k), r.joint};
    else
      e.site = BodyResistance{static_cast<int>(k), a.body};
    e.kinetic = r.T0;
    e.static_limit = std::max(r.T0_static, r.T0);
    e.name = a.name;
    coulomb.push_back(e);
  }
}

DynamicSystem with_body_inertia(const DynamicSystem& system, int body, double inertia) {
  DynamicSystem s = system;
  s.mechanism = std::make_shared<const planar::Mechanism>(
      system.mechanism->with_inertia(body, with_rotors(inertia, body, system.machine)));
  s.reduced_cache.reset();  // built again, for the new inertia, on first use
  s.cache_mutex = std::make_shared<std::mutex>();
  return s;
}

void couple_elastic_links(DynamicSystem& system, const std::vector<flex::ElasticLinkSpec>& links, int modes) {
  system.elastic.clear();
  for (const flex::ElasticLink& link : flex::make_elastic_links(*system.mechanism, links))
    system.elastic.push_back(flex::make_modal_link(link, modes));
}

}  // namespace linkdyn::dynamics
