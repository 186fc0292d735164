// Kane's equations as a right-hand side [004 Eq. A46]: A^T m A qdd = A^T (Q_ext - m B), the
// partial velocities A and velocity-product terms B from the kinematic walk; the reactions,
// where friction needs them, by the kinetostatic walk at the resulting accelerations (linear
// in the number of bodies, like the walk itself). Coupled elastic links add their modal
// coordinates as generalized speeds (flex/coupled.hpp): with D, S and their forces,
//   (A^T m A + S - D^T D) qdd = A^T (Q_ext - m B) + rigid_force - D^T elastic_force,
//   eta'' = elastic_force - D qdd                  (the elastic rows eliminated, Schur complement)
#include "dynamics/placed_evaluator.hpp"
#include "linkdyn/dynamics/kane.hpp"

namespace linkdyn::dynamics {
namespace {

class KaneEvaluator final : public PlacedEvaluator {
 public:
  KaneEvaluator(const DynamicSystem& s, const SimulationOptions& o, const double* y0)
      : PlacedEvaluator(s, o, y0, static_cast<int>(s.mechanism->drivers().size())), kw_(*s.mechanism), Qa_(kw_.Q) {
    loads_.resize(coupling_.size());
  }

 protected:
  void prepare(planar::Workspace& ws) override {
    // [004 Eqs. A30-A31, A46]: A, B, the loads' Q and the mass matrix, factorised once.
    partial_velocities(m_, ws, kw_);
    external_forces(m_, ws, kw_);
    Qa_ = kw_.Q;
    if (!coupling_.empty()) {
      frames(ws);
      coupling_.couple();
      kw_.added_mass.setZero();
      for (size_t l = 0; l < coupling_.size(); ++l) {
        const flex::CouplingTerms& c = coupling_.terms(l);
        kw_.added_mass += c.S;
        kw_.added_mass.noalias() -= c.D.transpose() * c.D;
      }
      added_forces();
    }
    factorise_kane(m_, ws, kw_);
  }

  void solve(planar::Workspace& ws, bool reactions) override {
    for (int pass = 0;; ++pass) {
      kw_.Q = Qa_;
      add_external_forces(m_, ws, ws.friction_load, kw_);
      solve_kane_factorised(m_, ws, kw_);
      for (size_t i = 0; i < ws.qdd.size(); ++i) ws.qdd[i] = kw_.qdd(static_cast<Eigen::Index>(i));
      planar::solve_accelerations(m_, ws);
      for (size_t l = 0; l < coupling_.size(); ++l) coupling_.accelerate(l, kw_.qdd);
      if (!reactions && !coupling_.geometric()) return;
      // The reactions, with the loads the links' deformation adds to their bodies.
      for (size_t l = 0; l < coupling_.size(); ++l) {
        loads_[l] = coupling_.deformation_load(m_, ws, l);
        ws.applied[coupling_.link(l).body] += loads_[l];
      }
      planar::solve_reactions(m_, ws);
      for (size_t l = 0; l < coupling_.size(); ++l) ws.applied[coupling_.link(l).body] -= loads_[l];
      // The geometric stiffness's axial forces come from those reactions: successive
      // approximations (the mass matrix does not change).
      if (!coupling_.geometric() || coupling_.settle_axial_forces(m_, ws, pass)) return;
      coupling_.couple();
      added_forces();
    }
  }

 private:
  /// Each link's frame as affine functions of qdd, from its body's rows of A and B: the origin
  /// O's acceleration a_G + epsilon J r_GO - omega^2 r_GO, in the beam frame.
  void frames(const planar::Workspace& ws) {
    for (size_t l = 0; l < coupling_.size(); ++l) {
      const flex::ModalLink& link = coupling_.link(l);
      const planar::BodyState& body = ws.body[link.body];
      const Eigen::Index row = 3 * (link.body - 1);
      const Vec2 r_go = body.arm(link.origin) - body.arm(m_.bodies()[link.body].com), j_r = perp(r_go);
      const Vec2 axis = body.arm(link.axis), normal = perp(axis);
      flex::FrameAffine& f = coupling_.frame(l);
      for (Eigen::Index j = 0; j < kw_.A.cols(); ++j) {
        const Vec2 v(kw_.A(row, j) + j_r.x() * kw_.A(row + 2, j), kw_.A(row + 1, j) + j_r.y() * kw_.A(row + 2, j));
        f.V(0, j) = axis.dot(v), f.V(1, j) = normal.dot(v);
        f.W(j) = kw_.A(row + 2, j);
      }
      const Vec2 a0 = Vec2(kw_.B(row), kw_.B(row + 1)) + kw_.B(row + 2) * j_r - body.omega * body.omega * r_go;
      f.a0 = flex::in_beam_frame(a0, axis);
      f.epsilon0 = kw_.B(row + 2);
      f.omega = body.omega;
      f.gravity = flex::in_beam_frame(m_.spec().gravity, axis);
    }
  }

  /// What the links add to the generalized forces: rigid_force - D^T elastic_force.
  void added_forces() {
    kw_.added_force.setZero();
    for (size_t l = 0; l < coupling_.size(); ++l) {
      const flex::CouplingTerms& c = coupling_.terms(l);
      kw_.added_force += c.rigid_force;
      kw_.added_force.noalias() -= c.D.transpose() * c.elastic_force;
    }
  }

  KaneWorkspace kw_;
  Eigen::VectorXd Qa_;                 ///< the loads' and actuators' Q_ext, without friction
  std::vector<planar::Wrench> loads_;  ///< per coupled link: its deformation's load on its body
};

}  // namespace

std::unique_ptr<Evaluator> make_kane_evaluator(const DynamicSystem& system, const SimulationOptions& options,
                                               const double* y0) {
  return std::make_unique<KaneEvaluator>(system, options, y0);
}

}  // namespace linkdyn::dynamics
