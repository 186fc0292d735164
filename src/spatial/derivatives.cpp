#include "linkdyn/spatial/derivatives.hpp"

#include "linkdyn/spatial/kinematics.hpp"
#include "spatial/spatial_algebra.hpp"

namespace linkdyn::spatial {
using namespace detail;

namespace {

/// [v x] and [f x*] as 6x6 matrices (RBDA Eqs. 2.31, 2.32).
Mat6 motion_cross_matrix(const Vec6& v) {
  Mat6 X = Mat6::Zero();
  X.topLeftCorner<3, 3>() = skew(v.head<3>());
  X.bottomRightCorner<3, 3>() = skew(v.head<3>());
  X.bottomLeftCorner<3, 3>() = skew(v.tail<3>());
  return X;
}
Mat6 force_cross_matrix(const Vec6& v) { return -motion_cross_matrix(v).transpose(); }
/// The matrix of w -> w x* h (h a force): [-[h_n x], -[h_f x]; -[h_f x], 0].
Mat6 cross_with_force_matrix(const Vec6& h) {
  Mat6 X = Mat6::Zero();
  X.topLeftCorner<3, 3>() = -skew(h.head<3>());
  X.topRightCorner<3, 3>() = -skew(h.tail<3>());
  X.bottomLeftCorner<3, 3>() = -skew(h.tail<3>());
  return X;
}

/// The link's pseudo-inertia in the base (T J T^T [002 Eq. 63]) and its 6x6 inertia at the base origin.
struct WorldBody {
  Mat3 second_moment;  ///< integral of x x^T dm about the base origin
  Vec3 first_moment;
  double mass;
  Mat6 inertia;
};
WorldBody world_body(const Chain& chain, const ChainData& data, int k) {
  const Mat4& T = data.transform[size_t(k)];
  const Mat4 J = T * chain.pseudo[size_t(k)] * T.transpose();
  WorldBody b{J.topLeftCorner<3, 3>(), J.topRightCorner<3, 1>(), J(3, 3), Mat6::Zero()};
  b.inertia.topLeftCorner<3, 3>() = b.second_moment.trace() * Mat3::Identity() - b.second_moment;
  b.inertia.topRightCorner<3, 3>() = skew(b.first_moment);
  b.inertia.bottomLeftCorner<3, 3>() = skew(b.first_moment).transpose();
  b.inertia.bottomRightCorner<3, 3>() = b.mass * Mat3::Identity();
  return b;
}

template <class F>
void for_dofs(const Chain& chain, int link, F&& f) {
  for (int d = chain.v_index[size_t(link)]; d < chain.v_index[size_t(link)] + chain.joint_dofs[size_t(link)]; ++d) f(d);
}

/// World twists V_k and the DOFs' rates dS/dt = V_k x S (forward pass shared by both algorithms).
void world_velocities(const Chain& chain, ChainData& data, VectorIn qd) {
  for (int k = 0; k < chain.links; ++k) {
    const int lambda = chain.parent[size_t(k)];
    Vec6& V = data.world_velocity[size_t(k)];
    V = lambda < 0 ? Vec6(Vec6::Zero()) : data.world_velocity[size_t(lambda)];
    for_dofs(chain, k, [&](int d) { V += data.joint_screw[size_t(d)] * qd(d); });
    for_dofs(chain, k, [&](int d) { data.dof_rate[size_t(d)] = cross_motion(V, data.joint_screw[size_t(d)]); });
  }
}
}  // namespace

void rnea_derivatives(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd, VectorIn qdd, Terms terms) {
  forward_kinematics(chain, data, q);
  world_velocities(chain, data, qd);
  const int n = chain.links;
  Vec6 a0 = Vec6::Zero();
  if (terms.gravity) a0.tail<3>() = -chain.spec.gravity;  // gravity as an upward base acceleration
  for (int k = 0; k < n; ++k) {
    const int lambda = chain.parent[size_t(k)];
    const Vec6& V = data.world_velocity[size_t(k)];
    Vec6& A = data.world_acceleration[size_t(k)];
    A = lambda < 0 ? a0 : data.world_acceleration[size_t(lambda)];
    for_dofs(chain, k, [&](int d) { A += data.joint_screw[size_t(d)] * qdd(d) + data.dof_rate[size_t(d)] * qd(d); });
    const Mat6 I = world_body(chain, data, k).inertia;
    const Vec6 h = I * V;
    data.world_force[size_t(k)] = I * A + cross_force(V, h);  // f = I A + V x* I V
    data.world_inertia[size_t(k)] = I;
    data.world_variation[size_t(k)] =
        force_cross_matrix(V) * I - I * motion_cross_matrix(V) + cross_with_force_matrix(h);
  }
  const EndEffectorLoad& L = chain.spec.load;
  const bool load = terms.load && chain.end_effector_link >= 0 && (!L.force.isZero(0.0) || !L.moment.isZero(0.0));
  Vec3 load_force = Vec3::Zero(), load_moment = Vec3::Zero();
  if (load) {
    const Mat3 R = L.in_base_frame ? Mat3::Identity() : data.end_effector.R;
    load_force = R * L.force;
    load_moment = R * L.moment;
    Vec6 w;
    w << load_moment + data.end_effector.p.cross(load_force), load_force;
    data.world_force[size_t(chain.end_effector_link)] -= w;
  }
  // Composite quantities of each subtree (in base coordinates they simply add).
  for (int k = n - 1; k >= 0; --k) {
    const int lambda = chain.parent[size_t(k)];
    if (lambda < 0) continue;
    data.world_inertia[size_t(lambda)] += data.world_inertia[size_t(k)];
    data.world_variation[size_t(lambda)] += data.world_variation[size_t(k)];
    data.world_force[size_t(lambda)] += data.world_force[size_t(k)];
  }
  for (int i = 0; i < chain.dof; ++i)
    data.tau(i) = data.joint_screw[size_t(i)].dot(data.world_force[size_t(chain.dof_link[size_t(i)])]);
  dof_matrix(chain, data.dtau_dq).setZero();
  dof_matrix(chain, data.dtau_dqd).setZero();
  const bool friction = terms.friction;
  for (int j = 0; j < chain.dof; ++j) {
    const int lj = chain.dof_link[size_t(j)];
    const int pj = chain.parent[size_t(lj)];
    const Vec6& Sj = data.joint_screw[size_t(j)];
    const Vec6 Vp = pj < 0 ? Vec6(Vec6::Zero()) : data.world_velocity[size_t(pj)];
    const Vec6 Ap = pj < 0 ? a0 : data.world_acceleration[size_t(pj)];
    const Vec6 W = cross_motion(Vp, Sj);
    const Vec6 Z = cross_motion(Ap, Sj) - cross_motion(W, Vp);
    const Vec6 Y = cross_motion(Vp + data.world_velocity[size_t(lj)], Sj);
    // A load fixed in the base frame is not carried by q_j: its wrench changes by
    // [w_j x M + p x (w_j x F); w_j x F] less the carried change (d of -w).
    Vec6 load_change = Vec6::Zero();
    if (load && L.in_base_frame) {
      const Vec3 wF = Sj.head<3>().cross(load_force);
      load_change << Sj.head<3>().cross(load_moment) + data.end_effector.p.cross(wF), wF;
    }
    for (int i = 0; i < chain.dof; ++i) {
      const int li = chain.dof_link[size_t(i)];
      const bool j_supports_i = chain.supports(lj, li);
      if (!j_supports_i && !chain.supports(li, lj)) continue;  // different branches
      const int below = j_supports_i ? li : lj;                // the links moved by both DOFs: the subtree of `below`
      const Vec6& F = data.world_force[size_t(below)];
      const Mat6& Ic = data.world_inertia[size_t(below)];
      const Mat6& Bc = data.world_variation[size_t(below)];
      Vec6 dF_dq = cross_force(Sj, F) + Ic * Z + Bc * W;
      if (load && L.in_base_frame && chain.supports(below, chain.end_effector_link)) dF_dq += load_change;
      const Vec6 dF_dqd = Ic * Y + Bc * Sj;
      const Vec6& Si = data.joint_screw[size_t(i)];
      const Vec6 dSi = j_supports_i ? cross_motion(Sj, Si) : Vec6(Vec6::Zero());
      data.dtau_dq(i, j) = dSi.dot(data.world_force[size_t(li)]) + Si.dot(dF_dq);
      data.dtau_dqd(i, j) = Si.dot(dF_dqd);
      const ChainJoint& ji = chain.joint(li);
      if (!friction || ji.type == JointType::free_flyer) continue;
      const JointFriction& fr = ji.friction;
      if (i == j) data.dtau_dqd(i, i) += fr.viscous;
      if (!(fr.coulomb > 0) || qd(i) == 0.0) continue;
      // mu r |k x f| sgn(qd) [002 Eq. 157]: d|u| = u . du / |u|, u = k x f in base axes.
      const bool revolute = ji.type == JointType::revolute;
      const Vec3 k = revolute ? Vec3(Si.head<3>()) : Vec3(Si.tail<3>());
      const Vec3 f = data.world_force[size_t(li)].tail<3>();
      const Vec3 u = k.cross(f);
      const double norm = u.norm();
      if (norm == 0.0) continue;
      const double gain = fr.coulomb * (revolute ? 0.5 * fr.diameter : 1.0) * (qd(i) > 0 ? 1.0 : -1.0) / norm;
      const Vec3 dk = j_supports_i ? Vec3(Sj.head<3>().cross(k)) : Vec3(Vec3::Zero());
      data.dtau_dq(i, j) += gain * u.dot(dk.cross(f) + k.cross(Vec3(dF_dq.tail<3>())));
      data.dtau_dqd(i, j) += gain * u.dot(k.cross(Vec3(dF_dqd.tail<3>())));
    }
  }
  if (!friction) return;
  // tau's friction [002 Eq. 157], with |k x f| from the base-frame force (rotations keep it).
  for (int i = 0; i < chain.dof; ++i) {
    const ChainJoint& ji = chain.joint(chain.dof_link[size_t(i)]);
    if (ji.type == JointType::free_flyer) continue;
    const JointFriction& fr = ji.friction;
    data.tau(i) += fr.viscous * qd(i);
    if (qd(i) == 0.0) continue;
    const Vec6& Si = data.joint_screw[size_t(i)];
    const Vec3 k = ji.type == JointType::revolute ? Vec3(Si.head<3>()) : Vec3(Si.tail<3>());
    const double normal = k.cross(Vec3(data.world_force[size_t(chain.dof_link[size_t(i)])].tail<3>())).norm();
    const double arm = ji.type == JointType::revolute ? 0.5 * fr.diameter : 1.0;
    data.tau(i) += (fr.constant + fr.coulomb * arm * normal) * (qd(i) > 0 ? 1.0 : -1.0);
  }
}

void coriolis_matrix(const Chain& chain, ChainData& data, VectorIn q, VectorIn qd) {
  forward_kinematics(chain, data, q);
  world_velocities(chain, data, qd);
  const int n = chain.links;
  for (int k = 0; k < n; ++k) {
    const WorldBody b = world_body(chain, data, k);
    const Vec6& V = data.world_velocity[size_t(k)];
    const Vec3 w = V.head<3>(), v = V.tail<3>();
    // G(V) [w_i; v_i] = [integral of (V x) x (S_i x) dm; 0], from P = integral x x^T dm, h, m:
    // (P [w x] - [v x][h x]) w_i + ([(w x h) x] + m [v x]) v_i.
    Mat6 G = Mat6::Zero();
    G.topLeftCorner<3, 3>() = b.second_moment * skew(w) - skew(v) * skew(b.first_moment);
    G.topRightCorner<3, 3>() = skew(w.cross(b.first_moment)) + b.mass * skew(v);
    data.world_inertia[size_t(k)] = b.inertia;
    data.world_variation[size_t(k)] = G;
  }
  for (int k = n - 1; k >= 0; --k) {
    const int lambda = chain.parent[size_t(k)];
    if (lambda < 0) continue;
    data.world_inertia[size_t(lambda)] += data.world_inertia[size_t(k)];
    data.world_variation[size_t(lambda)] += data.world_variation[size_t(k)];
  }
  dof_matrix(chain, data.coriolis).setZero();
  for (int i = 0; i < chain.dof; ++i)
    for (int j = 0; j < chain.dof; ++j) {
      const int li = chain.dof_link[size_t(i)], lj = chain.dof_link[size_t(j)];
      const bool j_supports_i = chain.supports(lj, li);
      if (!j_supports_i && !chain.supports(li, lj)) continue;
      const int below = j_supports_i ? li : lj;
      const Vec6& Si = data.joint_screw[size_t(i)];
      const Vec6& Sj = data.joint_screw[size_t(j)];
      data.coriolis(i, j) = Si.dot(data.world_inertia[size_t(below)] * data.dof_rate[size_t(j)]) +
                            Sj.dot(data.world_variation[size_t(below)] * Si);
    }
}

}  // namespace linkdyn::spatial
