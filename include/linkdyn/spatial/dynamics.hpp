#pragma once
// Dynamics of a tree by the recursive algorithms: inverse dynamics (recursive Newton-Euler),
// mass matrix (composite rigid body), forward dynamics (articulated body, or the mass matrix
// factored along the tree), joint friction that depends on the joint reactions [002 Eq. 157].
// Sign convention: tau = M(q) qdd + h(q, qd) + Q_fd, with h = C qd + g(q) - J^T w, where g holds
// the torques that balance gravity and w is the load's wrench on the end effector.
#include <Eigen/Core>

#include "linkdyn/spatial/data.hpp"

namespace linkdyn::spatial {

/// Which terms enter: gravity, the end-effector load, joint friction.
struct Terms {
  bool gravity = true;
  bool load = true;
  bool friction = true;
};

/// Driving forces tau(q, qd, qdd) by recursive Newton-Euler; data.f[i] is then the wrench
/// [n; f] that the parent link exerts on link i through joint i, in link i's frame (the joint
/// reaction plus the driving force). A free-flyer's tau is the wrench [force; moment] in its link's
/// axes. Result in data.tau.
const Eigen::VectorXd& inverse_dynamics(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd, VectorIn qdd,
                                        Terms terms = {});

/// Joint friction from the transmitted wrenches in data.f [002 Eq. 157]: viscous b qd plus a
/// constant c and mu |k x f| (prismatic) or mu d/2 |k x f| (revolute) against the velocity. At qd = 0 the dry
/// part is zero (no stiction model: a joint at rest has no dry friction). Result in data.friction.
const Eigen::VectorXd& joint_friction(const Chain& chain, ChainData& data, VectorIn qd);

/// Mass matrix by the composite-rigid-body algorithm. Result in data.mass_matrix (entries between
/// DOFs on different branches are zero).
const Eigen::MatrixXd& mass_matrix(const Chain& chain, ChainData& data, VectorIn q);

/// Bias forces h(q, qd) (Coriolis, centrifugal, gravity, load; no friction). Result in data.bias.
const Eigen::VectorXd& bias_forces(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd, Terms terms = {});

enum class ForwardMethod { articulated_body, mass_matrix_cholesky };

/// Accelerations qdd from the driving forces tau. Friction (if the chain has any and
/// terms.friction) by successive approximations on the reactions it depends on; throws
/// AnalysisError if they do not converge. Result in data.qdd.
const Eigen::VectorXd& forward_dynamics(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd, VectorIn tau,
                                        ForwardMethod method = ForwardMethod::articulated_body, Terms terms = {});

/// Kinetic energy 1/2 qd^T M qd (from the link velocities).
[[nodiscard]] double kinetic_energy(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd);
/// Potential energy of gravity, - sum m_k g . c_k.
[[nodiscard]] double potential_energy(const Chain& chain, ChainData& data, VectorIn q);

/// The load's wrench [n; f] on the end effector's link, in its frame, at its origin; needs the
/// link poses (data.local).
[[nodiscard]] Vec6 load_wrench_on_end_effector_link(const Chain& chain, const ChainData& data);

/// data.mass_matrix factored as L^T D L along the tree (RBDA Sect. 6.5) into
/// data.mass_matrix_factor; throws AnalysisError if it is not positive definite.
void factor_mass_matrix(const Chain& chain, ChainData& data);
/// x = M^-1 x with the factor of factor_mass_matrix.
void solve_mass_matrix(const Chain& chain, const ChainData& data, Eigen::Ref<Eigen::VectorXd> x);

}  // namespace linkdyn::spatial
