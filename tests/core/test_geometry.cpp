#include <gtest/gtest.h>

#include <cmath>

#include "linkdyn/core/geometry.hpp"

using namespace linkdyn;

TEST(Geometry, CircleIntersectionsLieOnBothCirclesLeftFirst) {
  const Vec2 c1(0, 0), c2(5.5, 0);
  const Intersection x = intersect_circles(c1, 3.0, c2, 4.0);
  ASSERT_EQ(x.count, 2);
  for (const Vec2& p : x.points) {
    EXPECT_NEAR((p - c1).norm(), 3.0, 1e-14);
    EXPECT_NEAR((p - c2).norm(), 4.0, 1e-14);
  }
  EXPECT_GT(cross(c2 - c1, x.points[0] - c1), 0.0);  // left of c1 -> c2
  EXPECT_EQ(intersect_circles(c1, 1.0, c2, 1.0).count, 0);
}

TEST(Geometry, TangentCirclesHaveZeroConditioning) {
  const Intersection x = intersect_circles({0, 0}, 2.0, {5, 0}, 3.0);
  ASSERT_EQ(x.count, 2);
  EXPECT_NEAR(x.conditioning, 0.0, 1e-7);
  EXPECT_NEAR((x.points[0] - Vec2(2, 0)).norm(), 0.0, 1e-7);
}

TEST(Geometry, LineCircleAndLineLine) {
  const Line l{{-5, 1}, {1, 0}};
  const Intersection x = intersect_line_circle(l, {0, 0}, 2.0);
  ASSERT_EQ(x.count, 2);
  EXPECT_NEAR(x.points[0].x(), std::sqrt(3.0), 1e-14);  // larger parameter first
  EXPECT_NEAR(x.points[1].x(), -std::sqrt(3.0), 1e-14);
  const Intersection y = intersect_lines(l, {{2, -3}, {0, 1}});
  ASSERT_EQ(y.count, 1);
  EXPECT_NEAR((y.points[0] - Vec2(2, 1)).norm(), 0.0, 1e-15);
  EXPECT_EQ(intersect_lines(l, {{0, 3}, {-1, 0}}).count, 0);
}

TEST(Geometry, LineCircleKeepsItsDigitsFarFromTheLinesPoint) {
  // A circle of 0.35 about (1e8, 0), the line y = 0.03 given by its point at the origin.
  const Intersection x = intersect_line_circle({{0.0, 0.03}, {1.0, 0.0}}, {1e8, 0.0}, 0.35);
  ASSERT_EQ(x.count, 2);
  const double half_chord = std::sqrt(0.35 * 0.35 - 0.03 * 0.03);
  EXPECT_NEAR(x.points[0].x(), 1e8 + half_chord, 3e-8);
  EXPECT_NEAR(x.points[1].x(), 1e8 - half_chord, 3e-8);
  EXPECT_NEAR(x.conditioning, half_chord / 0.35, 1e-7);
}

TEST(Geometry, WrapAngle) {
  EXPECT_NEAR(wrap_angle(3 * M_PI), M_PI, 1e-15);
  EXPECT_NEAR(wrap_angle(-M_PI), M_PI, 1e-15);
  EXPECT_NEAR(wrap_angle(0.5 - 4 * M_PI), 0.5, 1e-14);
}
