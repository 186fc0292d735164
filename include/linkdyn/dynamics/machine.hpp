#pragma once
// The machine of direct dynamics [003 Sect. 3]: the mechanism with its rotors' inertias added
// to their bodies, its DC motors, and its Coulomb elements. A Coulomb element is a dry
// friction whose effort opposes its relative speed and holds it at rest up to a static limit:
// the friction in a pair's bearing (f' r |F| or f N_p, from the pair's reaction [001 Eqs.
// 8-11]), or the Coulomb part T0 of a resistance actuator [003 Sect. 3.2] (on a body, or along
// a prismatic pair's guide).
#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

#include "linkdyn/dynamics/machine_spec.hpp"
#include "linkdyn/flex/coupled.hpp"
#include "linkdyn/planar/mechanism.hpp"
#include "linkdyn/planar/workspace.hpp"

namespace linkdyn::dynamics {

/// Where a Coulomb element acts: in a pair's bearing, or as a resistance actuator's Coulomb part
/// on the body it turns or along the prismatic pair it acts in.
struct PairFriction {
  int bearing = -1;  ///< Mechanism::bearings() index
};
struct BodyResistance {
  int actuator = -1, body = -1;
};
struct GuideResistance {
  int actuator = -1, joint = -1;
};

struct CoulombElement {
  std::variant<PairFriction, BodyResistance, GuideResistance> site;
  /// The effort is -sgn(speed) kinetic x load while sliding, and holds up to static x load at
  /// rest; load = the bearing's r |F| or N_p, 1 for a resistance.
  double kinetic = 0.0, static_limit = 0.0;
  std::string name;  ///< the bearing's label or the actuator's name

  [[nodiscard]] bool pair_friction() const { return std::holds_alternative<PairFriction>(site); }
  /// A resistance's actuator, or -1 (pair friction).
  [[nodiscard]] int actuator() const {
    if (const auto* r = std::get_if<BodyResistance>(&site)) return r->actuator;
    if (const auto* r = std::get_if<GuideResistance>(&site)) return r->actuator;
    return -1;
  }
};

/// The element's relative speed (bearing speed; the body's angular velocity; the sliding speed).
[[nodiscard]] double element_speed(const planar::Mechanism& m, const planar::Workspace& ws, const CoulombElement& e);
/// Its rate, at the workspace's accelerations.
[[nodiscard]] double element_acceleration(const planar::Mechanism& m, const planar::Workspace& ws,
                                          const CoulombElement& e);
/// The load the coefficients multiply, from the reactions in ws (1 for resistances).
[[nodiscard]] double element_load(const planar::Mechanism& m, const planar::Workspace& ws, const CoulombElement& e);
/// The same with the signs of a prismatic pair's normal loads held: sum of held_k N_k (|N_k|
/// where a sign is 0), so that the load is smooth within an integrator step and a normal
/// load's change of sign is an event; `normals` receives the signed normal loads.
[[nodiscard]] double element_load(const planar::Mechanism& m, const planar::Workspace& ws, const CoulombElement& e,
                                  const std::array<double, 2>& held, std::array<double, 2>& normals);
/// The load from signed normal loads and held signs (a helper of both).
[[nodiscard]] double held_normal_load(int count, const double normals[2], const std::array<double, 2>& held);
/// An effort along the element's speed (on its moving side, the opposite on its other side)
/// added to `loads` as wrenches about the body frames' origins.
void add_element_effort(const planar::Mechanism& m, const planar::Workspace& ws, const CoulombElement& e, double effort,
                        std::vector<planar::Wrench>& loads);

/// An actuator's speed: its body's angular velocity, or its pair's sliding speed.
[[nodiscard]] double actuator_speed(const planar::Mechanism& m, const planar::Workspace& ws, const Actuator& a);
/// An actuator's effort (torque on its body, or force along its pair's guide on the slider and
/// the opposite on the guide) added to `loads` as wrenches about the body frames' origins.
void add_actuator_effort(const planar::Mechanism& m, const planar::Workspace& ws, const Actuator& a, double effort,
                         std::vector<planar::Wrench>& loads);

struct ReducedModel;

/// The mechanism prepared for direct dynamics with its machine (actuators, constraint actions);
/// the reduced method's model is built on first use and kept (per table tolerance).
struct DynamicSystem {
  DynamicSystem(const planar::Mechanism& m, MachineSpec machine);
  std::shared_ptr<const planar::Mechanism> mechanism;  ///< with rotor inertias
  MachineSpec machine;
  std::vector<int> motors;              ///< indices of DC motors in machine.actuators
  std::vector<CoulombElement> coulomb;  ///< pair friction (bearings), then resistances
  /// Elastic links coupled with the motion (couple_elastic_links; the Kane method): their modal
  /// coordinates are integrated with the rigid ones. Empty: every body rigid.
  std::vector<flex::ModalLink> elastic;
  mutable std::shared_ptr<const ReducedModel> reduced_cache;
  std::shared_ptr<std::mutex> cache_mutex = std::make_shared<std::mutex>();
};

/// The machine with body `body`'s moment of inertia in the model (before its rotors are added)
/// set to `inertia`, as DynamicSystem(m, machine) would give with it (a flywheel's trial); the
/// compiled mechanism is shared but for that inertia, not compiled again.
DynamicSystem with_body_inertia(const DynamicSystem& system, int body, double inertia);

/// Couples the model's elastic links with the motion, each on `modes` modes at rest (0: every
/// free dof of its beam): the deformation acts on the mechanism and the motors (flex/coupled.hpp).
/// Throws InputError naming the link on bad data.
void couple_elastic_links(DynamicSystem& system, const std::vector<flex::ElasticLinkSpec>& links, int modes);

}  // namespace linkdyn::dynamics
