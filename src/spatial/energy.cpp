#include "linkdyn/spatial/energy.hpp"

#include <stdexcept>

#include "linkdyn/spatial/kinematics.hpp"

namespace linkdyn::spatial {

double acceleration_energy(const Chain& chain, const Eigen::MatrixXd& q_derivatives, int p) {
  if (p < 0 || q_derivatives.cols() < p + 2 || q_derivatives.rows() != chain.dof)
    throw std::invalid_argument("acceleration_energy: need q and its derivatives up to order p + 1");
  const auto T = transform_time_derivatives(chain, q_derivatives, p + 1);
  double E = 0.0;
  for (int k = 0; k < chain.dof; ++k) {
    const Mat4& D = T[size_t(k)][size_t(p + 1)];
    E += 0.5 * (D * chain.pseudo[size_t(k)]).cwiseProduct(D).sum();
  }
  return E;
}

}  // namespace linkdyn::spatial
