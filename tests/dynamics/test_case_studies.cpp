// The case studies of [003]: the reduced method against the full model over two steady
// cycles, the pedalling energy balance, and the flywheel that bounds the dwell mechanism's
// speed fluctuation.
#include <gtest/gtest.h>

#include <cmath>

#include "linkdyn/dynamics/simulate.hpp"
#include "linkdyn/planar/sweep.hpp"
#include "test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::dynamics;

namespace {
/// Two steady cycles from (options.qd0, currents) by both methods; the largest difference in q.
double reduced_vs_full(const DynamicSystem& system, SimulationOptions o, double period) {
  o.t_end = 2 * period;
  o.steps = 200;
  o.method = Method::reduced;
  const SimulationResult red = simulate(system, o);
  o.method = Method::full;
  const SimulationResult full = simulate(system, o);
  return test::largest_difference(red.q, full.q);
}
SimulationOptions tight() {
  SimulationOptions o;
  o.rel_tol = 1e-12, o.abs_tol = 1e-12;
  o.table_points = 2880;
  return o;
}
}  // namespace

TEST(CaseStudies, BicycleReducedMatchesFullAndHipWorkBalancesTheBrake) {
  // Pedalling is neutral (hip and brake work per turn do not depend on the speed), so the
  // steady regime at 1 Hz is found with the hip torque [003 Sect. 3.1].
  const io::Model model = io::read_model(test::example("seed003-bicycle"));
  const planar::Mechanism m = planar::compile(model.mechanism);
  const DynamicSystem system(m, model.machine);
  SimulationOptions o = tight();
  const ActuatorSolution hip = solve_actuator_for_mean_speed(system, o, {0, 1}, 2 * M_PI, 2 * M_PI);
  EXPECT_NEAR(hip.scale * 75.6126, 75.6126, 1e-3);  // the example carries the solved torque
  o.actuator_scale = {hip.scale, hip.scale, 1.0};
  const SteadyRegime s = steady_regime(system, o, hip.qd0);
  EXPECT_NEAR(s.qd0, hip.qd0, 1e-8 * hip.qd0);
  EXPECT_NEAR(s.mean_speed, 2 * M_PI, 1e-6);
  // In the steady regime the hip torques supply what the brake dissipates: 125 J per turn.
  ASSERT_EQ(s.actuator_work.size(), 3u);
  EXPECT_NEAR(s.actuator_work[0] + s.actuator_work[1], -s.actuator_work[2], 1e-6 * -s.actuator_work[2]);
  EXPECT_NEAR(-s.actuator_work[2], 125.0, 0.01);
  o.qd0 = s.qd0;
  const double worst = reduced_vs_full(system, o, s.period);
  std::printf("bicycle: hip torque %.4f N m; two steady cycles, reduced vs full %.2e rad\n", 75.6126 * hip.scale,
              worst);
  EXPECT_LT(worst, 1e-6);
}

TEST(CaseStudies, DwellMechanismReducedMatchesFull) {
  const io::Model model = io::read_model(test::example("seed003-dwell"));
  const planar::Mechanism m = planar::compile(model.mechanism);
  const DynamicSystem system(m, model.machine);
  SimulationOptions o = tight();
  const SteadyRegime s = steady_regime(system, o, 20.0);
  EXPECT_NEAR(s.actuator_work[0], -s.actuator_work[1], 1e-6 * s.actuator_work[0]);
  o.qd0 = s.qd0;
  o.current0 = s.current0;
  const double worst = reduced_vs_full(system, o, s.period);
  std::printf("dwell: mean speed %.6f rad/s; two steady cycles, reduced vs full %.2e rad\n", s.mean_speed, worst);
  EXPECT_LT(worst, 1e-6);
}

TEST(CaseStudies, DwellOutputTurnsLessThanOneDegreeOverSixtyDegreesOfCrank) {
  const planar::Mechanism m = io::load_mechanism(test::example("seed003-dwell"));
  const Table t = io::kinematics_table(m, planar::kinematics(m, m.default_grid()));
  const int out = t.column("output.angle");
  const size_t n = t.rows() - 1;  // 1-degree steps over a turn
  bool dwell = false;
  for (size_t s = 0; s < n && !dwell; ++s) {
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i <= 60; ++i) {
      const double a = t.at((s + i) % n, out);
      lo = std::min(lo, a), hi = std::max(hi, a);
    }
    dwell = (hi - lo) * 180.0 / M_PI < 1.0;
  }
  EXPECT_TRUE(dwell);
}

TEST(CaseStudies, FlywheelBringsTheFluctuationUnderItsBound) {
  const io::Model model = io::read_model(test::example("seed003-dwell"));
  const planar::Mechanism m = planar::compile(model.mechanism);
  SimulationOptions o;
  o.rel_tol = 1e-9, o.abs_tol = 1e-9;
  const double added = flywheel_for_fluctuation(m, model.machine, o, m.spec().find_body("crank"), 0.1, 20.0);
  EXPECT_GT(added, 0.0);
  planar::MechanismSpec spec = m.spec();
  spec.bodies[spec.find_body("crank")].inertia += added;
  const DynamicSystem heavier(planar::compile(spec), model.machine);
  const double fluctuation = steady_regime(heavier, o, 20.0).fluctuation;
  EXPECT_LE(fluctuation, 0.1 + 1e-6);
  EXPECT_GT(fluctuation, 0.099);  // the smallest flywheel that does it
}
