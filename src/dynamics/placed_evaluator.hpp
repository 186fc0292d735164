#pragma once
// The common part of the full and Kane methods: the whole mechanism placed at each state
// (positions and velocities from the independent coordinates by the kinematic walk), loads and
// actuators applied as wrenches on the bodies, the pairs' friction solved with the reactions
// the accelerations produce, and, at or near a singular position, every result taken from
// regular states on both sides (SingularLimit).
#include <Eigen/QR>

#include "dynamics/elastic_coupling.hpp"
#include "dynamics/evaluator.hpp"
#include "linkdyn/planar/singular.hpp"

namespace linkdyn::dynamics {

class PlacedEvaluator : public Evaluator {
 public:
  /// `elastic_columns`: the rigid accelerations of each coupled elastic link's frame (ElasticCoupling).
  PlacedEvaluator(const DynamicSystem& s, const SimulationOptions& o, const double* y0, int elastic_columns);
  void evaluate(double t, const double* y, const Branches& b, Evaluation& e) final;
  void speeds(double t, const double* y, Speeds& s) final;
  void holding(double t, const double* y, const Branches& b, double& drive, double& capacity,
               std::vector<double>& coefficients) final;

 protected:
  /// The method's own solution with the loads in ws.applied and the friction loads in
  /// ws.friction_load: ws.qdd and the accelerations; with `reactions`, ws.reaction too.
  /// `prepare` first, once per state (factorisations that the friction iterations reuse).
  virtual void prepare(planar::Workspace& ws) = 0;
  virtual void solve(planar::Workspace& ws, bool reactions) = 0;

  /// The coupled elastic links (empty for rigid ones), their frames depending on `columns`
  /// rigid accelerations as the method chooses; its state is set before prepare().
  ElasticCoupling coupling_;

 private:
  /// Positions and velocities at y into ws_; false where the state is at or near a singular
  /// position (then only the positions are solved). Throws AnalysisError where the mechanism
  /// does not assemble.
  [[nodiscard]] bool place(const double* y);
  /// The evaluation at the placed (regular) state in ws.
  void evaluate_at(planar::Workspace& ws, double t, const double* y, const Branches& b, Evaluation& e);
  /// ws.friction_load from the sliding pairs' friction and the held elements' efforts (plus a
  /// unit effort of element `unit`).
  void friction_loads(planar::Workspace& ws, const Branches& b, int unit = -1);
  /// The held elements' efforts that keep them at rest (their accelerations zero), then the
  /// solution with them, reactions included.
  void hold(planar::Workspace& ws, const Branches& b);
  /// A held element's static capacity: f_s times its load at the solved reactions, or T0_static.
  [[nodiscard]] double static_capacity(const planar::Workspace& ws, size_t k, Evaluation& e) const;
  /// Loads, actuators and the resistances' Coulomb efforts into ws.applied; speeds and powers.
  void apply_loads(planar::Workspace& ws, double t, const double* y, const Branches& b, Evaluation& e);
  [[nodiscard]] std::string coordinates(const double* y) const;

  planar::Workspace ws_;
  planar::SingularLimit limits_;
  std::vector<int> kinds_;
  Evaluation sample_;
  std::vector<double> bearing_effort_;  ///< the last converged friction (a warm start)
  double effort_scale_ = 0.0;           ///< the largest friction effort converged so far (FrictionIteration)
  std::vector<double> held_effort_;     ///< per element: the effort that holds it at rest (a warm start)
  std::vector<double> held_previous_;   ///< the same at the previous friction iteration
  std::vector<size_t> held_;            ///< the elements held at this evaluation
  /// hold()'s buffers, sized for every element held: the held elements' accelerations, their
  /// response to unit efforts, its decomposition per count held, and the Newton step.
  Eigen::VectorXd hold_a0_, hold_a1_, hold_step_;
  Eigen::MatrixXd hold_response_;
  std::vector<Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>> hold_cod_;
  std::vector<double> loads_;        ///< at rest: each element's load (holding)
  std::vector<double> rest_effort_;  ///< at rest: the static efforts
  std::vector<planar::Wrench> rest_applied_;
};

[[nodiscard]] std::unique_ptr<Evaluator> make_kane_evaluator(const DynamicSystem& system,
                                                             const SimulationOptions& options, const double* y0);
[[nodiscard]] std::unique_ptr<Evaluator> make_full_evaluator(const DynamicSystem& system,
                                                             const SimulationOptions& options, const double* y0);

}  // namespace linkdyn::dynamics
