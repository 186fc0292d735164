// The parts of a right-hand side that every method shares: actuators [003 Sect. 3.2] and the
// Coulomb efforts of resistances and of a machine held at rest.
#include "dynamics/evaluator.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <variant>

namespace linkdyn::dynamics {

void Evaluation::size_for(const DynamicSystem& system, size_t elastic) {
  const size_t n = system.mechanism->drivers().size(), na = system.machine.actuators.size(), ne = system.coulomb.size();
  qdd.assign(n, 0.0);
  actuator.assign(na, 0.0), actuator_speed.assign(na, 0.0);
  coulomb.assign(ne, 0.0), coulomb_speed.assign(ne, 0.0);
  current_rate.assign(system.motors.size(), 0.0), load_power.assign(system.mechanism->spec().loads.size(), 0.0);
  normal.assign(ne, {0.0, 0.0});
  margin.assign(ne, 0.0);
  elastic_acceleration.assign(elastic, 0.0);
}

Evaluator::Evaluator(const DynamicSystem& system, const SimulationOptions& options)
    : sys_(system),
      m_(*system.mechanism),
      o_(options),
      friction_tolerance_(std::max(1e-3 * options.rel_tol, 1e-14)),
      n_(m_.drivers().size()) {
  const auto& acts = sys_.machine.actuators;
  scale_.assign(acts.size(), 1.0);
  for (size_t k = 0; k < options.actuator_scale.size() && k < scale_.size(); ++k) scale_[k] = options.actuator_scale[k];
  motor_of_.assign(acts.size(), -1);
  for (size_t k = 0; k < sys_.motors.size(); ++k) motor_of_[sys_.motors[k]] = static_cast<int>(k);
  for (const flex::ModalLink& link : sys_.elastic) elastic_ += static_cast<size_t>(link.modes);
}

void hold_segments(const Branches& b, planar::Workspace& ws) {
  std::copy_n(b.segment.begin(), ws.load_segment.size(), ws.load_segment.begin());
  std::copy(b.segment.end() - static_cast<std::ptrdiff_t>(ws.cam_piece.size()), b.segment.end(), ws.cam_piece.begin());
}

void Evaluator::actuator_efforts(const double* y, const Branches& branches, Evaluation& e) const {
  const auto& acts = sys_.machine.actuators;
  for (size_t k = 0; k < acts.size(); ++k) {
    const double speed = e.actuator_speed[k];
    e.actuator[k] = std::visit(
        [&](const auto& law) {
          using Law = std::decay_t<decltype(law)>;
          if constexpr (std::is_same_v<Law, Torque>) {
            return (law.when_body < 0 || branches.when[k] == law.when_sign) ? scale_[k] * law.value : 0.0;
          } else if constexpr (std::is_same_v<Law, CylinderForce>) {
            // Its length is its driver's coordinate; its table's segment follows the loads'.
            return scale_[k] * law.at(y[law.driver], speed, branches.segment[m_.spec().loads.size() + k]);
          } else if constexpr (std::is_same_v<Law, Resistance>) {
            return -law.c * speed;  // the Coulomb part T0 is a Coulomb element
          } else {
            // U = R i + L di/dt + K omega_motor, T = K i through the reducer [003 Sect. 3.2].
            const int motor = motor_of_[k];
            const double current = y[2 * n_ + motor], omega_motor = speed / law.ratio;
            const double eta = branches.motor[k] >= 0.0 ? law.efficiency : 1.0 / law.efficiency;
            e.current_rate[motor] =
                (scale_[k] * law.voltage - law.resistance * current - law.constant * omega_motor) / law.inductance;
            return eta * law.constant * current / law.ratio;
          }
        },
        acts[k].law);
  }
}

void Evaluator::resistance_efforts(const Branches& branches, Evaluation& e) const {
  for (size_t k = 0; k < sys_.coulomb.size(); ++k) {
    const CoulombElement& el = sys_.coulomb[k];
    if (el.pair_friction()) continue;
    if (branches.holds(k)) {  // its effort is the force that holds it (PlacedEvaluator)
      e.coulomb[k] = 0.0;
      continue;
    }
    const double effort = -branches.coulomb[k] * scale_[el.actuator()] * el.kinetic;
    e.coulomb[k] = effort;
    e.actuator[el.actuator()] += effort;
  }
}

void Evaluator::holding_efforts(double drive, const std::vector<double>& loads, const std::vector<double>& coefficients,
                                Evaluation& e) const {
  double capacity = 0.0;
  for (size_t k = 0; k < sys_.coulomb.size(); ++k) {
    const CoulombElement& el = sys_.coulomb[k];
    const double limit = static_limit(el);
    capacity += limit * loads[k] * std::abs(coefficients[k]);
  }
  for (size_t k = 0; k < sys_.coulomb.size(); ++k) {
    const CoulombElement& el = sys_.coulomb[k];
    const double limit = static_limit(el);
    const double c = coefficients[k];
    // M_k = -drive * share_k / c_k with shares in proportion to capacity: sum M_k c_k = -drive.
    e.coulomb[k] = (capacity > 0.0 && c != 0.0) ? -drive * limit * loads[k] * (c > 0 ? 1.0 : -1.0) / capacity : 0.0;
    if (!el.pair_friction()) e.actuator[el.actuator()] += e.coulomb[k];
  }
}

}  // namespace linkdyn::dynamics
