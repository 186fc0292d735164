// The direct dynamics of a cam machine: the cam of tests/data/cam-roller.yaml turning freely
// (no motor) against its follower's spring. Kane's equations and the full constrained model must
// agree and close the energy balance; where the follower's inertia outgrows its spring the run
// stops with exit 3 exactly where the contact force vanishes: there the spring and gravity alone
// accelerate the follower.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "linkdyn/dynamics/simulate.hpp"
#include "linkdyn/planar/kinematics.hpp"
#include "test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::dynamics;

namespace {

const std::string cam_model = std::string(LINKDYN_TEST_DATA_DIR) + "/cam-roller.yaml";

SimulationResult coasting(const DynamicSystem& system, Method method, double speed, double t_end = 0.05) {
  SimulationOptions o;
  o.method = method;
  o.t_end = t_end;
  o.steps = 50;
  o.rel_tol = 1e-12, o.abs_tol = 1e-12;
  o.qd0 = speed;
  return simulate(system, o);
}

DynamicSystem cam_system() {
  const io::Model model = io::parse_model(test::read_text(cam_model), cam_model);
  return {planar::compile(model.mechanism), model.machine};
}

}  // namespace

TEST(CamDynamics, KaneAndTheFullModelAgreeAndTheEnergyBalanceClosesOverTheProgramsSegments) {
  // 2000 rpm: about 1.7 turns in 0.05 s, every segment's end (where the jerk jumps) crossed.
  const DynamicSystem system = cam_system();
  const SimulationResult kane = coasting(system, Method::kane, 2000.0 * M_PI / 30.0);
  const SimulationResult full = coasting(system, Method::full, 2000.0 * M_PI / 30.0);
  ASSERT_FALSE(kane.stopped) << kane.stop_message;
  ASSERT_FALSE(full.stopped) << full.stop_message;
  EXPECT_GT(kane.final_state[0], 2.0 * M_PI * 1.5);
  // Free: kinetic + potential energy constant (about 8.8 J of the cam's and 3.4 J of the spring's).
  const double energy = 0.5 * 4e-4 * std::pow(2000.0 * M_PI / 30.0, 2);
  EXPECT_LT(std::abs(kane.energy_residual), 1e-10 * energy);
  EXPECT_LT(std::abs(full.energy_residual), 1e-10 * energy);
  EXPECT_GT(kane.energy.kinetic.maxCoeff() - kane.energy.kinetic.minCoeff(), 0.05 * energy);  // it does exchange
  EXPECT_NEAR(kane.final_state[0], full.final_state[0], 1e-9);
  EXPECT_NEAR(kane.final_state[1], full.final_state[1], 1e-7);
}

TEST(CamDynamics, FrictionAtTheContactAndInTheRollersPinSlowsTheCamByWhatItDissipates) {
  // A free run at 1000 rpm for 0.06 s with a knife edge sliding on the cam, then a roller whose
  // pin has friction: the cam's energy falls by the friction's loss (the balance closes to 1e-10
  // of the energy), and Kane's equations and the full model agree. At 2000 rpm the knife edge's
  // follower leaves the cam: the run stops there (the friction's successive approximations
  // converge while the contact force passes through zero).
  struct Case {
    const char* name;
    std::string to;
  };
  const std::vector<Case> cases{{"knife edge", "friction: {coefficient: 0.05}"},
                                {"roller", "roller_radius: 8 mm\n    friction: {coefficient: 0.1, radius: 4 mm}"}};
  const double speed = 1000.0 * M_PI / 30.0, energy = 0.5 * 4e-4 * speed * speed;
  for (const Case& c : cases) {
    std::string text = test::read_text(cam_model);
    text.replace(text.find("roller_radius: 8 mm"), 19, c.to);
    const io::Model model = io::parse_model(text, cam_model);
    const DynamicSystem system{planar::compile(model.mechanism), model.machine};
    const SimulationResult kane = coasting(system, Method::kane, speed, 0.06);
    const SimulationResult full = coasting(system, Method::full, speed, 0.06);
    ASSERT_FALSE(kane.stopped) << c.name << ": " << kane.stop_message;
    ASSERT_FALSE(full.stopped) << c.name << ": " << full.stop_message;
    ASSERT_EQ(kane.friction_loss.size(), 1u);
    std::printf(
        "cam friction in a free run, %s: %.4g J lost of %.4g J; energy residual Kane %.1e J, full %.1e J; "
        "|Kane - full| %.1e rad\n",
        c.name, kane.friction_loss[0], energy, kane.energy_residual, full.energy_residual,
        std::abs(kane.final_state[0] - full.final_state[0]));
    EXPECT_GT(kane.friction_loss[0], 1e-3 * energy) << c.name;
    EXPECT_LT(std::abs(kane.energy_change + kane.friction_loss[0]), 1e-9 * energy) << c.name;  // nothing else works
    EXPECT_LT(std::abs(kane.energy_residual), 1e-10 * energy) << c.name;
    EXPECT_LT(std::abs(full.energy_residual), 1e-10 * energy) << c.name;
    EXPECT_NEAR(kane.final_state[0], full.final_state[0], 1e-9) << c.name;
    EXPECT_GT(kane.final_state[0], M_PI) << c.name;  // past the rise's and the dwell's ends
    if (std::string(c.name) == "knife edge") {
      const SimulationResult fast = coasting(system, Method::kane, 2.0 * speed);
      EXPECT_TRUE(fast.stopped);
      EXPECT_NE(fast.stop_message.find("leaves the cam"), std::string::npos) << fast.stop_message;
    }
  }
}

TEST(CamDynamics, TheRunStopsWhereTheFollowerLeavesTheCamWithSpringAndGravityAloneAcceleratingIt) {
  // 3000 rpm: in the cycloidal rise's second half the follower's deceleration needs more than
  // its spring (k = 2000 N/m, compressed 20 mm + y) and its weight can give.
  const DynamicSystem system = cam_system();
  const SimulationResult r = coasting(system, Method::kane, 3000.0 * M_PI / 30.0);
  ASSERT_TRUE(r.stopped);
  EXPECT_EQ(r.stop_exit_code, AnalysisError::exit_code);
  EXPECT_NE(r.stop_message.find("cam 'lobe' leaves the cam"), std::string::npos) << r.stop_message;
  // Where it stops: in the rise's second half (60 to 120 deg), the acceleration negative.
  const double theta = std::remainder(r.final_state[0], 2.0 * M_PI);
  EXPECT_GT(theta, M_PI / 3.0);
  EXPECT_LT(theta, 2.0 * M_PI / 3.0);
  // The follower's acceleration there is the spring's and gravity's alone: N = 0 in
  // m a = N cos(phi) - k (0.02 + y) - m g.
  const planar::Mechanism& m = *system.mechanism;
  planar::Workspace ws(m);
  ws.q = {r.final_state[0]};
  ws.qd = {r.final_state[1]};
  ws.qdd = {r.qdd(r.qdd.rows() - 1, 0)};
  ASSERT_TRUE(planar::solve_positions(m, ws).ok());
  ASSERT_TRUE(planar::solve_velocities(m, ws).ok());
  planar::solve_accelerations(m, ws);
  const int follower = m.spec().find_body("follower");
  const planar::BodyState& b = ws.body[static_cast<size_t>(follower)];
  const double y = b.r.y(), a = b.acceleration(Vec2::Zero()).y(), mass = 0.25, k = 2000.0;
  const double free_fall = -(k * (0.02 + y) + mass * 9.81) / mass;
  EXPECT_NEAR(a, free_fall, 1e-6 * std::abs(free_fall));
  EXPECT_NEAR(r.t(r.t.size() - 1), r.t_final, 1e-15);  // the stop's row is the last
}

TEST(CamDynamics, CoarseRowsNeitherStretchTheStepsPastAPieceNorCatchTheFollowersMirroredPose) {
  // The valve train coasting from 200 deg (no motor, no friction) for 0.1 s (about five turns),
  // written every 0.05 s or every 0.1 ms: a step turns the cam by at most half its shortest piece
  // (35 deg), so both runs cross the same 15 piece ends and end at the same angle; every row has
  // the rocker on the cam's program, never on the pitch curve's mirrored crossing (rocker angle
  // +0.48 rad on the base circle instead of -0.48).
  const std::string path = test::example("cam-valve-train");
  std::string text = test::read_text(path);
  text.erase(text.find("actuators:"));
  const io::Model model = io::parse_model(text, path);
  const DynamicSystem system(planar::compile(model.mechanism), model.machine);
  std::vector<SimulationResult> runs;
  for (const int steps : {2, 1000}) {
    SimulationOptions o;
    o.method = Method::kane;
    o.friction = false;
    o.t_end = 0.1, o.steps = steps;
    o.q0 = 200.0 * M_PI / 180.0;
    o.kinematics = true;
    runs.push_back(simulate(system, o));
    ASSERT_FALSE(runs.back().stopped) << runs.back().stop_message;
  }
  EXPECT_EQ(runs[0].events, runs[1].events);
  EXPECT_NEAR(runs[0].final_state[0], runs[1].final_state[0], 1e-8);
  const int rocker = system.mechanism->spec().find_body("rocker") - 1;  // the columns of the moving bodies
  for (const SimulationResult& r : runs) EXPECT_LT(r.kinematics.angle.col(rocker).maxCoeff(), -0.45);
}

TEST(CamDynamics, AProgramFromATableRunsAsOnePieceKaneAndTheFullModelAgreeAndTheEnergyStays) {
  // s = 4 mm (1 - cos theta) every 1 deg: coasting from 1000 rpm for 0.2 s (about three turns).
  std::ostringstream table;
  table << "theta,s\n";
  table.precision(17);
  for (int k = 0; k <= 360; ++k) table << k * M_PI / 180 << "," << 0.004 * (1 - std::cos(k * M_PI / 180)) << "\n";
  std::string path;
  const std::string text = test::cam_roller_from_table(table.str(), "linkdyn-cam-table-dynamics", path);
  const io::Model model = io::parse_model(text, path);
  const DynamicSystem system{planar::compile(model.mechanism), model.machine};
  const double speed = 1000.0 * M_PI / 30.0, energy = 0.5 * 4e-4 * speed * speed;
  const SimulationResult kane = coasting(system, Method::kane, speed, 0.2);
  const SimulationResult full = coasting(system, Method::full, speed, 0.2);
  ASSERT_FALSE(kane.stopped) << kane.stop_message;
  ASSERT_FALSE(full.stopped) << full.stop_message;
  std::printf("cam from a table, free run: %.6f rad; energy residual Kane %.1e J, full %.1e J\n", kane.final_state[0],
              kane.energy_residual, full.energy_residual);
  EXPECT_GT(kane.final_state[0], 4.0 * M_PI);
  EXPECT_LT(std::abs(kane.energy_residual), 1e-10 * energy);
  EXPECT_LT(std::abs(full.energy_residual), 1e-10 * energy);
  EXPECT_NEAR(kane.final_state[0], full.final_state[0], 1e-9);
}
