// Assembly modes: chosen by the model's hint, tracked along a sweep without jumps, and the
// limits of a non-Grashof four-bar found at the input angle a hand calculation gives.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "linkdyn/planar/sweep.hpp"
#include "test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::planar;

TEST(Branches, TrackedThroughAFullCrankRevolutionWithoutJumps) {
  for (const char* name : {"seed001-fourbar", "offset-slider-crank", "inverted-slider-crank",
                           "watt-sixbar", "class3-triad", "pump-2dof"}) {
    SCOPED_TRACE(name);
    const Mechanism m = io::load_mechanism(test::example(name));
    Workspace ws(m);
    std::vector<BodyState> first, previous;
    double worst_jump = 0.0;
    sweep_kinematics(m, ws, m.default_grid(), [&](int k, double, StepStatus s) {
      ASSERT_EQ(s, StepStatus::ok);
      if (k == 0) first = ws.body;
      else
        for (size_t b = 1; b < ws.body.size(); ++b)
          worst_jump = std::max(worst_jump, std::abs(ws.body[b].theta - previous[b].theta));
      previous = ws.body;
    });
    // One degree of crank per step: no body turns by more than a few degrees per step.
    EXPECT_LT(worst_jump, 6.0 * M_PI / 180.0);
    // After a full turn the mechanism is back where it started (same assembly mode), with the
    // crank one turn further.
    for (size_t b = 1; b < ws.body.size(); ++b) {
      EXPECT_NEAR(std::remainder(previous[b].theta - first[b].theta, 2 * M_PI), 0.0, 1e-9) << m.bodies()[b].name;
      EXPECT_NEAR((previous[b].r - first[b].r).norm(), 0.0, 1e-9) << m.bodies()[b].name;
    }
  }
}

TEST(Branches, HintSelectsEitherAssemblyMode) {
  const std::string seed = test::read_text(test::example("seed001-fourbar"));
  auto rocker_angle = [&](const std::string& hint) {
    std::string text = seed.substr(0, seed.find("assembly:")) + hint;
    const Mechanism m = compile(io::parse_planar_model(text, "hint.yaml"));
    Workspace ws(m);
    set_drivers(m, ws, 0.0);
    EXPECT_TRUE(solve_positions(m, ws).ok());
    return ws.body[3].theta;
  };
  // Closed forms: B = (2, 0), D = (5.5, 0); C is 3 from D, 6 from B; the two modes are mirror
  // images about the line BD (the x axis): rocker angle +-45.3817 deg.
  EXPECT_NEAR(rocker_angle("assembly:\n  C: {near: [5.0, 3.0]}\n") * 180 / M_PI, 45.38165834715364, 1e-9);
  EXPECT_NEAR(rocker_angle("assembly:\n  C: {near: [5.0, -3.0]}\n") * 180 / M_PI, -45.38165834715364, 1e-9);
  EXPECT_NEAR(rocker_angle("assembly:\n  C: {sign: -1}\n") * 180 / M_PI, -45.38165834715364, 1e-9);
}

TEST(Branches, NonGrashofFourBarLimitsAtTheHandCalculatedInputAngle) {
  // A = (0,0), D = (4,0), AB = 2.5, BC = 2, DC = 3: the dyad opens fully when |BD| = 5:
  // 2.5^2 + 4^2 - 2 * 2.5 * 4 cos(q) = 25, so q = acos(-0.1375) = 97.9032 deg, and again at
  // 360 deg - 97.9032 deg on the way back.
  const Mechanism m = io::load_mechanism(test::example("non-grashof-fourbar"));
  Workspace ws(m);
  const SweepSummary summary = sweep_kinematics(m, ws, m.default_grid(), [](int, double, StepStatus) {});
  const double limit = std::acos(-0.1375);
  ASSERT_EQ(summary.events.size(), 2u);
  EXPECT_EQ(summary.events[0].kind, SweepEvent::assembly_limit);
  EXPECT_NEAR(summary.events[0].q[0], limit, 1e-9);
  EXPECT_NEAR(summary.events[1].q[0], 2 * M_PI - limit, 1e-9);
  ASSERT_EQ(summary.intervals.size(), 2u);
  EXPECT_EQ(summary.absent, 361 - 196);
}

TEST(Branches, DeadPointIsReportedNotDividedBy) {
  // At the limit input angle the dyad's links are aligned: positions exist, velocities do not.
  const Mechanism m = io::load_mechanism(test::example("non-grashof-fourbar"));
  Workspace ws(m);
  ws.q[0] = std::acos(-0.1375);
  ws.qd[0] = 1.0;
  ASSERT_TRUE(solve_positions(m, ws).ok());
  EXPECT_LT(ws.group[1].conditioning, 1e-7);
  const KinematicStatus status = solve_velocities(m, ws);
  EXPECT_EQ(status.failure, KinematicFailure::singular);
  EXPECT_EQ(status.group, 1);
  EXPECT_NE(describe(m, ws, status).find("rock = 1.70873"), std::string::npos) << describe(m, ws, status);
  // A sweep that ends on it flags that row: velocities left empty, never NaN or infinite.
  const TimeGrid grid{0.0, std::acos(-0.1375), 10};
  SweepSummary summary;
  const Table table = kinematics_table(m, grid, &summary);
  ASSERT_EQ(table.rows(), 11u);
  EXPECT_EQ(summary.singular, 1);
  EXPECT_TRUE(std::isnan(table.at(10, table.column("output.omega"))));
  EXPECT_TRUE(std::isfinite(table.at(9, table.column("output.omega"))));
}
