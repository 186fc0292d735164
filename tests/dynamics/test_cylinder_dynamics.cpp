// A cylinder's length as the coordinate of the direct dynamics: the boom of
// tests/data/boom-cylinder.yaml swinging under gravity and its payload, the cylinder's barrel and
// rod following. The reduced method, Kane's equations and the full constrained model must agree,
// and the energy balance must close with the seals' Coulomb friction.
#include <gtest/gtest.h>

#include <cmath>

#include "linkdyn/dynamics/simulate.hpp"
#include "test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::dynamics;

namespace {

const std::string boom_model = std::string(LINKDYN_TEST_DATA_DIR) + "/boom-cylinder.yaml";

SimulationOptions swing(Method method) {
  SimulationOptions o;
  o.method = method;
  o.t_end = 0.25;
  o.steps = 25;
  o.rel_tol = 1e-12, o.abs_tol = 1e-12;
  o.table_tolerance = 1e-12;
  o.q0 = 1.5, o.qd0 = 0.6;  // thrown up, falling back
  return o;
}

/// The boom with `line` added to its cylinder, and its one actuator (the line's), named `actuator`.
DynamicSystem boom_with(const std::string& line, const std::string& actuator) {
  std::string text = test::read_text(boom_model);
  text.replace(text.find("    bore: 80 mm"), 0, "    " + line + "\n");
  const io::Model model = io::parse_model(text, boom_model);
  DynamicSystem system(planar::compile(model.mechanism), model.machine);
  EXPECT_EQ(system.machine.actuators.size(), 1u);
  EXPECT_EQ(system.machine.actuators.at(0).name, actuator);
  return system;
}

}  // namespace

TEST(CylinderDynamics, ReducedKaneAndFullMethodsAgreeOnTheSwingingBoom) {
  const io::Model model = io::read_model(boom_model);
  const DynamicSystem system(planar::compile(model.mechanism), model.machine);
  const SimulationResult kane = simulate(system, swing(Method::kane));
  const SimulationResult full = simulate(system, swing(Method::full));
  const SimulationResult reduced = simulate(system, swing(Method::reduced));
  EXPECT_EQ(kane.method, Method::kane);
  EXPECT_EQ(full.method, Method::full);
  EXPECT_EQ(reduced.method, Method::reduced);
  ASSERT_FALSE(kane.stopped) << kane.stop_message;
  ASSERT_FALSE(full.stopped) << full.stop_message;
  ASSERT_FALSE(reduced.stopped) << reduced.stop_message;
  const Eigen::Index last = kane.rows() - 1;
  std::printf(
      "boom cylinder: L from 1.5 m to %.15f m (Kane), %.15f m (full), %.15f m (reduced); energy residual "
      "Kane %.1e J, full %.1e J\n",
      kane.q(last, 0), full.q(last, 0), reduced.q(last, 0), kane.energy_residual, full.energy_residual);
  EXPECT_LT(kane.q(last, 0), 1.45);  // it fell back
  EXPECT_LT(test::largest_difference(kane.q, full.q), 1e-8);
  EXPECT_LT(test::largest_difference(kane.q, reduced.q), 1e-8);
  EXPECT_LT(std::abs(kane.energy_residual), 1e-8);
  EXPECT_LT(std::abs(full.energy_residual), 1e-8);
}

TEST(CylinderDynamics, EnergyBalanceClosesWithTheSealsFriction) {
  const DynamicSystem system = boom_with("seal_friction: 800 N", "lift_seal");
  for (Method method : {Method::kane, Method::full, Method::reduced}) {
    const SimulationResult r = simulate(system, swing(method));
    ASSERT_FALSE(r.stopped) << r.stop_message;
    double loss = 0.0;
    for (double l : r.friction_loss) loss += l;
    std::printf("%s: seal friction loss %.9f J, energy residual %.1e J\n", method_name(method), loss,
                r.energy_residual);
    EXPECT_GT(loss, 200.0);  // 800 N over more than 0.25 m of travel
    EXPECT_LT(std::abs(r.energy_residual), 1e-7 * loss);
  }
}

TEST(CylinderDynamics, RunStopsWhereTheCylinderReachesTheEndOfItsStroke) {
  const io::Model model = io::read_model(boom_model);
  const DynamicSystem system(planar::compile(model.mechanism), model.machine);
  double t_stop = 0.0;
  for (Method method : {Method::kane, Method::full, Method::reduced}) {
    SimulationOptions o = swing(method);
    o.t_end = 2.0;
    o.steps = 200;
    const SimulationResult r = simulate(system, o);
    std::printf("%s: %s\n", method_name(method), r.stop_message.c_str());
    ASSERT_TRUE(r.stopped);
    EXPECT_EQ(r.stop_exit_code, 3);
    EXPECT_NE(r.stop_message.find("cylinder 'lift' is fully retracted (1 m)"), std::string::npos) << r.stop_message;
    EXPECT_NEAR(r.q(r.rows() - 1, 0), 1.0, 1e-9);  // the last row is the end of the stroke
    if (t_stop == 0.0) t_stop = r.t_final;
    EXPECT_NEAR(r.t_final, t_stop, 1e-8);
  }
}

TEST(CylinderDynamics, APressureOnThePistonDoesTheWorkOfAConstantForce) {
  // 30 bar on the 80 mm piston, 15.08 kN: the boom (about 8 kN at rest) rises; the force's work is
  // F (L - L0), the same in every method, and the energy balance closes.
  const DynamicSystem system = boom_with("force: {pressure: 30 bar, side: piston}", "lift_force");
  const double force = 30e5 * M_PI * 0.08 * 0.08 / 4;
  std::vector<double> ends;
  for (Method method : {Method::kane, Method::full, Method::reduced}) {
    SimulationOptions o = swing(method);
    o.qd0 = 0.0;
    const SimulationResult r = simulate(system, o);
    ASSERT_FALSE(r.stopped) << r.stop_message;
    const double L = r.q(r.rows() - 1, 0), work = r.actuator_work[0];
    std::printf("%s: L from 1.5 m to %.12f m, the force's work %.9f J (F dL %.9f J), energy residual %.1e J\n",
                method_name(method), L, work, force * (L - 1.5), r.energy_residual);
    EXPECT_GT(L, 1.55);
    EXPECT_NEAR(work, force * (L - 1.5), 1e-9 * std::abs(work));
    EXPECT_LT(std::abs(r.energy_residual), 1e-9 * std::abs(work));
    ends.push_back(L);
  }
  EXPECT_NEAR(ends[1], ends[0], 1e-8);
  EXPECT_NEAR(ends[2], ends[0], 1e-8);
}
