#include "linkdyn/spatial/energy.hpp"

#include <stdexcept>

#include "linkdyn/spatial/kinematics.hpp"

namespace linkdyn::spatial {

double acceleration_energy(const Chain& chain, const Eigen::MatrixXd& q_derivatives, int p) {
  if (p < 0 || q_derivatives.cols() < p + 2 || q_derivatives.rows() != chain.dof || chain.nq != chain.dof)
    throw std::invalid_argument("acceleration_energy: need q and its derivatives up to order p + 1");
  return acceleration_energy(chain, q_derivatives.col(0), q_derivatives.middleCols(1, p + 1), p);
}

double acceleration_energy(const Chain& chain, VectorIn q, const Eigen::MatrixXd& v_derivatives, int p) {
  if (p < 0 || v_derivatives.cols() < p + 1 || v_derivatives.rows() != chain.dof || q.size() != chain.nq)
    throw std::invalid_argument("acceleration_energy: need q and the velocity's derivatives up to order p");
  const auto T = transform_time_derivatives(chain, q, v_derivatives, p + 1);
  double E = 0.0;
  for (int k = 0; k < chain.links; ++k) {
    const Mat4& D = T[size_t(k)][size_t(p) + 1];
    E += 0.5 * (D * chain.pseudo[size_t(k)]).cwiseProduct(D).sum();
  }
  return E;
}

}  // namespace linkdyn::spatial
