// Kane's equations [004 Appendix B]: against the full constrained model (the pump of 004
// Sect. 5, two DOF, and a one-DOF machine), against the reduced-parameter method (one DOF),
// the energy balance, and the liaison forces against kinetostatics at the same motion.
#include <gtest/gtest.h>

#include <cmath>

#include "linkdyn/dynamics/kane.hpp"
#include "linkdyn/dynamics/reduced.hpp"
#include "linkdyn/dynamics/simulate.hpp"
#include "test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::dynamics;

namespace {

/// Potential energy of gravity and the springs at the positions in ws.
double gravity_and_spring_energy(const planar::Mechanism& m, const planar::Workspace& ws) {
  double v = 0.0;
  for (size_t b = 1; b < m.bodies().size(); ++b)
    v -= m.bodies()[b].mass * m.spec().gravity.dot(ws.body[b].position(m.bodies()[b].com));
  for (const planar::Load& l : m.spec().loads) {
    if (!l.is<planar::Spring>()) continue;
    const planar::Spring& s = l.as<planar::Spring>();
    const auto& at = s.between;
    const double length =
        (ws.body[at[1].body].position(at[1].local) - ws.body[at[0].body].position(at[0].local)).norm();
    v += 0.5 * s.stiffness * std::pow(length - s.free_length, 2);
  }
  return v;
}

/// Kinetic plus potential energy at q (n values), qd (n values).
double mechanical_energy(const DynamicSystem& system, const double* q, const double* qd, size_t n) {
  const planar::Mechanism& m = *system.mechanism;
  planar::Workspace ws(m);
  ws.q.assign(q, q + n);
  if (!planar::solve_positions(m, ws).ok()) throw std::runtime_error("does not assemble");
  return kinetic_energy(system, ws.q, std::vector<double>(qd, qd + n)) + gravity_and_spring_energy(m, ws);
}

/// The index of the actuator named `name`.
Eigen::Index actuator(const DynamicSystem& system, const std::string& name) {
  const auto& acts = system.machine.actuators;
  for (size_t k = 0; k < acts.size(); ++k)
    if (acts[k].name == name) return static_cast<Eigen::Index>(k);
  throw std::runtime_error("no actuator " + name);
}

SimulationOptions tight(double t_end, int steps) {
  SimulationOptions o;
  o.t_end = t_end;
  o.steps = steps;
  o.rel_tol = 1e-12, o.abs_tol = 1e-12;
  return o;
}

SimulationResult simulate_kane(const DynamicSystem& system, double t_end, int steps) {
  SimulationOptions o = tight(t_end, steps);
  o.method = Method::kane;
  return simulate(system, o);
}

}  // namespace

TEST(Kane, PumpAgreesWithTheFullModelOverTwoSeconds) {
  const io::Model model = io::read_model(test::example("seed004-pump"));
  const planar::Mechanism m = planar::compile(model.mechanism);
  ASSERT_EQ(m.dof(), 2);
  const DynamicSystem system(m, model.machine);
  SimulationOptions o = tight(2.0, 200);  // about 4.6 crank turns, the slider's friction switching
  o.method = Method::kane;
  const SimulationResult kane = simulate(system, o);
  o.method = Method::full;
  const SimulationResult full = simulate(system, o);
  ASSERT_EQ(kane.rows(), full.rows());
  EXPECT_GT(kane.q(kane.rows() - 1, 0), 8 * M_PI);
  EXPECT_GT(kane.events, 10);  // the Coulomb friction F_r changes sign many times
  EXPECT_EQ(kane.events, full.events);
  // alpha and x_D, their rates and accelerations.
  const double dq = test::largest_difference(kane.q, full.q);
  const double dqd = test::largest_difference(kane.qd, full.qd);
  const double dqdd = test::largest_difference(kane.qdd, full.qdd);
  std::printf("pump, Kane vs full over 2 s: |dq| %.1e, |dqd| %.1e, |dqdd| %.1e\n", dq, dqd, dqdd);
  EXPECT_LT(dq, 1e-10);
  EXPECT_LT(dqd, 1e-9);
  EXPECT_LT(dqdd, 1e-8);  // accelerations reach 400 m/s^2 and rad/s^2
}

TEST(Kane, OneDofMachineAgreesWithTheFullModelAndTheReducedMethod) {
  const io::Model model = io::read_model(std::string(LINKDYN_TEST_DATA_DIR) + "/fourbar-motor.yaml");
  const planar::Mechanism m = planar::compile(model.mechanism);
  const DynamicSystem system(m, model.machine);
  SimulationOptions o = tight(1.3, 130);  // two turns and more
  o.method = Method::kane;
  const SimulationResult kane = simulate(system, o);
  o.method = Method::full;
  const SimulationResult full = simulate(system, o);
  o.method = Method::reduced;
  o.table_points = 2880;
  const SimulationResult red = simulate(system, o);
  ASSERT_EQ(kane.rows(), full.rows());
  EXPECT_GT(kane.q(kane.rows() - 1, 0), 4 * M_PI);
  const double vs_full = test::largest_difference(kane.q, full.q);
  const double vs_reduced = test::largest_difference(kane.q, red.q);
  std::printf("four-bar with motor, |q difference|: Kane vs full %.1e rad, Kane vs reduced %.1e rad\n", vs_full,
              vs_reduced);
  EXPECT_LT(vs_full, 1e-10);
  EXPECT_LT(vs_reduced, 1e-6);  // the reduced method's interpolation error (2880 points)
}

TEST(Kane, ConservativePumpKeepsItsEnergy) {
  // No actuators, no friction: gravity, the spring and the inertias only.
  const planar::MechanismSpec spec = io::read_planar_model(test::example("seed004-pump"));
  const planar::Mechanism m = planar::compile(spec);
  const DynamicSystem system(m, {});  // without the model's actuators
  const SimulationResult r = simulate_kane(system, 2.0, 100);
  auto energy = [&](Eigen::Index row) {
    const Eigen::Vector2d q = r.q.row(row), qd = r.qd.row(row);
    return mechanical_energy(system, q.data(), qd.data(), 2);
  };
  const double e0 = energy(0);
  double worst = 0.0;
  for (Eigen::Index row = 0; row < r.rows(); ++row) worst = std::max(worst, std::abs(energy(row) - e0) / e0);
  std::printf("conservative pump over 2 s: energy drift %.1e relative (E = %.4g J)\n", worst, e0);
  EXPECT_LT(worst, 1e-9);
}

TEST(Kane, PumpEnergyChangeEqualsTheActuatorsWork) {
  // Wind torque, its viscous fall and the slider's Coulomb friction F_r: the change of kinetic
  // and potential energy is the integrated work of the three.
  const io::Model model = io::read_model(test::example("seed004-pump"));
  const planar::Mechanism m = planar::compile(model.mechanism);
  const DynamicSystem system(m, model.machine);
  const SimulationResult r = simulate_kane(system, 2.0, 10);
  const Eigen::Vector2d q0 = r.q.row(0), qd0 = r.qd.row(0);
  const double e0 = mechanical_energy(system, q0.data(), qd0.data(), 2);
  const double e1 = mechanical_energy(system, &r.final_state[0], &r.final_state[2], 2);
  double work = 0.0, scale = 0.0;
  for (double w : r.actuator_work) work += w, scale += std::abs(w);
  ASSERT_EQ(r.actuator_work.size(), 3u);
  EXPECT_LT(r.actuator_work[2], 0.0);  // friction takes energy
  std::printf("pump over 2 s: energy change %.9g J, actuators' work %.9g J\n", e1 - e0, work);
  EXPECT_NEAR(e1 - e0, work, 1e-9 * (scale + e0));
}

TEST(Kane, LiaisonForcesAgreeWithKinetostaticsAtTheSameMotion) {
  // At states along a simulation, every pair's reaction from [004 Eq. A43] (Kane's liaison
  // forces, by least squares on m a = Q_ext + Q_liaison) equals the kinetostatic walk's with
  // Kane's accelerations (the simulation's --reactions), and the walk needs no driver effort:
  // the drivers' coordinates are free.
  const io::Model model = io::read_model(test::example("seed004-pump"));
  const planar::Mechanism m = planar::compile(model.mechanism);
  const DynamicSystem system(m, model.machine);
  SimulationOptions o = tight(1.0, 20);
  o.method = Method::kane;
  o.reactions = true;
  const SimulationResult r = simulate(system, o);
  const Eigen::Index rotor = actuator(system, "rotor"), slip = actuator(system, "rotor_slip"),
                     friction = actuator(system, "slider_friction");
  const planar::Mechanism& mm = *system.mechanism;
  ASSERT_EQ(r.reactions.force_x.cols(), static_cast<Eigen::Index>(mm.joints().size()));
  planar::Workspace ws(mm);
  KaneWorkspace kw(mm);
  double worst = 0.0, worst_effort = 0.0;
  for (Eigen::Index row = 1; row < r.rows(); ++row) {
    for (Eigen::Index i = 0; i < 2; ++i) {
      const auto k = static_cast<size_t>(i);
      ws.q[k] = r.q(row, i), ws.qd[k] = r.qd(row, i), ws.qdd[k] = r.qdd(row, i);
    }
    ASSERT_TRUE(planar::solve_kinematics(mm, ws).ok());
    planar::evaluate_loads(mm, ws, r.t(row));
    ws.applied[1](2) += r.effort(row, rotor) + r.effort(row, slip);
    const planar::Joint& guide = mm.joints()[mm.spec().find_joint("guide")];
    planar::add_guide_force(guide, ws, r.effort(row, friction), ws.applied);
    for (auto& w : ws.friction_load) w.setZero();
    planar::solve_reactions(mm, ws);
    double scale = 1.0;
    for (size_t k = 0; k < mm.joints().size(); ++k) scale = std::max(scale, ws.reaction[k].force.norm());
    for (int i = 0; i < 2; ++i) worst_effort = std::max(worst_effort, std::abs(ws.effort[i]) / scale);
    // The same state through Kane's equations and Eq. A43's liaison forces.
    solve_kane(mm, ws, kw);
    liaison_forces(mm, ws, kw);
    EXPECT_LT(kw.liaison_residual, 1e-10 * scale);
    EXPECT_NEAR(kw.qdd(0), r.qdd(row, 0), 1e-9 * (1.0 + std::abs(r.qdd(row, 0))));
    for (size_t k = 0; k < mm.joints().size(); ++k) {
      std::vector<double> simulated, walked;
      planar::put_reaction(mm.joints()[k], r.reactions.reaction(row, k), [&](double v) { simulated.push_back(v); });
      planar::put_reaction(mm.joints()[k], ws.reaction[k], [&](double v) { walked.push_back(v); });
      for (size_t i = 0; i < walked.size(); ++i) worst = std::max(worst, std::abs(walked[i] - simulated[i]) / scale);
    }
  }
  std::printf("pump: liaison forces vs kinetostatics %.1e, driver efforts %.1e (relative to the largest reaction)\n",
              worst, worst_effort);
  EXPECT_LT(worst, 1e-10);
  EXPECT_LT(worst_effort, 1e-10);
}

TEST(Kane, PartialVelocitiesAreTheVelocitiesPerUnitIndependentSpeed) {
  // [004 Eq. A4]: d v / d qd_k = d a / d qdd_k: the velocity walk with unit qd_k gives the
  // columns of A.
  const planar::Mechanism m = io::load_mechanism(test::example("seed004-pump"));
  planar::Workspace ws(m);
  KaneWorkspace kw(m);
  ws.q = {0.7, 0.47};
  ws.qd = {14.0, -0.3};
  ASSERT_TRUE(planar::solve_positions(m, ws).ok());
  ASSERT_TRUE(planar::solve_velocities(m, ws).ok());
  partial_velocities(m, ws, kw);
  for (int k = 0; k < 2; ++k) {
    ws.qd = {k == 0 ? 1.0 : 0.0, k == 1 ? 1.0 : 0.0};
    ASSERT_TRUE(planar::solve_velocities(m, ws).ok());
    for (size_t b = 1; b < m.bodies().size(); ++b) {
      const Vec2 v = ws.body[b].velocity(m.bodies()[b].com);
      const int i = 3 * static_cast<int>(b - 1);
      EXPECT_NEAR(kw.A(i, k), v.x(), 1e-12) << m.bodies()[b].name;
      EXPECT_NEAR(kw.A(i + 1, k), v.y(), 1e-12) << m.bodies()[b].name;
      EXPECT_NEAR(kw.A(i + 2, k), ws.body[b].omega, 1e-12) << m.bodies()[b].name;
    }
  }
}

TEST(Kane, ReducedMethodAndSteadyRegimeRefuseTwoDof) {
  const io::Model model = io::read_model(test::example("seed004-pump"));
  const planar::Mechanism m = planar::compile(model.mechanism);
  const DynamicSystem system(m, model.machine);
  SimulationOptions o = tight(0.1, 2);
  EXPECT_THROW((void)simulate(system, o), InputError);
  EXPECT_THROW((void)steady_regime(system, o, 14.0), InputError);
}

TEST(Kane, OneDofMassMatrixAndVelocityTermAreTheReducedParameters) {
  // For one DOF, A^T m A is the reduced inertia m(q) of [003] and A^T m B at qd = 1 is m'(q)/2.
  const planar::Mechanism m = io::load_mechanism(test::example("seed003-dwell"));
  planar::Workspace ws(m);
  KaneWorkspace kw(m);
  for (int k = 0; k < 12; ++k) {
    ws.q[0] = 2 * M_PI * k / 12;
    ASSERT_TRUE(planar::solve_positions(m, ws).ok());
    const ReducedInertia reduced = reduced_inertia_from_energy(m, ws);
    ws.qd[0] = 1.0;
    ASSERT_TRUE(planar::solve_velocities(m, ws).ok());
    partial_velocities(m, ws, kw);
    const double M = kw.A.col(0).dot(kw.mass.cwiseProduct(kw.A.col(0)));
    const double half_dm = kw.A.col(0).dot(kw.mass.cwiseProduct(kw.B));
    EXPECT_NEAR(M, reduced.m, 1e-12 * reduced.m) << "q = " << ws.q[0];
    EXPECT_NEAR(2 * half_dm, reduced.dm, 1e-12 * reduced.m) << "q = " << ws.q[0];
  }
}
