// Coordinates of the motion that loads follow: value, rate and acceleration.
#include "linkdyn/planar/coordinate.hpp"

#include "linkdyn/planar/kinetostatics.hpp"

namespace linkdyn::planar {

namespace {

/// A point's global x (axis 0) or y (axis 1).
CoordinateValue point_axis(const Workspace& ws, const BodyPoint& p, int axis, bool accelerations) {
  const BodyState& b = ws.body[p.body];
  CoordinateValue out;
  out.value = b.position(p.local)(axis);
  out.rate = b.velocity(p.local)(axis);
  if (accelerations) out.acceleration = b.acceleration(p.local)(axis);
  return out;
}

}  // namespace

CoordinateValue coordinate_value(const Mechanism& m, const Workspace& ws, double t, const Coordinate& c,
                                 bool accelerations) {
  using C = Coordinate;
  return std::visit(overloaded{
                        [&](const C::Time&) {
                          return CoordinateValue{t, 1.0, 0.0};
                        },
                        [&](const C::DriverValue& d) {
                          return CoordinateValue{ws.q[d.driver], ws.qd[d.driver], ws.qdd[d.driver]};
                        },
                        [&](const C::BodyAngle& a) {
                          const BodyState& b = ws.body[a.body];
                          return CoordinateValue{b.theta, b.omega, b.alpha};
                        },
                        [&](const C::PointX& p) { return point_axis(ws, p.point, 0, accelerations); },
                        [&](const C::PointY& p) { return point_axis(ws, p.point, 1, accelerations); },
                        [&](const C::PairDisplacement& p) {
                          // d = u . (P_slider - P_guide); its rate is the sliding speed (the slider point stays
                          // on the guide line, so the turning guide adds nothing along it).
                          const Joint& j = m.joints()[p.joint];
                          const BodyState &g = ws.body[j.body[0]], &s = ws.body[j.body[1]];
                          const Vec2 u = g.arm(j.as<PrismaticPair>().guide_dir);
                          CoordinateValue out;
                          out.value = u.dot(s.position(j.point[1]) - g.position(j.point[0]));
                          out.rate = sliding_speed(j, ws);
                          if (accelerations) out.acceleration = sliding_acceleration(j, ws);
                          return out;
                        },
                        [&](const C::PairAngle& p) {
                          const Joint& j = m.joints()[p.joint];
                          const BodyState &a = ws.body[j.body[0]], &b = ws.body[j.body[1]];
                          return CoordinateValue{b.theta - a.theta, b.omega - a.omega, b.alpha - a.alpha};
                        },
                        [&](const C::Distance& d) {
                          // L = |d|, L' = e . d', L'' = e . d'' + (|d'|^2 - (e . d')^2) / L, d = P1 - P0.
                          const BodyPoint &p0 = d.between[0], &p1 = d.between[1];
                          const BodyState &a = ws.body[p0.body], &b = ws.body[p1.body];
                          const Vec2 r = b.position(p1.local) - a.position(p0.local);
                          const Vec2 dv = b.velocity(p1.local) - a.velocity(p0.local);
                          CoordinateValue out;
                          out.value = r.norm();
                          if (out.value == 0.0) return out;  // coincident points: no direction
                          const Vec2 e = r / out.value;
                          out.rate = e.dot(dv);
                          if (accelerations) {
                            const Vec2 da = b.acceleration(p1.local) - a.acceleration(p0.local);
                            out.acceleration = e.dot(da) + (dv.squaredNorm() - out.rate * out.rate) / out.value;
                          }
                          return out;
                        },
                    },
                    c.kind);
}

}  // namespace linkdyn::planar
