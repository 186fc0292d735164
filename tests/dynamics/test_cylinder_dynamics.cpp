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

/// The boom, standing still at L = 1.5 m, moved by its cylinder's force law `law` for 0.25 s by
/// `method`.
SimulationResult pushed(const std::string& law, Method method, const std::string& actuator = "lift_force") {
  const DynamicSystem system = boom_with(law, actuator);
  SimulationOptions o = swing(method);
  o.qd0 = 0.0;
  SimulationResult r = simulate(system, o);
  EXPECT_FALSE(r.stopped) << r.stop_message;
  return r;
}

/// The work of a force linear between the rows (x_k, F_k) from a to b, segment by segment.
double table_work(const std::vector<std::array<double, 2>>& rows, double a, double b) {
  double work = 0.0;
  for (size_t k = 1; k < rows.size(); ++k) {
    const double lo = std::max(a, rows[k - 1][0]), hi = std::min(b, rows[k][0]);
    if (hi <= lo) continue;
    const auto F = [&](double x) {
      const double w = (x - rows[k - 1][0]) / (rows[k][0] - rows[k - 1][0]);
      return (1 - w) * rows[k - 1][1] + w * rows[k][1];
    };
    work += 0.5 * (F(lo) + F(hi)) * (hi - lo);
  }
  return work;
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

TEST(CylinderDynamics, ABackPressureOnTheAnnulusTakesItsShareOffThePush) {
  // 30 bar on the piston less 5 bar on the annulus: F = 30e5 A_piston - 5e5 A_annulus, whose
  // work is F (L - L0).
  const double piston = M_PI * 0.08 * 0.08 / 4, annulus = M_PI * (0.08 * 0.08 - 0.045 * 0.045) / 4;
  const double force = 30e5 * piston - 5e5 * annulus;
  for (Method method : {Method::kane, Method::reduced}) {
    const SimulationResult r = pushed("force: {pressure: 30 bar, back_pressure: 5 bar}", method);
    const double L = r.q(r.rows() - 1, 0);
    EXPECT_GT(L, 1.55);
    EXPECT_NEAR(r.actuator_work[0], force * (L - 1.5), 1e-9 * force * (L - 1.5)) << method_name(method);
  }
}

TEST(CylinderDynamics, TheReliefValveHoldsThePressureAtItsSetting) {
  // 30 bar supplied, the relief set at 20 bar: the piston sees 20 bar, F = 20e5 A_piston, both
  // for a pressure and for a force table whose rows lie above it.
  const double force = 20e5 * M_PI * 0.08 * 0.08 / 4;
  for (const std::string law :
       {"force: {pressure: 30 bar}", "force: {against: speed, table: [[0, 16 kN], [2, 60 kN]]}"}) {
    const SimulationResult r = pushed("relief: 20 bar\n    " + law, Method::kane);
    const double L = r.q(r.rows() - 1, 0);
    std::printf("%s, relief 20 bar: L to %.12f m, work %.9f J (F dL %.9f J)\n", law.c_str(), L, r.actuator_work[0],
                force * (L - 1.5));
    EXPECT_GT(L, 1.55);
    EXPECT_NEAR(r.actuator_work[0], force * (L - 1.5), 1e-9 * force * (L - 1.5)) << law;
  }
}

TEST(CylinderDynamics, AForceTableAgainstTheLengthDoesTheWorkOfItsIntegral) {
  // 18 kN retracted falling to 14 kN at 1.52 m and 10 kN extended, linear in between (a kink
  // the boom passes): its work is the table's integral from 1.5 m to where the boom gets, in
  // every method, and the three methods agree.
  const std::vector<std::array<double, 2>> rows{{1.0, 18e3}, {1.52, 14e3}, {2.0, 10e3}};
  const std::string law = "force: {against: length, table: [[1 m, 18 kN], [1.52 m, 14 kN], [2 m, 10 kN]]}";
  std::vector<double> ends;
  for (Method method : {Method::kane, Method::full, Method::reduced}) {
    const SimulationResult r = pushed(law, method);
    const double L = r.q(r.rows() - 1, 0), work = table_work(rows, 1.5, L);
    std::printf("%s: L to %.12f m, work %.9f J (the table's integral %.9f J), energy residual %.1e J\n",
                method_name(method), L, r.actuator_work[0], work, r.energy_residual);
    EXPECT_GT(L, 1.53);  // past the kink
    EXPECT_NEAR(r.actuator_work[0], work, 1e-9 * work);
    EXPECT_LT(std::abs(r.energy_residual), 1e-9 * work);
    ends.push_back(L);
  }
  EXPECT_NEAR(ends[1], ends[0], 1e-8);
  EXPECT_NEAR(ends[2], ends[0], 1e-8);
}

TEST(CylinderDynamics, LinearTablesMoveTheBoomAsASpringAndADamperBetweenItsPinsDo) {
  // F = -k (L - L0) against the length is a spring between the pins; F = -c dL/dt against the
  // speed a damper: the same motion, each written the other way (loads, not the actuator).
  const std::string spring =
      "  spring: {type: spring, between: [ground.C, boom.D], stiffness: 40000, free_length: 1.8}";
  const std::string damper = "  damper: {type: damper, between: [ground.C, boom.D], damping: 3000}";
  const struct {
    std::string table, load;
  } pairs[] = {
      {"force: {against: length, table: [[1 m, 32 kN], [2 m, -8 kN]]}", spring},
      {"force: {against: speed, table: [[-2, 6 kN], [2, -6 kN]]}", damper},
  };
  for (const auto& pair : pairs) {
    const SimulationResult by_table = pushed(pair.table, Method::kane);
    std::string text = test::read_text(boom_model);
    text += pair.load + "\n";
    const io::Model model = io::parse_model(text, boom_model);
    const DynamicSystem system(planar::compile(model.mechanism), model.machine);
    SimulationOptions o = swing(Method::kane);
    o.qd0 = 0.0;
    const SimulationResult by_load = simulate(system, o);
    std::printf("%s: L to %.12f m, as a load %.12f m\n", pair.table.c_str(), by_table.q(by_table.rows() - 1, 0),
                by_load.q(by_load.rows() - 1, 0));
    EXPECT_GT(std::abs(by_table.q(by_table.rows() - 1, 0) - 1.5), 0.01);  // it moved
    EXPECT_LT(test::largest_difference(by_table.q, by_load.q), 1e-10) << pair.table;
    EXPECT_LT(test::largest_difference(by_table.qd, by_load.qd), 1e-9) << pair.table;
  }
}

TEST(CylinderDynamics, ASpeedTableKinkedAtRestIsCrossedExactlyByEveryMethod) {
  // A throttle that resists retracting harder than extending, F = -4000 v out, -12000 v in (N,
  // m/s): the boom thrown up stops and falls back through the kink at v = 0 (an event). The
  // three methods agree and the energy balance closes with the force's (negative) work.
  const DynamicSystem system =
      boom_with("force: {against: speed, table: [[-1, 12 kN], [0, 0 kN], [1, -4 kN]]}", "lift_force");
  std::vector<SimulationResult> runs;
  for (Method method : {Method::kane, Method::full, Method::reduced}) {
    runs.push_back(simulate(system, swing(method)));
    const SimulationResult& r = runs.back();
    ASSERT_FALSE(r.stopped) << r.stop_message;
    std::printf("%s: L to %.12f m, the throttle's work %.9f J, energy residual %.1e J\n", method_name(method),
                r.q(r.rows() - 1, 0), r.actuator_work[0], r.energy_residual);
    EXPECT_LT(r.actuator_work[0], -1.0);  // it dissipates
    EXPECT_LT(std::abs(r.energy_residual), 1e-9 * std::abs(r.actuator_work[0]));
  }
  const Eigen::Index last = runs[0].rows() - 1;
  EXPECT_LT(runs[0].qd(last, 0), 0.0);  // falling back: the kink was crossed
  EXPECT_LT(test::largest_difference(runs[0].q, runs[1].q), 1e-8);
  EXPECT_LT(test::largest_difference(runs[0].q, runs[2].q), 1e-8);
}
