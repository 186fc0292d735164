// A disc cam's contact geometry from its follower's program (cam_profile.hpp). The cam turns by
// theta; a point P(theta) of the follower, fixed frame, is on the cam's frame at
// C = R(-theta) P, so C' = R(-theta) (P' - J P) and C'' = R(-theta) (P'' - 2 J P' - P), J the
// quarter turn: the pitch curve's tangent, normal and radius of curvature come from P, P', P''
// without turning anything (Uicker, Pennock and Shigley, Sect. 6.9). A flat face is a line
// n . X = h turning with the follower: the profile is its envelope on the cam, whose radius of
// curvature is h + d2h/dpsi2, psi the normal's angle on the cam (the support function).
#include "linkdyn/planar/cam_profile.hpp"

#include <fmt/format.h>

#include <cmath>

namespace linkdyn::planar {
namespace {

Vec2 turned(const Vec2& v, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  return {c * v.x() - s * v.y(), s * v.x() + c * v.y()};
}
/// The signed angle from direction w to direction n.
double angle_between(const Vec2& w, const Vec2& n) { return std::atan2(cross(w, n), w.dot(n)); }

/// An oscillating arm's angle at s = 0: the roller centre (or knife edge) on the prime circle,
/// above the line from O to the pivot; |cosine| > 1 when the arm cannot reach it.
double arm_cosine(const CamFollower& f) {
  const double d = f.pivot_distance, l = f.arm_length, r = f.prime_radius();
  return (r * r - d * d - l * l) / (2.0 * d * l);
}

/// A point follower (knife edge, roller): its point P and direction of travel w (unit, as s
/// grows), with P' and P''.
struct PointPath {
  Vec2 P, dP, d2P, w;
};
PointPath point_path(const CamFollower& f, const FollowerMotion& m) {
  if (f.motion == CamFollower::Motion::translating) {
    const double r = f.prime_radius(), s0 = std::sqrt(r * r - f.offset * f.offset);
    return {{f.offset, s0 + m.s}, {0.0, m.ds}, {0.0, m.d2s}, {0.0, 1.0}};
  }
  // The arm at beta = side (beta0 - s) from the pivot A = (d, 0): it swings away from the cam
  // as s grows (clockwise on the left side, counter-clockwise on the right).
  const double side = f.arm_side, l = f.arm_length, beta = side * (std::acos(arm_cosine(f)) - m.s);
  const Vec2 u{std::cos(beta), std::sin(beta)}, v = perp(u);
  const double rate = -side * m.ds, rate2 = -side * m.d2s;  // dbeta/dtheta, d2beta/dtheta2
  return {Vec2{f.pivot_distance, 0.0} + l * u, l * rate * v, l * rate2 * v - l * rate * rate * u, -side * v};
}

/// The pitch curve's tangent T and its rate U by theta, in the follower's frame:
/// C' = R(-theta) T, C'' = R(-theta) U.
struct PitchRates {
  Vec2 T, U;
};
PitchRates pitch_rates(const PointPath& p) { return {p.dP - perp(p.P), p.d2P - 2.0 * perp(p.dP) - p.P}; }

CamContact point_contact(const CamFollower& f, const FollowerMotion& m, double theta) {
  const PointPath p = point_path(f, m);
  const auto [T, U] = pitch_rates(p);
  CamContact c;
  c.pitch = p.P;
  c.normal = perp(T).normalized();  // outwards: the curve turns clockwise on the cam
  const double roller = f.contact == CamFollower::Contact::roller ? f.roller_radius : 0.0;
  c.contact = p.P - roller * c.normal;
  c.pressure_angle = angle_between(p.w, c.normal);
  c.pitch_curvature_radius = -std::pow(T.norm(), 3) / cross(T, U);
  c.profile_curvature_radius = c.pitch_curvature_radius - roller;
  c.pitch_in_cam = turned(c.pitch, -theta);
  c.contact_in_cam = turned(c.contact, -theta);
  return c;
}

CamContact face_contact(const CamFollower& f, const FollowerMotion& m, double theta) {
  // The face's normal n (away from the cam), its distance h from O, and the normal's angle on
  // the cam psi = angle(n) - theta, with their rates by theta.
  Vec2 n{0.0, 1.0};
  double h = f.base_radius + m.s, dh = m.ds, d2h = m.d2s, dpsi = -1.0, d2psi = 0.0;
  Vec2 pivot = Vec2::Zero(), w{0.0, 1.0};
  if (f.motion == CamFollower::Motion::oscillating) {
    // The face through the pivot A = (d, 0) along beta = side (beta0 - s), tangent to the base
    // circle at s = 0 (beta0 = -asin(rb / d)): n = side (-sin beta, cos beta), h = n . A.
    const double side = f.arm_side, d = f.pivot_distance;
    const double beta = side * (-std::asin(f.base_radius / d) - m.s);
    n = side * Vec2{-std::sin(beta), std::cos(beta)};
    h = -side * d * std::sin(beta);
    dh = d * std::cos(beta) * m.ds;
    d2h = d * (side * std::sin(beta) * m.ds * m.ds + std::cos(beta) * m.d2s);
    dpsi = -side * m.ds - 1.0, d2psi = -side * m.d2s;
    pivot = {d, 0.0};
  }
  const double dh_dpsi = dh / dpsi, d2h_dpsi2 = (d2h * dpsi - dh * d2psi) / (dpsi * dpsi * dpsi);
  CamContact c;
  c.normal = n;
  c.contact = h * n + dh_dpsi * perp(n);  // the envelope's point
  // The face point that touches moves about the pivot (clockwise as s grows), or along +y.
  if (f.motion == CamFollower::Motion::oscillating) w = -f.arm_side * perp(c.contact - pivot).normalized();
  c.pitch = f.motion == CamFollower::Motion::oscillating ? pivot : Vec2{f.offset, h};
  c.pressure_angle = angle_between(w, n);
  c.profile_curvature_radius = h + d2h_dpsi2;
  c.pitch_curvature_radius = c.profile_curvature_radius;
  c.pitch_in_cam = turned(c.pitch, -theta);
  c.contact_in_cam = turned(c.contact, -theta);
  return c;
}

}  // namespace

CamContact cam_contact(const CamFollower& f, const CamProgram& program, double theta) {
  const FollowerMotion m = program.at(theta);
  return f.contact == CamFollower::Contact::flat_faced ? face_contact(f, m, theta) : point_contact(f, m, theta);
}

PitchCurvePoint pitch_curve(const CamFollower& f, const CamProgram& program, double sigma, int piece) {
  const PointPath p = point_path(f, piece >= 0 ? program.at(sigma, piece) : program.at(sigma));
  const auto [T, U] = pitch_rates(p);
  return {turned(p.P, -sigma), turned(T, -sigma), turned(U, -sigma)};
}

std::string cam_profile_problem(const CamFollower& f, const CamProgram& program, double step) {
  const double deg = 180.0 / M_PI;
  if (!(f.base_radius > 0.0)) return "the base circle's radius must be positive";
  const bool flat = f.contact == CamFollower::Contact::flat_faced;
  if (f.motion == CamFollower::Motion::translating) {
    if (!flat && !(f.prime_radius() > std::abs(f.offset)))
      return fmt::format("the prime circle (radius {:g} m) does not reach the guide's line at offset {:g} m",
                         f.prime_radius(), f.offset);
  } else if (flat) {
    if (!(f.pivot_distance > f.base_radius))
      return fmt::format("the pivot ({:g} m from the cam's centre) lies within the base circle ({:g} m)",
                         f.pivot_distance, f.base_radius);
  } else if (!(f.pivot_distance > 0.0 && f.arm_length > 0.0) || !(std::abs(arm_cosine(f)) < 1.0)) {
    return fmt::format(
        "an arm of {:g} m from a pivot {:g} m from the cam's centre cannot reach the prime circle ({:g} m)",
        f.arm_length, f.pivot_distance, f.prime_radius());
  }
  const int samples = static_cast<int>(std::ceil(2.0 * M_PI / step));
  for (int k = 0; k < samples; ++k) {
    const double theta = 2.0 * M_PI * k / samples;
    const CamContact c = cam_contact(f, program, theta);
    const double rho = c.pitch_curvature_radius;
    if (!std::isfinite(rho) || !std::isfinite(c.pressure_angle))
      return fmt::format("the follower's path has a cusp at cam angle {:.6g} deg", theta * deg);
    if (flat && rho <= 0.0)
      return fmt::format(
          "the profile has a cusp at cam angle {:.6g} deg (the face's envelope turns back: radius {:.6g} m)",
          theta * deg, rho);
    if (f.contact == CamFollower::Contact::roller && rho > 0.0 && rho <= f.roller_radius)
      return fmt::format(
          "the profile is undercut at cam angle {:.6g} deg: the pitch curve's radius of curvature {:.6g} m is not "
          "above the roller's {:g} m",
          theta * deg, rho, f.roller_radius);
  }
  return {};
}

}  // namespace linkdyn::planar
