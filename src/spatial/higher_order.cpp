#include "linkdyn/spatial/higher_order.hpp"

#include <stdexcept>

#include "linkdyn/spatial/kinematics.hpp"
#include "spatial/spatial_algebra.hpp"

namespace linkdyn::spatial {
using namespace detail;

DerivativeData::DerivativeData(const Chain& chain)
    : screw(size_t(chain.dof)),
      twist(size_t(chain.links)),
      momentum(size_t(chain.links)),
      force(size_t(chain.links)),
      tau(Eigen::VectorXd::Zero(chain.dof)),
      dtau(Eigen::VectorXd::Zero(chain.dof)),
      ddtau(Eigen::VectorXd::Zero(chain.dof)) {}

namespace {
constexpr double binomial[4][4] = {{1, 0, 0, 0}, {1, 1, 0, 0}, {1, 2, 1, 0}, {1, 3, 3, 1}};

using Derivs = std::array<Vec6, 4>;

/// The spatial inertia of link k at the base origin, applied through the link frame.
struct RigidInertiaInWorld {
  const Chain& chain;
  int link;
  const Pose& pose;  ///< link frame in the base
  Vec6 operator()(const Vec6& motion) const {
    return force_to_parent(pose, inertia_times(chain, link, motion_to_child(pose, motion)));
  }
};

/// Derivatives 0..order of y = I u, from those of u and of the link twist v:
/// y^(k+1) = sum_m C(k,m) v^(m) x* y^(k-m) + (I w)^(k), with w = u' - v x u (recursively).
void inertia_times_derivatives(const RigidInertiaInWorld& I, const Derivs& v, const Derivs& u, int order, Derivs& y) {
  y[0] = I(u[0]);
  if (order == 0) return;
  Derivs w, z;
  w.fill(Vec6::Zero());  // entries past `order` are never read; zeroed for the compiler's sake
  for (int j = 0; j < order; ++j) {
    Vec6 sum = u[size_t(j) + 1];
    for (int m = 0; m <= j; ++m) sum -= binomial[j][m] * cross_motion(v[size_t(m)], u[size_t(j - m)]);
    w[size_t(j)] = sum;
  }
  inertia_times_derivatives(I, v, w, order - 1, z);
  for (int k = 0; k < order; ++k) {
    Vec6 sum = z[size_t(k)];
    for (int m = 0; m <= k; ++m) sum += binomial[k][m] * cross_force(v[size_t(m)], y[size_t(k - m)]);
    y[size_t(k) + 1] = sum;
  }
}

/// Derivatives 0..2 of |u| from those of u.
std::array<double, 3> norm_derivatives(const std::array<Vec3, 3>& u) {
  const double n = u[0].norm();
  if (n == 0.0) return {0.0, 0.0, 0.0};
  const double d1 = u[0].dot(u[1]) / n;
  const double d2 = (u[1].squaredNorm() + u[0].dot(u[2])) / n - d1 * d1 / n;
  return {n, d1, d2};
}
}  // namespace

void torque_derivatives(const Chain& chain, ChainData& data, DerivativeData& d, const Eigen::MatrixXd& Q, Terms terms) {
  if (Q.rows() != chain.dof || Q.cols() < 5 || chain.nq != chain.dof)
    throw std::invalid_argument("torque_derivatives: need q and its derivatives up to the fourth");
  torque_derivatives(chain, data, d, Q.col(0), Q.middleCols(1, 4), terms);
}

void torque_derivatives(const Chain& chain, ChainData& data, DerivativeData& d, VectorIn q, MatrixIn V, Terms terms) {
  if (q.size() != chain.nq || V.rows() != chain.dof || V.cols() < 4)
    throw std::invalid_argument("torque_derivatives: need q and the velocity's derivatives up to the third");
  forward_kinematics(chain, data, q);
  const int n = chain.links;
  Vec6 gravity = Vec6::Zero();
  if (terms.gravity) gravity.tail<3>() = chain.spec.gravity;
  const auto first_dof = [&](int k) { return chain.v_index[size_t(k)]; };
  const auto last_dof = [&](int k) { return chain.v_index[size_t(k)] + chain.joint_dofs[size_t(k)]; };
  for (int k = 0; k < n; ++k) {
    const auto K = size_t(k);
    const Pose& w = data.world[K];
    const int lambda = chain.parent[K];
    // A DOF's screw turns with its link, d s / dt = v x s (v: the link's twist; for a 1-DOF
    // joint the parent's twist gives the same, s x s = 0), and v = v_parent + sum_d s_d qd_d, so
    // order by order: s^(r) from v^(0..r-1), then v^(r) = v_parent^(r) + sum C(r,m) s^(m) qd^(r-m).
    Derivs& twist = d.twist[K];
    for (int r = 0; r < 4; ++r) {
      for (int dof = first_dof(k); dof < last_dof(k); ++dof) {
        Vec6& s = d.screw[size_t(dof)][size_t(r)];
        if (r == 0) {
          s = data.joint_screw[size_t(dof)];
          continue;
        }
        s.setZero();
        for (int m = 0; m < r; ++m)
          s += binomial[r - 1][m] * cross_motion(twist[size_t(m)], d.screw[size_t(dof)][size_t(r - 1 - m)]);
      }
      Vec6 sum = lambda < 0 ? Vec6(Vec6::Zero()) : d.twist[size_t(lambda)][size_t(r)];
      for (int dof = first_dof(k); dof < last_dof(k); ++dof)
        for (int m = 0; m <= r; ++m) sum += binomial[r][m] * V(dof, r - m) * d.screw[size_t(dof)][size_t(m)];
      twist[size_t(r)] = sum;
    }
    // Momentum h = I v and the gravity wrench I g with their derivatives, by (I u)' = v x* (I u)
    // + I (u' - v x u), which follows from dI/dt = v x* I - I v x.
    const RigidInertiaInWorld inertia{chain, k, w};
    Derivs gravity_force;
    Derivs& momentum = d.momentum[K];
    inertia_times_derivatives(inertia, twist, twist, 3, momentum);
    Derivs g;
    g.fill(Vec6::Zero());
    g[0] = gravity;  // constant
    inertia_times_derivatives(inertia, twist, g, 2, gravity_force);
    for (int r = 0; r < 3; ++r) d.force[K][size_t(r)] = momentum[size_t(r) + 1] - gravity_force[size_t(r)];
  }
  // The load on the end effector, at the base origin, and its derivatives.
  const EndEffectorLoad& L = chain.spec.load;
  if (terms.load && chain.end_effector_link >= 0 && (!L.force.isZero(0.0) || !L.moment.isZero(0.0))) {
    const auto ee = size_t(chain.end_effector_link);
    const auto& W = d.twist[ee];
    if (L.in_base_frame) {
      // Fixed force and moment in the base frame, the force acting at the moving end effector.
      std::array<Vec3, 3> p;
      p[0] = data.end_effector.p;
      for (int r = 0; r < 2; ++r) {
        Vec3 sum = W[size_t(r)].tail<3>();
        for (int m = 0; m <= r; ++m) sum += binomial[r][m] * W[size_t(m)].head<3>().cross(p[size_t(r - m)]);
        p[size_t(r) + 1] = sum;
      }
      for (int r = 0; r < 3; ++r) {
        d.load[size_t(r)] << p[size_t(r)].cross(L.force) + (r == 0 ? L.moment : Vec3::Zero()),
            (r == 0 ? L.force : Vec3::Zero());
      }
    } else {
      // Fixed in the end-effector frame: it turns with the link, dw/dt = v x* w.
      const Pose& e = data.end_effector;
      const Vec3 F = e.R * L.force;
      d.load[0] << e.R * L.moment + e.p.cross(F), F;
      for (int r = 0; r < 2; ++r) {
        Vec6 sum = Vec6::Zero();
        for (int m = 0; m <= r; ++m) sum += binomial[r][m] * cross_force(W[size_t(m)], d.load[size_t(r - m)]);
        d.load[size_t(r) + 1] = sum;
      }
    }
    for (int r = 0; r < 3; ++r) d.force[ee][size_t(r)] -= d.load[size_t(r)];
  }
  // Backward: wrenches through the joints (the children's added to the parent's), tau = s . F
  // and its derivatives (Leibniz).
  for (int k = n - 1; k >= 0; --k) {
    const auto K = size_t(k);
    const int lambda = chain.parent[K];
    const ChainJoint& j = chain.joint(k);
    for (int dof = first_dof(k); dof < last_dof(k); ++dof) {
      std::array<double, 3> t{};
      for (int r = 0; r < 3; ++r)
        for (int m = 0; m <= r; ++m)
          t[size_t(r)] += binomial[r][m] * d.screw[size_t(dof)][size_t(m)].dot(d.force[K][size_t(r - m)]);
      if (terms.friction && j.type != JointType::free_flyer) {
        const JointFriction& fr = j.friction;
        const double sign = V(dof, 0) > 0 ? 1.0 : V(dof, 0) < 0 ? -1.0 : 0.0;
        for (int r = 0; r < 3; ++r) t[size_t(r)] += fr.viscous * V(dof, r);
        t[0] += fr.constant * sign;
        if (fr.coulomb > 0 && sign != 0.0) {
          // |k x f| of [002 Eq. 157] and its derivatives: the axis turns with the link.
          const bool revolute = j.type == JointType::revolute;
          std::array<Vec3, 3> u;
          for (int r = 0; r < 3; ++r) {
            u[size_t(r)].setZero();
            for (int m = 0; m <= r; ++m) {
              const Vec6& s = d.screw[size_t(dof)][size_t(m)];
              const Vec3 axis_m = revolute ? Vec3(s.head<3>()) : Vec3(s.tail<3>());
              u[size_t(r)] += binomial[r][m] * axis_m.cross(d.force[K][size_t(r - m)].tail<3>());
            }
          }
          const auto normal = norm_derivatives(u);
          const double gain = fr.coulomb * (revolute ? 0.5 * fr.diameter : 1.0) * sign;
          for (int r = 0; r < 3; ++r) t[size_t(r)] += gain * normal[size_t(r)];
        }
      }
      d.tau(dof) = t[0];
      d.dtau(dof) = t[1];
      d.ddtau(dof) = t[2];
    }
    if (lambda >= 0)
      for (int r = 0; r < 3; ++r) d.force[size_t(lambda)][size_t(r)] += d.force[K][size_t(r)];
  }
}

}  // namespace linkdyn::spatial
