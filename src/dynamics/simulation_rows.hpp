#pragma once
// The rows a simulation records: at each output time the state, its evaluation, the energies
// and their balance, the coupled links' deflections and, when asked, every body's motion and
// every pair's reaction; at the end the run's totals.
#include <Eigen/Core>
#include <vector>

#include "dynamics/state_layout.hpp"
#include "linkdyn/planar/singular.hpp"

namespace linkdyn::dynamics {

/// The kinetic energy of the mechanism's bodies at the workspace's velocities (J).
[[nodiscard]] double kinetic_energy(const planar::Mechanism& m, const planar::Workspace& ws);

/// The reactions of every pair in `ws` (placed: positions, rates and accelerations) under
/// everything evaluation e applies at (t, y): loads, actuators, Coulomb efforts, coupled elastic
/// links' deformation loads.
void solve_motion_reactions(const DynamicSystem& system, const StateLayout& layout, planar::Workspace& ws, double t,
                            const State& y, const Evaluation& e);

/// The rows of results: the arrays sized once, each row from the state and its evaluation.
class RowWriter {
 public:
  RowWriter(const DynamicSystem& system, const SimulationOptions& options, const StateLayout& layout,
            SimulationResult& result);

  /// The row at (t, y) with its evaluation; the first row sets the energies' origin.
  void write(double t, const State& y, const Evaluation& e, const Branches& branches);
  /// Keeps the rows written (with SimulationOptions::on_rows: hands them over as the last chunk).
  void finish();
  /// The run's totals at its end (t, y): the final state, the works and losses, the energy
  /// balance of the last row.
  void totals(double t, const State& y);

 private:
  /// Room for `rows` rows in the result.
  void allocate(Eigen::Index rows);
  /// The values a row holds, over all arrays (as allocated).
  [[nodiscard]] Eigen::Index values_per_row() const;
  /// A load's work: its variable parts' integrated power and its constant parts' change of
  /// potential.
  [[nodiscard]] double load_work(const State& y, size_t l) const;
  /// The coupled links' deflections at y into deflection_, and the energy they add.
  [[nodiscard]] flex::ElasticEnergy elastic_rows(const State& y);
  /// The mechanism at the row's state: positions tracked from the last row, rates (limits at a
  /// singular position: true), accelerations from the evaluation, and the reactions of the
  /// loads, actuators and friction of the evaluation when asked.
  [[nodiscard]] bool place(double t, const State& y, const Evaluation& e);

  const DynamicSystem& sys_;
  const planar::Mechanism& m_;
  const SimulationOptions& o_;
  const StateLayout& L_;
  SimulationResult& r_;
  planar::Workspace ws_;
  planar::SingularLimit limits_;
  std::vector<double> constant_potential0_;
  Eigen::Index row_ = 0, written_ = 0;
  std::vector<Eigen::VectorXd> deflection_;  ///< per coupled link: its nodal deflections (free dofs)
  bool need_reactions_ = false;
  double energy0_ = 0.0, residual_ = 0.0, energy_change_ = 0.0;
};

}  // namespace linkdyn::dynamics
