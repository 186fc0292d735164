#include "linkdyn/spatial/higher_order.hpp"

#include <stdexcept>

#include "linkdyn/spatial/kinematics.hpp"
#include "spatial/spatial_algebra.hpp"

namespace linkdyn::spatial {
using namespace detail;

DerivativeData::DerivativeData(const Chain& chain)
    : screw(size_t(chain.dof)),
      twist(size_t(chain.dof)),
      momentum(size_t(chain.dof)),
      force(size_t(chain.dof)),
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
    Vec6 sum = u[size_t(j + 1)];
    for (int m = 0; m <= j; ++m) sum -= binomial[j][m] * cross_motion(v[size_t(m)], u[size_t(j - m)]);
    w[size_t(j)] = sum;
  }
  inertia_times_derivatives(I, v, w, order - 1, z);
  for (int k = 0; k < order; ++k) {
    Vec6 sum = z[size_t(k)];
    for (int m = 0; m <= k; ++m) sum += binomial[k][m] * cross_force(v[size_t(m)], y[size_t(k - m)]);
    y[size_t(k + 1)] = sum;
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
  if (Q.rows() != chain.dof || Q.cols() < 5)
    throw std::invalid_argument("torque_derivatives: need q and its derivatives up to the fourth");
  forward_kinematics(chain, data, Q.col(0));
  const int n = chain.dof;
  Vec6 gravity = Vec6::Zero();
  if (terms.gravity) gravity.tail<3>() = chain.spec.gravity;
  for (int k = 0; k < n; ++k) {
    const auto K = size_t(k);
    const Pose& w = data.world[K];
    d.screw[K][0] = data.joint_screw[K];
    // The parent's twist derivatives (the base is at rest).
    std::array<Vec6, 4> parent;
    for (int r = 0; r < 4; ++r) parent[size_t(r)] = k == 0 ? Vec6(Vec6::Zero()) : d.twist[K - 1][size_t(r)];
    // d s / dt = v_parent x s, so s^(r+1) = sum_m C(r,m) v_parent^(m) x s^(r-m).
    for (int r = 0; r < 3; ++r) {
      Vec6 sum = Vec6::Zero();
      for (int m = 0; m <= r; ++m) sum += binomial[r][m] * cross_motion(parent[size_t(m)], d.screw[K][size_t(r - m)]);
      d.screw[K][size_t(r + 1)] = sum;
    }
    // v = v_parent + s qd, so v^(r) = v_parent^(r) + sum_m C(r,m) s^(m) q^(r-m+1).
    for (int r = 0; r < 4; ++r) {
      Vec6 sum = parent[size_t(r)];
      for (int m = 0; m <= r; ++m) sum += binomial[r][m] * Q(k, r - m + 1) * d.screw[K][size_t(m)];
      d.twist[K][size_t(r)] = sum;
    }
    // Momentum h = I v and the gravity wrench I g with their derivatives, by (I u)' = v x* (I u)
    // + I (u' - v x u), which follows from dI/dt = v x* I - I v x.
    const RigidInertiaInWorld inertia{chain, k, w};
    Derivs gravity_force;
    const Derivs& twist = d.twist[K];
    Derivs& momentum = d.momentum[K];
    inertia_times_derivatives(inertia, twist, twist, 3, momentum);
    Derivs g;
    g.fill(Vec6::Zero());
    g[0] = gravity;  // constant
    inertia_times_derivatives(inertia, twist, g, 2, gravity_force);
    for (int r = 0; r < 3; ++r) d.force[K][size_t(r)] = momentum[size_t(r + 1)] - gravity_force[size_t(r)];
  }
  // The load on the end effector, at the base origin, and its derivatives.
  const EndEffectorLoad& L = chain.spec.load;
  if (terms.load && (!L.force.isZero(0.0) || !L.moment.isZero(0.0))) {
    const auto last = size_t(n - 1);
    const auto& V = d.twist[last];
    if (L.in_base_frame) {
      // Fixed force and moment in the base frame, the force acting at the moving end effector.
      std::array<Vec3, 3> p;
      p[0] = data.end_effector.p;
      for (int r = 0; r < 2; ++r) {
        Vec3 sum = V[size_t(r)].tail<3>();
        for (int m = 0; m <= r; ++m) sum += binomial[r][m] * V[size_t(m)].head<3>().cross(p[size_t(r - m)]);
        p[size_t(r + 1)] = sum;
      }
      for (int r = 0; r < 3; ++r) {
        d.load[size_t(r)] << p[size_t(r)].cross(L.force) + (r == 0 ? L.moment : Vec3::Zero()),
            (r == 0 ? L.force : Vec3::Zero());
      }
    } else {
      // Fixed in the end-effector frame: it turns with the last link, dw/dt = v x* w.
      const Pose& e = data.end_effector;
      const Vec3 F = e.R * L.force;
      d.load[0] << e.R * L.moment + e.p.cross(F), F;
      for (int r = 0; r < 2; ++r) {
        Vec6 sum = Vec6::Zero();
        for (int m = 0; m <= r; ++m) sum += binomial[r][m] * cross_force(V[size_t(m)], d.load[size_t(r - m)]);
        d.load[size_t(r + 1)] = sum;
      }
    }
    for (int r = 0; r < 3; ++r) d.force[last][size_t(r)] -= d.load[size_t(r)];
  }
  // Backward: wrenches through the joints, tau = s . F and its derivatives (Leibniz).
  for (int k = n - 1; k >= 0; --k) {
    const auto K = size_t(k);
    if (k < n - 1)
      for (int r = 0; r < 3; ++r) d.force[K][size_t(r)] += d.force[K + 1][size_t(r)];
    std::array<double, 3> t{};
    for (int r = 0; r < 3; ++r)
      for (int m = 0; m <= r; ++m) t[size_t(r)] += binomial[r][m] * d.screw[K][size_t(m)].dot(d.force[K][size_t(r - m)]);
    const ChainJoint& j = chain.joint(k);
    if (terms.friction) {
      const JointFriction& fr = j.friction;
      for (int r = 0; r < 3; ++r) t[size_t(r)] += fr.viscous * Q(k, r + 1);
      if (fr.coulomb > 0 && Q(k, 1) != 0.0) {
        // |k x f| of [002 Eq. 157] and its derivatives: the axis turns with the link.
        const bool revolute = j.type == JointType::revolute;
        std::array<Vec3, 3> u;
        for (int r = 0; r < 3; ++r) {
          u[size_t(r)].setZero();
          for (int m = 0; m <= r; ++m) {
            const Vec6& s = d.screw[K][size_t(m)];
            const Vec3 axis_m = revolute ? Vec3(s.head<3>()) : Vec3(s.tail<3>());
            u[size_t(r)] += binomial[r][m] * axis_m.cross(d.force[K][size_t(r - m)].tail<3>());
          }
        }
        const auto normal = norm_derivatives(u);
        const double gain = fr.coulomb * (revolute ? 0.5 * fr.diameter : 1.0) * (Q(k, 1) > 0 ? 1.0 : -1.0);
        for (int r = 0; r < 3; ++r) t[size_t(r)] += gain * normal[size_t(r)];
      }
    }
    d.tau(k) = t[0];
    d.dtau(k) = t[1];
    d.ddtau(k) = t[2];
  }
}

}  // namespace linkdyn::spatial
