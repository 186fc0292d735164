#pragma once
// Small planar geometry shared by the group solvers.
#include <Eigen/Core>
#include <array>
#include <cmath>

namespace linkdyn {

using Vec2 = Eigen::Vector2d;

/// k x v: the vector v turned by +90 degrees.
[[nodiscard]] inline Vec2 perp(const Vec2& v) { return {-v.y(), v.x()}; }
/// z component of a x b.
[[nodiscard]] inline double cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }
/// v rotated by the angle whose cosine and sine are c, s.
[[nodiscard]] inline Vec2 rotate(const Vec2& v, double c, double s) {
  return {c * v.x() - s * v.y(), s * v.x() + c * v.y()};
}
[[nodiscard]] inline Vec2 rotate(const Vec2& v, double angle) { return rotate(v, std::cos(angle), std::sin(angle)); }
[[nodiscard]] inline double heading(const Vec2& v) { return std::atan2(v.y(), v.x()); }

// A rotation is kept as the unit vector (cos, sin): composing and applying it needs no trig.
[[nodiscard]] inline Vec2 rotation_of(double angle) { return {std::cos(angle), std::sin(angle)}; }
[[nodiscard]] inline Vec2 rotate(const Vec2& v, const Vec2& rotation) { return rotate(v, rotation.x(), rotation.y()); }
/// The rotation by the sum of the two angles.
[[nodiscard]] inline Vec2 compose(const Vec2& a, const Vec2& b) {
  return {a.x() * b.x() - a.y() * b.y(), a.x() * b.y() + a.y() * b.x()};
}
/// The rotation that turns the direction of `from` into that of `to`.
[[nodiscard]] inline Vec2 rotation_between(const Vec2& from, const Vec2& to) {
  const Vec2 r(from.dot(to), cross(from, to));
  return r / r.norm();
}
/// Angle wrapped to (-pi, pi].
[[nodiscard]] double wrap_angle(double angle);

/// A line through `point` along the unit vector `dir`.
struct Line {
  Vec2 point;
  Vec2 dir;
};

/// Up to two intersection points; `count` is 0 when the figures do not meet. `conditioning` is
/// the sine of the angle between the figures at the intersection (0 at tangency/parallel).
struct Intersection {
  int count = 0;
  std::array<Vec2, 2> points;
  double conditioning = 0.0;
};

/// Circles (c1, r1) and (c2, r2): points[0] lies to the left of c1->c2, points[1] to the right.
[[nodiscard]] Intersection intersect_circles(const Vec2& c1, double r1, const Vec2& c2, double r2);
/// Line and circle (c, r): points[0] has the larger line parameter.
[[nodiscard]] Intersection intersect_line_circle(const Line& line, const Vec2& c, double r);
/// Two lines: one point, or none when parallel.
[[nodiscard]] Intersection intersect_lines(const Line& a, const Line& b);

}  // namespace linkdyn
