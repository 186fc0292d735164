// Serial-chain dynamics: the trace forms of [002] against the recursive algorithms, the mass
// matrix against the kinetic energy, the articulated-body algorithm against CRBA + Cholesky,
// closed forms for a two-link arm and for joint friction, energy conservation in simulation.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "linkdyn/spatial/dynamics.hpp"
#include "linkdyn/spatial/kinematics.hpp"
#include "linkdyn/spatial/simulate.hpp"
#include "linkdyn/spatial/trace_dynamics.hpp"
#include "spatial/spatial_test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::spatial;
using linkdyn::test::frictionless;
using linkdyn::test::random_vector;
using linkdyn::test::rel_diff;
using linkdyn::test::robot;

class EveryRobot : public ::testing::TestWithParam<std::string> {};
INSTANTIATE_TEST_SUITE_P(Examples, EveryRobot, ::testing::ValuesIn(linkdyn::test::robot_files()),
                         linkdyn::test::robot_test_name);

TEST_P(EveryRobot, TraceMassMatrixEqualsCompositeRigidBodyAlgorithm) {
  const Chain c = robot(GetParam());
  ChainData d(c);
  for (unsigned s = 0; s < 5; ++s) {
    const Eigen::VectorXd q = random_vector(c.dof, 2.0, s);
    const Eigen::MatrixXd trace = mass_matrix_trace(c, d, q);  // [002 Eq. 94]
    EXPECT_LT(rel_diff(mass_matrix(c, d, q), trace), 1e-13);
  }
}

TEST_P(EveryRobot, MassMatrixIsTheHessianOfTheKineticEnergy) {
  // T = 1/2 qd^T M qd is a quadratic form: T(e_i + e_j) - T(e_i) - T(e_j) = M_ij exactly.
  const Chain c = robot(GetParam());
  ChainData d(c);
  const Eigen::VectorXd q = random_vector(c.dof, 2.0, 11);
  const Eigen::MatrixXd M = mass_matrix(c, d, q);
  EXPECT_LT(rel_diff(linkdyn::test::kinetic_energy_hessian(c, d, q), M), 1e-13);
}

TEST_P(EveryRobot, NewtonEulerEqualsTraceFormsWithGravityAndLoad) {
  // tau = M qdd + V + Q_g - J^T w [002 Eqs. 94, 96, 125, 132] against the recursion.
  ChainSpec spec = io::read_chain_file(std::string(LINKDYN_EXAMPLES_DIR) + "/robots/" + GetParam());
  for (bool base : {false, true}) {
    spec.load = {Vec3(3.0, -2.0, 5.0), Vec3(0.4, 0.1, -0.3), base};
    const Chain c = build_chain(spec);
    ChainData d(c);
    for (unsigned s = 0; s < 3; ++s) {
      const Eigen::VectorXd q = random_vector(c.dof, 2.0, s), qd = random_vector(c.dof, 3.0, s + 10),
                            qdd = random_vector(c.dof, 5.0, s + 20);
      const Eigen::VectorXd trace = inverse_dynamics_trace(c, d, q, qd, qdd);
      EXPECT_LT(rel_diff(inverse_dynamics(c, d, q, qd, qdd, frictionless()), trace), 1e-12) << "seed " << s;
    }
  }
}

TEST_P(EveryRobot, GravityForcesAreTheGradientOfThePotentialEnergy) {
  const Chain c = robot(GetParam());
  ChainData d(c);
  const Eigen::VectorXd q = random_vector(c.dof, 2.0, 5);
  const Eigen::VectorXd Qg = gravity_forces_jacobian(c, d, q);  // [002 Eq. 125]
  Terms only_gravity = frictionless();
  only_gravity.load = false;
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(c.dof);
  EXPECT_LT(rel_diff(inverse_dynamics(c, d, q, zero, zero, only_gravity), Qg), 1e-13);
  // dV/dq by a fourth-order central difference (h = 1e-3: truncation ~ h^4 ~ 1e-12).
  const double h = 1e-3;
  Eigen::VectorXd grad(c.dof);
  for (int i = 0; i < c.dof; ++i) {
    auto V = [&](double dx) {
      Eigen::VectorXd x = q;
      x(i) += dx;
      return potential_energy(c, d, x);
    };
    grad(i) = (8 * (V(h) - V(-h)) - (V(2 * h) - V(-2 * h))) / (12 * h);
  }
  EXPECT_LT(rel_diff(grad, Qg), 1e-9);
}

TEST_P(EveryRobot, ArticulatedBodyEqualsCholeskySolveAndInvertsInverseDynamics) {
  const Chain c = robot(GetParam());
  ChainData d(c);
  for (unsigned s = 0; s < 3; ++s) {
    const Eigen::VectorXd q = random_vector(c.dof, 2.0, s), qd = random_vector(c.dof, 3.0, s + 1),
                          tau = random_vector(c.dof, 20.0, s + 2);
    const Eigen::VectorXd aba = forward_dynamics(c, d, q, qd, tau, ForwardMethod::articulated_body, frictionless());
    const Eigen::VectorXd crba =
        forward_dynamics(c, d, q, qd, tau, ForwardMethod::mass_matrix_cholesky, frictionless());
    EXPECT_LT(rel_diff(aba, crba), 1e-10);
    EXPECT_LT(rel_diff(inverse_dynamics(c, d, q, qd, aba, frictionless()), tau), 1e-10);
  }
}

TEST_P(EveryRobot, ForwardDynamicsWithLoadDependentFrictionInvertsInverseDynamics) {
  ChainSpec spec = io::read_chain_file(std::string(LINKDYN_EXAMPLES_DIR) + "/robots/" + GetParam());
  for (ChainJoint& j : spec.joints) j.friction = {0.3, 0.05, 0.03};
  const Chain c = build_chain(spec);
  ChainData d(c);
  const Eigen::VectorXd q = random_vector(c.dof, 2.0, 3), qd = random_vector(c.dof, 2.0, 4),
                        tau = random_vector(c.dof, 20.0, 5);
  for (ForwardMethod m : {ForwardMethod::articulated_body, ForwardMethod::mass_matrix_cholesky}) {
    const Eigen::VectorXd qdd = forward_dynamics(c, d, q, qd, tau, m);
    EXPECT_LT(rel_diff(inverse_dynamics(c, d, q, qd, qdd), tau), 1e-10);
  }
}

TEST(ChainDynamics, TwoLinkPlanarArmMatchesClosedForm) {
  // Links of length l1, l2, masses m1, m2 at lc1, lc2, inertias I1, I2 about their centres;
  // gravity -y, axes z. Textbook closed form (e.g. Spong et al. 2006, Sect. 7.3).
  const double l1 = 0.7, lc1 = 0.3, lc2 = 0.25, m1 = 3.0, m2 = 2.0, I1 = 0.12, I2 = 0.05, g = 9.81;
  ChainSpec spec;
  spec.name = "two-link";
  spec.gravity = Vec3(0, -g, 0);
  ChainJoint j1, j2;
  j1.name = "j1";
  j2.name = "j2";
  j2.placement.p = Vec3(l1, 0, 0);
  spec.joints = {j1, j2};
  spec.links = {{"l1", {m1, Vec3(lc1, 0, 0), Vec3(I1, I1, I1).asDiagonal()}},
                {"l2", {m2, Vec3(lc2, 0, 0), Vec3(I2, I2, I2).asDiagonal()}}};
  const Chain c = build_chain(spec);
  ChainData d(c);
  const Eigen::Vector2d q(0.4, -1.1), qd(1.3, -0.7), qdd(2.0, 0.5);
  const double c2 = std::cos(q(1)), s2 = std::sin(q(1));
  Eigen::Matrix2d M;
  M(0, 0) = m1 * lc1 * lc1 + m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * c2) + I1 + I2;
  M(0, 1) = M(1, 0) = m2 * (lc2 * lc2 + l1 * lc2 * c2) + I2;
  M(1, 1) = m2 * lc2 * lc2 + I2;
  const double hh = -m2 * l1 * lc2 * s2;
  const Eigen::Vector2d C(hh * (2 * qd(0) * qd(1) + qd(1) * qd(1)), -hh * qd(0) * qd(0));
  const Eigen::Vector2d G((m1 * lc1 + m2 * l1) * g * std::cos(q(0)) + m2 * lc2 * g * std::cos(q(0) + q(1)),
                          m2 * lc2 * g * std::cos(q(0) + q(1)));
  EXPECT_LT(rel_diff(mass_matrix(c, d, q), M), 1e-15);
  EXPECT_LT(rel_diff(mass_matrix_trace(c, d, q), M), 1e-15);
  const Eigen::Vector2d tau = M * qdd + C + G;
  EXPECT_LT(rel_diff(inverse_dynamics(c, d, q, qd, qdd), tau), 1e-14);
  EXPECT_LT(rel_diff(inverse_dynamics_trace(c, d, q, qd, qdd), tau), 1e-14);
}

TEST(ChainDynamics, JointFrictionMatchesClosedFormOfThePinLoad) {
  // One link, a point mass m at r on x, spinning at w about z with gravity -y: the pin carries
  // f = (-m w^2 r, m g, 0) at q = 0, so Q_fd = b w + mu d/2 |k x f| sgn(w) [002 Eq. 157]; a
  // prismatic joint along x with the same mass carries the normal force m g: mu m g sgn(v).
  const double m = 2.5, r = 0.4, w = 3.0, g = 9.81, b = 0.2, mu = 0.15, dia = 0.03;
  ChainSpec spec;
  spec.gravity = Vec3(0, -g, 0);
  ChainJoint j;
  j.name = "pin";
  j.friction = {b, mu, dia};
  spec.joints = {j};
  spec.links = {{"arm", {m, Vec3(r, 0, 0), Mat3::Zero()}}};
  Chain c = build_chain(spec);
  ChainData d(c);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(1), qd = Eigen::VectorXd::Constant(1, w), qdd = Eigen::VectorXd::Zero(1);
  inverse_dynamics(c, d, q, qd, qdd);
  const double normal = std::hypot(m * w * w * r, m * g);
  EXPECT_NEAR(d.friction(0), b * w + mu * dia / 2 * normal, 1e-13);
  EXPECT_NEAR(d.tau(0), m * g * r + d.friction(0), 1e-12);  // gravity torque + friction
  qd(0) = 0.0;                                              // at rest: no dry friction (documented: no stiction model)
  inverse_dynamics(c, d, q, qd, qdd);
  EXPECT_NEAR(d.friction(0), 0.0, 0.0);

  spec.joints[0].type = JointType::prismatic;
  spec.joints[0].axis = Vec3::UnitX();
  spec.joints[0].friction = {b, mu, 0.0};
  c = build_chain(spec);
  ChainData dp(c);
  qd(0) = -0.5;
  inverse_dynamics(c, dp, q, qd, qdd);
  EXPECT_NEAR(dp.friction(0), -b * 0.5 - mu * m * g, 1e-13);
}

TEST(ChainDynamics, FreeFrictionlessSimulationConservesEnergy) {
  // No gravity, no load, no friction: the kinetic energy is a constant of the motion.
  ChainSpec spec = io::read_chain_file(std::string(LINKDYN_EXAMPLES_DIR) + "/robots/iiwa14.urdf");
  spec.gravity.setZero();
  const Chain c = build_chain(spec);
  ChainData d(c);
  ChainSimulationOptions o;
  o.t_end = 2.0;
  o.steps = 200;
  o.abs_tol = o.rel_tol = 1e-12;
  o.terms.friction = false;
  const Eigen::VectorXd q0 = random_vector(c.dof, 1.5, 7), qd0 = random_vector(c.dof, 1.5, 8);
  const auto res = simulate_chain(c, d, q0, qd0, Eigen::VectorXd::Zero(c.dof), o);
  const double T0 = res.kinetic_energy(0);
  const double worst = (res.kinetic_energy.array() - T0).abs().maxCoeff() / T0;
  EXPECT_LT(worst, 1e-9);
  // With gravity and damping-free joints, kinetic plus potential energy is conserved too.
  const Chain cg = robot("iiwa14.urdf");
  ChainData dg(cg);
  const auto rg = simulate_chain(cg, dg, q0, qd0, Eigen::VectorXd::Zero(cg.dof), o);
  const Eigen::ArrayXd E = rg.potential_energy.array() + rg.kinetic_energy.array();
  const double E0 = E(0);
  const double worst_g = (E - E0).abs().maxCoeff();
  EXPECT_LT(worst_g / std::abs(E0), 1e-9);
}

TEST_P(EveryRobot, DifferentialMatricesAreDerivativesOfTheTransforms) {
  // A_kj = dT_k/dq_j and A_kjm = d^2 T_k / dq_j dq_m [002 Eqs. 71, 76] by central differences.
  const Chain c = robot(GetParam());
  ChainData d(c), e(c);
  const Eigen::VectorXd q = random_vector(c.dof, 2.0, 9);
  forward_kinematics(c, d, q);
  const double h = 1e-5;
  const int k = c.dof - 1;
  for (int j = 0; j < c.dof; ++j) {
    auto T = [&](double dx, int m, double dy) {
      Eigen::VectorXd x = q;
      x(j) += dx;
      if (m >= 0) x(m) += dy;
      forward_kinematics(c, e, x);
      return e.transform[size_t(k)];
    };
    const Mat4 fd = (T(h, -1, 0) - T(-h, -1, 0)) / (2 * h);
    EXPECT_LT((differential_matrix(d, k, {j}) - fd).cwiseAbs().maxCoeff(), 1e-9);
    for (int m = 0; m < c.dof; ++m) {
      const double H = 1e-4;
      const Mat4 fd2 = (T(H, m, H) - T(H, m, -H) - T(-H, m, H) + T(-H, m, -H)) / (4 * H * H);
      EXPECT_LT((differential_matrix(d, k, {j, m}) - fd2).cwiseAbs().maxCoeff(), 1e-6);
      EXPECT_EQ(differential_matrix(d, k, {j, m}), differential_matrix(d, k, {m, j}));
    }
  }
}

TEST_P(EveryRobot, JacobianAndItsDerivativeMatchFiniteDifferences) {
  const Chain c = robot(GetParam());
  ChainData d(c), e(c);
  const Eigen::VectorXd q = random_vector(c.dof, 2.0, 12), qd = random_vector(c.dof, 2.0, 13);
  forward_kinematics(c, d, q);
  end_effector_jacobian(c, d);
  const Eigen::MatrixXd J = d.jacobian;
  const double h = 1e-6;
  auto pose_at = [&](double s) {
    forward_kinematics(c, e, q + s * qd);
    end_effector_jacobian(c, e);
    return e.end_effector;
  };
  const Pose a = pose_at(h), b = pose_at(-h);
  const Vec3 v = (a.p - b.p) / (2 * h);
  const Mat3 Rdot = (a.R - b.R) / (2 * h);
  const Mat3 W = Rdot * d.end_effector.R.transpose();
  const Vec3 w(W(2, 1), W(0, 2), W(1, 0));
  Vec6 twist;
  twist << v, w;
  EXPECT_LT((J * qd - twist).cwiseAbs().maxCoeff(), 1e-8);
  // The Jacobian of a point of the last link at the tool's origin is the tool's linear rows.
  const int last = c.dof - 1;
  const Vec3 tool_in_last = c.spec.end_effector.p;
  EXPECT_LT((point_jacobian(c, d, last, tool_in_last) - J.topRows(3)).cwiseAbs().maxCoeff(), 1e-14);
  pose_at(h);
  const Eigen::MatrixXd Jp = e.jacobian;
  pose_at(-h);
  const Eigen::MatrixXd Jdot_fd = (Jp - e.jacobian) / (2 * h);
  EXPECT_LT((end_effector_jacobian_derivative(c, d, qd) - Jdot_fd).cwiseAbs().maxCoeff(), 1e-7);
}

TEST(ChainData, CheckTellsTheChainItWasMadeFor) {
  // As Pinocchio's model.check(data): data fits the chain it was made for, not another one
  // (the algorithms assert this in debug builds).
  const Chain arm = robot("planar-3r.yaml"), iiwa = robot("iiwa14.urdf");
  EXPECT_TRUE(check(arm, ChainData(arm)));
  EXPECT_TRUE(check(iiwa, ChainData(iiwa)));
  EXPECT_FALSE(check(iiwa, ChainData(arm)));
  EXPECT_FALSE(check(arm, ChainData(iiwa)));
#ifndef NDEBUG
  ChainData wrong(arm);
  EXPECT_DEATH(forward_kinematics(iiwa, wrong, Eigen::VectorXd::Zero(iiwa.nq)), "another chain");
#endif
}

TEST(ChainDynamics, RowsHandedOverInChunksAreTheRowsOfTheWholeSimulation) {
  // ChainSimulationOptions::on_rows (output streamed to files): chunks of 7 rows, joined, are the
  // rows of the run that keeps them all, value for value (the integration is the same).
  const Chain c = robot("iiwa14.urdf");
  ChainData d(c);
  ChainSimulationOptions o;
  o.t_end = 0.5;
  o.steps = 50;
  const Eigen::VectorXd q0 = random_vector(c.dof, 1.0, 3), qd0 = random_vector(c.dof, 1.0, 4);
  const ChainSimulationResult whole = simulate_chain(c, d, q0, qd0, Eigen::VectorXd::Zero(c.dof), o);
  o.chunk_rows = 7;
  Eigen::MatrixXd joined(0, c.nq + c.dof + 2);
  int chunks = 0;
  o.on_rows = [&](const ChainSimulationResult& rows) {
    EXPECT_LE(rows.rows(), 7);
    ++chunks;
    const Eigen::Index before = joined.rows();
    joined.conservativeResize(before + rows.rows(), Eigen::NoChange);
    joined.bottomRows(rows.rows()) << rows.t, rows.q, rows.qdd, rows.kinetic_energy;
  };
  (void)simulate_chain(c, d, q0, qd0, Eigen::VectorXd::Zero(c.dof), o);
  EXPECT_EQ(chunks, (51 + 6) / 7);
  ASSERT_EQ(joined.rows(), whole.rows());
  Eigen::MatrixXd expected(whole.rows(), joined.cols());
  expected << whole.t, whole.q, whole.qdd, whole.kinetic_energy;
  EXPECT_EQ(joined, expected);
}

TEST(ChainDynamics, ARunStoppedByItsBudgetHandsOverTheRowsComputedBeforeTheError) {
  // A right-hand-side budget far too small for the span: the run stops with an AnalysisError
  // naming t, and the streamed rows so far (t = 0 up to where it stopped) were handed over first.
  const Chain c = robot("iiwa14.urdf");
  ChainData d(c);
  ChainSimulationOptions o;
  o.t_end = 1.0;
  o.steps = 1000;
  o.max_rhs_evaluations = 60;
  o.chunk_rows = 5;
  std::vector<double> times;
  o.on_rows = [&](const ChainSimulationResult& rows) {
    for (Eigen::Index k = 0; k < rows.rows(); ++k) times.push_back(rows.t(k));
  };
  const Eigen::VectorXd q0 = random_vector(c.dof, 1.0, 3), qd0 = random_vector(c.dof, 1.0, 4);
  EXPECT_THROW((void)simulate_chain(c, d, q0, qd0, Eigen::VectorXd::Zero(c.dof), o), AnalysisError);
  ASSERT_GE(times.size(), 2u);
  EXPECT_LT(times.size(), 1001u);
  for (size_t k = 0; k < times.size(); ++k) EXPECT_DOUBLE_EQ(times[k], 1e-3 * static_cast<double>(k));
}
