// Acceleration energies [002 Eqs. 92-109] and time derivatives of the driving forces [002
// Sect. 5]: Gibbs-Appell, the identities of Eqs. 135-137, and dtau/dt, d2tau/dt2 against
// high-order finite differences along smooth analytic trajectories.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>

#include "linkdyn/spatial/dynamics.hpp"
#include "linkdyn/spatial/energy.hpp"
#include "linkdyn/spatial/higher_order.hpp"
#include "linkdyn/spatial/kinematics.hpp"
#include "linkdyn/spatial/trace_dynamics.hpp"
#include "spatial/spatial_test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::spatial;
using linkdyn::test::random_vector;
using linkdyn::test::robot;

namespace {
/// q and its derivatives 0..5 at random, one column per order.
Eigen::MatrixXd random_derivatives(int n, unsigned seed) {
  Eigen::MatrixXd Q(n, 6);
  for (int r = 0; r < 6; ++r) Q.col(r) = random_vector(n, r == 0 ? 2.0 : 3.0, seed + 17u * unsigned(r));
  return Q;
}
/// Derivative of f at x along unit direction i by the 5-point stencil: exact for polynomials of
/// degree <= 4 (the energies are polynomials of the highest derivatives and of qd).
template <class F>
double stencil(F&& f, const Eigen::MatrixXd& Q, int row, int col, double h) {
  auto at = [&](double s) {
    Eigen::MatrixXd X = Q;
    X(row, col) += s;
    return f(X);
  };
  return (8 * (at(h) - at(-h)) - (at(2 * h) - at(-2 * h))) / (12 * h);
}
Terms inertia_only() {
  Terms t;
  t.gravity = t.load = t.friction = false;
  return t;
}
}  // namespace

class EveryRobotHigherOrder : public ::testing::TestWithParam<std::string> {};
INSTANTIATE_TEST_SUITE_P(Examples, EveryRobotHigherOrder, ::testing::ValuesIn(linkdyn::test::robot_files()),
                         linkdyn::test::robot_test_name);

TEST_P(EveryRobotHigherOrder, ZerothOrderEnergyIsTheKineticEnergy) {
  const Chain c = robot(GetParam());
  ChainData d(c);
  const Eigen::MatrixXd Q = random_derivatives(c.dof, 1);
  EXPECT_NEAR(acceleration_energy(c, Q, 0), kinetic_energy(c, d, Q.col(0), Q.col(1)),
              1e-13 * kinetic_energy(c, d, Q.col(0), Q.col(1)));
}

TEST_P(EveryRobotHigherOrder, GibbsAppellGradientIsTheInertiaForceAndHessianTheMassMatrix) {
  // dE_A1/dqdd = M qdd + V (the generalized inertia force), d2E_A1/dqdd2 = M [002 Eq. 93].
  const Chain c = robot(GetParam());
  ChainData d(c);
  const Eigen::MatrixXd Q = random_derivatives(c.dof, 2);
  const Eigen::VectorXd inertia_force = inverse_dynamics(c, d, Q.col(0), Q.col(1), Q.col(2), inertia_only());
  const Eigen::MatrixXd M = mass_matrix(c, d, Q.col(0));
  auto E1 = [&](const Eigen::MatrixXd& X) { return acceleration_energy(c, X, 1); };
  const double scale = inertia_force.cwiseAbs().maxCoeff();
  for (int j = 0; j < c.dof; ++j) {
    EXPECT_NEAR(stencil(E1, Q, j, 2, 0.1), inertia_force(j), 1e-11 * scale) << "joint " << j;
    for (int k = 0; k < c.dof; ++k) {
      // E_A1 is quadratic in qdd: the mixed difference is exact.
      auto at = [&](double a, double b) {
        Eigen::MatrixXd X = Q;
        X(j, 2) += a;
        X(k, 2) += b;
        return E1(X);
      };
      const double h = 0.5;
      const double hess = (at(h, h) - at(h, -h) - at(-h, h) + at(-h, -h)) / (4 * h * h);
      EXPECT_NEAR(hess, M(j, k), 1e-10 * M.cwiseAbs().maxCoeff());
    }
  }
}

TEST_P(EveryRobotHigherOrder, SecondOrderEnergyGivesTheRateOfTheInertiaForce) {
  // d/dt Q_j = dE_A2/dq'''_j + 1/2 dE_A1/dqd_j: the Gibbs-Appell form one order up, from
  // r''' = ... and d r''/d qd_j = 2 d/dt(dr/dq_j) [002 Eqs. 136, 164]. The left side is the
  // differentiated Newton-Euler recursion, the right side the acceleration energies.
  const Chain c = robot(GetParam());
  ChainData d(c);
  DerivativeData dd(c);
  const Eigen::MatrixXd Q = random_derivatives(c.dof, 3);
  torque_derivatives(c, d, dd, Q, inertia_only());
  auto E1 = [&](const Eigen::MatrixXd& X) { return acceleration_energy(c, X, 1); };
  auto E2 = [&](const Eigen::MatrixXd& X) { return acceleration_energy(c, X, 2); };
  const double scale = dd.dtau.cwiseAbs().maxCoeff();
  for (int j = 0; j < c.dof; ++j) {
    const double rhs = stencil(E2, Q, j, 3, 0.1) + 0.5 * stencil(E1, Q, j, 1, 1e-2);
    EXPECT_NEAR(dd.dtau(j), rhs, 1e-8 * scale) << "joint " << j;
  }
}

TEST_P(EveryRobotHigherOrder, HigherDerivativesOfPositionsFollowEquations135To137) {
  // For the centre of mass r of the last link: d r^(m) / d q_j^(m) = d r / d q_j [Eq. 135];
  // d/dt (dr/dq_j) = 1/(m+1) d r^(m+1) / d q_j^(m) [Eq. 136] for m = 1, 2, 3;
  // d2/dt2 (dr/dq_j) = 2! m! / (m+2)! d r^(m+2) / d q_j^(m) [Eq. 137, k = 3] for m = 2.
  const Chain c = robot(GetParam());
  ChainData d(c);
  const Eigen::MatrixXd Q = random_derivatives(c.dof, 4);
  const int k = c.dof - 1;
  const Eigen::Vector4d com(0.1, -0.05, 0.2, 1.0);  // a point of the last link
  forward_kinematics(c, d, Q.col(0));
  auto r = [&](const Eigen::MatrixXd& X, int order) {
    return Vec3((transform_time_derivatives(c, X, order)[size_t(k)][size_t(order)] * com).head<3>());
  };
  for (int j = 0; j < c.dof; ++j) {
    const Vec3 dr = (differential_matrix(d, k, {j}) * com).head<3>();
    // d/dt(dr/dq_j) = sum_m A_kjm qd_m; its derivative adds A_kjmp qd_m qd_p + A_kjm qdd_m.
    Vec3 rate = Vec3::Zero(), rate2 = Vec3::Zero();
    for (int m = 0; m < c.dof; ++m) {
      rate += (differential_matrix(d, k, {j, m}) * com).head<3>() * Q(m, 1);
      rate2 += (differential_matrix(d, k, {j, m}) * com).head<3>() * Q(m, 2);
      for (int p = 0; p < c.dof; ++p)
        rate2 += (differential_matrix(d, k, {j, m, p}) * com).head<3>() * Q(m, 1) * Q(p, 1);
    }
    auto partial = [&](int order, int wrt) {  // d r^(order) / d q_j^(wrt): linear in it, exact
      Eigen::MatrixXd A = Q, B = Q;
      A(j, wrt) += 0.5;
      B(j, wrt) -= 0.5;
      return Vec3(r(A, order) - r(B, order));
    };
    for (int m = 1; m <= 3; ++m) EXPECT_LT((partial(m, m) - dr).norm(), 1e-12) << "Eq. 135, m = " << m;
    for (int m = 1; m <= 3; ++m)
      EXPECT_LT((partial(m + 1, m) / (m + 1) - rate).norm(), 1e-11 * (1 + rate.norm())) << "Eq. 136, m = " << m;
    EXPECT_LT((partial(4, 2) * (2.0 * 2.0 / 24.0) - rate2).norm(), 1e-10 * (1 + rate2.norm())) << "Eq. 137";
  }
}

namespace {
/// q_i(t) = a_i sin(w_i t + phi_i) + b_i t + c_i, with |b_i| > |a_i w_i| so qd never vanishes
/// (the dry friction's sign stays put), and its derivatives of order 0..4 at t.
Eigen::MatrixXd trajectory(int n, double t) {
  Eigen::MatrixXd Q(n, 5);
  for (int i = 0; i < n; ++i) {
    const double a = 0.4 + 0.1 * i, w = 1.3 + 0.35 * i, phi = 0.7 * i, b = (i % 2 ? -1.0 : 1.0) * (a * w + 0.3),
                 c0 = 0.2 * i;
    const double s = std::sin(w * t + phi), co = std::cos(w * t + phi);
    Q(i, 0) = a * s + b * t + c0;
    Q(i, 1) = a * w * co + b;
    Q(i, 2) = -a * w * w * s;
    Q(i, 3) = -a * w * w * w * co;
    Q(i, 4) = a * w * w * w * w * s;
  }
  return Q;
}
}  // namespace

namespace {
/// Best relative errors (over a step study) of dtau/dt and d2tau/dt2 from torque_derivatives
/// against 8th-order central differences of tau(t) by recursive Newton-Euler, at t0.
std::pair<double, double> torque_derivative_errors(const Chain& c, double t0) {
  ChainData d(c);
  DerivativeData dd(c);
  torque_derivatives(c, d, dd, trajectory(c.dof, t0));
  auto tau = [&](double t) {
    const Eigen::MatrixXd Q = trajectory(c.dof, t);
    return Eigen::VectorXd(inverse_dynamics(c, d, Q.col(0), Q.col(1), Q.col(2)));
  };
  EXPECT_LT((tau(t0) - dd.tau).cwiseAbs().maxCoeff(), 1e-10 * (1 + dd.tau.cwiseAbs().maxCoeff()));
  const double c1[] = {4.0 / 5, -1.0 / 5, 4.0 / 105, -1.0 / 280};
  const double c2[] = {8.0 / 5, -1.0 / 5, 8.0 / 315, -1.0 / 560};
  double best1 = 1e300, best2 = 1e300;
  for (double h : {1e-1, 5e-2, 2e-2, 1e-2, 5e-3, 2e-3}) {
    Eigen::VectorXd d1 = Eigen::VectorXd::Zero(c.dof), d2 = -205.0 / 72 * tau(t0);
    for (int k = 1; k <= 4; ++k) {
      const Eigen::VectorXd plus = tau(t0 + k * h), minus = tau(t0 - k * h);
      d1 += c1[k - 1] * (plus - minus);
      d2 += c2[k - 1] * (plus + minus);
    }
    d1 /= h;
    d2 /= h * h;
    best1 = std::min(best1, (d1 - dd.dtau).cwiseAbs().maxCoeff() / dd.dtau.cwiseAbs().maxCoeff());
    best2 = std::min(best2, (d2 - dd.ddtau).cwiseAbs().maxCoeff() / dd.ddtau.cwiseAbs().maxCoeff());
  }
  return {best1, best2};
}

/// A chain off every fast path: revolute and prismatic joints in turn on skew axes, rotated
/// placements, products of inertia, a rotated end effector, friction and a load.
ChainSpec skew_chain(bool load_in_base) {
  ChainSpec s;
  s.name = "skew";
  const Vec3 axes[4] = {Vec3(1, 2, 3).normalized(), Vec3(0.3, -1, 0.2).normalized(), Vec3(0.5, 0.5, -1).normalized(),
                        Vec3(-0.2, 0.7, 0.1).normalized()};
  for (int i = 0; i < 4; ++i) {
    ChainJoint j;
    j.name = "j" + std::to_string(i);
    j.type = i % 2 ? JointType::prismatic : JointType::revolute;
    j.axis = axes[i];
    j.placement = {rpy_rotation(Vec3(0.3 * i, -0.2, 0.5)), Vec3(0.2, 0.1 * i, 0.3)};
    j.friction = {0.2, 0.05, 0.03};
    MassProperties b{1.0 + i, Vec3(0.1, 0.05, -0.02), Vec3(0.02, 0.03, 0.04).asDiagonal()};
    b.inertia_com(0, 1) = b.inertia_com(1, 0) = 0.003;
    s.joints.push_back(j);
    s.links.push_back({"l" + std::to_string(i), b});
  }
  s.end_effector = {rpy_rotation(Vec3(0.4, 1.1, -0.7)), Vec3(0.1, 0.2, 0.3)};
  s.load = {Vec3(4, -3, -20), Vec3(0.5, -0.2, 0.3), load_in_base};
  return s;
}
}  // namespace

TEST_P(EveryRobotHigherOrder, TorqueDerivativesMatchHighOrderFiniteDifferences) {
  // With gravity, a load fixed in the base frame and in the tool frame, viscous and dry joint
  // friction: dtau/dt and d2tau/dt2 analytic vs 8th-order central differences of tau(t) from
  // the recursive Newton-Euler algorithm; the best step of a step study below 1e-6 relative.
  ChainSpec spec = io::read_chain_file(std::string(LINKDYN_EXAMPLES_DIR) + "/robots/" + GetParam());
  for (ChainJoint& j : spec.joints) j.friction = {0.2, 0.04, 0.025};
  for (bool base : {true, false}) {
    spec.load = {Vec3(4.0, -3.0, -20.0), Vec3(0.5, -0.2, 0.3), base};
    const auto [best1, best2] = torque_derivative_errors(build_chain(spec), 0.37);
    EXPECT_LT(best1, 1e-6) << (base ? "load in base frame" : "load in tool frame");
    EXPECT_LT(best2, 1e-6) << (base ? "load in base frame" : "load in tool frame");
    RecordProperty(base ? "dtau_rel_error_base_load" : "dtau_rel_error_tool_load",
                   fmt::format("{:.2e} {:.2e}", best1, best2));
  }
}

TEST(HigherOrder, SkewChainPassesEveryCheck) {
  // The example robots have axes along x, y, z and unrotated tools; this chain has neither.
  for (bool base : {true, false}) {
    const Chain c = build_chain(skew_chain(base));
    ChainData d(c);
    const Eigen::MatrixXd Q = trajectory(c.dof, 0.37);
    Terms frictionless;
    frictionless.friction = false;
    const Eigen::VectorXd trace = inverse_dynamics_trace(c, d, Q.col(0), Q.col(1), Q.col(2));
    EXPECT_LT((inverse_dynamics(c, d, Q.col(0), Q.col(1), Q.col(2), frictionless) - trace).norm(),
              1e-12 * trace.norm());
    const Eigen::VectorXd tau = inverse_dynamics(c, d, Q.col(0), Q.col(1), Q.col(2));
    for (ForwardMethod m : {ForwardMethod::articulated_body, ForwardMethod::mass_matrix_cholesky})
      EXPECT_LT((forward_dynamics(c, d, Q.col(0), Q.col(1), tau, m) - Q.col(2)).norm(), 1e-10 * Q.col(2).norm());
    const auto [best1, best2] = torque_derivative_errors(c, 0.37);
    EXPECT_LT(best1, 1e-6);
    EXPECT_LT(best2, 1e-6);
  }
}

TEST_P(EveryRobotHigherOrder, AccelerationEnergiesMatchFiniteDifferencesOfTheTransforms) {
  // E_A^(p) = 1/2 sum Tr(T^(p+1) J T^(p+1)T) [002 Eq. 92] with T^(p+1) by central differences
  // (4th order) of the transforms from forward kinematics along the analytic trajectory: an
  // independent path to the derivatives of Leibniz's rule, for p = 1, 2, 3.
  const Chain c = robot(GetParam());
  ChainData d(c);
  const double t0 = 0.37;
  auto transforms = [&](double t) {
    forward_kinematics(c, d, trajectory(c.dof, t).col(0));
    return d.transform;
  };
  // Stencils on offsets -3..3 for the 2nd, 3rd and 4th derivatives.
  const double stencil[3][7] = {{0, -1.0 / 12, 4.0 / 3, -5.0 / 2, 4.0 / 3, -1.0 / 12, 0},
                                {1.0 / 8, -1, 13.0 / 8, 0, -13.0 / 8, 1, -1.0 / 8},
                                {-1.0 / 6, 2, -13.0 / 2, 28.0 / 3, -13.0 / 2, 2, -1.0 / 6}};
  for (int p = 1; p <= 3; ++p) {
    const double exact = acceleration_energy(c, trajectory(c.dof, t0), p);
    double best = 1e300;
    for (double h : {4e-2, 2e-2, 1e-2, 5e-3}) {
      std::vector<Mat4> D(size_t(c.dof), Mat4::Zero());
      for (int o = -3; o <= 3; ++o) {
        const double w = stencil[p - 1][o + 3];
        if (w == 0) continue;
        const auto T = transforms(t0 + o * h);
        for (int k = 0; k < c.dof; ++k) D[size_t(k)] += w * T[size_t(k)];
      }
      double E = 0;
      for (int k = 0; k < c.dof; ++k) {
        const Mat4 Dk = D[size_t(k)] / std::pow(h, p + 1);
        E += 0.5 * (Dk * c.pseudo[size_t(k)]).cwiseProduct(Dk).sum();
      }
      best = std::min(best, std::abs(E - exact) / exact);
    }
    EXPECT_LT(best, 1e-6) << "p = " << p;
    RecordProperty("E_A" + std::to_string(p) + "_rel_error", fmt::format("{:.2e}", best));
  }
}
