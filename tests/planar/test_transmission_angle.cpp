// Transmission angles of every dyad type that has one, against closed forms of the input angle
// alone: RRR (law of cosines over the diagonal), RRP (the rod's slope over the guide), RPR (the
// slot's offset over the pivot-to-pin distance).
#include <gtest/gtest.h>

#include <cmath>

#include "linkdyn/io/model_file.hpp"
#include "linkdyn/planar/sweep.hpp"
#include "test_support.hpp"

using namespace linkdyn;

namespace {

/// The sweep's transmission angles (one group) and crank angles.
struct Sweep {
  Eigen::VectorXd crank, mu;
};
Sweep sweep(const planar::Mechanism& m) {
  const planar::KinematicsResult r = planar::kinematics(m, m.default_grid());
  EXPECT_EQ(r.transmission_groups.size(), 1u);
  return {r.q.col(0), r.transmission_angle.col(0)};
}
double acute(double angle) { return angle > M_PI / 2 ? M_PI - angle : angle; }

}  // namespace

TEST(TransmissionAngle, FourBarRRRIsTheCouplerRockerAngleByTheLawOfCosines) {
  // Seed four-bar: crank a = 2, coupler b = 6, rocker c = 3, frame d = 5.5 (m).
  const Sweep s = sweep(io::load_mechanism(test::example("seed001-fourbar")));
  const double a = 2, b = 6, c = 3, d = 5.5;
  for (Eigen::Index k = 0; k < s.crank.size(); ++k) {
    const double diagonal2 = a * a + d * d - 2 * a * d * std::cos(s.crank(k));
    EXPECT_NEAR(s.mu(k), acute(std::acos((b * b + c * c - diagonal2) / (2 * b * c))), 1e-12) << k;
  }
}

TEST(TransmissionAngle, OffsetSliderCrankRRPIsNinetyDegreesLessTheRodsSlope) {
  // Crank r = 0.1, rod l = 0.35, guide 0.03 above the crank's pivot: the rod's slope over the
  // guide is asin((r sin theta - e) / l).
  const Sweep s = sweep(io::load_mechanism(test::example("offset-slider-crank")));
  const double r = 0.1, l = 0.35, e = 0.03;
  for (Eigen::Index k = 0; k < s.crank.size(); ++k)
    EXPECT_NEAR(s.mu(k), M_PI / 2 - std::abs(std::asin((r * std::sin(s.crank(k)) - e) / l)), 1e-12) << k;
}

TEST(TransmissionAngle, InvertedSliderCrankRPRIsTheSlotsOffsetOverThePivotToPinDistance) {
  // The slot of the example runs through the rocker's pivot C: ideal transmission (90 deg) at
  // every position. Offset by e = 0.05 m it is acos(e / |B - C|), B the crank pin.
  const std::string text = test::read_text(test::example("inverted-slider-crank"));
  const planar::Mechanism through = planar::compile(io::parse_model(text, "inverted-slider-crank.yaml").mechanism);
  for (double mu : sweep(through).mu) EXPECT_NEAR(mu, M_PI / 2, 1e-12);

  std::string offset = text;
  const std::string points = "points: {C: [0, 0], E: [0.55, 0]}", guide = "guide: {point: C, direction: 0 deg}";
  ASSERT_NE(offset.find(points), std::string::npos);
  ASSERT_NE(offset.find(guide), std::string::npos);
  offset.replace(offset.find(points), points.size(), "points: {C: [0, 0], E: [0.55, 0], S: [0, 0.05]}");
  offset.replace(offset.find(guide), guide.size(), "guide: {point: S, direction: 0 deg}");
  const Sweep s = sweep(planar::compile(io::parse_model(offset, "offset-slot.yaml").mechanism));
  const Vec2 C(0, -0.3);
  for (Eigen::Index k = 0; k < s.crank.size(); ++k) {
    const Vec2 B = 0.12 * Vec2(std::cos(s.crank(k)), std::sin(s.crank(k)));
    EXPECT_NEAR(s.mu(k), std::acos(0.05 / (B - C).norm()), 1e-12) << k;
  }
}
