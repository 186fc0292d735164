#pragma once
// Acceleration energies of any order [002 Eqs. 92-109].
#include <Eigen/Core>

#include "linkdyn/spatial/chain.hpp"

namespace linkdyn::spatial {

/// E_A^(p) = 1/2 sum_k Tr(T_k^(p+1) J_k T_k^(p+1)T) = 1/2 sum_k integral |r^(p+1)|^2 dm
/// [002 Eq. 92], with J_k the pseudo-inertia of link k and T_k^(p+1) the (p+1)-th time
/// derivative of its transform. Column r of `q_derivatives` is q^(r), r = 0..p+1 (more columns
/// are ignored). p = 0 gives the kinetic energy; p = 1 is Appell's function (Gibbs-Appell).
/// Fewer columns than p + 2: std::invalid_argument (a caller's error; model files are checked
/// by io with InputError before they get here).
[[nodiscard]] double acceleration_energy(const Chain& chain, const Eigen::MatrixXd& q_derivatives, int p);
/// The same from q and the velocity's derivatives (column r of `v_derivatives` is v^(r),
/// r = 0..p): for models with free-flyers, whose q and v differ in size.
[[nodiscard]] double acceleration_energy(const Chain& chain, const Eigen::Ref<const Eigen::VectorXd>& q,
                                         const Eigen::MatrixXd& v_derivatives, int p);

}  // namespace linkdyn::spatial
