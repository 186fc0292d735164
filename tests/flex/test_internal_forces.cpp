// Internal forces of an elastic link by element-end force recovery, against closed forms: a
// cantilever under a tip load, a simply supported beam under its own weight, a spinning bar.
#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

#include "linkdyn/flex/internal_forces.hpp"
#include "linkdyn/flex/response.hpp"

namespace linkdyn::flex {
namespace {

const BeamSection steel{210e9, 7850.0, 1.2e-4, 3.6e-10};  // 20 x 6 mm
constexpr double length = 0.5;

/// The static deflection under the frame motion's loads: k_total d = load (no rates).
Eigen::VectorXd static_deflection(const BeamModel& beam, const FrameMotion& motion) {
  BeamOperators op = make_operators(beam);
  evaluate_operators(beam, motion, op);
  return op.stiffness.lu().solve(op.load);
}

InternalForces forces_of(const BeamModel& beam, const FrameMotion& motion) {
  InternalForceWorkspace ws(beam);
  internal_forces(beam, motion, static_deflection(beam, motion), Eigen::VectorXd::Zero(beam.size()), ws);
  return ws.forces;
}

TEST(InternalForces, CantileverUnderATipLoadHasMEqualsMinusPTimesLMinusSAtEveryStation) {
  // Clamped at s = 0, a load P down at the free end: M = -P (L - s), V = P, N = 0 (linear M:
  // exact at the nodes and the middles).
  const BeamModel beam = make_beam(steel, length, 10, {BeamSupport::clamped, BeamSupport::free}, false);
  FrameMotion motion;
  const double P = 120.0;
  motion.end_force[1] = {0.0, -P};
  const InternalForces f = forces_of(beam, motion);
  ASSERT_EQ(f.s.size(), 21);
  for (Eigen::Index k = 0; k < f.s.size(); ++k) {
    EXPECT_NEAR(f.moment(k), -P * (length - f.s(k)), 1e-9 * P * length) << "s = " << f.s(k);
    EXPECT_NEAR(f.shear(k), P, 1e-9 * P) << "s = " << f.s(k);
    EXPECT_NEAR(f.normal(k), 0.0, 1e-9 * P) << "s = " << f.s(k);
  }
  const auto [top, bottom] = fibre_stresses(0.0, f.moment(0), steel.A, steel.I / 0.003);
  EXPECT_NEAR(top, P * length * 0.003 / steel.I, 1e-9 * top) << "sigma = M c / I at the clamp";
  EXPECT_NEAR(bottom, -top, 1e-9 * top);
}

TEST(InternalForces, SimplySupportedBeamUnderItsOwnWeightHasTheParabolicMomentAtNodesAndMiddles) {
  // Pinned-sliding under gravity (a load rho A g down): M = rho A g s (L - s) / 2 (sagging, v'' > 0
  // with v up), V = dM/ds = rho A g (L - 2 s) / 2; a uniform load: nodes (element recovery) and
  // middles (q h^2 / 8) both exact.
  const BeamModel beam = make_beam(steel, length, 8, {BeamSupport::pinned, BeamSupport::sliding}, false);
  FrameMotion motion;
  const double g = 9.81, q = steel.mass_per_length() * g;
  motion.gravity = {0.0, -g};
  const InternalForces f = forces_of(beam, motion);
  const double scale = q * length * length / 8.0;
  for (Eigen::Index k = 0; k < f.s.size(); ++k) {
    const double s = f.s(k);
    EXPECT_NEAR(f.moment(k), q * s * (length - s) / 2.0, 1e-9 * scale) << "s = " << s;
    EXPECT_NEAR(f.shear(k), q * (length - 2.0 * s) / 2.0, 1e-9 * q * length) << "s = " << s;
    EXPECT_NEAR(f.normal(k), 0.0, 1e-9 * q * length) << "s = " << s;
  }
}

TEST(InternalForces, SpinningBarHasTheElasticBarsAxialForceAtEveryStation) {
  // Clamped to a hub at s = 0, spinning at omega: EA u'' + rho A omega^2 (s + u) = 0, u(0) = 0,
  // N(L) = 0 give N = EA (cos(k s) / cos(k L) - 1), k^2 = rho omega^2 / E (the rigid
  // rho A omega^2 (L^2 - s^2) / 2 with the bar's stretch). The hub's pull -N(0) is the end force
  // at s = 0 (it sets the geometric stiffness's axial force).
  const BeamModel beam = make_beam(steel, length, 10, {BeamSupport::clamped, BeamSupport::free}, true);
  FrameMotion motion;
  const double omega = 300.0, mu = steel.mass_per_length();
  motion.omega = omega;
  motion.end_force[0] = {-0.5 * mu * omega * omega * length * length, 0.0};
  const InternalForces f = forces_of(beam, motion);
  const double k = omega * std::sqrt(steel.rho / steel.E), EA = steel.E * steel.A;
  const double peak = EA * (1.0 / std::cos(k * length) - 1.0);
  for (Eigen::Index i = 0; i < f.s.size(); ++i) {
    const double exact = EA * (std::cos(k * f.s(i)) / std::cos(k * length) - 1.0);
    // Nodes (element recovery) to 1e-6; middles to 5e-6: they take N'' from the rigid spin.
    EXPECT_NEAR(f.normal(i), exact, (i % 2 == 0 ? 1e-6 : 5e-6) * peak) << "s = " << f.s(i);
    EXPECT_NEAR(f.moment(i), 0.0, 1e-9 * peak * length) << "no bending";
  }
  EXPECT_GT(std::abs(peak / (0.5 * mu * omega * omega * length * length) - 1.0), 1e-4)
      << "the stretch is visible at this speed";
}

TEST(InternalForces, ShakenCantileverIsFreeOfForceAtItsTipAtEveryInstantOfItsSteadyResponse) {
  // Dynamic recovery: the inertia, damping and frame terms of every element balance at the free
  // tip (N = V = M = 0 there, to rounding) while the clamp carries the whole inertia load.
  BeamModel beam = make_beam(steel, length, 10, {BeamSupport::clamped, BeamSupport::free}, false);
  std::tie(beam.damping_alpha, beam.damping_beta) = rayleigh_damping(beam, 0.02);
  const double forcing = 150.0, amplitude = 40.0;
  const MotionAt shaking = [&](double t, FrameMotion& f) {
    f = FrameMotion{};
    f.omega = 2.0, f.epsilon = 5.0 * std::cos(forcing * t);
    f.origin_acceleration = {3.0, amplitude * std::sin(forcing * t)};
  };
  const Response r = periodic_response(beam, shaking, 0.0, 2.0 * M_PI / forcing, 400);
  InternalForceWorkspace ws(beam);
  double clamp = 0.0, tip = 0.0;
  for (size_t k = 0; k < r.t.size(); k += 10) {
    FrameMotion motion;
    shaking(r.t[k], motion);
    internal_forces(beam, motion, r.displacement.col(static_cast<Eigen::Index>(k)),
                    r.velocity.col(static_cast<Eigen::Index>(k)), ws);
    const InternalForces& f = ws.forces;
    const Eigen::Index last = f.s.size() - 1;
    clamp = std::max(clamp, std::abs(f.moment(0)) / length + std::abs(f.shear(0)));
    tip = std::max({tip, std::abs(f.moment(last)) / length, std::abs(f.shear(last)), std::abs(f.normal(last))});
  }
  EXPECT_GT(clamp, 0.1);
  EXPECT_LT(tip, 1e-9 * clamp);
}

}  // namespace
}  // namespace linkdyn::flex
