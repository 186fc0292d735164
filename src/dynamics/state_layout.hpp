#pragma once
// The layout of the state a simulation integrates: q (n), qd (n), the DC motors' currents, the
// coupled elastic links' modal coordinates eta and their rates eta' (one block each, link after
// link), then the integrated energies: each actuator's work, each load's work, each Coulomb
// element's dissipated energy, and with elastic links the energy their damping dissipated and
// their geometric stiffness's work.
#include <Eigen/Core>
#include <vector>

#include "dynamics/evaluator.hpp"
#include "linkdyn/core/integrator.hpp"

namespace linkdyn::dynamics {

using State = Stepper::State;

struct StateLayout {
  explicit StateLayout(const DynamicSystem& system);
  size_t n = 0, motors = 0, actuators = 0, loads = 0, elements = 0;
  size_t elastic = 0;               ///< the coupled elastic links' modal coordinates
  std::vector<size_t> link_offset;  ///< per coupled link: where its eta starts in the eta block
  std::vector<Eigen::Index> modes;  ///< per coupled link
  [[nodiscard]] size_t current() const { return 2 * n; }
  [[nodiscard]] size_t eta() const { return current() + motors; }
  [[nodiscard]] size_t eta_rate() const { return eta() + elastic; }
  [[nodiscard]] size_t actuator_work() const { return eta_rate() + elastic; }
  [[nodiscard]] size_t load_work() const { return actuator_work() + actuators; }
  [[nodiscard]] size_t loss() const { return load_work() + loads; }
  /// With elastic links: the energy their damping dissipated, then their geometric stiffness's work.
  [[nodiscard]] size_t elastic_energy() const { return loss() + elements; }
  [[nodiscard]] size_t size() const { return elastic_energy() + (elastic > 0 ? 2 : 0); }
  /// Coupled link l's eta (or eta') in a state, or its eta'' in an evaluation.
  [[nodiscard]] Eigen::Map<const Eigen::VectorXd> eta_of(const State& y, size_t l, bool rate) const {
    return {y.data() + (rate ? eta_rate() : eta()) + link_offset[l], modes[l]};
  }
  [[nodiscard]] Eigen::Map<const Eigen::VectorXd> eta_acceleration_of(const Evaluation& e, size_t l) const {
    return {e.elastic_acceleration.data() + link_offset[l], modes[l]};
  }
  /// The state's rates dx at x from the evaluation there: q' = qd (0 while the machine is
  /// `stuck`), qd' = qdd, di/dt, eta' and eta'', and the energies' powers.
  void rates(const State& x, const Evaluation& e, bool stuck, State& dx) const;
};

}  // namespace linkdyn::dynamics
