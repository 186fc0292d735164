#pragma once
// Kane's equations for rigid planar mechanisms of any number of degrees of freedom
// [004 Appendix B]. The independent coordinates are the drivers' (ws.q, ws.qd). From the
// kinematic walk of the group tape:
//   {a} = [A] {qdd} + {B}                                   [004 Eq. 24, Eqs. A30-A31]
// with {a} the accelerations of the bodies' centres of mass and their angular accelerations,
// [A] the partial velocities (d a / d qdd, the tape walked with unit independent
// accelerations) and {B} the velocity-product terms (the tape walked with qdd = 0; the paper's
// [B1 B2 B3]{omega1^2, omega1 xd_D, xd_D^2}). Then
//   [A]^T [m] [A] {qdd} + [A]^T [m] {B} = [A]^T {Q_ext}      [004 Eq. A46]
// and the liaison forces from [m] {a} = {Q_ext} + {Q_liaison} [004 Eqs. A42-A43].
#include <Eigen/Dense>

#include "linkdyn/planar/kinetostatics.hpp"

namespace linkdyn::dynamics {

/// The buffers of Kane's equations for one mechanism, sized once (3 rows per moving body,
/// one column per independent coordinate).
struct KaneWorkspace {
  explicit KaneWorkspace(const planar::Mechanism& m);
  Eigen::MatrixXd A;         ///< partial velocities [004 Eq. A30]
  Eigen::VectorXd B;         ///< velocity-product terms [004 Eq. A31]
  Eigen::VectorXd mass;      ///< the diagonal of [m]: m, m, J_G per moving body
  Eigen::VectorXd Q;         ///< Q_ext: force and moment about the centre of mass per body [004 Eq. A42]
  Eigen::MatrixXd M;         ///< A^T m A
  Eigen::VectorXd h;         ///< A^T (Q_ext - m B)
  Eigen::VectorXd qdd;       ///< the independent accelerations
  Eigen::MatrixXd mA;        ///< scratch: m A
  Eigen::VectorXd residual;  ///< scratch: Q_ext - m B, then a
  /// What coupled elastic links add to the mass matrix and to the generalized forces (zero for
  /// a rigid mechanism; flex/coupled.hpp).
  Eigen::MatrixXd added_mass;
  Eigen::VectorXd added_force;
  Eigen::LDLT<Eigen::MatrixXd> ldlt;
  Eigen::MatrixXd liaison_matrix;  ///< Phi_q^T: the pairs' multipliers to generalized forces
  Eigen::VectorXd liaison_force;   ///< m a - Q_ext, about the body frames' origins
  Eigen::VectorXd lambda;          ///< the pairs' multipliers
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr;
  double liaison_residual = 0.0;  ///< |Phi_q^T lambda - (m a - Q_ext)|: 0 when A^T Q_liaison = 0
};

/// [A] and {B} at the state in ws (positions and velocities solved, ws.qd the independent
/// velocities): the accelerations walked with qdd = 0 and with each unit qdd. Leaves ws's
/// accelerations at qdd = 0.
void partial_velocities(const planar::Mechanism& m, planar::Workspace& ws, KaneWorkspace& kw);

/// Q_ext from ws.applied (the loads, gravity, force elements and actuators, as wrenches about
/// the body frames' origins), taken to the centres of mass [004 Eq. A42].
void external_forces(const planar::Mechanism& m, const planar::Workspace& ws, KaneWorkspace& kw);

/// Adds the generalized forces of more wrenches (about the body frames' origins, e.g. the
/// pairs' friction) to kw.Q.
void add_external_forces(const planar::Mechanism& m, const planar::Workspace& ws,
                         const std::vector<planar::Wrench>& wrenches, KaneWorkspace& kw);

/// The mass matrix A^T m A (+ added_mass) of [004 Eq. A46] and its LDLT factorisation (after
/// partial_velocities). Throws AnalysisError where it is singular.
void factorise_kane(const planar::Mechanism& m, const planar::Workspace& ws, KaneWorkspace& kw);
/// kw.qdd from the factorised equations with the current kw.Q.
void solve_kane_factorised(const planar::Mechanism& m, const planar::Workspace& ws, KaneWorkspace& kw);

/// partial_velocities, external_forces, then the reduced equations [004 Eq. A46] solved for
/// kw.qdd (LDLT of the symmetric positive mass matrix A^T m A). ws.applied must be set.
/// Throws AnalysisError where A^T m A is singular.
void solve_kane(const planar::Mechanism& m, planar::Workspace& ws, KaneWorkspace& kw);

/// After solve_kane: the liaison forces from [m] {a} = {Q_ext} + {Q_liaison} [004 Eq. A43]
/// with a = A qdd + B, solved for the pairs' multipliers (Phi_q^T lambda = m a - Q_ext, by
/// QR), stored in ws.reaction as kinetostatics does; ws.qdd and the accelerations are set to
/// the solution.
void liaison_forces(const planar::Mechanism& m, planar::Workspace& ws, KaneWorkspace& kw);

}  // namespace linkdyn::dynamics
