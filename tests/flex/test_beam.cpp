// Beam elements on a moving frame: closed-form element matrices against Gauss quadrature,
// Euler-Bernoulli natural frequencies and their O(h^4) convergence, the rotating cantilever
// (sources and reference values: ../shared/validation/elastic-links.md, docs/elastic-links.md).
#include <gtest/gtest.h>

#include <boost/math/quadrature/gauss.hpp>
#include <cmath>
#include <functional>

#include "linkdyn/core/error.hpp"
#include "linkdyn/flex/beam.hpp"
#include "linkdyn/flex/internal_forces.hpp"
#include "linkdyn/flex/modal.hpp"

namespace linkdyn::flex {
namespace {

using Quadrature = boost::math::quadrature::gauss<double, 10>;

template <class Matrix>
Matrix integrate(double h, const std::function<Matrix(double)>& integrand) {
  Matrix out = Matrix::Zero();
  for (int i = 0; i < out.rows(); ++i)
    for (int j = 0; j < out.cols(); ++j)
      out(i, j) = Quadrature::integrate([&](double s) { return integrand(s)(i, j); }, 0.0, h);
  return out;
}

template <class A, class B>
double relative_difference(const A& closed, const B& quadrature) {
  return (closed - quadrature).norm() / quadrature.norm();
}

const BeamSection steel{210e9, 7850.0, 3.0e-4, 2.5e-9};
constexpr double h = 0.137;

TEST(BeamElement, MassStiffnessAndCouplingMatchGaussQuadratureTo1e12) {
  const double mu = steel.mass_per_length();
  const Eigen::Matrix2d J{{0.0, -1.0}, {1.0, 0.0}};
  const Matrix6 m = integrate<Matrix6>(h, [&](double s) -> Matrix6 {
    const ShapeMatrix n = shape_functions(h, s);
    return mu * n.transpose() * n;
  });
  const Matrix6 k = integrate<Matrix6>(h, [&](double s) -> Matrix6 {
    const auto e = strain_functions(h, s);
    const auto c = curvature_functions(h, s);
    return steel.E * steel.A * e.transpose() * e + steel.E * steel.I * c.transpose() * c;
  });
  const Matrix6 g = integrate<Matrix6>(h, [&](double s) -> Matrix6 {
    const ShapeMatrix n = shape_functions(h, s);
    return mu * n.transpose() * J * n;
  });
  EXPECT_LT(relative_difference(element_mass(steel, h), m), 1e-12);
  EXPECT_LT(relative_difference(element_stiffness(steel, h), k), 1e-12);
  EXPECT_LT(relative_difference(element_rotation_coupling(steel, h), g), 1e-12);
  EXPECT_LT((element_rotation_coupling(steel, h) + element_rotation_coupling(steel, h).transpose()).norm(), 1e-18)
      << "int rho N^T J N is skew-symmetric";
}

TEST(BeamElement, LoadVectorsMatchGaussQuadratureTo1e12) {
  const double mu = steel.mass_per_length();
  const Matrix62 t =
      integrate<Matrix62>(h, [&](double s) -> Matrix62 { return mu * shape_functions(h, s).transpose(); });
  const Matrix62 f =
      integrate<Matrix62>(h, [&](double s) -> Matrix62 { return mu * s * shape_functions(h, s).transpose(); });
  EXPECT_LT(relative_difference(element_translation_load(steel, h), t), 1e-12);
  EXPECT_LT(relative_difference(element_first_moment(steel, h), f), 1e-12);
}

TEST(BeamElement, GeometricStiffnessOfAQuadraticAxialForceMatchesGaussQuadratureTo1e12) {
  const double p0 = 1200.0, pm = -350.0, p1 = 800.0;
  auto axial = [&](double s) {  // the quadratic through (0, p0), (h/2, pm), (h, p1)
    const double x = s / h;
    return p0 * (1 - x) * (1 - 2 * x) + pm * 4 * x * (1 - x) + p1 * x * (2 * x - 1);
  };
  const Matrix6 kg = integrate<Matrix6>(h, [&](double s) -> Matrix6 {
    const auto d = slope_functions(h, s);
    return axial(s) * d.transpose() * d;
  });
  EXPECT_LT(relative_difference(element_geometric_stiffness(h, p0, pm, p1), kg), 1e-12);
  // A constant force gives the classical P / (30 h) [36, 3h, ...] matrix.
  const Matrix6 constant = element_geometric_stiffness(h, 1.0, 1.0, 1.0);
  EXPECT_NEAR(constant(1, 1), 36.0 / (30.0 * h), 1e-12 / h);
  EXPECT_NEAR(constant(2, 2), 4.0 * h / 30.0, 1e-14);
}

/// omega_n T for a beam at rest: sqrt(lambda) times T = sqrt(rho A L^4 / (E I)).
std::vector<double> dimensionless_frequencies(std::array<BeamSupport, 2> supports, int elements, int count) {
  const double length = 0.8;
  const BeamModel beam = make_beam(steel, length, elements, supports);
  ModalWorkspace ws(beam);
  analyze_modes(beam, FrameMotion{}, ws, false);
  const double T = std::sqrt(steel.mass_per_length() * std::pow(length, 4) / (steel.E * steel.I));
  std::vector<double> out;
  for (int k = 0; k < count; ++k) out.push_back(std::sqrt(ws.lambda(k)) * T);
  return out;
}

struct EulerBernoulliCase {
  const char* name;
  std::array<BeamSupport, 2> supports;
  std::array<double, 3> beta_l_squared;  // elastic-links.md
};

const EulerBernoulliCase euler_bernoulli[] = {
    {"pinned-pinned", {BeamSupport::pinned, BeamSupport::pinned}, {9.8696044, 39.4784176, 88.8264396}},
    {"clamped-free", {BeamSupport::clamped, BeamSupport::free}, {3.51601527, 22.03449156, 61.69721441}},
    {"clamped-pinned", {BeamSupport::clamped, BeamSupport::pinned}, {15.41820572, 49.96486203, 104.24769646}},
};

TEST(BeamFrequencies, FirstThreeEulerBernoulliModesWithin0_1PercentWithTenElements) {
  for (const auto& c : euler_bernoulli) {
    const std::vector<double> w = dimensionless_frequencies(c.supports, 10, 3);
    for (int k = 0; k < 3; ++k) {
      const double error = (w[k] - c.beta_l_squared[k]) / c.beta_l_squared[k];
      EXPECT_LT(std::abs(error), 1e-3) << c.name << " mode " << k + 1;
      EXPECT_GT(error, -1e-9) << c.name << " mode " << k + 1 << ": consistent mass converges from above";
    }
  }
}

TEST(BeamFrequencies, PinnedSlidingBendsAsPinnedPinned) {
  const auto a = dimensionless_frequencies({BeamSupport::pinned, BeamSupport::sliding}, 10, 3);
  const auto b = dimensionless_frequencies({BeamSupport::pinned, BeamSupport::pinned}, 10, 3);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(a[k], b[k], 1e-9 * b[k]);
}

TEST(BeamFrequencies, ObservedConvergenceOrderIsFourInTheElementSize) {
  for (const auto& c : euler_bernoulli) {
    double previous = 0.0;
    for (int n : {2, 4, 8, 16}) {
      const double error = dimensionless_frequencies(c.supports, n, 1)[0] / c.beta_l_squared[0] - 1.0;
      if (previous > 0.0) {
        const double order = std::log2(previous / error);
        EXPECT_NEAR(order, 4.0, 0.15) << c.name << " from " << n / 2 << " to " << n << " elements";
      }
      previous = error;
    }
  }
}

TEST(BeamFrequencies, UnsupportedRigidBodyMotionIsRefused) {
  EXPECT_THROW((void)make_beam(steel, 1.0, 4, {BeamSupport::free, BeamSupport::free}), InputError);
  EXPECT_THROW((void)make_beam(steel, 1.0, 4, {BeamSupport::pinned, BeamSupport::free}), InputError);
  EXPECT_THROW((void)make_beam(steel, 1.0, 4, {BeamSupport::sliding, BeamSupport::sliding}), InputError);
  EXPECT_THROW((void)make_beam({0.0, 1.0, 1.0, 1.0}, 1.0, 4, {BeamSupport::clamped, BeamSupport::free}), InputError);
}

// Rotating cantilever clamped at the axis (hub radius 0): E I = rho A = L = 1, so T = 1 and
// gamma = Omega. A / I = (L / r)^2 sets the slenderness.
struct RotatingCantilever {
  BeamModel beam;
  ModalWorkspace ws;
  RotatingCantilever(double slenderness, int elements, bool geometric)
      : beam(make_beam({1.0, 1.0 / (slenderness * slenderness), slenderness * slenderness, 1.0}, 1.0, elements,
                       {BeamSupport::clamped, BeamSupport::free}, geometric)),
        ws(beam) {}
  /// Spin gamma: the root holds the centrifugal tension, -int rho A Omega^2 s ds.
  void spin(double gamma, bool gyroscopic) {
    FrameMotion motion;
    motion.omega = gamma;
    motion.end_force[0] = {-0.5 * gamma * gamma, 0.0};
    analyze_modes(beam, motion, ws, gyroscopic);
  }
};

struct RotatingRow {
  double gamma, out_of_plane, in_plane_1, in_plane_2, extensible_1;
};
const RotatingRow rotating_table[] = {  // elastic-links.md
    {0, 3.5160, 3.5160, 22.0345, 3.5160},    {2, 4.1373, 3.6218, 22.5263, 3.6195}, {4, 5.5850, 3.8977, 23.9415, 3.888},
    {6, 7.3603, 4.2632, 26.1290, 4.2393},    {8, 9.2568, 4.6571, 28.9089, 4.6105}, {10, 11.2023, 5.0490, 32.1197, 4.97},
    {50, 51.0805, 10.4478, 116.1826, 7.3362}};

TEST(RotatingCantilever, InPlaneInextensibleFrequenciesMatchPublishedTableWithGeometricStiffness) {
  RotatingCantilever c(1000.0, 40, true);  // nearly inextensible; gamma = 50 needs the 40 elements
  for (const auto& row : rotating_table) {
    c.spin(row.gamma, false);
    EXPECT_NEAR(std::sqrt(c.ws.lambda(0)), row.in_plane_1, 2e-4 * row.in_plane_1) << "gamma " << row.gamma;
    EXPECT_NEAR(std::sqrt(c.ws.lambda(1)), row.in_plane_2, 2e-4 * row.in_plane_2) << "gamma " << row.gamma;
    // Out of plane: the same without the spin softening, w_out^2 = w_in^2 + gamma^2.
    Eigen::MatrixXd out_of_plane = c.ws.operators.stiffness + row.gamma * row.gamma * c.beam.mass;
    Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> solver(out_of_plane, c.beam.mass, Eigen::EigenvaluesOnly);
    EXPECT_NEAR(std::sqrt(solver.eigenvalues()(0)), row.out_of_plane, 2e-4 * row.out_of_plane) << "gamma " << row.gamma;
  }
}

TEST(RotatingCantilever, InPlaneExtensibleWithGyroscopicCouplingMatchesPublishedTable) {
  RotatingCantilever c(70.0, 40, true);
  for (const auto& row : rotating_table) {
    c.spin(row.gamma, true);
    const double tolerance = row.gamma == 4 || row.gamma == 10 ? 1.5e-3 : 3e-4;  // 4 and 3 digits given
    EXPECT_NEAR(c.ws.gyroscopic(0).imag(), row.extensible_1, tolerance * row.extensible_1) << "gamma " << row.gamma;
    EXPECT_LT(std::abs(c.ws.gyroscopic(0).real()), 1e-6 * c.ws.gyroscopic(0).imag()) << "conservative: no damping";
  }
}

TEST(TipMass, CantileverWithATipMassHasTheClosedFormFirstFrequency) {
  // Euler-Bernoulli cantilever with a tip mass r rho A L: 1 + cos(bL) cosh(bL) + r bL (cos(bL)
  // sinh(bL) - sin(bL) cosh(bL)) = 0, omega = b^2 sqrt(EI / (rho A)); 20 Hermite elements.
  const BeamSection sec{210e9, 7850.0, 1.2e-4, 3.6e-10};
  const double L = 0.5;
  for (const double r : {0.0, 0.5, 2.0}) {
    const double tip = r * sec.mass_per_length() * L;
    const BeamModel beam =
        make_beam(sec, L, 20, {BeamSupport::clamped, BeamSupport::free}, false, {NodeMass{20, tip, 0.0}});
    ModalWorkspace ws(beam);
    analyze_modes(beam, FrameMotion{}, ws, false);
    const auto equation = [r](double x) {
      return 1.0 + std::cos(x) * std::cosh(x) + r * x * (std::cos(x) * std::sinh(x) - std::sin(x) * std::cosh(x));
    };
    double lo = 0.5, hi = 1.9;  // the first root, below the bare cantilever's 1.8751
    for (int k = 0; k < 200; ++k) {
      const double mid = 0.5 * (lo + hi);
      (equation(lo) * equation(mid) <= 0.0 ? hi : lo) = mid;
    }
    const double bL = 0.5 * (lo + hi), omega = bL * bL / (L * L) * std::sqrt(sec.E * sec.I / sec.mass_per_length());
    EXPECT_NEAR(std::sqrt(ws.lambda(0)), omega, 1e-5 * omega) << "tip mass ratio " << r;
  }
}

TEST(TipMass, StaticTipMassUnderGravityDeflectsAndLoadsTheClampAsTheClosedForms) {
  // w(L) = M g L^3 / (3 EI) + q L^4 / (8 EI), q = rho A g; the clamp's moment M g L + q L^2 / 2
  // (hogging: M(0) < 0); nodal values exact for Hermite elements.
  const BeamSection sec{210e9, 7850.0, 1.2e-4, 3.6e-10};
  const double L = 0.5, tip = 0.3, g = 9.81, q = sec.mass_per_length() * g;
  const BeamModel beam =
      make_beam(sec, L, 10, {BeamSupport::clamped, BeamSupport::free}, false, {NodeMass{10, tip, 1e-4}});
  FrameMotion weight;
  weight.gravity = {0.0, -g};
  BeamOperators op = make_operators(beam);
  evaluate_operators(beam, weight, op);
  const Eigen::VectorXd d = op.stiffness.lu().solve(op.load);
  const double expected = -(tip * g * L * L * L / 3.0 + q * L * L * L * L / 8.0) / (sec.E * sec.I);
  EXPECT_NEAR(displacement_at(beam, d, L).y(), expected, 1e-9 * std::abs(expected));
  InternalForceWorkspace ws(beam);
  internal_forces(beam, weight, d, Eigen::VectorXd::Zero(beam.size()), ws);
  const double clamp = -(tip * g * L + q * L * L / 2.0);
  EXPECT_NEAR(ws.forces.moment(0), clamp, 1e-9 * std::abs(clamp));
  EXPECT_NEAR(ws.forces.shear(0), tip * g + q * L, 1e-9 * (tip * g + q * L)) << "V = dM/ds";
}

TEST(RotatingCantilever, WithoutGyroscopicCouplingTheExtensibleBeamGivesTheInextensibleColumn) {
  RotatingCantilever c(70.0, 40, true);
  c.spin(50.0, false);
  EXPECT_NEAR(std::sqrt(c.ws.lambda(0)), 10.4478, 2e-4 * 10.4478);
}

TEST(RotatingCantilever, WithoutGeometricStiffnessTheLinkBucklesSpuriouslyAtGamma3_516) {
  RotatingCantilever c(1000.0, 20, false);
  const double w0 = 3.51601527;
  c.spin(2.0, false);
  EXPECT_NEAR(c.ws.lambda(0), w0 * w0 - 4.0, 1e-3) << "w^2 = w0^2 - gamma^2: only the spin softening";
  c.spin(w0, false);
  EXPECT_NEAR(c.ws.lambda(0), 0.0, 1e-3 * w0 * w0) << "the first frequency vanishes at gamma = 3.516";
  c.spin(4.0, false);
  EXPECT_LT(c.ws.lambda(0), -3.0) << "beyond it the model buckles";
  EXPECT_LT(frequency_hz(c.ws.lambda(0)), 0.0) << "a negative frequency reports the instability";
  RotatingCantilever with_geometric(1000.0, 20, true);
  with_geometric.spin(4.0, false);
  EXPECT_NEAR(std::sqrt(with_geometric.ws.lambda(0)), 3.8977, 1e-3);
}

// Stepped beams: segments of different sections end to end.
const BeamSection thick{210e9, 7850.0, 4.0e-4, 2.0e-8}, thin{210e9, 7850.0, 1.5e-4, 3.0e-9};

TEST(SteppedBeam, EqualSegmentsAssembleTheUniformBeam) {
  // Two segments of the same section, 3 + 3 elements, are the 6-element uniform beam (1e-12).
  const BeamModel uniform = make_beam(thick, 0.6, 6, {BeamSupport::pinned, BeamSupport::sliding});
  const BeamModel split = make_beam({{thick, 0.3, 3}, {thick, 0.3, 3}}, {BeamSupport::pinned, BeamSupport::sliding});
  EXPECT_LT((uniform.mass - split.mass).norm(), 1e-12 * uniform.mass.norm());
  EXPECT_LT((uniform.stiffness - split.stiffness).norm(), 1e-12 * uniform.stiffness.norm());
  for (int p = 0; p < 4; ++p)
    EXPECT_LT((uniform.geometric[static_cast<size_t>(p)] - split.geometric[static_cast<size_t>(p)]).norm(),
              1e-12 * (1.0 + uniform.geometric[static_cast<size_t>(p)].norm()))
        << "geometric " << p;
}

TEST(SteppedBeam, SteppedCantileverUnderATipLoadDeflectsAsTheClosedForm) {
  // Thick root a = 0.25 m, thin tip b = 0.15 m, tip load P: w = P / E [(L^3 - b^3) / (3 I1) +
  // b^3 / (3 I2)]; Hermite elements are nodally exact for it (1e-9). The clamp's moment P L.
  const double a = 0.25, b = 0.15, L = a + b, P = 120.0;
  const BeamModel beam = make_beam({{thick, a, 5}, {thin, b, 3}}, {BeamSupport::clamped, BeamSupport::free});
  ASSERT_EQ(beam.elements, 8);
  EXPECT_NEAR(beam.node_s[5], a, 1e-15);
  Eigen::VectorXd load = Eigen::VectorXd::Zero(beam.size());
  load(beam.reduced_of[3 * 8 + 1]) = P;
  const Eigen::VectorXd d = beam.stiffness.ldlt().solve(load);
  const double expected = P / thick.E * ((L * L * L - b * b * b) / (3.0 * thick.I) + b * b * b / (3.0 * thin.I));
  EXPECT_NEAR(d(beam.reduced_of[3 * 8 + 1]), expected, 1e-9 * expected);
  EXPECT_NEAR(displacement_at(beam, d, a).y(), P / thick.E * (L * a * a / 2.0 - a * a * a / 6.0) / thick.I,
              1e-9 * expected)
      << "at the step";
  EXPECT_NEAR(beam.beam_mass(), 7850.0 * (4.0e-4 * a + 1.5e-4 * b), 1e-12);
}

TEST(SteppedBeam, ASpinningSteppedBarCarriesTheClosedFormAxialForce) {
  // A bar spun at omega about its first end, its far end free: P(s) = omega^2 int_s^L rho A x dx
  // with rho A stepping at s = a, at every node and element middle (1e-12 of P(0)).
  const double a = 0.25, b = 0.15, L = a + b, omega = 300.0;
  const BeamModel beam = make_beam({{thick, a, 5}, {thin, b, 3}}, {BeamSupport::clamped, BeamSupport::free});
  const double mu1 = thick.mass_per_length(), mu2 = thin.mass_per_length();
  auto closed_form = [&](double s) {
    const double tip = 0.5 * mu2 * (L * L - std::max(s, a) * std::max(s, a));
    return omega * omega * (s < a ? 0.5 * mu1 * (a * a - s * s) + 0.5 * mu2 * (L * L - a * a) : tip);
  };
  FrameMotion motion;
  motion.omega = omega;
  motion.end_force[0] = Vec2(-closed_form(0.0), 0.0);  // the pivot pulls the bar in
  const AxialForce P = axial_force(beam, motion);
  for (int e = 0; e < beam.elements; ++e)
    for (const double s :
         {beam.node_s[static_cast<size_t>(e)], beam.node_s[static_cast<size_t>(e)] + 0.5 * beam.element_length(e)})
      EXPECT_NEAR(axial_at(beam, P, s), closed_form(s), 1e-12 * closed_form(0.0)) << "s = " << s;
  EXPECT_NEAR(axial_at(beam, P, L), 0.0, 1e-12 * closed_form(0.0));
}

}  // namespace
}  // namespace linkdyn::flex
