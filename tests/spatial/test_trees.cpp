// Kinematic trees and floating bases: the tree algorithms against each other (RNEA vs the trace
// forms of [002], CRBA vs the kinetic energy, ABA vs the tree-factored mass matrix), analytic
// derivatives and the Coriolis matrix against differences and the trace form, closed forms of a
// free rigid body, URDF and YAML trees, inconsistent inertias, and the serial chain unchanged.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <boost/numeric/odeint.hpp>
#include <fmt/format.h>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "linkdyn/spatial/derivatives.hpp"
#include "linkdyn/spatial/dynamics.hpp"
#include "linkdyn/spatial/energy.hpp"
#include "linkdyn/spatial/higher_order.hpp"
#include "linkdyn/spatial/kinematics.hpp"
#include "linkdyn/spatial/simulate.hpp"
#include "linkdyn/spatial/trace_dynamics.hpp"
#include "spatial/chain_reference_values.hpp"
#include "spatial/spatial_test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::spatial;
using linkdyn::test::frictionless;
using linkdyn::test::random_vector;
using linkdyn::test::rel_diff;

namespace {
std::string example(const std::string& file) { return std::string(LINKDYN_EXAMPLES_DIR) + "/robots/" + file; }

/// A tree model by name: "dual-iiwa14", "quadruped" (floating, quaternion), "quadruped-exp"
/// (rotation vector), "iiwa14-floating" (the arm on a free base), each with friction and a load.
ChainSpec tree_spec(const std::string& name) {
  io::ChainFileOptions o;
  std::string file = name + ".urdf";
  if (name == "quadruped-exp") o.exponential_coordinates = true, file = "quadruped.urdf";
  if (name == "iiwa14-floating") o.floating_base = true, file = "iiwa14.urdf";
  ChainSpec spec = io::read_chain_file(example(file), o);
  for (ChainJoint& j : spec.joints) j.friction = {0.2, 0.04, 0.025, 0.1};
  spec.load = {Vec3(4.0, -3.0, -20.0), Vec3(0.5, -0.2, 0.3), true};
  return spec;
}
const std::vector<std::string>& tree_models() {
  static const std::vector<std::string> names{"dual-iiwa14", "quadruped", "quadruped-exp", "iiwa14-floating"};
  return names;
}
std::string tree_test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = info.param;
  for (char& c : n)
    if (c == '-') c = '_';
  return n;
}
/// A configuration: the 1-DOF joints at random, the free-flyers moved and turned at random.
Eigen::VectorXd random_configuration(const Chain& c, unsigned seed) {
  Eigen::VectorXd q(c.nq);
  integrate_configuration(c, neutral_configuration(c), random_vector(c.dof, 1.5, seed), q);
  return q;
}
Eigen::VectorXd step(const Chain& c, const Eigen::VectorXd& q, const Eigen::VectorXd& dv) {
  Eigen::VectorXd out(c.nq);
  integrate_configuration(c, q, dv, out);
  return out;
}
}  // namespace

class EveryTree : public ::testing::TestWithParam<std::string> {};
INSTANTIATE_TEST_SUITE_P(Examples, EveryTree, ::testing::ValuesIn(tree_models()), tree_test_name);

TEST_P(EveryTree, MassMatrixEqualsTheTraceFormAndIsZeroAcrossBranches) {
  const Chain c = build_chain(tree_spec(GetParam()));
  ChainData d(c);
  for (unsigned s = 0; s < 3; ++s) {
    const Eigen::VectorXd q = random_configuration(c, s);
    const Eigen::MatrixXd M = mass_matrix(c, d, q);
    EXPECT_LT(rel_diff(M, mass_matrix_trace(c, d, q)), 1e-12);  // [002 Eq. 94]
    for (int i = 0; i < c.dof; ++i)
      for (int j = 0; j < c.dof; ++j) {
        const int li = c.dof_link[size_t(i)], lj = c.dof_link[size_t(j)];
        if (!c.supports(li, lj) && !c.supports(lj, li)) {
          EXPECT_EQ(M(i, j), 0.0) << i << ", " << j;
        }
      }
  }
}

TEST_P(EveryTree, MassMatrixIsTheHessianOfTheKineticEnergy) {
  const Chain c = build_chain(tree_spec(GetParam()));
  ChainData d(c);
  const Eigen::VectorXd q = random_configuration(c, 11);
  const Eigen::MatrixXd M = mass_matrix(c, d, q);
  EXPECT_LT(rel_diff(linkdyn::test::kinetic_energy_hessian(c, d, q), M), 1e-13);
}

TEST_P(EveryTree, NewtonEulerEqualsTraceFormsWithGravityAndLoad) {
  ChainSpec spec = tree_spec(GetParam());
  for (bool base : {false, true}) {
    spec.load.in_base_frame = base;
    const Chain c = build_chain(spec);
    ChainData d(c);
    for (unsigned s = 0; s < 2; ++s) {
      const Eigen::VectorXd q = random_configuration(c, s), qd = random_vector(c.dof, 2.0, s + 10),
                            qdd = random_vector(c.dof, 3.0, s + 20);
      const Eigen::VectorXd trace = inverse_dynamics_trace(c, d, q, qd, qdd);  // [002 Eqs. 94, 96, 125, 132]
      EXPECT_LT(rel_diff(inverse_dynamics(c, d, q, qd, qdd, frictionless()), trace), 1e-12) << "seed " << s;
    }
  }
}

TEST_P(EveryTree, ArticulatedBodyEqualsTheTreeFactorisationAndInvertsInverseDynamics) {
  const Chain c = build_chain(tree_spec(GetParam()));
  ChainData d(c);
  for (unsigned s = 0; s < 3; ++s) {
    const Eigen::VectorXd q = random_configuration(c, s), qd = random_vector(c.dof, 2.0, s + 1),
                          tau = random_vector(c.dof, 20.0, s + 2);
    const Eigen::VectorXd aba = forward_dynamics(c, d, q, qd, tau, ForwardMethod::articulated_body, frictionless());
    const Eigen::VectorXd ltdl =
        forward_dynamics(c, d, q, qd, tau, ForwardMethod::mass_matrix_cholesky, frictionless());
    EXPECT_LT(rel_diff(aba, ltdl), 1e-10);
    EXPECT_LT(rel_diff(inverse_dynamics(c, d, q, qd, aba, frictionless()), tau), 1e-10);
    // L^T D L along the tree solves what a dense Cholesky solves.
    const Eigen::VectorXd dense = Eigen::LLT<Eigen::MatrixXd>(d.mass_matrix).solve(tau - d.bias);
    EXPECT_LT(rel_diff(ltdl, dense), 1e-11);
  }
}

TEST_P(EveryTree, ForwardDynamicsWithFrictionInvertsInverseDynamics) {
  const Chain c = build_chain(tree_spec(GetParam()));
  ChainData d(c);
  const Eigen::VectorXd q = random_configuration(c, 3), qd = random_vector(c.dof, 2.0, 4),
                        tau = random_vector(c.dof, 20.0, 5);
  for (ForwardMethod m : {ForwardMethod::articulated_body, ForwardMethod::mass_matrix_cholesky}) {
    const Eigen::VectorXd qdd = forward_dynamics(c, d, q, qd, tau, m);
    EXPECT_LT(rel_diff(inverse_dynamics(c, d, q, qd, qdd), tau), 1e-10);
  }
}

TEST_P(EveryTree, CoriolisMatrixEqualsTheTraceFormAndMakesTheMassMatrixRateSkew) {
  const Chain c = build_chain(tree_spec(GetParam()));
  ChainData d(c), e(c);
  const Eigen::VectorXd q = random_configuration(c, 6), qd = random_vector(c.dof, 2.0, 7);
  coriolis_matrix(c, d, q, qd);
  const Eigen::MatrixXd C = d.coriolis;
  EXPECT_LT(rel_diff(C, coriolis_matrix_trace(c, e, q, qd)), 1e-12);
  Terms inertia_only;
  inertia_only.gravity = inertia_only.load = inertia_only.friction = false;
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(c.dof);
  EXPECT_LT(rel_diff(C * qd, inverse_dynamics(c, d, q, qd, zero, inertia_only)), 1e-12);
  // dM/dt along qd by a 4th-order central difference (truncation ~ h^4 M'''''): dM/dt - 2C skew.
  const double h = 1e-3;
  auto M_at = [&](double s) { return Eigen::MatrixXd(mass_matrix(c, e, step(c, q, s * qd))); };
  const Eigen::MatrixXd Mdot = (8 * (M_at(h) - M_at(-h)) - (M_at(2 * h) - M_at(-2 * h))) / (12 * h);
  const Eigen::MatrixXd N = Mdot - 2 * C;
  EXPECT_LT((N + N.transpose()).cwiseAbs().maxCoeff() / std::max(1.0, Mdot.cwiseAbs().maxCoeff()), 1e-8);
}

namespace {
/// Best (over a step study) relative error of the analytic dtau/dq and dtau/dqd against central
/// differences (4th order) of the recursive Newton-Euler algorithm, free-flyers along q (+) dq.
std::pair<double, double> derivative_errors(const Chain& c, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                            const Eigen::VectorXd& qdd) {
  ChainData d(c), e(c);
  rnea_derivatives(c, d, q, qd, qdd);
  EXPECT_LT(rel_diff(d.tau, inverse_dynamics(c, e, q, qd, qdd)), 1e-12);
  double best_q = 1e300, best_qd = 1e300;
  for (double h : {1e-2, 3e-3, 1e-3, 3e-4}) {
    Eigen::MatrixXd Dq(c.dof, c.dof), Dqd(c.dof, c.dof);
    for (int j = 0; j < c.dof; ++j) {
      const Eigen::VectorXd ej = Eigen::VectorXd::Unit(c.dof, j);
      auto tq = [&](double s) { return Eigen::VectorXd(inverse_dynamics(c, e, step(c, q, s * ej), qd, qdd)); };
      auto tv = [&](double s) { return Eigen::VectorXd(inverse_dynamics(c, e, q, qd + s * ej, qdd)); };
      Dq.col(j) = (8 * (tq(h) - tq(-h)) - (tq(2 * h) - tq(-2 * h))) / (12 * h);
      Dqd.col(j) = (8 * (tv(h) - tv(-h)) - (tv(2 * h) - tv(-2 * h))) / (12 * h);
    }
    best_q = std::min(best_q, rel_diff(d.dtau_dq, Dq));
    best_qd = std::min(best_qd, rel_diff(d.dtau_dqd, Dqd));
  }
  return {best_q, best_qd};
}
}  // namespace

TEST_P(EveryTree, InverseDynamicsDerivativesMatchFiniteDifferences) {
  // Gravity, a load in the base and in the tool frame, viscous, constant and load-dependent dry friction.
  ChainSpec spec = tree_spec(GetParam());
  for (bool base : {true, false}) {
    spec.load.in_base_frame = base;
    const Chain c = build_chain(spec);
    const auto [eq, eqd] = derivative_errors(c, random_configuration(c, 8),
                                             random_vector(c.dof, 2.0, 9) + Eigen::VectorXd::Constant(c.dof, 3.0),
                                             random_vector(c.dof, 3.0, 10));
    EXPECT_LT(eq, 1e-8) << (base ? "base-frame load" : "tool-frame load");
    EXPECT_LT(eqd, 1e-8) << (base ? "base-frame load" : "tool-frame load");
  }
}

TEST(ChainDerivatives, InverseDynamicsDerivativesOfEveryExampleArmMatchFiniteDifferences) {
  for (const std::string& file : linkdyn::test::robot_files()) {
    ChainSpec spec = io::read_chain_file(example(file));
    for (ChainJoint& j : spec.joints) j.friction = {0.2, 0.04, 0.025, 0.1};
    spec.load = {Vec3(4.0, -3.0, -20.0), Vec3(0.5, -0.2, 0.3), true};
    const Chain c = build_chain(spec);
    const auto [eq, eqd] = derivative_errors(c, random_vector(c.dof, 2.0, 1),
                                             random_vector(c.dof, 2.0, 2) + Eigen::VectorXd::Constant(c.dof, 3.0),
                                             random_vector(c.dof, 3.0, 3));
    EXPECT_LT(eq, 1e-8) << file;
    EXPECT_LT(eqd, 1e-8) << file;
  }
}

TEST_P(EveryTree, FrameJacobiansGiveTheFramesVelocities) {
  const Chain c = build_chain(tree_spec(GetParam()));
  ChainData d(c), e(c);
  const Eigen::VectorXd q = random_configuration(c, 12), qd = random_vector(c.dof, 2.0, 13);
  forward_kinematics(c, d, q);
  Eigen::Matrix<double, 6, Eigen::Dynamic> J(6, c.dof);
  const double h = 1e-6;
  for (int f = 0; f < int(c.frames.size()); ++f) {
    frame_jacobian(c, d, f, J);
    forward_kinematics(c, e, step(c, q, h * qd));
    const Pose a = frame_placement(c, e, f);
    forward_kinematics(c, e, step(c, q, -h * qd));
    const Pose b = frame_placement(c, e, f);
    const Mat3 W = (a.R - b.R) / (2 * h) * frame_placement(c, d, f).R.transpose();
    Vec6 twist;
    twist << (a.p - b.p) / (2 * h), Vec3(W(2, 1), W(0, 2), W(1, 0));
    EXPECT_LT((J * qd - twist).cwiseAbs().maxCoeff(), 1e-8) << c.frames[size_t(f)].name;
  }
}

TEST_P(EveryTree, GravityForcesAreTheGradientOfThePotentialEnergy) {
  const Chain c = build_chain(tree_spec(GetParam()));
  ChainData d(c);
  const Eigen::VectorXd q = random_configuration(c, 5);
  const Eigen::VectorXd Qg = gravity_forces_jacobian(c, d, q);  // [002 Eq. 125]
  Terms only_gravity = frictionless();
  only_gravity.load = false;
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(c.dof);
  EXPECT_LT(rel_diff(inverse_dynamics(c, d, q, zero, zero, only_gravity), Qg), 1e-12);
  const double h = 1e-3;
  Eigen::VectorXd grad(c.dof);
  for (int i = 0; i < c.dof; ++i) {
    auto V = [&](double dx) { return potential_energy(c, d, step(c, q, dx * Eigen::VectorXd::Unit(c.dof, i))); };
    grad(i) = (8 * (V(h) - V(-h)) - (V(2 * h) - V(-2 * h))) / (12 * h);
  }
  EXPECT_LT(rel_diff(grad, Qg), 1e-9);
}

TEST_P(EveryTree, TorqueDerivativesAgreeWithNewtonEulerAndEnergiesWithTheKineticEnergy) {
  const Chain c = build_chain(tree_spec(GetParam()));
  ChainData d(c);
  DerivativeData dd(c);
  const Eigen::VectorXd q = random_configuration(c, 14);
  Eigen::MatrixXd V(c.dof, 4);
  for (int r = 0; r < 4; ++r)
    V.col(r) = random_vector(c.dof, 2.0, 30u + unsigned(r)) + Eigen::VectorXd::Constant(c.dof, r == 0 ? 3.0 : 0.0);
  torque_derivatives(c, d, dd, q, V);
  EXPECT_LT(rel_diff(dd.tau, inverse_dynamics(c, d, q, V.col(0), V.col(1))), 1e-12);
  EXPECT_NEAR(acceleration_energy(c, q, V, 0), kinetic_energy(c, d, q, V.col(0)),
              1e-12 * kinetic_energy(c, d, q, V.col(0)));
}

TEST_P(EveryTree, AppellFunctionGradientIsTheInertialForce) {
  // Gibbs-Appell: S = E_A^(1) = 1/2 sum integral |r''|^2 dm [002 Eq. 92] is quadratic in the
  // accelerations, and dS/dqdd_j = sum integral r'' . dr/dq_j dm, the generalized inertial force
  // M qdd + C qd: Newton-Euler without gravity, load or friction. Central differences of a
  // quadratic are exact up to rounding.
  const Chain c = build_chain(tree_spec(GetParam()));
  ChainData d(c);
  const Eigen::VectorXd q = random_configuration(c, 21);
  Eigen::MatrixXd V(c.dof, 2);
  V.col(0) = random_vector(c.dof, 2.0, 22);
  V.col(1) = random_vector(c.dof, 3.0, 23);
  const Eigen::VectorXd inertial = inverse_dynamics(c, d, q, V.col(0), V.col(1), Terms{false, false, false});
  Eigen::VectorXd gradient(c.dof);
  for (int j = 0; j < c.dof; ++j) {
    Eigen::MatrixXd plus = V, minus = V;
    plus(j, 1) += 1.0, minus(j, 1) -= 1.0;
    gradient(j) = 0.5 * (acceleration_energy(c, q, plus, 1) - acceleration_energy(c, q, minus, 1));
  }
  EXPECT_LT(rel_diff(gradient, inertial), 1e-10);
}

TEST(TreeFiles, YamlFreeFlyerInExponentialCoordinatesFallsAndSpinsFreely) {
  // One box on a free-flyer, its q the position and rotation vector: under gravity alone its
  // origin (the centre of mass) accelerates at g, and spinning about a principal axis it has no
  // angular acceleration (Euler's equations).
  const auto dir = std::filesystem::temp_directory_path() / "linkdyn_trees";
  std::filesystem::create_directories(dir);
  const std::string yaml = (dir / "free.yaml").string();
  std::ofstream(yaml) << R"(name: free
robot:
  rotation_coordinates: exponential
  joints:
    - name: float
      type: free_flyer
      link: {name: box, mass: 3, com: [0, 0, 0], inertia: {ixx: 0.02, iyy: 0.05, izz: 0.06}}
)";
  const Chain c = build_chain(io::read_chain_file(yaml));
  ASSERT_EQ(c.nq, 6);
  ASSERT_EQ(c.dof, 6);
  ChainData d(c);
  Eigen::VectorXd q(6);
  q << 0.1, -0.2, 0.3, 0.4, -0.5, 0.6;  // turned: the body's principal axes are not the world's
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  v(4) = 7.0;  // spinning about the body's y axis (the twist is in body axes)
  forward_dynamics(c, d, q, v, Eigen::VectorXd::Zero(6), ForwardMethod::articulated_body, frictionless());
  forward_kinematics(c, d, q);
  // The body-frame linear acceleration of a spinning body's origin: R^T g (the origin is the com,
  // so v x omega terms vanish with v = 0).
  const Vec3 g_body = d.world[0].R.transpose() * c.spec.gravity;
  EXPECT_LT((d.qdd.head<3>() - g_body).norm(), 1e-12 * c.spec.gravity.norm());
  EXPECT_LT(d.qdd.tail<3>().norm(), 1e-12);
}

TEST(TreeTorqueDerivatives, DualArmRatesMatchHighOrderDifferencesAlongATrajectory) {
  // q_i(t) = a_i sin(w_i t + phi_i) + b_i t + c_i (qd never zero): dtau/dt and d2tau/dt2 of the
  // differentiated recursion against 8th-order central differences of tau(t).
  const Chain c = build_chain(tree_spec("dual-iiwa14"));
  ChainData d(c);
  DerivativeData dd(c);
  auto trajectory = [&](double t) {
    Eigen::MatrixXd Q(c.dof, 5);
    for (int i = 0; i < c.dof; ++i) {
      const double a = 0.3 + 0.05 * i, w = 1.1 + 0.2 * i, phi = 0.6 * i, b = (i % 2 ? -1.0 : 1.0) * (a * w + 0.3);
      const double s = std::sin(w * t + phi), co = std::cos(w * t + phi);
      Q.row(i) << a * s + b * t + 0.1 * i, a * w * co + b, -a * w * w * s, -a * w * w * w * co, a * w * w * w * w * s;
    }
    return Q;
  };
  const double t0 = 0.37;
  torque_derivatives(c, d, dd, trajectory(t0));
  auto tau = [&](double t) {
    const Eigen::MatrixXd Q = trajectory(t);
    return Eigen::VectorXd(inverse_dynamics(c, d, Q.col(0), Q.col(1), Q.col(2)));
  };
  const double c1[] = {4.0 / 5, -1.0 / 5, 4.0 / 105, -1.0 / 280}, c2[] = {8.0 / 5, -1.0 / 5, 8.0 / 315, -1.0 / 560};
  double best1 = 1e300, best2 = 1e300;
  for (double h : {5e-2, 2e-2, 1e-2, 5e-3}) {
    Eigen::VectorXd d1 = Eigen::VectorXd::Zero(c.dof), d2 = -205.0 / 72 * tau(t0);
    for (int k = 1; k <= 4; ++k) {
      d1 += c1[k - 1] * (tau(t0 + k * h) - tau(t0 - k * h));
      d2 += c2[k - 1] * (tau(t0 + k * h) + tau(t0 - k * h));
    }
    best1 = std::min(best1, rel_diff(d1 / h, dd.dtau));
    best2 = std::min(best2, rel_diff(d2 / (h * h), dd.ddtau));
  }
  EXPECT_LT(best1, 1e-6);
  EXPECT_LT(best2, 1e-6);
}

// Floating rigid body: closed forms ------------------------------------------------------------

namespace {
ChainSpec free_body(const Mat3& inertia_com, bool exponential) {
  ChainSpec s;
  s.name = "free body";
  ChainJoint j;
  j.name = "body";
  j.type = JointType::free_flyer;
  s.joints = {j};
  s.links = {{"body", {3.0, Vec3::Zero(), inertia_com}, {}}};
  s.rotation_coordinates = exponential ? RotationCoordinates::exponential : RotationCoordinates::quaternion;
  return s;
}
/// Pose and body twist of the simulated free body at table row r.
struct BodyState {
  Pose pose;
  Vec3 v, w;  // body axes
};
BodyState body_state(const Chain& c, const ChainSimulationResult& s, Eigen::Index r) {
  const Eigen::VectorXd q = s.q.row(r);
  const Vec6 v = s.qd.row(r);
  return {free_flyer_motion(c, q, 0), v.head<3>(), v.tail<3>()};
}
}  // namespace

class FreeBody : public ::testing::TestWithParam<bool> {};
INSTANTIATE_TEST_SUITE_P(Coordinates, FreeBody, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "exponential" : "quaternion"; });

TEST_P(FreeBody, SpinningBodyFallsOnTheParabolaKeepingItsAngularMomentumAndEnergy) {
  const Mat3 I = (Mat3() << 0.4, 0.02, -0.01, 0.02, 0.3, 0.03, -0.01, 0.03, 0.25).finished();
  const Chain c = build_chain(free_body(I, GetParam()));
  ChainData d(c);
  Eigen::VectorXd q0(c.nq);
  Eigen::VectorXd lift(6);
  lift << 0.1, -0.2, 2.0, 0.3, -0.5, 0.8;
  integrate_configuration(c, neutral_configuration(c), lift, q0);
  Eigen::VectorXd v0(6);
  v0 << 1.0, 0.5, 3.0, 2.0, -1.0, 4.0;  // body twist: origin velocity and spin, body axes
  ChainSimulationOptions o;
  o.t_end = 1.0;
  o.steps = 20;
  o.abs_tol = o.rel_tol = 1e-13;
  const ChainSimulationResult t = simulate_chain(c, d, q0, v0, Eigen::VectorXd::Zero(6), o);
  const BodyState s0 = body_state(c, t, 0);
  const Vec3 x0 = s0.pose.p, u0 = s0.pose.R * s0.v, L0 = s0.pose.R * (I * s0.w);
  const double E0 = t.kinetic_energy(0) + t.potential_energy(0);
  for (Eigen::Index r = 1; r < t.rows(); ++r) {
    const double time = t.t(r);
    const BodyState s = body_state(c, t, r);
    // The centre of mass (the origin) falls on x0 + u0 t + g t^2 / 2 whatever the spin.
    EXPECT_LT((s.pose.p - (x0 + u0 * time + 0.5 * c.spec.gravity * time * time)).norm(), 1e-10) << "t = " << time;
    // Gravity has no moment about the centre of mass: R I w is constant.
    EXPECT_LT((s.pose.R * (I * s.w) - L0).norm(), 1e-10 * L0.norm()) << "t = " << time;
    const double E = t.kinetic_energy(r) + t.potential_energy(r);
    EXPECT_LT(std::abs(E - E0), 1e-10 * std::abs(E0)) << "t = " << time;
  }
}

TEST_P(FreeBody, TorqueFreeSymmetricTopPrecessesAtTheClosedFormRate) {
  // I1 = I2: w3 is constant and (w1 + i w2) turns at lambda = (I3 - I1) w3 / I1 (Euler's equations).
  const double I1 = 0.3, I3 = 0.5;
  const Chain c = build_chain(free_body(Vec3(I1, I1, I3).asDiagonal(), GetParam()));
  ChainData d(c);
  Eigen::VectorXd v0(6);
  v0 << 0.0, 0.0, 0.0, 1.5, -0.7, 6.0;
  ChainSimulationOptions o;
  o.t_end = 2.0;
  o.steps = 20;
  o.abs_tol = o.rel_tol = 1e-13;
  o.terms.gravity = false;
  const Eigen::VectorXd q0 = random_configuration(c, 3);
  const ChainSimulationResult t = simulate_chain(c, d, q0, v0, Eigen::VectorXd::Zero(6), o);
  const double lambda = (I3 - I1) * v0(5) / I1;
  const Mat3 I = Vec3(I1, I1, I3).asDiagonal();
  const BodyState s0 = body_state(c, t, 0);
  const Vec3 L0 = s0.pose.R * (I * s0.w);
  for (Eigen::Index r = 1; r < t.rows(); ++r) {
    const double time = t.t(r);
    const BodyState s = body_state(c, t, r);
    const Vec3 expected(v0(3) * std::cos(lambda * time) - v0(4) * std::sin(lambda * time),
                        v0(3) * std::sin(lambda * time) + v0(4) * std::cos(lambda * time), v0(5));
    EXPECT_LT((s.w - expected).norm(), 1e-10 * expected.norm()) << "t = " << time;
    EXPECT_LT((s.pose.R * (I * s.w) - L0).norm(), 1e-10 * L0.norm()) << "t = " << time;
    const double T = t.kinetic_energy(r);
    EXPECT_NEAR(T, 0.5 * expected.dot(I * expected), 1e-10 * T);
  }
}

// Files -----------------------------------------------------------------------------------------

TEST(TreeFiles, DualArmUrdfBranchesFromTheTorso) {
  const Chain c = build_chain(io::read_chain_file(example("dual-iiwa14.urdf")));
  ASSERT_EQ(c.links, 15);
  ASSERT_EQ(c.dof, 15);
  EXPECT_FALSE(c.serial);
  const int torso = c.joint_index("torso_joint"), left = c.joint_index("left_iiwa_joint_1"),
            right = c.joint_index("right_iiwa_joint_1");
  EXPECT_EQ(c.parent[size_t(torso)], -1);
  EXPECT_EQ(c.parent[size_t(left)], torso);
  EXPECT_EQ(c.parent[size_t(right)], torso);
  EXPECT_EQ(c.parent[size_t(c.joint_index("right_iiwa_joint_2"))], right);
  // The tools are frames; the arms mirror each other at q = 0 (left at +y, right at -y).
  ChainData d(c);
  forward_kinematics(c, d, Eigen::VectorXd::Zero(c.nq));
  const Vec3 l = frame_placement(c, d, c.frame_index("left_tool0")).p,
             r = frame_placement(c, d, c.frame_index("right_tool0")).p;
  EXPECT_LT((l - Vec3(r.x(), -r.y(), r.z())).norm(), 1e-14);
  // The arm stands out straight: tool at 0.25 + 1.306 m from the torso's axis, 0.9 + 0.7 m high.
  EXPECT_LT((l - Vec3(0, 0.25 + 1.306, 1.6)).norm(), 1e-12);
}

TEST(TreeFiles, FloatingJointAndFloatingBaseOptionGiveFreeFlyers) {
  const Chain quad = build_chain(io::read_chain_file(example("quadruped.urdf")));
  EXPECT_EQ(quad.nq, 7 + 12);
  EXPECT_EQ(quad.dof, 6 + 12);
  EXPECT_EQ(quad.spec.base_name, "world");
  EXPECT_EQ(quad.q_names[6], "floating_base.qw");
  EXPECT_EQ(quad.v_names[5], "floating_base.rz");
  EXPECT_EQ(quad.joint(quad.parent[size_t(quad.joint_index("FL_hip_joint"))]).name, "floating_base");
  EXPECT_DOUBLE_EQ(quad.joint(quad.joint_index("FL_calf_joint")).friction.constant, 0.2);  // <dynamics friction>
  io::ChainFileOptions o;
  o.floating_base = true;
  o.exponential_coordinates = true;
  const Chain arm = build_chain(io::read_chain_file(example("iiwa14.urdf"), o));
  EXPECT_EQ(arm.nq, 6 + 7);
  EXPECT_EQ(arm.dof, 6 + 7);
  EXPECT_EQ(arm.q_names[3], "floating_base.rx");
  EXPECT_EQ(arm.frames[size_t(arm.frame_index("iiwa_link_0"))].link, 0);  // the root rides on the free-flyer
}

TEST(TreeFiles, YamlParentsGiveTheSameTreeAsUrdf) {
  const auto dir = std::filesystem::temp_directory_path() / "linkdyn_trees";
  std::filesystem::create_directories(dir);
  const std::string yaml = (dir / "y.yaml").string(), urdf = (dir / "y.urdf").string();
  std::ofstream(yaml) << R"(name: y
robot:
  joints:
    - name: stem
      axis: [0, 0, 1]
      link: {name: trunk, mass: 2, com: [0, 0, 0.2], inertia: {ixx: 0.03, iyy: 0.03, izz: 0.01}}
    - name: left
      parent: trunk
      origin: {xyz: [0, 0.1, 0.4], rpy: [0.3, 0, 0]}
      axis: [0, 1, 0]
      link: {name: left_arm, mass: 1, com: [0.15, 0, 0], inertia: {ixx: 0.001, iyy: 0.01, izz: 0.01}}
    - name: right
      parent: trunk
      origin: {xyz: [0, -0.1, 0.4]}
      axis: [1, 0, 0]
      type: prismatic
      link: {name: right_arm, mass: 1.5, com: [0, -0.1, 0], inertia: {ixx: 0.01, iyy: 0.002, izz: 0.01}}
    - name: wrist
      parent: left_arm
      origin: {xyz: [0.3, 0, 0]}
      link: {name: hand, mass: 0.5, com: [0.05, 0, 0], inertia: {ixx: 0.001, iyy: 0.001, izz: 0.001}}
  end_effector: {link: right_arm, xyz: [0, -0.2, 0]}
  frames:
    - {name: camera, link: trunk, xyz: [0.05, 0, 0.5]}
)";
  std::ofstream(urdf) << R"(<robot name="y">
  <link name="base"/>
  <joint name="stem" type="continuous"><parent link="base"/><child link="trunk"/><axis xyz="0 0 1"/></joint>
  <link name="trunk"><inertial><origin xyz="0 0 0.2"/><mass value="2"/><inertia ixx="0.03" ixy="0" ixz="0" iyy="0.03" iyz="0" izz="0.01"/></inertial></link>
  <joint name="left" type="continuous"><parent link="trunk"/><child link="left_arm"/><origin xyz="0 0.1 0.4" rpy="0.3 0 0"/><axis xyz="0 1 0"/></joint>
  <link name="left_arm"><inertial><origin xyz="0.15 0 0"/><mass value="1"/><inertia ixx="0.001" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <joint name="wrist" type="continuous"><parent link="left_arm"/><child link="hand"/><origin xyz="0.3 0 0"/><axis xyz="0 0 1"/></joint>
  <link name="hand"><inertial><origin xyz="0.05 0 0"/><mass value="0.5"/><inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial></link>
  <joint name="right" type="prismatic"><parent link="trunk"/><child link="right_arm"/><origin xyz="0 -0.1 0.4"/><axis xyz="1 0 0"/><limit effort="1" velocity="1"/></joint>
  <link name="right_arm"><inertial><origin xyz="0 -0.1 0"/><mass value="1.5"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.01"/></inertial></link>
  <joint name="tip" type="fixed"><parent link="right_arm"/><child link="tool"/><origin xyz="0 -0.2 0"/></joint>
  <link name="tool"/>
</robot>)";
  const Chain a = build_chain(io::read_chain_file(yaml)), b = build_chain(io::read_chain_file(urdf));
  ASSERT_EQ(a.dof, 4);
  ASSERT_EQ(b.dof, 4);
  EXPECT_EQ(a.parent[size_t(a.joint_index("wrist"))], a.joint_index("left"));
  ChainData da(a), db(b);
  // The URDF lists the joints depth first: map b's order onto a's by name.
  Eigen::VectorXd q = random_vector(4, 1.0, 1), qd = random_vector(4, 1.0, 2), qdd = random_vector(4, 1.0, 3);
  auto in_b = [&](const Eigen::VectorXd& x) {
    Eigen::VectorXd y(4);
    for (int i = 0; i < 4; ++i) y(b.joint_index(a.joint(i).name)) = x(i);
    return y;
  };
  const Eigen::VectorXd ta = inverse_dynamics(a, da, q, qd, qdd),
                        tb = inverse_dynamics(b, db, in_b(q), in_b(qd), in_b(qdd));
  EXPECT_LT((in_b(ta) - tb).cwiseAbs().maxCoeff(), 1e-13);
  forward_kinematics(a, da, q);
  forward_kinematics(b, db, in_b(q));
  EXPECT_LT((da.end_effector.p - db.end_effector.p).norm(), 1e-15);
  // The camera rides on the trunk, which turns by q_stem about z.
  EXPECT_LT(
      (frame_placement(a, da, a.frame_index("camera")).p - axis_rotation(Vec3::UnitZ(), q(0)) * Vec3(0.05, 0, 0.5))
          .norm(),
      1e-15);
}

TEST(TreeFiles, InconsistentInertiaIsRefusedWarnedOrBalanced) {
  const ChainSpec spec = io::read_chain_file(example("puma560-corke.urdf"));
  try {
    (void)build_chain(spec);
    ADD_FAILURE() << "the PUMA's link 3 breaks the triangle inequality";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("link 'link3'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("I1 + I2 >= I3"), std::string::npos) << e.what();
  }
  BuildOptions warn;
  warn.inertia = InertiaCheck::warn;
  const Chain w = build_chain(spec, warn);
  ASSERT_EQ(w.warnings.size(), 1u);
  EXPECT_NE(w.warnings[0].find("puma560-corke.urdf:"), std::string::npos) << w.warnings[0];
  EXPECT_NE(w.warnings[0].find("link 'link3'"), std::string::npos) << w.warnings[0];
  EXPECT_NE(w.warnings[0].find("0.0785 < 0.086"), std::string::npos) << w.warnings[0];
  EXPECT_EQ(w.spec.links[2].inertia.inertia_com, spec.links[2].inertia.inertia_com);  // computed as given
  BuildOptions balance;
  balance.inertia = InertiaCheck::balance;
  const Chain b = build_chain(spec, balance);
  // MuJoCo's balanceinertia: every principal moment becomes the mean (0.066 + 0.086 + 0.0125) / 3.
  const double mean = (0.066 + 0.086 + 0.0125) / 3;
  EXPECT_LT((b.spec.links[2].inertia.inertia_com - mean * Mat3::Identity()).cwiseAbs().maxCoeff(), 1e-16);
  EXPECT_TRUE(triangle_inequality_violation(b.spec.links[2].inertia).empty());
  ChainData d(w);
  const Eigen::VectorXd q = random_vector(6, 1.0, 1);
  EXPECT_TRUE(inverse_dynamics(w, d, q, q, q).allFinite());
}

TEST(ChainSpecialCase, SerialChainsReproduceThePreviousResults) {
  // The four example arms, with friction and a load: every algorithm against the values printed
  // by the serial-chain version (tests/spatial/chain_reference_values.hpp).
  for (const auto& [file, quantities] : linkdyn::test::chain_reference_values()) {
    ChainSpec spec = io::read_chain_file(example(file));
    for (ChainJoint& j : spec.joints) j.friction = {0.2, 0.04, 0.025};
    spec.load = {Vec3(4.0, -3.0, -20.0), Vec3(0.5, -0.2, 0.3), true};
    const Chain c = build_chain(spec);
    ASSERT_TRUE(c.serial);
    ChainData d(c);
    DerivativeData dd(c);
    const int n = c.dof;
    Eigen::MatrixXd Q(n, 5);
    for (int i = 0; i < n; ++i)
      for (int r = 0; r < 5; ++r) Q(i, r) = 0.3 + 0.1 * i - 0.2 * r + 0.05 * i * r + (r == 1 ? 0.4 : 0.0);
    const Eigen::VectorXd tau = Eigen::VectorXd::LinSpaced(n, -5.0, 5.0);
    torque_derivatives(c, d, dd, Q);
    std::map<std::string, Eigen::MatrixXd> now{
        {"tau", inverse_dynamics(c, d, Q.col(0), Q.col(1), Q.col(2))},
        {"mass_matrix", mass_matrix(c, d, Q.col(0))},
        {"qdd_aba", forward_dynamics(c, d, Q.col(0), Q.col(1), tau, ForwardMethod::articulated_body)},
        {"qdd_crba", forward_dynamics(c, d, Q.col(0), Q.col(1), tau, ForwardMethod::mass_matrix_cholesky)},
        {"dtau", dd.dtau},
        {"ddtau", dd.ddtau},
        {"E_A1", Eigen::MatrixXd::Constant(1, 1, acceleration_energy(c, Q, 1))}};
    for (const auto& [name, values] : quantities) {
      const Eigen::MatrixXd& x = now.at(name);
      const Eigen::Map<const Eigen::MatrixXd> ref(values.data(), x.rows(), x.cols());
      const double err = (x - ref).cwiseAbs().maxCoeff() / std::max(1.0, ref.cwiseAbs().maxCoeff());
      EXPECT_LT(err, 1e-14) << file << " " << name;
      RecordProperty(file + "." + name, fmt::format("{:.1e}", err));
    }
  }
}

TEST(TreeTorqueDerivatives, FloatingQuadrupedRatesMatchDifferencesAlongAnIntegratedMotion) {
  // The body twist and the joints' rates given as analytic functions of t (sines), the
  // configuration q(t) integrated from them (q' = configuration_rate, Dormand-Prince to 1e-14):
  // dtau/dt and d2tau/dt2 of the differentiated recursion against 8th-order central differences
  // of the Newton-Euler tau(q(t), v(t), v'(t)); both rotation coordinates.
  for (const char* model : {"quadruped", "quadruped-exp"}) {
    const Chain c = build_chain(tree_spec(model));
    ChainData d(c);
    DerivativeData dd(c);
    auto velocity = [&](double t, int order) {  // v^(order)(t)
      Eigen::VectorXd v(c.dof);
      for (int i = 0; i < c.dof; ++i) {
        const double a = 0.3 + 0.02 * i, w = 1.1 + 0.13 * i, phi = 0.4 * i, b = 0.5 + 0.01 * i;
        const double s = std::sin(w * t + phi), co = std::cos(w * t + phi), wn = std::pow(w, order);
        const double value[] = {a * s + b, a * w * co, -a * w * w * s, -a * w * w * w * co};
        v(i) = order < 4 ? value[order] : a * wn * s;
      }
      return v;
    };
    // q(t) from q(0) by integrating q' = configuration_rate(q, v(t)).
    auto configuration = [&](double t_end) {
      using State = std::vector<double>;
      Eigen::VectorXd q0(c.nq);
      integrate_configuration(c, neutral_configuration(c), random_vector(c.dof, 0.5, 3), q0);
      State x(q0.data(), q0.data() + c.nq);
      namespace odeint = boost::numeric::odeint;
      odeint::integrate_adaptive(
          odeint::make_controlled(1e-14, 1e-14, odeint::runge_kutta_dopri5<State>()),
          [&](const State& y, State& dy, double t) {
            const Eigen::Map<const Eigen::VectorXd> q(y.data(), c.nq);
            Eigen::Map<Eigen::VectorXd> rate(dy.data(), c.nq);
            configuration_rate(c, q, velocity(t, 0), rate);
          },
          x, 0.0, t_end, 1e-3);
      return Eigen::VectorXd(Eigen::Map<Eigen::VectorXd>(x.data(), c.nq));
    };
    const double t0 = 0.4, h = 2e-2;
    Eigen::MatrixXd V(c.dof, 4);
    for (int r = 0; r < 4; ++r) V.col(r) = velocity(t0, r);
    torque_derivatives(c, d, dd, configuration(t0), V);
    auto tau = [&](double t) {
      return Eigen::VectorXd(inverse_dynamics(c, d, configuration(t), velocity(t, 0), velocity(t, 1)));
    };
    const double c1[] = {4.0 / 5, -1.0 / 5, 4.0 / 105, -1.0 / 280}, c2[] = {8.0 / 5, -1.0 / 5, 8.0 / 315, -1.0 / 560};
    Eigen::VectorXd d1 = Eigen::VectorXd::Zero(c.dof), d2 = -205.0 / 72 * tau(t0);
    for (int k = 1; k <= 4; ++k) {
      const Eigen::VectorXd plus = tau(t0 + k * h), minus = tau(t0 - k * h);
      d1 += c1[k - 1] * (plus - minus);
      d2 += c2[k - 1] * (plus + minus);
    }
    EXPECT_LT(rel_diff(d1 / h, dd.dtau), 1e-7) << model;
    EXPECT_LT(rel_diff(d2 / (h * h), dd.ddtau), 1e-6) << model;
    RecordProperty(std::string(model) + ".dtau_ddtau_rel_error",
                   fmt::format("{:.1e} {:.1e}", rel_diff(d1 / h, dd.dtau), rel_diff(d2 / (h * h), dd.ddtau)));
  }
}
