// Compound pins in the dynamics: the reduced parameters of the toggle press both ways, its
// simulation by the reduced method, the full constrained model and Kane's equations, and Kane's
// per-member pin reactions against the kinetostatic walk at the same motion.
#include <gtest/gtest.h>

#include <cmath>

#include "linkdyn/dynamics/kane.hpp"
#include "linkdyn/dynamics/reduced.hpp"
#include "linkdyn/dynamics/simulate.hpp"
#include "test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::dynamics;

namespace {

SimulationOptions tight(Method method, double t_end, int steps) {
  SimulationOptions o;
  o.method = method;
  o.t_end = t_end;
  o.steps = steps;
  o.rel_tol = 1e-12, o.abs_tol = 1e-12;
  return o;
}

}  // namespace

TEST(CompoundPinDynamics, TogglePressReducedInertiaFromEnergyAndFromKinetostaticsAgree) {
  const planar::Mechanism m = io::load_mechanism(test::example("toggle-press"));
  const ReducedTable t = tabulate_reduced_parameters(m, 360);
  double worst_m = 0.0, worst_dm = 0.0, largest_m = 0.0;
  for (size_t k = 0; k < t.q.size(); ++k) {
    worst_m = std::max(worst_m, std::abs(t.m[k] - t.m_kinetostatic[k]) / t.m[k]);
    worst_dm = std::max(worst_dm, std::abs(t.dm[k] - t.dm_kinetostatic[k]) / t.m[k]);
    largest_m = std::max(largest_m, t.m[k]);
  }
  EXPECT_LT(worst_m, 1e-12);
  EXPECT_LT(worst_dm, 1e-12);
  EXPECT_GT(largest_m, 0.04);  // the ram's 40 kg count through the toggle
}

TEST(CompoundPinDynamics, TogglePressSimulatedByReducedFullAndKaneAgree) {
  // The DC motor drives the press for 0.9 s (the crank stays within the forming table's turn),
  // with the forming load and without it.
  for (const bool forming : {true, false}) {
    SCOPED_TRACE(forming ? "with the forming load" : "without the forming load");
    io::Model model = io::read_model(test::example("toggle-press"));
    if (!forming) model.mechanism.loads.clear();
    const planar::Mechanism m = planar::compile(model.mechanism);
    const DynamicSystem system(m, model.machine);
    const SimulationResult kane = simulate(system, tight(Method::kane, 0.9, 90));
    const SimulationResult full = simulate(system, tight(Method::full, 0.9, 90));
    SimulationOptions reduced_options = tight(Method::reduced, 0.9, 90);
    reduced_options.table_points = 2880;
    const SimulationResult reduced = simulate(system, reduced_options);
    ASSERT_EQ(kane.rows(), 91);
    ASSERT_EQ(full.rows(), 91);
    ASSERT_EQ(reduced.rows(), 91);
    EXPECT_GT(kane.q(kane.rows() - 1, 0), M_PI);  // through the bottom dead centre
    const double slowest = kane.qd.col(0).minCoeff();
    if (forming) {
      EXPECT_LT(slowest, 0.95 * kane.qd(0, 0)) << "the forming load slows the crank";
    }
    const double dq = test::largest_difference(kane.q, full.q), dqd = test::largest_difference(kane.qd, full.qd);
    const double dq_reduced = test::largest_difference(kane.q, reduced.q);
    std::printf(
        "toggle press %s over 0.9 s, |dq|: Kane vs full %.1e rad (|dqd| %.1e rad/s), Kane vs reduced %.1e rad\n",
        forming ? "forming" : "without forming", dq, dqd, dq_reduced);
    // The pins' friction acts in every method (each solves it by its own successive
    // approximations, to 1e-3 of the tolerance); the forming table's kinks are events. Without
    // the forming load the methods agree to 1e-12 rad.
    EXPECT_LT(dq, forming ? 1e-9 : 1e-12);
    EXPECT_LT(dqd, forming ? 1e-8 : 1e-11);
    EXPECT_LT(dq_reduced, forming ? 1e-6 : 1e-10);  // the reduced method's m(q) interpolation
  }
}

TEST(CompoundPinDynamics, KanePinReactionsAreTheKinetostaticPinForcesAtTheSameMotion) {
  const io::Model model = io::read_model(test::example("toggle-press"));
  const planar::Mechanism m = planar::compile(model.mechanism);
  const DynamicSystem system(m, model.machine);
  SimulationOptions o = tight(Method::kane, 0.9, 45);
  o.reactions = true;
  o.friction = false;  // the walk below applies the loads and the motor, not the pins' friction
  const SimulationResult r = simulate(system, o);
  const Table t = io::simulation_table(system, r);  // the pin's reactions by their column names
  const planar::Mechanism& mm = *system.mechanism;  // with the rotor's inertia on the crank
  const int motor = t.column("motor.torque"), crank = mm.spec().find_body("crank");
  const std::vector<std::string> columns{"K.upper.Fx", "K.upper.Fy", "K.lower.Fx",
                                         "K.lower.Fy", "K.rod.Fx",   "K.rod.Fy"};
  for (const std::string& c : columns) ASSERT_GE(t.column(c), 0) << c;
  EXPECT_EQ(t.column("K.Fx"), -1) << "the pin's own pairs have no columns";
  planar::Workspace ws(mm);
  double worst = 0.0, largest = 0.0;
  for (size_t row = 0; row < t.rows(); ++row) {
    ws.q[0] = t.at(row, 1), ws.qd[0] = t.at(row, 2), ws.qdd[0] = t.at(row, 3);
    ASSERT_TRUE(planar::solve_kinematics(mm, ws).ok());
    planar::evaluate_loads(mm, ws, t.at(row, 0));
    ws.applied[crank](2) += t.at(row, motor);
    for (auto& w : ws.friction_load) w.setZero();
    planar::solve_reactions(mm, ws);
    double scale = 1.0;
    Vec2 sum = Vec2::Zero();
    for (int k = 0; k < 3; ++k) {
      const Vec2 F = planar::pin_force(mm, ws, 0, k);
      scale = std::max(scale, F.norm());
      sum += Vec2(t.at(row, t.column(columns[2 * k])), t.at(row, t.column(columns[2 * k + 1])));
    }
    for (int k = 0; k < 3; ++k) {
      const Vec2 F = planar::pin_force(mm, ws, 0, k);
      worst = std::max(worst, std::abs(F.x() - t.at(row, t.column(columns[2 * k]))) / scale);
      worst = std::max(worst, std::abs(F.y() - t.at(row, t.column(columns[2 * k + 1]))) / scale);
    }
    EXPECT_LT(sum.norm(), 1e-12 * scale) << "Kane's pin forces sum to zero";
    EXPECT_LT(std::abs(ws.effort[0]), 1e-9 * scale) << "the motor alone drives Kane's motion";
    largest = std::max(largest, scale);
  }
  EXPECT_LT(worst, 1e-9);
  EXPECT_GT(largest, 5e4);  // through the forming
}
