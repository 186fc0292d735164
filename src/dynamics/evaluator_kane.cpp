// Kane's equations as a right-hand side [004 Eq. A46]: A^T m A qdd = A^T (Q_ext - m B), the
// partial velocities A and velocity-product terms B from the kinematic walk; the reactions,
// where friction needs them, by the kinetostatic walk at the resulting accelerations (linear
// in the number of bodies, like the walk itself).
#include "dynamics/placed_evaluator.hpp"
#include "linkdyn/dynamics/kane.hpp"

namespace linkdyn::dynamics {
namespace {

class KaneEvaluator final : public PlacedEvaluator {
 public:
  KaneEvaluator(const DynamicSystem& s, const SimulationOptions& o, const double* y0)
      : PlacedEvaluator(s, o, y0), kw_(*s.mechanism), Qa_(kw_.Q) {}

 protected:
  void prepare(planar::Workspace& ws) override {
    // [004 Eqs. A30-A31, A46]: A, B, the loads' Q and the mass matrix, factorised once.
    partial_velocities(m_, ws, kw_);
    external_forces(m_, ws, kw_);
    Qa_ = kw_.Q;
    factorise_kane(m_, ws, kw_);
  }
  void solve(planar::Workspace& ws, bool reactions) override {
    kw_.Q = Qa_;
    add_external_forces(m_, ws, ws.friction_load, kw_);
    solve_kane_factorised(m_, ws, kw_);
    for (size_t i = 0; i < ws.qdd.size(); ++i) ws.qdd[i] = kw_.qdd(static_cast<Eigen::Index>(i));
    planar::solve_accelerations(m_, ws);
    if (reactions) planar::solve_reactions(m_, ws);
  }

 private:
  KaneWorkspace kw_;
  Eigen::VectorXd Qa_;  ///< the loads' and actuators' Q_ext, without friction
};

}  // namespace

std::unique_ptr<Evaluator> make_kane_evaluator(const DynamicSystem& system, const SimulationOptions& options,
                                               const double* y0) {
  return std::make_unique<KaneEvaluator>(system, options, y0);
}

}  // namespace linkdyn::dynamics
