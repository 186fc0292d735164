#include "linkdyn/core/geometry.hpp"

#include <algorithm>

namespace linkdyn {

double wrap_angle(double angle) {
  const double two_pi = 2.0 * M_PI;
  double a = std::remainder(angle, two_pi);
  if (a <= -M_PI) a += two_pi;
  return a;
}

Intersection intersect_circles(const Vec2& c1, double r1, const Vec2& c2, double r2) {
  Intersection out;
  const Vec2 d = c2 - c1;
  const double dist2 = d.squaredNorm();
  const double dist = std::sqrt(dist2);
  if (dist == 0.0) return out;
  // Distance from c1 to the chord along c1->c2, and half chord length (law of cosines).
  const double along = (dist2 + r1 * r1 - r2 * r2) / (2.0 * dist);
  const double h2 = r1 * r1 - along * along;
  if (h2 < 0.0) {
    // Tolerate round-off at exact tangency only.
    if (h2 < -1e-13 * r1 * r1) return out;
  }
  const double h = std::sqrt(std::max(h2, 0.0));
  const Vec2 e = d / dist;
  const Vec2 base = c1 + along * e;
  out.count = 2;
  out.points[0] = base + h * perp(e);
  out.points[1] = base - h * perp(e);
  out.conditioning = (r1 > 0.0 && r2 > 0.0) ? h * dist / (r1 * r2) : 0.0;  // sin of angle at point
  return out;
}

Intersection intersect_line_circle(const Line& line, const Vec2& c, double r) {
  Intersection out;
  const Vec2 w = line.point - c;
  const double b = line.dir.dot(w);
  // r^2 minus the squared distance from c to the line: no cancellation of |w|^2 when the line's
  // point is far from c (b^2 - |w|^2 + r^2 loses every digit at 1e8 m).
  const double h = cross(line.dir, w);
  const double disc = r * r - h * h;
  if (disc < 0.0 && disc < -1e-13 * r * r) return out;
  const double root = std::sqrt(std::max(disc, 0.0));
  out.count = 2;
  out.points[0] = line.point + (-b + root) * line.dir;
  out.points[1] = line.point + (-b - root) * line.dir;
  out.conditioning = r > 0.0 ? root / r : 0.0;  // sin of angle between radius and line normal
  return out;
}

Intersection intersect_lines(const Line& a, const Line& b) {
  Intersection out;
  const double denom = cross(a.dir, b.dir);
  out.conditioning = std::abs(denom);
  if (denom == 0.0) return out;
  const double t = cross(b.point - a.point, b.dir) / denom;
  out.count = 1;
  out.points[0] = a.point + t * a.dir;
  return out;
}

}  // namespace linkdyn
