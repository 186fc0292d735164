#include <gtest/gtest.h>

#include <cmath>

#include "linkdyn/planar/motion_law.hpp"

using namespace linkdyn::planar;

namespace {
// Central differences of q and qd must match qd and qdd to the differences' own error.
void expect_consistent(const MotionLaw& law, double t, double h) {
  const MotionSample s = evaluate(law, t), a = evaluate(law, t + h), b = evaluate(law, t - h);
  EXPECT_NEAR((a.q - b.q) / (2 * h), s.qd, 1e-6 * (1 + std::abs(s.qd)));
  EXPECT_NEAR((a.qd - b.qd) / (2 * h), s.qdd, 1e-6 * (1 + std::abs(s.qdd)));
}
}  // namespace

TEST(MotionLaw, PolynomialDerivatives) {
  const PolynomialLaw p{{0.5, -1.0, 3.0, 0.25}, 2.0, 10};
  const MotionSample s = evaluate(p, 1.5);
  EXPECT_NEAR(s.q, 0.5 - 1.5 + 3 * 2.25 + 0.25 * 3.375, 1e-14);
  EXPECT_NEAR(s.qd, -1.0 + 6 * 1.5 + 0.75 * 2.25, 1e-14);
  EXPECT_NEAR(s.qdd, 6 + 1.5 * 1.5, 1e-14);
}

TEST(MotionLaw, HarmonicLawOf003) {
  // q = c1 + c2 t + c3 cos(c4 t + c5) [003 Sect. 2].
  const HarmonicLaw h{{0.0, 10.0, 0.5, 20.0, M_PI / 2}, 1.0, 10};  // q = 10 t - 0.5 sin(20 t)
  const MotionSample s0 = evaluate(h, 0.0);
  EXPECT_NEAR(s0.q, 0.0, 1e-15);
  EXPECT_NEAR(s0.qd, 0.0, 1e-13);
  expect_consistent(h, 0.37, 1e-4);
}

TEST(MotionLaw, SweepRunsAtItsSpeedTowardsTo) {
  const SweepLaw s{1.0, -1.0, 0.5, 100};
  EXPECT_DOUBLE_EQ(natural_grid(s).t_end, 4.0);
  EXPECT_DOUBLE_EQ(evaluate(s, 4.0).q, -1.0);
  EXPECT_DOUBLE_EQ(evaluate(s, 1.0).qd, -0.5);
}

TEST(MotionLaw, TableIsExactAtRowsAndForCubics) {
  // A cubic q(t) tabulated with exact qd and qdd: Hermite interpolation of q is exact.
  TableLaw t;
  for (int k = 0; k <= 4; ++k) {
    const double x = 0.25 * k;
    t.t.push_back(x);
    t.q.push_back(x * x * x - x);
    t.qd.push_back(3 * x * x - 1);
    t.qdd.push_back(6 * x);
  }
  const MotionSample at_row = evaluate(t, 0.5);
  EXPECT_DOUBLE_EQ(at_row.q, 0.125 - 0.5);
  const MotionSample mid = evaluate(t, 0.6);
  EXPECT_NEAR(mid.q, 0.216 - 0.6, 1e-14);
  EXPECT_NEAR(mid.qd, 3 * 0.36 - 1, 1e-14);  // qd is quadratic: exact too
  EXPECT_NEAR(mid.qdd, 3.6, 1e-14);          // qdd linear
  EXPECT_EQ(natural_grid(t).steps, 4);
}
