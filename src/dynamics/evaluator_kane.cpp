// Kane's equations as a right-hand side [004 Eq. A46]: A^T m A qdd = A^T (Q_ext - m B), the
// partial velocities A and velocity-product terms B from the kinematic walk; the reactions,
// where friction needs them, by the kinetostatic walk at the resulting accelerations (linear
// in the number of bodies, like the walk itself). Coupled elastic links add their modal
// coordinates as generalized speeds (flex/coupled.hpp): with D, S and their forces,
//   (A^T m A + S - D^T D) qdd = A^T (Q_ext - m B) + rigid_force - D^T elastic_force,
//   eta'' = elastic_force - D qdd                  (the elastic rows eliminated, Schur complement)
#include <fmt/format.h>

#include "dynamics/placed_evaluator.hpp"
#include "linkdyn/dynamics/kane.hpp"

namespace linkdyn::dynamics {
namespace {

class KaneEvaluator final : public PlacedEvaluator {
 public:
  KaneEvaluator(const DynamicSystem& s, const SimulationOptions& o, const double* y0)
      : PlacedEvaluator(s, o, y0), kw_(*s.mechanism), Qa_(kw_.Q) {
    const int n = static_cast<int>(n_);
    for (const flex::ModalLink& link : sys_.elastic) {
      terms_.emplace_back(n, link.modes);
      flex::FrameAffine& frame = frames_.emplace_back();
      frame.V.setZero(2, n), frame.W.setZero(n);
      axial_.emplace_back();
      geometric_ = geometric_ || link.beam.geometric_stiffness;
    }
    eta_acceleration_.setZero(static_cast<Eigen::Index>(elastic_));
  }

 protected:
  void prepare(planar::Workspace& ws, const double* y) override {
    // [004 Eqs. A30-A31, A46]: A, B, the loads' Q and the mass matrix, factorised once.
    partial_velocities(m_, ws, kw_);
    external_forces(m_, ws, kw_);
    Qa_ = kw_.Q;
    y_ = y;
    if (!sys_.elastic.empty()) {
      frames(ws);
      couple();
      kw_.added_mass.setZero();
      for (const flex::CouplingTerms& c : terms_) {
        kw_.added_mass += c.S;
        kw_.added_mass.noalias() -= c.D.transpose() * c.D;
      }
    }
    factorise_kane(m_, ws, kw_);
  }

  void solve(planar::Workspace& ws, bool reactions) override {
    // The axial forces of the geometric stiffness come from the reactions, which the
    // accelerations give: successive approximations from the last evaluation's forces.
    for (int pass = 0;; ++pass) {
      kw_.Q = Qa_;
      add_external_forces(m_, ws, ws.friction_load, kw_);
      solve_kane_factorised(m_, ws, kw_);
      for (size_t i = 0; i < ws.qdd.size(); ++i) ws.qdd[i] = kw_.qdd(static_cast<Eigen::Index>(i));
      planar::solve_accelerations(m_, ws);
      Eigen::Index at = 0;
      for (const flex::CouplingTerms& c : terms_) {
        auto acc = eta_acceleration_.segment(at, c.elastic_force.size());
        acc = c.elastic_force;
        acc.noalias() -= c.D * kw_.qdd;
        at += c.elastic_force.size();
      }
      if (!reactions && !geometric_) return;
      reactions_with_deformation(ws);
      if (!geometric_) return;
      // Done when the new axial forces change the links' elastic forces by less than the
      // tolerance of their size: the change of k_G(P) eta.
      double change = 0.0, size = 0.0;
      for (size_t l = 0; l < sys_.elastic.size(); ++l) {
        const flex::ModalLink& link = sys_.elastic[l];
        if (!link.beam.geometric_stiffness) continue;
        const flex::AxialForce next = flex::coupled_axial_force(ws, link, flex::frame_state(m_, ws, link));
        Eigen::VectorXd& delta = terms_[l].scratch;
        delta.noalias() = (next.c0 - axial_[l].c0) * (link.geometric[0] * eta(l, false));
        delta.noalias() += (next.c1 - axial_[l].c1) * (link.geometric[1] * eta(l, false));
        delta.noalias() += (next.c2 - axial_[l].c2) * (link.geometric[2] * eta(l, false));
        change = std::max(change, delta.lpNorm<Eigen::Infinity>());
        size = std::max(size, terms_[l].elastic_force.lpNorm<Eigen::Infinity>());
        axial_[l] = next;
      }
      if (change <= friction_tolerance_ * size) return;
      if (pass >= 50)
        throw AnalysisError(
            "the elastic links' axial forces do not settle (their geometric stiffness and the reactions feed each "
            "other: the link buckles?)");
      couple();  // the elastic forces with the new axial forces (the mass matrix does not change)
    }
  }

  void elastic_rates(Evaluation& e) override {
    if (sys_.elastic.empty()) return;
    for (Eigen::Index i = 0; i < eta_acceleration_.size(); ++i)
      e.elastic_acceleration[static_cast<size_t>(i)] = eta_acceleration_(i);
    powers(e);
  }

  void elastic_rates_at_rest(planar::Workspace& ws, const double* y, Evaluation& e) override {
    if (sys_.elastic.empty()) return;
    y_ = y;
    for (size_t l = 0; l < sys_.elastic.size(); ++l) {
      flex::FrameAffine& f = frames_[l];
      f.V.setZero(), f.W.setZero();
      f.a0.setZero(), f.epsilon0 = 0.0, f.omega = 0.0;
      f.gravity = flex::frame_state(m_, ws, sys_.elastic[l]).gravity;
    }
    couple();
    Eigen::Index at = 0;
    for (const flex::CouplingTerms& c : terms_) {
      eta_acceleration_.segment(at, c.elastic_force.size()) = c.elastic_force;
      at += c.elastic_force.size();
    }
    elastic_rates(e);
  }

 private:
  /// The modal coordinates of link l and their rates in y.
  Eigen::Map<const Eigen::VectorXd> eta(size_t l, bool rate) const {
    const size_t at = elastic_offset() + (rate ? elastic_ : 0) + link_offset(l);
    return {y_ + at, sys_.elastic[l].modes};
  }
  size_t link_offset(size_t l) const {
    size_t at = 0;
    for (size_t k = 0; k < l; ++k) at += static_cast<size_t>(sys_.elastic[k].modes);
    return at;
  }

  /// Each link's frame as affine functions of qdd, from its body's rows of A and B: the
  /// origin O's acceleration a_G + epsilon J r_GO - omega^2 r_GO, in the beam frame.
  void frames(const planar::Workspace& ws) {
    for (size_t l = 0; l < sys_.elastic.size(); ++l) {
      const flex::ModalLink& link = sys_.elastic[l];
      const planar::BodyState& body = ws.body[link.body];
      const Eigen::Index row = 3 * (link.body - 1);
      const Vec2 r_go = body.arm(link.origin) - body.arm(m_.bodies()[link.body].com), j_r = perp(r_go);
      const Vec2 axis = body.arm(link.axis), normal = perp(axis);
      flex::FrameAffine& f = frames_[l];
      for (Eigen::Index j = 0; j < kw_.A.cols(); ++j) {
        const Vec2 v(kw_.A(row, j) + j_r.x() * kw_.A(row + 2, j), kw_.A(row + 1, j) + j_r.y() * kw_.A(row + 2, j));
        f.V(0, j) = axis.dot(v), f.V(1, j) = normal.dot(v);
        f.W(j) = kw_.A(row + 2, j);
      }
      const Vec2 a0 = Vec2(kw_.B(row), kw_.B(row + 1)) + kw_.B(row + 2) * j_r - body.omega * body.omega * r_go;
      f.a0 = Vec2(axis.dot(a0), normal.dot(a0));
      f.epsilon0 = kw_.B(row + 2);
      f.omega = body.omega;
      f.gravity = Vec2(axis.dot(m_.spec().gravity), normal.dot(m_.spec().gravity));
    }
  }

  /// Every link's terms at the state and what they add to the rigid generalized forces.
  void couple() {
    kw_.added_force.setZero();
    for (size_t l = 0; l < sys_.elastic.size(); ++l) {
      flex::CouplingTerms& c = terms_[l];
      flex::coupling_terms(sys_.elastic[l], frames_[l], eta(l, false), eta(l, true), axial_[l], c);
      kw_.added_force += c.rigid_force;
      kw_.added_force.noalias() -= c.D.transpose() * c.elastic_force;
    }
  }

  /// The kinetostatic walk's reactions with the deformation's loads on the links' bodies.
  void reactions_with_deformation(planar::Workspace& ws) {
    Eigen::Index at = 0;
    loads_.resize(sys_.elastic.size());
    for (size_t l = 0; l < sys_.elastic.size(); ++l) {
      const flex::ModalLink& link = sys_.elastic[l];
      loads_[l] = flex::deformation_load(link, ws, flex::frame_state(m_, ws, link), eta(l, false), eta(l, true),
                                         eta_acceleration_.segment(at, link.modes));
      ws.applied[link.body] += loads_[l];
      at += link.modes;
    }
    planar::solve_reactions(m_, ws);
    for (size_t l = 0; l < sys_.elastic.size(); ++l) ws.applied[sys_.elastic[l].body] -= loads_[l];
  }

  void powers(Evaluation& e) const {
    e.elastic_damping_power = e.geometric_power = 0.0;
    for (size_t l = 0; l < sys_.elastic.size(); ++l) {
      const flex::ElasticPowers p = flex::elastic_powers(sys_.elastic[l], eta(l, false), eta(l, true), axial_[l]);
      e.elastic_damping_power += p.damping, e.geometric_power += p.geometric;
    }
  }

  KaneWorkspace kw_;
  Eigen::VectorXd Qa_;  ///< the loads' and actuators' Q_ext, without friction
  // Coupled elastic links: per link its frame, terms and axial force (the last evaluation's).
  std::vector<flex::FrameAffine> frames_;
  std::vector<flex::CouplingTerms> terms_;
  std::vector<flex::AxialForce> axial_;
  std::vector<planar::Wrench> loads_;
  Eigen::VectorXd eta_acceleration_;
  const double* y_ = nullptr;
  bool geometric_ = false;
};

}  // namespace

std::unique_ptr<Evaluator> make_kane_evaluator(const DynamicSystem& system, const SimulationOptions& options,
                                               const double* y0) {
  return std::make_unique<KaneEvaluator>(system, options, y0);
}

}  // namespace linkdyn::dynamics
