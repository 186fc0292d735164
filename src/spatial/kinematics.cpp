#include "linkdyn/spatial/kinematics.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "spatial/spatial_algebra.hpp"

namespace linkdyn::spatial {
using namespace detail;

Mat4 joint_generator(const ChainJoint& joint) {
  Mat4 U = Mat4::Zero();
  if (joint.type == JointType::revolute)
    U.topLeftCorner<3, 3>() = skew(joint.axis);
  else
    U.topRightCorner<3, 1>() = joint.axis;
  return U;
}

Mat4 joint_motion(const ChainJoint& joint, double q) {
  Mat4 E = Mat4::Identity();
  if (joint.type == JointType::revolute)
    E.topLeftCorner<3, 3>() = axis_rotation(joint.axis, q);
  else
    E.topRightCorner<3, 1>() = joint.axis * q;
  return E;
}

void update_link_poses(const Chain& chain, ChainData& data, VectorIn q) {
  assert(check(chain, data) && "the data was made for another chain");
  for (int i = 0; i < chain.links; ++i) {
    const ChainJoint& j = chain.joint(i);
    const Mat3& P = j.placement.R;
    Pose& l = data.local[static_cast<size_t>(i)];
    const double qi = q(chain.q_index[size_t(i)]);
    l.p = j.placement.p;
    if (j.type == JointType::free_flyer) {
      l = j.placement * free_flyer_motion(chain, q, i);
      continue;
    }
    if (j.type == JointType::prismatic) {
      l.R = P;
      l.p.noalias() += P * (j.axis * qi);
      continue;
    }
    double s, c;
    ::sincos(qi, &s, &c);  // once per joint [002 Eq. 90]
    // P Rot(axis, q): for an axis along +-x, +-y or +-z only two columns mix.
    switch (chain.axis_code[static_cast<size_t>(i)]) {
      case 3:
      case -3: {
        s *= chain.axis_code[static_cast<size_t>(i)] > 0 ? 1.0 : -1.0;
        l.R.col(0) = c * P.col(0) + s * P.col(1);
        l.R.col(1) = c * P.col(1) - s * P.col(0);
        l.R.col(2) = P.col(2);
        break;
      }
      case 1:
      case -1: {
        s *= chain.axis_code[static_cast<size_t>(i)] > 0 ? 1.0 : -1.0;
        l.R.col(0) = P.col(0);
        l.R.col(1) = c * P.col(1) + s * P.col(2);
        l.R.col(2) = c * P.col(2) - s * P.col(1);
        break;
      }
      case 2:
      case -2: {
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
  for (int i = 0; i < chain.links; ++i) {
    const auto k = size_t(i);
    const int lambda = chain.parent[k];
    Pose& w = data.world[k];
    w = lambda < 0 ? data.local[k] : data.world[size_t(lambda)] * data.local[k];
    data.transform[k] = w.matrix();
    // World twist of each DOF, [omega; v] at the base origin: a joint axis passes through its
    // link's origin [002 Eqs. 121-122]; as a 4x4 matrix, the Uicker operator in the base frame.
    for (int d = chain.v_index[k]; d < chain.v_index[k] + chain.joint_dofs[k]; ++d) {
      const Vec6& s = chain.dof_subspace[size_t(d)];
      Vec6& screw = data.joint_screw[size_t(d)];
      screw.head<3>() = w.R * s.head<3>();
      screw.tail<3>() = w.R * s.tail<3>() + w.p.cross(screw.head<3>());
      Mat4& S = data.joint_twist[size_t(d)];
      S.setZero();
      S.topLeftCorner<3, 3>() = skew(screw.head<3>());
      S.topRightCorner<3, 1>() = screw.tail<3>();
    }
  }
  const int ee = chain.end_effector_link;
  data.end_effector = ee < 0 ? chain.spec.end_effector : data.world[size_t(ee)] * chain.spec.end_effector;
}

Pose frame_placement(const Chain& chain, const ChainData& data, int frame) {
  const Frame& f = chain.frames[size_t(frame)];
  return f.link < 0 ? f.pose : data.world[size_t(f.link)] * f.pose;
}

void frame_jacobian(const Chain& chain, const ChainData& data, int frame,
                    Eigen::Ref<Eigen::Matrix<double, 6, Eigen::Dynamic>> J) {
  J.setZero();
  const int link = chain.frames[size_t(frame)].link;
  const Vec3 x = frame_placement(chain, data, frame).p;
  // Column of DOF d: the velocity of the point x and the angular velocity, from the world twist
  // [omega; v_O] of the DOF: [v_O + omega x x; omega] [002 Eqs. 117-124].
  for (int l = link; l >= 0; l = chain.parent[size_t(l)])
    for (int d = chain.v_index[size_t(l)]; d < chain.v_index[size_t(l)] + chain.joint_dofs[size_t(l)]; ++d) {
      const Vec6& s = data.joint_screw[size_t(d)];
      J.col(d).head<3>() = s.tail<3>() + s.head<3>().cross(x);
      J.col(d).tail<3>() = s.head<3>();
    }
}

void end_effector_jacobian(const Chain& chain, ChainData& data) {
  frame_jacobian(chain, data, chain.frame_index("end_effector"), data.jacobian);
}

Eigen::Matrix<double, 3, Eigen::Dynamic> point_jacobian(const Chain& chain, const ChainData& data, int link,
                                                        const Vec3& point) {
  Eigen::Matrix<double, 3, Eigen::Dynamic> J = Eigen::Matrix<double, 3, Eigen::Dynamic>::Zero(3, chain.dof);
  const Vec3 x = data.world[static_cast<size_t>(link)].apply(point);
  for (int l = link; l >= 0; l = chain.parent[size_t(l)])
    for (int d = chain.v_index[size_t(l)]; d < chain.v_index[size_t(l)] + chain.joint_dofs[size_t(l)]; ++d) {
      const Vec6& s = data.joint_screw[size_t(d)];
      J.col(d) = s.tail<3>() + s.head<3>().cross(x);
    }
  return J;
}

Eigen::Matrix<double, 6, Eigen::Dynamic> end_effector_jacobian_derivative(const Chain& chain, const ChainData& data,
                                                                          VectorIn qd) {
  // World twists V_k = V_parent + sum S_d qd_d; a DOF's screw turns with its link: dS/dt = V_k x S
  // (the joint's own motion adds nothing for a 1-DOF joint, S x S = 0).
  std::vector<Vec6> V(size_t(chain.links), Vec6::Zero());
  for (int k = 0; k < chain.links; ++k) {
    const int lambda = chain.parent[size_t(k)];
    V[size_t(k)] = lambda < 0 ? Vec6(Vec6::Zero()) : V[size_t(lambda)];
    for (int d = chain.v_index[size_t(k)]; d < chain.v_index[size_t(k)] + chain.joint_dofs[size_t(k)]; ++d)
      V[size_t(k)] += data.joint_screw[size_t(d)] * qd(d);
  }
  const Vec3 p = data.end_effector.p;
  const int ee = chain.end_effector_link;
  Eigen::Matrix<double, 6, Eigen::Dynamic> Jd = Eigen::Matrix<double, 6, Eigen::Dynamic>::Zero(6, chain.dof);
  if (ee < 0) return Jd;
  const Vec6& Ve = V[size_t(ee)];
  const Vec3 p_dot = Ve.tail<3>() + Ve.head<3>().cross(p);
  for (int l = ee; l >= 0; l = chain.parent[size_t(l)])
    for (int d = chain.v_index[size_t(l)]; d < chain.v_index[size_t(l)] + chain.joint_dofs[size_t(l)]; ++d) {
      const Vec6& s = data.joint_screw[size_t(d)];
      const Vec6 s_dot = cross_motion(V[size_t(l)], s);
      Jd.col(d).head<3>() = s_dot.tail<3>() + s_dot.head<3>().cross(p) + s.head<3>().cross(p_dot);
      Jd.col(d).tail<3>() = s_dot.head<3>();
    }
  return Jd;
}

namespace {
/// S_a S_b ... T for the indices in the order given.
Mat4 ordered_product(const ChainData& data, int k, const std::vector<int>& order) {
  Mat4 A = data.transform[static_cast<size_t>(k)];
  for (auto it = order.rbegin(); it != order.rend(); ++it) A = data.joint_twist[static_cast<size_t>(*it)] * A;
  return A;
}
}  // namespace

Mat4 differential_matrix(const ChainData& data, int k, const std::vector<int>& joints) {
  std::vector<int> sorted = joints;
  std::sort(sorted.begin(), sorted.end());
  for (int d : sorted) {
    int l = k;
    const int owner = data.dof_link[size_t(d)];
    while (l > owner) l = data.parent[size_t(l)];
    if (l != owner) return Mat4::Zero();  // DOF d does not move link k
  }
  // DOFs on one path act in the order of the path [002 Eq. 71]; the DOFs of one free-flyer act
  // together, so their products are averaged over their orders.
  bool shared = false;
  for (size_t i = 1; i < sorted.size(); ++i)
    shared |= sorted[i] != sorted[i - 1] && data.dof_link[size_t(sorted[i])] == data.dof_link[size_t(sorted[i - 1])];
  if (!shared) return ordered_product(data, k, sorted);
  Mat4 sum = Mat4::Zero();
  int count = 0;
  std::vector<int> order = sorted;
  do {
    bool path_order = true;  // DOFs of different links stay in path order
    for (size_t i = 0; i < order.size(); ++i)
      for (size_t j = i + 1; j < order.size(); ++j)
        path_order &= data.dof_link[size_t(order[i])] <= data.dof_link[size_t(order[j])];
    if (path_order) sum += ordered_product(data, k, order), ++count;
  } while (std::next_permutation(order.begin(), order.end()));
  return sum / count;
}

Mat4 differential_matrix(const ChainData& data, int k, std::initializer_list<int> joints) {
  return differential_matrix(data, k, std::vector<int>(joints));
}

std::vector<std::vector<Mat4>> transform_time_derivatives(const Chain& chain, VectorIn q, const Eigen::MatrixXd& V,
                                                          int order) {
  // Binomial coefficients up to `order`.
  std::vector<std::vector<double>> C(static_cast<size_t>(order) + 1);
  for (int r = 0; r <= order; ++r) {
    C[size_t(r)].assign(size_t(r) + 1, 1.0);
    for (int m = 1; m < r; ++m) C[size_t(r)][size_t(m)] = C[size_t(r - 1)][size_t(m - 1)] + C[size_t(r - 1)][size_t(m)];
  }
  std::vector<std::vector<Mat4>> T(static_cast<size_t>(chain.links), std::vector<Mat4>(size_t(order) + 1));
  std::vector<Mat4> B(size_t(order) + 1), E(size_t(order) + 1), W(size_t(order), Mat4::Zero());
  const std::vector<Mat4> base = [&] {
    std::vector<Mat4> b(size_t(order) + 1, Mat4::Zero());
    b[0] = Mat4::Identity();
    return b;
  }();
  for (int k = 0; k < chain.links; ++k) {
    const ChainJoint& j = chain.joint(k);
    const int lambda = chain.parent[size_t(k)];
    const std::vector<Mat4>& parent = lambda < 0 ? base : T[size_t(lambda)];
    const Mat4 P = j.placement.matrix();
    // E' = E W with W = sum_d U_d v_d, the joint's twist in its own frame; W^(s) from v^(s).
    for (int s = 0; s < order; ++s) {
      W[size_t(s)].setZero();
      for (int d = chain.v_index[size_t(k)]; d < chain.v_index[size_t(k)] + chain.joint_dofs[size_t(k)]; ++d) {
        const Vec6& u = chain.dof_subspace[size_t(d)];
        W[size_t(s)].topLeftCorner<3, 3>() += skew(u.head<3>()) * V(d, s);
        W[size_t(s)].topRightCorner<3, 1>() += u.tail<3>() * V(d, s);
      }
    }
    if (j.type == JointType::free_flyer)
      E[0] = free_flyer_motion(chain, q, k).matrix();
    else
      E[0] = joint_motion(j, q(chain.q_index[size_t(k)]));
    // E^(r+1) = sum_m C(r,m) E^(m) W^(r-m).
    for (int r = 0; r < order; ++r) {
      E[size_t(r) + 1].setZero();
      for (int m = 0; m <= r; ++m)
        E[size_t(r) + 1] += C[size_t(r)][size_t(m)] * (E[size_t(m)] * W[size_t(r) - size_t(m)]);
    }
    for (int r = 0; r <= order; ++r) B[size_t(r)] = parent[size_t(r)] * P;
    for (int r = 0; r <= order; ++r) {
      Mat4 sum = Mat4::Zero();
      for (int m = 0; m <= r; ++m) sum += C[size_t(r)][size_t(m)] * (B[size_t(m)] * E[size_t(r - m)]);
      T[size_t(k)][size_t(r)] = sum;
    }
  }
  return T;
}

std::vector<std::vector<Mat4>> transform_time_derivatives(const Chain& chain, const Eigen::MatrixXd& Q, int order) {
  return transform_time_derivatives(chain, Q.col(0), Q.rightCols(Q.cols() - 1), order);
}

// Free-flyer configurations -----------------------------------------------------------------

Pose free_flyer_motion(const Chain& chain, VectorIn q, int link) {
  const int i = chain.q_index[size_t(link)];
  Pose m;
  m.p = q.segment<3>(i);
  if (chain.spec.rotation_coordinates == RotationCoordinates::quaternion) {
    m.R = Eigen::Quaterniond(q(i + 6), q(i + 3), q(i + 4), q(i + 5)).normalized().toRotationMatrix();
  } else {
    const Vec3 r = q.segment<3>(i + 3);
    const double angle = r.norm();
    m.R = angle > 0 ? Mat3(Eigen::AngleAxisd(angle, r / angle).toRotationMatrix()) : Mat3(Mat3::Identity());
  }
  return m;
}

namespace {
/// J_r(r)^-1: body angular velocity to the rate of the rotation vector r.
Mat3 inverse_right_jacobian(const Vec3& r) {
  const double t = r.norm();
  const Mat3 K = skew(r);
  // 1/t^2 - (1 + cos t) / (2 t sin t), by its series near 0.
  const double c = t < 1e-4 ? 1.0 / 12 + t * t / 720 : 1.0 / (t * t) - (1 + std::cos(t)) / (2 * t * std::sin(t));
  return Mat3::Identity() + 0.5 * K + c * K * K;
}
Vec3 rotation_vector(const Mat3& R) {
  const Eigen::AngleAxisd aa(R);
  return aa.axis() * aa.angle();
}
}  // namespace

void configuration_rate(const Chain& chain, VectorIn q, VectorIn v, Eigen::Ref<Eigen::VectorXd> q_rate) {
  for (int k = 0; k < chain.links; ++k) {
    const int iq = chain.q_index[size_t(k)], iv = chain.v_index[size_t(k)];
    if (chain.joint(k).type != JointType::free_flyer) {
      q_rate(iq) = v(iv);
      continue;
    }
    const Pose m = free_flyer_motion(chain, q, k);
    const Vec3 w = v.segment<3>(iv + 3);
    q_rate.segment<3>(iq) = m.R * v.segment<3>(iv);
    if (chain.spec.rotation_coordinates == RotationCoordinates::quaternion) {
      // q' = 1/2 q (x) (0, omega), omega in the body's axes.
      const Eigen::Quaterniond Q(q(iq + 6), q(iq + 3), q(iq + 4), q(iq + 5));
      const Eigen::Quaterniond rate = Q * Eigen::Quaterniond(0.0, w.x(), w.y(), w.z());
      q_rate.segment<4>(iq + 3) << 0.5 * rate.x(), 0.5 * rate.y(), 0.5 * rate.z(), 0.5 * rate.w();
    } else {
      q_rate.segment<3>(iq + 3) = inverse_right_jacobian(q.segment<3>(iq + 3)) * w;
    }
  }
}

void integrate_configuration(const Chain& chain, VectorIn q, VectorIn v, Eigen::Ref<Eigen::VectorXd> q_out) {
  for (int k = 0; k < chain.links; ++k) {
    const int iq = chain.q_index[size_t(k)], iv = chain.v_index[size_t(k)];
    if (chain.joint(k).type != JointType::free_flyer) {
      q_out(iq) = q(iq) + v(iv);
      continue;
    }
    const Pose m = free_flyer_motion(chain, q, k);
    const Vec3 w = v.segment<3>(iv + 3);
    const double angle = w.norm();
    const Mat3 turn = angle > 0 ? Mat3(Eigen::AngleAxisd(angle, w / angle).toRotationMatrix()) : Mat3(Mat3::Identity());
    const Mat3 R = m.R * turn;
    q_out.segment<3>(iq) = m.p + m.R * v.segment<3>(iv);
    if (chain.spec.rotation_coordinates == RotationCoordinates::quaternion) {
      Eigen::Quaterniond Q(R);
      // Keep the sign of the input quaternion (q and -q are one rotation).
      const Eigen::Vector4d before = q.segment<4>(iq + 3);
      if (Q.coeffs().dot(before) < 0) Q.coeffs() *= -1.0;
      q_out.segment<4>(iq + 3) = Q.coeffs();  // x, y, z, w
    } else {
      q_out.segment<3>(iq + 3) = rotation_vector(R);
    }
  }
}

Eigen::VectorXd neutral_configuration(const Chain& chain) {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(chain.nq);
  if (chain.spec.rotation_coordinates == RotationCoordinates::quaternion)
    for (int k = 0; k < chain.links; ++k)
      if (chain.joint(k).type == JointType::free_flyer) q(chain.q_index[size_t(k)] + 6) = 1.0;
  return q;
}

}  // namespace linkdyn::spatial
