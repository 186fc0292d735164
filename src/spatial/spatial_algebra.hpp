#pragma once
// Spatial vectors [omega; v] (motion) and [n; f] (force) in link frames, after Featherstone.
// A link frame's pose X = (R, p) in its parent's frame carries motions from parent to child and
// forces from child to parent.
#include "linkdyn/spatial/chain.hpp"

namespace linkdyn::spatial::detail {

/// A 3-vector in three scalars, for the inner loops: under SSE2 Eigen spends more instructions
/// moving 3-vectors between packets than computing with them (callgrind: 46 % of RNEA's), while
/// plain scalars stay in registers.
struct V3 {
  double x, y, z;
};
[[nodiscard]] inline V3 operator+(const V3& a, const V3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
[[nodiscard]] inline V3 operator-(const V3& a, const V3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
[[nodiscard]] inline V3 operator*(double s, const V3& a) { return {s * a.x, s * a.y, s * a.z}; }
inline V3& operator+=(V3& a, const V3& b) { return a = a + b; }
[[nodiscard]] inline V3 cross(const V3& a, const V3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
[[nodiscard]] inline double dot(const V3& a, const V3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
[[nodiscard]] inline V3 load(const double* p) { return {p[0], p[1], p[2]}; }
inline void store(double* p, const V3& v) { p[0] = v.x, p[1] = v.y, p[2] = v.z; }
/// R v and R^T v for a column-major 3x3 (Eigen's Mat3).
[[nodiscard]] inline V3 times(const Mat3& R, const V3& v) {
  const double* r = R.data();
  return {r[0] * v.x + r[3] * v.y + r[6] * v.z, r[1] * v.x + r[4] * v.y + r[7] * v.z,
          r[2] * v.x + r[5] * v.y + r[8] * v.z};
}
[[nodiscard]] inline V3 transpose_times(const Mat3& R, const V3& v) {
  const double* r = R.data();
  return {r[0] * v.x + r[1] * v.y + r[2] * v.z, r[3] * v.x + r[4] * v.y + r[5] * v.z,
          r[6] * v.x + r[7] * v.y + r[8] * v.z};
}

[[nodiscard]] inline Vec6 motion_to_child(const Pose& X, const Vec6& m) {
  Vec6 r;
  r.head<3>() = X.R.transpose() * m.head<3>();
  r.tail<3>() = X.R.transpose() * (m.tail<3>() + m.head<3>().cross(X.p));
  return r;
}

[[nodiscard]] inline Vec6 force_to_parent(const Pose& X, const Vec6& f) {
  Vec6 r;
  r.tail<3>() = X.R * f.tail<3>();
  r.head<3>() = X.R * f.head<3>() + X.p.cross(r.tail<3>());
  return r;
}

/// v x m for motions.
[[nodiscard]] inline Vec6 cross_motion(const Vec6& v, const Vec6& m) {
  Vec6 r;
  r.head<3>() = v.head<3>().cross(m.head<3>());
  r.tail<3>() = v.head<3>().cross(m.tail<3>()) + v.tail<3>().cross(m.head<3>());
  return r;
}

/// v x* f for forces.
[[nodiscard]] inline Vec6 cross_force(const Vec6& v, const Vec6& f) {
  Vec6 r;
  r.head<3>() = v.head<3>().cross(f.head<3>()) + v.tail<3>().cross(f.tail<3>());
  r.tail<3>() = v.head<3>().cross(f.tail<3>());
  return r;
}

/// A rigid-body spatial inertia (mass, first moment m c, inertia about the origin) times a
/// motion: [I_O w + mc x v; m v - mc x w].
[[nodiscard]] inline Vec6 inertia_times(double mass, const Vec3& mc, const Mat3& inertia_origin, const Vec6& m) {
  Vec6 r;
  r.head<3>() = inertia_origin * m.head<3>() + mc.cross(m.tail<3>());
  r.tail<3>() = mass * m.tail<3>() - mc.cross(m.head<3>());
  return r;
}
[[nodiscard]] inline Vec6 inertia_times(const Chain& c, int i, const Vec6& m) {
  const auto k = static_cast<size_t>(i);
  return inertia_times(c.mass[k], c.first_moment[k], c.inertia_origin[k], m);
}

/// A symmetric 6x6 inertia [A B; B^T C] (force [n; f] = [A w + B v; B^T w + C v]) given in a
/// child frame at pose X, re-expressed in the parent frame about its origin and added to
/// `parent`: X^T I X in 3x3 blocks, C' = R C R^T, B' = R B R^T + [p x] C', A' = R A R^T - R B R^T
/// [p x] + [p x] B'^T (Featherstone, RBDA Sect. 2.8; a third of the flops of the 6x6 product).
inline void add_inertia_to_parent(const Pose& X, const Mat6& I, Mat6& parent) {
  const Mat3& R = X.R;
  const Mat3 RA = R * I.topLeftCorner<3, 3>(), RB = R * I.topRightCorner<3, 3>(), RC = R * I.bottomRightCorner<3, 3>();
  const Mat3 A = RA * R.transpose(), B = RB * R.transpose(), C = RC * R.transpose();
  Mat3 Bp, pBt;
  for (int c = 0; c < 3; ++c) Bp.col(c) = B.col(c) + X.p.cross(C.col(c));     // B + [p x] C
  for (int c = 0; c < 3; ++c) pBt.col(c) = X.p.cross(Bp.row(c).transpose());  // [p x] B'^T
  Mat3 Bpx;                                                                   // B [p x]
  for (int r = 0; r < 3; ++r) Bpx.row(r) = -X.p.cross(B.row(r).transpose()).transpose();
  parent.topLeftCorner<3, 3>() += A - Bpx + pBt;
  parent.topRightCorner<3, 3>() += Bp;
  parent.bottomLeftCorner<3, 3>() += Bp.transpose();
  parent.bottomRightCorner<3, 3>() += C;
}

}  // namespace linkdyn::spatial::detail
