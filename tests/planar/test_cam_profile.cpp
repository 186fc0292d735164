// A disc cam's contact geometry against the closed forms of the cam literature and against
// the profile itself, differentiated numerically on the cam's frame.
#include <gtest/gtest.h>

#include <cmath>

#include "linkdyn/planar/cam_profile.hpp"

using namespace linkdyn;
using namespace linkdyn::planar;

namespace {

const double deg = M_PI / 180.0;

/// Rise 10 mm (or 10 deg) cycloidal over 120 deg, dwell 40 deg, return 3-4-5 over 140 deg,
/// dwell 60 deg.
CamProgram program(double lift) {
  CamProgram p;
  p.segments = {{CamCurve::cycloidal, 120 * deg, lift},
                {CamCurve::dwell, 40 * deg, 0.0},
                {CamCurve::polynomial_345, 140 * deg, -lift},
                {CamCurve::dwell, 60 * deg, 0.0}};
  return p;
}

/// A curve X(theta) on the cam's frame: its tangent and radius of curvature by central
/// differences (positive where convex: the cam turning counter-clockwise, the follower sees
/// its profile go by clockwise).
struct Numeric {
  Vec2 tangent;
  double radius;
};
template <class Curve>
Numeric differentiate(Curve&& X, double theta) {
  const double h = 1e-4;
  const Vec2 a = X(theta - h), b = X(theta), c = X(theta + h);
  const Vec2 d1 = (c - a) / (2 * h), d2 = (c - 2 * b + a) / (h * h);
  return {d1.normalized(), -std::pow(d1.norm(), 3) / (d1.x() * d2.y() - d1.y() * d2.x())};
}

/// The checks every follower must pass at theta: the normal is square to the profile's and the
/// pitch curve's tangents, and the radii are the numerical ones.
void expect_consistent(const CamFollower& f, const CamProgram& p, double theta, const std::string& what) {
  const CamContact c = cam_contact(f, p, theta);
  const Numeric profile = differentiate([&](double t) { return cam_contact(f, p, t).contact_in_cam; }, theta);
  const Vec2 normal_in_cam{std::cos(-theta) * c.normal.x() - std::sin(-theta) * c.normal.y(),
                           std::sin(-theta) * c.normal.x() + std::cos(-theta) * c.normal.y()};
  EXPECT_NEAR(profile.tangent.dot(normal_in_cam), 0.0, 1e-7) << what << " at " << theta / deg << " deg";
  EXPECT_NEAR(profile.radius, c.profile_curvature_radius, 1e-6 * std::abs(c.profile_curvature_radius) + 1e-9)
      << what << " at " << theta / deg << " deg";
  if (f.contact != CamFollower::Contact::flat_faced) {
    const Numeric pitch = differentiate([&](double t) { return cam_contact(f, p, t).pitch_in_cam; }, theta);
    EXPECT_NEAR(pitch.tangent.dot(normal_in_cam), 0.0, 1e-7) << what;
    EXPECT_NEAR(pitch.radius, c.pitch_curvature_radius, 1e-6 * std::abs(c.pitch_curvature_radius)) << what;
  }
}

}  // namespace

TEST(CamProfile, OffsetRollerFollowersPressureAngleAndPitchRadiusAreTheClosedForms) {
  // tan(phi) = (s' - e) / (s0 + s), s0 = sqrt(rp^2 - e^2); the pitch curve's radius
  // rho = ((s0 + s)^2 + (s' - e)^2)^(3/2) / ((s0 + s)^2 + (s' - e)(2 s' - e) - (s0 + s) s'')
  // (Uicker, Pennock and Shigley, Eqs. 6.27 and 6.30, for a counter-clockwise cam).
  CamFollower f;
  f.base_radius = 0.030, f.roller_radius = 0.008, f.offset = 0.006;
  const CamProgram p = program(0.010);
  const double rp = 0.038, s0 = std::sqrt(rp * rp - 0.006 * 0.006);
  for (double theta_deg = 0; theta_deg < 360; theta_deg += 7.5) {
    const double theta = theta_deg * deg;
    const FollowerMotion m = p.at(theta);
    const CamContact c = cam_contact(f, p, theta);
    const double y = s0 + m.s, x = m.ds - 0.006;
    EXPECT_NEAR(c.pressure_angle, std::atan(x / y), 1e-14) << theta_deg;
    const double rho = std::pow(y * y + x * x, 1.5) / (y * y + x * (2 * m.ds - 0.006) - y * m.d2s);
    EXPECT_NEAR(c.pitch_curvature_radius, rho, 1e-13) << theta_deg;
    EXPECT_NEAR((c.pitch - c.contact).norm(), 0.008, 1e-15);
    expect_consistent(f, p, theta + 3.75 * deg, "offset roller");  // between the knots (the jerk jumps there)
  }
  // At the start the roller sits on the base circle, its centre on the prime circle.
  EXPECT_NEAR(cam_contact(f, p, 0.0).contact.norm(), 0.030, 1e-15);
  EXPECT_EQ(cam_profile_problem(f, p, 0.5 * deg), "");
}

TEST(CamProfile, FlatFacedTranslatingFollowerTouchesAtSPrimeWithRadiusRbPlusSPlusS2) {
  // The contact lies s' from the follower's axis, the profile's radius is rb + s + s''
  // (Uicker, Pennock and Shigley, Eqs. 6.20-6.21), and the pressure angle is 0.
  CamFollower f;
  f.contact = CamFollower::Contact::flat_faced;
  f.base_radius = 0.030;
  const CamProgram p = program(0.010);
  for (double theta_deg = 0; theta_deg < 360; theta_deg += 7.5) {
    const double theta = theta_deg * deg;
    const FollowerMotion m = p.at(theta);
    const CamContact c = cam_contact(f, p, theta);
    EXPECT_NEAR(c.contact.x(), m.ds, 1e-16);
    EXPECT_NEAR(c.contact.y(), 0.030 + m.s, 1e-16);
    EXPECT_NEAR(c.profile_curvature_radius, 0.030 + m.s + m.d2s, 1e-15);
    EXPECT_EQ(c.pressure_angle, 0.0);
    expect_consistent(f, p, theta + 3.75 * deg, "flat translating");
  }
  EXPECT_EQ(cam_profile_problem(f, p, 0.5 * deg), "");
}

TEST(CamProfile, OscillatingFollowersProfilesAreTheEnvelopesOfTheirPaths) {
  // An oscillating roller and an oscillating flat face swinging 12 deg, left and right of the
  // line from the cam's centre to the pivot: the normal is square to
  // the numerically differentiated profile and pitch curve, the radii are theirs; the roller's
  // centre stays at the arm's length from the pivot, the face's contact on the face's line.
  const CamProgram p = program(12 * deg);
  for (int side : {1, -1}) {
    CamFollower roller;
    roller.motion = CamFollower::Motion::oscillating;
    roller.base_radius = 0.030, roller.roller_radius = 0.008, roller.pivot_distance = 0.080, roller.arm_length = 0.060;
    roller.arm_side = side;
    CamFollower face = roller;
    face.contact = CamFollower::Contact::flat_faced;
    EXPECT_GT(side * cam_contact(roller, p, 0.0).pitch.y(), 0.0);  // on its side of the line O-pivot
    for (double theta_deg = 0; theta_deg < 360; theta_deg += 7.5) {
      const double theta = theta_deg * deg;
      const CamContact r = cam_contact(roller, p, theta), fc = cam_contact(face, p, theta);
      EXPECT_NEAR((r.pitch - Vec2(0.080, 0.0)).norm(), 0.060, 1e-15);
      EXPECT_NEAR((fc.contact - Vec2(0.080, 0.0)).dot(fc.normal), 0.0, 1e-15);  // on the face's line
      expect_consistent(roller, p, theta + 3.75 * deg, "oscillating roller");
      expect_consistent(face, p, theta + 3.75 * deg, "oscillating face");
    }
    EXPECT_NEAR(cam_contact(roller, p, 0.0).pitch.norm(), 0.038, 1e-15);  // on the prime circle
    EXPECT_NEAR(cam_contact(face, p, 0.0).contact.norm(), 0.030, 1e-15);  // on the base circle
    EXPECT_EQ(cam_profile_problem(roller, p, 0.5 * deg), "");
    EXPECT_EQ(cam_profile_problem(face, p, 0.5 * deg), "");
    // The follower lifts away from the cam: its point's distance from O grows with s.
    EXPECT_GT(cam_contact(roller, p, 60 * deg).pitch.norm(), 0.038 + 1e-3);
  }
}

TEST(CamProfile, UndercutsCuspsAndUnreachableFollowersAreNamed) {
  // A 10 mm rise over 30 deg on a 15 mm base circle: the nose is sharper than a 12 mm roller,
  // and a flat face's envelope turns back.
  CamProgram steep;
  steep.segments = {{CamCurve::cycloidal, 30 * deg, 0.010},
                    {CamCurve::cycloidal, 30 * deg, -0.010},
                    {CamCurve::dwell, 300 * deg, 0.0}};
  CamFollower f;
  f.base_radius = 0.015, f.roller_radius = 0.012;
  EXPECT_NE(cam_profile_problem(f, steep, 0.25 * deg).find("the profile is undercut at cam angle"), std::string::npos)
      << cam_profile_problem(f, steep, 0.25 * deg);
  f.contact = CamFollower::Contact::flat_faced;
  EXPECT_NE(cam_profile_problem(f, steep, 0.25 * deg).find("the profile has a cusp at cam angle"), std::string::npos)
      << cam_profile_problem(f, steep, 0.25 * deg);
  CamFollower far;
  far.contact = CamFollower::Contact::roller;
  far.base_radius = 0.02, far.roller_radius = 0.005, far.offset = 0.03;
  EXPECT_NE(cam_profile_problem(far, steep, 1 * deg).find("does not reach the guide's line"), std::string::npos);
  far.motion = CamFollower::Motion::oscillating, far.pivot_distance = 0.2, far.arm_length = 0.05;
  EXPECT_NE(cam_profile_problem(far, steep, 1 * deg).find("cannot reach the prime circle"), std::string::npos);
}
