// Coupled elastodynamics: elastic links whose deformation acts on the machine's motion, by
// Kane's equations with the links' modal coordinates (flex/coupled.hpp).
#include <gtest/gtest.h>

#include <cmath>

#include "linkdyn/dynamics/simulate.hpp"
#include "linkdyn/flex/link.hpp"
#include "linkdyn/io/model_file.hpp"
#include "test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::dynamics;

namespace {

std::string data(const std::string& name) { return std::string(LINKDYN_TEST_DATA_DIR) + "/" + name + ".yaml"; }

/// The model's machine with its elastic links coupled on `modes` modes (-1: rigid).
DynamicSystem coupled(const io::Model& model, int modes) {
  DynamicSystem system(planar::compile(model.mechanism), model.machine);
  if (modes >= 0) couple_elastic_links(system, model.elastic_links, modes);
  return system;
}

SimulationOptions kane(double t_end, int steps) {
  SimulationOptions o;
  o.method = Method::kane;
  o.t_end = t_end;
  o.steps = steps;
  o.kinematics = false;
  return o;
}

}  // namespace

TEST(CoupledElastic, AFreeRunningMachineWithTwoUndampedElasticLinksKeepsItsEnergyTo1e9) {
  // The four-bar of tests/data with its coupler and rocker elastic, no actuator, no friction,
  // no damping, no geometric stiffness: set turning at 1500 rpm undeformed, its links vibrate
  // (mm) and exchange energy with the motion, whose total T + V stays constant.
  io::Model model = io::read_model(data("fourbar-two-elastic"));
  model.machine.actuators.clear();
  for (flex::ElasticLinkSpec& link : model.elastic_links) link.geometric_stiffness = false;
  const DynamicSystem system = coupled(model, 4);
  SimulationOptions o = kane(0.1, 200);
  o.rel_tol = 1e-11, o.abs_tol = 1e-13;
  const SimulationResult r = simulate(system, o);
  ASSERT_FALSE(r.stopped) << r.stop_message;
  const Eigen::VectorXd total = r.energy.kinetic + r.energy.potential;
  const double drift = (total.array() - total(0)).abs().maxCoeff();
  std::printf("energy %.6g J, largest drift %.3g J\n", total(0), drift);
  EXPECT_LT(drift, 1e-9 * total(0));
  // Not trivially: the links deflect and the speed changes.
  EXPECT_GT(r.elastic[0].node_w.cwiseAbs().maxCoeff(), 1e-4);
  EXPECT_GT(r.elastic[1].node_w.cwiseAbs().maxCoeff(), 1e-5);
  EXPECT_GT(r.qd.col(0).maxCoeff() - r.qd.col(0).minCoeff(), 10.0);
}

TEST(CoupledElastic, TheEnergyBalanceOfAMotorDrivenMachineClosesWithDampingFrictionAndGeometricStiffness) {
  // The 3200 rpm slider-crank (DC motor, pair friction, 2 % damping, geometric stiffness): the
  // motor's work = friction + damping losses + change of T + V - the geometric stiffness's work,
  // to 1e-9 of the work, with each term substantial.
  const io::Model model = io::read_model(test::example("fast-slider-crank-elastic"));
  const DynamicSystem system = coupled(model, 4);
  const SimulationResult r = simulate(system, kane(0.1, 100));
  ASSERT_FALSE(r.stopped) << r.stop_message;
  std::printf("work %.6g J, damping %.3g J, geometric %.3g J, residual %.3g J\n", r.actuator_work[0],
              r.elastic_damping_loss, r.geometric_work, r.energy_residual);
  EXPECT_LT(std::abs(r.energy_residual), 1e-9 * r.actuator_work[0]);
  EXPECT_GT(r.elastic_damping_loss, 1e-4 * r.actuator_work[0]);
  EXPECT_GT(std::abs(r.geometric_work), 1e-7 * r.actuator_work[0]);
}

TEST(CoupledElastic, AStifferLinkConvergesToTheRigidMotionAsOneOverE) {
  // The slider-crank's crank speed with the rod's E x1, x100, x10^4 against the rigid rod: the
  // difference falls as 1/E (the deflection does).
  io::Model model = io::read_model(test::example("fast-slider-crank-elastic"));
  SimulationOptions o = kane(0.05, 50);
  o.friction = false;
  const SimulationResult rigid = simulate(coupled(model, -1), o);
  std::vector<double> difference;
  for (const double scale : {1.0, 100.0, 10000.0}) {
    io::Model stiff = model;
    stiff.elastic_links[0].E *= scale;
    const SimulationResult r = simulate(coupled(stiff, 4), o);
    ASSERT_FALSE(r.stopped) << r.stop_message;
    difference.push_back(test::largest_difference(r.qd, rigid.qd));
  }
  std::printf("crank speed against the rigid rod: %.3g, %.3g, %.3g rad/s\n", difference[0], difference[1],
              difference[2]);
  EXPECT_GT(difference[0], 1e-3);
  for (int k : {1, 2}) {
    EXPECT_GT(difference[k], difference[k - 1] / 200.0);
    EXPECT_LT(difference[k], difference[k - 1] / 50.0);
  }
}

TEST(CoupledElastic, UnderANearlyUniformMotionTheDeflectionMatchesThePrescribedMotionNewmarkResponse) {
  // The slider-crank's rod (pinned at both ends, no geometric stiffness) turned by a crank of
  // 10^4 kg m^2 at 3200 rpm, from rest: the coupled simulation on every dof of the beam against
  // the prescribed-motion response (Newmark, average acceleration, on the rigid motion) of the
  // same beam over one cycle.
  io::Model model = io::read_model(test::example("fast-slider-crank-elastic"));
  model.machine.actuators.clear();
  model.mechanism.bodies[1].inertia = 1e4;
  for (planar::Joint& joint : model.mechanism.joints) joint.friction = joint.static_friction = 0.0;
  flex::ElasticLinkSpec& rod = model.elastic_links[0];
  rod.supports = {flex::BeamSupport::pinned, flex::BeamSupport::pinned};
  rod.geometric_stiffness = false;
  rod.elements = 4;
  const double period = 60.0 / 3200.0;
  SimulationOptions o = kane(period, 72);
  o.qd0 = 3200.0 * 2.0 * M_PI / 60.0;
  o.rel_tol = 1e-11, o.abs_tol = 1e-14;
  const SimulationResult coupled_run = simulate(coupled(model, 0), o);
  ASSERT_FALSE(coupled_run.stopped) << coupled_run.stop_message;

  const planar::Mechanism m = planar::compile(model.mechanism);
  const std::vector<flex::ElasticLink> links = flex::make_elastic_links(m, model.elastic_links);
  flex::ResponseOptions ro;
  ro.periodic = false;
  ro.substeps = 400;
  const flex::LinkResponse newmark = flex::link_response(m, links[0], {0.0, period, 72}, ro);
  const double peak = newmark.mid_w.cwiseAbs().maxCoeff();
  const double difference = test::largest_difference(coupled_run.elastic[0].mid_w, newmark.mid_w);
  std::printf("mid-span deflection: peak %.4g m, coupled - Newmark %.3g m\n", peak, difference);
  EXPECT_GT(peak, 1e-5);
  EXPECT_LT(difference, 1e-5 * peak);
}

TEST(CoupledElastic, AHeldArmReleasedUnderItsWeightVibratesAtTheDampedFrequencyAndSettlesAtQL4Over8EI) {
  // tests/data/elastic-arm-brake.yaml: a 0.5 m, 10 x 10 mm steel cantilever arm held by a brake,
  // released undeformed, 5 % damping. On its first mode alone the tip follows the closed form
  // w(t) = w_s [1 - e^(-zeta omega t) (cos omega_d t + zeta omega / omega_d sin omega_d t)]
  // (1e-9 of w_s); on six modes it settles at the cantilever's q L^4 / (8 E I) (1e-4).
  const io::Model model = io::read_model(data("elastic-arm-brake"));
  const DynamicSystem one = coupled(model, 1);
  const flex::ModalLink& link = one.elastic.front();
  const double omega = std::sqrt(link.frequency_squared(0)),
               zeta = link.beam.damping_alpha / (2.0 * omega) + link.beam.damping_beta * omega / 2.0;
  EXPECT_NEAR(zeta, 0.05, 1e-12);
  EXPECT_NEAR(omega / (2.0 * M_PI),
              1.875104068711961 * 1.875104068711961 / (2.0 * M_PI) *
                  std::sqrt(210e9 * 1e-8 / 12.0 / (7850 * 1e-4 * std::pow(0.5, 4))),
              2e-4 * omega);  // 8 elements: within 1e-4 of the continuous beam's
  const SimulationResult r = simulate(one, kane(0.2, 400));
  ASSERT_FALSE(r.stopped) << r.stop_message;
  const int tip = 8;
  const double w_static = link.shapes(link.beam.reduced_of[3 * tip + 1], 0) *
                          link.translation.row(0).dot(Eigen::Vector2d(0.0, -9.81)) / (omega * omega),
               omega_d = omega * std::sqrt(1.0 - zeta * zeta);
  double worst = 0.0;
  for (Eigen::Index k = 0; k < r.rows(); ++k) {
    const double t = r.t(k), decay = std::exp(-zeta * omega * t);
    const double expected =
        w_static * (1.0 - decay * (std::cos(omega_d * t) + zeta * omega / omega_d * std::sin(omega_d * t)));
    worst = std::max(worst, std::abs(r.elastic[0].node_w(k, tip) - expected));
  }
  std::printf("first mode: w_s %.6g m, largest error %.3g m\n", w_static, worst);
  EXPECT_LT(worst, 1e-9 * std::abs(w_static));
  EXPECT_EQ(r.stuck.minCoeff(), 1);  // the brake held the arm throughout

  SimulationOptions settle = kane(2.0, 20);
  const SimulationResult s = simulate(coupled(model, 6), settle);
  ASSERT_FALSE(s.stopped) << s.stop_message;
  const double q = 7850 * 1e-4 * 9.81, EI = 210e9 * 1e-8 / 12.0;
  EXPECT_NEAR(s.elastic[0].node_w(s.rows() - 1, tip), -q * std::pow(0.5, 4) / (8.0 * EI),
              1e-4 * q * std::pow(0.5, 4) / (8.0 * EI));
}

TEST(CoupledElastic, KanesEquationsAndTheFullConstrainedModelGiveTheSameCoupledMotion) {
  // Two assemblies of the same equations: Kane's in the drivers' coordinates (the links' frames
  // from the partial velocities) and the full model in body coordinates with the pairs'
  // multipliers (the frames from the bodies' accelerations): the four-bar with two elastic
  // links, and the slider-crank with friction in its pairs (its reactions carry the rod's
  // deformation), agree to 1e-7 in speed and deflection.
  for (const std::string& path : {data("fourbar-two-elastic"), test::example("fast-slider-crank-elastic")}) {
    SCOPED_TRACE(path);
    const DynamicSystem system = coupled(io::read_model(path), 4);
    SimulationOptions o = kane(0.05, 50);
    o.rel_tol = 1e-11, o.abs_tol = 1e-13;
    const SimulationResult by_kane = simulate(system, o);
    o.method = Method::full;
    const SimulationResult by_full = simulate(system, o);
    ASSERT_FALSE(by_kane.stopped || by_full.stopped) << by_kane.stop_message << by_full.stop_message;
    EXPECT_LT(test::largest_difference(by_kane.qd, by_full.qd), 1e-7 * by_kane.qd.cwiseAbs().maxCoeff());
    for (size_t l = 0; l < by_kane.elastic.size(); ++l)
      EXPECT_LT(test::largest_difference(by_kane.elastic[l].node_w, by_full.elastic[l].node_w),
                1e-7 * by_kane.elastic[l].node_w.cwiseAbs().maxCoeff());
  }
}

TEST(CoupledElastic, TheReducedMethodRefusesCoupledLinksAndAFreeEndWithAPairIsRefused) {
  const io::Model model = io::read_model(test::example("fast-slider-crank-elastic"));
  const DynamicSystem system = coupled(model, 4);
  SimulationOptions o = kane(0.01, 10);
  o.method = Method::reduced;
  EXPECT_THROW((void)simulate(system, o), InputError);
  io::Model free_end = model;
  free_end.elastic_links[0].supports = {flex::BeamSupport::clamped, flex::BeamSupport::free};
  try {
    (void)coupled(free_end, 4);
    FAIL() << "a free end that carries a pair was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("free but carries a pair"), std::string::npos) << e.what();
  }
}

TEST(CoupledElastic, ALinkThatDeflectsBeyondTenPercentOfItsLengthStopsTheRunNamingIt) {
  // The slider-crank's rod a thousand times softer (E = 0.21 GPa): at 3200 rpm it bends by
  // centimetres within 5 ms; the run stops there (AnalysisError, exit code 3 on the command line)
  // with the rows so far, naming the link and the bound, instead of integrating a meaningless
  // large deflection.
  io::Model model = io::read_model(test::example("fast-slider-crank-elastic"));
  model.elastic_links[0].E /= 1000.0;
  const SimulationResult r = simulate(coupled(model, 4), kane(0.1, 100));
  ASSERT_TRUE(r.stopped);
  EXPECT_EQ(r.stop_exit_code, AnalysisError::exit_code);
  EXPECT_NE(r.stop_message.find("elastic link 'rod' deflects by up to"), std::string::npos) << r.stop_message;
  EXPECT_NE(r.stop_message.find("more than 10 % of its 0.25 m length"), std::string::npos) << r.stop_message;
  EXPECT_LT(r.t_final, 0.02);
  EXPECT_GT(r.rows(), 1);
}
