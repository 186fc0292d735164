// The seed four-bar of [001] Table 1 (as read in issue 2) against a hand calculation.
#include <gtest/gtest.h>

#include <cmath>

#include "linkdyn/planar/sweep.hpp"
#include "test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::planar;

namespace {
// Hand calculation: B = 2 (cos q, sin q); d = |D - B| with D = (5.5, 0); the coupler angle is
// the direction of B->D plus the angle gamma at B of triangle B-C-D (law of cosines:
// cos gamma = (6^2 + d^2 - 3^2) / (2 * 6 * d)), C above BD; the rocker angle is that of D->C.
// q = 0:   d = 3.5, cos gamma = 39.25 / 42, coupler 20.848651 deg, rocker 45.381658 deg
// q = 180: d = 7.5, cos gamma = 83.25 / 90, coupler 22.331645 deg, rocker 130.541602 deg
struct Angles {
  double coupler, rocker;
};
Angles hand_calculation(double q) {
  const double bx = 2 * std::cos(q), by = 2 * std::sin(q);
  const double dx = 5.5 - bx, dy = -by, d = std::hypot(dx, dy);
  const double coupler = std::atan2(dy, dx) + std::acos((36 + d * d - 9) / (12 * d));
  const double cx = bx + 6 * std::cos(coupler), cy = by + 6 * std::sin(coupler);
  return {coupler, std::atan2(cy, cx - 5.5)};
}
}  // namespace

TEST(SeedFourBar, CouplerAndRockerAnglesAtTheQuarterTurns) {
  const Mechanism m = io::load_mechanism(test::example("seed001-fourbar"));
  const Table table = io::kinematics_table(m, kinematics(m, m.default_grid()));
  ASSERT_EQ(table.rows(), 361u);
  const int crank = table.column("crank.angle"), coupler = table.column("coupler.angle"),
            rocker = table.column("rocker.angle");
  const double literal[4][2] = {{20.84865123018446, 45.38165834715364},
                                {9.306647176079602, 81.93244484935258},
                                {22.3316450092215, 130.54160187350453},
                                {49.27286021987956, 121.89865789315253}};
  for (int quarter = 0; quarter < 4; ++quarter) {
    const size_t row = 90 * quarter;
    const double q = table.at(row, crank);
    EXPECT_NEAR(q, quarter * M_PI / 2, 1e-12);
    const Angles hand = hand_calculation(q);
    EXPECT_NEAR(table.at(row, coupler), hand.coupler, 1e-12);
    EXPECT_NEAR(table.at(row, rocker), hand.rocker, 1e-12);
    EXPECT_NEAR(table.at(row, coupler) * 180 / M_PI, literal[quarter][0], 1e-9);
    EXPECT_NEAR(table.at(row, rocker) * 180 / M_PI, literal[quarter][1], 1e-9);
  }
}

TEST(SeedFourBar, VelocitiesAtTheStartByInstantCentres) {
  // At q = 0 the crank pin B = (2, 0) moves straight up at 20 m/s. The coupler and rocker
  // rates follow by hand from v_B + w2 k x (C - B) = w3 k x (C - D), two equations solved by
  // Cramer's rule.
  const Mechanism m = io::load_mechanism(test::example("seed001-fourbar"));
  Workspace ws(m);
  set_drivers(m, ws, 0.0);
  ASSERT_TRUE(solve_kinematics(m, ws).ok());
  const Vec2 B(2, 0), D(5.5, 0);
  const Vec2 C = ws.body[3].position({3, 0});
  const Vec2 vB(0, 20);
  // [a, -b] (w2, w3) = -v_B with a = k x (C - B), b = k x (C - D).
  const Vec2 a = perp(C - B), b = perp(C - D);
  const double det = -a.x() * b.y() + a.y() * b.x();
  const double w2 = (vB.x() * b.y() - vB.y() * b.x()) / det;
  const double w3 = (a.y() * vB.x() - a.x() * vB.y()) / det;
  EXPECT_NEAR(ws.body[2].omega, w2, 1e-12);
  EXPECT_NEAR(ws.body[3].omega, w3, 1e-12);
}

TEST(KinematicsResult, EveryTrackedPointIsItsBodysPoseAppliedToItsLocalCoordinates) {
  // Two routes to one point: the sweep records each point from the solved workspace and each
  // body's pose (origin, angle); r0 + R(theta) p must give the point on every example and row.
  // The seed four-bar's crank turns about its ground pivot at the driver's angle.
  for (const auto& c : test::example_cases()) {
    SCOPED_TRACE(c.name);
    const Mechanism m = io::load_mechanism(test::example(c.name));
    const KinematicsResult r = kinematics(m, m.default_grid());
    ASSERT_GT(r.rows(), 0);
    ASSERT_EQ(static_cast<size_t>(r.rows()), r.status.size());
    for (size_t k = 0; k < r.points.size(); ++k) {
      const TrackedPoint& p = r.points[k];
      const auto b = static_cast<Eigen::Index>(p.body - 1), col = static_cast<Eigen::Index>(k);
      for (Eigen::Index row = 0; row < r.rows(); ++row) {
        const Vec2 at = Vec2(r.x0(row, b), r.y0(row, b)) + rotate(p.local, r.angle(row, b));
        const double scale = 1.0 + at.norm();
        EXPECT_NEAR(r.x(row, col), at.x(), 1e-12 * scale) << p.label << " row " << row;
        EXPECT_NEAR(r.y(row, col), at.y(), 1e-12 * scale) << p.label << " row " << row;
      }
    }
  }
  const Mechanism m = io::load_mechanism(test::example("seed001-fourbar"));
  const KinematicsResult r = kinematics(m, m.default_grid());
  const auto crank = static_cast<Eigen::Index>(m.spec().find_body("crank") - 1);
  EXPECT_LT((r.angle.col(crank) - r.q.col(0)).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT(r.x0.col(crank).cwiseAbs().maxCoeff() + r.y0.col(crank).cwiseAbs().maxCoeff(), 1e-12);
}
