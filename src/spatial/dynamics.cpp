#include "linkdyn/spatial/dynamics.hpp"

#include <Eigen/Cholesky>
#include <fmt/format.h>

#include <cmath>

#include "linkdyn/spatial/kinematics.hpp"
#include "spatial/spatial_algebra.hpp"

namespace linkdyn::spatial {
using namespace detail;

// The recursive algorithms are compiled twice, for x86-64 and for x86-64-v3 (AVX2, FMA), and the
// loader picks the one the processor runs (GCC function multiversioning): fused multiply-adds
// halve the instructions of the products and cross products. Results differ by rounding only.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define LINKDYN_MULTIVERSION __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define LINKDYN_MULTIVERSION
#endif

namespace {

/// Gravity as an upward acceleration of the base, in the base frame.
Vec3 base_acceleration(const Chain& chain, const Terms& terms) {
  return terms.gravity ? Vec3(-chain.spec.gravity) : Vec3(Vec3::Zero());
}

bool has_load(const Chain& chain) {
  return chain.end_effector_link >= 0 && (!chain.spec.load.force.isZero(0.0) || !chain.spec.load.moment.isZero(0.0));
}

bool has_friction(const Chain& chain) {
  for (const ChainJoint& j : chain.spec.joints)
    if (j.friction.viscous > 0 || j.friction.coulomb > 0 || j.friction.constant > 0) return true;
  return false;
}

/// The velocity S x of joint i from the DOF vector x, [omega; v] in its link frame.
Vec6 joint_motion_of(const Chain& chain, int i, VectorIn x) {
  const int d = chain.v_index[size_t(i)];
  if (chain.joint(i).type != JointType::free_flyer) return chain.motion_subspace[size_t(i)] * x(d);
  Vec6 m;
  m << x.segment<3>(d + 3), x.segment<3>(d);  // DOFs x, y, z, rx, ry, rz
  return m;
}

/// Forward pass of the recursive algorithms: link velocities and v x (S qd).
void velocities(const Chain& chain, ChainData& data, VectorIn qd) {
  for (int i = 0; i < chain.links; ++i) {
    const auto k = static_cast<size_t>(i);
    const int lambda = chain.parent[k];
    const Vec6 vJ = joint_motion_of(chain, i, qd);
    data.v[k] = (lambda < 0 ? Vec6(Vec6::Zero()) : motion_to_child(data.local[k], data.v[size_t(lambda)])) + vJ;
    data.bias_acceleration[k] = cross_motion(data.v[k], vJ);
  }
}
}  // namespace

Vec6 load_wrench_on_end_effector_link(const Chain& chain, const ChainData& data) {
  const EndEffectorLoad& L = chain.spec.load;
  const Pose& e = chain.spec.end_effector;
  Vec6 w;
  if (L.in_base_frame) {
    Mat3 R = Mat3::Identity();  // the link's rotation in the base, along its path
    for (int l = chain.end_effector_link; l >= 0; l = chain.parent[size_t(l)]) R = data.local[size_t(l)].R * R;
    w.tail<3>() = R.transpose() * L.force;
    w.head<3>() = R.transpose() * L.moment + e.p.cross(w.tail<3>());
  } else {
    w.tail<3>() = e.R * L.force;
    w.head<3>() = e.R * L.moment + e.p.cross(w.tail<3>());
  }
  return w;
}

const Eigen::VectorXd& joint_friction(const Chain& chain, ChainData& data, VectorIn qd) {
  for (int i = 0; i < chain.links; ++i) {
    const ChainJoint& j = chain.joint(i);
    const int d = chain.v_index[size_t(i)];
    if (j.type == JointType::free_flyer) {
      data.friction.segment<6>(d).setZero();
      continue;
    }
    const JointFriction& fr = j.friction;
    double q_fd = fr.viscous * qd(d);
    if ((fr.coulomb > 0 || fr.constant > 0) && qd(d) != 0.0) {
      // |k x f|: the part of the transmitted force normal to the axis [002 Eq. 157].
      const double normal = fr.coulomb > 0 ? j.axis.cross(data.f[static_cast<size_t>(i)].tail<3>()).norm() : 0.0;
      const double arm = j.type == JointType::revolute ? 0.5 * fr.diameter : 1.0;
      q_fd += (fr.constant + fr.coulomb * arm * normal) * (qd(d) > 0 ? 1.0 : -1.0);
    }
    data.friction(d) = q_fd;
  }
  return data.friction;
}

namespace {
/// Recursive Newton-Euler on the link poses already in data.local.
LINKDYN_MULTIVERSION void newton_euler(const Chain& chain, ChainData& data, VectorIn qd, VectorIn qdd,
                                       const Terms& terms) {
  const Vec3 g_up = base_acceleration(chain, terms);
  const V3 a0{g_up.x(), g_up.y(), g_up.z()};
  // Forward: velocities and accelerations in link frames, 3-vector by 3-vector (RBDA Table 5.1).
  for (int i = 0; i < chain.links; ++i) {
    const auto k = static_cast<size_t>(i);
    const Pose& X = data.local[k];
    const int lambda = chain.parent[k];
    V3 w, v, al, a;  // angular and linear velocity and acceleration of link i, in its frame
    if (lambda < 0) {
      w = v = al = {0, 0, 0};
      a = transpose_times(X.R, a0);
    } else {
      // X m_parent: R^T w_p, R^T (v_p + w_p x p).
      const double* vp = data.v[size_t(lambda)].data();
      const double* ap = data.a[size_t(lambda)].data();
      const V3 p = load(X.p.data()), wp = load(vp), alp = load(ap);
      w = transpose_times(X.R, wp);
      v = transpose_times(X.R, load(vp + 3) + cross(wp, p));
      al = transpose_times(X.R, alp);
      a = transpose_times(X.R, load(ap + 3) + cross(alp, p));
    }
    const int d = chain.v_index[k];
    const double* s = chain.motion_subspace[k].data();
    switch (chain.joint(i).type) {
      case JointType::revolute: {
        // v += S qd; a += S qdd + v x S qd with S = [k; 0].
        const V3 axis = load(s), kqd = qd(d) * axis;
        w += kqd;
        al += qdd(d) * axis + cross(w, kqd);
        a += cross(v, kqd);
        break;
      }
      case JointType::prismatic: {
        const V3 axis = load(s + 3), kqd = qd(d) * axis;
        v += kqd;
        a += qdd(d) * axis + cross(w, kqd);
        break;
      }
      case JointType::free_flyer: {
        const V3 vJ{qd(d), qd(d + 1), qd(d + 2)}, wJ{qd(d + 3), qd(d + 4), qd(d + 5)};
        w += wJ;
        v += vJ;
        al += V3{qdd(d + 3), qdd(d + 4), qdd(d + 5)} + cross(w, wJ);
        a += V3{qdd(d), qdd(d + 1), qdd(d + 2)} + cross(w, vJ) + cross(v, wJ);
        break;
      }
    }
    double* vk = data.v[k].data();
    double* ak = data.a[k].data();
    store(vk, w), store(vk + 3, v), store(ak, al), store(ak + 3, a);
    // f = I a + v x* I v with I = (m, h = m c, I_O) [002 Eqs. 143-149]: momentum
    // (L_ang, L_lin) = (I_O w + h x v, m v + w x h).
    const double m = chain.mass[k];
    const V3 h = load(chain.first_moment[k].data());
    const Mat3& IO = chain.inertia_origin[k];
    const V3 L_lin = m * v + cross(w, h);
    const V3 L_ang = times(IO, w) + cross(h, v);
    double* f = data.f[k].data();
    store(f, times(IO, al) + cross(h, a) + cross(w, L_ang) + cross(v, L_lin));
    store(f + 3, m * a + cross(al, h) + cross(w, L_lin));
  }
  if (terms.load && has_load(chain))
    data.f[size_t(chain.end_effector_link)] -= load_wrench_on_end_effector_link(chain, data);
  // Backward: tau = S^T f, and f_parent += X^T f = [R n + p x R f; R f].
  for (int i = chain.links - 1; i >= 0; --i) {
    const auto k = static_cast<size_t>(i);
    const int d = chain.v_index[k];
    const double* f = data.f[k].data();
    const double* s = chain.motion_subspace[k].data();
    switch (chain.joint(i).type) {
      case JointType::revolute: data.tau(d) = dot(load(s), load(f)); break;
      case JointType::prismatic: data.tau(d) = dot(load(s + 3), load(f + 3)); break;
      case JointType::free_flyer: data.tau.segment<6>(d) << data.f[k].tail<3>(), data.f[k].head<3>(); break;
    }
    const int lambda = chain.parent[k];
    if (lambda >= 0) {
      const Pose& X = data.local[k];
      const V3 force = times(X.R, load(f + 3));
      double* fp = data.f[size_t(lambda)].data();
      store(fp, load(fp) + times(X.R, load(f)) + cross(load(X.p.data()), force));
      store(fp + 3, load(fp + 3) + force);
    }
  }
  if (terms.friction && has_friction(chain)) data.tau += joint_friction(chain, data, qd);
}
}  // namespace

const Eigen::VectorXd& inverse_dynamics(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd, VectorIn qdd,
                                        Terms terms) {
  update_link_poses(chain, data, q);
  newton_euler(chain, data, qd, qdd, terms);
  return data.tau;
}

namespace {
/// R S R^T for a symmetric S (the 6 distinct entries).
Mat3 rotate_symmetric(const Mat3& R, const Mat3& S) {
  const Mat3 T = R * S;
  Mat3 out;
  for (int r = 0; r < 3; ++r)
    for (int c = r; c < 3; ++c) out(r, c) = out(c, r) = T.row(r).dot(R.row(c));
  return out;
}

/// Adds a rigid body (m, h = m c, I_O) given in a child frame at pose X to the body (h_p, I_p) of
/// the parent, about the parent's origin: h' = R h, I' = R I_O R^T, then the shift by p,
/// I_p += I' + 2 (w . p) 1 - (p w^T + w p^T) with w = h' + m p / 2 [002 Eqs. 42, 58].
void add_rigid_body_to_parent(const Pose& X, double m, const Vec3& h, const Mat3& I, Vec3& h_parent, Mat3& I_parent) {
  const Vec3 hr = X.R * h;
  const Vec3 w = hr + 0.5 * m * X.p;
  const double s = 2.0 * w.dot(X.p);
  const Mat3 Ir = rotate_symmetric(X.R, I);
  for (int r = 0; r < 3; ++r)
    for (int c = r; c < 3; ++c) {
      const double shift = (r == c ? s : 0.0) - X.p(r) * w(c) - w(r) * X.p(c);
      I_parent(r, c) += Ir(r, c) + shift;
      if (c != r) I_parent(c, r) = I_parent(r, c);
    }
  h_parent += hr + m * X.p;
}
}  // namespace

namespace {
/// The composite-rigid-body algorithm on the link poses already in data.local.
LINKDYN_MULTIVERSION void composite_rigid_bodies(const Chain& chain, ChainData& data) {
  const int n = chain.links;
  // Composite rigid bodies as (mass, first moment, inertia about the link origin) in link frames
  // (RBDA Table 6.2, the ten inertia parameters transformed in closed form).
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<size_t>(i);
    data.composite_mass[k] = chain.mass[k];
    data.composite_first_moment[k] = chain.first_moment[k];
    data.composite_inertia[k] = chain.inertia_origin[k];
  }
  for (int i = n - 1; i >= 0; --i) {
    const auto k = static_cast<size_t>(i);
    const int lambda = chain.parent[k];
    if (lambda < 0) continue;
    data.composite_mass[size_t(lambda)] += data.composite_mass[k];
    add_rigid_body_to_parent(data.local[k], data.composite_mass[k], data.composite_first_moment[k],
                             data.composite_inertia[k], data.composite_first_moment[size_t(lambda)],
                             data.composite_inertia[size_t(lambda)]);
  }
  // Column of each DOF: F = I_c S carried towards the base, M_ji = S_j . F on the way; the lower
  // triangle only (supporting DOFs come first), mirrored at the end.
  Eigen::MatrixXd& M = dof_matrix(chain, data.mass_matrix);
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<size_t>(i);
    const int first = chain.v_index[k], count = chain.joint_dofs[k];
    for (int dof = first; dof < first + count; ++dof) {
      Vec6 F = inertia_times(data.composite_mass[k], data.composite_first_moment[k], data.composite_inertia[k],
                             chain.dof_subspace[size_t(dof)]);
      for (int e = first; e <= dof; ++e) M(dof, e) = chain.dof_subspace[size_t(e)].dot(F);
      for (int j = i; chain.parent[size_t(j)] >= 0;) {
        F = force_to_parent(data.local[size_t(j)], F);
        j = chain.parent[size_t(j)];
        const int e0 = chain.v_index[size_t(j)];
        if (chain.joint_dofs[size_t(j)] == 1) {
          // S = [k; 0] or [0; k]: one 3-vector product.
          const Vec6& s = chain.motion_subspace[size_t(j)];
          M(dof, e0) =
              chain.joint(j).type == JointType::revolute ? s.head<3>().dot(F.head<3>()) : s.tail<3>().dot(F.tail<3>());
          continue;
        }
        for (int e = e0; e < e0 + chain.joint_dofs[size_t(j)]; ++e) M(dof, e) = chain.dof_subspace[size_t(e)].dot(F);
      }
    }
  }
  M.triangularView<Eigen::StrictlyUpper>() = M.transpose();
}
}  // namespace

const Eigen::MatrixXd& mass_matrix(const Chain& chain, ChainData& data, VectorIn q) {
  update_link_poses(chain, data, q);
  composite_rigid_bodies(chain, data);
  return data.mass_matrix;
}

const Eigen::VectorXd& bias_forces(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd, Terms terms) {
  data.rhs.setZero();
  terms.friction = false;
  data.bias = inverse_dynamics(chain, data, q, qd, data.rhs, terms);
  return data.bias;
}

namespace {
[[noreturn]] void throw_singular(const Chain& chain, int link) {
  throw AnalysisError(
      fmt::format("{}: the mass matrix is singular{}: forward dynamics has no unique solution "
                  "(give the links moved by that joint mass or inertia about its axis)",
                  chain.spec.name, link >= 0 ? " at joint '" + chain.joint(link).name + "'" : ""));
}
}  // namespace

void factor_mass_matrix(const Chain& chain, ChainData& data) {
  // L^T D L along the tree (Featherstone's LTDL, RBDA Table 6.3): only the entries between a DOF
  // and the DOFs that support it are touched, so branches never fill in.
  Eigen::MatrixXd& H = dof_matrix(chain, data.mass_matrix_factor);
  H.triangularView<Eigen::Lower>() = data.mass_matrix.triangularView<Eigen::Lower>();
  for (int k = chain.dof - 1; k >= 0; --k) {
    if (!(H(k, k) > 0.0)) throw_singular(chain, chain.dof_link[size_t(k)]);
    for (int i = chain.dof_parent[size_t(k)]; i >= 0; i = chain.dof_parent[size_t(i)]) {
      const double a = H(k, i) / H(k, k);
      for (int j = i; j >= 0; j = chain.dof_parent[size_t(j)]) H(i, j) -= a * H(k, j);
      H(k, i) = a;
    }
  }
}

void solve_mass_matrix(const Chain& chain, const ChainData& data, Eigen::Ref<Eigen::VectorXd> x) {
  const Eigen::MatrixXd& H = data.mass_matrix_factor;
  // L^T z = b from the leaves to the base, z /= D, then L x = z from the base out (RBDA Table 6.4).
  for (int k = chain.dof - 1; k >= 0; --k)
    for (int i = chain.dof_parent[size_t(k)]; i >= 0; i = chain.dof_parent[size_t(i)]) x(i) -= H(k, i) * x(k);
  for (int k = 0; k < chain.dof; ++k) x(k) /= H(k, k);
  for (int k = 0; k < chain.dof; ++k)
    for (int i = chain.dof_parent[size_t(k)]; i >= 0; i = chain.dof_parent[size_t(i)]) x(k) -= H(k, i) * x(i);
}

namespace {
/// Articulated-body algorithm (RBDA Table 7.1): qdd for the driving forces `tau`. O(n).
LINKDYN_MULTIVERSION void articulated_body(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd, VectorIn tau,
                                           const Terms& terms) {
  update_link_poses(chain, data, q);
  velocities(chain, data, qd);
  const int n = chain.links;
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<size_t>(i);
    data.inertia6[k] = chain.spatial_inertia[k];
    data.articulated_bias[k] = cross_force(data.v[k], inertia_times(chain, i, data.v[k]));
  }
  if (terms.load && has_load(chain))
    data.articulated_bias[size_t(chain.end_effector_link)] -= load_wrench_on_end_effector_link(chain, data);
  for (int i = n - 1; i >= 0; --i) {
    const auto k = static_cast<size_t>(i);
    const int lambda = chain.parent[k], d = chain.v_index[k];
    Mat6& IA = data.inertia6[k];
    Vec6 pa;
    if (chain.joint(i).type == JointType::free_flyer) {
      // S = 1: the joint passes on only its own wrench; its articulated inertia stays here.
      pa = joint_motion_of(chain, i, tau);  // [n; f] ordered as [rx..rz; x..z] like a motion
    } else {
      // U = I^A S with S = [k; 0] or [0; k]: three columns of I^A, not six.
      const Vec6& s = chain.motion_subspace[k];
      Vec6& U = data.U[size_t(d)];
      if (chain.joint(i).type == JointType::revolute)
        U.noalias() = IA.leftCols<3>() * s.head<3>();
      else
        U.noalias() = IA.rightCols<3>() * s.tail<3>();
      data.D(d) = s.dot(U);
      if (!(data.D(d) > 0.0)) throw_singular(chain, i);
      data.u(d) = tau(d) - s.dot(data.articulated_bias[k]);
      if (lambda < 0) continue;
      const Vec6 U_over_D = U / data.D(d);
      IA.noalias() -= U * U_over_D.transpose();  // I^a = I^A - U U^T / D
      pa = data.articulated_bias[k] + U_over_D * data.u(d);
      pa.noalias() += IA * data.bias_acceleration[k];
    }
    if (lambda < 0) continue;
    if (chain.joint(i).type != JointType::free_flyer)
      add_inertia_to_parent(data.local[k], IA, data.inertia6[size_t(lambda)]);
    data.articulated_bias[size_t(lambda)] += force_to_parent(data.local[k], pa);
  }
  Vec6 a0 = Vec6::Zero();
  a0.tail<3>() = base_acceleration(chain, terms);
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<size_t>(i);
    const int lambda = chain.parent[k], d = chain.v_index[k];
    const Vec6 a_in =
        motion_to_child(data.local[k], lambda < 0 ? a0 : data.a[size_t(lambda)]) + data.bias_acceleration[k];
    if (chain.joint(i).type == JointType::free_flyer) {
      // I^A a = tau - p^A: the link's own acceleration, then qdd = a - a_in.
      const Eigen::LLT<Mat6> llt(data.inertia6[k]);
      if (llt.info() != Eigen::Success) throw_singular(chain, i);
      data.a[k] = llt.solve(joint_motion_of(chain, i, tau) - data.articulated_bias[k]);
      const Vec6 rel = data.a[k] - a_in;
      data.qdd.segment<6>(d) << rel.tail<3>(), rel.head<3>();
      continue;
    }
    data.qdd(d) = (data.u(d) - data.U[size_t(d)].dot(a_in)) / data.D(d);
    data.a[k] = a_in + chain.motion_subspace[k] * data.qdd(d);
  }
}

void frictionless_forward(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd, VectorIn tau,
                          ForwardMethod method, const Terms& terms) {
  if (method == ForwardMethod::articulated_body) {
    articulated_body(chain, data, q, qd, tau, terms);
    return;
  }
  // The link poses once for both the mass matrix and the bias forces.
  update_link_poses(chain, data, q);
  composite_rigid_bodies(chain, data);
  data.rhs.setZero();
  Terms bias_terms = terms;
  bias_terms.friction = false;
  newton_euler(chain, data, qd, data.rhs, bias_terms);
  data.bias = data.tau;
  factor_mass_matrix(chain, data);
  data.qdd = tau - data.bias;
  solve_mass_matrix(chain, data, data.qdd);
}
}  // namespace

const Eigen::VectorXd& forward_dynamics(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd, VectorIn tau,
                                        ForwardMethod method, Terms terms) {
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
  throw AnalysisError(
      fmt::format("{}: the joint friction does not converge in {} successive approximations "
                  "(dry friction too large for the motion: the joint may lock)",
                  chain.spec.name, max_iterations));
}

double kinetic_energy(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd) {
  update_link_poses(chain, data, q);
  velocities(chain, data, qd);
  double T = 0.0;
  for (int i = 0; i < chain.links; ++i) {
    const Vec6& v = data.v[static_cast<size_t>(i)];
    T += 0.5 * v.dot(inertia_times(chain, i, v));
  }
  return T;
}

double potential_energy(const Chain& chain, ChainData& data, VectorIn q) {
  forward_kinematics(chain, data, q);
  double V = 0.0;
  for (int i = 0; i < chain.links; ++i) {
    const auto k = static_cast<size_t>(i);
    if (chain.mass[k] > 0)
      V -= chain.mass[k] * chain.spec.gravity.dot(data.world[k].apply(chain.first_moment[k] / chain.mass[k]));
  }
  return V;
}

}  // namespace linkdyn::spatial
