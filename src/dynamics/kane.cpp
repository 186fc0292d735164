// Kane's equations for rigid planar mechanisms of any number of DOF [004 Appendix B].
#include "linkdyn/dynamics/kane.hpp"

#include <fmt/format.h>

#include "linkdyn/planar/constraints.hpp"

namespace linkdyn::dynamics {

using planar::Mechanism;
using planar::Workspace;

namespace {

int moving_bodies(const Mechanism& m) { return static_cast<int>(m.bodies().size()) - 1; }

/// The accelerations {a} of every moving body (centre of mass, then angular) into `out`.
void body_accelerations(const Mechanism& m, const Workspace& ws, Eigen::Ref<Eigen::VectorXd> out) {
  for (int b = 1; b <= moving_bodies(m); ++b) {
    const planar::BodyState& s = ws.body[b];
    out.segment<2>(3 * (b - 1)) = s.acceleration(m.bodies()[b].com);
    out(3 * (b - 1) + 2) = s.alpha;
  }
}

}  // namespace

KaneWorkspace::KaneWorkspace(const Mechanism& m) {
  const int rows = 3 * moving_bodies(m), n = static_cast<int>(m.drivers().size());
  int constraints = 0;
  for (const planar::Joint& j : m.joints()) constraints += j.constraint_count();
  A.setZero(rows, n);
  B.setZero(rows);
  mass.setZero(rows);
  for (int b = 1; b <= moving_bodies(m); ++b)
    mass.segment<3>(3 * (b - 1)) << m.bodies()[b].mass, m.bodies()[b].mass, m.bodies()[b].inertia;
  Q.setZero(rows);
  mA.setZero(rows, n);
  residual.setZero(rows);
  M.setZero(n, n);
  h.setZero(n);
  added_mass.setZero(n, n);
  added_force.setZero(n);
  qdd.setZero(n);
  ldlt.compute(Eigen::MatrixXd::Identity(
      n, n));  // sized, with its status set (a copy of an unfactorised LDLT reads an unset one)
  liaison_matrix.setZero(rows, constraints);
  liaison_force.setZero(rows);
  lambda.setZero(constraints);
  qr = Eigen::ColPivHouseholderQR<Eigen::MatrixXd>(rows, constraints);
}

void partial_velocities(const Mechanism& m, Workspace& ws, KaneWorkspace& kw) {
  // The accelerations are linear in qdd: a = A qdd + B [004 Eq. 24]. Each unit qdd_j gives
  // B + A_j; qdd = 0 gives B, the velocity-product terms at the current velocities.
  const size_t n = ws.qdd.size();
  for (size_t j = 0; j < n; ++j) {
    std::fill(ws.qdd.begin(), ws.qdd.end(), 0.0);
    ws.qdd[j] = 1.0;
    planar::solve_accelerations(m, ws);
    body_accelerations(m, ws, kw.A.col(static_cast<Eigen::Index>(j)));
  }
  std::fill(ws.qdd.begin(), ws.qdd.end(), 0.0);
  planar::solve_accelerations(m, ws);
  body_accelerations(m, ws, kw.B);
  kw.A.colwise() -= kw.B;  // [004 Eq. A30]: d a / d qdd
}

void external_forces(const Mechanism& m, const Workspace& ws, KaneWorkspace& kw) {
  for (int b = 1; b <= moving_bodies(m); ++b) {
    const planar::Wrench& w = ws.applied[b];  // about the body frame's origin
    const Vec2 F(w(0), w(1));
    const Vec2 rc = ws.body[b].arm(m.bodies()[b].com);
    kw.Q.segment<3>(3 * (b - 1)) << F.x(), F.y(), w(2) - cross(rc, F);
  }
}

void add_external_forces(const Mechanism& m, const Workspace& ws, const std::vector<planar::Wrench>& wrenches,
                         KaneWorkspace& kw) {
  for (int b = 1; b <= moving_bodies(m); ++b) {
    const planar::Wrench& w = wrenches[b];
    const Vec2 F(w(0), w(1));
    const Vec2 rc = ws.body[b].arm(m.bodies()[b].com);
    kw.Q.segment<3>(3 * (b - 1)) += Eigen::Vector3d(F.x(), F.y(), w(2) - cross(rc, F));
  }
}

void factorise_kane(const Mechanism&, const Workspace& ws, KaneWorkspace& kw) {
  kw.mA.noalias() = kw.mass.asDiagonal() * kw.A;
  kw.M.noalias() = kw.A.transpose() * kw.mA;
  kw.M += kw.added_mass;
  kw.ldlt.compute(kw.M);
  if (kw.ldlt.info() != Eigen::Success || !(kw.ldlt.vectorD().minCoeff() > 1e-12 * kw.ldlt.vectorD().maxCoeff()))
    throw AnalysisError(fmt::format("Kane's mass matrix A^T m A is singular at q = ({:.9g}{})", ws.q[0],
                                    ws.q.size() > 1 ? fmt::format(", {:.9g}", ws.q[1]) : std::string()));
}

void solve_kane_factorised(const Mechanism&, const Workspace&, KaneWorkspace& kw) {
  // [004 Eq. A46]: A^T m A qdd = A^T Q_ext - A^T m B (the liaisons do no work, [004 Eq. A45]).
  kw.residual = kw.Q - kw.mass.cwiseProduct(kw.B);
  kw.h.noalias() = kw.A.transpose() * kw.residual;
  kw.h += kw.added_force;
  kw.qdd = kw.ldlt.solve(kw.h);
}

void solve_kane(const Mechanism& m, Workspace& ws, KaneWorkspace& kw) {
  partial_velocities(m, ws, kw);
  external_forces(m, ws, kw);
  factorise_kane(m, ws, kw);
  solve_kane_factorised(m, ws, kw);
}

void liaison_forces(const Mechanism& m, Workspace& ws, KaneWorkspace& kw) {
  // [004 Eq. A43]: Q_liaison = m a - Q_ext with a = A qdd + B, taken to the body frames'
  // origins, where the pairs' constraint forces are Phi_q^T lambda.
  kw.residual = kw.B;
  kw.residual.noalias() += kw.A * kw.qdd;  // a = A qdd + B
  kw.liaison_force = kw.mass.cwiseProduct(kw.residual) - kw.Q;
  for (int b = 1; b <= moving_bodies(m); ++b) {
    const int i = 3 * (b - 1);
    const Vec2 rc = ws.body[b].arm(m.bodies()[b].com);
    kw.liaison_force(i + 2) += cross(rc, Vec2(kw.liaison_force(i), kw.liaison_force(i + 1)));
  }
  kw.liaison_matrix.setZero();
  planar::assemble_jacobian(m, ws, planar::all_joints(m), planar::body_column, kw.liaison_matrix.transpose());
  kw.qr.compute(kw.liaison_matrix);
  kw.lambda = kw.qr.solve(kw.liaison_force);
  kw.liaison_residual = (kw.liaison_matrix * kw.lambda - kw.liaison_force).lpNorm<Eigen::Infinity>();
  int r = 0;
  for (size_t k = 0; k < m.joints().size(); ++k) {
    const planar::Joint& j = m.joints()[k];
    Eigen::Vector2d lambda = Eigen::Vector2d::Zero();
    lambda.head(j.constraint_count()) = kw.lambda.segment(r, j.constraint_count());
    planar::store_reaction(j, static_cast<int>(k), lambda, ws);
    r += j.constraint_count();
  }
  for (size_t j = 0; j < ws.qdd.size(); ++j) ws.qdd[j] = kw.qdd(static_cast<Eigen::Index>(j));
  planar::solve_accelerations(m, ws);
}

}  // namespace linkdyn::dynamics
