// The design numbers against closed forms: a crank-rocker's swing and time ratio from its four
// lengths, a slider-crank's stroke, an offset slider-crank's time ratio, the Grashof types.
#include <gtest/gtest.h>

#include <cmath>

#include "linkdyn/io/model_file.hpp"
#include "linkdyn/planar/design_numbers.hpp"
#include "test_support.hpp"

using namespace linkdyn;
using planar::OutputTravel;

namespace {

const OutputTravel& output(const planar::DesignNumbers& d, const std::string& name) {
  for (const OutputTravel& o : d.outputs)
    if (o.name == name) return o;
  ADD_FAILURE() << "no output " << name;
  static const OutputTravel none;
  return none;
}

/// The crank angle of the slower stroke over the faster's, from the crank angles of the two
/// limit positions.
double time_ratio(double crank_at_one_limit, double crank_at_other) {
  const double forward = std::fmod(std::abs(crank_at_other - crank_at_one_limit), 2.0 * M_PI);
  return std::max(forward, 2.0 * M_PI - forward) / std::min(forward, 2.0 * M_PI - forward);
}

}  // namespace

TEST(DesignNumbers, CrankRockersSwingAndTimeRatioAreThoseOfItsFourLengths) {
  // [001]'s four-bar: crank a = 2, coupler b = 6, rocker c = 3, frame d = 5.5 (m). The rocker's
  // limit positions are where crank and coupler are collinear, extended (A C = b + a) and folded
  // (A C = b - a): in triangle A D C the rocker's angle at D and the crank's at A.
  const planar::Mechanism m = io::load_mechanism(test::example("seed001-fourbar"));
  const planar::DesignNumbers d = planar::design_numbers(m, m.default_grid());
  const double a = 2, b = 6, c = 3, f = 5.5;
  auto rocker_angle = [&](double ac) { return M_PI - std::acos((f * f + c * c - ac * ac) / (2 * f * c)); };
  auto crank_angle = [&](double ac) { return std::acos((f * f + ac * ac - c * c) / (2 * f * ac)); };
  const double swing = rocker_angle(b - a) - rocker_angle(b + a);  // folded above extended
  const double extended = crank_angle(b + a), folded = M_PI + crank_angle(b - a);
  const OutputTravel& rocker = output(d, "rocker");
  std::printf("crank-rocker: swing %.12f deg (closed form %.12f), time ratio %.12f (%.12f)\n",
              rocker.travel * 180 / M_PI, swing * 180 / M_PI, rocker.time_ratio, time_ratio(extended, folded));
  EXPECT_EQ(rocker.kind, OutputTravel::Kind::swing);
  EXPECT_NEAR(rocker.travel, swing, 1e-10);
  EXPECT_NEAR(rocker.low, rocker_angle(b + a), 1e-10);
  EXPECT_NEAR(rocker.q_low, extended, 1e-8);  // the root of the rocker's rate, a double root of its angle
  EXPECT_NEAR(rocker.q_high, folded, 1e-8);
  EXPECT_NEAR(rocker.time_ratio, time_ratio(extended, folded), 1e-8);
  ASSERT_EQ(d.four_bars.size(), 1u);
  EXPECT_EQ(d.four_bars[0].type, "crank-rocker");
  EXPECT_TRUE(d.four_bars[0].grashof);
  EXPECT_NEAR(d.four_bars[0].lengths[0], f, 1e-12);
  EXPECT_NEAR(d.four_bars[0].lengths[1], a, 1e-12);
  // The crank's pin B: a circle of radius a, a stroke of 2 a whatever the direction.
  EXPECT_NEAR(output(d, "B").travel, 2 * a, 1e-12);
  ASSERT_EQ(d.transmission.size(), 1u);
  EXPECT_LT(d.transmission[0].min, d.transmission[0].max);
  // The smallest transmission angle of a crank-rocker is at crank 0 (B nearest D), a grid row:
  // cos(mu) = (b^2 + c^2 - (d - a)^2) / (2 b c).
  EXPECT_NEAR(d.transmission[0].min, std::acos((b * b + c * c - (f - a) * (f - a)) / (2 * b * c)), 1e-12);
  EXPECT_NEAR(std::remainder(d.transmission[0].q_at_min, 2 * M_PI), 0.0, 1e-12);
}

TEST(DesignNumbers, OffsetSliderCranksStrokeAndTimeRatioAreThoseOfItsGeometry) {
  // Crank r = 0.1, rod l = 0.35, guide e = 0.03 above the crank's pivot: the piston's limits are
  // at x = sqrt((l +- r)^2 - e^2), the crank along the rod (extended) or against it (folded).
  const planar::Mechanism m = io::load_mechanism(test::example("offset-slider-crank"));
  const planar::DesignNumbers d = planar::design_numbers(m, m.default_grid());
  const double r = 0.1, l = 0.35, e = 0.03;
  const double far = std::sqrt((l + r) * (l + r) - e * e), near = std::sqrt((l - r) * (l - r) - e * e);
  const double extended = std::atan2(e, far), folded = M_PI + std::atan2(e, near);
  const OutputTravel& piston = output(d, "piston");
  std::printf("offset slider-crank: stroke %.15f m (closed form %.15f), time ratio %.12f (%.12f)\n", piston.travel,
              far - near, piston.time_ratio, time_ratio(extended, folded));
  EXPECT_EQ(piston.kind, OutputTravel::Kind::stroke);
  EXPECT_NEAR(piston.direction.x(), 1.0, 1e-15);
  EXPECT_NEAR(piston.travel, far - near, 1e-12);
  EXPECT_NEAR(piston.high, far, 1e-12);
  EXPECT_NEAR(piston.low, near, 1e-12);
  EXPECT_NEAR(piston.time_ratio, time_ratio(extended, folded), 1e-8);
  EXPECT_GT(piston.time_ratio, 1.03);  // the offset makes a quick return
  EXPECT_TRUE(d.four_bars.empty());
}

TEST(DesignNumbers, CentredSliderCranksStrokeIsTwiceTheCrankWithATimeRatioOfOne) {
  // The Scotch yoke: a crank of 0.1 m drives the yoke along x, x = r cos(theta).
  const planar::Mechanism m = io::load_mechanism(test::example("scotch-yoke"));
  const planar::DesignNumbers d = planar::design_numbers(m, m.default_grid());
  const OutputTravel& yoke = output(d, "yoke");
  EXPECT_NEAR(yoke.travel, 0.2, 1e-12);
  EXPECT_NEAR(yoke.time_ratio, 1.0, 1e-9);
}

TEST(DesignNumbers, GrashofTypeFollowsTheShortestLink) {
  bool grashof = false;
  // (ground, input, coupler, output)
  EXPECT_EQ(planar::grashof_type({5.5, 2, 6, 3}, grashof), "crank-rocker");
  EXPECT_TRUE(grashof);
  EXPECT_EQ(planar::grashof_type({1, 3, 3.5, 4}, grashof), "double-crank");
  EXPECT_EQ(planar::grashof_type({4, 3.5, 1, 3}, grashof), "double-rocker");
  EXPECT_EQ(planar::grashof_type({5.5, 3, 6, 2}, grashof), "rocker-crank");
  EXPECT_EQ(planar::grashof_type({4, 2.5, 2, 3}, grashof), "triple-rocker");
  EXPECT_FALSE(grashof);
  EXPECT_EQ(planar::grashof_type({4, 2, 4, 2}, grashof), "change-point");  // a parallelogram
  EXPECT_TRUE(grashof);
}

TEST(DesignNumbers, ABodyThatTurnsWithTheCrankRevolvesAndHasNoSwing) {
  // The parallelogram chain's cranks all turn with the driver.
  const planar::Mechanism m = io::load_mechanism(test::example("parallelogram-chain"));
  const planar::DesignNumbers d = planar::design_numbers(m, m.default_grid());
  int revolving = 0;
  for (const OutputTravel& o : d.outputs) revolving += o.revolves ? 1 : 0;
  EXPECT_GT(revolving, 0);
  for (const planar::FourBarLoop& f : d.four_bars) EXPECT_EQ(f.type, "change-point");
}
