#include "linkdyn/spatial/trace_dynamics.hpp"

#include "linkdyn/spatial/kinematics.hpp"

namespace linkdyn::spatial {

namespace {
/// Tr(A J B^T).
double trace_product(const Mat4& A, const Mat4& J, const Mat4& B) { return (A * J).cwiseProduct(B).sum(); }

/// The DOFs that move link k (those of the joints on its path to the base), ascending.
std::vector<int> path_dofs(const Chain& chain, int k) {
  std::vector<int> dofs;
  for (int d = 0; d < chain.dof; ++d)
    if (chain.supports(chain.dof_link[size_t(d)], k)) dofs.push_back(d);
  return dofs;
}
}  // namespace

Eigen::MatrixXd mass_matrix_trace(const Chain& chain, ChainData& data, VectorIn q) {
  forward_kinematics(chain, data, q);
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(chain.dof, chain.dof);
  std::vector<Mat4> A(static_cast<size_t>(chain.dof));
  for (int k = 0; k < chain.links; ++k) {
    const std::vector<int> path = path_dofs(chain, k);
    for (int i : path) A[size_t(i)] = differential_matrix(data, k, {i});
    const Mat4& J = chain.pseudo[size_t(k)];
    for (int i : path)
      for (int j : path)
        if (j <= i) M(i, j) += trace_product(A[size_t(i)], J, A[size_t(j)]);
  }
  return M.selfadjointView<Eigen::Lower>();
}

Eigen::VectorXd velocity_terms_trace(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd) {
  forward_kinematics(chain, data, q);
  Eigen::VectorXd V = Eigen::VectorXd::Zero(chain.dof);
  for (int k = 0; k < chain.links; ++k) {
    const std::vector<int> path = path_dofs(chain, k);
    // The sums over j, m commute with the trace: contract A_kjm with qd_j qd_m first.
    Mat4 B = Mat4::Zero();
    for (int j : path)
      for (int m : path) B += qd(j) * qd(m) * differential_matrix(data, k, {j, m});
    const Mat4& J = chain.pseudo[size_t(k)];
    for (int i : path) V(i) += trace_product(differential_matrix(data, k, {i}), J, B);
  }
  return V;
}

Eigen::MatrixXd coriolis_matrix_trace(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd) {
  forward_kinematics(chain, data, q);
  Eigen::MatrixXd C = Eigen::MatrixXd::Zero(chain.dof, chain.dof);
  for (int k = 0; k < chain.links; ++k) {
    const std::vector<int> path = path_dofs(chain, k);
    const Mat4& J = chain.pseudo[size_t(k)];
    for (int j : path) {
      // d A_kj / dt = sum_m A_kjm qd_m; within one free-flyer the DOFs' twists turn with the
      // link itself, d S_j/dt = sum_m qd_m [S_m, S_j], so the term is S_m S_j T_k in that order.
      Mat4 rate = Mat4::Zero();
      for (int m : path)
        rate +=
            qd(m) * (chain.dof_link[size_t(m)] == chain.dof_link[size_t(j)] && m != j
                         ? Mat4(data.joint_twist[size_t(m)] * data.joint_twist[size_t(j)] * data.transform[size_t(k)])
                         : differential_matrix(data, k, {j, m}));
      for (int i : path) C(i, j) += trace_product(differential_matrix(data, k, {i}), J, rate);
    }
  }
  return C;
}

Eigen::VectorXd gravity_forces_jacobian(const Chain& chain, ChainData& data, VectorIn q) {
  forward_kinematics(chain, data, q);
  Eigen::VectorXd Q = Eigen::VectorXd::Zero(chain.dof);
  const Vec3 gbar = -chain.spec.gravity;
  for (int j = 0; j < chain.links; ++j) {
    const double m = chain.mass[size_t(j)];
    if (m == 0.0) continue;
    const Eigen::Vector4d c(chain.first_moment[size_t(j)].x() / m, chain.first_moment[size_t(j)].y() / m,
                            chain.first_moment[size_t(j)].z() / m, 1.0);
    for (int i : path_dofs(chain, j)) Q(i) += m * gbar.dot((differential_matrix(data, j, {i}) * c).head<3>());
  }
  return Q;
}

Eigen::VectorXd load_forces_jacobian(const Chain& chain, ChainData& data, VectorIn q) {
  forward_kinematics(chain, data, q);
  end_effector_jacobian(chain, data);
  const EndEffectorLoad& L = chain.spec.load;
  const Mat3 R = L.in_base_frame ? Mat3::Identity() : data.end_effector.R;
  Vec6 w;
  w << R * L.force, R * L.moment;  // [force; moment] in the base frame, at the end-effector origin
  return data.jacobian.transpose() * w;
}

Eigen::VectorXd inverse_dynamics_trace(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd, VectorIn qdd) {
  return mass_matrix_trace(chain, data, q) * qdd + velocity_terms_trace(chain, data, q, qd) +
         gravity_forces_jacobian(chain, data, q) - load_forces_jacobian(chain, data, q);
}

}  // namespace linkdyn::spatial
