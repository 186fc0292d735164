#pragma once
// Rigid poses in space: rotation R (the frame's axes in the reference frame) and origin p.
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace linkdyn::spatial {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Mat4 = Eigen::Matrix4d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;

/// [v x]: the skew-symmetric matrix with [v x] w = v x w [002 Eq. 17].
[[nodiscard]] inline Mat3 skew(const Vec3& v) {
  Mat3 s;
  s << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return s;
}

/// Rotation about the unit axis `axis` by `angle` (Rodrigues, the matrix exponential of [k x] q).
[[nodiscard]] inline Mat3 axis_rotation(const Vec3& axis, double angle) {
  return Eigen::AngleAxisd(angle, axis).toRotationMatrix();
}

/// Roll-pitch-yaw as in URDF: R = Rz(yaw) Ry(pitch) Rx(roll).
[[nodiscard]] inline Mat3 rpy_rotation(const Vec3& rpy) {
  return (Eigen::AngleAxisd(rpy.z(), Vec3::UnitZ()) * Eigen::AngleAxisd(rpy.y(), Vec3::UnitY()) *
          Eigen::AngleAxisd(rpy.x(), Vec3::UnitX()))
      .toRotationMatrix();
}

struct Pose {
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();

  [[nodiscard]] static Pose identity() { return {}; }
  /// This pose followed by `b` (b given in this pose's frame).
  [[nodiscard]] Pose operator*(const Pose& b) const { return {R * b.R, p + R * b.p}; }
  [[nodiscard]] Pose inverse() const { return {R.transpose(), -(R.transpose() * p)}; }
  [[nodiscard]] Vec3 apply(const Vec3& x) const { return p + R * x; }
  /// The 4x4 homogeneous transformation [R p; 0 1] [002 Eq. 4].
  [[nodiscard]] Mat4 matrix() const {
    Mat4 T = Mat4::Identity();
    T.topLeftCorner<3, 3>() = R;
    T.topRightCorner<3, 1>() = p;
    return T;
  }
};

}  // namespace linkdyn::spatial
