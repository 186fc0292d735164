#pragma once
// What a tree's time simulation returns (spatial::simulate_chain, simulate.hpp): its rows as
// arrays.
#include <Eigen/Core>

namespace linkdyn::spatial {

/// One row per output time (t = 0 and `steps` more, uniform to t_end); io::chain_simulation_table
/// makes the table.
struct ChainSimulationResult {
  Eigen::VectorXd t;
  Eigen::MatrixXd q;                                 ///< per configuration coordinate (Chain::q_names)
  Eigen::MatrixXd qd, qdd;                           ///< per velocity coordinate (Chain::v_names)
  Eigen::MatrixXd tau;                               ///< per velocity coordinate: the driving force applied (N m or N)
  Eigen::VectorXd kinetic_energy, potential_energy;  ///< J (potential 0 without gravity)
  long rhs_evaluations = 0;
  [[nodiscard]] Eigen::Index rows() const { return t.size(); }
};

}  // namespace linkdyn::spatial
