// The whole constrained mechanism in body coordinates as a right-hand side:
//   [ M      Phi_q^T ] [ a  ]   [ Q + Q_v ]
//   [ Phi_q  0       ] [ mu ] = [ gamma   ]
// M the bodies' mass matrices about their frames' origins, Q the applied wrenches (loads,
// actuators, friction), Q_v the centripetal terms of the off-centre masses, Phi_q the pairs'
// constraint Jacobian and gamma their acceleration terms (planar/constraints.hpp); the pairs'
// reactions are lambda = -mu. A small system is factorised densely; a large one (a chain of
// many groups) by a sparse LU whose pattern is analysed once, so that the cost grows with the
// number of bodies as the factorisation's fill does (linearly for chains of groups).
#include <Eigen/Sparse>
#include <Eigen/SparseLU>

#include "dynamics/placed_evaluator.hpp"
#include "linkdyn/planar/constraints.hpp"
#include "linkdyn/planar/kinetostatics.hpp"

namespace linkdyn::dynamics {
namespace {

constexpr int dense_limit = 90;  ///< unknowns up to which the dense LU is faster

class FullEvaluator final : public PlacedEvaluator {
 public:
  FullEvaluator(const DynamicSystem& s, const SimulationOptions& o, const double* y0) : PlacedEvaluator(s, o, y0, 3) {
    nb_ = 3 * static_cast<int>(m_.bodies().size() - 1);
    for (const planar::Joint& j : m_.joints()) nc_ += j.constraint_count();
    const int n = nb_ + nc_;
    sparse_ = n > dense_limit;
    rhs_.setZero(n);
    base_.setZero(n);
    if (sparse_) {
      matrix_.resize(n, n);
    } else {
      dense_.setZero(n, n);
      lu_ = Eigen::PartialPivLU<Eigen::MatrixXd>(n);
    }
  }

 protected:
  void prepare(planar::Workspace& ws) override {
    // The matrix and the velocity terms; the applied wrenches enter in solve().
    triplets_.clear();
    base_.setZero();
    auto put = [&](int r, int c, double v) {
      if (sparse_)
        triplets_.emplace_back(r, c, v);
      else
        dense_(r, c) = v;
    };
    if (!sparse_) dense_.setZero();
    for (size_t b = 1; b < m_.bodies().size(); ++b) {  // M_b (a_O, alpha) = Q_b + m omega^2 r_c
      const planar::Body& body = m_.bodies()[b];
      const planar::BodyState& s = ws.body[b];
      const Vec2 rc = s.arm(body.com);
      const int i = 3 * static_cast<int>(b - 1);
      put(i, i, body.mass), put(i + 1, i + 1, body.mass);
      put(i, i + 2, -body.mass * rc.y()), put(i + 2, i, -body.mass * rc.y());
      put(i + 1, i + 2, body.mass * rc.x()), put(i + 2, i + 1, body.mass * rc.x());
      put(i + 2, i + 2, body.inertia + body.mass * rc.squaredNorm());
      base_.segment<3>(i) << body.mass * s.omega * s.omega * rc.x(), body.mass * s.omega * s.omega * rc.y(), 0.0;
    }
    planar::scatter_rows(  // Phi_q and its transpose, gamma
        m_, ws, planar::all_joints(m_), true, planar::body_column,
        [&](int i, const planar::Joint&, const planar::JointRows& rows, int r) { base_(nb_ + i) = rows.gamma(r); },
        [&](int i, int col, const auto& J) {
          for (int c = 0; c < 3; ++c) put(nb_ + i, col + c, J(c)), put(col + c, nb_ + i, J(c));
        });
    if (!coupling_.empty()) {
      rigid_base_ = base_;
      couple_elastic_links(ws);
    }
    if (sparse_) {
      matrix_.setFromTriplets(triplets_.begin(), triplets_.end());  // duplicates summed (a body in two sides)
      if (!analysed_) sparse_lu_.analyzePattern(matrix_), analysed_ = true;
      sparse_lu_.factorize(matrix_);
      if (sparse_lu_.info() != Eigen::Success) throw AnalysisError("the constrained system is singular (a dead point)");
    } else {
      lu_.compute(dense_);
    }
  }

  void solve(planar::Workspace& ws, bool reactions) override {
    for (int pass = 0;; ++pass) {
      solve_once(ws, reactions || coupling_.geometric());
      // The geometric stiffness's axial forces come from the reactions: successive
      // approximations (the matrix does not change).
      if (!coupling_.geometric() || coupling_.settle_axial_forces(m_, ws, pass)) return;
      coupling_.couple();
      elastic_forces();
    }
  }

 private:
  void solve_once(planar::Workspace& ws, bool reactions) {
    rhs_ = base_;
    for (size_t b = 1; b < m_.bodies().size(); ++b)
      rhs_.segment<3>(3 * static_cast<int>(b - 1)) += ws.applied[b] + ws.friction_load[b];
    if (sparse_)
      solution_ = sparse_lu_.solve(rhs_);
    else
      solution_ = lu_.solve(rhs_);
    for (size_t l = 0; l < coupling_.size(); ++l)
      coupling_.accelerate(l, solution_.segment<3>(3 * (coupling_.link(l).body - 1)));
    for (size_t b = 1; b < m_.bodies().size(); ++b) {
      planar::BodyState& s = ws.body[b];
      const int i = 3 * static_cast<int>(b - 1);
      s.a = Vec2(solution_(i), solution_(i + 1));
      s.alpha = solution_(i + 2);
    }
    for (size_t d = 0; d < m_.drivers().size(); ++d) {
      const planar::Driver& driver = m_.drivers()[d];
      const planar::Joint& dj = m_.joints()[driver.joint];
      const planar::BodyState& s = ws.body[dj.other(0)];
      if (driver.type == planar::DriverType::rotational)
        ws.qdd[d] = s.alpha;
      else if (m_.relative_driver(static_cast<int>(d)))
        ws.qdd[d] = planar::sliding_acceleration(dj, ws);  // a cylinder's length
      else
        ws.qdd[d] = dj.as<planar::PrismaticPair>().guide_dir.dot(s.a);  // a slider on a ground guide
    }
    if (!reactions) return;
    // The multipliers of the solve: the reactions are lambda = -mu.
    int r = nb_;
    for (size_t k = 0; k < m_.joints().size(); ++k) {
      const planar::Joint& j = m_.joints()[k];
      Eigen::Vector2d lambda = Eigen::Vector2d::Zero();
      for (int c = 0; c < j.constraint_count(); ++c) lambda(c) = -solution_(r + c);
      planar::store_reaction(j, static_cast<int>(k), lambda, ws);
      r += j.constraint_count();
    }
  }

  /// Each coupled link's frame from its body's accelerations x = (a_r, alpha) of the body
  /// frame's origin r: a_O = a_r + alpha J arm - omega^2 arm (arm = O - r), in the beam frame;
  /// its terms into the body's block of the matrix and of the right-hand side.
  void couple_elastic_links(const planar::Workspace& ws) {
    for (size_t l = 0; l < coupling_.size(); ++l) {
      const flex::ModalLink& link = coupling_.link(l);
      const planar::BodyState& body = ws.body[link.body];
      const Vec2 arm = body.arm(link.origin), axis = body.arm(link.axis), normal = perp(axis), j_arm = perp(arm);
      flex::FrameAffine& f = coupling_.frame(l);
      f.V << axis.x(), axis.y(), axis.dot(j_arm), normal.x(), normal.y(), normal.dot(j_arm);
      f.W << 0.0, 0.0, 1.0;
      const Vec2 a0 = -body.omega * body.omega * arm;
      f.a0 = flex::in_beam_frame(a0, axis);
      f.epsilon0 = 0.0, f.omega = body.omega;
      f.gravity = flex::in_beam_frame(m_.spec().gravity, axis);
    }
    coupling_.couple();
    for (size_t l = 0; l < coupling_.size(); ++l) {
      const flex::CouplingTerms& c = coupling_.terms(l);
      const int i = 3 * (coupling_.link(l).body - 1);
      block_.noalias() = c.S - c.D.transpose() * c.D;
      for (int r = 0; r < 3; ++r)
        for (int k = 0; k < 3; ++k) {
          if (sparse_)
            triplets_.emplace_back(i + r, i + k, block_(r, k));
          else
            dense_(i + r, i + k) += block_(r, k);
        }
    }
    elastic_forces();
  }
  /// The links' forces on their bodies: rigid_force - D^T elastic_force, added to the rigid part.
  void elastic_forces() {
    base_ = rigid_base_;
    for (size_t l = 0; l < coupling_.size(); ++l) {
      const flex::CouplingTerms& c = coupling_.terms(l);
      auto body = base_.segment<3>(3 * (coupling_.link(l).body - 1));
      body += c.rigid_force;
      body.noalias() -= c.D.transpose() * c.elastic_force;
    }
  }

  int nb_ = 0, nc_ = 0;
  bool sparse_ = false, analysed_ = false;
  Eigen::VectorXd rhs_, base_, solution_, rigid_base_;
  Eigen::Matrix3d block_;
  Eigen::MatrixXd dense_;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
  std::vector<Eigen::Triplet<double>> triplets_;
  Eigen::SparseMatrix<double> matrix_;
  Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> sparse_lu_;
};

}  // namespace

std::unique_ptr<Evaluator> make_full_evaluator(const DynamicSystem& system, const SimulationOptions& options,
                                               const double* y0) {
  return std::make_unique<FullEvaluator>(system, options, y0);
}

}  // namespace linkdyn::dynamics
