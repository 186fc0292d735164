#include "linkdyn/spatial/kinematics.hpp"

#include <algorithm>
#include <cmath>

namespace linkdyn::spatial {

Mat4 joint_generator(const ChainJoint& joint) {
  Mat4 U = Mat4::Zero();
  if (joint.type == JointType::revolute) U.topLeftCorner<3, 3>() = skew(joint.axis);
  else U.topRightCorner<3, 1>() = joint.axis;
  return U;
}

Mat4 joint_motion(const ChainJoint& joint, double q) {
  Mat4 E = Mat4::Identity();
  if (joint.type == JointType::revolute) E.topLeftCorner<3, 3>() = axis_rotation(joint.axis, q);
  else E.topRightCorner<3, 1>() = joint.axis * q;
  return E;
}

void update_link_poses(const Chain& chain, ChainData& data, VectorIn q) {
  for (int i = 0; i < chain.dof; ++i) {
    const ChainJoint& j = chain.joint(i);
    const Mat3& P = j.placement.R;
    Pose& l = data.local[static_cast<size_t>(i)];
    l.p = j.placement.p;
    if (j.type == JointType::prismatic) {
      l.R = P;
      l.p.noalias() += P * (j.axis * q(i));
      continue;
    }
    double s, c;
    ::sincos(q(i), &s, &c);
    // P Rot(axis, q): for an axis along +-x, +-y or +-z only two columns mix.
    switch (chain.axis_code[static_cast<size_t>(i)]) {
      case 3: case -3: {
        s *= chain.axis_code[static_cast<size_t>(i)] > 0 ? 1.0 : -1.0;
        l.R.col(0) = c * P.col(0) + s * P.col(1);
        l.R.col(1) = c * P.col(1) - s * P.col(0);
        l.R.col(2) = P.col(2);
        break;
      }
      case 1: case -1: {
        s *= chain.axis_code[static_cast<size_t>(i)] > 0 ? 1.0 : -1.0;
        l.R.col(0) = P.col(0);
        l.R.col(1) = c * P.col(1) + s * P.col(2);
        l.R.col(2) = c * P.col(2) - s * P.col(1);
        break;
      }
      case 2: case -2: {
        s *= chain.axis_code[static_cast<size_t>(i)] > 0 ? 1.0 : -1.0;
        l.R.col(0) = c * P.col(0) - s * P.col(2);
        l.R.col(1) = P.col(1);
        l.R.col(2) = c * P.col(2) + s * P.col(0);
        break;
      }
      default: {
        // Rodrigues: c 1 + s [k x] + (1 - c) k k^T.
        const Vec3& k = j.axis;
        const Mat3 rot = c * Mat3::Identity() + s * skew(k) + (1.0 - c) * k * k.transpose();
        l.R.noalias() = P * rot;
      }
    }
  }
}

void forward_kinematics(const Chain& chain, ChainData& data, VectorIn q) {
  update_link_poses(chain, data, q);
  Pose parent;
  for (int i = 0; i < chain.dof; ++i) {
    const ChainJoint& j = chain.joint(i);
    const Pose& l = data.local[static_cast<size_t>(i)];
    Pose& w = data.world[static_cast<size_t>(i)];
    w = parent * l;
    parent = w;
    // World twist of joint i, [omega; v] at the base origin: its axis passes through link i's
    // origin [002 Eqs. 121-122]; as a 4x4 matrix, the Uicker operator in the base frame.
    const Vec3 k = w.R * j.axis;
    Vec6& screw = data.joint_screw[static_cast<size_t>(i)];
    if (j.type == JointType::revolute) screw << k, w.p.cross(k);
    else screw << Vec3::Zero(), k;
    Mat4& S = data.joint_twist[static_cast<size_t>(i)];
    S.setZero();
    S.topLeftCorner<3, 3>() = skew(screw.head<3>());
    S.topRightCorner<3, 1>() = screw.tail<3>();
    data.transform[static_cast<size_t>(i)] = w.matrix();
  }
  data.end_effector = parent * chain.spec.end_effector;
}

namespace {
/// Column of the Jacobian of world point x for joint j: [v; omega].
Vec6 jacobian_column(const Chain& chain, const ChainData& data, int j, const Vec3& x) {
  const Pose& w = data.world[static_cast<size_t>(j)];
  const Vec3 k = w.R * chain.joint(j).axis;
  Vec6 col = Vec6::Zero();
  if (chain.joint(j).type == JointType::revolute) {
    col.head<3>() = k.cross(x - w.p);
    col.tail<3>() = k;
  } else {
    col.head<3>() = k;
  }
  return col;
}
}  // namespace

void end_effector_jacobian(const Chain& chain, ChainData& data) {
  for (int j = 0; j < chain.dof; ++j) data.jacobian.col(j) = jacobian_column(chain, data, j, data.end_effector.p);
}

Eigen::Matrix<double, 3, Eigen::Dynamic> point_jacobian(const Chain& chain, const ChainData& data, int link,
                                                        const Vec3& point) {
  Eigen::Matrix<double, 3, Eigen::Dynamic> J = Eigen::Matrix<double, 3, Eigen::Dynamic>::Zero(3, chain.dof);
  const Vec3 x = data.world[static_cast<size_t>(link)].apply(point);
  for (int j = 0; j <= link; ++j) J.col(j) = jacobian_column(chain, data, j, x).head<3>();
  return J;
}

Eigen::Matrix<double, 6, Eigen::Dynamic> end_effector_jacobian_derivative(const Chain& chain, const ChainData& data,
                                                                          VectorIn qd) {
  const auto n = static_cast<size_t>(chain.dof);
  std::vector<Vec3> omega(n), origin_velocity(n);
  Vec3 w_prev = Vec3::Zero(), o_prev = Vec3::Zero(), v_prev = Vec3::Zero();
  for (size_t i = 0; i < n; ++i) {
    const Pose& w = data.world[i];
    const Vec3 k = w.R * chain.joint(static_cast<int>(i)).axis;
    const bool revolute = chain.joint(static_cast<int>(i)).type == JointType::revolute;
    origin_velocity[i] = v_prev + w_prev.cross(w.p - o_prev) + (revolute ? Vec3::Zero() : Vec3(k * qd(int(i))));
    omega[i] = w_prev + (revolute ? Vec3(k * qd(int(i))) : Vec3::Zero());
    w_prev = omega[i];
    o_prev = w.p;
    v_prev = origin_velocity[i];
  }
  const Vec3 p = data.end_effector.p;
  const Vec3 p_dot = v_prev + w_prev.cross(p - o_prev);
  Eigen::Matrix<double, 6, Eigen::Dynamic> Jd = Eigen::Matrix<double, 6, Eigen::Dynamic>::Zero(6, chain.dof);
  for (size_t j = 0; j < n; ++j) {
    const Pose& w = data.world[j];
    const Vec3 k = w.R * chain.joint(static_cast<int>(j)).axis;
    const Vec3 k_dot = omega[j].cross(k);
    if (chain.joint(static_cast<int>(j)).type == JointType::revolute) {
      Jd.col(int(j)).head<3>() = k_dot.cross(p - w.p) + k.cross(p_dot - origin_velocity[j]);
      Jd.col(int(j)).tail<3>() = k_dot;
    } else {
      Jd.col(int(j)).head<3>() = k_dot;
    }
  }
  return Jd;
}

Mat4 differential_matrix(const ChainData& data, int k, const std::vector<int>& joints) {
  std::vector<int> sorted = joints;
  std::sort(sorted.begin(), sorted.end());
  if (!sorted.empty() && sorted.back() > k) return Mat4::Zero();
  Mat4 A = data.transform[static_cast<size_t>(k)];
  for (auto it = sorted.rbegin(); it != sorted.rend(); ++it) A = data.joint_twist[static_cast<size_t>(*it)] * A;
  return A;
}

Mat4 differential_matrix(const ChainData& data, int k, std::initializer_list<int> joints) {
  return differential_matrix(data, k, std::vector<int>(joints));
}

std::vector<std::vector<Mat4>> transform_time_derivatives(const Chain& chain, const Eigen::MatrixXd& qd, int order) {
  // Binomial coefficients up to `order`.
  std::vector<std::vector<double>> C(static_cast<size_t>(order) + 1);
  for (int r = 0; r <= order; ++r) {
    C[size_t(r)].assign(size_t(r) + 1, 1.0);
    for (int m = 1; m < r; ++m) C[size_t(r)][size_t(m)] = C[size_t(r - 1)][size_t(m - 1)] + C[size_t(r - 1)][size_t(m)];
  }
  std::vector<std::vector<Mat4>> T(static_cast<size_t>(chain.dof), std::vector<Mat4>(size_t(order) + 1));
  std::vector<Mat4> parent(size_t(order) + 1, Mat4::Zero()), B(size_t(order) + 1), E(size_t(order) + 1);
  parent[0] = Mat4::Identity();
  for (int k = 0; k < chain.dof; ++k) {
    const ChainJoint& j = chain.joint(k);
    const Mat4 P = j.placement.matrix(), U = joint_generator(j);
    E[0] = joint_motion(j, qd(k, 0));
    // E' = E U qd, so E^(r+1) = sum_m C(r,m) E^(m) U q^(r-m+1).
    for (int r = 0; r < order; ++r) {
      E[size_t(r + 1)].setZero();
      for (int m = 0; m <= r; ++m) E[size_t(r + 1)] += C[size_t(r)][size_t(m)] * qd(k, r - m + 1) * (E[size_t(m)] * U);
    }
    for (int r = 0; r <= order; ++r) B[size_t(r)] = parent[size_t(r)] * P;
    for (int r = 0; r <= order; ++r) {
      Mat4 sum = Mat4::Zero();
      for (int m = 0; m <= r; ++m) sum += C[size_t(r)][size_t(m)] * (B[size_t(m)] * E[size_t(r - m)]);
      T[size_t(k)][size_t(r)] = sum;
    }
    parent = T[size_t(k)];
  }
  return T;
}

}  // namespace linkdyn::spatial
