#pragma once
// Partial derivatives of the inverse dynamics with respect to q and qd (as Pinocchio's
// computeRNEADerivatives), and the Coriolis matrix, by recursions on a tree in base coordinates.
#include <Eigen/Core>

#include "linkdyn/spatial/dynamics.hpp"

namespace linkdyn::spatial {

/// d tau / dq and d tau / dqd at (q, qd, qdd), analytic: into data.dtau_dq and data.dtau_dqd
/// (dof x dof; d tau / dqdd is the mass matrix), and tau into data.tau. A free-flyer's columns are
/// derivatives along q (+) dq (integrate_configuration: dq a body twist). Gravity, the load and
/// joint friction enter per `terms`; the dry friction's derivatives where qd != 0 and the joint's
/// normal force is not zero.
///
/// Each link's quantities are taken at the base origin, where a DOF j moves everything it carries
/// rigidly: d/dq_j of a carried motion m is S_j x m, of a force f is S_j x* f, of an inertia I is
/// S_j x* I - I S_j x. What is not carried: d V_k/dq_j = S_j x V_k + W_j with W_j = V_p x S_j,
/// d A_k/dq_j = S_j x A_k + W_j x V_k + Z_j with Z_j = A_p x S_j - W_j x V_p (p: the parent of
/// j's link), so with B_k = V_k x* I_k - I_k V_k x + (. x* I_k V_k) summed over a subtree,
/// d F_i/dq_j = S_j x* F_i + I^c Z_j + B^c W_j and d F_i/dqd_j = I^c Y_j + B^c S_j, Y_j =
/// (V_p + V_j) x S_j (Carpentier & Mansard, RSS 2018, in this notation).
void rnea_derivatives(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd, VectorIn qdd, Terms terms = {});

/// The Coriolis matrix C(q, qd) into data.coriolis: C qd are the velocity terms of the inverse
/// dynamics, dM/dt - 2 C is skew-symmetric, and C equals the trace form of [002 Eq. 96]
/// before the contraction with qd (coriolis_matrix_trace): C_ij = S_i . I^c_d dS_j/dt +
/// S_j . G^c_d S_i over the links d below both DOFs, G_k(V) S = [integral of (V x) x (S x) dm; 0].
void coriolis_matrix(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd);

}  // namespace linkdyn::spatial
