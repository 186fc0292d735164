#pragma once
// The dynamics matrices of [002] in their trace form, from the differential matrices and the
// pseudo-inertia tensors, and the generalized forces through Jacobians [002 Sects. 3.3, 4].
// These are the paper's method, kept as an independent check of the recursive algorithms.
#include <Eigen/Core>

#include "linkdyn/spatial/data.hpp"

namespace linkdyn::spatial {

/// M_ij = sum over the links k moved by both DOFs of Tr(A_ki J_k A_kj^T) [002 Eq. 94].
[[nodiscard]] Eigen::MatrixXd mass_matrix_trace(const Chain& chain, ChainData& data, VectorIn q);
/// V_i = qd^T [sum_k Tr(A_ki J_k A_kjm^T)] qd [002 Eq. 96] (Coriolis and centrifugal terms).
[[nodiscard]] Eigen::VectorXd velocity_terms_trace(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd);
/// The Coriolis matrix of the trace form, C_ij = sum_k Tr(A_ki J_k (d A_kj/dt)^T) with
/// d A_kj/dt = sum_m A_kjm qd_m: C qd = V [002 Eq. 96] and dM/dt - 2 C is skew-symmetric.
[[nodiscard]] Eigen::MatrixXd coriolis_matrix_trace(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd);
/// Generalized gravitational forces Q_g^i = sum_j M_j gbar^T d r_Cj / d q_i, gbar = -g: the
/// driving forces that balance gravity [002 Eqs. 113-114, 125].
[[nodiscard]] Eigen::VectorXd gravity_forces_jacobian(const Chain& chain, ChainData& data, VectorIn q);
/// Generalized forces of the manipulated load, J^T w [002 Eqs. 130-132] (w on the end effector).
[[nodiscard]] Eigen::VectorXd load_forces_jacobian(const Chain& chain, ChainData& data, VectorIn q);
/// tau = M qdd + V + Q_g - J^T w from the trace forms (no friction) [002 Eqs. 150, 156].
[[nodiscard]] Eigen::VectorXd inverse_dynamics_trace(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd,
                                                     VectorIn qdd);

}  // namespace linkdyn::spatial
