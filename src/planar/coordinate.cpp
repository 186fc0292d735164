// Coordinates of the motion that loads follow: value, rate and acceleration.
#include "linkdyn/planar/coordinate.hpp"

#include "linkdyn/planar/friction.hpp"
#include "linkdyn/planar/kinetostatics.hpp"

namespace linkdyn::planar {

CoordinateValue coordinate_value(const Mechanism& m, const Workspace& ws, double t, const Coordinate& c,
                                 bool accelerations) {
  CoordinateValue out;
  switch (c.kind) {
    case Coordinate::time: out = {t, 1.0, 0.0}; break;
    case Coordinate::driver: out = {ws.q[c.index], ws.qd[c.index], ws.qdd[c.index]}; break;
    case Coordinate::body_angle: {
      const BodyState& b = ws.body[c.index];
      out = {b.theta, b.omega, b.alpha};
      break;
    }
    case Coordinate::point_x:
    case Coordinate::point_y: {
      const BodyState& b = ws.body[c.point[0].body];
      const int axis = c.kind == Coordinate::point_x ? 0 : 1;
      const Vec2& local = c.point[0].local;
      out.value = b.position(local)(axis);
      out.rate = b.velocity(local)(axis);
      if (accelerations) out.acceleration = b.acceleration(local)(axis);
      break;
    }
    case Coordinate::pair_displacement: {
      // d = u . (P_slider - P_guide); its rate is the sliding speed (the slider point stays on the
      // guide line, so the turning guide adds nothing along it).
      const Joint& j = m.joints()[c.index];
      const BodyState &g = ws.body[j.body[0]], &s = ws.body[j.body[1]];
      const Vec2 u = g.arm(j.guide_dir);
      out.value = u.dot(s.position(j.point[1]) - g.position(j.point[0]));
      Vec2 point;
      out.rate = sliding_speed(j, ws, point);
      if (accelerations) {
        Bearing pair;
        pair.kind = Bearing::prismatic, pair.joint = c.index;
        pair.body[0] = j.body[0], pair.body[1] = j.body[1];
        out.acceleration = bearing_acceleration(m, ws, pair);
      }
      break;
    }
    case Coordinate::pair_angle: {
      const Joint& j = m.joints()[c.index];
      const BodyState &a = ws.body[j.body[0]], &b = ws.body[j.body[1]];
      out = {b.theta - a.theta, b.omega - a.omega, b.alpha - a.alpha};
      break;
    }
    case Coordinate::distance: {
      // L = |d|, L' = e . d', L'' = e . d'' + (|d'|^2 - (e . d')^2) / L, d = P1 - P0.
      const BodyState &a = ws.body[c.point[0].body], &b = ws.body[c.point[1].body];
      const Vec2 d = b.position(c.point[1].local) - a.position(c.point[0].local);
      const Vec2 dv = b.velocity(c.point[1].local) - a.velocity(c.point[0].local);
      out.value = d.norm();
      if (out.value == 0.0) break;  // coincident points: no direction
      const Vec2 e = d / out.value;
      out.rate = e.dot(dv);
      if (accelerations) {
        const Vec2 da = b.acceleration(c.point[1].local) - a.acceleration(c.point[0].local);
        out.acceleration = e.dot(da) + (dv.squaredNorm() - out.rate * out.rate) / out.value;
      }
      break;
    }
  }
  return out;
}

}  // namespace linkdyn::planar
