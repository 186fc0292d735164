#include "linkdyn/spatial/dynamics.hpp"

#include <fmt/format.h>

#include <cmath>

#include "linkdyn/spatial/kinematics.hpp"
#include "spatial/spatial_algebra.hpp"

namespace linkdyn::spatial {
using namespace detail;

namespace {

Vec6 base_acceleration(const Chain& chain, const Terms& terms) {
  Vec6 a0 = Vec6::Zero();
  if (terms.gravity) a0.tail<3>() = -chain.spec.gravity;  // gravity as an upward base acceleration
  return a0;
}

bool has_load(const Chain& chain) {
  return !chain.spec.load.force.isZero(0.0) || !chain.spec.load.moment.isZero(0.0);
}

bool has_friction(const Chain& chain) {
  for (const ChainJoint& j : chain.spec.joints)
    if (j.friction.viscous > 0 || j.friction.coulomb > 0) return true;
  return false;
}

/// Forward pass of the recursive algorithms: link velocities (and accelerations when qdd given).
void velocities(const Chain& chain, ChainData& data, VectorIn qd) {
  for (int i = 0; i < chain.dof; ++i) {
    const auto k = static_cast<size_t>(i);
    const Vec6 vJ = chain.motion_subspace[k] * qd(i);
    data.v[k] = (i == 0 ? Vec6(Vec6::Zero()) : motion_to_child(data.local[k], data.v[k - 1])) + vJ;
    data.bias_acceleration[k] = cross_motion(data.v[k], vJ);
  }
}
}  // namespace

Vec6 load_wrench_on_last_link(const Chain& chain, const ChainData& data) {
  const EndEffectorLoad& L = chain.spec.load;
  const Pose& e = chain.spec.end_effector;
  Vec6 w;
  if (L.in_base_frame) {
    Mat3 R = Mat3::Identity();
    for (int i = 0; i < chain.dof; ++i) R = R * data.local[static_cast<size_t>(i)].R;
    w.tail<3>() = R.transpose() * L.force;
    w.head<3>() = R.transpose() * L.moment + e.p.cross(w.tail<3>());
  } else {
    w.tail<3>() = e.R * L.force;
    w.head<3>() = e.R * L.moment + e.p.cross(w.tail<3>());
  }
  return w;
}

const Eigen::VectorXd& joint_friction(const Chain& chain, ChainData& data, VectorIn qd) {
  for (int i = 0; i < chain.dof; ++i) {
    const ChainJoint& j = chain.joint(i);
    const JointFriction& fr = j.friction;
    double q_fd = fr.viscous * qd(i);
    if (fr.coulomb > 0 && qd(i) != 0.0) {
      // |k x f|: the part of the transmitted force normal to the axis [002 Eq. 157].
      const double normal = j.axis.cross(data.f[static_cast<size_t>(i)].tail<3>()).norm();
      const double arm = j.type == JointType::revolute ? 0.5 * fr.diameter : 1.0;
      q_fd += fr.coulomb * arm * normal * (qd(i) > 0 ? 1.0 : -1.0);
    }
    data.friction(i) = q_fd;
  }
  return data.friction;
}

const Eigen::VectorXd& inverse_dynamics(const Chain& chain, ChainData& data, VectorIn q,
                                        VectorIn qd, VectorIn qdd, Terms terms) {
  update_link_poses(chain, data, q);
  const Vec6 a0 = base_acceleration(chain, terms);
  for (int i = 0; i < chain.dof; ++i) {
    const auto k = static_cast<size_t>(i);
    const Pose& X = data.local[k];
    const Vec6& s = chain.motion_subspace[k];
    const Vec6 vJ = s * qd(i);
    if (i == 0) {
      data.v[k] = vJ;
      data.a[k] = motion_to_child(X, a0) + s * qdd(i);
    } else {
      data.v[k] = motion_to_child(X, data.v[k - 1]) + vJ;
      data.a[k] = motion_to_child(X, data.a[k - 1]) + s * qdd(i) + cross_motion(data.v[k], vJ);
    }
    data.f[k] = inertia_times(chain, i, data.a[k]) + cross_force(data.v[k], inertia_times(chain, i, data.v[k]));
  }
  if (terms.load && has_load(chain)) data.f.back() -= load_wrench_on_last_link(chain, data);
  for (int i = chain.dof - 1; i >= 0; --i) {
    const auto k = static_cast<size_t>(i);
    data.tau(i) = chain.motion_subspace[k].dot(data.f[k]);
    if (i > 0) data.f[k - 1] += force_to_parent(data.local[k], data.f[k]);
  }
  if (terms.friction && has_friction(chain)) data.tau += joint_friction(chain, data, qd);
  return data.tau;
}

const Eigen::MatrixXd& mass_matrix(const Chain& chain, ChainData& data, VectorIn q) {
  update_link_poses(chain, data, q);
  const int n = chain.dof;
  // Composite rigid bodies as (mass, first moment, inertia about the link origin) in link frames.
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<size_t>(i);
    data.composite_mass[k] = chain.mass[k];
    data.composite_first_moment[k] = chain.first_moment[k];
    data.composite_inertia[k] = chain.inertia_origin[k];
  }
  for (int i = n - 1; i > 0; --i) {
    const auto k = static_cast<size_t>(i);
    data.composite_mass[k - 1] += data.composite_mass[k];
    add_rigid_inertia_to_parent(data.local[k], data.composite_mass[k], data.composite_first_moment[k],
                                data.composite_inertia[k], data.composite_first_moment[k - 1], data.composite_inertia[k - 1]);
  }
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<size_t>(i);
    Vec6 F = inertia_times(data.composite_mass[k], data.composite_first_moment[k], data.composite_inertia[k],
                           chain.motion_subspace[k]);
    data.mass_matrix(i, i) = chain.motion_subspace[k].dot(F);
    for (int j = i; j > 0; --j) {
      F = force_to_parent(data.local[static_cast<size_t>(j)], F);
      data.mass_matrix(i, j - 1) = data.mass_matrix(j - 1, i) = chain.motion_subspace[static_cast<size_t>(j - 1)].dot(F);
    }
  }
  return data.mass_matrix;
}

const Eigen::VectorXd& bias_forces(const Chain& chain, ChainData& data, VectorIn q,
                                   VectorIn qd, Terms terms) {
  data.rhs.setZero();
  terms.friction = false;
  data.bias = inverse_dynamics(chain, data, q, qd, data.rhs, terms);
  return data.bias;
}

namespace {
[[noreturn]] void throw_singular(const Chain& chain, int joint) {
  throw AnalysisError(fmt::format("{}: the mass matrix is singular{}: forward dynamics has no unique solution "
                                  "(give the links moved by that joint mass or inertia about its axis)",
                                  chain.spec.name, joint >= 0 ? " at joint '" + chain.joint(joint).name + "'" : ""));
}

/// Articulated-body algorithm (Featherstone): qdd for the driving forces `tau`. O(n).
void articulated_body(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd,
                      VectorIn tau, const Terms& terms) {
  update_link_poses(chain, data, q);
  velocities(chain, data, qd);
  const int n = chain.dof;
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<size_t>(i);
    data.inertia6[k] = inertia_matrix(chain, i);
    data.articulated_bias[k] = cross_force(data.v[k], inertia_times(chain, i, data.v[k]));
  }
  if (terms.load && has_load(chain)) data.articulated_bias.back() -= load_wrench_on_last_link(chain, data);
  for (int i = n - 1; i >= 0; --i) {
    const auto k = static_cast<size_t>(i);
    const Vec6& s = chain.motion_subspace[k];
    data.U[k].noalias() = data.inertia6[k] * s;
    data.D(i) = s.dot(data.U[k]);
    if (!(data.D(i) > 0.0)) throw_singular(chain, i);
    data.u(i) = tau(i) - s.dot(data.articulated_bias[k]);
    if (i > 0) {
      const Mat6 Ia = data.inertia6[k] - data.U[k] * data.U[k].transpose() / data.D(i);
      const Vec6 pa = data.articulated_bias[k] + Ia * data.bias_acceleration[k] + data.U[k] * (data.u(i) / data.D(i));
      const Mat6 X = motion_transform(data.local[k]);
      data.inertia6[k - 1].noalias() += X.transpose() * Ia * X;
      data.articulated_bias[k - 1] += force_to_parent(data.local[k], pa);
    }
  }
  const Vec6 a0 = base_acceleration(chain, terms);
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<size_t>(i);
    const Vec6 a_in = motion_to_child(data.local[k], i == 0 ? a0 : data.a[k - 1]) + data.bias_acceleration[k];
    data.qdd(i) = (data.u(i) - data.U[k].dot(a_in)) / data.D(i);
    data.a[k] = a_in + chain.motion_subspace[k] * data.qdd(i);
  }
}

void frictionless_forward(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd,
                          VectorIn tau, ForwardMethod method, const Terms& terms) {
  if (method == ForwardMethod::articulated_body) {
    articulated_body(chain, data, q, qd, tau, terms);
    return;
  }
  mass_matrix(chain, data, q);
  bias_forces(chain, data, q, qd, terms);
  data.cholesky.compute(data.mass_matrix);
  if (data.cholesky.info() != Eigen::Success) throw_singular(chain, -1);
  data.qdd = tau - data.bias;
  data.cholesky.solveInPlace(data.qdd);
}
}  // namespace

const Eigen::VectorXd& forward_dynamics(const Chain& chain, ChainData& data, VectorIn q,
                                        VectorIn qd, VectorIn tau, ForwardMethod method,
                                        Terms terms) {
  if (!terms.friction || !has_friction(chain)) {
    frictionless_forward(chain, data, q, qd, tau, method, terms);
    return data.qdd;
  }
  // Successive approximations: the dry friction depends on the reactions, which depend on qdd.
  Terms no_friction = terms;
  no_friction.friction = false;
  data.friction.setZero();
  constexpr int max_iterations = 100;
  for (int it = 0; it < max_iterations; ++it) {
    data.applied = tau - data.friction;
    frictionless_forward(chain, data, q, qd, data.applied, method, no_friction);
    data.qdd_trial = data.qdd;
    inverse_dynamics(chain, data, q, qd, data.qdd_trial, no_friction);
    data.friction_previous = data.friction;
    joint_friction(chain, data, qd);
    if ((data.friction - data.friction_previous).norm() <= 1e-12 * (1.0 + data.friction.norm())) {
      data.qdd = data.qdd_trial;
      return data.qdd;
    }
  }
  throw AnalysisError(fmt::format("{}: the joint friction does not converge in {} successive approximations "
                                  "(dry friction too large for the motion: the joint may lock)",
                                  chain.spec.name, max_iterations));
}

double kinetic_energy(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd) {
  update_link_poses(chain, data, q);
  velocities(chain, data, qd);
  double T = 0.0;
  for (int i = 0; i < chain.dof; ++i) {
    const Vec6& v = data.v[static_cast<size_t>(i)];
    T += 0.5 * v.dot(inertia_times(chain, i, v));
  }
  return T;
}

double potential_energy(const Chain& chain, ChainData& data, VectorIn q) {
  forward_kinematics(chain, data, q);
  double V = 0.0;
  for (int i = 0; i < chain.dof; ++i) {
    const auto k = static_cast<size_t>(i);
    if (chain.mass[k] > 0)
      V -= chain.mass[k] * chain.spec.gravity.dot(data.world[k].apply(chain.first_moment[k] / chain.mass[k]));
  }
  return V;
}

}  // namespace linkdyn::spatial
