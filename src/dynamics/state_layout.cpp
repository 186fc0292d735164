// The layout of a simulation's state, and its rates from an evaluation.
#include "dynamics/state_layout.hpp"

namespace linkdyn::dynamics {

StateLayout::StateLayout(const DynamicSystem& system)
    : n(system.mechanism->drivers().size()),
      motors(system.motors.size()),
      actuators(system.machine.actuators.size()),
      loads(system.mechanism->spec().loads.size()),
      elements(system.coulomb.size()) {
  for (const flex::ModalLink& link : system.elastic) {
    link_offset.push_back(elastic);
    modes.push_back(link.modes);
    elastic += static_cast<size_t>(link.modes);
  }
}

void StateLayout::rates(const State& x, const Evaluation& e, bool stuck, State& dx) const {
  for (size_t i = 0; i < n; ++i) dx[i] = stuck ? 0.0 : x[n + i], dx[n + i] = e.qdd[i];
  for (size_t k = 0; k < motors; ++k) dx[current() + k] = e.current_rate[k];
  for (size_t k = 0; k < actuators; ++k) dx[actuator_work() + k] = e.actuator[k] * e.actuator_speed[k];
  for (size_t l = 0; l < loads; ++l) dx[load_work() + l] = e.load_power[l];
  for (size_t k = 0; k < elements; ++k) dx[loss() + k] = -e.coulomb[k] * e.coulomb_speed[k];
  for (size_t k = 0; k < elastic; ++k)
    dx[eta() + k] = x[eta_rate() + k], dx[eta_rate() + k] = e.elastic_acceleration[k];
  if (elastic > 0) dx[elastic_energy()] = e.elastic_damping_power, dx[elastic_energy() + 1] = e.geometric_power;
}

}  // namespace linkdyn::dynamics
