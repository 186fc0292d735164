// Assembly modes: chosen by the model's hint, tracked along a sweep without jumps, and the
// limits of a non-Grashof four-bar found at the input angle a hand calculation gives.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "linkdyn/planar/kinetostatics.hpp"
#include "linkdyn/planar/sweep.hpp"
#include "test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::planar;

TEST(Branches, TrackedThroughAFullCrankRevolutionWithoutJumps) {
  for (const char* name : {"seed001-fourbar", "offset-slider-crank", "inverted-slider-crank", "watt-sixbar",
                           "class3-triad", "pump-2dof"}) {
    SCOPED_TRACE(name);
    const Mechanism m = io::load_mechanism(test::example(name));
    Workspace ws(m);
    std::vector<BodyState> first, previous;
    double worst_jump = 0.0;
    (void)sweep_kinematics(m, ws, m.default_grid(), [&](int k, double, StepStatus s) {
      ASSERT_EQ(s, StepStatus::ok);
      if (k == 0)
        first = ws.body;
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
  const KinematicsResult summary_result = kinematics(m, grid);
  const SweepSummary& summary = summary_result.summary;
  const Table table = io::kinematics_table(m, summary_result);
  ASSERT_EQ(table.rows(), 11u);
  EXPECT_EQ(summary.singular, 1);
  EXPECT_TRUE(std::isnan(table.at(10, table.column("output.omega"))));
  EXPECT_TRUE(std::isfinite(table.at(9, table.column("output.omega"))));
}

namespace {

/// The sweep table of a model with its driver's law replaced.
Mechanism with_law(const std::string& model, const MotionLaw& law) {
  MechanismSpec spec = io::read_planar_model(model);
  spec.drivers[0].law = law;
  return compile(spec);
}

std::string test_data(const std::string& name) { return std::string(LINKDYN_TEST_DATA_DIR) + "/" + name; }

}  // namespace

TEST(Branches, ParallelogramStaysInParallelogramModeThroughItsFlatPositions) {
  // The ground link is longer than twice the crank: at the flat positions the crossed mode is
  // nearer to the last pose than the parallelogram one, so only the predicted pose keeps the
  // branch. In parallelogram mode the rocker turns with the crank and the coupler translates.
  const Mechanism m = io::load_mechanism(test_data("parallelogram-fourbar.yaml"));
  const KinematicsResult summary_result = kinematics(m, m.default_grid());
  const SweepSummary& summary = summary_result.summary;
  const Table t = io::kinematics_table(m, summary_result);
  ASSERT_EQ(t.rows(), 361u);
  EXPECT_EQ(summary.singular, 0);
  EXPECT_EQ(summary.limits, 2);  // 180 and 360 deg: rates there are limits
  double angle = 0, rate = 0, accel = 0;
  for (size_t r = 0; r < t.rows(); ++r) {
    const double q = t.at(r, t.column("crank_drive.angle"));
    angle = std::max(
        {angle, std::abs(t.at(r, t.column("rocker.angle")) - q), std::abs(t.at(r, t.column("coupler.angle")))});
    rate = std::max(
        {rate, std::abs(t.at(r, t.column("rocker.omega")) - 10.0), std::abs(t.at(r, t.column("coupler.omega")))});
    accel =
        std::max({accel, std::abs(t.at(r, t.column("rocker.alpha"))), std::abs(t.at(r, t.column("coupler.alpha")))});
    const bool flat = std::abs(std::remainder(q, M_PI)) < 1e-9;
    EXPECT_EQ(t.at(r, t.column("singular")), flat ? 1.0 : 0.0) << q;
    // C moves with B: the coupler's translation.
    EXPECT_NEAR(t.at(r, t.column("C.vy")), t.at(r, t.column("B.vy")), 1e-8);
  }
  EXPECT_LT(angle, 1e-10);
  EXPECT_LT(rate, 1e-9);           // limits at the flat positions: 1e-11
  EXPECT_LT(accel, 1e-9 * 100.0);  // relative to omega^2; rounding near the flat positions
}

TEST(Branches, ParallelogramReactionsAtTheFlatPositionAreTheirLimits) {
  // Without gravity the rocker and the crank carry only their centrifugal loads and the coupler
  // translates: moments about the coupler's pin B give the rocker's pin force along the rocker,
  // 3 c = 1.5 m_coupler omega^2 |AB|, c = 150 N (what the coupler exerts on the rocker, along D->C),
  // and the drivers power is zero (the kinetic energy is constant). At the flat positions statics
  // alone leave c undetermined; its limit along the motion is the same 150 N.
  const Mechanism m = io::load_mechanism(test_data("parallelogram-fourbar.yaml"));
  const KinetostaticsResult summary_result = kinetostatics(m, m.default_grid(), {});
  const KinetostaticsSummary& summary = summary_result.summary;
  const Table t = io::kinetostatics_table(m, summary_result);
  ASSERT_EQ(t.rows(), 361u);
  EXPECT_EQ(summary.limit_rows, 2);
  for (size_t r = 0; r < t.rows(); ++r) {
    const double q = t.at(r, t.column("crank_drive.angle"));
    EXPECT_NEAR(t.at(r, t.column("C.Fx")), 150.0 * std::cos(q), 2e-5) << q;
    EXPECT_NEAR(t.at(r, t.column("C.Fy")), 150.0 * std::sin(q), 2e-5) << q;
    EXPECT_NEAR(t.at(r, t.column("crank_drive.torque")), 0.0, 1e-6) << q;
  }
}

TEST(Branches, ReactionsWithoutALimitAtASingularPositionAreReportedNotWritten) {
  // With gravity the coupler's weight has a moment about B that a flat rocker cannot balance:
  // the reactions grow as 1/sin(theta) towards the flat positions, which are left out.
  MechanismSpec spec = io::read_planar_model(test_data("parallelogram-fourbar.yaml"));
  spec.gravity = Vec2(0.0, -9.81);
  const Mechanism m = compile(spec);
  const KinetostaticsResult summary_result = kinetostatics(m, m.default_grid(), {});
  const KinetostaticsSummary& summary = summary_result.summary;
  const Table t = io::kinetostatics_table(m, summary_result);
  EXPECT_EQ(t.rows(), 359u);
  ASSERT_EQ(summary.unbounded_t.size(), 2u);
  EXPECT_NEAR(summary.unbounded_t[0], (M_PI - M_PI / 6.0) / 10.0, 1e-12);
  for (size_t k = 0; k < t.values.size(); ++k) EXPECT_TRUE(std::isfinite(t.values[k]) || std::isnan(t.values[k]));
}

TEST(Branches, RhombusChainPassesThePositionsWhereEachCrankTipLiesOnTheNextPivot) {
  // The chain of three rhombi (examples/parallelogram-chain.yaml) swept over a turn from 0 deg:
  // it starts on such a position (where the dyads' closed form has a circle of solutions) and
  // passes another at 180 deg. Every crank keeps the driver's angle, the couplers translate.
  const Mechanism m = with_law(test::example("parallelogram-chain"), ConstantSpeedLaw{0.0, 10.0, 2 * M_PI / 10.0, 360});
  const KinematicsResult summary_result = kinematics(m, m.default_grid());
  const SweepSummary& summary = summary_result.summary;
  const Table t = io::kinematics_table(m, summary_result);
  ASSERT_EQ(t.rows(), 361u);
  EXPECT_EQ(summary.singular, 0);
  EXPECT_EQ(summary.limits, 3);
  double worst = 0.0;
  for (size_t r = 0; r < t.rows(); ++r) {
    const double q = t.at(r, t.column("theta.angle"));
    for (int k = 0; k <= 3; ++k) {
      worst = std::max(worst, std::abs(t.at(r, t.column("crank" + std::to_string(k) + ".angle")) - q));
      worst = std::max(worst, std::abs(t.at(r, t.column("crank" + std::to_string(k) + ".omega")) - 10.0) / 10.0);
    }
    for (int k = 1; k <= 3; ++k) {
      worst = std::max(worst, std::abs(t.at(r, t.column("coupler" + std::to_string(k) + ".angle"))));
      worst = std::max(worst, std::abs(t.at(r, t.column("coupler" + std::to_string(k) + ".omega"))) / 10.0);
    }
  }
  EXPECT_LT(worst, 1e-10);
}
