#include "linkdyn/spatial/data.hpp"

namespace linkdyn::spatial {

ChainData::ChainData(const Chain& chain) {
  const auto n = static_cast<size_t>(chain.links);
  const auto nv = static_cast<size_t>(chain.dof);
  local.resize(n);
  world.resize(n);
  joint_twist.assign(nv, Mat4::Zero());
  joint_screw.assign(nv, Vec6::Zero());
  transform.assign(n, Mat4::Identity());
  parent = chain.parent;
  dof_link = chain.dof_link;
  v.assign(n, Vec6::Zero());
  a.assign(n, Vec6::Zero());
  f.assign(n, Vec6::Zero());
  bias_acceleration.assign(n, Vec6::Zero());
  inertia6.assign(n, Mat6::Zero());
  composite_mass.assign(n, 0.0);
  composite_first_moment.assign(n, Vec3::Zero());
  composite_inertia.assign(n, Mat3::Zero());
  articulated_bias.assign(n, Vec6::Zero());
  U.assign(nv, Vec6::Zero());
  D = Eigen::VectorXd::Zero(chain.dof);
  u = Eigen::VectorXd::Zero(chain.dof);
  tau = Eigen::VectorXd::Zero(chain.dof);
  qdd = Eigen::VectorXd::Zero(chain.dof);
  friction = Eigen::VectorXd::Zero(chain.dof);
  bias = Eigen::VectorXd::Zero(chain.dof);
  rhs = Eigen::VectorXd::Zero(chain.dof);
  applied = qdd_trial = friction_previous = Eigen::VectorXd::Zero(chain.dof);
  jacobian = Eigen::Matrix<double, 6, Eigen::Dynamic>::Zero(6, chain.dof);
  world_velocity.assign(n, Vec6::Zero());
  world_acceleration.assign(n, Vec6::Zero());
  world_force.assign(n, Vec6::Zero());
  world_inertia.assign(n, Mat6::Zero());
  world_variation.assign(n, Mat6::Zero());
  dof_rate.assign(nv, Vec6::Zero());
}

Eigen::MatrixXd& dof_matrix(const Chain& chain, Eigen::MatrixXd& m) {
  if (m.rows() != chain.dof || m.cols() != chain.dof) m = Eigen::MatrixXd::Zero(chain.dof, chain.dof);
  return m;
}

bool check(const Chain& chain, const ChainData& data) {
  const auto n = static_cast<size_t>(chain.links), nv = static_cast<size_t>(chain.dof);
  const auto sized = [](const auto& v, size_t k) { return static_cast<size_t>(v.size()) == k; };
  return sized(data.local, n) && sized(data.world, n) && sized(data.transform, n) && sized(data.v, n) &&
         sized(data.a, n) && sized(data.f, n) && sized(data.inertia6, n) && sized(data.composite_mass, n) &&
         sized(data.world_force, n) && sized(data.joint_twist, nv) && sized(data.U, nv) && sized(data.dof_rate, nv) &&
         sized(data.tau, nv) && sized(data.qdd, nv) && sized(data.D, nv) && data.jacobian.cols() == chain.dof &&
         data.parent == chain.parent && data.dof_link == chain.dof_link;
}

}  // namespace linkdyn::spatial
