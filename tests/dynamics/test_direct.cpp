// Direct dynamics: energy conservation, the DC motor's analytic step response, the reduced
// method against the full constrained model, constraint actions against kinetostatics, and
// the steady regime's periodicity and energy balance.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <unsupported/Eigen/MatrixFunctions>

#include "linkdyn/dynamics/reduced.hpp"
#include "linkdyn/dynamics/reduced_model.hpp"
#include "linkdyn/dynamics/simulate.hpp"
#include "linkdyn/io/model_file.hpp"
#include "linkdyn/planar/kinetostatics.hpp"
#include "test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::dynamics;

namespace {
io::Model data_model(const std::string& name) {
  return io::read_model(std::string(LINKDYN_TEST_DATA_DIR) + "/" + name + ".yaml");
}
}  // namespace

TEST(DirectDynamics, ConservativeFourBarKeepsItsEnergyOverTenCycles) {
  planar::MechanismSpec spec = io::read_planar_model(test::example("seed001-fourbar"));
  spec.loads.clear();
  const planar::Mechanism m = planar::compile(spec);
  const DynamicSystem system(m, {});
  SimulationOptions o;
  o.qd0 = 10.0;
  o.t_end = 10 * 2 * M_PI / 10.0 * 1.5;  // at least ten turns (the speed varies about 10 rad/s)
  o.steps = 200;
  o.rel_tol = 1e-12, o.abs_tol = 1e-12;
  o.friction = false;  // conservative: no pair friction either
  // Full model: the mechanism's kinetic energy.
  o.method = Method::full;
  const SimulationResult full = simulate(system, o);
  ASSERT_GT(full.q(full.rows() - 1, 0), 10 * 2 * M_PI);
  const double e0 = kinetic_energy(system, 0.0, 10.0);
  double worst = 0.0;
  for (Eigen::Index r = 0; r < full.rows(); ++r)
    worst = std::max(worst, std::abs(kinetic_energy(system, full.q(r, 0), full.qd(r, 0)) - e0) / e0);
  EXPECT_LT(worst, 1e-8);
  // Reduced model: its own energy 1/2 m(q) qd^2 with the interpolated m.
  o.method = Method::reduced;
  const SimulationResult red = simulate(system, o);
  ReducedModelOptions mo;
  mo.tolerance = o.rel_tol / 10.0;  // as simulate() builds it
  const ReducedModel model(system, mo);
  auto m_of = [&](double q) { return model.curves.value(model.curves.locate(q), 0); };
  const double r0 = 0.5 * m_of(0.0) * 100.0;
  double worst_reduced = 0.0;
  for (Eigen::Index r = 0; r < red.rows(); ++r)
    worst_reduced = std::max(worst_reduced, std::abs(0.5 * m_of(red.q(r, 0)) * std::pow(red.qd(r, 0), 2) - r0) / r0);
  EXPECT_LT(worst_reduced, 1e-8);
  std::printf("energy drift over ten turns: full %.1e, reduced %.1e\n", worst, worst_reduced);
}

TEST(DirectDynamics, DcMotorOnAPureInertiaFollowsItsAnalyticStepResponse) {
  // J w' = K i, L i' = U - R i - K w from rest: x(t) = x_ss + exp(A t) (x0 - x_ss).
  const io::Model model = data_model("dc-motor-inertia");
  const planar::Mechanism m = planar::compile(model.mechanism);
  const DynamicSystem system(m, model.machine);
  SimulationOptions o;
  o.t_end = 0.5;
  o.steps = 50;
  o.rel_tol = 1e-12, o.abs_tol = 1e-12;
  const SimulationResult r = simulate(system, o);
  const double J = 0.01 + 75e-6, K = 0.064, R = 0.6, L = 1.5e-3, U = 12.0;
  Eigen::Matrix2d A;
  A << 0.0, K / J, -K / L, -R / L;
  const Eigen::Vector2d steady(U / K, 0.0);
  for (Eigen::Index row = 0; row < r.rows(); ++row) {
    const double t = r.t(row);
    const Eigen::Matrix2d E = (A * t).exp();
    const Eigen::Vector2d x = steady + E * (Eigen::Vector2d::Zero() - steady);
    EXPECT_NEAR(r.qd(row, 0), x(0), 1e-8 * steady(0)) << "t = " << t;
    EXPECT_NEAR(r.current(row, 0), x(1), 1e-8 * U / R) << "t = " << t;
  }
}

TEST(DirectDynamics, ReducedMethodAgreesWithTheFullModel) {
  const io::Model model = data_model("fourbar-motor");
  const planar::Mechanism m = planar::compile(model.mechanism);
  const DynamicSystem system(m, model.machine);
  SimulationOptions o;
  o.t_end = 1.3;  // two turns and more
  o.steps = 130;
  o.rel_tol = 1e-12, o.abs_tol = 1e-12;
  o.table_points = 2880;
  const SimulationResult red = simulate(system, o);
  o.method = Method::full;
  const SimulationResult full = simulate(system, o);
  ASSERT_EQ(red.rows(), full.rows());
  EXPECT_GT(full.q(full.rows() - 1, 0), 4 * M_PI);
  EXPECT_EQ(red.events, full.events);
  const double worst = (red.q - full.q).cwiseAbs().maxCoeff();
  std::printf("reduced vs full over %.3g s: largest |q difference| %.2e rad\n", o.t_end, worst);
  EXPECT_LT(worst, 1e-6);
}

TEST(DirectDynamics, ConstraintActionsAgreeWithKinetostaticsAtTheSameMotion) {
  // At a simulated state, a kinetostatic analysis with the actuators' torques as loads needs no
  // driver effort, and its reactions are the constraint actions of both methods.
  io::Model model = data_model("fourbar-motor");
  model.machine.constraint_actions.push_back(
      {"D_along",
       model.mechanism.find_joint("D"),
       AlongPoints{{planar::BodyPoint{3, Vec2(0, 0)}, planar::BodyPoint{3, Vec2(3, 0)}}},
       {}});
  const planar::Mechanism m = planar::compile(model.mechanism);
  const DynamicSystem system(m, model.machine);
  SimulationOptions o;
  o.t_end = 0.6;
  o.steps = 12;
  o.rel_tol = 1e-12, o.abs_tol = 1e-12;
  o.method = Method::full;
  const SimulationResult full = simulate(system, o);
  o.method = Method::reduced;
  o.table_points = 2880;
  const SimulationResult red = simulate(system, o);
  const auto& acts = system.machine.actuators;
  ASSERT_EQ(acts.size(), 2u);
  ASSERT_EQ(acts[0].name, "motor");
  ASSERT_EQ(acts[1].name, "brake");
  planar::Workspace ws(*system.mechanism);
  for (Eigen::Index r = 1; r < full.rows(); ++r) {
    ws.q[0] = full.q(r, 0), ws.qd[0] = full.qd(r, 0), ws.qdd[0] = full.qdd(r, 0);
    ASSERT_TRUE(planar::solve_kinematics(*system.mechanism, ws).ok());
    planar::evaluate_loads(*system.mechanism, ws, full.t(r));
    ws.applied[1](2) += full.effort(r, 0);
    ws.applied[3](2) += full.effort(r, 1);
    for (auto& w : ws.friction_load) w.setZero();
    planar::solve_reactions(*system.mechanism, ws);
    const double action = full.constraint_action(r, 0), scale = std::abs(action) + 1.0;
    EXPECT_NEAR(ws.effort[0], 0.0, 1e-8 * (std::abs(full.effort(r, 0)) + 1.0));
    EXPECT_NEAR(constraint_action(*system.mechanism, ws, system.machine.constraint_actions[0]), action, 1e-8 * scale);
    EXPECT_NEAR(red.constraint_action(r, 0), action, 1e-4 * scale);
  }
}

TEST(DirectDynamics, SteadyRegimeRepeatsAndBalancesItsEnergy) {
  const io::Model model = data_model("fourbar-motor");
  const planar::Mechanism m = planar::compile(model.mechanism);
  const DynamicSystem system(m, model.machine);
  SimulationOptions o;
  o.rel_tol = 1e-11, o.abs_tol = 1e-11;
  const SteadyRegime s = steady_regime(system, o, 10.0);
  EXPECT_GT(s.mean_speed, 0.0);
  EXPECT_GT(s.fluctuation, 0.0);
  // One more turn from the steady state comes back to it.
  o.qd0 = s.qd0;
  o.stop_q = 2 * M_PI;
  o.t_end = 10.0;
  o.steps = 1;
  const SimulationResult r = simulate(system, o);
  EXPECT_NEAR(r.final_state[1], s.qd0, 1e-8 * s.qd0);
  // Kinetic energy returns: the motor's work equals what the brake takes (to the periodicity
  // reached, about 1e-8 in speed, on a kinetic energy 60 times the work per turn).
  ASSERT_EQ(s.actuator_work.size(), 2u);
  EXPECT_GT(s.actuator_work[0], 0.0);
  EXPECT_NEAR(s.actuator_work[0] + s.actuator_work[1], 0.0, 1e-5 * s.actuator_work[0]);
  // The constant torque that gives a mean speed of 12 rad/s, checked by its own steady regime.
  const double scale = solve_actuator_for_mean_speed(system, o, {0}, 12.0, 12.0).scale;
  SimulationOptions o2;
  o2.rel_tol = 1e-11, o2.abs_tol = 1e-11;
  o2.actuator_scale = {scale, 1.0};
  EXPECT_NEAR(steady_regime(system, o2, 12.0).mean_speed, 12.0, 1e-5 * 12.0);
}

TEST(DirectDynamics, SteadyRegimeOfAMachineWithoutResistanceIsRefused) {
  // A constant torque and nothing to balance it: the crank speeds up every turn, there is no
  // periodic regime, and the search says so (AnalysisError) instead of printing its last guess.
  io::Model model = data_model("fourbar-motor");
  model.machine.actuators.erase(model.machine.actuators.begin() + model.machine.find_actuator("brake"));
  const DynamicSystem system(planar::compile(model.mechanism), model.machine);
  SimulationOptions o;
  o.friction = false;
  try {
    (void)steady_regime(system, o, 10.0);
    ADD_FAILURE() << "a steady regime was reported";
  } catch (const AnalysisError& e) {
    EXPECT_NE(std::string(e.what()).find("no steady regime"), std::string::npos) << e.what();
  }
}

TEST(DirectDynamics, SteadySearchWhoseWorkPerCycleCannotBalanceEndsWithTheReason) {
  // A constant torque of 100 N m on [001]'s four-bar with nothing to resist it: Newton's test on
  // the speed is relative, and at 10^5 rad/s the 628 J gained per turn are small against the
  // kinetic energy, so the search stopped there and reported a period of 8e-5 s. Over a
  // period the energy must come back: the work per cycle (2 pi T) cannot balance.
  const DynamicSystem system = io::load_machine(std::string(LINKDYN_TEST_DATA_DIR) + "/fourbar-free-torque.yaml");
  try {
    const SteadyRegime s = steady_regime(system, SimulationOptions{}, 10.0);
    ADD_FAILURE() << "a steady regime was reported at " << s.mean_speed << " rad/s";
  } catch (const AnalysisError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the work per cycle cannot balance"), std::string::npos) << what;
    EXPECT_NE(what.find("628.319 J per cycle"), std::string::npos) << what;  // 2 pi 100 N m
  }
}

TEST(DirectDynamics, AutomaticMethodIsTheReducedOneWhereItTabulatesAndKanesWithANoteWhereNot) {
  // The scissor lift tabulates (one DOF): the automatic method is the reduced one, no note.
  const DynamicSystem lift = io::load_machine(std::string(LINKDYN_TEST_DATA_DIR) + "/scissor-lift.yaml");
  SimulationOptions o;
  o.method = Method::automatic;
  o.q0 = 0.5, o.qd0 = 0.0, o.t_end = 0.5, o.steps = 10;
  std::string note;
  EXPECT_EQ(resolve_method(lift, o, note), Method::reduced);
  EXPECT_TRUE(note.empty()) << note;
  // A triple rocker whose driver's law sweeps a turn it cannot make: the reduced method cannot
  // tabulate it (TabulationError, when asked for); the automatic method runs Kane's, says why,
  // and gives Kane's motion bit for bit.
  const DynamicSystem rocker = io::load_machine(std::string(LINKDYN_TEST_DATA_DIR) + "/triple-rocker-spring.yaml");
  o.q0 = 40.0 * M_PI / 180.0, o.qd0 = 0.0, o.t_end = 3.0, o.steps = 30;
  o.method = Method::reduced;
  EXPECT_THROW((void)simulate(rocker, o), TabulationError);
  o.method = Method::automatic;
  const SimulationResult automatic = simulate(rocker, o);
  o.method = Method::kane;
  const SimulationResult kane = simulate(rocker, o);
  ASSERT_FALSE(automatic.stopped || kane.stopped) << automatic.stop_message << kane.stop_message;
  EXPECT_EQ(automatic.method, Method::kane);
  EXPECT_NE(automatic.method_note.find("cannot tabulate"), std::string::npos) << automatic.method_note;
  EXPECT_NE(automatic.method_note.find("does not assemble"), std::string::npos) << automatic.method_note;
  EXPECT_TRUE(kane.method_note.empty());
  EXPECT_EQ(test::largest_difference(automatic.q, kane.q), 0.0);
  // It swings through the spring's free angle and back, within its range (|q| < 97.9 deg).
  EXPECT_LT(automatic.q.minCoeff(), -0.5);
  EXPECT_LT(automatic.q.cwiseAbs().maxCoeff(), 97.0 * M_PI / 180.0);
}

TEST(DirectDynamics, AFlywheelTrialEqualsTheMachineCompiledWithItsInertia) {
  // with_body_inertia changes one inertia of the compiled machine (the structure shared): the
  // same bodies, bit for bit, and the same motion as the machine compiled with that inertia.
  const io::Model model = io::read_model(test::example("seed003-dwell"));
  const planar::Mechanism m = planar::compile(model.mechanism);
  const int crank = m.spec().find_body("crank");
  const DynamicSystem system(m, model.machine);
  const double inertia = m.bodies()[crank].inertia + 0.0123;
  const DynamicSystem trial = with_body_inertia(system, crank, inertia);
  planar::MechanismSpec spec = m.spec();
  spec.bodies[crank].inertia = inertia;
  const DynamicSystem compiled(planar::compile(spec), model.machine);
  for (size_t b = 0; b < m.bodies().size(); ++b)
    EXPECT_EQ(trial.mechanism->bodies()[b].inertia, compiled.mechanism->bodies()[b].inertia) << b;
  EXPECT_NE(trial.mechanism->bodies()[crank].inertia, system.mechanism->bodies()[crank].inertia);
  EXPECT_EQ(trial.mechanism->groups().front(), system.mechanism->groups().front());
  for (Method method : {Method::reduced, Method::full}) {
    SimulationOptions o;
    o.method = method;
    o.t_end = 0.2, o.steps = 20;
    const SimulationResult a = simulate(trial, o), b = simulate(compiled, o);
    EXPECT_EQ(a.qd, b.qd);
    EXPECT_EQ(a.current, b.current);
  }
  EXPECT_THROW(with_body_inertia(system, crank, -1.0), InputError);
}

TEST(DirectDynamics, FlywheelSearchRefusesWhatNoInertiaCanDo) {
  // A fluctuation below what the integration resolves is refused up front (bad input, naming the
  // flywheel); a body that only translates (the press's ram) adds no reduced inertia, and the
  // search says so instead of growing it without bound.
  const io::Model fourbar = data_model("fourbar-motor");
  SimulationOptions o;
  o.rel_tol = 1e-10, o.abs_tol = 1e-12;
  EXPECT_THROW((void)flywheel_for_fluctuation(planar::compile(fourbar.mechanism), fourbar.machine, o, 1, 1e-9, 10.0),
               InputError);
  const io::Model press = io::read_model(test::example("toggle-press"));
  const planar::Mechanism m = planar::compile(press.mechanism);
  o.friction = false;
  try {
    (void)flywheel_for_fluctuation(m, press.machine, o, press.mechanism.find_body("ram"), 1e-4, 10.0);
    ADD_FAILURE() << "a flywheel was reported";
  } catch (const AnalysisError& e) {
    EXPECT_NE(std::string(e.what()).find("does not fall as the body gains inertia"), std::string::npos) << e.what();
  }
}

TEST(DirectDynamics, FinalStateIsTheStateAtTheEndTime) {
  // t_end off any natural step: the run ends exactly there and final_state is the last row.
  const io::Model model = data_model("fourbar-motor");
  const DynamicSystem system(planar::compile(model.mechanism), model.machine);
  for (Integrator scheme : {Integrator::rkf78, Integrator::dopri5}) {
    SimulationOptions o;
    o.integrator = scheme;
    o.qd0 = 10.0;
    o.t_end = 0.3701;
    o.steps = 7;
    const SimulationResult r = simulate(system, o);
    ASSERT_FALSE(r.stopped);
    EXPECT_EQ(r.t_final, o.t_end);
    const Eigen::Index last = r.rows() - 1;
    EXPECT_EQ(r.t(last), o.t_end);
    EXPECT_EQ(r.final_state[0], r.q(last, 0));   // crank angle
    EXPECT_EQ(r.final_state[1], r.qd(last, 0));  // crank speed
  }
}

TEST(DirectDynamics, OptionsOutOfRangeAreInputErrorsNamingTheSimulation) {
  // What the command line's option checks refuse, the library refuses too (for scripts and the
  // Python package): tolerances, the reduced table's size and tolerance, currents and scales.
  const io::Model model = data_model("fourbar-motor");
  const DynamicSystem system(planar::compile(model.mechanism), model.machine);
  const std::vector<std::function<void(SimulationOptions&)>> bad{[](SimulationOptions& o) { o.rel_tol = -1e-10; },
                                                                 [](SimulationOptions& o) { o.abs_tol = 0.0; },
                                                                 [](SimulationOptions& o) { o.table_points = -3; },
                                                                 [](SimulationOptions& o) { o.table_tolerance = -1.0; },
                                                                 [](SimulationOptions& o) {
                                                                   o.current0 = {1.0, 2.0, 3.0};
                                                                 },
                                                                 [](SimulationOptions& o) { o.actuator_scale = {1.0}; },
                                                                 [](SimulationOptions& o) { o.t_end = o.t0; }};
  for (const auto& change : bad) {
    SimulationOptions o;
    change(o);
    try {
      (void)simulate(system, o);
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.entity(), "simulation") << e.what();
    }
  }
}

TEST(DirectDynamics, ALoadTablesRowsCrossedAreNotSwitchingEventsButAreHeldToTheStepBudget) {
  // A 10^6-row load table once stopped the run as "the model chatters": every row crossed is
  // an event, now counted against the step budget (checked up front), not the chatter limit.
  io::Model model = io::read_model(test::example("fourbar-table"));
  planar::LoadTable& table = *model.mechanism.loads.at(0).table;
  ASSERT_EQ(table.x.size(), 41u);
  const planar::Mechanism m = planar::compile(model.mechanism);
  const DynamicSystem system(m, model.machine);
  SimulationOptions o;
  o.t_end = 1.0;
  o.steps = 20;
  o.max_events = 5;
  const SimulationResult r = simulate(system, o);
  EXPECT_GT(r.events, 5) << "rows crossed";
  o.max_integrator_steps = 40;
  try {
    (void)simulate(system, o);
    ADD_FAILURE() << "a table of more rows than the step budget";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().line, table.where.line) << e.what();
    EXPECT_NE(std::string(e.what()).find("41 rows, each an event the integrator stops at when the run crosses it: "
                                         "more than the budget of 40 integrator steps"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("raise --max-integrator-steps"), std::string::npos) << e.what();
  }
}
