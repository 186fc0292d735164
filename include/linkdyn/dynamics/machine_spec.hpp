#pragma once
// What a model adds to its mechanism for direct dynamics [003 Sect. 3]: the actuators (motors
// and resistances) and the constraint actions to follow. The planar mechanism
// (planar::MechanismSpec) does not know them; io::read_model returns both.
#include <array>
#include <limits>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "linkdyn/core/error.hpp"
#include "linkdyn/core/geometry.hpp"
#include "linkdyn/planar/mechanism.hpp"

namespace linkdyn::dynamics {

/// What a constraint action follows of its pair's reaction (what the joint's first body exerts
/// on its second, as for reactions). A revolute pair: its force along the line from one point to
/// another of one body (moving with it), or along a fixed global direction.
struct AlongPoints {
  std::array<planar::BodyPoint, 2> through{};  ///< from through[0] to through[1]
};
struct AlongDirection {
  Vec2 direction = Vec2::UnitX();  ///< unit, global
};
/// A prismatic pair: its normal force, or its moment.
struct NormalForce {};
struct PairMoment {};

/// A constraint action to follow [003 Fig. 1]: a component of a pair's reaction.
struct ConstraintAction {
  std::string name;
  int joint = -1;
  std::variant<AlongPoints, AlongDirection, NormalForce, PairMoment> component = NormalForce{};
  SourceLocation where;
};

/// A constant torque `value` (N m) on the body, always or only while the condition body's
/// angular velocity has the sign `when_sign` (when_body >= 0); with `joint` (a prismatic pair)
/// a constant force `value` (N) along its guide on the joint's second body and the opposite on
/// its first (a cylinder's pressure on its piston or annulus).
struct Torque {
  double value = 0.0;
  int when_body = -1;
  int when_sign = 0;
  int joint = -1;
};

/// A cylinder's force along its slide, on the rod and the opposite on the barrel (positive pushes
/// the rod out): constant, or linear between the rows of a table against its length L (the
/// driver's coordinate) or its speed dL/dt, the end rows held beyond the table; then held within
/// [-max_pull, max_push] (a relief valve's pressure times the annulus and the piston areas).
struct CylinderForce {
  enum class Against { constant, length, speed };
  int joint = -1;   ///< the cylinder's slide
  int driver = -1;  ///< its length's driver
  Against against = Against::constant;
  double value = 0.0;            ///< N, when constant
  std::vector<double> x, force;  ///< the table: L (m) or dL/dt (m/s), increasing; N
  double max_push = std::numeric_limits<double>::infinity();
  double max_pull = std::numeric_limits<double>::infinity();

  [[nodiscard]] bool tabulated() const { return against != Against::constant; }
  /// The table's segment that holds x: -1 below its first row, k between rows k and k + 1,
  /// rows - 1 beyond its last row.
  [[nodiscard]] int segment_of(double x) const;
  /// Positive while x stays within `segment`, zero at its ends: the switching function of the
  /// table's kinks (events of the direct dynamics, as a load table's are).
  [[nodiscard]] double inside(int segment, double x) const;
  /// The force at length L and speed v, on the table's segment `segment` (its line continued
  /// beyond its ends while it is held over an integrator step), or on the segment that holds x.
  [[nodiscard]] double at(double length, double speed, int segment = std::numeric_limits<int>::min()) const;
};

/// T = -T0 sgn(omega) - c omega on the body [003 Sect. 3.2]; with `joint` (a prismatic pair) a
/// force F = -T0 sgn(v) - c v along the guide on the joint's second body, opposite on the first,
/// v the slider point's velocity relative to the guide (the slider's Coulomb friction F_r of
/// [004 Eq. A42]). At rest it holds up to T0_static.
struct Resistance {
  int joint = -1;  ///< a prismatic pair (a force), or -1 (a torque on the body)
  double T0 = 0.0, T0_static = 0.0, c = 0.0;
};

/// U = R i + L di/dt + K omega_motor, T = K i [003 Sect. 3.2], through a reducer
/// omega_body = ratio omega_motor with its efficiency; the rotor and reducer inertias (at the
/// motor shaft) add (I_motor + I_reducer) / ratio^2 to the body's moment of inertia.
struct DcMotor {
  double voltage = 0.0, resistance = 0.0, inductance = 0.0, constant = 0.0;
  double rotor_inertia = 0.0, reducer_inertia = 0.0, ratio = 1.0, efficiency = 1.0;
};

/// A motor or a resistance acting on a body [003 Sects. 3.1-3.2].
struct Actuator {
  std::string name;
  int body = 0;
  std::variant<Torque, Resistance, DcMotor, CylinderForce> law;
  SourceLocation where;

  template <class Law>
  [[nodiscard]] bool is() const {
    return std::holds_alternative<Law>(law);
  }
  template <class Law>
  [[nodiscard]] const Law& as() const {
    return std::get<Law>(law);
  }
  template <class Law>
  [[nodiscard]] Law& as() {
    return std::get<Law>(law);
  }
  /// The prismatic pair of a resistance or a torque acting as a force, or -1.
  [[nodiscard]] int joint() const {
    if (is<CylinderForce>()) return as<CylinderForce>().joint;
    return is<Resistance>() ? as<Resistance>().joint : is<Torque>() ? as<Torque>().joint : -1;
  }
  /// The body whose turning enables a conditional torque, or -1.
  [[nodiscard]] int condition_body() const { return is<Torque>() ? as<Torque>().when_body : -1; }
  /// Moment of inertia the rotor adds to its body.
  [[nodiscard]] double added_inertia() const {
    if (!is<DcMotor>()) return 0.0;
    const DcMotor& d = as<DcMotor>();
    return (d.rotor_inertia + d.reducer_inertia) / (d.ratio * d.ratio);
  }
};

/// The actuators and constraint actions of a machine (indices refer to its mechanism).
struct MachineSpec {
  std::vector<Actuator> actuators;
  std::vector<ConstraintAction> constraint_actions;
  /// Index of the actuator named `name`, or -1.
  [[nodiscard]] int find_actuator(const std::string& name) const {
    for (size_t k = 0; k < actuators.size(); ++k)
      if (actuators[k].name == name) return static_cast<int>(k);
    return -1;
  }
};

}  // namespace linkdyn::dynamics
